/* gpu_sync.c - gpu.sync
 * measures: what waiting for the GPU costs the host: a tiny kernel + cudaStreamSynchronize round
 *   trip, and a 48-launch "step loop" (48 short kernels, one synchronize per step, the shape of
 *   one decode step of a 48-layer model), each with spin, yield and blocking-sync scheduling;
 *   plus the CPU time the waiting thread burns per step.
 * method: host monotonic clock around calibrated loops (the quantity is host-observed latency,
 *   which events on the device cannot see); CPU time from getrusage(RUSAGE_THREAD). Scheduling
 *   is a context property: cudaSetDeviceFlags is guaranteed to apply only to a context created
 *   after it (older runtimes refuse it on an active one), so each variant tears this process's
 *   primary context down with cudaDeviceReset (no hardware reset, nothing outside this process)
 *   and creates a new one with its flags; the mode in effect is read back (cudaGetDeviceFlags).
 * why this way: docs/design.md §10.5 - spin 6.5 us vs blocking 16.9 us per sync, +7% per step,
 * traced to CPU idle-state exit latency; the step loop shows what it costs a real serving loop.
 * cross-check: blocking minus spin per step ~ one wake-up (cpu.wake's idle-exit latency);
 *   spin's step_cpu ~ its step time (the thread never sleeps).
 * mps=1: the probe's own MPS control daemon (kit/mps.h), started from supported(), before
 *   anything in the probe's process initialises the driver (the driver reads the pipe
 *   directory then); the victim and the co-tenant are its clients (control.log's clients
 *   are checked against both pids), the co-tenant with CUDA_MPS_ACTIVE_THREAD_PERCENTAGE =
 *   mps_pct; the daemon ends with the probe, killed or not.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/blocked.h"
#include "base/opt.h"
#include "base/stats.h"
#include "base/util.h"
#include "gpu/backend.h"
#include "kit/cotenant.h"
#include "kit/gpu_kit.h"
#include "kit/measure.h"
#include "kit/mps.h"
#include "kit/probe.h"
#include "results/results.h"

struct gsync_opts {
	uint32_t scheds;
	uint64_t launches, kernel_ns, weight_pct, period_ms, blocks, mps, mps_pct;
	char duties[OPT_STR_MAX];
};

static const struct opt gsync_opt_rows[] = {
	OPT_LIST("sched", struct gsync_opts, scheds, "spin|yield|blocking", "all",
		 "host wait modes (spin, yield, or block on a sync primitive)"),
	OPT_UINT("launches", struct gsync_opts, launches, "48", "kernels per step"),
	OPT_UINT("kernel_ns", struct gsync_opts, kernel_ns, "20000",
		 "device time of each step kernel (busy-wait on the device's ns timer), ns"),
	OPT_UINT("weight_pct", struct gsync_opts, weight_pct, "0",
		 "decode-shaped steps: a weight matrix of this % of the device's free memory, "
		 "each launch reading its slice (0: the tiny kernels)"),
	OPT_STR("duties", struct gsync_opts, duties, "0,10,25,50",
		"decode steps: co-tenant duty cycles, % (0: alone; a second process runs "
		"compute bursts for the rest)"),
	OPT_UINT("period_ms", struct gsync_opts, period_ms, "10", "co-tenant burst period, ms"),
	OPT_UINT("blocks", struct gsync_opts, blocks, "4",
		 "decode steps: per duty, this many blocks of the step loop alone and then beside "
		 "a co-tenant started for the block (the reps split over them); the change's CI "
		 "holds the blocks' spread (1..16)"),
	OPT_UINT("mps", struct gsync_opts, mps, "0",
		 "1: run under an MPS control daemon of the probe's own (victim and co-tenant its "
		 "clients; stopped on every exit); skipped with the reason where MPS is missing"),
	OPT_UINT("mps_pct", struct gsync_opts, mps_pct, "100",
		 "mps=1: the co-tenant's CUDA_MPS_ACTIVE_THREAD_PERCENTAGE (1..100)"),
	OPT_END,
};

struct gsync {
	struct gpu_stream *s;
	uint64_t launches, kernel_ns;
	/* decode-shaped steps: launch k reads slice k of the weights */
	char *weights;
	uint64_t slice;
	struct gpu_grid grid;
	double *step_us; /* each step's host time, when not NULL */
	size_t n_steps, cap_steps;
	int failed;
};

