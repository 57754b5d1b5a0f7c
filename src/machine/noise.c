/* noise.c - the noise meter and the look before a run (noise.h). */
#include "machine/noise.h"

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "gpu/backend.h"
#include "machine/noise_chase.h"

static const char *const psi_files[] = {"/proc/pressure/cpu", "/proc/pressure/memory",
					"/proc/pressure/io"};
static const char *const psi_names[] = {"psi_cpu", "psi_memory", "psi_io"};

/* One reading: cumulative seconds (CPU-seconds for the CPU figures); mem_ns:
 * the meter's own chase at this reading (ns a hop; NAN: none). */
struct reading {
	double t, busy, steal, own, wait, psi[3], load1, mem_ns;
	long running;
	int gpu_others; /* compute processes on the GPUs but ours; -1: not read */
};

struct noise_meter {
	pid_t child;
	int gpu; /* read the GPUs' processes too */
	double hz, meter_cpu_s;
	long cpus;
	struct reading *r;
	size_t n, cap;
	/* the chase (noise.h): NOISE_CHASE_BYTES of lines linked in a random
	 * cycle, and where the last reading left it */
	size_t *chase, at;
};

/* The machine's busy and steal CPU-seconds and runnable count from
 * /proc/stat; 0, or -1 when it cannot be read. */
static int read_stat(double hz, double *busy, double *steal, long *running, long *cpus)
{
	char *text = read_file_str("/proc/stat", NULL), *line;
	unsigned long long v[10] = {0};
	int rc = -1;
	if (!text)
		return -1;
	*running = -1;
	*cpus = 0;
	if (sscanf(text, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]) >= 7) {
		/* user nice system idle iowait irq softirq steal (guest is in user) */
		*busy = (double)(v[0] + v[1] + v[2] + v[5] + v[6]) / hz;
		*steal = (double)v[7] / hz;
		rc = 0;
	}
	for (line = text; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (strncmp(line, "cpu", 3) == 0 && isdigit((unsigned char)line[3]))
			(*cpus)++;
		else if (strncmp(line, "procs_running ", 14) == 0)
			*running = strtol(line + 14, NULL, 10);
	}
	free(text);
	return rc;
}

int noise_parse_stat(const char *text, struct noise_proc *out)
{
	const char *open_paren = text ? strchr(text, '(') : NULL;
	const char *close_paren = text ? strrchr(text, ')') : NULL;
	long long ut = 0, st = 0, cut = 0, cst = 0;
	int pid = 0, ppid = 0;

	memset(out, 0, sizeof(*out));
	if (!open_paren || !close_paren || close_paren < open_paren ||
	    sscanf(text, "%d", &pid) != 1 ||
	    sscanf(close_paren + 1,
		   " %*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lld %lld %lld %lld", &ppid, &ut,
		   &st, &cut, &cst) != 5)
		return -1;
	out->pid = (pid_t)pid;
	out->ppid = (pid_t)ppid;
	out->self = ut + st;
	out->kids = cut + cst;
	snprintf(out->comm, sizeof(out->comm), "%.*s", (int)(close_paren - open_paren - 1),
		 open_paren + 1);
	return 0;
}

/* /proc/PID/stat parsed; 0, or -1 if gone. */
static int read_proc(pid_t pid, struct noise_proc *out)
{
	char path[64], *text;
	int rc;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	text = read_file_str(path, NULL);
	rc = noise_parse_stat(text, out);
	free(text);
	return rc;
}

/* utime + stime + cutime + cstime of one process, in ticks; -1 if gone.
 * Summed over a process tree read at once (the meter's own), a child
 * reaped between readings moves from its own line to its parent's cutime,
 * so the sum stays continuous. */
static long long proc_ticks(pid_t pid)
{
	struct noise_proc p;

	return read_proc(pid, &p) == 0 ? p.self + p.kids : -1;
}

/* The run-queue wait of one task (/proc/PID/task/TID/schedstat, second
 * field), in ns; 0 when unreadable. */
static unsigned long long task_wait_ns(const char *task_dir, const char *tid)
{
	char path[400], *text;
	unsigned long long run = 0, wait = 0;
	snprintf(path, sizeof(path), "%s/%s/schedstat", task_dir, tid);
	if (!(text = read_file_str(path, NULL)))
		return 0;
	if (sscanf(text, "%llu %llu", &run, &wait) != 2)
		wait = 0;
	free(text);
	return wait;
}

