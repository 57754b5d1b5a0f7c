/* cpu_wake.c - cpu.wake
 * measures: one-way wake-up latency between two threads pinned to two CPUs, busy-waiting
 *   (spin) versus blocking (futex), in ns per handoff.
 * method: ping-pong on one 32-bit word: each side publishes the next sequence number and
 *   waits for the reply; a sample is many round trips, latency = round trip / 2.
 * why this way: docs/design.md §10.5 - the same sync cost 6.5 us spinning and 16.9 us blocking, and
 *   the gap was idle-state exit latency; so the cpuidle states (name, exit latency, disabled)
 *   of both CPUs are recorded with the numbers, and the share of waits that really slept.
 * cross-check: spin ~ a cache-line round trip between the two cores (c2clat/core-to-core
 *   latency tools); futex minus spin ~ syscalls + scheduler wake + the idle state's exit.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/futex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <jansson.h>

#include "base/list.h"
#include "base/opt.h"
#include "base/util.h"
#include "kit/measure.h"
#include "kit/probe.h"
#include "kit/team.h"
#include "results/results.h"

enum { MODE_SPIN = 0, MODE_FUTEX = 1, N_MODES };
static const char *const mode_names[N_MODES] = {"spin", "futex"};

struct wake_opts {
	uint32_t modes;
	char cpus[OPT_STR_MAX];
};

static const struct opt wake_opt_rows[] = {
	OPT_LIST("mode", struct wake_opts, modes, "spin|futex", "spin,futex",
		 "wait kind: spin (busy-wait on an atomic load) or futex (FUTEX_WAIT/FUTEX_WAKE)"),
	OPT_STR_CHECK(
		"cpus", struct wake_opts, cpus, "auto",
		"two CPU numbers A,B for the two threads; auto = first two of the affinity mask",
		list_check_cpu_pair, NULL),
	OPT_END,
};

struct wake_side {
	uint64_t handoffs; /* waits for the other side */
	uint64_t slept;	   /* of which FUTEX_WAIT really slept at least once */
} __attribute__((aligned(64)));

struct wake_job {
	/* The word both sides wait on, alone on its cache line. */
	uint32_t seq __attribute__((aligned(64)));
	struct team *team;
	int mode;
	uint64_t iters; /* round trips in the current op call */
	struct wake_side side[2];
};

static long futex(uint32_t *addr, int op, uint32_t val)
{
	return syscall(SYS_futex, addr, op, val, NULL, NULL, 0);
}

/* No PAUSE in the spin: under KVM a PAUSE loop can trigger pause-loop exits,
 * and PAUSE itself costs up to ~140 cycles on some cores; the plain atomic
 * load sees the line as soon as it arrives. */
static void wait_for(struct wake_job *j, struct wake_side *me, uint32_t want)
{
	uint32_t cur;
	int slept = 0;

	if (j->mode == MODE_SPIN) {
		while (__atomic_load_n(&j->seq, __ATOMIC_ACQUIRE) != want)
			;
		return;
	}
	while ((cur = __atomic_load_n(&j->seq, __ATOMIC_ACQUIRE)) != want)
		/* 0: slept and was woken; EAGAIN: the word changed first. */
		if (futex(&j->seq, FUTEX_WAIT_PRIVATE, cur) == 0)
			slept = 1;
	me->handoffs++;
	me->slept += slept;
}

/* FUTEX_WAKE is always issued, as a semaphore post without a waiter count
 * would: it is part of what a blocking handoff costs. */
static void publish(struct wake_job *j, uint32_t v)
{
	__atomic_store_n(&j->seq, v, __ATOMIC_RELEASE);
	if (j->mode == MODE_FUTEX)
		futex(&j->seq, FUTEX_WAKE_PRIVATE, 1);
}

static void wake_worker(unsigned tid, unsigned n, void *arg)
{
	struct wake_job *j = arg;
	struct wake_side *me = &j->side[tid];

	/* Sequence numbers wrap at 2^32; only equality matters. */
	for (uint64_t r = 0; r < j->iters; r++) {
		uint32_t ping = (uint32_t)(2 * r + 1), pong = (uint32_t)(2 * r + 2);

		if (tid == 0) {
			publish(j, ping);
			wait_for(j, me, pong);
		} else {
			wait_for(j, me, ping);
			publish(j, pong);
		}
	}
}

static int wake_op(void *arg, uint64_t iters)
{
	struct wake_job *j = arg;

	/* Both threads sit at the team's barrier here, so the reset is safe. */
	__atomic_store_n(&j->seq, 0, __ATOMIC_RELAXED);
	j->iters = iters;
	team_run(j->team, wake_worker, j);
	return 0;
}

