/* results.h - the results model: a run holds probe results, which hold metrics
 * with all their raw samples. Schema "mempath/run/1" (docs/schema.md).
 *
 * Ownership: a struct run owns everything reachable from it; run_free() frees it.
 * Strings passed in are copied. Host fingerprint and knobs are jansson objects
 * (semi-structured, compared key by key), owned by the run (one reference).
 * Summaries are never trusted from a file: results_json recomputes them from
 * the raw samples on read.
 */
#ifndef MEMPATH_RESULTS_H
#define MEMPATH_RESULTS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "base/stats.h"

#define RESULTS_SCHEMA "mempath/run/1"
/* The largest results or comparison file read (2 million samples a metric
 * take about 17 MiB). */
#define RESULTS_MAX_FILE_BYTES (512ull << 20)

/* Units: fixed strings in the file. GB = 1e9 bytes, GiB = 2^30 bytes. */
enum unit {
	UNIT_NONE = 0,
	UNIT_GB_S,     /* "GB/s"   1e9 bytes per second */
	UNIT_GIB_S,    /* "GiB/s"  2^30 bytes per second */
	UNIT_NS,       /* "ns" */
	UNIT_US,       /* "us" */
	UNIT_MS,       /* "ms" */
	UNIT_S,	       /* "s" */
	UNIT_MACC_S,   /* "Macc/s" million accesses per second */
	UNIT_MIB,      /* "MiB" */
	UNIT_GIB,      /* "GiB" */
	UNIT_BYTES,    /* "B" */
	UNIT_COUNT,    /* "count" */
	UNIT_PER_GIB,  /* "/GiB" events per GiB touched */
	UNIT_WORDS_US, /* "words/us" 64-bit words per microsecond */
	UNIT_PCT,      /* "%" */
	UNIT_MHZ,      /* "MHz" */
	UNIT_W,	       /* "W" */
	UNIT_C,	       /* "C" degrees Celsius */
	UNIT_RATIO,    /* "x" */
	UNIT_TOKENS_S, /* "tok/s" */
	UNIT_GFLOP_S,  /* "GFLOP/s" 1e9 floating-point operations per second */
	UNIT__COUNT
};

enum better { BETTER_NONE = 0, BETTER_HIGHER, BETTER_LOWER };

enum probe_status { STATUS_OK = 0, STATUS_SKIP, STATUS_FAIL, STATUS_TIMEOUT };

const char *unit_name(enum unit u);
int unit_parse(const char *s, enum unit *out); /* 0 or -1 */
const char *better_name(enum better b);
int better_parse(const char *s, enum better *out);
/* Is metric one that `wrap` measures itself on work.wrap (wall_time, the
 * rusage, cgroup, smaps and vmstat figures), as against the workload's own
 * (tokens_per_s, or what it printed)? */
int results_wrap_measured(const char *metric);
const char *status_name(enum probe_status s);
int status_parse(const char *s, enum probe_status *out);

struct label {
	char *key;
	char *value;
};

