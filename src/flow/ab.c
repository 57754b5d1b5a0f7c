/* ab.c - the legs of `mempath ab` around the user's setup commands, and the
 * restore that leaves the machine as it was found (flow/ab.h). */
#include "flow/ab.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "base/pending.h"
#include "base/proc.h"
#include "base/strvec.h"
#include "base/util.h"

/* A child's end: its wait status (-1: could not run) and whether the
 * timeout ended it. */
struct ended {
	int status, timed_out, stopped_by;
};

/* Runs args in a child in its own process group with the extra environment,
 * stdout (and stderr when `both`) to out_fd, stdin from /dev/null. With
 * `forward`, SIGINT/SIGTERM/SIGHUP reaching us are passed to it; with a
 * timeout it gets SIGTERM then, SIGKILL 5 s later. */
static struct ended spawn_wait(char *const *args, char *const *env, size_t n_env, int out_fd,
			       int both, int forward, double timeout_s)
{
	struct proc_spec spec = {.argv = args,
				 .env = env,
				 .n_env = n_env,
				 .io = {out_fd >= 0 ? PROC_TO_FD : PROC_INHERIT,
					out_fd >= 0 && both ? PROC_TO_FD : PROC_INHERIT},
				 .to_fd = {out_fd, out_fd},
				 .on_signal = forward ? PROC_SIG_FORWARD : PROC_SIG_NONE,
				 .timeout_s = timeout_s,
				 .grace_s = 5};
	struct ended e = {-1, 0, 0};
	struct proc p;
	if (proc_start(&p, &spec) != 0)
		return e;
	e.status = proc_wait(&p);
	e.timed_out = p.timed_out;
	e.stopped_by = p.stopped_by;
	proc_free(&p);
	return e;
}

/* "interrupted by SIGINT" (or SIGTERM, SIGHUP); a new string. */
static char *interrupted_by(int sig)
{
	return xasprintf("interrupted by %s", sig == SIGINT    ? "SIGINT"
					      : sig == SIGTERM ? "SIGTERM"
							       : "SIGHUP");
}

static char *status_str(struct ended e, double timeout_s)
{
	if (e.timed_out)
		return xasprintf("did not end within %.0f s (stopped)", timeout_s);
	if (e.status < 0)
		return xstrdup("could not run");
	if (e.stopped_by < 0)
		return xstrdup("waited on a process it started that stayed stopped (ended)");
	if (e.stopped_by)
		return xasprintf("stopped itself (signal %d, %s): ended", e.stopped_by,
				 strsignal(e.stopped_by));
	if (WIFEXITED(e.status))
		return xasprintf("exited %d", WEXITSTATUS(e.status));
	if (WIFSIGNALED(e.status))
		return xasprintf("killed by signal %d (%s)", WTERMSIG(e.status),
				 strsignal(WTERMSIG(e.status)));
	return xstrdup("ended oddly");
}

static int ended_ok(struct ended e)
{
	return e.status >= 0 && !e.timed_out && !e.stopped_by && WIFEXITED(e.status) &&
	       WEXITSTATUS(e.status) == 0;
}

/* `sh -c cmd` with its output (and a header and footer we write) in log,
 * ended after timeout_s: a setup or restore is a sysfs write or a module
 * swap, and one that hangs must not hold the machine in variant B. */
static struct ended run_logged(const char *cmd, const struct ab_variant *v, const char *log,
			       const char *what, int forward, double timeout_s)
{
	char now[32], *st;
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	char *args[] = {"/bin/sh", "-c", (char *)cmd, NULL};
	struct ended e = {-1, 0, 0};
	FILE *f;
	if (fd < 0) {
		error("cannot create '%s': %s", log, strerror(errno));
		return e;
	}
	f = fdopen(fd, "w");
	time_iso8601(now, sizeof(now));
	util_log_line(f, "# %s, %s", what, now);
	util_log_line(f, "# $ sh -c '%s'", cmd);
	for (size_t i = 0; v && i < v->n_env; i++)
		util_log_line(f, "# env %s", v->env[i]);
	fflush(f);
	e = spawn_wait(args, v ? v->env : NULL, v ? v->n_env : 0, fd, 1, forward, timeout_s);
	st = status_str(e, timeout_s);
	time_iso8601(now, sizeof(now));
	fprintf(f, "# %s, %s\n", st, now);
	fclose(f);
	free(st);
	return e;
}

