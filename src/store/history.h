/* history.h - the history of runs: results files kept in one SQLite
 * database, listed, shown, followed per metric over time, and a blessed
 * baseline per machine kind (docs/design.md §3.4, docs/schema.md).
 *
 * A run is kept whole (its JSON, so `check` can run the verdict engine on
 * the raw samples later) and each metric's median, p5, p95 and sample
 * count beside it, so a trend over thousands of runs reads one indexed
 * table. The database is in WAL mode; every write is one transaction
 * taken up front (BEGIN IMMEDIATE), so two processes adding at once wait
 * for each other instead of failing. The schema is versioned
 * (PRAGMA user_version) and migrated forward on open.
 *
 * Errors are one line (error()) naming the database: not a database,
 * damaged, another program's, a newer schema, locked past --wait.
 */
#ifndef MEMPATH_STORE_HISTORY_H
#define MEMPATH_STORE_HISTORY_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "base/changepoint.h"
#include "results/results.h"

#define HISTORY_SCHEMA_VERSION 3
/* PRAGMA application_id: "mphs", so a file of another program is told apart */
#define HISTORY_APP_ID 0x6d706873

struct history;

/* What history_open() failed on, for the caller's exit status: the file
 * cannot be used as a history (2), it is busy (1), or it cannot be written
 * (a full disk, no permission: 1). */
enum history_err { HISTORY_OK = 0, HISTORY_BAD_FILE, HISTORY_BUSY, HISTORY_IO };

/* Opens the history at path, creating it (and its folder) or migrating it
 * to HISTORY_SCHEMA_VERSION; waits up to wait_s for a lock. NULL after one
 * error line, *err saying which kind. */
struct history *history_open(const char *path, double wait_s, enum history_err *err);
/* For a query (list, show, trend, check): opens an existing, current
 * history read-only (a read-only file or folder too); never creates,
 * migrates or writes it. NULL after one error line (a missing file is
 * HISTORY_BAD_FILE). */
struct history *history_open_query(const char *path, double wait_s, enum history_err *err);
void history_close(struct history *h);
/* What the last failure was (HISTORY_OK when nothing failed): a database
 * found damaged after it opened is bad input, exit 2, as on open. */
enum history_err history_error(const struct history *h);
/* Where the history is: db when given, else $MEMPATH_HISTORY, else
 * $XDG_DATA_HOME/mempath/history.db (~/.local/share). NULL after an error
 * line (none of them, no HOME). Caller frees. */
char *history_path(const char *db);

/* The machine kind a fingerprint describes, the key of a baseline:
 * "AMD EPYC | 2 CPUs | 24 GiB" and " | 1x NVIDIA H200" per GPU model;
 * "?" for what the fingerprint lacks. Caller frees. */
char *history_kind(const json_t *host);

/* Many adds in one transaction (history_add then writes inside it): a
 * commit per run writes the index pages again each time, ten times the
 * work at 10,000 runs. history_commit ends it; a caller adding many
 * commits every few hundred milliseconds so another process waiting to
 * add gets its turn. 0 or -1. */
int history_begin(struct history *h);
int history_commit(struct history *h);
/* Adds r (path: where it came from, kept for the list; text: the file's
 * JSON as read, kept as it is, or NULL to keep r written out). Returns its
 * id; a run already kept (the same run, however its file is formatted)
 * gives the id it has, with *dup set. -1 after an error line. */
int64_t history_add(struct history *h, const struct run *r, const char *path, const char *text,
		    int *dup);
/* The run with this id, read back; NULL after an error line (no such run). */
struct run *history_get(struct history *h, int64_t id);
/* Makes run id the baseline of kind (its own when kind is NULL). 0 or -1. */
int history_bless(struct history *h, int64_t id, const char *kind);
/* Makes the n runs of ids (n >= 1) the baseline of kind (the first run's
 * own when NULL), in one transaction; the newest is the one `list` marks
 * first. 0 or -1 after an error line (no such run). */
int history_bless_set(struct history *h, const int64_t *ids, size_t n, const char *kind);
/* The baseline of kind: its id (the newest of a set), 0 when none, -1
 * after an error line. */
int64_t history_baseline(struct history *h, const char *kind);
/* Every run of the baseline of kind, oldest first, into *ids (caller
 * frees); *n 0 when there is none. 0 or -1 after an error line. */
int history_baseline_runs(struct history *h, const char *kind, int64_t **ids, size_t *n);

struct history_run {
	int64_t id;
	char *start_time, *label, *suite, *host, *kind, *path;
	int64_t n_probes, n_metrics;
	int blessed, complete;
};

/* Runs in order of their start, the newest `limit` (0: all), those of kind
 * and host only when given. 0 with *out (free with history_runs_free), or
 * -1 after an error line. */
int history_list(struct history *h, const char *kind, const char *host, size_t limit,
		 struct history_run **out, size_t *n);
void history_runs_free(struct history_run *v, size_t n);

struct history_point {
	int64_t run_id;
	char *start_time, *label, *host, *labels; /* labels: "k=v,k=v" */
	char *kind;				  /* the run's machine kind */
	double median, p5, p95;
	int64_t n;
	int blessed;
};

/* Every kept median of probe's metric (labels: "k=GLOB,..." each of which a
 * point's labels must match, or NULL), in order of the series' labels and
 * then of time, newest `limit` per series (0: all), of kind and host only
 * when given. unit and better of the newest point into *unit, *better. */
int history_trend(struct history *h, const char *probe, const char *metric, const char *labels,
		  const char *kind, const char *host, size_t limit, struct history_point **out,
		  size_t *n, char **unit, char **better);
void history_points_free(struct history_point *v, size_t n);
/* The distinct metric names kept for probe, or the probe names kept when
 * probe is NULL, sorted, into *names (free with history_names_free). 0, or
 * -1 on a database error. */
int history_names(struct history *h, const char *probe, char ***names, size_t *n);
void history_names_free(char **names, size_t n);

/* Change points (docs/design.md §3.5): one series per label set and
 * machine kind, its points in time order, and where its level changed. */
struct history_change {
	struct cp_change cp; /* indices into the series' points */
	int worse;	     /* the new level is worse (the metric's better direction) */
	char *changed;	     /* what differs in the fingerprint across it, or NULL */
};

struct history_series {
	char *kind, *labels;
	struct history_point *p;
	size_t n;
	struct history_change *c;
	size_t n_c;
};

/* The series of probe's metric (labels, kind, host as history_trend takes
 * them) with their change points. 0 with *out (free with
 * history_series_free), or -1 after an error line. */
int history_changes(struct history *h, const char *probe, const char *metric, const char *labels,
		    const char *kind, const char *host, struct history_series **out, size_t *n,
		    char **unit, char **better);
void history_series_free(struct history_series *v, size_t n);
/* Every probe and metric kept (of kind when given) that has a better
 * direction, in name order; the caller frees each string and both arrays.
 * 0, or -1 after an error line. */
int history_metric_names(struct history *h, const char *kind, char ***probes, char ***metrics,
			 size_t *n);

/* For tests: applies the migrations from the database's version up to
 * `to` on an open raw handle (sqlite3 *). 0 or -1. */
int history_migrate_to(void *db, int to, const char *path);

#endif
