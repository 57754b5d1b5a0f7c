/* session.c - drives a run: fingerprint, probes in children, atomic saves. */
#include "exec/session.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/proc.h"
#include "base/strvec.h"
#include "base/util.h"
#include "machine/noise.h"
#include "machine/sysinfo.h"
#include "results/results_json.h"

static const char *const suites[] = {"quick", "full", "cpu", "gpu", "p2p"};

int session_suite_valid(const char *suite)
{
	for (size_t i = 0; i < ARRAY_SIZE(suites); i++)
		if (strcmp(suite, suites[i]) == 0)
			return 1;
	return 0;
}

int session_suite_has(const char *suite, const struct probe *p)
{
	if (strcmp(suite, "quick") == 0)
		return (p->flags & PROBE_QUICK) != 0;
	if (strcmp(suite, "full") == 0)
		return 1;
	if (strcmp(suite, "cpu") == 0)
		return (p->flags & PROBE_CPU) != 0;
	if (strcmp(suite, "gpu") == 0)
		return (p->flags & PROBE_GPU) != 0;
	if (strcmp(suite, "p2p") == 0)
		return (p->flags & PROBE_P2P) != 0;
	return 0;
}

void session_show(struct session *s, int quiet, int streaming)
{
	s->show = quiet ? PROGRESS_QUIET : isatty(2) ? PROGRESS_LIVE : PROGRESS_LOG;
	s->end_lines = !(streaming && isatty(1));
}

char *session_default_path(const char *label)
{
	char ts[32], safe[65];
	time_t t = time(NULL);
	struct tm tm;
	size_t n = 0;
	localtime_r(&t, &tm);
	strftime(ts, sizeof(ts), "%Y%m%d-%H%M%S", &tm);
	for (const char *c = label ? label : "run"; *c && n < sizeof(safe) - 1; c++)
		safe[n++] = isalnum((unsigned char)*c) || strchr("._-", *c) ? *c : '_';
	safe[n] = '\0';
	for (unsigned k = 1; k < 1000; k++) {
		char *path = k == 1 ? xasprintf("mempath-%s-%s.json", safe, ts)
				    : xasprintf("mempath-%s-%s-%u.json", safe, ts, k);
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0) {
			close(fd);
			return path;
		}
		if (errno != EEXIST) /* not writable here: session_begin says so */
			return path;
		free(path);
	}
	return xasprintf("mempath-%s-%s-%d.json", safe, ts, (int)getpid());
}

/* The output is this run's until session_end: a lock on a file beside it
 * ("DIR/.NAME.lock", flock, so a killed run holds nothing), refused while
 * another mempath holds it. Devices and pipes are not locked. */