static int op_roundtrip(void *arg, uint64_t iters)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct gsync *g = arg;

	for (uint64_t i = 0; i < iters; i++)
		if (GPU_CHECK(gpu->launch_sleep(0, g->s)) || gpu->stream_sync(g->s))
			return g->failed = -1;
	return 0;
}

static int op_step(void *arg, uint64_t iters)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct gsync *g = arg;

	for (uint64_t i = 0; i < iters; i++) {
		uint64_t t0 = time_now_ns();

		for (uint64_t k = 0; k < g->launches; k++)
			if (GPU_CHECK(g->weights ? gpu->launch_read(g->weights + k * g->slice,
								    g->slice, &g->grid, 1,
								    gpu->scratch(), g->s)
						 : gpu->launch_sleep(g->kernel_ns, g->s)))
				return g->failed = -1;
		if (gpu->stream_sync(g->s))
			return g->failed = -1;
		if (g->step_us && g->n_steps < g->cap_steps)
			g->step_us[g->n_steps++] = (double)(time_now_ns() - t0) * 1e-3;
	}
	return 0;
}

static double thread_cpu_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e9 +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e3;
}

/* The step loop of one metric set (step_time, step_cpu and, with decode
 * steps, step_bandwidth): calibrated once, sampled in runs (steps_run),
 * closed with the steps' distribution and the co-tenant's share (steps_end). */
struct steps {
	size_t mi;	/* index of step_time: the array moves as metrics are added */
	int bw;		/* step_bandwidth follows step_cpu */
	uint64_t iters; /* steps a sample */
	uint64_t ct[3]; /* the co-tenant's busy, wall and work ns over counted samples */
};

static int steps_begin(struct probe_ctx *ctx, struct gsync *g, const char *sched,
		       const char *duty_s, size_t cap_samples, struct steps *st)
{
	char desc[200];

	memset(st, 0, sizeof(*st));
	st->iters = measure_calibrate(op_step, g, ctx->min_sample_ns);
	if (st->iters == 0)
		return -1;
	snprintf(desc, sizeof(desc),
		 g->weights ? "%" PRIu64 " launches, each reading a %" PRIu64 " B slice of the "
			      "weights once, + one %s, host clock per step"
			    : "%" PRIu64 " launches of a %" PRIu64 " ns kernel + one "
			      "%s, host clock per step",
		 g->launches, g->weights ? g->slice : g->kernel_ns,
		 gpu_backend()->names.stream_sync);
	st->mi = ctx->res->n_metrics;
	probe_add_metric(ctx->res, "step_time", UNIT_US, BETTER_LOWER, desc, "sched", sched,
			 duty_s ? "duty" : NULL, duty_s, NULL);
	probe_add_metric(ctx->res, "step_cpu", UNIT_US, BETTER_NONE,
			 "CPU time (user + sys) of the launching thread per step "
			 "(getrusage RUSAGE_THREAD)",
			 "sched", sched, duty_s ? "duty" : NULL, duty_s, NULL);
	if (g->weights) {
		probe_add_metric(ctx->res, "step_bandwidth", UNIT_GB_S, BETTER_HIGHER,
				 "the step's weight bytes (read once) over its host time", "sched",
				 sched, duty_s ? "duty" : NULL, duty_s, NULL);
		st->bw = 1;
		g->cap_steps = st->iters * cap_samples;
		g->step_us = xcalloc(g->cap_steps, sizeof(double));
		g->n_steps = 0;
	}
	return 0;
}

/* Warm-ups and n counted samples; each counted sample's time per step into
 * wall_us[] (n of them) and, with keep, into the metrics. The steps of a run
 * without keep are not kept in the step distribution. */
static int steps_run(struct probe_ctx *ctx, struct gsync *g, struct steps *st, unsigned n, int keep,
		     struct cotenant *ct, double *wall_us)
{
	double *capture = g->step_us;
	int rc = 0;

