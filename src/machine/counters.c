/* counters.c - counters around every sample window (counters.h,
 * docs/design.md §4.17). */
#include "machine/counters.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "machine/counters_gpu.h"
#include "machine/tracecount.h"

/* Readings kept at most (each one value per counter): past it a window is
 * unmarked rather than memory unbounded. */
#define COUNTERS_MAX_MARKS 50000

enum { SRC_VMSTAT, SRC_MTHP, SRC_IRQ, SRC_SW, SRC_TRACE, SRC_HW, SRC_GPU, SRC_CUPTI, SRC__N };
static const char *const src_names[SRC__N] = {"vmstat",	     "mthp",	 "interrupts", "software",
					      "tracepoints", "hardware", "gpu",	       "cupti"};

static struct {
	int open;
	struct kv_list names; /* counter names; value: the source */
	char *why[SRC__N];    /* NULL: ok */
	json_t *missing[SRC__N];
	/* vmstat and interrupts: a kept file and the counters' names in it */
	int vm_fd, irq_fd;
	size_t vm_first, vm_n, irq_first, irq_n, tp_first, gpu_first;
	struct gpucount *gpu; /* NVML's and CUPTI's counters (counters_gpu.h) */
	char **vm_key, **irq_key;
	/* mthp stats files, software and hardware events: one fd a counter */
	int *fd_of; /* counter index -> fd, -1 for those read otherwise */
	struct tracecount *tp;
	char *buf;
	size_t cap_buf;
	double *t;
	int64_t *v; /* n_marks x names.n; -1: unreadable */
	size_t n_marks, cap_marks;
	uint64_t spent_ns, most_ns; /* the readings' own time: all, the longest */
	uint64_t src_ns[SRC__N];    /* ... and each source's share */
} C = {.vm_fd = -1, .irq_fd = -1};

static const char *const vmstat_prefixes[] = {
	"thp_",	      "pgfault",    "pgmajfault", "numa_",
	"pgmigrate_", "pgpromote_", "pgdemote_",  "compact_",
};

int counters_vmstat_kept(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(vmstat_prefixes); i++)
		if (str_starts_with(name, vmstat_prefixes[i]))
			return !strcmp(vmstat_prefixes[i], "pgfault") ? !strcmp(name, "pgfault")
								      : 1;
	return 0;
}

static int device_kept(const char *dev, const char *devices)
{
	const char *p = devices;
	while (p && *p) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n && !strncmp(dev, p, n))
			return 1;
		p = e ? e + 1 : NULL;
	}
	return 0;
}

int counters_parse_interrupts(const char *text, const char *devices, struct kv_list *out)
{
	const char *p = text, *eol;
	unsigned ncpu = 0;

	memset(out, 0, sizeof(*out));
	if (!text || !(eol = strchr(p, '\n')))
		return -1;
	for (const char *q = p; q < eol; q++) /* "    CPU0  CPU1 ..." */
		if (!strncmp(q, "CPU", 3) && (q == p || q[-1] == ' '))
			ncpu++;
	if (!ncpu)
		return -1;
	for (p = eol + 1; *p; p = *eol ? eol + 1 : eol) {
		const char *colon, *q, *dev, *end;
		char name[128];
		int64_t sum = 0;
		int numbered;
		unsigned k;

		eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		while (p < eol && *p == ' ')
			p++;
		colon = memchr(p, ':', (size_t)(eol - p));
		if (!colon || colon == p || colon - p >= 32)
			continue;
		numbered = *p >= '0' && *p <= '9';
		q = colon + 1;
		for (k = 0; k < ncpu; k++) { /* ERR and MIS have one count */
			char *stop;
			long long v = strtoll(q, &stop, 10);
			if (stop == q || stop > eol)
				break;
			sum += v;
			q = stop;
		}
		if (k == 0)
			continue;
		if (!numbered) {
			snprintf(name, sizeof(name), "%.*s", (int)(colon - p), p);
			kv_add(out, name, sum);
			continue;
		}
		end = eol; /* the device is the line's last word */
		while (end > q && end[-1] == ' ')
			end--;
		for (dev = end; dev > q && dev[-1] != ' ';)
			dev--;
		snprintf(name, sizeof(name), "%.*s:%.*s", (int)(colon - p), p, (int)(end - dev),
			 dev);
		if (dev < end && device_kept(name + (colon - p) + 1, devices))
			kv_add(out, name, sum);
	}
	return 0;
}

