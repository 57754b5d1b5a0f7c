/* tracecount.c - tracepoints counted per CPU (tracecount.h). */
#include "machine/tracecount.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/util.h"

/* One group's read holds the count of this many events. */
#define TRACECOUNT_MAX 255

int perf_event_fd(struct perf_event_attr *a, pid_t pid, int cpu, int group)
{
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, group, PERF_FLAG_FD_CLOEXEC);
}

char *perf_refusal(const char *what)
{
	char *paranoid, *why;
	if (errno != EACCES && errno != EPERM)
		return xasprintf("perf_event_open(%s): %s", what, strerror(errno));
	paranoid = read_line_str("/proc/sys/kernel/perf_event_paranoid");
	why = xasprintf("perf_event_open(%s) not permitted (perf_event_paranoid %s)", what,
			paranoid ? str_trim(paranoid) : "unreadable");
	free(paranoid);
	return why;
}

static const char *const tlb_reasons[] = {"task_switch", "remote_shootdown", "local_shootdown",
					  "local_mm_shootdown", "remote_send_ipi"};

const char *tracecount_tlb_reason(unsigned reason)
{
	return reason < ARRAY_SIZE(tlb_reasons) ? tlb_reasons[reason] : NULL;
}

struct tp_want {
	char filter[64], label[192];
	long id;
};

/* One CPU's group: which event each member counts. */
struct tp_cpu {
	size_t n;
	size_t *event;
	int *fd; /* fd[0] leads */
};

struct tracecount {
	struct tp_want *w;
	size_t n, n_cpu;
	struct tp_cpu *cpu;
};

/* Where tracefs is mounted, NULL when nowhere. */
static const char *trace_root(void)
{
	static const char *const roots[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};
	for (size_t i = 0; i < ARRAY_SIZE(roots); i++) {
		char path[128];
		snprintf(path, sizeof(path), "%s/events", roots[i]);
		if (access(path, R_OK | X_OK) == 0)
			return roots[i];
	}
	return NULL;
}

static void want(struct tracecount *t, json_t **missing, const char *root, const char *group,
		 const char *event, const char *filter, const char *label)
{
	char path[512], *id;
	struct tp_want *x;

	if (t->n >= TRACECOUNT_MAX)
		return;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", root, group, event);
	if (!(id = read_line_str(path))) {
		snprintf(path, sizeof(path), "%s:%s", group, event);
		if (!*missing)
			*missing = json_array();
		if (!label || !strcmp(label, tracecount_tlb_reason(0)) || !strcmp(group, "irq"))
			json_array_append_new(*missing, json_string(path)); /* once an event */
		return;
	}
	GROW_ONE(t->w, t->n);
	x = &t->w[t->n++];
	snprintf(x->filter, sizeof(x->filter), "%s", filter ? filter : "");
	snprintf(x->label, sizeof(x->label), "%s:%s%s%s", group, event, label ? ":" : "",
		 label ? label : "");
	x->id = strtol(id, NULL, 10);
	free(id);
}

/* The tracepoints counted: every huge_memory event, page migration, TLB
 * flushes by reason, IOMMU maps, the device lines' handlers. */
static void wants(struct tracecount *t, json_t **missing, const char *root, char *const *irq_lines,
		  size_t n_irq)
{
	char path[512], f[64];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/events/huge_memory", root);
	if (!(d = opendir(path))) {
		if (!*missing)
			*missing = json_array();
		json_array_append_new(*missing, json_string("huge_memory"));
	}
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && e->d_type == DT_DIR)
			want(t, missing, root, "huge_memory", e->d_name, NULL, NULL);
	if (d)
		closedir(d);
	want(t, missing, root, "migrate", "mm_migrate_pages", NULL, NULL);
	for (unsigned r = 0; tracecount_tlb_reason(r); r++) {
		snprintf(f, sizeof(f), "reason == %u", r);
		want(t, missing, root, "tlb", "tlb_flush", f, tracecount_tlb_reason(r));
	}
	want(t, missing, root, "iommu", "map", NULL, NULL);
	want(t, missing, root, "iommu", "unmap", NULL, NULL);
	for (size_t i = 0; i < n_irq; i++) {
		const char *colon = strchr(irq_lines[i], ':');
		if (!colon)
			continue;
		snprintf(f, sizeof(f), "irq == %.*s", (int)(colon - irq_lines[i]), irq_lines[i]);
		want(t, missing, root, "irq", "irq_handler_entry", f, irq_lines[i]);
	}
}