	if (!keep)
		g->step_us = NULL;
	for (unsigned i = 0; i < ctx->warmups + n; i++) {
		struct metric *wall = &ctx->res->metrics[st->mi], *cpu = wall + 1;
		double c0 = thread_cpu_ns(), w, c;
		size_t n_steps = g->n_steps;
		uint64_t t0;

		if (ct && i == ctx->warmups) {
			cotenant_poll(ct);
			st->ct[0] -= ct->busy_ns;
			st->ct[1] -= ct->wall_ns;
			st->ct[2] -= ct->work_ns;
		}
		t0 = time_now_ns();
		if (op_step(g, st->iters)) {
			rc = -1;
			break;
		}
		w = (double)(time_now_ns() - t0) / (double)st->iters * 1e-3;
		c = (thread_cpu_ns() - c0) / (double)st->iters * 1e-3;
		if (ct)
			cotenant_poll(ct); /* its pipe must not fill */
		if (i < ctx->warmups) {
			g->n_steps = n_steps; /* warm-up steps are not kept */
			if (keep) {
				metric_add_warmup(wall, w);
				metric_add_warmup(cpu, c);
				if (st->bw)
					metric_add_warmup(cpu + 1,
							  (double)(g->slice * g->launches) / w *
								  1e-3);
			}
			continue;
		}
		wall_us[i - ctx->warmups] = w;
		if (keep) {
			metric_add_sample(wall, w);
			metric_add_sample(cpu, c);
			if (st->bw)
				metric_add_sample(cpu + 1,
						  (double)(g->slice * g->launches) / w * 1e-3);
		}
	}
	if (ct && rc == 0) {
		st->ct[0] += ct->busy_ns;
		st->ct[1] += ct->wall_ns;
		st->ct[2] += ct->work_ns;
	}
	g->step_us = capture;
	return rc;
}

/* The steps' distribution (decode steps) and, with a co-tenant, the duty it
 * achieved over the counted samples (*duty, %) into ext. */
static struct metric *steps_end(struct probe_ctx *ctx, struct gsync *g, struct steps *st,
				json_t *ext, double *duty)
{
	if (duty) { /* achieved: its work's time alone over wall time (cotenant.h) */
		double busy = (double)st->ct[0], wall_ns = (double)st->ct[1],
		       work = (double)st->ct[2];

		*duty = wall_ns > 0 ? 100.0 * work / wall_ns : NAN;
		if (wall_ns > 0)
			json_object_set_new(ext, "cotenant_busy_pct",
					    json_real(100.0 * busy / wall_ns));
		if (work > 0)
			json_object_set_new(ext, "cotenant_stretch", json_real(busy / work));
	}
	if (g->step_us && g->n_steps > 0) {
		stats_sort(g->step_us, g->n_steps);
		json_object_set_new(ext, "steps", json_integer((json_int_t)g->n_steps));
		json_object_set_new(ext, "step_median_us",
				    json_real(stats_percentile_sorted(g->step_us, g->n_steps, 50)));
		json_object_set_new(ext, "step_p99_us",
				    json_real(stats_percentile_sorted(g->step_us, g->n_steps, 99)));
	}
	free(g->step_us);
	g->step_us = NULL;
	return &ctx->res->metrics[st->mi];
}

/* The step loop alone: one metric set, reps samples. */
static struct metric *measure_steps(struct probe_ctx *ctx, struct gsync *g, const char *sched,
				    const char *duty_s, json_t *ext)
{
	struct steps st;
	double *w = xcalloc(ctx->reps + 1, sizeof(double));
	int bad = steps_begin(ctx, g, sched, duty_s, ctx->reps, &st) ||
		  steps_run(ctx, g, &st, ctx->reps, 1, NULL, w);

	free(w);
	if (bad) {
		free(g->step_us);
		g->step_us = NULL;
		return NULL;
	}
	return steps_end(ctx, g, &st, ext, NULL);
}

/* mps=1: the daemon, started by supported() before the driver. */
static struct mps g_mps = {.fd = -1};

/* Whether the daemon's log names pid as a client (mps=1 only). */
static void mps_note_client(json_t *o, long pid)
{
	long pids[64];
	size_t n;
	int found = 0;

	if (!g_mps.watcher)
		return;
	n = mps_clients(&g_mps, pids, 64);
	for (size_t i = 0; i < n; i++)
		found |= pids[i] == pid;
	json_object_set_new(o, "mps_client", json_boolean(found));
}