/* The whole of an open file, read again from its start; NULL on failure. */
static const char *reread(int fd)
{
	size_t len = 0;
	if (!C.buf)
		C.buf = xmalloc(C.cap_buf = 65536);
	for (;;) {
		ssize_t r = pread(fd, C.buf + len, C.cap_buf - len - 1, (off_t)len);
		if (r < 0)
			return NULL;
		if (r == 0)
			break;
		len += (size_t)r;
		if (len + 1 == C.cap_buf)
			C.buf = xrealloc(C.buf, C.cap_buf *= 2);
	}
	C.buf[len] = '\0';
	return C.buf;
}

static size_t add_counter(int src, const char *fmt, const char *a, const char *b)
{
	char name[256];
	snprintf(name, sizeof(name), fmt, a, b);
	kv_add(&C.names, name, src);
	C.fd_of = xrealloc(C.fd_of, C.names.n * sizeof(*C.fd_of));
	C.fd_of[C.names.n - 1] = -1;
	return C.names.n - 1;
}

static void unavailable(int src, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void unavailable(int src, const char *fmt, ...)
{
	va_list ap;
	if (C.why[src])
		return;
	va_start(ap, fmt);
	if (vasprintf(&C.why[src], fmt, ap) < 0)
		C.why[src] = NULL;
	va_end(ap);
}

static void note_missing(int src, const char *what)
{
	if (!C.missing[src])
		C.missing[src] = json_array();
	json_array_append_new(C.missing[src], json_string(what));
}

/* Counters of a "name value" or /proc/interrupts file, kept open. */
static void open_text(int src, const char *path, int *fd, size_t *first, size_t *n, char ***key)
{
	struct kv_list l;
	const char *text;
	int rc;

	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0 || !(text = reread(*fd))) {
		unavailable(src, "%s: %s", path, strerror(errno));
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		return;
	}
	rc = src == SRC_IRQ ? counters_parse_interrupts(text, COUNTERS_IRQ_DEVICES, &l)
			    : kv_parse_vmstat(text, &l);
	if (rc != 0)
		unavailable(src, "%s: not in the expected format", path);
	*first = C.names.n;
	*key = xcalloc(l.n + 1, sizeof(**key));
	for (size_t i = 0; rc == 0 && i < l.n; i++) {
		if (src == SRC_VMSTAT && !counters_vmstat_kept(l.items[i].name))
			continue;
		(*key)[(*n)++] = xstrdup(l.items[i].name);
		add_counter(src, src == SRC_IRQ ? "irq:%s%s" : "vmstat:%s%s", l.items[i].name, "");
	}
	kv_free(&l);
}

static void open_mthp(void)
{
	static const char *const stats[] = {"anon_fault_alloc", "anon_fault_fallback", "split",
					    "swpout", "shmem_alloc"};
	const char *root = "/sys/kernel/mm/transparent_hugepage";
	DIR *d = opendir(root);
	struct dirent *e;
	size_t found = 0;

	while (d && (e = readdir(d)))
		for (size_t i = 0;
		     str_starts_with(e->d_name, "hugepages-") && i < ARRAY_SIZE(stats); i++) {
			char path[512];
			int fd;
			size_t k;
			snprintf(path, sizeof(path), "%s/%s/stats/%s", root, e->d_name, stats[i]);
			if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
				continue;
			k = add_counter(SRC_MTHP, "mthp:%s:%s", e->d_name + 10, stats[i]);
			C.fd_of[k] = fd; /* after: add_counter moves fd_of */
			found++;
		}
	if (d)
		closedir(d);
	if (!found)
		unavailable(SRC_MTHP, "no %s/hugepages-*/stats (a kernel before 6.8)", root);
}

/* Why perf_event_open refused (errno), for a source's record. */
static void perf_refused(int src, const char *what)
{
	char *why = perf_refusal(what);
	unavailable(src, "%s", why);
	free(why);
}

/* The event sources the kernel exposes, "a b c", for "no PMU". */
static char *event_sources(void)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *e;
	char *s = xstrdup("");
	while (d && (e = readdir(d))) {
		char *n;
		if (e->d_name[0] == '.')
			continue;
		n = xasprintf("%s%s%s", s, *s ? " " : "", e->d_name);
		free(s);
		s = n;
	}
	if (d)
		closedir(d);
	return s;
}