struct metric {
	char *name; /* "read_bw"; a string literal at the call site */
	enum unit unit;
	enum better better;
	char *desc; /* granularity and byte rule: "bytes read once, 64 B lines" */
	struct label *labels;
	size_t n_labels;
	double *samples; /* counted samples, in order taken */
	size_t n_samples, cap_samples;
	double *warmups; /* warm-up samples: run and kept, never summarized */
	size_t n_warmups, cap_warmups;
	struct summary summary; /* recomputed by metric_summarize() */
	/* Per counted sample (cap_samples long, or NULL): when its window began
	 * and ended, as metric_add_sample() saw it (monotonic seconds; in a
	 * file, seconds from the probe's start; the first window of a metric
	 * with no warm-up has no start: NAN), and the other CPUs busy over the
	 * window, from the noise meter (docs/design.md §4.14; NAN: unknown). */
	double *t0, *t1, *busy;
	double *wait;	    /* the probe's threads waiting for a CPU over each window */
	double *gpu_others; /* GPU probes: other processes on the GPUs around it */
	double last_t;	    /* when the last sample or warm-up was added; 0: none */
	/* The counters over each counted sample's window (docs/design.md
	 * §4.17, docs/schema.md): {"moved": {name: [delta or null per
	 * sample]}, "unmarked": [sample indices]}; NULL when none was read. */
	json_t *counters;
	char *stop; /* --reps auto: why sampling stopped; NULL otherwise */
	/* What the figure assumes and whether the evidence held it
	 * (kit/receipts.h): [{"assumes", "state", "evidence"}]; NULL: none. */
	json_t *receipts;
	/* In the probe's child only (not in files): the work one counted
	 * sample did, in the metric's base unit (bytes for a bandwidth); 0
	 * when not said. What a link receipt compares (kit/receipts.h). */
	double work;
	/* One of its probe's primary figures (kit/probe.h): PRIMARY_UNSAID
	 * where the probe names none (and in files written before), else
	 * PRIMARY_YES or PRIMARY_NO. */
	int primary;
};

enum { PRIMARY_UNSAID = 0, PRIMARY_YES = 1, PRIMARY_NO = 2 };

struct counter {
	char *name;
	int64_t delta;
};

struct probe_result {
	char *name; /* "cpu.stream" */
	enum probe_status status;
	char *reason;	      /* why skip/fail/timeout; NULL when ok */
	struct label *params; /* effective parameters, canonical text */
	size_t n_params;
	/* Keys of the params that are the probe's identity: its options as
	 * given (compare joins on them). The other params are values it
	 * obtained while it ran (the knee found, the size used). */
	char **identity;
	size_t n_identity;
	struct metric *metrics;
	size_t n_metrics, cap_metrics;
	struct counter *counters; /* /proc/vmstat deltas over the probe; absent = absent */
	size_t n_counters;
	double wall_s;	      /* child's wall time */
	double user_s, sys_s; /* child's rusage */
	int64_t max_rss_kib, minflt, majflt;
	json_t *extra; /* probe-specific notes (knee found, sizes used); may be NULL */
	/* The samples' windows belong in the file (a probe measured in a
	 * child sets it; the runner rebases them to the probe's start). */
	int timed;
	json_t *noise; /* the noise meter's record over the probe, or NULL */
	/* The counter sources opened around the sample windows, each with its
	 * state and, where it could not be read, why (docs/design.md §4.17);
	 * NULL when none was opened. */
	json_t *counter_sources;
};

struct run {
	char *schema;
	char *tool_version;
	char *git_hash;
	char **argv;
	size_t argc;
	char *label;
	char *suite;
	char *start_time, *end_time;
	json_t *host;	     /* sysinfo fingerprint */
	json_t *knobs_start; /* knobs at start */
	json_t *knobs_end;   /* knobs read again at end */
	json_t *noise;	     /* load average before/after etc. */
	json_t *leg;	     /* a leg of `ab`: variant, label, setup, env; or NULL */
	struct probe_result *probes;
	size_t n_probes, cap_probes;
	int interrupted; /* Ctrl-C: partial run */
	int complete; /* the run ended; the saves before say 0, so a killed run reads incomplete */
};

struct run *run_new(void);
void run_free(struct run *r);
/* Is b a copy of a: started at the same time on the same host, every
 * metric's samples equal (one run in two files)? */
int run_same(const struct run *a, const struct run *b);
/* Appends a zeroed probe result named `name`; pointer valid until next add. */
struct probe_result *run_add_probe(struct run *r, const char *name);
/* Moves the contents of src into a new slot (src is left empty). */
void run_take_probe(struct run *r, struct probe_result *src);

void probe_result_init(struct probe_result *p, const char *name);
void probe_result_clear(struct probe_result *p);
void probe_result_set_status(struct probe_result *p, enum probe_status s, const char *reason_fmt,
			     ...) __attribute__((format(printf, 3, 4)));