/* CPU c's group of every wanted event that opens there; 0, or -1 with
 * errno when the kernel refuses (not permitted). */
static int open_cpu(struct tracecount *t, size_t c, char **why)
{
	struct tp_cpu *g = &t->cpu[c];

	g->event = xcalloc(t->n ? t->n : 1, sizeof(*g->event));
	g->fd = xcalloc(t->n ? t->n : 1, sizeof(*g->fd));
	for (size_t i = 0; i < t->n; i++) {
		struct perf_event_attr a = {.size = sizeof(a),
					    .type = PERF_TYPE_TRACEPOINT,
					    .config = (uint64_t)t->w[i].id,
					    .read_format = PERF_FORMAT_GROUP};
		int fd = perf_event_fd(&a, -1, (int)c, g->n ? g->fd[0] : -1);
		if (fd < 0) {
			if (errno != EACCES && errno != EPERM)
				continue;
			*why = perf_refusal(t->w[i].label);
			return -1;
		}
		if (*t->w[i].filter && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, t->w[i].filter) != 0) {
			close(fd);
			continue;
		}
		g->fd[g->n] = fd;
		g->event[g->n++] = i;
	}
	return 0;
}

struct tracecount *tracecount_open(char *const *irq_lines, size_t n_irq, char **why,
				   json_t **missing)
{
	const char *root = trace_root();
	struct tracecount *t;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	size_t opened = 0;

	*why = NULL;
	*missing = NULL;
	if (!root) {
		*why = xstrdup("tracefs not mounted (neither /sys/kernel/tracing nor "
			       "/sys/kernel/debug/tracing has events; mount -t tracefs nodev "
			       "/sys/kernel/tracing)");
		return NULL;
	}
	t = xcalloc(1, sizeof(*t));
	wants(t, missing, root, irq_lines, n_irq);
	t->n_cpu = ncpu > 0 ? (size_t)ncpu : 1;
	t->cpu = xcalloc(t->n_cpu, sizeof(*t->cpu));
	for (size_t c = 0; c < t->n_cpu && !*why; c++)
		if (open_cpu(t, c, why) == 0)
			opened += t->cpu[c].n;
	if (!opened && !*why)
		*why = xasprintf("no tracepoint of %zu could be opened under %s", t->n, root);
	if (*why) {
		tracecount_close(t);
		return NULL;
	}
	return t;
}

size_t tracecount_n(const struct tracecount *t)
{
	return t ? t->n : 0;
}

const char *tracecount_name(const struct tracecount *t, size_t i)
{
	return t->w[i].label;
}

void tracecount_read(struct tracecount *t, int64_t *row)
{
	uint64_t v[1 + TRACECOUNT_MAX];

	for (size_t i = 0; i < t->n; i++)
		row[i] = 0;
	for (size_t c = 0; c < t->n_cpu; c++) {
		struct tp_cpu *g = &t->cpu[c];
		ssize_t r;
		if (!g->n)
			continue;
		r = read(g->fd[0], v, sizeof(v));
		for (size_t j = 0; j < g->n; j++)
			if (r < (ssize_t)((2 + j) * sizeof(*v)) || j >= v[0])
				row[g->event[j]] = -1; /* unreadable: so is the sum */
			else if (row[g->event[j]] >= 0)
				row[g->event[j]] += (int64_t)v[1 + j];
	}
}

void tracecount_close(struct tracecount *t)
{
	if (!t)
		return;
	for (size_t c = 0; c < t->n_cpu; c++) {
		for (size_t j = t->cpu[c].n; j-- > 0;) /* the leader last */
			close(t->cpu[c].fd[j]);
		free(t->cpu[c].event);
		free(t->cpu[c].fd);
	}
	free(t->cpu);
	free(t->w);
	free(t);
}