/* Events of the probe's own threads (pid 0, inherited by threads and
 * children made after). */
static void open_own(int src, const uint32_t *type, const uint64_t *config,
		     const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct perf_event_attr a = {
			.size = sizeof(a), .type = type[i], .config = config[i]};
		int fd;
		a.inherit = 1;
		fd = perf_event_fd(&a, 0, -1, -1);
		if (fd >= 0) {
			size_t k = add_counter(src, src == SRC_SW ? "sw:%s%s" : "hw:%s%s", names[i],
					       "");
			C.fd_of[k] = fd;
			continue;
		}
		if (i > 0 && !C.why[src]) {
			note_missing(src, names[i]);
			continue;
		}
		if (src == SRC_HW && (errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV)) {
			char *have = event_sources();
			unavailable(src,
				    "no PMU: perf_event_open(cycles): %s; "
				    "/sys/bus/event_source/devices holds %s",
				    strerror(errno), *have ? have : "nothing");
			free(have);
		} else
			perf_refused(src, names[i]);
		return;
	}
}

static void open_trace(void)
{
	json_t *missing = NULL;
	char *why = NULL;

	C.tp = tracecount_open(C.irq_key, C.irq_n, &why, &missing);
	C.missing[SRC_TRACE] = missing;
	C.why[SRC_TRACE] = why;
	C.tp_first = C.names.n;
	for (size_t i = 0; C.tp && i < tracecount_n(C.tp); i++)
		add_counter(SRC_TRACE, "trace:%s%s", tracecount_name(C.tp, i), "");
}

/* NVML's link and throttle counters of every GPU, for GPU probes; CUPTI's
 * unified-memory counters, for probes of unified memory. */
static void open_gpu(unsigned what)
{
	char *why[GPUCOUNT_N];

	C.gpu = gpucount_open((what & COUNTERS_GPU) != 0, (what & COUNTERS_UM) != 0, why,
			      &C.missing[SRC_CUPTI]);
	C.why[SRC_GPU] = why[GPUCOUNT_NVML];
	C.why[SRC_CUPTI] = why[GPUCOUNT_CUPTI];
	C.gpu_first = C.names.n;
	for (size_t i = 0; i < gpucount_n(C.gpu); i++)
		add_counter(gpucount_source(C.gpu, i) == GPUCOUNT_CUPTI ? SRC_CUPTI : SRC_GPU,
			    "%s%s", gpucount_name(C.gpu, i), "");
}

void counters_open(unsigned what)
{
	static const uint32_t sw_type[] = {PERF_TYPE_SOFTWARE, PERF_TYPE_SOFTWARE,
					   PERF_TYPE_SOFTWARE};
	static const uint64_t sw_config[] = {PERF_COUNT_SW_PAGE_FAULTS,
					     PERF_COUNT_SW_CONTEXT_SWITCHES,
					     PERF_COUNT_SW_CPU_MIGRATIONS};
	static const char *const sw_names[] = {"page-faults", "context-switches", "cpu-migrations"};
	static const uint32_t hw_type[] = {PERF_TYPE_HARDWARE, PERF_TYPE_HARDWARE,
					   PERF_TYPE_HARDWARE, PERF_TYPE_HW_CACHE};
	static const uint64_t hw_config[] = {
		PERF_COUNT_HW_CPU_CYCLES, PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CACHE_MISSES,
		PERF_COUNT_HW_CACHE_DTLB | (PERF_COUNT_HW_CACHE_OP_READ << 8) |
			(PERF_COUNT_HW_CACHE_RESULT_MISS << 16)};
	static const char *const hw_names[] = {"cycles", "instructions", "llc-misses",
					       "dtlb-load-misses"};

	if (C.open)
		return;
	C.open = 1;
	open_text(SRC_VMSTAT, "/proc/vmstat", &C.vm_fd, &C.vm_first, &C.vm_n, &C.vm_key);
	open_mthp();
	open_text(SRC_IRQ, "/proc/interrupts", &C.irq_fd, &C.irq_first, &C.irq_n, &C.irq_key);
	open_own(SRC_SW, sw_type, sw_config, sw_names, ARRAY_SIZE(sw_names));
	open_trace(); /* after the interrupts: their device lines */
	open_own(SRC_HW, hw_type, hw_config, hw_names, ARRAY_SIZE(hw_names));
	open_gpu(what);
	metric_set_clock(counters_mark);
	counters_mark(); /* the readings start at the probe's start */
}