/* Our own CPU ticks: this process, and pid with every descendant found
 * through /proc/PID/task/TID/children (at most 64 processes); *wait_ns gets
 * the run-queue wait of pid's and its descendants' threads. */
static long long own_ticks(pid_t pid, unsigned long long *wait_ns, int *pids, size_t *n_pids)
{
	pid_t todo[64];
	size_t n = 0, k = 0;
	long long sum = proc_ticks(getpid());
	*wait_ns = 0;
	if (pid > 0)
		todo[n++] = pid;
	for (; k < n; k++) {
		char path[64];
		DIR *d;
		struct dirent *e;
		long long t = proc_ticks(todo[k]);
		if (t > 0)
			sum += t;
		snprintf(path, sizeof(path), "/proc/%d/task", (int)todo[k]);
		if (!(d = opendir(path)))
			continue;
		while ((e = readdir(d)) && n < ARRAY_SIZE(todo)) {
			char cpath[400];
			if (!isdigit((unsigned char)e->d_name[0]))
				continue;
			*wait_ns += task_wait_ns(path, e->d_name);
			snprintf(cpath, sizeof(cpath), "%s/%s/children", path, e->d_name);
			n = read_pids_append(cpath, todo, n, ARRAY_SIZE(todo));
		}
		closedir(d);
	}
	pids[0] = (int)getpid();
	for (k = 0; k < n; k++)
		pids[k + 1] = (int)todo[k];
	*n_pids = n + 1;
	return sum;
}

/* "some ... total=N" of a pressure file, in seconds; NAN when absent. */
static double read_psi(const char *path)
{
	char *text = read_file_str(path, NULL), *t;
	double v = NAN;
	if (text && strncmp(text, "some", 4) == 0 && (t = strstr(text, "total=")))
		v = strtod(t + 6, NULL) * 1e-6;
	free(text);
	return v;
}

static double load1(void)
{
	char *la = read_line_str("/proc/loadavg");
	double v = NAN;
	if (la && sscanf(la, "%lf", &v) != 1)
		v = NAN;
	free(la);
	return v;
}

static double thread_cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int read_one(struct noise_meter *m, struct reading *r)
{
	double c0 = thread_cpu_s();
	long long own;
	unsigned long long wait_ns;
	int pids[65];
	size_t n_pids;
	const struct gpu_backend *g = m->gpu ? gpu_backend() : NULL;
	if (read_stat(m->hz, &r->busy, &r->steal, &r->running, &m->cpus) != 0)
		return -1;
	own = own_ticks(m->child, &wait_ns, pids, &n_pids);
	r->gpu_others = g && g->other_procs ? g->other_procs(pids, n_pids) : -1;
	r->own = own > 0 ? (double)own / m->hz : 0;
	r->wait = (double)wait_ns * 1e-9;
	for (int k = 0; k < 3; k++)
		r->psi[k] = read_psi(psi_files[k]);
	r->load1 = load1();
	r->mem_ns = m->chase ? noise_chase_ns(m->chase, &m->at) : NAN;
	r->t = (double)time_now_ns() * 1e-9;
	m->meter_cpu_s += thread_cpu_s() - c0;
	return 0;
}

struct noise_meter *noise_meter_start(pid_t child, int gpu)
{
	struct noise_meter *m = xcalloc(1, sizeof(*m));
	m->child = child;
	m->gpu = gpu;
	m->hz = (double)sysconf(_SC_CLK_TCK);
	if (!(m->hz > 0))
		m->hz = 100;
	m->cap = 64;
	m->r = xcalloc(m->cap, sizeof(*m->r));
	m->chase = noise_chase_new();
	if (read_one(m, &m->r[0]) != 0) {
		noise_meter_free(m);
		return NULL;
	}
	m->n = 1;
	return m;
}

void noise_meter_tick(void *meter)
{
	struct noise_meter *m = meter;
	if (m->n == m->cap) {
		m->cap *= 2;
		m->r = xrealloc(m->r, m->cap * sizeof(*m->r));
	}
	if (read_one(m, &m->r[m->n]) == 0)
		m->n++;
}

