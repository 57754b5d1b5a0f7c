/* noise.h - what else the machine did while mempath measured (docs/design.md
 * §4.14): the noise meter, read by the parent of a probe every
 * NOISE_PERIOD_S while the probe runs in its child, and a short look before
 * a run (how busy, and who).
 *
 * One reading: the CPU time of the whole machine (/proc/stat: user, nice,
 * system, irq, softirq; steal apart), our own CPU time (this process and
 * the probe's child with its threads and children, /proc/PID/stat), the
 * pressure stall totals (/proc/pressure/{cpu,memory,io}, "some"), the
 * runnable count and the 1-minute load. Between two readings: the other
 * CPUs busy (the machine's busy time minus ours, per second), the steal,
 * the share of the time some task stalled on CPU, memory and I/O. What is
 * not readable (no /proc, a kernel without PSI) is absent, never zero.
 */
#ifndef MEMPATH_NOISE_H
#define MEMPATH_NOISE_H

#include <jansson.h>
#include <sys/types.h>

/* The meter's period. */
#define NOISE_PERIOD_S 0.1

/* Other CPUs busy (other processes plus steal) from which mempath calls the
 * machine busy, and by which legs may differ before a comparison says their
 * load differed: measured on the 2-vCPU VM, docs/design.md §4.15. */
#define NOISE_BUSY_CPUS 0.25

struct noise_meter;

/* Starts a meter watching `child` (and its threads and children) besides
 * this process, with a first reading; with `gpu`, each reading also counts
 * the compute processes on the GPUs that are not ours (NVML, through the
 * backend). NULL when /proc/stat cannot be read. */
struct noise_meter *noise_meter_start(pid_t child, int gpu);
/* One reading (from proc.h's tick). */
void noise_meter_tick(void *meter);
/* The other CPUs busy (other processes plus steal) over [t0, t1]
 * (monotonic seconds), from the readings linearly interpolated; NAN when
 * the window is not inside the readings or t0 is NAN. */
double noise_meter_busy(const struct noise_meter *m, double t0, double t1);
/* The record kept with a probe: the period, the readings' windows (end
 * times in seconds from base_s) with what each saw, and the meter's own
 * CPU time. A new reference. */
json_t *noise_meter_json(const struct noise_meter *m, double base_s);
/* The most compute processes not ours seen on the GPUs by the readings
 * around [t0, t1]; NAN when none was read. */
double noise_meter_gpu_others(const struct noise_meter *m, double t0, double t1);
/* The probe's threads waiting for a CPU (their run-queue wait from
 * /proc/PID/task/TID/schedstat, per second) over [t0, t1]; NAN as above. */
double noise_meter_wait(const struct noise_meter *m, double t0, double t1);
void noise_meter_free(struct noise_meter *m);

/* One process as /proc/PID/stat gives it: its own CPU ticks (utime +
 * stime) and those of its reaped children (cutime + cstime). */
struct noise_proc {
	pid_t pid, ppid;
	long long self, kids;
	long long ticks; /* noise_interval_ticks: over the interval */
	char comm[32];
};

/* Parses /proc/PID/stat text (a comm may hold spaces and parentheses);
 * 0, or -1 when it is not one. */
int noise_parse_stat(const char *text, struct noise_proc *out);
/* Each process of after: its ticks between the two looks into ->ticks,
 * children counted when they ran. A child reaped between them moves its
 * whole CPU time into the parent's cutime at once; what it had run by the
 * first look is not this interval's (counted as current, one reaped child
 * made a shell read 11.7 CPUs on a 2-CPU machine), so the parent's share
 * is its own time plus what its children ran after the first look. A
 * process seen only at the end started in the interval: all of it counts. */
void noise_interval_ticks(const struct noise_proc *before, size_t nb, struct noise_proc *after,
			  size_t na);

/* A look at the machine over interval_s (this process excluded): {"interval_s",
 * "cpus", "other_cpus", "steal_cpus", "top": [{"pid", "comm", "cpus"}] (the
 * three biggest consumers)}; NULL when /proc/stat cannot be read. */
json_t *noise_look(double interval_s);
/* The window of the look a results file's host and ab's start take: 0.25 s,
 * or MEMPATH_TEST_BUSY_LOOK_MS (tests only, 10-250 ms: the CLI tests run
 * some 3000 commands that write a results file, and 0.25 s of each was
 * most of make test's wall time on a 2-CPU machine; the tests that judge
 * the look keep 0.25 s). */
double noise_look_window_s(void);
/* "1.9 other CPUs busy (cc1plus 0.9, make 0.4, ...)" when the look saw at
 * least NOISE_BUSY_CPUS, else NULL; a new string. */
char *noise_busy_line(json_t *look);

#endif