static const char *gsync_supported(const void *opts)
{
	const struct gsync_opts *o = opts;
	static char why[300];

	if (o->mps && mps_start(&g_mps, why, sizeof(why)) != 0)
		return why;
	return gpu_unsupported_reason();
}

/* "0,10,25,50" -> duties (each 0..90), n; -1 on bad input. */
static int parse_duties(const char *spec, unsigned *d, size_t max, size_t *n)
{
	const char *p = spec;

	*n = 0;
	while (*p) {
		char *end;
		unsigned long v = strtoul(p, &end, 10);

		if (end == p || v > 90 || *n == max || (*end && *end != ','))
			return -1;
		d[(*n)++] = (unsigned)v;
		p = *end ? end + 1 : end;
	}
	return *n ? 0 : -1;
}

/* The weights of decode steps: weight_pct of the free memory, one slice a
 * launch (a multiple of 4 KiB), filled once. */
static int weights_setup(struct gsync *g, const struct gpu_props *pr, uint64_t pct)
{
	const struct gpu_backend *gpu = gpu_backend();
	uint64_t free_b, total_b;

	if (gpu->mem_info(&free_b, &total_b))
		return -1;
	g->slice = free_b / 100 * pct / g->launches / 4096 * 4096;
	if (g->slice == 0) {
		gpu->set_error("weight_pct: the weights would be empty");
		return -1;
	}
	g->grid = (struct gpu_grid){(unsigned)pr->sm_count * 4, 512, 4};
	if (gpu->malloc((void **)&g->weights, g->slice * g->launches))
		return -1;
	return GPU_CHECK(gpu->launch_fill(g->weights, g->slice * g->launches, 1, g->s)) ||
			       gpu->stream_sync(g->s)
		       ? -1
		       : 0;
}

/* The change of one duty from its blocks, percent: the geometric mean of
 * the blocks' ratios (with the co-tenant / alone, medians) and Student's t
 * interval over them (stats_ratio_t_ci: what drifted between blocks, the
 * machine or the co-tenant's phase, as the rounds of a comparison, §5.10),
 * widened to the pooled samples' bootstrap CI (the noise within blocks). */
static void block_change(const double *a, const double *b, size_t n, const double *ratio, size_t nb,
			 double *change, double *lo, double *hi)
{
	double est, tlo, thi, rlo = 0, rhi = 0;
	struct rng r;

	rng_seed(&r, 1);
	stats_bootstrap_ratio_ci(a, n, b, n, 2000, 0.95, &r, &rlo, &rhi);
	if (stats_ratio_t_ci(ratio, nb, 0.95, &est, &tlo, &thi)) /* one block */
		est = stats_median(b, n) / stats_median(a, n), tlo = rlo, thi = rhi;
	*change = 100.0 * (est - 1.0);
	*lo = 100.0 * (fmin(tlo, rlo) - 1.0);
	*hi = 100.0 * (fmax(thi, rhi) - 1.0);
}

/* One sched's co-tenant runs: per duty, `blocks` pairs of the step loop
 * alone and then beside a co-tenant started for that block (a fresh one
 * each time: no pause to make up afterwards), the victim's step-time change
 * over the pairs with the co-tenant's own achieved duty. */
static int cotenant_runs(struct probe_ctx *ctx, struct gsync *g, const char *sched,
			 const unsigned *duties, size_t n, unsigned period_ms, unsigned blocks,
			 struct cotenant *ct, char *const *env, size_t n_env, json_t *out)
{
	/* the reps split over the blocks, at least two a block */
	unsigned per = ctx->reps > 2 * blocks ? (ctx->reps + blocks - 1) / blocks : 2;
	size_t total = (size_t)per * blocks;
	double *a = xcalloc(total, sizeof(double)), *b = xcalloc(total, sizeof(double));
	double *ratio = xcalloc(blocks, sizeof(double));
	int rc = 0;