/* Other CPU-seconds (others plus steal) up to reading i. */
static double other_at(const struct noise_meter *m, size_t i)
{
	return m->r[i].busy - m->r[i].own + m->r[i].steal;
}

/* A cumulative figure at time t (what(m, i) at reading i), interpolated;
 * NAN outside the readings. */
static double interp(const struct noise_meter *m, double t,
		     double (*what)(const struct noise_meter *, size_t))
{
	for (size_t i = 1; i < m->n; i++)
		if (t <= m->r[i].t && t >= m->r[i - 1].t) {
			double span = m->r[i].t - m->r[i - 1].t,
			       f = span > 0 ? (t - m->r[i - 1].t) / span : 1;
			return what(m, i - 1) + f * (what(m, i) - what(m, i - 1));
		}
	return NAN;
}

static double wait_at(const struct noise_meter *m, size_t i)
{
	return m->r[i].wait;
}

/* The rate of a cumulative figure over [t0, t1], cut to the readings. */
static double rate_over(const struct noise_meter *m, double t0, double t1,
			double (*what)(const struct noise_meter *, size_t))
{
	double a, b;
	if (!m || m->n < 2 || !(t1 > t0))
		return NAN;
	/* a window that ends after the last reading (the child wrote its
	 * result after its final sample) is cut there */
	if (t1 > m->r[m->n - 1].t)
		t1 = m->r[m->n - 1].t;
	if (t0 < m->r[0].t)
		t0 = m->r[0].t;
	if (!(t1 > t0))
		return NAN;
	a = interp(m, t0, what);
	b = interp(m, t1, what);
	return isfinite(a) && isfinite(b) ? fmax(0.0, (b - a) / (t1 - t0)) : NAN;
}

double noise_meter_wait(const struct noise_meter *m, double t0, double t1)
{
	return rate_over(m, t0, t1, wait_at);
}

double noise_meter_busy(const struct noise_meter *m, double t0, double t1)
{
	return rate_over(m, t0, t1, other_at);
}

double noise_meter_gpu_others(const struct noise_meter *m, double t0, double t1)
{
	double most = NAN, slack = NOISE_PERIOD_S;
	for (size_t i = 0; m && i < m->n; i++)
		if (m->r[i].gpu_others >= 0 && m->r[i].t >= t0 - slack && m->r[i].t <= t1 + slack)
			most = isnan(most) ? m->r[i].gpu_others : fmax(most, m->r[i].gpu_others);
	return most;
}

/* Thousandths, rounded, never below 0: the timeline stays small in a file. */
static json_t *milli(double v)
{
	return isfinite(v) ? json_integer((json_int_t)llround(fmax(0.0, v) * 1000)) : json_null();
}

