/* gpu_first_touch.c - gpu.first_touch
 * measures: what the first touch of memory the GPU can reach costs, and how fast the GPU
 *   reaches it afterwards: managed memory (GPU-first touch = fault + populate, CPU-first then
 *   GPU read = fault + migrate, each with and without cudaMemPrefetchAsync), cudaHostRegister'd
 *   host memory (4k and THP), and plain mmap'd memory where the device has pageable access.
 * method: every sample is a fresh allocation (the first touch happens once per allocation);
 *   device work timed with CUDA events, host work (memset, cudaHostRegister) with the monotonic
 *   clock; THP actually backing host memory read from /proc/self/smaps; a random 32 B-sector
 *   read rate over the buffer after the touch (gpu.random's kernel).
 * why this way: docs/design.md §10.1 - GPU-initiated faults on system memory ran at 0.43 GiB/s and
 *   never made huge pages while a CPU touch with THP ran at 28 GiB/s; the random rate
 *   afterwards is what a KV cache living there would see. Where the device reports no pageable
 *   access (PageableMemoryAccess=0) those variants are recorded as skipped, with the reason.
 * cross-check: managed GPU-first touch against gpu.alloc's cudaMalloc + first write; registered
 *   reads against gpu.copy's pinned H2D rate (same PCIe link); THP MiB against smaps by hand.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "base/opt.h"
#include "base/util.h"
#include "gpu/backend.h"
#include "kit/gpu_kit.h"
#include "kit/measure.h"
#include "kit/probe.h"
#include "machine/mem.h"
#include "results/results.h"

struct gft_opts {
	uint64_t size_bytes;
	uint32_t variants;
	uint32_t pages;
};

static const struct opt gft_opt_rows[] = {
	OPT_SIZE("size", struct gft_opts, size_bytes, "256M",
		 "bytes per allocation (managed: capped by free device memory minus a margin)"),
	OPT_LIST("variants", struct gft_opts, variants, "managed|registered|system", "all",
		 "managed (unified memory), registered (existing host memory, pinned), system "
		 "(plain mmap, "
		 "needs PageableMemoryAccess)"),
	OPT_LIST("pages", struct gft_opts, pages, "4k|thp", "all",
		 "page-size intent of host mappings (registered, system)"),
	OPT_END,
};

struct gft {
	struct probe_ctx *ctx;
	struct gpu_props props;
	size_t bytes;
	struct gpu_grid grid;
	unsigned long long *out;
	struct gpu_event *e0, *e1;
	uint64_t rand_seed;
};

static struct metric *metric_gib(struct gft *f, const char *name, const char *desc, const char *mem,
				 const char *touch, const char *extra_key, const char *extra_val)
{
	return probe_add_metric(f->ctx->res, name, UNIT_GIB_S, BETTER_HIGHER, desc, "mem", mem,
				"touch", touch, extra_key, extra_val, NULL);
}

static void add(struct gft *f, struct metric *m, unsigned i, double v)
{
	if (i < f->ctx->warmups)
		metric_add_warmup(m, v);
	else
		metric_add_sample(m, v);
}

/* The same, the sample's window given: from t0 (metric_clock(), taken just
 * before the work) to now, so that the counters around it (docs/design.md
 * §4.17, CUPTI's unified-memory counters §4.20) hold that work alone. */
static void add_since(struct gft *f, struct metric *m, unsigned i, double v, double t0)
{
	if (i < f->ctx->warmups)
		metric_add_warmup(m, v);
	else
		metric_add_sample_at(m, v, t0, metric_clock());
}

/* GiB/s of bytes over the events' interval. */
static int event_rate(struct gft *f, double *gib_s)
{
	const struct gpu_backend *gpu = gpu_backend();
	double ns;

	if (gpu->event_elapsed_ns(f->e0, f->e1, &ns))
		return -1;
	*gib_s = (double)f->bytes / (1u << 30) / (ns * 1e-9);
	return 0;
}

/* What the device reads at after a touch: random sectors over the whole
 * buffer, one launch timed with events; M accesses per second. */