/* ---- the pending restore ------------------------------------------------ */

char *ab_pending_path(const char *dir)
{
	return pending_path(dir);
}

/* Written before the first setup, removed after the restore: if mempath is
 * killed in between (SIGKILL, a power cut), the next ab in this directory
 * finds it and says what must run to put the machine back. */
static int ab_pending_write(const char *dir, const char *cmd, const struct ab_variant *env)
{
	json_t *o = json_pack("{s:s, s:s}", "restore", cmd, "why",
			      "an ab in this directory started its legs and did not finish its "
			      "restore");
	json_t *e = json_array();
	int rc;
	for (size_t i = 0; env && i < env->n_env; i++)
		json_array_append_new(e, json_string(env->env[i]));
	json_object_set_new(o, "env", e);
	rc = pending_write(dir, o);
	json_decref(o);
	return rc;
}

/* ---- restore ------------------------------------------------------------- */

static int restore(const char *cmd, const struct ab_variant *a_env, const char *dir,
		   const char *why, double timeout_s)
{
	char *log = xasprintf("%s/restore.log", dir), *what;
	struct ended e;
	int rc = 0;
	if (!cmd) {
		FILE *f = fopen(log, "w");
		if (f) {
			fprintf(f, "# restore (%s): nothing to run (no --restore and no --a)\n",
				why);
			fclose(f);
		}
		free(log);
		return 0;
	}
	progress("ab: restore (%s): %s", why, cmd);
	what = xasprintf("restore (%s)", why);
	/* Not forwarded: the restore must finish even when a second Ctrl-C comes. */
	e = run_logged(cmd, a_env, log, what, 0, timeout_s);
	free(what);
	if (!ended_ok(e)) {
		char *st = status_str(e, timeout_s);
		rc = error("restore command %s: the machine may not be as it was found (see '%s'; "
			   "'mempath ab --restore-pending %s' runs it again)",
			   st, log, dir);
		free(st);
	} else {
		pending_clear(dir);
	}
	free(log);
	return rc;
}

int ab_restore_pending(const char *dir, double timeout_s)
{
	char *path = ab_pending_path(dir);
	struct ab_variant env = {0};
	int bad;
	json_t *o = pending_read(dir, &bad), *envs, *e;
	const char *cmd = NULL;
	size_t i;
	int rc = -1;
	if (!o && !bad) {
		error("no pending restore in '%s' (no restore.pending: the last ab there finished "
		      "its restore)",
		      dir);
		goto out;
	}
	cmd = json_string_value(json_object_get(o, "restore"));
	if (!cmd) {
		error("'%s' is not a pending-restore record", path);
		goto out;
	}
	envs = json_object_get(o, "env");
	json_array_foreach (envs, i, e)
		if (!json_is_string(e) || ab_variant_env(&env, json_string_value(e)) != 0)
			goto out;
	rc = restore(cmd, &env, dir, "pending from an earlier ab", timeout_s);
out:
	ab_variant_free(&env);
	json_decref(o);
	free(path);
	return rc;
}

/* ---- the legs ------------------------------------------------------------ */

int ab_variant_env(struct ab_variant *v, const char *kv)
{
	const char *eq = strchr(kv, '=');
	if (!eq || eq == kv)
		return error("bad environment '%s' (K=V)", kv);
	GROW_ONE(v->env, v->n_env);
	v->env[v->n_env++] = xstrdup(kv);
	return 0;
}

void ab_variant_free(struct ab_variant *v)
{
	for (size_t i = 0; i < v->n_env; i++)
		free(v->env[i]);
	free(v->env);
	v->env = NULL;
	v->n_env = 0;
}

