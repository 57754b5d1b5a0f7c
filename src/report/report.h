/* report.h - what commands call to render: a run, a comparison, a fleet or a
 * history table in any format, and the writer table that says which formats
 * there are (docs/design.md §9.12). One writer per format and kind below this
 * (term.c, md.c, csv.c, json.c, html.c, openmetrics.c; compare.c,
 * html_compare.c; fleet.c, html_fleet.c; history.c; doctor.c, findings.c);
 * writers print, probes record; none of these measure or change anything. */
#ifndef MEMPATH_REPORT_REPORT_H
#define MEMPATH_REPORT_REPORT_H

#include "report/format.h"
#include "report/history.h"
#include "results/fleet.h"
#include "results/results.h"
#include "verdict/compare.h"
#include <stdio.h>

struct doctor_doc;
struct finding;

/* The kinds of document, one column of the writer table each: a command's
 * --format takes the formats with a writer for any of its kinds
 * (cmd/args.h ARG_FORMAT). */
enum report_doc {
	REPORT_DOC_RUN = 1u << 0,      /* a results file */
	REPORT_DOC_COMPARE = 1u << 1,  /* a comparison */
	REPORT_DOC_FLEET = 1u << 2,    /* a fleet */
	REPORT_DOC_HISTORY = 1u << 3,  /* history list and trend */
	REPORT_DOC_CHECKS = 1u << 4,   /* check's PASS/WARN/FAIL per path */
	REPORT_DOC_DOCTOR = 1u << 5,   /* doctor's findings */
	REPORT_DOC_FINDINGS = 1u << 6, /* findings' write-up of ab directories */
	REPORT_DOC_ALL = (1u << 7) - 1
};

/* One row per output format: its name as --format takes it, and the writer
 * of each kind of document, NULL where the format does not apply to that
 * kind. A new format is one row here and its writers' files. */
struct report_writer {
	const char *name;
	enum report_format fmt;
	int (*run)(const struct run *r, FILE *f);
	int (*compare)(const struct comparison *c, FILE *f);
	int (*fleet)(const struct fleet *fl, FILE *f);
	int (*history)(const struct history_table *t, FILE *f);
	/* writers that share their code across formats, told which */
	int (*checks)(const char *what, const struct fleet_check *c, size_t n,
		      enum report_format fmt, FILE *f);
	int (*doctor)(const struct doctor_doc *d, FILE *f);
	int (*findings)(const struct finding *fs, size_t n, enum report_format fmt, FILE *f);
	/* Text from a file made safe for the format, applied to a copy of a run
	 * or a comparison before its writer sees it; NULL: the format's writers
	 * escape as they write (report_html_text, report_csv_field, JSON). */
	char *(*escapes)(const char *s);
	/* its run writer lays metrics out as matrices (matrix_check_run first) */
	int matrices;
};

extern const struct report_writer report_writers[];
extern const size_t report_writers_len;

/* The row of fmt (every enum value has one). */
const struct report_writer *report_writer_of(enum report_format fmt);
/* The row named s, or NULL (nothing printed). */
const struct report_writer *report_writer_find(const char *s);
/* Whether w has a writer for any of the kinds in docs (enum report_doc bits). */
int report_writer_has(const struct report_writer *w, unsigned docs);
/* The names of the formats with a writer for any of docs, in table order,
 * joined by sep ("term|md|json" with "|"). Lives as long as the process. */
const char *report_format_names(unsigned docs, const char *sep);

/* Renders r / c to f. Returns 0 or -1. */
int report_write(const struct run *r, enum report_format fmt, FILE *f);
int report_compare_write(const struct comparison *c, enum report_format fmt, FILE *f);
int report_fleet_write(const struct fleet *fl, enum report_format fmt, FILE *f);
int report_history_write(const struct history_table *t, enum report_format fmt, FILE *f);
int report_doctor_write(const struct doctor_doc *d, enum report_format fmt, FILE *f);
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
int report_doctor_write_file(const struct doctor_doc *d, enum report_format fmt, const char *path);

/* A deep copy of j as fmt prints it: every string and key escaped by the
 * format's escapes (none: as they are), and every real as a file with
 * `digits` significant digits reads it back (0: as it is), so what is
 * printed from j is what is printed from that file, to the last digit. */
json_t *report_print_json(json_t *j, enum report_format fmt, int digits);
/* A deep copy of j with every string and key escaped for fmt (term, md); a
 * new reference to j for the formats that escape as they write. */
json_t *report_escape_json(json_t *j, enum report_format fmt);

#endif
