/* phantom.c - settle analysis, the kernel log since a mark, and one cycle:
 * levels while a child runs and after it exits. */
#include "workload/phantom.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/proc.h"
#include "base/stats.h"
#include "base/util.h"

/* ---- settle analysis ----------------------------------------------------- */

void phantom_settle_analyse(const double *t, const int64_t *v, size_t n, int64_t before,
			    int64_t tolerance, struct phantom_settle *out)
{
	int64_t last[3], band = tolerance / 4;
	size_t k = n < 3 ? n : 3, i;
	memset(out, 0, sizeof(*out));
	out->return_s = out->stable_s = -1;
	if (n == 0)
		return;
	for (i = 0; i < k; i++)
		last[i] = v[n - k + i];
	out->final = stats_median_i64(last, k);
	out->missing = before - out->final;
	out->returned = out->missing <= tolerance;
	/* The earliest sample from which the series stays back (or stable). */
	for (i = n; i > 0 && before - v[i - 1] <= tolerance; i--)
		;
	if (i < n)
		out->return_s = t[i];
	for (i = n; i > 0 && llabs(v[i - 1] - out->final) <= band; i--)
		;
	out->stable_s = i < n ? t[i] : t[n - 1];
}

int phantom_settle_done(const double *t, const int64_t *v, size_t n, int64_t before,
			int64_t tolerance, double hold_s)
{
	size_t k = 0;
	if (n < 2 || t[n - 1] < hold_s)
		return 0;
	for (size_t i = n; i > 0 && t[i - 1] >= t[n - 1] - hold_s; i--, k++)
		if (before - v[i - 1] > tolerance)
			return 0;
	return k >= 2;
}

/* ---- kernel log ---------------------------------------------------------- */

int phantom_kmsg_parse(const char *rec, int *level, int *facility, const char **text)
{
	char *end;
	long pri = strtol(rec, &end, 10);
	const char *semi = strchr(rec, ';');
	if (end == rec || *end != ',' || !semi || pri < 0)
		return -1;
	*level = (int)(pri & 7);
	*facility = (int)(pri >> 3);
	*text = semi + 1;
	return 0;
}

int phantom_klog_is_bug(const char *text)
{
	static const char *const marks[] = {"WARNING:",		  "BUG:",	 "Oops",
					    "Call Trace",	  "NVRM",	 "cut here",
					    "general protection", "Kernel panic"};
	for (size_t i = 0; i < ARRAY_SIZE(marks); i++)
		if (strstr(text, marks[i]))
			return 1;
	return 0;
}

int phantom_klog_mark(struct phantom_klog *k)
{
	int size;
	memset(k, 0, sizeof(*k));
	k->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd >= 0) {
		if (lseek(k->fd, 0, SEEK_END) >= 0) {
			k->source = "/dev/kmsg";
			return 0;
		}
		close(k->fd);
		k->fd = -1;
	}
	/* The syslog(2) buffer, as dmesg reads it. */
	size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	if (size > 0) {
		char *buf = xmalloc((size_t)size + 1);
		int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
		if (n >= 0) {
			buf[n] = '\0';
			k->syslog = buf;
			k->source = "syslog(2)";
			return 0;
		}
		free(buf);
	}
	snprintf(k->why, sizeof(k->why),
		 "kernel log not readable (/dev/kmsg and syslog(2): %s; dmesg_restrict?)",
		 strerror(errno));
	return -1;
}

static void news_add(struct phantom_klog_news *n, int level, const char *text, size_t len)
{
	int bug;
	char *line = xmalloc(len + 1);
	memcpy(line, text, len);
	line[len] = '\0';
	bug = phantom_klog_is_bug(line);
	n->warnings += level <= 4;
	n->bugs += bug;
	if ((bug || level <= 4) && n->n_lines < 20) {
		GROW_ONE(n->lines, n->n_lines);
		n->lines[n->n_lines++] = line;
	} else {
		free(line);
	}
}

int phantom_klog_read_new(struct phantom_klog *k, struct phantom_klog_news *n)
{
	memset(n, 0, sizeof(*n));
	if (k->fd >= 0) {
		char rec[8192];
		for (;;) {
			ssize_t r = read(k->fd, rec, sizeof(rec) - 1);
			int level, fac;
			const char *text;
			if (r < 0 && errno == EPIPE)
				continue; /* records overwritten since the last read */
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			rec[r] = '\0';
			/* Kernel messages only: user space may write to /dev/kmsg too. */
			if (phantom_kmsg_parse(rec, &level, &fac, &text) == 0 && fac == 0)
				news_add(n, level, text, strcspn(text, "\n"));
		}
		return 0;
	}
	if (k->syslog) {
		int size = klogctl(10, NULL, 0), got;
		size_t old = strlen(k->syslog);
		char *buf;
		const char *p;
		if (size <= 0)
			return -1;
		buf = xmalloc((size_t)size + 1);
		got = klogctl(3, buf, size);
		if (got < 0) {
			free(buf);
			return -1;
		}
		buf[got] = '\0';
		/* New text follows the old when the ring has not wrapped since. */
		if (strncmp(buf, k->syslog, old) != 0) {
			snprintf(k->why, sizeof(k->why), "kernel log ring wrapped during the run");
			free(buf);
			return -1;
		}
		for (p = buf + old; *p;) {
			size_t len = strcspn(p, "\n");
			int level = 6;
			const char *t = p;
			if (*p == '<' && len > 2) {
				level = (int)(strtol(p + 1, NULL, 10) & 7);
				t = strchr(p, '>') ? strchr(p, '>') + 1 : p;
			}
			news_add(n, level, t, len - (size_t)(t - p));
			p += len;
			if (*p == '\n')
				p++;
		}
		free(buf);
		return 0;
	}
	return -1;
}