static int random_rate(struct gft *f, const void *p, uint64_t per_thread, double *macc)
{
	const struct gpu_backend *gpu = gpu_backend();
	double ns;

	if (gpu->event_record(f->e0, NULL) ||
	    GPU_CHECK(gpu->launch_sectors(p, f->bytes, f->bytes / 32, per_thread, f->rand_seed++,
					  &f->grid, f->out, NULL)) ||
	    gpu->event_record(f->e1, NULL) || gpu->event_elapsed_ns(f->e0, f->e1, &ns))
		return -1;
	*macc = (double)f->grid.blocks * f->grid.threads * per_thread / (ns * 1e-9) * 1e-6;
	return 0;
}

static double host_touch(void *p, size_t bytes)
{
	uint64_t t0 = time_now_ns();

	memset(p, 0x5a, bytes);
	return (double)bytes / (1u << 30) / ((double)(time_now_ns() - t0) * 1e-9);
}

/* Managed memory: four touch orders, a fresh allocation per sample each. */
static int run_managed(struct gft *f)
{
	static const char *const touch[4] = {"gpu", "gpu", "cpu", "cpu"};
	static const char *const pf[4] = {"no", "yes", "no", "yes"};
	const struct gpu_backend *gpu = gpu_backend();
	const struct gpu_names *nm = &gpu->names;
	struct metric *m[4], *cpu, *rnd;
	unsigned total = f->ctx->warmups + f->ctx->reps;
	char d[256];

	snprintf(d, sizeof(d),
		 "GPU-first write of every byte of a fresh "
		 "%s buffer (fault + populate), GiB = 2^30; %s",
		 nm->malloc_managed, nm->events);
	m[0] = metric_gib(f, "first_touch", d, "managed", "gpu", "prefetch", "no");
	snprintf(d, sizeof(d),
		 "%s to the GPU then the GPU-first "
		 "write, both inside the events; GiB = 2^30",
		 nm->prefetch_async);
	m[1] = metric_gib(f, "first_touch", d, "managed", "gpu", "prefetch", "yes");
	snprintf(d, sizeof(d),
		 "GPU read of every byte after a CPU-first touch (fault + "
		 "migrate to the GPU), GiB = 2^30; %s",
		 nm->events);
	m[2] = metric_gib(f, "gpu_read", d, "managed", "cpu", "prefetch", "no");
	snprintf(d, sizeof(d),
		 "%s to the GPU then the GPU read, after "
		 "a CPU-first touch; GiB = 2^30",
		 nm->prefetch_async);
	m[3] = metric_gib(f, "gpu_read", d, "managed", "cpu", "prefetch", "yes");
	cpu = metric_gib(f, "cpu_touch",
			 "CPU-first touch of a fresh managed buffer (libc memset "
			 "of every byte; host clock), GiB = 2^30",
			 "managed", "cpu", NULL, NULL);
	snprintf(d, sizeof(d),
		 "random 32 B-sector reads over the buffer after the GPU-first touch "
		 "(one launch, %s; 8 in flight per thread)",
		 nm->events);
	rnd = probe_add_metric(f->ctx->res, "random_after", UNIT_MACC_S, BETTER_HIGHER, d, "mem",
			       "managed", "touch", "gpu", NULL);
	for (int v = 0; v < 4; v++) {
		progress("gpu.first_touch: managed touch=%s prefetch=%s", touch[v], pf[v]);
		for (unsigned i = 0; i < total; i++) {
			void *p;
			double r, t0;

			if (gpu->malloc_managed(&p, f->bytes))
				return -1;
			if (v >= 2) {
				double t;

				t0 = metric_clock();
				t = host_touch(p, f->bytes);
				if (v == 2) /* the same touch both times: recorded once */
					add_since(f, cpu, i, t, t0);
			}
			t0 = metric_clock();
			if (gpu->event_record(f->e0, NULL) ||
			    (pf[v][0] == 'y' && gpu->prefetch_async(p, f->bytes, 1, NULL)) ||
			    (v < 2 ? GPU_CHECK(gpu->launch_write(p, f->bytes, &f->grid, 0, i, NULL))
				   : GPU_CHECK(gpu->launch_read(p, f->bytes, &f->grid, 0, f->out,
								NULL))) ||
			    gpu->event_record(f->e1, NULL) || event_rate(f, &r)) {
				gpu->free(p);
				return -1;
			}
			add_since(f, m[v], i, r, t0);
			t0 = metric_clock();
			if (v == 0 && random_rate(f, p, 64, &r) == 0)
				add_since(f, rnd, i, r, t0);
			if (gpu->free(p))
				return -1;
		}
	}
	return 0;
}