/* "A,B" -> two distinct CPU numbers; "auto" -> first two of the mask. */
static int parse_cpus(const char *spec, int cpus[2])
{
	char tail;

	if (strcmp(spec, "auto") == 0) {
		cpus[0] = team_nth_cpu(0);
		cpus[1] = team_nth_cpu(1);
		return cpus[0] >= 0 && cpus[1] >= 0 ? 0 : -1;
	}
	if (sscanf(spec, "%d,%d%c", &cpus[0], &cpus[1], &tail) != 2 || cpus[0] == cpus[1])
		return -1;
	/* Both must be in the affinity mask: pinning elsewhere would fail and
	 * leave the threads wherever the scheduler puts them. */
	for (int i = 0; i < 2; i++) {
		unsigned k = 0;

		while (k < team_online_cpus() && team_nth_cpu(k) != cpus[i])
			k++;
		if (k == team_online_cpus())
			return -1;
	}
	return 0;
}

static const char *wake_supported(const void *opts)
{
	const struct wake_opts *o = opts;
	int cpus[2];

	/* Both on one CPU would measure the scheduler's context switch (and a
	 * spinner would burn its whole time slice), not a wake-up. */
	if (team_online_cpus() < 2)
		return "needs two CPUs in the affinity mask: a one-way wake-up goes from one CPU "
		       "to another";
	if (parse_cpus(o->cpus, cpus) != 0)
		return xasprintf("cpus '%s': need two different CPUs A,B of the affinity mask, or "
				 "auto",
				 o->cpus);
	return NULL;
}

/* Integer from a sysfs file, or -1 when absent. */
static long long sysfs_ll(const char *path)
{
	char *s = read_line_str(path);
	long long v = -1;

	if (s) {
		v = strtoll(s, NULL, 10);
		free(s);
	}
	return v;
}

/* The cpuidle states of one CPU as a JSON array, or NULL when the directory
 * is absent (no cpuidle driver: idle is the architecture's default). */
static json_t *cpuidle_states(int cpu)
{
	char path[128];
	struct stat sb;
	json_t *arr;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpuidle", cpu);
	if (stat(path, &sb) != 0)
		return NULL;
	arr = json_array();
	for (int k = 0;; k++) {
		char *name;
		json_t *st;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name",
			 cpu, k);
		name = read_line_str(path);
		if (!name)
			break;
		st = json_object();
		json_object_set_new(st, "state", json_integer(k));
		json_object_set_new(st, "name", json_string(name));
		free(name);
#define STATE_INT(key, file)                                                             \
	do {                                                                             \
		long long v;                                                             \
		snprintf(path, sizeof(path),                                             \
			 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/" file, cpu, k); \
		if ((v = sysfs_ll(path)) >= 0)                                           \
			json_object_set_new(st, key, json_integer(v));                   \
	} while (0)
		STATE_INT("latency_us", "latency");
		STATE_INT("residency_us", "residency");
		STATE_INT("disable", "disable");
#undef STATE_INT
		json_array_append_new(arr, st);
	}
	return arr;
}

/* Every readable file of /sys/module/<mod>/parameters as strings, or NULL.
 * For haltpoll these set how long an idle vCPU polls before it halts, which
 * decides what a blocking wake-up costs in a guest. */
static json_t *module_params(const char *mod)
{
	char dir[128];
	struct dirent *de;
	json_t *o = NULL;
	DIR *d;

	snprintf(dir, sizeof(dir), "/sys/module/%s/parameters", mod);
	d = opendir(dir);
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		char *path, *v;

		if (de->d_name[0] == '.')
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		v = read_line_str(path);
		free(path);
		if (!v)
			continue;
		if (!o)
			o = json_object();
		json_object_set_new(o, de->d_name, json_string(str_trim(v)));
		free(v);
	}
	closedir(d);
	return o;
}

/* Records the idle states of both CPUs in res->extra (not as params: a
 * params difference makes results incomparable, and disabling a state is
 * exactly the A/B one wants to run; the host knobs carry "disabled" for
 * compare's knob check). The param only says present or absent. */
