/* probe.h - what a probe is: its descriptor, the context it measures in and
 * its suite flags. The list of probes is apart (probes/registry.h), seen only
 * by the registry and the commands: the runner, the session and everything
 * below them take a `const struct probe *` and never look a probe up.
 */
#ifndef MEMPATH_KIT_PROBE_H
#define MEMPATH_KIT_PROBE_H

#include <stddef.h>

#include "base/opt.h"
#include "kit/measure.h"
#include "kit/receipts.h"

/* Suite membership and what the probe needs. */
#define PROBE_CPU   0x01u /* suite cpu */
#define PROBE_GPU   0x02u /* suite gpu */
#define PROBE_P2P   0x04u /* suite p2p */
#define PROBE_QUICK 0x10u /* also in the quick suite (at quick sizes) */
#define PROBE_UM    0x20u /* touches unified memory: CUPTI's counters (§4.20) */

struct probe {
	const char *name;    /* JSON name: "cpu.stream" */
	const char *summary; /* one line for `mempath list` */
	unsigned flags;
	const struct opt *opts; /* option rows, OPT_END terminated (may be NULL) */
	size_t opts_size;	/* sizeof the options struct */
	const char *quick_opts; /* "size=64M reps=..." applied for quick runs */
	/* How the quick suite's figures differ from the full suite's by design
	 * (the report's "quick suite:" line, with quick_opts); NULL: only in
	 * the sizes and lists quick_opts names. */
	const char *quick_note;
	const char *full_opts; /* applied in the full suite only (the page-size sweep) */
	double timeout_s;      /* 0: the runner's default */
	/* Its wall seconds in the quick and the full suite as measured
	 * (docs/design.md §2.8's table says where): the estimate, before it
	 * runs, where this host has no time of its own; 0: never measured. */
	double typical_s[2];
	/* 0 when the options make sense (with each other, beyond what each
	 * row's type checks), else -1 with why in why (len bytes): a usage
	 * error, exit 2, before any fork. May be NULL. */
	int (*check)(const void *opts, char *why, size_t len);
	/* NULL when the probe can run here with these options, else the reason
	 * (a static or leaked string): recorded as status skip. Called in the
	 * child, so it may initialise a GPU. NULL: a PROBE_GPU probe gets the
	 * standard check (a backend with a device: gpu_unsupported_reason),
	 * any other runs. */
	const char *(*supported)(const void *opts);
	/* Measures and records into ctx->res; returns PROBE_OK/SKIP/FAIL. */
	int (*run)(struct probe_ctx *ctx, const void *opts);
	/* What its figures assume, checked after it ran (receipts.h); may be
	 * NULL. */
	const struct receipt *receipts;
	/* Its primary figures, metric names as "touch_rate,load_latency": what
	 * a change is felt in, and what a comparison's geomean covers of it
	 * (docs/design.md §5.11); its other rate and time metrics explain a
	 * change. NULL: every rate and time metric counts. */
	const char *primary;
};

#endif