static char *safe_label(const char *s)
{
	char *d = xstrdup(s);
	for (char *c = d; *c; c++)
		if (*c == '/' || *c == ' ' || *c == '\'' || *c == '"')
			*c = '_';
	return d;
}

/* The legs of the whole plan, for the progress lines. */
static size_t legs_total(const struct ab_plan *p)
{
	return p->legs_total ? p->legs_total : p->leg_base + strlen(p->legs);
}

/* The round of leg i: the plan's, or two legs a round. */
static unsigned leg_round(const struct ab_plan *p, size_t i)
{
	return p->leg_round ? p->leg_round : (unsigned)(i / ab_per_round(p) + 1);
}

/* The setup of leg i: 0 when it ran and exited 0 (or there is none). */
static int setup_leg(const struct ab_plan *p, size_t i, const struct ab_variant *v,
		     double timeout_s)
{
	char *log = xasprintf("%s/leg-%zu-setup.log", p->dir, p->leg_base + i + 1), *st;
	struct ended e = {0, 0, 0};
	int ok;
	if (v->setup) {
		char *what = xasprintf("setup of leg %zu (%c, %s)", p->leg_base + i + 1, p->legs[i],
				       v->label);
		progress("ab: leg %zu/%zu (%c, %s): setup: %s", p->leg_base + i + 1, legs_total(p),
			 p->legs[i], v->label, v->setup);
		e = run_logged(v->setup, v, log, what, 1, timeout_s);
		free(what);
	} else {
		FILE *f = fopen(log, "w");
		if (f) {
			util_log_line(f, "# leg %zu (%c, %s): no setup command",
				      p->leg_base + i + 1, p->legs[i], v->label);
			fclose(f);
		}
	}
	ok = !v->setup || ended_ok(e);
	if (!ok && !proc_signal_received()) {
		st = status_str(e, timeout_s);
		error("setup of leg %zu (%c, %s) %s: '%s' (output in '%s')", p->leg_base + i + 1,
		      p->legs[i], v->label, st, v->setup, log);
		free(st);
	}
	free(log);
	return ok ? 0 : -1;
}

/* What made leg i this variant, handed to the leg's mempath in
 * MEMPATH_AB_LEG and kept in its results file (the comparison shows it). */
static char *leg_record(const struct ab_plan *p, size_t i, const struct ab_variant *v)
{
	char variant[2] = {p->legs[i], 0}, *text, *kv;
	json_t *o = json_object(), *env = json_object();
	json_object_set_new(o, "variant", json_string(variant));
	json_object_set_new(o, "label", json_string(v->label));
	json_object_set_new(o, "setup", v->setup ? json_string(v->setup) : json_null());
	for (size_t k = 0; k < v->n_env; k++) {
		char *eq = strchr(v->env[k], '='),
		     *name = xasprintf("%.*s", (int)(eq - v->env[k]), v->env[k]);
		json_object_set_new(env, name, json_string(eq + 1));
		free(name);
	}
	json_object_set_new(o, "env", env);
	if (v->args) { /* the wrapped command's own words (docs/design.md §11.5) */
		json_t *a = json_array();
		char *copy = xstrdup(v->args), *save = NULL;
		for (char *t = strtok_r(copy, " \t\n", &save); t;
		     t = strtok_r(NULL, " \t\n", &save))
			json_array_append_new(a, json_string(t));
		free(copy);
		json_object_set_new(o, "args", a);
	}
	if (p->n_vars > 2) /* a study: its variants, the baseline first */
		json_object_set_new(o, "variants", json_integer((json_int_t)p->n_vars));
	if (p->title)
		json_object_set_new(o, "title", json_string(p->title));
	if (p->command)
		json_object_set_new(o, "command", json_string(p->command));
	if (p->plan)
		json_object_set_new(o, "plan", json_string(p->plan));
	if (p->rounds) {
		json_object_set_new(o, "round", json_integer((json_int_t)leg_round(p, i)));
		json_object_set_new(o, "order", json_string(p->order));
		if (strcmp(p->order, "random") == 0)
			json_object_set_new(o, "seed", json_integer((json_int_t)p->seed));
	}
	text = json_dumps(o, JSON_COMPACT);
	kv = xasprintf("MEMPATH_AB_LEG=%s", text);
	free(text);
	json_decref(o);
	return kv;
}

