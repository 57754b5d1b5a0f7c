/* plan.c - a plan's legs across boots, and its journal (flow/plan.h;
 * docs/design.md §5.21). */
#include "flow/plan.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "base/pending.h"
#include "base/proc.h"
#include "base/util.h"
#include "flow/ab.h"
#include "flow/plan_cond.h"

#define JOURNAL_SCHEMA "mempath/plan-journal/1"

static const char *const state_names[] = {"todo", "started", "done"};

struct journal {
	char *path;
	json_t *o; /* the whole journal */
	json_t *legs;
};

static void event(struct journal *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void event(struct journal *j, const char *fmt, ...)
{
	char now[32], *kernel = plan_kernel_release(), *what;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&what, fmt, ap) < 0)
		what = NULL;
	va_end(ap);
	time_iso8601(now, sizeof(now));
	json_array_append_new(json_object_get(j->o, "events"),
			      json_pack("{s:s, s:s, s:s}", "at", now, "kernel", kernel, "what",
					what ? what : "?"));
	free(what);
	free(kernel);
}

/* The journal written whole, atomically: a kill or a power cut leaves the
 * one before or this one, never half of either. */
static int journal_write(const struct journal *j)
{
	char *text = json_dumps(j->o, JSON_INDENT(1) | JSON_SORT_KEYS);
	int rc = text ? write_file_atomic(j->path, text, strlen(text)) : -1;
	free(text);
	return rc;
}

static json_t *leg_entry(const struct journal *j, size_t i)
{
	return json_array_get(j->legs, i);
}

static enum plan_leg_state leg_state(const struct journal *j, size_t i)
{
	const char *s = json_string_value(json_object_get(leg_entry(j, i), "state"));
	for (int k = 0; s && k < 3; k++)
		if (strcmp(s, state_names[k]) == 0)
			return (enum plan_leg_state)k;
	return PLAN_LEG_TODO;
}

static void set_state(struct journal *j, size_t i, enum plan_leg_state st)
{
	char now[32], *kernel = plan_kernel_release();
	json_t *e = leg_entry(j, i);
	time_iso8601(now, sizeof(now));
	json_object_set_new(e, "state", json_string(state_names[st]));
	json_object_set_new(e, st == PLAN_LEG_DONE ? "ended" : "started", json_string(now));
	json_object_set_new(e, "kernel", json_string(kernel));
	if (st == PLAN_LEG_STARTED)
		json_object_set_new(
			e, "tries",
			json_integer(json_integer_value(json_object_get(e, "tries")) + 1));
	free(kernel);
}

static char *leg_file(const struct plan *p, size_t i)
{
	return xasprintf("leg-%zu-r%u-%s.json", i + 1, plan_leg_round(p, i), p->v[p->legs[i]].name);
}

/* A new journal for p, every leg to do. */
static void journal_new(struct journal *j, const struct plan *p)
{
	j->o = json_pack("{s:s, s:s, s:s, s:[], s:[]}", "schema", JOURNAL_SCHEMA, "plan", p->path,
			 "plan_text", p->text, "legs", "events");
	j->legs = json_object_get(j->o, "legs");
	for (size_t i = 0; i < p->n_legs; i++) {
		char *f = leg_file(p, i);
		json_array_append_new(j->legs,
				      json_pack("{s:i, s:s, s:i, s:s, s:s, s:i}", "leg", (int)i + 1,
						"variant", p->v[p->legs[i]].name, "round",
						(int)plan_leg_round(p, i), "file", f, "state",
						"todo", "tries", 0));
		free(f);
	}
}

/* The journal in dir, or a new one: the plan it holds must be p's, word
 * for word (a leg done under another plan is not this plan's). */
static int journal_open(struct journal *j, const struct plan *p, const char *dir, int *fresh)
{
	struct stat st;
	json_error_t err;
	const char *text;
	j->path = xasprintf("%s/plan.journal", dir);
	*fresh = stat(j->path, &st) != 0;
	if (*fresh) {
		journal_new(j, p);
		return 0;
	}
	j->o = json_load_file(j->path, 0, &err);
	j->legs = j->o ? json_object_get(j->o, "legs") : NULL;
	text = j->o ? json_string_value(json_object_get(j->o, "plan_text")) : NULL;
	if (!j->o || !json_is_array(j->legs) || !text ||
	    !json_is_array(json_object_get(j->o, "events")) ||
	    json_array_size(j->legs) != p->n_legs)
		return error("'%s' is not a plan journal of this plan%s%s", j->path,
			     j->o ? "" : ": ", j->o ? "" : err.text);
	if (strcmp(text, p->text) != 0)
		return error("the plan file '%s' changed since its first leg ran (the journal "
			     "'%s' holds the plan it began with): put it back, or start the "
			     "changed plan in a new directory (-o)",
			     p->path, j->path);
	return 0;
}

