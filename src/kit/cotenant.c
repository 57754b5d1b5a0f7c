/* cotenant.c - a second GPU tenant at a stated duty cycle (cotenant.h). */
#include "kit/cotenant.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "gpu/backend.h"

#define KERNEL_NS 1000000.0 /* a burst's kernels last about 1 ms each */

static void parse(struct cotenant *c, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (buf[i] != '\n') {
			if (c->len + 1 < sizeof(c->line))
				c->line[c->len++] = buf[i];
			continue;
		}
		c->line[c->len] = '\0';
		c->len = 0;
		unsigned long long b, w, k;
		if (sscanf(c->line, "%llu %llu %llu", &b, &w, &k) == 3) {
			c->busy_ns = b;
			c->wall_ns = w;
			c->work_ns = k;
		}
	}
}

void cotenant_poll(struct cotenant *c)
{
	char buf[4096];
	ssize_t n;

	if (!c->started || c->p.fd[PROC_STDOUT] < 0)
		return;
	while ((n = read(c->p.fd[PROC_STDOUT], buf, sizeof(buf))) > 0)
		parse(c, buf, (size_t)n);
}

int cotenant_start(struct cotenant *c, unsigned duty_pct, unsigned period_ms, char *const *env,
		   size_t n_env, char *why, size_t len)
{
	char duty[16], period[16];
	char *argv[] = {"/proc/self/exe", "__cotenant", duty, period, NULL};
	struct proc_spec s = {.argv = argv,
			      .env = env,
			      .n_env = n_env,
			      .io = {PROC_KEEP, PROC_INHERIT, PROC_INHERIT},
			      .on_signal = PROC_SIG_STOP,
			      .grace_s = 1};
	uint64_t deadline = time_now_ns() + 60000000000ull;

	memset(c, 0, sizeof(*c));
	snprintf(duty, sizeof(duty), "%u", duty_pct);
	snprintf(period, sizeof(period), "%u", period_ms);
	if (proc_start(&c->p, &s) != 0) {
		snprintf(why, len, "cannot start the co-tenant");
		return -1;
	}
	c->started = 1;
	fcntl(c->p.fd[PROC_STDOUT], F_SETFL, O_NONBLOCK);
	while (c->wall_ns == 0) {
		struct pollfd pf = {.fd = c->p.fd[PROC_STDOUT], .events = POLLIN};

		if (time_now_ns() > deadline) {
			snprintf(why, len, "the co-tenant sent nothing in 60 s");
			cotenant_stop(c);
			return -1;
		}
		if (poll(&pf, 1, 100) < 0 && errno != EINTR)
			break;
		cotenant_poll(c);
		if (c->wall_ns == 0 && (pf.revents & (POLLHUP | POLLERR))) {
			snprintf(why, len, "the co-tenant ended before its first period");
			cotenant_stop(c);
			return -1;
		}
	}
	return 0;
}

void cotenant_stop(struct cotenant *c)
{
	if (!c->started)
		return;
	proc_stop(&c->p);
	proc_free(&c->p);
	c->started = 0;
}

/* ---- the co-tenant process ------------------------------------------------ */

static int fail(const char *what)
{
	fprintf(stderr, "mempath __cotenant: %s: %s\n", what, gpu_backend()->last_error());
	return 1;
}

/* Device time of one fma kernel of iters rounds, ns. */
static double time_fma(const struct gpu_backend *gpu, float *out, unsigned blocks, unsigned iters,
		       struct gpu_stream *s, struct gpu_event *e0, struct gpu_event *e1)
{
	double ns = -1;

	if (gpu->event_record(e0, s) || gpu->launch_fma(out, blocks, 256, iters, s) ||
	    gpu->event_record(e1, s) || gpu->event_elapsed_ns(e0, e1, &ns))
		return -1;
	return ns;
}

