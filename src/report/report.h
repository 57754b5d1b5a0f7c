/* report.h - what commands call to render: a run, a comparison or a fleet in any
 * format (format.h). One writer per format and kind below this (term.c,
 * md.c, csv.c, json.c, html.c; compare.c, html_compare.c; doctor.c); writers
 * print, probes record; none of these measure or change anything. */
#ifndef MEMPATH_REPORT_REPORT_H
#define MEMPATH_REPORT_REPORT_H

#include "report/format.h"
#include "results/fleet.h"
#include "results/results.h"
#include "verdict/compare.h"
#include <stdio.h>

/* Renders r / c to f. Returns 0 or -1. */
int report_write(const struct run *r, enum report_format fmt, FILE *f);
int report_compare_write(const struct comparison *c, enum report_format fmt, FILE *f);
int report_fleet_write(const struct fleet *fl, enum report_format fmt, FILE *f);
/* The terminal table in pieces, as a run goes: the head as it starts, each
 * probe's block as the probe ends, the state (interrupted) at the end; the
 * pieces together are report_write's term table of the finished run. Text
 * from the run is escaped as there. 0 or -1. */
int report_term_stream_head(const struct run *r, FILE *f);
int report_term_stream_probe(const struct run *r, const struct probe_result *p, FILE *f);
int report_term_stream_end(const struct run *r, FILE *f);
/* The same rendered into memory first, then written to path atomically, or
 * to stdout when path is NULL: a render that fails leaves no half-written
 * report. 0, or -1 after an error line. */
int report_write_file(const struct run *r, enum report_format fmt, const char *path);
int report_compare_write_file(const struct comparison *c, enum report_format fmt, const char *path);
int report_fleet_write_file(const struct fleet *fl, enum report_format fmt, const char *path);

#endif
