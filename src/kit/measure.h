/* measure.h - the probe context and the one timing loop.
 *
 * Rule (docs/design.md §4.1): one sample is one complete timed operation lasting
 * at least ctx->min_sample_ns; warm-ups run first, are kept as warm-ups and are
 * never summarized; ctx->reps counted samples follow. Probes record, writers
 * print: nothing here prints.
 */
#ifndef MEMPATH_MEASURE_H
#define MEMPATH_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include "results/results.h"

/* Probe return codes. A probe that returns SKIP or FAIL has set the reason with
 * probe_result_set_status(ctx->res, ...). */
enum { PROBE_OK = 0, PROBE_SKIP = 1, PROBE_FAIL = 2 };

struct probe_ctx {
	struct probe_result *res;
	unsigned reps;		/* counted samples per metric (default 10) */
	unsigned warmups;	/* warm-up samples per metric (default 2) */
	uint64_t min_sample_ns; /* shortest sample (default 50 ms) */
	int window_given;	/* --window-ms was given: a probe keeps min_sample_ns */
	int quick;		/* quick sizes were applied */
	int force;		/* sizes above 80% of MemAvailable allowed */
	/* --reps auto (docs/design.md §4.16): after reps samples, more until the
	 * 95% CI of the median is within +-auto_ci of it, auto_budget_s has
	 * passed since the metric's first sample, or MEASURE_AUTO_MAX; 0: off. */
	double auto_ci, auto_budget_s;
};

/* --reps auto: the least and the most counted samples of a metric. */
#define MEASURE_AUTO_MIN 10
#define MEASURE_AUTO_MAX 1000

/* Whether to take counted sample number `taken` (0-based) of m, first taken
 * at t0_ns: below ctx->reps always; with auto sampling, until the rule of
 * §4.16 says stop, and then why is kept in m->stop. */
int measure_more(struct probe_ctx *ctx, struct metric *m, unsigned taken, uint64_t t0_ns);

/* Does the measured operation `iters` times. Returns 0, or -1 on a failure
 * (for example a validation mismatch) which ends the measurement. */
typedef int (*measure_op_fn)(void *arg, uint64_t iters);

enum measure_kind {
	MEASURE_RATE,	  /* sample = work_per_iter * iters / seconds * scale */
	MEASURE_TIME_PER, /* sample = nanoseconds / (work_per_iter * iters) * scale */
};

/* Calibrates the iteration count so that one sample lasts >= min_sample_ns,
 * then records ctx->warmups warm-ups and ctx->reps samples into m.
 * Example: GB/s of a 1 GiB read = measure_op(ctx, m, op, arg, 1<<30,
 * MEASURE_RATE, 1e-9). Returns 0, or -1 if op failed. */
int measure_op(struct probe_ctx *ctx, struct metric *m, measure_op_fn op, void *arg,
	       double work_per_iter, enum measure_kind kind, double scale);

/* A probe's "threads" option ("1,2,8", "max", "all"; list.h) resolved
 * against the CPUs this process may use: PROBE_OK with the counts in out,
 * PROBE_FAIL for a malformed list, PROBE_SKIP when no count fits; counts above
 * the CPU count are dropped and recorded as the "threads_dropped" parameter.
 * out has room for LIST_MAX counts. */
int probe_threads(struct probe_ctx *ctx, const char *spec, unsigned *out, size_t *n_out);

/* Page passes before a chase is timed (cpu_kern_page_pass, on the calling
 * thread): one load per 4 KiB page over the buffer, repeated until a pass
 * after the first is within MEASURE_PAGE_ABSENT_NS a page, at most
 * MEASURE_PAGE_PASSES. A pass slower than that (more than a page walk and a
 * memory miss take on hardware) was building translations, as a guest does
 * whose hypervisor dropped them (docs/design.md §8.3); a chase would pay it
 * in its first lap. */
#define MEASURE_PAGE_PASSES    4
#define MEASURE_PAGE_ABSENT_NS 1000.0

struct page_passes {
	unsigned n;			/* passes made */
	double ns[MEASURE_PAGE_PASSES]; /* ns per page of each */
};

void measure_page_passes(const void *base, size_t bytes, struct page_passes *out);
/* Were the translations absent at the first pass? */
int measure_pages_absent(const struct page_passes *p);
/* {"ns_per_page": [each pass], "absent": bool}, for a probe's extra. */
json_t *measure_page_passes_json(const struct page_passes *p);
/* Where records of passes (measure_page_passes_json objects labelled with
 * "size" and "pages") found translations absent, the "page_pass" parameter
 * says before how many chains, and the slowest first pass. */
void measure_note_page_passes(struct probe_ctx *ctx, const json_t *passes);

/* The iteration count measure_op would use (exposed for tests and for probes
 * that run several metrics over one calibrated loop). */
uint64_t measure_calibrate(measure_op_fn op, void *arg, uint64_t min_sample_ns);

#endif