json_t *noise_meter_json(const struct noise_meter *m, double base_s)
{
	json_t *o = json_object(), *t = json_array(), *other = json_array(), *steal = json_array(),
	       *run = json_array(), *wait = json_array(), *gpu = json_array(), *psi[3],
	       *mean = json_object(), *mem = json_array();
	double sum_other = 0, sum_steal = 0, sum_wait = 0, sum_psi[3] = {0}, span = 0, sum_mem = 0,
	       sum_own = 0;
	size_t n_mem = 0;
	for (int k = 0; k < 3; k++)
		psi[k] = json_array();
	for (size_t i = 1; m && i < m->n; i++) {
		const struct reading *a = &m->r[i - 1], *b = &m->r[i];
		double dt = b->t - a->t;
		if (!(dt > 0))
			continue;
		span += dt;
		json_array_append_new(t, json_integer((json_int_t)llround((b->t - base_s) * 1000)));
		json_array_append_new(
			other,
			milli((other_at(m, i) - other_at(m, i - 1) - (b->steal - a->steal)) / dt));
		json_array_append_new(steal, milli((b->steal - a->steal) / dt));
		json_array_append_new(wait, milli((b->wait - a->wait) / dt));
		sum_wait += b->wait - a->wait;
		sum_other += other_at(m, i) - other_at(m, i - 1) - (b->steal - a->steal);
		sum_own += b->own - a->own;
		sum_steal += b->steal - a->steal;
		for (int k = 0; k < 3; k++) {
			json_array_append_new(psi[k], milli((b->psi[k] - a->psi[k]) / dt));
			sum_psi[k] += b->psi[k] - a->psi[k];
		}
		json_array_append_new(run,
				      b->running >= 0 ? json_integer(b->running) : json_null());
		/* tenths of a ns a hop */
		json_array_append_new(
			mem, isfinite(b->mem_ns) ? json_integer((json_int_t)llround(10 * b->mem_ns))
						 : json_null());
		if (isfinite(b->mem_ns)) {
			sum_mem += b->mem_ns;
			n_mem++;
		}
		json_array_append_new(gpu, b->gpu_others >= 0 ? json_integer(b->gpu_others)
							      : json_null());
	}
	json_object_set_new(o, "period_s", json_real(NOISE_PERIOD_S));
	json_object_set_new(o, "cpus", json_integer(m ? m->cpus : 0));
	json_object_set_new(o, "meter_cpu_s", json_real(m ? m->meter_cpu_s : 0));
	json_object_set_new(o, "unit",
			    json_string("t: ms from the probe's start (window end); "
					"other, steal: thousandths of a CPU; wait: "
					"thousandths of a thread (the probe's threads "
					"waiting for a CPU); psi: thousandths of the time; "
					"mem_ns: tenths of a ns a hop of the meter's chase"));
	json_object_set_new(o, "t", t);
	json_object_set_new(o, "other", other);
	json_object_set_new(o, "steal", steal);
	json_object_set_new(o, "wait", wait);
	for (int k = 0; k < 3; k++)
		json_object_set_new(o, psi_names[k], psi[k]);
	json_object_set_new(o, "runnable", run);
	if (n_mem)
		json_object_set_new(o, "mem_ns", mem);
	else
		json_decref(mem);
	if (m && m->gpu)
		json_object_set_new(o, "gpu_others", gpu);
	else
		json_decref(gpu);
	if (span > 0) {
		json_object_set_new(mean, "other_cpus", json_real(sum_other / span));
		json_object_set_new(mean, "steal_cpus", json_real(sum_steal / span));
		json_object_set_new(mean, "wait", json_real(sum_wait / span));
		for (int k = 0; k < 3; k++)
			if (isfinite(sum_psi[k]))
				json_object_set_new(mean, psi_names[k],
						    json_real(sum_psi[k] / span));
		if (n_mem)
			json_object_set_new(mean, "mem_ns", json_real(sum_mem / (double)n_mem));
		/* the CPUs the probe and the meter had: a probe of one thread
		 * that reads under 1 lost CPU time to a neighbour on its CPU */
		json_object_set_new(mean, "own_cpus", json_real(sum_own / span));
	}
	json_object_set_new(o, "mean", mean);
	return o;
}

void noise_meter_free(struct noise_meter *m)
{
	const struct gpu_backend *g;
	if (!m)
		return;
	g = m->gpu ? gpu_backend() : NULL;
	if (g && g->other_procs_end)
		g->other_procs_end();
	free(m->r);
	free(m->chase);
	free(m);
}

/* ---- the look before a run ---- */

/* Every process's stat but ours; *n of them. */
static struct noise_proc *all_procs(size_t *n)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	struct noise_proc *v = NULL;
	size_t cap = 0;
	pid_t self = getpid();
	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		pid_t pid;
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid = (pid_t)strtol(e->d_name, NULL, 10);
		if (pid == self)
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 256;
			v = xrealloc(v, cap * sizeof(*v));
		}
		if (read_proc(pid, &v[*n]) == 0)
			(*n)++;
	}
	closedir(d);
	return v;
}

static const struct noise_proc *find_proc(const struct noise_proc *v, size_t n, pid_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].pid == pid)
			return &v[i];
	return NULL;
}

/* What gone process g (seen at the first look, not at the second) had run
 * by the first look, with its gone descendants': all of it reaches the
 * parent that reaps g's line of descent at once. */
static long long gone_before(const struct noise_proc *before, size_t nb,
			     const struct noise_proc *after, size_t na, const struct noise_proc *g,
			     int depth)
{
	long long t = g->self + g->kids;

	for (size_t k = 0; k < nb && depth < 16; k++)
		if (before[k].ppid == g->pid && !find_proc(after, na, before[k].pid))
			t += gone_before(before, nb, after, na, &before[k], depth + 1);
	return t;
}

