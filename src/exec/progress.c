/* progress.c - the status line on a terminal, the log lines on a pipe, and
 * the durations behind the ETA (progress.h).
 *
 * Why shared memory for the step: the probe runs in a child (§2.5) and its
 * progress() calls are the only thing that knows where it is; a pipe would
 * need reading in the parent's wait loop for text that is only ever shown
 * once a second. The child writes the text under a sequence number (odd
 * while it writes), the parent copies it when the number is even and the
 * same before and after the copy, so a torn text is never drawn. */
#include "exec/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/util.h"
#include "exec/runner.h"

struct progress_shared {
	unsigned seq;
	char text[200];
};

/* probe: the key, "cpu.stream size=1G reps=10 warmups=2" (progress.h); a
 * line of an older cache, keyed by the name alone, is dropped on loading. */
struct progress_time {
	char *host, *probe;
	int quick;
	double s;
};

struct progress_times {
	struct progress_time *v;
	size_t n;
	int changed;
};

/* The child inherits this pointer with its copy of the address space; the
 * page behind it is shared with the parent. */
static struct progress_shared *step_page;
/* The durations in use, also here so that a command that ends without
 * progress_end() leaves them reachable, not leaked. */
static struct progress_times *times_in_use;

static void step_sink(const char *msg)
{
	struct progress_shared *sh = step_page;

	if (!sh)
		return;
	__atomic_add_fetch(&sh->seq, 1, __ATOMIC_ACQ_REL);
	snprintf(sh->text, sizeof(sh->text), "%s", msg);
	__atomic_add_fetch(&sh->seq, 1, __ATOMIC_RELEASE);
}

static void drop_sink(const char *msg)
{
	(void)msg; /* a pipe gets no steps (progress.h) */
}

static char *times_path(void)
{
	char *dir = xdg_mempath_dir("CACHE", ".cache"), *path;

	if (!dir)
		return NULL;
	path = xasprintf("%s/durations", dir);
	free(dir);
	return path;
}

/* "host\tprobe\tquick|full\tseconds" lines; anything else is skipped. */
static void times_load(struct progress_times *t)
{
	char *path = times_path(), *text = path ? read_file_str(path, NULL) : NULL, *save = NULL;

	for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[4], *s2 = NULL, *end;
		int n = 0;
		double s;

		for (char *w = strtok_r(line, "\t", &s2); w && n < 4; w = strtok_r(NULL, "\t", &s2))
			f[n++] = w;
		if (n != 4 || (strcmp(f[2], "quick") != 0 && strcmp(f[2], "full") != 0) ||
		    !strchr(f[1], ' '))
			continue; /* a line keyed by the probe's name alone: an older cache's */
		s = strtod(f[3], &end);
		if (*end || !(s >= 0) || s > 1e6)
			continue;
		GROW_ONE(t->v, t->n);
		t->v[t->n++] = (struct progress_time){xstrdup(f[0]), xstrdup(f[1]),
						      strcmp(f[2], "quick") == 0, s};
	}
	free(text);
	free(path);
}

static struct progress_time *times_find(struct progress_times *t, const char *host,
					const char *probe, int quick)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].quick == quick && strcmp(t->v[i].host, host) == 0 &&
		    strcmp(t->v[i].probe, probe) == 0)
			return &t->v[i];
	return NULL;
}

/* Written only when something changed; a cache that cannot be written
 * costs the next ETA, never the run. */