static int lock_output(struct session *s)
{
	struct stat st;
	char *dup, *base, *dir;
	if (s->out_path && output_path_check(s->out_path) != 0)
		return -1; /* before any work: a -o that cannot be written */
	if (!s->out_path || (stat(s->out_path, &st) == 0 && !S_ISREG(st.st_mode)))
		return 0;
	dup = xstrdup(s->out_path);
	dir = xstrdup(dirname(dup));
	free(dup);
	dup = xstrdup(s->out_path);
	base = basename(dup);
	s->lock_path = xasprintf("%s/.%s.lock", dir, base);
	free(dir);
	free(dup);
	s->lock_fd = open(s->lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (s->lock_fd < 0) { /* the directory is not writable: the save says so */
		free(s->lock_path);
		s->lock_path = NULL;
		return 0;
	}
	if (flock(s->lock_fd, LOCK_EX | LOCK_NB) != 0) {
		char pid[32] = "";
		ssize_t n = pread(s->lock_fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		close(s->lock_fd);
		free(s->lock_path);
		s->lock_path = NULL;
		return error("'%s' is being written by another mempath%s%s%s: choose another -o",
			     s->out_path, *pid ? " (pid " : "", pid, *pid ? ")" : "");
	}
	if (ftruncate(s->lock_fd, 0) == 0)
		dprintf(s->lock_fd, "%d\n", (int)getpid());
	return 0;
}

static void unlock_output(struct session *s)
{
	if (!s->lock_path)
		return;
	unlink(s->lock_path);
	close(s->lock_fd);
	free(s->lock_path);
	s->lock_path = NULL;
}

void session_abandon(struct session *s)
{
	unlock_output(s);
}

static int save(struct session *s)
{
	if (!s->out_path)
		return 0;
	return run_write_file(s->run, s->out_path);
}

/* The samples each metric takes, part of the ETA's key (progress.h). */
static const char *sampling_plan(const struct session *s, char *buf, size_t len)
{
	const struct runner_opts *o = &s->ropts;

	if (o->auto_ci > 0)
		snprintf(buf, len, "reps=auto ci=%g budget=%g warmups=%u", o->auto_ci,
			 o->auto_budget_s, o->warmups);
	else
		snprintf(buf, len, "reps=%u warmups=%u", o->reps, o->warmups);
	return buf;
}

int session_begin(struct session *s, int argc, char **argv, const char *label, const char *suite)
{
	char now[32], *busy, plan[96];
	json_t *gpu, *devices;
	struct strvec cmd = STRVEC_INIT;
	struct run *r = run_new();
	s->run = r;
	s->lock_path = NULL;
	if (lock_output(s) != 0)
		return -1;
	r->tool_version = xstrdup(MEMPATH_VERSION);
	r->git_hash = xstrdup(MEMPATH_GIT);
	strvec_pushv(&cmd, argv, (size_t)argc);
	r->argc = cmd.n;
	r->argv = strvec_detach(&cmd);
	r->label = label ? xstrdup(label) : NULL;
	r->suite = suite ? xstrdup(suite) : NULL;
	time_iso8601(now, sizeof(now));
	r->start_time = xstrdup(now);
	r->complete = 0; /* until session_end */
	r->host = sysinfo_collect();
	r->knobs_start = json_incref(json_object_get(r->host, "knobs"));

	/* A leg of `ab`: what made it this variant (its setup, its environment),
	 * handed down by ab, kept in the file that the comparison reads. */
	if (getenv("MEMPATH_AB_LEG")) {
		r->leg = json_loads(getenv("MEMPATH_AB_LEG"), 0, NULL);
		if (r->leg && !json_is_object(r->leg)) {
			json_decref(r->leg);
			r->leg = NULL;
		}
	}
	r->noise = json_object();
	json_object_set_new(r->noise, "start", sysinfo_noise());
	gpu = json_object_get(r->host, "gpu");
	devices = gpu ? json_object_get(gpu, "devices") : NULL;
	s->gpu_present = devices && json_is_array(devices) && json_array_size(devices) > 0;
	s->gpu_absent = json_string_value(json_object_get(gpu, "unsupported"));
	progress_begin(&s->pg, s->show, s->ropts.quick,
		       json_string_value(json_object_get(r->host, "hostname")),
		       sampling_plan(s, plan, sizeof(plan)));
	s->pg.end_lines = s->end_lines;
	if (save(s) != 0) {
		unlock_output(s);
		return -1;
	}
	/* docs/design.md §4.14: say, once the run is under way, when others
	 * are busy here */
	busy = noise_busy_line(json_object_get(json_object_get(r->host, "noise"), "busy"));
	if (busy)
		warning("the machine is busy: %s; what it measures now varies with that load (to "
			"compare configurations here: mempath ab --rounds auto)",
			busy);
	free(busy);
	return 0;
}

char *session_not_here(const struct session *s, const struct probe *p)
{
	if (!(p->flags & (PROBE_GPU | PROBE_P2P)) || s->gpu_present)
		return NULL;
	return xasprintf("not run: no GPU here (%s)", s->gpu_absent ? s->gpu_absent : "none found");
}

void session_say_estimate(struct session *s)
{
	int *will = xcalloc(s->n_plan + 1, sizeof(*will));

	for (size_t i = 0; i < s->n_plan; i++) {
		char *why = session_not_here(s, s->plan[i]);

		will[i] = !why;
		free(why);
	}
	progress_estimate(&s->pg, s->plan, will, s->n_plan);
	free(will);
}

/* The probes of the plan after the one starting now. */
static void plan_rest(const struct session *s, const struct probe *p,
		      const struct probe *const **rest, size_t *n)
{
	*rest = NULL;
	*n = 0;
	for (size_t i = 0; s->plan && i < s->n_plan; i++)
		if (s->plan[i] == p) {
			*rest = s->plan + i + 1;
			*n = s->n_plan - i - 1;
			return;
		}
}

/* The probe's result is in the run and on disk: say so, then the caller's
 * table. */
static int probe_done(struct session *s, struct probe_result *res, int counts)
{
	struct probe_result *kept;
	int rc;

	progress_probe_end(&s->pg, status_name(res->status), res->reason, res->wall_s, counts);
	run_take_probe(s->run, res);
	rc = save(s);
	kept = &s->run->probes[s->run->n_probes - 1];
	if (s->on_probe)
		s->on_probe(s, kept, s->on_probe_arg);
	return rc;
}

int session_skip_probe(struct session *s, const struct probe *p, const char *why)
{
	struct probe_result res;
	const struct probe *const *rest;
	size_t n_rest;

	s->done++;
	s->pg.total = s->total ? s->total : s->done;
	plan_rest(s, p, &rest, &n_rest);
	progress_probe_start(&s->pg, p, NULL, 0, rest, n_rest);
	probe_result_init(&res, p->name);
	probe_result_set_status(&res, STATUS_SKIP, "%s", why);
	res.wall_s = 0;
	return probe_done(s, &res, 0);
}

int session_run_probe(struct session *s, const struct probe *p, char *const *kvs, size_t n_kvs)
{
	struct probe_result res;
	const struct probe *const *rest;
	size_t n_rest;

	s->done++;
	s->pg.total = s->total ? s->total : s->done;
	plan_rest(s, p, &rest, &n_rest);
	if (s->ropts.auto_ci > 0 && s->show != PROGRESS_QUIET)
		fprintf(stderr,
			"%s: --reps auto: each metric samples until its median's 95%% CI is within "
			"+-%g%% or %g s have passed (--budget), from %u samples; past %.0f s, "
			"%.0f%% of the probe's %.0f s timeout, the metrics still to come take %u "
			"each, so that it ends with all of them\n",
			p->name, 100 * s->ropts.auto_ci, s->ropts.auto_budget_s, s->ropts.reps,
			runner_auto_deadline_s(p, &s->ropts), 100 * RUNNER_AUTO_SHARE,
			runner_timeout_s(p, &s->ropts), s->ropts.reps);
	progress_probe_start(&s->pg, p, kvs, n_kvs, rest, n_rest);
	s->ropts.tick = progress_tick;
	s->ropts.tick_ctx = &s->pg;
	if (runner_run_probe(p, kvs, n_kvs, &s->ropts, &res) != 0) {
		progress_clear(&s->pg);
		return -1;
	}
	/* the time of a run that skipped, failed or was cut short is no estimate */
	return probe_done(s, &res, res.status == STATUS_OK && !proc_signal_received());
}

size_t session_failed(const struct session *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->run->n_probes; i++)
		n += s->run->probes[i].status == STATUS_FAIL ||
		     s->run->probes[i].status == STATUS_TIMEOUT;
	return n;
}

int session_end(struct session *s)
{
	json_t *found;
	char now[32];
	int rc;
	time_iso8601(now, sizeof(now));
	free(s->run->end_time);
	s->run->end_time = xstrdup(now);
	s->run->knobs_end = sysinfo_knobs();
	/* the wrapped workload's settings, and what probes found that a leg
	 * must share (extra.knobs: gpu.p2p's peer-access answers), at both ends */
	found = s->knobs_extra ? json_deep_copy(s->knobs_extra) : json_object();
	for (size_t i = 0; i < s->run->n_probes; i++) {
		json_t *k = json_object_get(s->run->probes[i].extra, "knobs");
		if (json_is_object(k))
			json_object_update(found, k);
	}
	if (json_object_size(found)) {
		json_t *start =
			s->run->knobs_start ? json_deep_copy(s->run->knobs_start) : json_object();
		json_object_update(start, found);
		if (s->run->knobs_start)
			json_decref(s->run->knobs_start);
		s->run->knobs_start = start;
		if (s->run->knobs_end)
			json_object_update(s->run->knobs_end, found);
	}
	json_decref(found);
	json_object_set_new(s->run->noise, "end", sysinfo_noise());
	s->run->interrupted = proc_signal_received() != 0;
	s->run->complete = 1;
	progress_end(&s->pg);
	rc = save(s);
	unlock_output(s);
	return rc;
}