/* A leg that was started and never recorded as done (killed, rebooted,
 * failed, interrupted) runs again; what it left, or a file of its name that
 * no leg of this plan wrote, is kept beside, never read as its results. */
static void set_aside(struct journal *j, const char *dir, size_t i, int started)
{
	const char *f = json_string_value(json_object_get(leg_entry(j, i), "file"));
	long long tries = json_integer_value(json_object_get(leg_entry(j, i), "tries"));
	char *path = xasprintf("%s/%s", dir, f), *aside = xasprintf("%s.try-%lld", path, tries);
	struct stat st;
	int kept = stat(path, &st) == 0 && rename(path, aside) == 0;
	if (started)
		event(j, "leg %zu began and did not end (try %lld)%s%s; it runs again", i + 1,
		      tries, kept ? ": what it left is kept as " : "", kept ? aside : "");
	else if (kept)
		event(j, "leg %zu had not run, yet its file was there: kept as %s", i + 1, aside);
	json_object_set_new(leg_entry(j, i), "state", json_string("todo"));
	free(path);
	free(aside);
}

/* DIR is one plan's at a time: a lock on the directory, kept to exit. */
static int lock_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return error("cannot open '%s': %s", dir, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		close(fd);
		return error("'%s' is in use by another plan (or ab): wait for it", dir);
	}
	return 0;
}

/* ---- one leg ------------------------------------------------------------- */

struct leg_ctx {
	const struct plan_variant *v;
	size_t leg;
};

/* After the setup: the module conditions (a setup may load the module). */
static int modules_hold(void *ctx, size_t i)
{
	struct leg_ctx *c = ctx;
	char *why;
	int ok = plan_conds_hold(c->v, 0, &why);
	(void)i;
	if (!ok)
		error("leg %zu (%s) refused after its setup: %s", c->leg + 1, c->v->name, why);
	free(why);
	return ok ? 0 : -1;
}

/* v as ab's variant; when another variant gives the wrapped command words
 * and v none, v's are none (so its {} goes too, as in ab). */
static void to_ab_variant(struct ab_variant *a, const struct plan *p, const struct plan_variant *v)
{
	const char *none = NULL;
	for (size_t i = 0; i < p->n_v; i++)
		if (p->v[i].args)
			none = "";
	*a = (struct ab_variant){
		.setup = v->setup, .label = v->name, .args = v->args ? v->args : none};
	for (size_t k = 0; k < v->n_env; k++)
		ab_variant_env(a, v->env[k]);
}

/* Leg i through ab's flow: a plan of one leg, its files named in the
 * plan's numbering. */
static enum ab_outcome run_one(const struct plan *p, const struct plan_run_opts *o, size_t i)
{
	const struct plan_variant *v = &p->v[p->legs[i]], *base = &p->v[p->baseline];
	struct leg_ctx ctx = {v, i};
	int is_base = p->legs[i] == p->baseline;
	char *command = xasprintf("mempath plan %s", p->path), **paths = NULL;
	struct ab_plan ap = {.legs = is_base ? "A" : "B",
			     .dir = o->dir,
			     .restore = v->restore    ? v->restore
					: p->restore  ? p->restore
					: base->setup ? base->setup
						      : "true",
			     .argv = p->argv,
			     .argc = p->argc,
			     .setup_timeout_s = o->setup_timeout_s,
			     .rounds = 1,
			     .order = "plan",
			     .command = command,
			     .leg_base = i,
			     .legs_total = p->n_legs,
			     .leg_round = plan_leg_round(p, i),
			     .plan = p->path,
			     .after_setup = modules_hold,
			     .after_setup_ctx = &ctx};
	size_t n_run = 0;
	enum ab_outcome out;
	to_ab_variant(is_base ? &ap.a : &ap.b, p, v);
	out = ab_flow(&ap, &paths, &n_run);
	for (size_t k = 0; paths && paths[k]; k++)
		free(paths[k]);
	free(paths);
	ab_variant_free(&ap.a);
	ab_variant_free(&ap.b);
	free(command);
	return out;
}

/* ---- the plan ------------------------------------------------------------ */

int plan_boot_run(const char *cmd, double timeout_s)
{
	char *args[] = {"/bin/sh", "-c", (char *)cmd, NULL};
	struct proc_spec spec = {.argv = args,
				 .io = {PROC_INHERIT, PROC_INHERIT},
				 .on_signal = PROC_SIG_FORWARD,
				 .timeout_s = timeout_s,
				 .grace_s = 5};
	struct proc pr;
	int st;
	progress("plan: boot: %s", cmd);
	if (proc_start(&pr, &spec) != 0)
		return -1;
	st = proc_wait(&pr);
	proc_free(&pr);
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return error("the boot command did not succeed: %s", cmd);
	return 0;
}