	for (size_t i = 0; i < n && rc == 0; i++) {
		json_t *d, *ra;
		double got = NAN, lo, hi, change, expect;
		struct steps st;
		char ds[16], why[160];

		if (duties[i] == 0)
			continue;
		snprintf(ds, sizeof(ds), "%u", duties[i]);
		d = json_object();
		ra = json_array();
		json_object_set_new(out, ds, d);
		if (steps_begin(ctx, g, sched, ds, total, &st)) {
			rc = -1;
			break;
		}
		for (unsigned k = 0; k < blocks && rc == 0; k++) {
			progress("gpu.sync: %s, co-tenant at %u%%, block %u of %u", sched,
				 duties[i], k + 1, blocks);
			if (steps_run(ctx, g, &st, per, 0, NULL, a + (size_t)k * per)) {
				rc = -1;
				break;
			}
			if (cotenant_start(ct, duties[i], period_ms, env, n_env, why,
					   sizeof(why))) {
				gpu_backend()->set_error(why);
				rc = -1;
				break;
			}
			if (k == 0)
				json_object_set_new(d, "cotenant_pid", json_integer(ct->p.pid));
			rc = steps_run(ctx, g, &st, per, 1, ct, b + (size_t)k * per);
			if (rc == 0 && k == 0)
				mps_note_client(d, ct->p.pid);
			cotenant_stop(ct);
			if (rc == 0) {
				ratio[k] = stats_median(b + (size_t)k * per, per) /
					   stats_median(a + (size_t)k * per, per);
				json_array_append_new(ra, json_real(100.0 * (ratio[k] - 1.0)));
			}
		}
		steps_end(ctx, g, &st, d, &got);
		if (rc)
			break;
		block_change(a, b, total, ratio, blocks, &change, &lo, &hi);
		/* time slicing alone: the victim waits while the co-tenant holds the
		 * GPU, so its steps stretch by d / (1 - d) */
		expect = 100.0 * (got / 100.0) / (1.0 - got / 100.0);
		json_object_set_new(d, "duty_asked_pct", json_integer(duties[i]));
		json_object_set_new(d, "duty_achieved_pct", json_real(got));
		json_object_set_new(d, "alone_median_us", json_real(stats_median(a, total)));
		json_object_set_new(d, "step_change_pct", json_real(change));
		json_object_set_new(d, "ci_lo_pct", json_real(lo));
		json_object_set_new(d, "ci_hi_pct", json_real(hi));
		json_object_set_new(d, "block_change_pct", ra);
		json_object_set_new(d, "proportional_pct", json_real(expect));
		/* worse: the CI's low end past 1.5x what pure sharing predicts
		 * (+1 point); the sentence says the factor, not just the class */
		json_object_set_new(d, "cost",
				    json_string(lo > 1.5 * expect + 1.0
							? "worse than proportional (over 1.5x)"
							: "proportional (within 1.5x) or less"));
	}
	free(a);
	free(b);
	free(ratio);
	return rc;
}