/* Leg i itself: this mempath with the command, -o and --label. */
static int run_leg(const struct ab_plan *p, size_t i, const struct ab_variant *v, const char *exe,
		   const char *path)
{
	char *label = safe_label(v->label), *st, *record;
	char *out_log = xasprintf("%s/leg-%zu-%s.log", p->dir, p->leg_base + i + 1, label);
	struct strvec args = STRVEC_INIT, env = STRVEC_INIT;
	struct ended e;
	double tmo = p->leg_timeout_s;
	int fd, ok, by_budget = 0;
	progress("ab: leg %zu/%zu (%c, %s): mempath %s ...", p->leg_base + i + 1, legs_total(p),
		 p->legs[i], v->label, p->argv[0]);
	strvec_push(&args, exe);
	/* Ours go right after the command name, so they come before any "--"
	 * (wrap -n 5 -- CMD) and stay mempath's, not the workload's. */
	strvec_push(&args, p->argv[0]);
	strvec_pushv(&args, (char *[]){"-o", (char *)path, "--label", (char *)v->label}, 4);
	if (v->args)
		strvec_pushv(&args, (char *[]){"--args", (char *)v->args}, 2);
	strvec_pushv(&args, p->argv + 1, (size_t)(p->argc - 1));
	/* last, so it overrides the user's own --reps: the rounds' share */
	if (p->leg_reps) {
		strvec_push(&args, "--reps");
		strvec_pushf(&args, "%u", p->leg_reps);
	}
	strvec_pushv(&env, v->env, v->n_env);
	strvec_push(&env, record = leg_record(p, i, v));
	free(record);
	if (p->budget_s > 0) {
		double left = p->t0_s + p->budget_s - (double)time_now_ns() * 1e-9;

		left = left < 1 ? 1 : left;
		if (!tmo || left < tmo) {
			tmo = left;
			by_budget = 1;
		}
	}
	fd = open(out_log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	e = spawn_wait(args.v, env.v, env.n, fd, 0, 1, tmo);
	if (fd >= 0)
		close(fd);
	strvec_clear(&env);
	strvec_clear(&args);
	ok = ended_ok(e);
	if (!ok && !proc_signal_received()) {
		st = status_str(e, tmo);
		if (e.timed_out && by_budget)
			error("leg %zu (%c, %s) stopped at the --budget of %g s: the rounds a "
			      "verdict "
			      "needs do not fit it (give a larger --budget, or fewer --reps)",
			      p->leg_base + i + 1, p->legs[i], v->label, p->budget_s);
		else
			error("leg %zu (%c, %s) %s (its table is in '%s')", p->leg_base + i + 1,
			      p->legs[i], v->label, st, out_log);
		free(st);
	}
	free(label);
	free(out_log);
	return ok ? 0 : -1;
}

/* The variant of leg i: A, B, or C (a third, bisect's version under test). */
static const struct ab_variant *leg_variant(const struct ab_plan *p, size_t i)
{
	if (p->n_vars)
		return &p->vars[p->legs[i] - 'A'];
	return p->legs[i] == 'A' ? &p->a : p->legs[i] == 'C' ? &p->c : &p->b;
}

size_t ab_per_round(const struct ab_plan *p)
{
	return p->n_vars ? p->n_vars : 2;
}

/* After n legs: 0 (after an error line) when the legs that must fit the
 * budget cannot, at the pace of the legs so far (setups included). */
static int fits_budget(const struct ab_plan *p, size_t n)
{
	double took = (double)time_now_ns() * 1e-9 - p->t0_s, need;

	if (p->budget_s <= 0 || n >= p->fit_legs)
		return 1;
	need = took / (double)n * (double)p->fit_legs;
	if (need <= p->budget_s)
		return 1;
	error("the first %zu legs a verdict needs would take about %.0f s at this pace (%zu took "
	      "%.0f s), past the --budget of %g s: stopped (give a larger --budget, or fewer "
	      "--reps)",
	      p->fit_legs, need, n, took, p->budget_s);
	return 0;
}

/* Pilot n of the budget: the leg command with reps samples a metric, no
 * setup (the machine as found), stopped after timeout_s; its seconds, or
 * -1 stopped there, -2 it failed otherwise. */
static double pilot_run(const struct ab_plan *p, const char *exe, int n, unsigned reps,
			double timeout_s)
{
	char *path = xasprintf("%s/pilot-%d.json", p->dir, n);
	char *log = xasprintf("%s/pilot-%d.log", p->dir, n);
	struct strvec args = STRVEC_INIT;
	double t0 = (double)time_now_ns() * 1e-9, took;
	struct ended e;
	int fd;
	/* the count after the leg's own options (it overrides theirs), before
	 * the "--" or the workload's words, which are not mempath's */
	int at = p->leg_reps || p->pilot_at <= 0 || p->pilot_at > p->argc ? p->argc : p->pilot_at;
	strvec_pushv(&args,
		     (char *[]){(char *)exe, p->argv[0], "-o", path, "--label", "pilot", "--quiet"},
		     7);
	strvec_pushv(&args, p->argv + 1, (size_t)(at - 1));
	strvec_push(&args, p->leg_reps ? "--reps" : p->pilot_opt);
	strvec_pushf(&args, "%u", reps);
	strvec_pushv(&args, p->argv + at, (size_t)(p->argc - at));
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	e = spawn_wait(args.v, NULL, 0, fd, 0, 1, timeout_s);
	took = (double)time_now_ns() * 1e-9 - t0;
	if (fd >= 0)
		close(fd);
	strvec_clear(&args);
	free(path);
	free(log);
	return e.timed_out ? -1 : ended_ok(e) ? took : -2;
}

int ab_budget_pilot(const struct ab_plan *p)
{
	char exe[4096];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	double share, t[2], leg, need, gone;
	unsigned n = p->leg_reps ? p->leg_reps : p->pilot_opt ? p->pilot_n : 0;
	/* --reps auto: a leg samples at least pilot_n a metric, often more */
	int least = !p->leg_reps && p->pilot_opt && strcmp(p->pilot_opt, "--reps") == 0;
	if (p->budget_s <= 0 || !p->fit_legs || !n || len <= 0)
		return 0;
	exe[len] = '\0';
	/* a leg runs leg_reps >= 1 samples a metric (and the same warm-ups):
	 * never less than the pilot of one, so a pilot past a leg's share of
	 * the budget shows the first rounds cannot fit */
	share = p->budget_s / (double)p->fit_legs;
	for (int k = 0; k < 2; k++) {
		t[k] = pilot_run(p, exe, k + 1, (unsigned)k + 1, share < 1 ? 1 : share);
		if (proc_signal_received())
			return -1;
		if (t[k] == -2) { /* the leg itself will say why */
			progress("ab: --budget: the pilot of the leg command failed (its output: "
				 "'%s/pilot-%d.log'); the legs are judged against the budget as "
				 "they run",
				 p->dir, k + 1);
			return 0;
		}
		if (t[k] < 0) {
			error("the leg command with %d sample%s a metric (a pilot, before the "
			      "first "
			      "setup) did not end within %.1f s, a leg's share of the --budget of "
			      "%g s over the first %zu legs a verdict needs: refused (give a "
			      "larger "
			      "--budget, or fewer --reps)",
			      k + 1, k ? "s" : "", share < 1 ? 1 : share, p->budget_s, p->fit_legs);
			return -1;
		}
	}
	/* a leg: a fixed part and a part a sample, from the two pilots (the
	 * second's extra sample; never negative on a noisy machine) */
	leg = t[0] + (t[1] > t[0] ? t[1] - t[0] : 0) * (double)(n - 1);
	need = leg * (double)p->fit_legs;
	gone = (double)time_now_ns() * 1e-9 - p->t0_s;
	if (gone + need > p->budget_s) {
		error("the first %zu legs a verdict needs would take %s %.0f s (a pilot before "
		      "the first setup: %.2f s with 1 %s, %.2f s with 2; a leg of %u%s about "
		      "%.1f s), past the --budget of %g s (%.0f s gone): refused (give a larger "
		      "--budget, or fewer %s)",
		      p->fit_legs, least ? "at least" : "about", need, t[0],
		      p->leg_reps || least ? "sample a metric" : "run", t[1], n,
		      least ? " (--reps auto's least)" : "", leg, p->budget_s, gone,
		      p->leg_reps || least ? "--reps" : "runs (-n)");
		return -1;
	}
	progress("ab: --budget: a pilot (%.2f s with 1 %s, %.2f s with 2) puts the first %zu "
		 "legs at %s%.0f s%s of the %.0f s left (setups not counted)",
		 t[0], p->leg_reps || least ? "sample a metric" : "run", t[1], p->fit_legs,
		 least ? "" : "about ", need, least ? " or more (--reps auto's least)" : "",
		 p->budget_s - gone);
	return 0;
}

enum ab_outcome ab_flow(const struct ab_plan *p, char ***leg_paths_out, size_t *n_run)
{
	size_t n_legs = strlen(p->legs), n_done = 0;
	const struct ab_variant *base = p->n_vars ? &p->vars[0] : &p->a;
	const char *restore_cmd = p->restore ? p->restore : base->setup;
	/* the baseline's environment goes with the restore when it is its setup */
	const struct ab_variant *renv = restore_cmd == base->setup ? base : NULL;
	size_t per = ab_per_round(p);
	char exe[4096], **leg_paths = xcalloc(n_legs + 1, sizeof(*leg_paths));
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	double tmo = p->setup_timeout_s > 0 ? p->setup_timeout_s : AB_SETUP_TIMEOUT_S;
	*leg_paths_out = leg_paths;
	*n_run = 0;
	for (size_t i = 0; i < n_legs; i++) {
		const struct ab_variant *v = leg_variant(p, i);
		char *label = safe_label(v->label);
		leg_paths[i] = p->rounds ? xasprintf("%s/leg-%zu-r%u-%s.json", p->dir,
						     p->leg_base + i + 1, leg_round(p, i), label)
					 : xasprintf("%s/leg-%zu-%s.json", p->dir,
						     p->leg_base + i + 1, label);
		free(label);
	}
	if (len <= 0) {
		error("cannot find this mempath binary: %s", strerror(errno));
		return AB_LEG_FAILED;
	}
	exe[len] = '\0';
	/* a plan that cannot fit its budget is refused before the first setup */
	if (ab_budget_pilot(p) != 0)
		return AB_LEG_FAILED;
	if (restore_cmd && ab_pending_write(p->dir, restore_cmd, renv) != 0)
		return AB_LEG_FAILED;
	proc_signals_install();
	for (size_t i = 0; i < n_legs && !proc_signal_received(); i++) {
		const struct ab_variant *v = leg_variant(p, i);
		if (setup_leg(p, i, v, tmo) != 0 || proc_signal_received() ||
		    (p->after_setup && p->after_setup(p->after_setup_ctx, i) != 0) ||
		    run_leg(p, i, v, exe, leg_paths[i]) != 0)
			break;
		*n_run = ++n_done;
		if (!fits_budget(p, n_done))
			break;
		/* a round ended: the plan may be done before its last leg */
		if (p->go_on && p->rounds && n_done % per == 0 && n_done < n_legs &&
		    !proc_signal_received() &&
		    !p->go_on(p->go_on_ctx, (unsigned)(n_done / per), leg_paths))
			n_legs = n_done;
	}
	if (proc_signal_received()) {
		char *why = interrupted_by(proc_signal_received());
		restore(restore_cmd, renv, p->dir, why, tmo);
		free(why);
		return AB_INTERRUPTED;
	}
	if (n_done < n_legs) {
		restore(restore_cmd, renv, p->dir, "a leg failed", tmo);
		return AB_LEG_FAILED;
	}
	return restore(restore_cmd, renv, p->dir, "end", tmo) != 0 ? AB_RESTORE_FAILED : AB_DONE;
}