/* Host memory the GPU reaches: registered (cudaHostRegister after a CPU
 * touch) or system (plain mmap, pageable access), touched by the CPU or,
 * for system memory, by the GPU first. */
static int run_host(struct gft *f, int registered, int pages, int gpu_first)
{
	const struct gpu_backend *gpu = gpu_backend();
	const char *mem = registered ? "registered" : "system";
	const char *pname = pages == MEM_PAGES_THP ? "thp" : "4k";
	const char *touch = gpu_first ? "gpu" : "cpu";
	unsigned total = f->ctx->warmups + f->ctx->reps;
	const struct gpu_names *nm = &gpu->names;
	struct metric *cpu = NULL, *reg = NULL, *gpu_m, *thp, *rnd;
	char d[256];

	progress("gpu.first_touch: %s pages=%s touch=%s", mem, pname, touch);
	if (!gpu_first)
		cpu = probe_add_metric(f->ctx->res, "cpu_touch", UNIT_GIB_S, BETTER_HIGHER,
				       "CPU-first touch (libc memset of every byte; host clock), "
				       "GiB = 2^30",
				       "mem", mem, "touch", "cpu", "pages", pname, NULL);
	snprintf(d, sizeof(d), "%s of the touched buffer (host clock), GiB = 2^30",
		 nm->host_register);
	if (registered)
		reg = probe_add_metric(f->ctx->res, "register", UNIT_GIB_S, BETTER_HIGHER, d, "mem",
				       mem, "pages", pname, NULL);
	snprintf(d, sizeof(d),
		 gpu_first ? "GPU-first write of every byte (GPU faults on system "
			     "memory), GiB = 2^30; %s"
			   : "GPU read of every byte through the device mapping "
			     "(crosses the host link), GiB = 2^30; %s",
		 nm->events);
	gpu_m = probe_add_metric(f->ctx->res, gpu_first ? "first_touch" : "gpu_read", UNIT_GIB_S,
				 BETTER_HIGHER, d, "mem", mem, "touch", touch, "pages", pname,
				 NULL);
	thp = probe_add_metric(
		f->ctx->res, "thp_backed", UNIT_MIB, BETTER_NONE,
		"AnonHugePages backing the buffer after the touch (/proc/self/smaps)", "mem", mem,
		"touch", touch, "pages", pname, NULL);
	snprintf(d, sizeof(d),
		 "random 32 B-sector GPU reads over the buffer after the touch (one "
		 "launch, %s)",
		 nm->events);
	rnd = probe_add_metric(f->ctx->res, "random_after", UNIT_MACC_S, BETTER_HIGHER, d, "mem",
			       mem, "touch", touch, "pages", pname, NULL);
	for (unsigned i = 0; i < total; i++) {
		struct mem_buf b;
		struct smaps_info si;
		void *dev;
		double r;
		int rc = -1;

		if (mem_map(&b, f->bytes, (enum mem_pages)pages, 0))
			return gpu_error("cannot map %zu bytes of host memory", f->bytes);
		dev = b.addr;
		if (cpu)
			add(f, cpu, i, host_touch(b.addr, f->bytes));
		if (registered) {
			uint64_t t0 = time_now_ns();

			if (gpu->host_register(b.addr, f->bytes))
				goto next;
			add(f, reg, i,
			    (double)f->bytes / (1u << 30) / ((double)(time_now_ns() - t0) * 1e-9));
			if (gpu->host_device_ptr(b.addr, &dev))
				goto unreg;
		}
		if (gpu->event_record(f->e0, NULL) ||
		    (gpu_first ? GPU_CHECK(gpu->launch_write(dev, f->bytes, &f->grid, 0, i, NULL))
			       : GPU_CHECK(gpu->launch_read(dev, f->bytes, &f->grid, 0, f->out,
							    NULL))) ||
		    gpu->event_record(f->e1, NULL) || event_rate(f, &r))
			goto unreg;
		add(f, gpu_m, i, r);
		if (mem_smaps_range(b.addr, f->bytes, &si) == 0)
			add(f, thp, i, (double)si.anon_huge_bytes / (1 << 20));
		if (random_rate(f, dev, 8, &r))
			goto unreg;
		add(f, rnd, i, r);
		rc = 0;
	unreg:
		if (registered && gpu->host_unregister(b.addr))
			rc = -1;
	next:
		mem_unmap(&b);
		if (rc)
			return -1;
	}
	return 0;
}