static int gsync_run(struct probe_ctx *ctx, const void *opts)
{
	const struct gpu_backend *gpu = gpu_backend();
	const struct gsync_opts *o = opts;
	struct gsync g = {.launches = o->launches, .kernel_ns = o->kernel_ns};
	struct gpu_props props;
	struct gpu_sampler *smp;
	struct cotenant ct = {0};
	int rc = PROBE_OK;
	json_t *modes = json_object(), *steps = NULL;
	unsigned duties[16];
	size_t n_duties = 0;
	char buf[512], pct_env[64];
	char *env[] = {pct_env};
	size_t n_env = 0;

	if (o->mps_pct < 100 && o->mps) {
		snprintf(pct_env, sizeof(pct_env), "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=%u",
			 (unsigned)o->mps_pct);
		n_env = 1;
	}
	if (o->weight_pct > 90 || o->launches == 0 || o->period_ms == 0 || o->mps > 1 ||
	    o->blocks < 1 || o->blocks > 16 || o->mps_pct < 1 || o->mps_pct > 100 ||
	    (o->weight_pct && parse_duties(o->duties, duties, 16, &n_duties))) {
		gpu->set_error("weight_pct is 0..90, launches and period_ms >= 1, blocks 1..16, "
			       "mps 0 or 1, "
			       "mps_pct 1..100, duties a list of 0..90");
		json_decref(modes);
		return gpu_fail(ctx->res, "gpu.sync options");
	}
	if (gpu->get_props(0, &props)) {
		json_decref(modes);
		return gpu_fail(ctx->res, "gpu.sync setup");
	}
	probe_result_add_param(ctx->res, "gpu", props.name);
	probe_result_add_param(ctx->res, "timing", "host monotonic clock");
	snprintf(buf, sizeof(buf), "recreated per variant (%s, then %s before the new context)",
		 gpu->names.context_reset, gpu->names.context_create);
	probe_result_add_param(ctx->res, "context", buf);
	json_object_set_new(gpu_extra(ctx->res), "sched_in_effect", modes);
	if (o->weight_pct) {
		steps = json_object();
		json_object_set_new(gpu_extra(ctx->res), "decode", steps);
		probe_result_add_param(
			ctx->res, "cotenant",
			"mempath __cotenant: own process and context, launch_fma "
			"bursts of ~1 ms kernels; achieved duty = its kernels' time "
			"alone over wall time (cotenant_busy_pct: their event times, "
			"waits behind the victim included)");
	}
	if (o->mps) {
		snprintf(buf, sizeof(buf),
			 "MPS: a control daemon of the probe's own (pipe and log under %s), "
			 "victim and co-tenant its clients; co-tenant %s",
			 g_mps.dir, n_env ? pct_env : "at 100% of the threads");
		probe_result_add_param(ctx->res, "sharing", buf);
	} else {
		probe_result_add_param(ctx->res, "sharing", "the driver's default (time slicing)");
	}
	smp = gpu->sampler_start(100);
	for (int v = GPU_SCHED_SPIN; v <= GPU_SCHED_BLOCKING; v++) {
		const char *name = gpu_sched_name(v);
		json_t *sx = NULL;
		struct metric *m;

		if (!(o->scheds & (1u << (v - GPU_SCHED_SPIN))))
			continue;
		progress("gpu.sync: %s", name);
		if (gpu->context_reset() || gpu->context_create((enum gpu_sched)v) ||
		    gpu->stream_create(&g.s) ||
		    (o->weight_pct && weights_setup(&g, &props, o->weight_pct))) {
			rc = gpu_fail(ctx->res, name);
			goto out;
		}
		json_object_set_new(modes, name, json_string(gpu_sched_name(gpu->context_sched())));
		snprintf(buf, sizeof(buf),
			 "empty kernel launch + %s round trip, host clock per round trip",
			 gpu->names.stream_sync);
		m = probe_add_metric(ctx->res, "sync_latency", UNIT_US, BETTER_LOWER, buf, "sched",
				     name, NULL);
		if (steps) {
			sx = json_object();
			json_object_set_new(steps, name, sx);
			json_object_set_new(sx, "weight_bytes",
					    json_integer((json_int_t)(g.slice * g.launches)));
			json_object_set_new(sx, "alone", json_object());
		}
		if (measure_op(ctx, m, op_roundtrip, &g, 1, MEASURE_TIME_PER, 1e-3) ||
		    !measure_steps(ctx, &g, name, steps ? "0" : NULL,
				   sx ? json_object_get(sx, "alone") : NULL)) {
			rc = gpu_fail(ctx->res, name);
			goto out;
		}
		if (sx) {
			int bad = cotenant_runs(ctx, &g, name, duties, n_duties,
						(unsigned)o->period_ms, (unsigned)o->blocks, &ct,
						env, n_env, sx);

			mps_note_client(sx, (long)getpid());
			if (bad) {
				rc = gpu_fail(ctx->res, name);
				goto out;
			}
		}
		gpu->free(g.weights);
		g.weights = NULL;
		gpu->stream_destroy(g.s);
		g.s = NULL;
	}
out:
	cotenant_stop(&ct);
	gpu->sampler_stop(smp, ctx->res, "probe");
	gpu->free(g.weights);
	gpu->stream_destroy(g.s);
	if (g_mps.watcher) { /* our context goes first: quit waits for its clients */
		gpu->context_reset();
		mps_stop(&g_mps);
	}
	return rc;
}

const struct probe probe_gpu_sync = {
	.name = "gpu.sync",
	.summary = "kernel + synchronize latency and a 48-launch step loop with spin, yield and "
		   "blocking-sync waits",
	.flags = PROBE_GPU | PROBE_QUICK,
	.opts = gsync_opt_rows,
	.opts_size = sizeof(struct gsync_opts),
	.timeout_s = 300,
	.supported = gsync_supported,
	.typical_s = {1.5, 2.0}, /* docs/design.md §2.8 */
	.run = gsync_run,
};
