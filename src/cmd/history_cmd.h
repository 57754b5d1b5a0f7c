/* history_cmd.h - what the files of `mempath history` share: its options,
 * the readers of its arguments (history_args.c), the baseline subcommands bless
 * and check (history_baseline.c) and the change points (history_changes.c:
 * trend --changepoints, check --changepoints, bless --stable; docs/design.md
 * §3.5). Only cmd/history*.c include it. */
#ifndef MEMPATH_CMD_HISTORY_CMD_H
#define MEMPATH_CMD_HISTORY_CMD_H

#include <stddef.h>
#include <stdint.h>

#include "cmd/args.h"
#include "cmd/groups.h"
#include "report/report.h"
#include "results/results.h"
#include "store/history.h"

struct history_opts {
	const char *db, *kind, *host, *stable;
	enum report_format format;
	unsigned limit;
	double wait_s;
	struct verdict_args v; /* check */
	int limit_given, changepoints;
};

/* A results file (a comparison is no run): NULL after an error line. With
 * text, the file's bytes too, kept as they are. */
struct run *history_cmd_read_run(const char *path, char **text);
/* A run's id as typed: "12" or "#12". 0 when it is none. */
int64_t history_cmd_run_id(const char *s);
/* "probe:metric[,k=GLOB...]" split; 0, or -1 after an error line. */
int history_cmd_parse_metric(const char *spec, char **probe, char **metric, const char **labels);
/* history bless and history check; their exit status. */
int history_cmd_bless(struct history *h, const struct history_opts *o, const struct cmd_line *l);
int history_cmd_check(struct history *h, const struct history_opts *o, const struct cmd_line *l);

/* The series of one metric and their change points; 0, 1 (a database
 * error), 2 (no such metric). */
int history_cmd_trend_changes(struct history *h, const char *probe, const char *metric,
			      const char *labels, const char *kind, const char *host, int csv);
/* Every metric of kind (all kinds when NULL): exit 1 when a series' newest
 * segment is worse than the one before, 0 when none is. */
int history_cmd_check_changes(struct history *h, const char *kind, int csv);
/* The runs of the newest segment of the one series of the metric (of kind
 * when given), the newest `max` of them, oldest first, into *ids; *kind_out
 * the series' kind. 0, or 2 after an error line (no such series, several,
 * a segment of fewer than 3 runs), 1 on a database error. */
int history_cmd_stable_runs(struct history *h, const char *probe, const char *metric,
			    const char *labels, const char *kind, size_t max, int64_t **ids,
			    size_t *n, char **kind_out);

#endif