static void record_cpuidle(struct probe_result *res, const int cpus[2])
{
	json_t *ci = json_object(), *per = json_object();
	char *driver = read_line_str("/sys/devices/system/cpu/cpuidle/current_driver");
	char *gov = read_line_str("/sys/devices/system/cpu/cpuidle/current_governor");
	int absent = 0;

	if (!gov)
		gov = read_line_str("/sys/devices/system/cpu/cpuidle/current_governor_ro");
	for (int i = 0; i < 2; i++) {
		json_t *states = cpuidle_states(cpus[i]);
		char key[16];

		snprintf(key, sizeof(key), "%d", cpus[i]);
		if (states)
			json_object_set_new(per, key, states);
		else
			absent++;
	}
	if (driver) {
		json_t *mp;
		char *mod = xasprintf("cpuidle_%s", driver);

		json_object_set_new(ci, "driver", json_string(driver));
		if ((mp = module_params(driver)))
			json_object_set_new(ci, "driver_params", mp);
		if ((mp = module_params(mod)))
			json_object_set_new(ci, "module_params", mp);
		free(mod);
	}
	if (gov)
		json_object_set_new(ci, "governor", json_string(gov));
	json_object_set_new(ci, "cpus", per);
	if (!res->extra)
		res->extra = json_object();
	json_object_set_new(res->extra, "cpuidle", ci);

	if (absent) {
		probe_result_add_param(
			res, "cpuidle",
			"absent (no /sys/devices/system/cpu/cpuN/cpuidle: no cpuidle "
			"driver, the CPU idles in the architecture's default halt)");
	} else {
		char *v = xasprintf("present (driver %s; states in extra.cpuidle)",
				    driver ? driver : "unknown");

		probe_result_add_param(res, "cpuidle", v);
		free(v);
	}
	free(driver);
	free(gov);
}

static int wake_run(struct probe_ctx *ctx, const void *opts)
{
	const struct wake_opts *o = opts;
	/* On the stack: the 64-byte alignment of its members holds there (heap
	 * memory from malloc only guarantees 16). */
	struct wake_job job = {0}, *j = &job;
	char cpus_s[32];
	int cpus[2], rc = PROBE_OK;

	if (parse_cpus(o->cpus, cpus) != 0) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "bad cpus '%s'", o->cpus);
		return PROBE_FAIL;
	}
	snprintf(cpus_s, sizeof(cpus_s), "%d,%d", cpus[0], cpus[1]);
	probe_result_add_param(ctx->res, "cpus_used", cpus_s);
	record_cpuidle(ctx->res, cpus);

	j->team = team_start(2, cpus);
	if (!j->team) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "cannot start 2 pinned threads");
		return PROBE_FAIL;
	}
	for (int mode = 0; mode < N_MODES && rc == PROBE_OK; mode++) {
		struct metric *m;
		char *desc;

		if (!(o->modes & (1u << mode)))
			continue;
		j->mode = mode;
		memset(j->side, 0, sizeof(j->side));
		desc = xasprintf(
			"one-way wake-up = round trip / 2 between threads pinned on CPUs %s "
			"(work = 2 handoffs per round trip; mean over each >= 50 ms sample); %s",
			cpus_s,
			mode == MODE_SPIN
				? "waiter busy-waits on an atomic load of one 32-bit word, no PAUSE"
				: "waiter blocks in FUTEX_WAIT_PRIVATE, waker stores then always "
				  "calls FUTEX_WAKE_PRIVATE (both syscalls included)");
		m = probe_add_metric(ctx->res, "wake_latency", UNIT_NS, BETTER_LOWER, desc, "mode",
				     mode_names[mode], NULL);
		free(desc);
		progress("cpu.wake: mode=%s cpus=%s", mode_names[mode], cpus_s);
		if (measure_op(ctx, m, wake_op, j, 2.0, MEASURE_TIME_PER, 1.0) != 0) {
			probe_result_set_status(ctx->res, STATUS_FAIL,
						"measurement failed (mode=%s)", mode_names[mode]);
			rc = PROBE_FAIL;
		}
		if (mode == MODE_FUTEX) {
			uint64_t h = j->side[0].handoffs + j->side[1].handoffs;
			uint64_t s = j->side[0].slept + j->side[1].slept;

			/* Verify the mechanism: a "blocking" run whose waits never
			 * slept measured a spin with syscalls. */
			m = probe_add_metric(
				ctx->res, "slept", UNIT_PCT, BETTER_NONE,
				"share of handoffs (calibration, warm-ups and samples) "
				"where the waiter really slept in FUTEX_WAIT",
				"mode", mode_names[mode], NULL);
			metric_add_sample(m, h ? 100.0 * (double)s / (double)h : 0.0);
		}
	}
	team_stop(j->team);
	return rc;
}

const struct probe probe_cpu_wake = {
	.name = "cpu.wake",
	.summary = "one-way wake-up latency between two pinned CPUs, spin vs futex, with cpuidle",
	.flags = PROBE_CPU | PROBE_QUICK,
	.opts = wake_opt_rows,
	.opts_size = sizeof(struct wake_opts),
	.quick_opts = NULL,
	.supported = wake_supported,
	.typical_s = {0.9, 1.8}, /* docs/design.md §2.8 */
	.run = wake_run,
};