/* Values of a text source into row, by name (the position kept at open is
 * tried first: the kernel's order does not change). */
static void read_text(int src, int fd, size_t first, size_t n, char **key, int64_t *row)
{
	const char *text = fd >= 0 ? reread(fd) : NULL;
	struct kv_list l;
	size_t at = 0;

	if (!text || (src == SRC_IRQ ? counters_parse_interrupts(text, COUNTERS_IRQ_DEVICES, &l)
				     : kv_parse_vmstat(text, &l)) != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		int found = 1;
		while (at < l.n && strcmp(l.items[at].name, key[i]))
			at++;
		if (at < l.n)
			row[first + i] = l.items[at++].value;
		else
			row[first + i] = kv_get(&l, key[i], &found);
		if (!found)
			row[first + i] = -1;
		if (at >= l.n)
			at = 0;
	}
	kv_free(&l);
}

double counters_mark(void)
{
	int64_t *row;
	uint64_t t0 = time_now_ns(), t1 = t0, dt;
	double now;

	if (!C.open || C.n_marks >= COUNTERS_MAX_MARKS)
		return (double)t0 * 1e-9;
	if (C.n_marks == C.cap_marks) {
		C.cap_marks = C.cap_marks ? 2 * C.cap_marks : 64;
		C.t = xrealloc(C.t, C.cap_marks * sizeof(*C.t));
		C.v = xrealloc(C.v, C.cap_marks * (C.names.n ? C.names.n : 1) * sizeof(*C.v));
	}
	row = C.v + C.n_marks * C.names.n;
	for (size_t i = 0, src = SRC__N; i <= C.names.n; i++) {
		uint64_t x;
		char num[32];
		if (i == C.names.n || (size_t)C.names.items[i].value != src) {
			/* a source's counters are one run of names: time each run */
			uint64_t t = time_now_ns();
			if (src < SRC__N)
				C.src_ns[src] += t - t1;
			t1 = t;
			if (i == C.names.n)
				break;
			src = (size_t)C.names.items[i].value;
		}
		row[i] = -1;
		if (C.fd_of[i] < 0)
			continue;
		if (C.names.items[i].value == SRC_MTHP) { /* one number: one pread */
			ssize_t r = pread(C.fd_of[i], num, sizeof(num) - 1, 0);
			row[i] = r > 0 ? (num[r] = '\0', strtoll(num, NULL, 10)) : -1;
		} else if (read(C.fd_of[i], &x, sizeof(x)) == (ssize_t)sizeof(x))
			row[i] = (int64_t)x;
	}
	read_text(SRC_VMSTAT, C.vm_fd, C.vm_first, C.vm_n, C.vm_key, row);
	C.src_ns[SRC_VMSTAT] += (dt = time_now_ns()) - t1;
	read_text(SRC_IRQ, C.irq_fd, C.irq_first, C.irq_n, C.irq_key, row);
	C.src_ns[SRC_IRQ] += (t1 = time_now_ns()) - dt;
	if (C.tp)
		tracecount_read(C.tp, row + C.tp_first);
	C.src_ns[SRC_TRACE] += (dt = time_now_ns()) - t1;
	if (C.gpu)
		gpucount_read(C.gpu, row + C.gpu_first); /* NVML, CUPTI's flush */
	C.src_ns[SRC_GPU] += time_now_ns() - dt;
	dt = time_now_ns() - t0;
	now = (double)(t0 + dt) * 1e-9;
	C.t[C.n_marks++] = now;
	C.spent_ns += dt;
	C.most_ns = dt > C.most_ns ? dt : C.most_ns;
	return now;
}