int cotenant_main(int argc, char **argv)
{
	const struct gpu_backend *gpu = gpu_backend();
	unsigned duty, period_ms, blocks, iters = 16, k;
	struct gpu_stream *s = NULL;
	struct gpu_event *e0 = NULL, *e1 = NULL;
	struct gpu_props props;
	uint64_t busy = 0, work = 0, t0, next, period_ns, burst_ns;
	const char *why;
	float *out = NULL;
	double ns, alone_ns = -1;

	if (argc != 2 || sscanf(argv[0], "%u", &duty) != 1 ||
	    sscanf(argv[1], "%u", &period_ms) != 1 || duty > 100 || period_ms == 0) {
		fprintf(stderr, "mempath __cotenant: usage: __cotenant DUTY_PCT PERIOD_MS\n");
		return 2;
	}
	if ((why = gpu_unsupported_reason()) != NULL) {
		fprintf(stderr, "mempath __cotenant: %s\n", why);
		return 3;
	}
	if (gpu->context_create(GPU_SCHED_BLOCKING) || gpu->get_props(0, &props) ||
	    gpu->stream_create(&s) || gpu->event_create(&e0) || gpu->event_create(&e1))
		return fail("setup");
	blocks = (unsigned)(props.sm_count > 0 ? props.sm_count : 1) * 4;
	if (gpu->malloc((void **)&out, (size_t)blocks * 256 * sizeof(float)))
		return fail("setup");
	/* iters for about one KERNEL_NS kernel: double until a kernel is long
	 * enough to time, then scale */
	while ((ns = time_fma(gpu, out, blocks, iters, s, e0, e1)) >= 0 && ns < KERNEL_NS / 8 &&
	       iters < (1u << 28))
		iters *= 2;
	if (ns <= 0)
		return fail("calibration");
	period_ns = (uint64_t)period_ms * 1000000ull;
	burst_ns = period_ns * duty / 100;
	k = burst_ns ? (unsigned)((double)burst_ns / KERNEL_NS + 0.999) : 0;
	if (k)
		iters = (unsigned)((double)iters * (double)burst_ns / k / ns + 0.5);
	if (iters == 0)
		iters = 1;
	/* one kernel's time alone: the least of three */
	for (int i = 0; i < 3; i++)
		if ((ns = time_fma(gpu, out, blocks, iters, s, e0, e1)) > 0 &&
		    (alone_ns < 0 || ns < alone_ns))
			alone_ns = ns;
	if (alone_ns <= 0)
		return fail("calibration");
	t0 = next = time_now_ns();
	for (;;) {
		uint64_t now;
		char line[64];
		int n;
		/* Kernels for this period: what keeps its work at duty% of the
		 * wall time up to the period's end, so a period that another
		 * tenant's time slice stretched is made up in the next (k when on
		 * time; at most 2k, so no debt grows without bound). */
		double owed = (double)duty / 100.0 * (double)(next + period_ns - t0) - (double)work;
		unsigned kn = owed > 0 ? (unsigned)(owed / alone_ns + 0.5) : 0;

		if (kn > 2 * k)
			kn = 2 * k;
		if (kn) {
			if (gpu->event_record(e0, s))
				return fail("burst");
			for (unsigned i = 0; i < kn; i++)
				if (gpu->launch_fma(out, blocks, 256, iters, s))
					return fail("burst");
			if (gpu->event_record(e1, s) || gpu->event_elapsed_ns(e0, e1, &ns))
				return fail("burst");
			busy += (uint64_t)ns;
			work += (uint64_t)(kn * alone_ns);
		}
		next += period_ns;
		now = time_now_ns();
		if (next > now) {
			struct timespec ts = {(time_t)((next - now) / 1000000000ull),
					      (long)((next - now) % 1000000000ull)};
			while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
				;
		} else {
			next = now; /* behind: the next period's kernels make it up */
		}
		n = snprintf(line, sizeof(line), "%" PRIu64 " %" PRIu64 " %" PRIu64 "\n", busy,
			     time_now_ns() - t0, work);
		if (write(1, line, (size_t)n) < 0 && errno == EPIPE)
			return 0;
	}
}
