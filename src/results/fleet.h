/* fleet.h - the model of a fleet file (schema mempath/fleet/1, docs/schema.md):
 * every node's run as its own results (mempath/run/1), the groups of nodes of
 * one kind with the median and spread of each metric, and per node what was
 * flagged and why, and its reference checks. The rules that fill groups,
 * flags and checks are in src/verdict/fleet.c (docs/design.md §5.9).
 *
 * Ownership: a fleet owns everything reachable from it; fleet_free() frees
 * it. Strings passed in are copied; runs given to fleet_add_node are taken.
 */
#ifndef MEMPATH_RESULTS_FLEET_H
#define MEMPATH_RESULTS_FLEET_H

#include <stddef.h>

#include "results/results.h"

#define FLEET_SCHEMA "mempath/fleet/1"

/* CHECK_NA reads INCONCLUSIVE: the path could not be judged (not run, labels
 * changed, no limit, or a receipt of the figure failed, kit/receipts.h);
 * its reason says which. */
enum check_status { CHECK_PASS = 0, CHECK_WARN, CHECK_FAIL, CHECK_NA };
#define CHECK__COUNT (CHECK_NA + 1)

/* "PASS", "WARN", "FAIL", "INCONCLUSIVE" (a path that could not be judged,
 * with its reason); and back (0 or -1; "n/a", the older name, reads as
 * INCONCLUSIVE). */
const char *check_status_name(enum check_status s);
int check_status_parse(const char *s, enum check_status *out);

/* One path judged against a reference value (data/, docs/fleet.md). */
struct fleet_check {
	char *kind;  /* the reference file's kind */
	char *path;  /* "HBM read" */
	char *means; /* "bytes read once, one way" */
	char *probe, *metric;
	struct label *labels;
	size_t n_labels;
	enum unit unit;
	enum better better;
	double value;	  /* the node's median; NAN when it was not measured */
	double reference; /* the reference value */
	double tolerance; /* fraction: WARN beyond it, FAIL beyond twice it */
	char *source;	  /* where the reference was measured: a file in docs/results/ */
	char *date;
	char *other;  /* what another tool read on this path, or NULL */
	char *reason; /* INCONCLUSIVE: why the path could not be judged; a band: the limit */
	char *load;   /* WARN/FAIL measured under load: the load, named (docs/design.md §4.14) */
	char *tool;   /* the reference is this tool's figure ("nvbandwidth v0.8 -t ..."), or NULL */
	char *note;   /* what differs between the figure's measurement and the reference's */
	int rest;     /* a figure no path of the kind names: its limit, or why not */
	enum check_status status;
};

/* One flagged metric of a node (or a probe that failed there: metric NULL). */
struct fleet_flag {
	char *probe, *metric;
	struct label *labels;
	size_t n_labels;
	enum unit unit;
	enum better better;
	double value;		 /* the node's median; NAN when none */
	double group_median;	 /* NAN: not judged by peers */
	double robust_z;	 /* modified z; NAN: not judged by peers */
	double threshold;	 /* the practical threshold used (fraction); NAN */
	struct fleet_check *ref; /* the failed reference check, or NULL */
	char *why;		 /* one line */
	/* a peer flag the node's load explains (its noise meter saw other work):
	 * why, busy not slow (docs/design.md §4.14); NULL otherwise */
	char *busy;
};

/* One metric of a group: the peers' median and spread. */
struct fleet_stat {
	char *probe, *metric;
	struct label *labels;
	size_t n_labels;
	enum unit unit;
	enum better better;
	size_t n;	  /* nodes with a value */
	double median;	  /* of the nodes' medians */
	double mad;	  /* median absolute deviation from it */
	double threshold; /* practical threshold (fraction) */
	char *not_judged; /* NULL: judged by peers; else why not */
	size_t n_flagged;
};

struct fleet_group {
	char *key; /* the kind: CPU model and count, memory, GPUs, driver */
	size_t n_nodes;
	int by_peers; /* n_nodes >= min_group */
	char *judged; /* one line: by peers and references, or why references only */
	char **refs;  /* kinds of the reference files that apply */
	size_t n_refs;
	struct fleet_stat *stats;
	size_t n_stats;
};

struct fleet_node {
	char *name; /* host, or host:rank where ranks share a host */
	char *host; /* the host's name */
	int rank;   /* MPI rank; -1 when merged from files */
	char *file; /* the results file it was merged from, or NULL */
	size_t group;
	struct run *run; /* NULL when the node sent no results (error says why) */
	/* run as JSON text, as the node sent it or its file had it (already
	 * read into run); written as is, since dumping a thousand runs again
	 * took most of a merge. NULL: written from run. */
	char *run_json;
	char *error;
	char **notes; /* "every probe skipped: ..." */
	size_t n_notes;
	struct fleet_flag *flags;
	size_t n_flags;
	struct fleet_check *checks;
	size_t n_checks;
};

struct fleet_thresholds {
	double z;	    /* |modified z| above this, in the worse direction: 3.5 */
	double practical;   /* and a difference beyond this fraction: 0.05 */
	unsigned min_group; /* groups smaller than this: references only (5) */
};

struct fleet {
	char *tool_version, *git_hash;
	char *created; /* ISO 8601 UTC */
	char *source;  /* "mpi" or "merge" */
	char *mpi;     /* the MPI library, or NULL */
	char **argv;
	size_t argc;
	struct fleet_thresholds th;
	struct fleet_node *nodes;
	size_t n_nodes, cap_nodes;
	struct fleet_group *groups;
	size_t n_groups;
	char **notes;
	size_t n_notes;
	size_t n_flagged; /* nodes with at least one flag */
	size_t n_busy;	  /* of them, nodes whose every flag is busy, not slow */
	/* Peer tests over the fleet (nodes x metrics judged by peers), the
	 * level of each (Bonferroni: FLEET_ALPHA / n_tests, on a node's
	 * leave-one-out t against its peers) and the flags pure chance would
	 * give at it (docs/design.md §5.9); 0, NAN, NAN before judging. */
	size_t n_tests;
	double test_alpha, expected_false;
};

/* The family-wise false-flag rate the peers' cut holds over a fleet. */
#define FLEET_ALPHA 0.05

void fleet_thresholds_default(struct fleet_thresholds *th);
struct fleet *fleet_new(void);
void fleet_free(struct fleet *f);
/* Appends a node (run taken, may be NULL); the pointer is valid until the
 * next add. */
struct fleet_node *fleet_add_node(struct fleet *f, const char *name, const char *host, int rank,
				  const char *file, struct run *run);
void fleet_add_note(struct fleet *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fleet_node_note(struct fleet_node *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Drops groups, stats, flags and checks (before judging again). */
void fleet_clear_verdicts(struct fleet *f);
/* Labels copied into a new array. */
struct label *fleet_labels_dup(const struct label *l, size_t n);
void fleet_labels_free(struct label *l, size_t n);
void fleet_check_clear(struct fleet_check *c);
void fleet_flag_clear(struct fleet_flag *fl);
/* 1 where the node has flags and each is busy (fl->busy), not slow. */
int fleet_node_busy(const struct fleet_node *n);
void fleet_stat_clear(struct fleet_stat *s);

#endif