/* The reading taken at exactly time t, or -1. */
static long mark_at(double t)
{
	size_t lo = 0, hi = C.n_marks;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (C.t[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < C.n_marks && C.t[lo] == t ? (long)lo : -1;
}

static void attach_metric(struct metric *m)
{
	json_t *moved = json_object(), *un = json_array();
	json_t **col = xcalloc(C.names.n ? C.names.n : 1, sizeof(*col));
	for (size_t k = 0; k < m->n_samples; k++) {
		long a = isnan(m->t0[k]) ? -1 : mark_at(m->t0[k]), b = mark_at(m->t1[k]);
		if (a < 0 || b < 0) {
			json_array_append_new(un, json_integer((json_int_t)k));
			continue;
		}
		for (size_t i = 0; i < C.names.n; i++) {
			int64_t x = C.v[(size_t)a * C.names.n + i],
				y = C.v[(size_t)b * C.names.n + i];
			if (x < 0 || y < 0 || y <= x)
				continue; /* unchanged, or unreadable at either end */
			if (!col[i]) {
				col[i] = json_array();
				for (size_t z = 0; z < m->n_samples; z++)
					json_array_append_new(col[i], json_integer(0));
			}
			json_array_set_new(col[i], k, json_integer((json_int_t)(y - x)));
		}
	}
	for (size_t i = 0; i < C.names.n; i++) {
		size_t z;
		json_t *u;
		if (!col[i])
			continue;
		json_array_foreach (un, z, u) /* unknown, not zero */
			json_array_set_new(col[i], (size_t)json_integer_value(u), json_null());
		json_object_set_new(moved, C.names.items[i].name, col[i]);
	}
	free(col);
	m->counters = json_pack("{s:o}", "moved", moved);
	if (json_array_size(un) < m->n_samples || !m->n_samples) {
		if (json_array_size(un))
			json_object_set(m->counters, "unmarked", un);
	} else { /* no window marked: nothing read */
		json_decref(m->counters);
		m->counters = NULL;
	}
	json_decref(un);
}

void counters_attach(struct probe_result *p)
{
	json_t *by;

	if (!C.open)
		return;
	for (size_t i = 0; i < p->n_metrics; i++)
		if (p->metrics[i].t1 && p->metrics[i].n_samples)
			attach_metric(&p->metrics[i]);
	if (p->counter_sources)
		json_decref(p->counter_sources);
	p->counter_sources = json_array();
	for (int s = 0; s < SRC__N; s++) {
		json_t *e = json_pack("{s:s, s:s}", "source", src_names[s], "state",
				      C.why[s] ? "unavailable" : "ok");
		if (C.why[s])
			json_object_set_new(e, "why", json_string(C.why[s]));
		if (C.missing[s])
			json_object_set(e, "missing", C.missing[s]);
		json_array_append_new(p->counter_sources, e);
	}
	/* what the readings cost, beside the samples' windows, and by source */
	by = json_object();
	for (int s = 0; s < SRC__N; s++)
		if (C.src_ns[s] && C.n_marks)
			json_object_set_new(
				by, src_names[s],
				json_real((double)C.src_ns[s] / (double)C.n_marks * 1e-3));
	json_array_append_new(
		p->counter_sources,
		json_pack("{s:s, s:s, s:I, s:f, s:f, s:o}", "source", "readings", "state", "ok",
			  "n", (json_int_t)C.n_marks, "mean_us",
			  C.n_marks ? (double)C.spent_ns / (double)C.n_marks * 1e-3 : 0.0, "max_us",
			  (double)C.most_ns * 1e-3, "by_source_us", by));
}

void counters_close(void)
{
	if (!C.open)
		return;
	metric_set_clock(NULL);
	for (size_t i = 0; i < C.names.n; i++)
		if (C.fd_of[i] >= 0)
			close(C.fd_of[i]);
	tracecount_close(C.tp);
	gpucount_close(C.gpu);
	if (C.vm_fd >= 0)
		close(C.vm_fd);
	if (C.irq_fd >= 0)
		close(C.irq_fd);
	for (size_t i = 0; i < C.vm_n; i++)
		free(C.vm_key[i]);
	for (size_t i = 0; i < C.irq_n; i++)
		free(C.irq_key[i]);
	free(C.vm_key);
	free(C.irq_key);
	for (int s = 0; s < SRC__N; s++) {
		free(C.why[s]);
		if (C.missing[s])
			json_decref(C.missing[s]);
	}
	kv_free(&C.names);
	free(C.fd_of);
	free(C.buf);
	free(C.t);
	free(C.v);
	memset(&C, 0, sizeof(C));
	C.vm_fd = C.irq_fd = -1;
}
