/* compare_cells.h - shared by the comparison writers so all formats say the
 * same thing: a leg's median cell ("2.39 GiB/s", with_change adds
 * " (+19.9%)" for a B leg), the verdict cell ("LOSS (control MOVED): reason"),
 * a change "+19.9%", the CI "[+19.1, +21.4]%" and a p value, each "-" when
 * undefined; the Holm family size; the rules line (prefix first, newline
 * last); the heading over the differing knobs (NULL when none differ). */
#ifndef MEMPATH_REPORT_COMPARE_CELLS_H
#define MEMPATH_REPORT_COMPARE_CELLS_H

#include "report/format.h"
#include "verdict/compare.h"
#include <stddef.h>
#include <stdio.h>

void report_compare_cell(const struct comparison *c, const struct compare_row *row, size_t j,
			 char *buf, size_t len, int with_change);
/* The table's value columns: one per leg, or for a comparison of rounds the
 * A and B medians over the rounds used (a round per column would not fit):
 * how many, each's heading and a row's cell in it. */
size_t report_compare_ncols(const struct comparison *c);
const char *report_compare_col_name(const struct comparison *c, size_t k);
void report_compare_col(const struct comparison *c, const struct compare_row *row, size_t k,
			char *buf, size_t len, int with_change);
/* The samples a verdict rests on, "A/B" ("30/30"), "-" when none. */
void report_compare_n(const struct compare_row *row, char *buf, size_t len);
void report_compare_verdict(const struct compare_row *row, int with_reason, char *buf, size_t len);
/* The mechanism column (docs/design.md §5.15), shown where any row has a
 * mechanism: the REPORT_MECH_CELL counters that moved most with the row's
 * WIN or LOSS, ranked, each with its change ("sw:page-faults -99.0%,
 * vmstat:thp_fault_alloc 0 -> 32, 3 more"; the section after the table
 * names them all), "none moved", or "-" for a row without one. */
#define REPORT_MECH_CELL 2
int report_compare_has_mechanism(const struct comparison *c);
void report_compare_mechanism(const struct compare_row *row, char *buf, size_t len);
void report_compare_pct(double v, char *buf, size_t len);
void report_compare_ci(const struct compare_row *row, char *buf, size_t len);
/* "6.2% round noise": the threshold and what set it (§5.18); "-" if none. */
void report_compare_threshold(const struct compare_row *row, char *buf, size_t len);
/* The CI's heading: "95% CI", or the level a look of auto rounds tested at
 * ("99.9% CI"); a static string. */
const char *report_compare_ci_name(const struct comparison *c);
void report_compare_p(double p, char *buf, size_t len);
size_t report_compare_family(const struct comparison *c);
void report_compare_rules(const struct comparison *c, FILE *f, const char *prefix);
const char *report_compare_knob_heading(const struct comparison *c);
/* How a leg of ab was made ("setup: CMD; env: K=V K=V"), or NULL when the
 * leg's file has no ab record; a new string. */
char *report_compare_leg_how(const struct run *r);

/* A comparison of wrap legs: the workload's tables with a column per leg
 * (wrap_tables.h, docs/design.md §11.6); nothing unless every leg is one. */
/* The missing metrics, one line each ("KEY (why)"), or with the comparison's
 * brief_missing one line a reason: "680 metrics of 12 probes (probe run
 * with other options in B): cpu.x, cpu.y, cpu.z and 9 more". Into *lines
 * (the caller frees each and the array); returns how many. */
size_t report_compare_missing(const struct comparison *c, char ***lines);
void report_compare_wrap(const struct comparison *c, enum report_format fmt, FILE *f);

#endif