/* A value the probe obtained while it ran (not part of its identity). */
void probe_result_add_param(struct probe_result *p, const char *key, const char *value);
/* An option as given: a param that is part of the probe's identity. */
void probe_result_add_option(struct probe_result *p, const char *key, const char *value);
/* Marks an existing param as part of the identity (the results reader). */
void probe_result_mark_identity(struct probe_result *p, const char *key);
/* Is param `key` part of p's identity? */
int probe_result_is_identity(const struct probe_result *p, const char *key);

/* Adds a metric. Labels come as NULL-terminated key,value pairs:
 *   probe_add_metric(p, "read_bw", UNIT_GB_S, BETTER_HIGHER,
 *                    "bytes read once", "threads", "4", NULL);
 * The returned pointer is valid until the next probe_add_metric on p. */
/* Marks each metric of p one of its probe's primary figures or not
 * (names: kit/probe.h's primary list; NULL: none said). */
void probe_result_mark_primary(struct probe_result *p, const char *names);
struct metric *probe_add_metric(struct probe_result *p, const char *name, enum unit unit,
				enum better better, const char *desc, ...)
	__attribute__((sentinel));
/* Same, with the label pairs as an array of 2*n strings. */
struct metric *probe_add_metric_v(struct probe_result *p, const char *name, enum unit unit,
				  enum better better, const char *desc, const char *const *kv,
				  size_t n_pairs);
/* Finds a metric with this name and exactly these labels (NULL-terminated). */
struct metric *probe_find_metric(struct probe_result *p, const char *name, ...)
	__attribute__((sentinel));
void probe_add_counter(struct probe_result *p, const char *name, int64_t delta);

/* The clock of the samples' windows (monotonic seconds): time_now_ns(), or
 * what metric_set_clock() installed - the counters layer, which reads its
 * counters at each window boundary it hands out (docs/design.md §4.17). A
 * probe that records its windows itself takes their ends from here. */
double metric_clock(void);
void metric_set_clock(double (*clock)(void));

/* Adds a counted sample, its window ending now (metric_clock(); and
 * beginning when the metric's previous sample or warm-up was added). */
void metric_add_sample(struct metric *m, double v);
/* The same with its window given (monotonic seconds, as time_now_ns()
 * 1e-9): for a probe that records its samples after taking them all. */
void metric_add_sample_at(struct metric *m, double v, double t0, double t1);
void metric_add_warmup(struct metric *m, double v);
/* Frees what m holds and zeroes it (a metric of a probe's own, not in a
 * result: the result frees its metrics). */
void metric_clear(struct metric *m);
void metric_add_label(struct metric *m, const char *key, const char *value);
/* Does every key=value of sub appear in of (order aside)? And equal: the
 * same labels both ways. The one label comparer of every layer above. */
int labels_subset(const struct label *sub, size_t n_sub, const struct label *of, size_t n_of);
int labels_equal(const struct label *a, size_t na, const struct label *b, size_t nb);
const char *metric_label(const struct metric *m, const char *key);
/* The other CPUs busy over the counted samples' windows, averaged, and the
 * most over one window; NAN when the metric has no such record. */
double metric_busy_mean(const struct metric *m, double *max);
void metric_summarize(struct metric *m);
/* The evidence of m's first failed receipt ("working set 768 MiB is 1.6x
 * the 480 MiB LLC"), or NULL when none failed. */
const char *metric_receipt_failed(const struct metric *m);
/* Is counted sample i of m void: a receipt named its window in its
 * "void_samples" (a CPU migration in it, kit/receipts.h, docs/design.md
 * §4.18)? And how many of m's counted samples are void. metric_summarize
 * summarizes the others. */
int metric_sample_void(const struct metric *m, size_t i);
size_t metric_void_count(const struct metric *m);
/* Labels joined as "k=v,k=v" into buf (for tables). */
void metric_labels_str(const struct metric *m, char *buf, size_t len);

#endif