void noise_interval_ticks(const struct noise_proc *before, size_t nb, struct noise_proc *after,
			  size_t na)
{
	for (size_t i = 0; i < na; i++) {
		const struct noise_proc *b = find_proc(before, nb, after[i].pid);
		long long own = after[i].self - (b ? b->self : 0);
		long long kids = after[i].kids - (b ? b->kids : 0);

		/* a child reaped in the interval came into kids whole, with what
		 * its own reaped children had run: only what they ran after the
		 * first look is this interval's */
		for (size_t k = 0; k < nb; k++)
			if (before[k].ppid == after[i].pid && !find_proc(after, na, before[k].pid))
				kids -= gone_before(before, nb, after, na, &before[k], 0);
		after[i].ticks = (own > 0 ? own : 0) + (kids > 0 ? kids : 0);
	}
}

static int by_ticks_desc(const void *a, const void *b)
{
	long long x = ((const struct noise_proc *)a)->ticks,
		  y = ((const struct noise_proc *)b)->ticks;
	return (x < y) - (x > y);
}

double noise_look_window_s(void)
{
	const char *s = getenv("MEMPATH_TEST_BUSY_LOOK_MS");
	char *end;
	long ms;
	if (!s || !*s)
		return 0.25;
	ms = strtol(s, &end, 10);
	return *end || ms < 10 || ms > 250 ? 0.25 : (double)ms / 1000.0;
}

json_t *noise_look(double interval_s)
{
	struct noise_meter m = {.child = 0, .gpu = 0};
	struct reading r0, r1;
	struct noise_proc *before, *after;
	size_t nb, na;
	uint64_t t0;
	json_t *o, *top = json_array();
	m.hz = (double)sysconf(_SC_CLK_TCK);
	if (!(m.hz > 0))
		m.hz = 100;
	before = all_procs(&nb);
	t0 = time_now_ns();
	if (read_one(&m, &r0) != 0) {
		free(before);
		json_decref(top);
		return NULL;
	}
	while ((double)(time_now_ns() - t0) * 1e-9 < interval_s)
		usleep(10000);
	if (read_one(&m, &r1) != 0) {
		/* /proc unreadable (out of descriptors, say): no look, never a
		 * half one */
		free(before);
		json_decref(top);
		return NULL;
	}
	after = all_procs(&na);
	/* each process's ticks over the interval, its children counted when
	 * they ran (noise.h) */
	noise_interval_ticks(before, nb, after, na);
	if (na > 0) /* none (an empty /proc) is an empty list */
		qsort(after, na, sizeof(*after), by_ticks_desc);
	for (size_t i = 0; i < na && i < 3 && after[i].ticks > 0; i++)
		json_array_append_new(top,
				      json_pack("{s:i, s:s, s:f}", "pid", (int)after[i].pid, "comm",
						after[i].comm, "cpus",
						(double)after[i].ticks / m.hz / (r1.t - r0.t)));
	o = json_pack("{s:f, s:i, s:f, s:f, s:o}", "interval_s", r1.t - r0.t, "cpus", (int)m.cpus,
		      "other_cpus",
		      fmax(0.0, (r1.busy - r1.own - r0.busy + r0.own) / (r1.t - r0.t)),
		      "steal_cpus", (r1.steal - r0.steal) / (r1.t - r0.t), "top", top);
	free(before);
	free(after);
	return o;
}

char *noise_busy_line(json_t *look)
{
	double other = json_number_value(json_object_get(look, "other_cpus")) +
		       json_number_value(json_object_get(look, "steal_cpus"));
	json_t *top = json_object_get(look, "top"), *e;
	size_t i;
	char *s, *t;
	if (!look || !(other >= NOISE_BUSY_CPUS))
		return NULL;
	s = xasprintf("%.1f other CPUs busy", other);
	json_array_foreach (top, i, e) {
		t = xasprintf("%s%s%s %.1f", s, i ? ", " : " (",
			      json_string_value(json_object_get(e, "comm")),
			      json_number_value(json_object_get(e, "cpus")));
		free(s);
		s = t;
	}
	if (json_array_size(top)) {
		t = xasprintf("%s)", s);
		free(s);
		s = t;
	}
	return s;
}