static void times_save(struct progress_times *t)
{
	char *path = times_path(), *dir, *slash;
	size_t len = 0, cap = 256;
	char *text;

	if (!path || !t->changed) {
		free(path);
		return;
	}
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	*slash = '\0';
	text = xmalloc(cap);
	text[0] = '\0';
	for (size_t i = 0; i < t->n; i++) {
		char *line = xasprintf("%s\t%s\t%s\t%.1f\n", t->v[i].host, t->v[i].probe,
				       t->v[i].quick ? "quick" : "full", t->v[i].s);

		while (len + strlen(line) + 1 > cap)
			text = xrealloc(text, cap *= 2);
		memcpy(text + len, line, strlen(line) + 1);
		len += strlen(line);
		free(line);
	}
	if (mkdir_parents(dir, 0755) == 0) {
		char *tmp = xasprintf("%s.%ld", path, (long)getpid());
		FILE *f = fopen(tmp, "w");

		if (f) {
			int ok = fwrite(text, 1, len, f) == len;

			if (fclose(f) == 0 && ok)
				rename(tmp, path); /* whole or not at all */
		}
		unlink(tmp);
		free(tmp);
	}
	free(text);
	free(dir);
	free(path);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "probe k=v ... plan" into key: the options sorted (their order does not
 * change the work), the cache's separators made spaces. */
static void time_key(const struct progress *pg, const char *probe, char *const *kvs, size_t n,
		     char *key, size_t len)
{
	char **sorted = xcalloc(n + 1, sizeof(*sorted));
	size_t used = (size_t)snprintf(key, len, "%s", probe);

	if (n)
		memcpy(sorted, kvs, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_str);
	for (size_t i = 0; i <= n && used < len; i++)
		used += (size_t)snprintf(key + used, len - used, " %s",
					 i < n ? sorted[i] : pg->plan);
	for (char *c = key; *c; c++)
		if (*c == '\t' || *c == '\n')
			*c = ' ';
	free(sorted);
}

/* The duration kept for probe at options kvs, or NULL. */
static struct progress_time *time_of(struct progress *pg, const char *probe, char *const *kvs,
				     size_t n)
{
	char key[sizeof(pg->key)];

	time_key(pg, probe, kvs, n, key, sizeof(key));
	return times_find(pg->times, pg->host, key, pg->quick);
}

void progress_begin(struct progress *pg, enum progress_mode mode, int quick, const char *host,
		    const char *plan)
{
	memset(pg, 0, sizeof(*pg));
	pg->mode = mode;
	pg->quick = quick;
	snprintf(pg->plan, sizeof(pg->plan), "%s", plan && *plan ? plan : "-");
	snprintf(pg->host, sizeof(pg->host), "%s", host && *host ? host : "?");
	for (char *c = pg->host; *c; c++)
		if (*c == '\t' || *c == '\n')
			*c = ' '; /* the cache's separators */
	if (!times_in_use) {
		times_in_use = xcalloc(1, sizeof(*times_in_use));
		times_load(times_in_use);
	}
	pg->times = times_in_use;
	if (mode == PROGRESS_LIVE) {
		void *m = mmap(NULL, sizeof(struct progress_shared), PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

		if (m != MAP_FAILED) {
			pg->shared = m;
			memset(pg->shared, 0, sizeof(*pg->shared));
		}
	}
}

void progress_format_eta(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);

	if (s < 0)
		snprintf(buf, len, "?");
	else if (t < 60)
		snprintf(buf, len, "%ld s", t);
	else if (t < 3600)
		snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
	else
		snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

/* The registry's typical time of p in this mode, where it runs at its
 * defaults and samples as the suites do by default (what it was measured
 * with: the quick suite's RUNNER_QUICK_REPS, the others' RUNNER_REPS), else
 * -1. */
static double typical_of(const struct progress *pg, const struct probe *p, size_t n_kvs)
{
	char plan[64];
	double t = p->typical_s[pg->quick ? 0 : 1];

	snprintf(plan, sizeof(plan), "reps=%d warmups=%d",
		 pg->quick ? RUNNER_QUICK_REPS : RUNNER_REPS,
		 pg->quick ? RUNNER_QUICK_WARMUPS : RUNNER_WARMUPS);
	return n_kvs == 0 && strcmp(pg->plan, plan) == 0 && t > 0 ? t : -1;
}

void progress_estimate(struct progress *pg, const struct probe *const *plan, const int *will_run,
		       size_t n)
{
	size_t here = 0, typical = 0, never = 0;
	char eta[32], names[256] = "";
	double sum = 0;

	if (pg->mode == PROGRESS_QUIET)
		return;
	for (size_t i = 0; i < n; i++) {
		struct progress_time *t;
		double ty;

		if (!will_run[i])
			continue;
		if ((t = time_of(pg, plan[i]->name, NULL, 0)) != NULL) {
			sum += t->s;
			here++;
		} else if ((ty = typical_of(pg, plan[i], 0)) > 0) {
			sum += ty;
			typical++;
		} else {
			size_t len = strlen(names);

			snprintf(names + len, sizeof(names) - len, "%s%s", len ? ", " : "",
				 plan[i]->name);
			never++;
		}
	}
	if (!here && !typical)
		return;
	progress_format_eta(sum, eta, sizeof(eta));
	progress("%zu probes: about %s%s here (%zu as they last took on this host, %zu at their "
		 "typical times%s%s)",
		 here + typical + never, eta, never ? " and more" : "", here, typical,
		 never ? ", never timed: " : "", names);
}

void progress_probe_start(struct progress *pg, const struct probe *p, char *const *kvs,
			  size_t n_kvs, const struct probe *const *rest, size_t n_rest)
{
	struct progress_time *t;

	time_key(pg, p->name, kvs, n_kvs, pg->key, sizeof(pg->key));
	t = times_find(pg->times, pg->host, pg->key, pg->quick);
	pg->probe = p->name;
	pg->t0_ns = time_now_ns();
	pg->drawn_ns = 0;
	pg->step[0] = '\0';
	pg->typical = !t && typical_of(pg, p, n_kvs) > 0;
	pg->est_s = t ? t->s : typical_of(pg, p, n_kvs);
	pg->rest_s = 0;
	for (size_t i = 0; i < n_rest && pg->rest_s >= 0; i++) {
		struct progress_time *r = time_of(pg, rest[i]->name, NULL, 0);
		double ty = r ? -1 : typical_of(pg, rest[i], 0);

		pg->typical |= !r && ty > 0;
		pg->rest_s = r ? pg->rest_s + r->s : ty > 0 ? pg->rest_s + ty : -1;
	}
	/* Only while the probe runs: the steps of its child go to the line (or
	 * nowhere on a pipe); what the command prints itself is its own. */
	if (pg->mode == PROGRESS_LIVE && pg->shared) {
		pg->shared->text[0] = '\0';
		step_page = pg->shared;
		util_set_progress_sink(step_sink);
		util_set_clear_line(1);
	} else if (pg->mode == PROGRESS_LOG) {
		util_set_progress_sink(drop_sink);
		fprintf(stderr, "[%u/%u] %s ...\n", pg->done + 1, pg->total, p->name);
	}
	progress_tick(pg);
}

/* The child's latest step, when it was not being written. */
static void read_step(struct progress *pg)
{
	struct progress_shared *sh = pg->shared;
	unsigned a, b;
	char text[sizeof(sh->text)];
	size_t n = strlen(pg->probe);

	if (!sh)
		return;
	a = __atomic_load_n(&sh->seq, __ATOMIC_ACQUIRE);
	if (a & 1 || a == pg->seen_seq)
		return;
	memcpy(text, sh->text, sizeof(text));
	text[sizeof(text) - 1] = '\0';
	b = __atomic_load_n(&sh->seq, __ATOMIC_ACQUIRE);
	if (a != b)
		return;
	pg->seen_seq = a;
	/* "cpu.latency: pages=4k size=8M": the probe's name is on the line already */
	snprintf(pg->step, sizeof(pg->step), "%s",
		 strncmp(text, pg->probe, n) == 0 && text[n] == ':' ? text + n + 1 : text);
	memmove(pg->step, pg->step + strspn(pg->step, " "), strlen(pg->step) + 1);
	pg->drawn_ns = 0; /* new text: draw now */
}

static int term_width(void)
{
	struct winsize ws;

	return ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20 ? ws.ws_col : 80;
}

void progress_tick(void *arg)
{
	struct progress *pg = arg;
	uint64_t now = time_now_ns();
	double el, left;
	char line[512], e[32], r[32];
	int w;

	if (pg->mode != PROGRESS_LIVE || !pg->probe)
		return;
	read_step(pg);
	if (pg->drawn_ns && now - pg->drawn_ns < 1000000000ull)
		return;
	pg->drawn_ns = now;
	el = (double)(now - pg->t0_ns) / 1e9;
	/* a probe past its usual time is nearly done, not done: 1 s at least */
	left = pg->est_s < 0 || pg->rest_s < 0 ? -1
	       : pg->est_s - el > 1	       ? pg->est_s - el + pg->rest_s
					       : 1 + pg->rest_s;
	progress_format_eta(el, e, sizeof(e));
	progress_format_eta(left, r, sizeof(r));
	snprintf(line, sizeof(line), "[%u/%u] %s%s%s  %s  ETA %s%s", pg->done + 1, pg->total,
		 pg->probe, pg->step[0] ? "  " : "", pg->step, e,
		 pg->typical && left >= 0 ? "~" : "", r);
	w = term_width() - 1; /* never the last column: a wrapped line cannot be redrawn */
	if ((int)strlen(line) > w)
		line[w] = '\0';
	fprintf(stderr, "\r\033[K%s", line);
	pg->on_screen = 1;
}

void progress_clear(struct progress *pg)
{
	util_set_progress_sink(NULL);
	util_set_clear_line(0);
	step_page = NULL;
	if (pg->on_screen)
		fputs("\r\033[K", stderr);
	pg->on_screen = 0;
	pg->drawn_ns = 0;
}

void progress_probe_end(struct progress *pg, const char *status, const char *reason, double wall_s,
			int counts)
{
	struct progress_time *t;

	progress_clear(pg);
	if (reason && strcmp(status, "skip") == 0 && strcmp(reason, pg->last_skip) == 0)
		reason = "as above"; /* ten GPU probes skipped for one reason: said once */
	else
		snprintf(pg->last_skip, sizeof(pg->last_skip), "%s",
			 reason && strcmp(status, "skip") == 0 ? reason : "");
	if (pg->mode == PROGRESS_LOG || (pg->mode == PROGRESS_LIVE && pg->end_lines)) {
		/* a reason quotes sysfs, a file or a child's words (§9.3) */
		char *why = util_escape_controls(reason ? reason : "");

		fprintf(stderr, "[%u/%u] %s %s%s%s (%.1f s)\n", pg->done + 1, pg->total,
			pg->probe ? pg->probe : "?", status, reason ? ": " : "", why, wall_s);
		free(why);
	}
	if (counts && pg->probe) {
		t = times_find(pg->times, pg->host, pg->key, pg->quick);
		if (!t) {
			GROW_ONE(pg->times->v, pg->times->n);
			t = &pg->times->v[pg->times->n++];
			*t = (struct progress_time){xstrdup(pg->host), xstrdup(pg->key), pg->quick,
						    0};
		}
		t->s = wall_s;
		pg->times->changed = 1;
	}
	pg->done++;
	pg->probe = NULL;
}

void progress_end(struct progress *pg)
{
	progress_clear(pg);
	if (pg->times) {
		times_save(pg->times);
		for (size_t i = 0; i < pg->times->n; i++) {
			free(pg->times->v[i].host);
			free(pg->times->v[i].probe);
		}
		free(pg->times->v);
		free(pg->times);
		times_in_use = NULL;
	}
	if (pg->shared)
		munmap(pg->shared, sizeof(*pg->shared));
	memset(pg, 0, sizeof(*pg));
}
