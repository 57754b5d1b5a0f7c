/* workload.h - any command run as a measurement: its own numbers (llama-bench
 * JSON/JSONL, JSON lines, "name value unit" lines), its rusage, and the
 * machine's counters around it.
 *
 * workload_exec() runs a command once in its own process group (stdin from
 * /dev/null, stdout captured for parsing, the tail of stderr kept for the
 * record) and takes wait4() rusage; a timeout or Ctrl-C ends the whole group.
 * The parsers (workload_parse.h) are pure: text in, values out.
 * workload_record_iter() turns one iteration into samples of a probe result
 * (metric samples are iterations, warm-up iterations are warm-ups), which is
 * what lets `compare` and `ab` treat a workload like a probe.
 *
 * Ownership: structs filled here own their strings; the matching _free()
 * releases them. Absent counters are absent, never zero (docs/design.md §3).
 */
#ifndef MEMPATH_WORKLOAD_H
#define MEMPATH_WORKLOAD_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "base/kv.h"
#include "results/results.h"
#include "workload/sampler.h"
#include "workload/workload_parse.h"

#define WORKLOAD_MAX_STDOUT (16u << 20) /* parsed output kept; the rest is read and dropped */
#define WORKLOAD_ERR_TAIL   2048	/* bytes of stderr kept for the record */

/* ---- running it (workload.c) -------------------------------------------- */

struct workload_run {
	int started; /* 0: fork or pipe failed */
	int status;  /* wait status (exec failure: exit 127, message in err_tail) */
	int timed_out, interrupted;
	double wall_s, user_s, sys_s;
	int64_t max_rss_kib, minflt, majflt;
	char *out; /* stdout, NUL-terminated, at most WORKLOAD_MAX_STDOUT */
	size_t out_len;
	int out_truncated;
	char *err_tail; /* last WORKLOAD_ERR_TAIL bytes of stderr */
	size_t left;	/* processes it left running, stopped after it (reaper.h) */
	char left_names[128];
};

/* Runs argv (execvp) once. timeout_s <= 0: none. echo: copy its stdout and
 * stderr to our stderr as they come. cgroup: the cgroup the command is
 * started in (it joins before exec; a shared one is only read), or NULL. smp: sampled while it
 * runs, or NULL. Then stops what it left running (after reaper_adopt(): r->left). Returns 0
 * whatever the command did, -1 when it could not be started (error printed). */
int workload_exec(char *const *argv, double timeout_s, int echo, const struct cgroup *cgroup,
		  struct sampler *smp, struct workload_run *r);
void workload_run_free(struct workload_run *r);
/* "exit 0", "exit 3", "signal 9 (Killed)", "timeout", "not started"; new string. */
char *workload_status_str(const struct workload_run *r);
/* 1 when the run exited 0 without timeout or interruption. */
int workload_run_ok(const struct workload_run *r);

/* ---- counters around it ------------------------------------------------- */
/* The counters shown per iteration (docs/design.md §10.8: promotion, demotion,
 * migration, NUMA hinting, pghot_*, hwhint_*) */
int workload_counter_is_key(const char *name);

/* numastat of every node under sysfs_root: {"node0": {"numa_hit": N, ...}}. */
json_t *workload_numastat_read(const char *sysfs_root);
/* after - before per node and counter (nodes and counters in both). */
json_t *workload_numastat_delta(json_t *before, json_t *after);
/* /proc/meminfo as {"MemAvailable": bytes, ...}; an empty object if unreadable. */
json_t *workload_meminfo_json(void);

/* ---- recording ---------------------------------------------------------- */

struct workload_iter {
	unsigned index; /* 1-based within its kind (warm-up or counted) */
	int warmup;
	struct workload_run run;
	struct workload_values vals;
	enum workload_parse parsed_as;
	struct kv_list vm_delta; /* recorded vmstat counters over this iteration (machine-wide) */
	int have_vm;
	json_t *cgroup;	    /* its cgroup's readings (cgroup_read_end), or NULL */
	struct sampler smp; /* what it held while it ran */
};

/* Adds the iteration as one sample (or warm-up) of each of its metrics in p:
 * the workload's own values, wall_time, user_time, sys_time, max_rss,
 * minor_faults, major_faults, the key machine-wide vmstat deltas ("vmstat"
 * labelled counter=<name>), its cgroup's readings and the smaps sampled
 * while it ran (docs/design.md §11.4), and for llama-bench every repetition
 * and the load estimate (§11.3); appends its details to
 * p->extra.iterations. A failed iteration adds its rusage but no workload
 * values (absent, never zero). */
void workload_record_iter(struct probe_result *p, const struct workload_iter *it);
/* Is name one of wrap's own metrics (wall_time, ..., vmstat)? A workload
 * value of that name is recorded as "workload.<name>". */
int workload_name_is_ours(const char *name);
void workload_iter_free(struct workload_iter *it);

#endif