static int gft_run(struct probe_ctx *ctx, const void *opts)
{
	const struct gpu_backend *gpu = gpu_backend();
	const struct gft_opts *o = opts;
	struct gft f = {.ctx = ctx, .rand_seed = 3};
	uint64_t free_b, total_b, margin;
	struct gpu_sampler *smp;
	int rc = PROBE_OK;
	char buf[96];

	if (gpu->get_props(0, &f.props) || gpu->mem_info(&free_b, &total_b))
		return gpu_fail(ctx->res, "gpu.first_touch setup");
	f.bytes = o->size_bytes / (2u << 20) * (2u << 20);
	if (f.bytes == 0) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "size must be at least 2M");
		return PROBE_FAIL;
	}
	/* Managed memory above free device memory can hang the GPU (docs/design.md §6). */
	margin = total_b / 10 > (4ull << 30) ? total_b / 10 : 4ull << 30;
	if ((o->variants & 1u) && f.bytes + margin > free_b) {
		probe_result_set_status(
			ctx->res, STATUS_SKIP,
			"%zu MiB of managed memory would leave less than the %" PRIu64
			" MiB margin of %" PRIu64 " MiB free device memory",
			f.bytes >> 20, margin >> 20, free_b >> 20);
		return PROBE_SKIP;
	}
	if (mem_check_size(f.bytes, ctx->force, "gpu.first_touch host buffer")) {
		probe_result_set_status(ctx->res, STATUS_FAIL,
					"%zu bytes exceed 80%% of MemAvailable", f.bytes);
		return PROBE_FAIL;
	}
	opt_format_size(f.bytes, buf, sizeof(buf));
	probe_result_add_param(ctx->res, "buffer_bytes", buf);
	probe_result_add_param(ctx->res, "gpu", f.props.name);
	probe_result_add_param(ctx->res, "addressing_mode", gpu_addressing_mode(&f.props));
	snprintf(buf, sizeof(buf), "%d", f.props.concurrent_managed);
	probe_result_add_param(ctx->res, "concurrent_managed_access", buf);
	f.grid = (struct gpu_grid){(unsigned)f.props.sm_count * 4, 512, 4};

	smp = gpu->sampler_start(100);
	if (gpu->event_create(&f.e0) || gpu->event_create(&f.e1) || !(f.out = gpu->scratch())) {
		rc = gpu_fail(ctx->res, "gpu.first_touch setup");
		goto out;
	}
	if ((o->variants & 1u) && run_managed(&f)) {
		rc = gpu_fail(ctx->res, "managed");
		goto out;
	}
	for (int p = 0; p < 2; p++) {
		if (!(o->pages & (1u << p)))
			continue;
		if ((o->variants & 2u) && run_host(&f, 1, p, 0)) {
			rc = gpu_fail(ctx->res, "registered");
			goto out;
		}
		if (!(o->variants & 4u) || f.props.pageable_access <= 0)
			continue;
		if (run_host(&f, 0, p, 1) || run_host(&f, 0, p, 0)) {
			rc = gpu_fail(ctx->res, "system");
			goto out;
		}
	}
	if ((o->variants & 4u) && f.props.pageable_access <= 0) {
		snprintf(buf, sizeof(buf), "skipped: PageableMemoryAccess=%d (no ATS/HMM)",
			 f.props.pageable_access);
		probe_result_add_param(ctx->res, "system_variants", buf);
		json_object_set_new(gpu_extra(ctx->res), "system_variants", json_string(buf));
	}
out:
	gpu->sampler_stop(smp, ctx->res, "probe");
	gpu->event_destroy(f.e0);
	gpu->event_destroy(f.e1);
	return rc;
}

const struct probe probe_gpu_first_touch = {
	.name = "gpu.first_touch",
	.summary = "first touch of managed, registered and system-allocated memory by GPU or "
		   "CPU, with and without prefetch; random access afterwards",
	.flags = PROBE_GPU | PROBE_QUICK | PROBE_UM,
	.opts = gft_opt_rows,
	.opts_size = sizeof(struct gft_opts),
	.quick_opts = "size=32M",
	.quick_note = "32 MiB allocations (the gpu suite's 256 MiB): every sample allocates and "
		      "touches afresh",
	.timeout_s = 600,
	.typical_s = {5.0, 14.1}, /* docs/design.md §2.8 */
	.run = gft_run,
};
