/* fleet.h - a fleet file rendered (results/fleet.h): the groups with their
 * kind and how they were judged, the flagged nodes and why, nodes x metrics
 * for the metrics with a flag (flagged cells marked, the group median first),
 * and the reference checks per path. term and md here, one CSV row per node
 * and metric, JSON as the file; HTML in html_fleet.c with a strip plot of
 * every node per flagged metric. Text from the file is escaped for the format
 * as it is written (docs/design.md §9.3). */
#ifndef MEMPATH_REPORT_FLEET_H
#define MEMPATH_REPORT_FLEET_H

#include <stdio.h>

#include "report/format.h"
#include "results/fleet.h"

int report_fleet_text(const struct fleet *fl, enum report_format fmt, FILE *f);
int report_fleet_csv(const struct fleet *fl, FILE *f);
/* `mempath check`: one line per path (PASS, WARN, FAIL or n/a, the value,
 * the reference and what the number means), then the counts; term, md or
 * json (an object: what, checks, counts). */
int report_checks(const char *what, const struct fleet_check *c, size_t n, enum report_format fmt,
		  FILE *f);
/* `check --brief` (make run's judgement, headlines.c): one term line a path
 * (its status, value and reference or the reason it was not judged), then
 * each probe of r that no path judged by its headline figure - its first
 * metric with a better direction and samples - and that figure's spread. */
int report_checks_brief(const char *what, const struct fleet_check *c, size_t n,
			const struct run *r, FILE *f);

/* What the writers share. A node's median of a group's metric (the first
 * probe of that name that ran and has the metric with exactly those labels),
 * or NAN. */
double report_fleet_value(const struct run *r, const struct fleet_stat *s);
/* The node's flag on that metric, or NULL. */
const struct fleet_flag *report_fleet_flag_of(const struct fleet_node *n,
					      const struct fleet_stat *s);
/* "k=v,k=v" into buf. */
void report_fleet_labels(const struct label *l, size_t n, char *buf, size_t len);

#endif