void phantom_klog_close(struct phantom_klog *k)
{
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
	free(k->syslog);
	k->syslog = NULL;
}

void phantom_klog_news_free(struct phantom_klog_news *n)
{
	for (size_t i = 0; i < n->n_lines; i++)
		free(n->lines[i]);
	free(n->lines);
	memset(n, 0, sizeof(*n));
}

/* ---- one cycle ----------------------------------------------------------- */

static void nap(double s)
{
	struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
	nanosleep(&ts, NULL); /* a signal cuts it short: callers check for one */
}

static int64_t returnable_now(void)
{
	struct levels l;
	return levels_read(&l, 1) == 0 ? levels_returnable(&l) : -1;
}

int64_t phantom_tolerance(uint64_t requested, uint64_t size, uint64_t used)
{
	double two_pct = 0.02 * (double)(size ? size : used), floor_b = 256.0 * (1 << 20);
	if (requested)
		return (int64_t)requested;
	return (int64_t)(two_pct > floor_b ? two_pct : floor_b);
}

void phantom_levels_settled(struct levels *out, int with_pcp)
{
	struct levels r[3];
	for (int i = 0; i < 3; i++) {
		levels_read(&r[i], with_pcp);
		if (i < 2)
			nap(0.05);
	}
	levels_median(r, 3, out);
}

void phantom_settle_sample(const struct phantom_spec *sp, int64_t baseline, int64_t tol,
			   struct phantom_series *s, struct phantom_settle *st)
{
	uint64_t t0 = time_now_ns();
	s->n = 0;
	while (!proc_signal_received() && s->n < PHANTOM_MAX_SERIES) {
		double t = (double)(time_now_ns() - t0) * 1e-9;
		s->t[s->n] = t;
		s->v[s->n] = returnable_now();
		s->n++;
		if ((s->n >= 3 && phantom_settle_done(s->t, s->v, s->n, baseline, tol, 0.3)) ||
		    t >= sp->settle_s)
			break;
		nap(sp->interval_s);
	}
	phantom_settle_analyse(s->t, s->v, s->n, baseline, tol, st);
}

int phantom_cycle_run(const struct phantom_spec *sp, int64_t baseline, int64_t *tol,
		      struct phantom_cycle *cy, struct phantom_series *s)
{
	struct phantom_child c;
	uint64_t t0;
	memset(cy, 0, sizeof(*cy));
	cy->lowest = baseline;
	t0 = time_now_ns();
	if (phantom_child_start(&c, sp->kind, sp->argv, sp->size, sp->hold_s, sp->detach,
				sp->settle_s + 5) != 0)
		return -1;
	/* The lowest level while it runs says how much it used. */
	while (!proc_signal_received() && !phantom_child_poll(&c, 0)) {
		int64_t a = returnable_now();
		if (a >= 0 && a < cy->lowest)
			cy->lowest = a;
		nap(sp->interval_s < 0.05 ? sp->interval_s : 0.05);
	}
	cy->run_s = (double)(time_now_ns() - t0) * 1e-9;
	if (proc_signal_received()) {
		phantom_child_stop(&c);
		return -1;
	}
	if (sp->kind != PHANTOM_CMD) {
		int r = phantom_child_ready(&c, 2.0, cy->msg, sizeof(cy->msg));
		cy->skip = r == 1;
		cy->failed = r < 0;
		cy->detached = c.detached;
	} else if (c.p.exec_errno) { /* it never ran: nothing was measured */
		snprintf(cy->msg, sizeof(cy->msg), "cannot run '%s': %s", sp->argv[0],
			 strerror(c.p.exec_errno));
		cy->failed = 1;
	}
	if (WIFEXITED(c.p.status))
		snprintf(cy->status, sizeof(cy->status), "exit %d", WEXITSTATUS(c.p.status));
	else
		snprintf(cy->status, sizeof(cy->status), "signal %d", WTERMSIG(c.p.status));
	phantom_child_stop(&c);
	if (cy->skip || cy->failed)
		return 0;
	if (*tol == 0)
		*tol = phantom_tolerance(sp->tolerance, sp->size,
					 baseline > cy->lowest ? (uint64_t)(baseline - cy->lowest)
							       : 0);
	phantom_settle_sample(sp, baseline, *tol, s, &cy->st);
	cy->sampled_s = s->n ? s->t[s->n - 1] : 0;
	return 0;
}