/* Where the plan stands, in o->next: the first leg not done and why it
 * cannot run here, with the boot command for it. */
static void say_next(const struct plan *p, size_t i, char *why, struct plan_next *next)
{
	const struct plan_variant *v = &p->v[p->legs[i]];
	next->leg = i;
	next->why = why;
	next->boot = plan_boot_command(v, &next->boot_note);
}

enum plan_outcome plan_run(const struct plan *p, const struct plan_run_opts *o, char ***paths,
			   struct plan_next *next)
{
	struct journal j = {0};
	enum plan_outcome rc = PLAN_BAD;
	char *pending = pending_path(o->dir);
	int fresh;
	struct stat st;
	memset(next, 0, sizeof(*next));
	next->leg = p->n_legs;
	*paths = xcalloc(p->n_legs + 1, sizeof(**paths));
	for (size_t i = 0; i < p->n_legs; i++) {
		char *f = leg_file(p, i);
		(*paths)[i] = xasprintf("%s/%s", o->dir, f);
		free(f);
	}
	if (!o->status_only && mkdir(o->dir, 0755) != 0 && errno != EEXIST) {
		error("cannot create '%s': %s", o->dir, strerror(errno));
		goto out;
	}
	if ((!o->status_only && lock_dir(o->dir) != 0) || journal_open(&j, p, o->dir, &fresh) != 0)
		goto out;
	if (!o->status_only && fresh) {
		event(&j, "plan begun: %zu legs of %zu variants", p->n_legs, p->n_v);
		if (journal_write(&j) != 0)
			goto out;
	}
	/* a leg killed before its restore ran: put the machine back first */
	if (!o->status_only && stat(pending, &st) == 0) {
		progress("plan: a leg was stopped before its restore ran: running it now");
		if (ab_restore_pending(o->dir, o->setup_timeout_s) != 0) {
			rc = PLAN_FAILED;
			goto out;
		}
		event(&j, "the restore an interrupted leg left pending ran");
	}
	rc = PLAN_ALL_DONE;
	for (size_t i = 0; i < p->n_legs; i++) {
		const struct plan_variant *v = &p->v[p->legs[i]];
		enum plan_leg_state s = leg_state(&j, i);
		enum ab_outcome out;
		char *why;
		next->n_done += s == PLAN_LEG_DONE;
		if (s == PLAN_LEG_DONE) {
			if (stat((*paths)[i], &st) != 0) {
				error("the journal has leg %zu done, but its file '%s' is gone: "
				      "put it back (a finished leg is never run again)",
				      i + 1, (*paths)[i]);
				rc = PLAN_BAD;
				goto out;
			}
			continue;
		}
		if (rc != PLAN_ALL_DONE)
			continue; /* counting the legs done after the stop */
		if (!plan_conds_hold(v, 1, &why)) {
			say_next(p, i, why, next);
			rc = PLAN_NEEDS_BOOT;
			continue;
		}
		free(why);
		if (o->status_only) {
			say_next(p, i, NULL, next);
			rc = PLAN_NEEDS_BOOT;
			continue;
		}
		if (s == PLAN_LEG_STARTED || stat((*paths)[i], &st) == 0)
			set_aside(&j, o->dir, i, s == PLAN_LEG_STARTED);
		set_state(&j, i, PLAN_LEG_STARTED);
		if (journal_write(&j) != 0) {
			rc = PLAN_FAILED;
			goto out;
		}
		progress("plan: leg %zu of %zu: %s, round %u", i + 1, p->n_legs, v->name,
			 plan_leg_round(p, i));
		out = run_one(p, o, i);
		if (out == AB_DONE || out == AB_RESTORE_FAILED) {
			set_state(&j, i, PLAN_LEG_DONE);
			next->n_done++;
		} else {
			event(&j, "leg %zu %s", i + 1,
			      out == AB_INTERRUPTED ? "interrupted (the restore ran)" : "failed");
		}
		if (journal_write(&j) != 0 || out != AB_DONE) {
			rc = out == AB_INTERRUPTED ? PLAN_INTERRUPTED : PLAN_FAILED;
			goto out;
		}
	}
out:
	json_decref(j.o);
	free(j.path);
	free(pending);
	return rc;
}

void plan_next_free(struct plan_next *n)
{
	free(n->why);
	free(n->boot);
	free(n->boot_note);
	memset(n, 0, sizeof(*n));
}
