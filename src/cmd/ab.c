/* ab.c - `mempath ab`: runs A/B/A legs of a mempath command around the
 * user's own setup commands, restores the machine at the end, on a failed
 * leg and on Ctrl-C/SIGTERM, then compares the legs.
 *
 * Only commands from this command line run: a results file is read for the
 * comparison and never executed from. Each child (setup, leg, restore) gets
 * its own process group and stdin from /dev/null, so a signal reaches it
 * only through us: a leg is stopped cleanly (it keeps its partial results),
 * and the restore command is never cut short by the Ctrl-C that asked for it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/proc.h"
#include "base/util.h"
#include "cmd/args.h"
#include "report/report.h"
#include "results/results_json.h"
#include "verdict/compare.h"

struct variant {
	const char *setup; /* NULL: none */
	const char *label;
	char **env; /* "K=V" */
	size_t n_env;
};

/* Runs args in a child in its own process group with the extra environment,
 * stdout (and stderr when `both`) to out_fd, stdin from /dev/null. With
 * `forward`, SIGINT/SIGTERM/SIGHUP reaching us are passed to it. Returns the
 * wait status, or -1 (error printed). */
static int spawn_wait(char *const *args, char *const *env, size_t n_env, int out_fd, int both,
		      int forward)
{
	struct proc_spec spec = {.argv = args,
				 .env = env,
				 .n_env = n_env,
				 .io = {out_fd >= 0 ? PROC_TO_FD : PROC_INHERIT,
					out_fd >= 0 && both ? PROC_TO_FD : PROC_INHERIT},
				 .to_fd = {out_fd, out_fd},
				 .on_signal = forward ? PROC_SIG_FORWARD : PROC_SIG_NONE};
	struct proc p;
	int status;
	if (proc_start(&p, &spec) != 0)
		return -1;
	status = proc_wait(&p);
	proc_free(&p);
	return status;
}

/* "interrupted by SIGINT" (or SIGTERM, SIGHUP); a new string. */
static char *interrupted_by(int sig)
{
	return xasprintf("interrupted by %s", sig == SIGINT    ? "SIGINT"
					      : sig == SIGTERM ? "SIGTERM"
							       : "SIGHUP");
}

static char *status_str(int status)
{
	if (status < 0)
		return xstrdup("could not run");
	if (WIFEXITED(status))
		return xasprintf("exited %d", WEXITSTATUS(status));
	if (WIFSIGNALED(status))
		return xasprintf("killed by signal %d (%s)", WTERMSIG(status),
				 strsignal(WTERMSIG(status)));
	return xstrdup("ended oddly");
}

/* `sh -c cmd` with its output (and a header and footer we write) in log. */
static int run_logged(const char *cmd, const struct variant *v, const char *log, const char *what,
		      int forward)
{
	char now[32], *st;
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), status;
	char *args[] = {"/bin/sh", "-c", (char *)cmd, NULL};
	FILE *f;
	if (fd < 0)
		return error("cannot create '%s': %s", log, strerror(errno));
	f = fdopen(fd, "w");
	time_iso8601(now, sizeof(now));
	fprintf(f, "# %s, %s\n# $ sh -c '%s'\n", what, now, cmd);
	for (size_t i = 0; v && i < v->n_env; i++)
		fprintf(f, "# env %s\n", v->env[i]);
	fflush(f);
	status = spawn_wait(args, v ? v->env : NULL, v ? v->n_env : 0, fd, 1, forward);
	st = status_str(status);
	time_iso8601(now, sizeof(now));
	fprintf(f, "# %s, %s\n", st, now);
	fclose(f);
	free(st);
	return status;
}

static int restore(const char *cmd, const struct variant *a_env, const char *dir, const char *why)
{
	char *log = xasprintf("%s/restore.log", dir);
	int status, rc = 0;
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
	{
		char *what = xasprintf("restore (%s)", why);
		/* Not forwarded: the restore must finish even when a second Ctrl-C comes. */
		status = run_logged(cmd, a_env, log, what, 0);
		free(what);
	}
	if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) || status < 0) {
		char *st = status_str(status);
		rc = error("restore command %s: the machine may not be as it was found (see '%s')",
			   st, log);
		free(st);
	}
	free(log);
	return rc;
}

static int add_env(struct variant *v, const char *kv)
{
	const char *eq = strchr(kv, '=');
	if (!eq || eq == kv)
		return error("bad environment '%s' (K=V)", kv);
	v->env = xrealloc(v->env, (v->n_env + 1) * sizeof(*v->env));
	v->env[v->n_env++] = xstrdup(kv);
	return 0;
}

static char *safe_label(const char *s)
{
	char *d = xstrdup(s);
	for (char *c = d; *c; c++)
		if (*c == '/' || *c == ' ' || *c == '\'' || *c == '"')
			*c = '_';
	return d;
}

/* The command after --: a mempath command that measures and accepts -o and
 * --label; ours are appended, so the user's own would be ambiguous. */
static int check_leg_args(int argc, char **argv)
{
	static const char *const refused[] = {"ab", "compare", "report", "help", "list", "sysinfo"};
	if (argc < 1)
		return error("ab needs a mempath command after -- (e.g. -- run --suite quick)");
	for (size_t i = 0; i < ARRAY_SIZE(refused); i++)
		if (strcmp(argv[0], refused[i]) == 0)
			return error("'%s' does not measure; ab runs e.g. '-- run --suite quick'",
				     argv[0]);
	/* Past a "--" the words are a wrapped workload's own (llama-bench -o json). */
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "-o") == 0 || str_starts_with(argv[i], "--output") ||
		    str_starts_with(argv[i], "--label"))
			return error("'%s' after --: ab sets the results path and label itself",
				     argv[i]);
	return 0;
}

struct ab_opts {
	const char *a, *b, *restore, *legs, *label_a, *label_b, *dir, *primary;
	struct arg_strs a_env, b_env, controls, expect;
	double threshold;
	int allow_diff, fail_on_loss;
};

static void ab_init(void *p)
{
	struct ab_opts *o = p;
	o->legs = "ABA";
	o->label_a = "A";
	o->label_b = "B";
}

static const struct arg ab_args[] = {
	ARG_STR("a", 0, struct ab_opts, a, "CMD", "setup command for the A (baseline) legs"),
	ARG_STR("b", 0, struct ab_opts, b, "CMD", "setup command for the B (change) legs"),
	ARG_STR("restore", 0, struct ab_opts, restore, "CMD",
		"run at the end and on failure or interruption (default: --a)"),
	ARG_STR("legs", 0, struct ab_opts, legs, "P", "order of the legs (default ABA)"),
	ARG_STRS("a-env", 0, struct ab_opts, a_env, "K=V",
		 "environment for the A legs (repeatable)"),
	ARG_STRS("b-env", 0, struct ab_opts, b_env, "K=V",
		 "environment for the B legs (repeatable)"),
	ARG_STR("label-a", 0, struct ab_opts, label_a, "L", "run label of the A legs (default A)"),
	ARG_STR("label-b", 0, struct ab_opts, label_b, "L", "run label of the B legs (default B)"),
	ARG_STR("output", 'o', struct ab_opts, dir, "DIR",
		"directory for the legs' results and logs (created)"),
	ARG_PCT("threshold", 0, struct ab_opts, threshold, "PCT",
		"as compare: smallest change that matters, in percent"),
	ARG_STRS("control", 0, struct ab_opts, controls, "PAT",
		 "as compare: a metric that must not move"),
	ARG_STR("primary", 0, struct ab_opts, primary, "PAT",
		"as compare: the metric that matters"),
	ARG_ITEMS("expect-diff", 0, struct ab_opts, expect, "K",
		  "as compare: knob K is the change; others must match"),
	ARG_FLAG("allow-diff", 0, struct ab_opts, allow_diff,
		 "as compare: verdicts even when other knobs differ"),
	ARG_FLAG("fail-on-loss", 0, struct ab_opts, fail_on_loss,
		 "exit 1 when a metric that is not a control reads LOSS"),
	ARG_END};

static int ab_main(void *p, const struct cmd_line *l)
{
	struct ab_opts *o = p;
	struct variant va = {.label = o->label_a, .setup = o->a};
	struct variant vb = {.label = o->label_b, .setup = o->b};
	const char *legs = o->legs, *dir = o->dir, *restore_cmd = o->restore;
	size_t n_legs = 0, n_done = 0;
	struct compare_opts co;
	char exe[4096], **leg_paths = NULL;
	const struct run **runs = NULL;
	struct comparison *cmp = NULL;
	int rc = 2, fail_on_loss = o->fail_on_loss, sub_argc = l->argc;
	char **sub_argv = l->argv;
	ssize_t len;
	compare_opts_default(&co);
	co.threshold = o->threshold;
	co.allow_diff = o->allow_diff;
	co.primary = o->primary;
	for (size_t i = 0; i < o->a_env.n; i++)
		if (add_env(&va, o->a_env.v[i]) != 0)
			goto out;
	for (size_t i = 0; i < o->b_env.n; i++)
		if (add_env(&vb, o->b_env.v[i]) != 0)
			goto out;
	for (size_t i = 0; i < o->controls.n; i++)
		if (compare_pattern_check(o->controls.v[i], "--control") != 0)
			goto out;
	if (o->primary && compare_pattern_check(o->primary, "--primary") != 0)
		goto out;
	co.controls = o->controls.v;
	co.n_controls = o->controls.n;
	co.expect_diff = o->expect.v;
	co.n_expect_diff = o->expect.n;
	co.legs = legs;
	n_legs = strlen(legs);
	if (strspn(legs, "AB") != n_legs || !strchr(legs, 'A') || !strchr(legs, 'B') ||
	    n_legs > COMPARE_MAX_LEGS) {
		error("bad --legs '%s' (A and B, both, at most %d legs: ABA, ABAB, ...)", legs,
		      COMPARE_MAX_LEGS);
		goto out;
	}
	if (!dir) {
		error("ab needs -o DIR for the legs' results and logs");
		goto out;
	}
	if (check_leg_args(sub_argc, sub_argv) != 0)
		goto out;
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		error("cannot create '%s': %s", dir, strerror(errno));
		goto out;
	}
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0) {
		error("cannot find this mempath binary: %s", strerror(errno));
		goto out;
	}
	exe[len] = '\0';
	if (!restore_cmd)
		restore_cmd = va.setup;
	proc_signals_install();
	leg_paths = xcalloc(n_legs + 1, sizeof(*leg_paths));
	rc = 1;
	for (size_t i = 0; i < n_legs && !proc_signal_received(); i++) {
		const struct variant *v = legs[i] == 'A' ? &va : &vb;
		char *label = safe_label(v->label), **args, *st;
		char *log = xasprintf("%s/leg-%zu-setup.log", dir, i + 1);
		char *out_log = xasprintf("%s/leg-%zu-%s.log", dir, i + 1, label);
		int status = 0, fd, ok;
		leg_paths[i] = xasprintf("%s/leg-%zu-%s.json", dir, i + 1, label);
		if (v->setup) {
			char *what =
				xasprintf("setup of leg %zu (%c, %s)", i + 1, legs[i], v->label);
			progress("ab: leg %zu/%zu (%c, %s): setup: %s", i + 1, n_legs, legs[i],
				 v->label, v->setup);
			status = run_logged(v->setup, v, log, what, 1);
			free(what);
		} else {
			FILE *f = fopen(log, "w");
			if (f) {
				fprintf(f, "# leg %zu (%c, %s): no setup command\n", i + 1, legs[i],
					v->label);
				fclose(f);
			}
		}
		ok = status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
		if (!ok && !proc_signal_received()) {
			st = status_str(status);
			error("setup of leg %zu (%c, %s) %s: '%s' (output in '%s')", i + 1, legs[i],
			      v->label, st, v->setup, log);
			free(st);
		}
		free(log);
		if (!ok || proc_signal_received()) {
			free(label);
			free(out_log);
			break;
		}
		progress("ab: leg %zu/%zu (%c, %s): mempath %s ...", i + 1, n_legs, legs[i],
			 v->label, sub_argv[0]);
		args = xcalloc((size_t)sub_argc + 7, sizeof(*args));
		args[0] = exe;
		/* Ours go right after the command name, so they come before any
		 * "--" (wrap -n 5 -- CMD) and stay mempath's, not the workload's. */
		args[1] = sub_argv[0];
		args[2] = "-o";
		args[3] = leg_paths[i];
		args[4] = "--label";
		args[5] = (char *)v->label;
		memcpy(args + 6, sub_argv + 1, (size_t)(sub_argc - 1) * sizeof(*args));
		fd = open(out_log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		status = spawn_wait(args, v->env, v->n_env, fd, 0, 1);
		if (fd >= 0)
			close(fd);
		free(args);
		ok = status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
		if (!ok && !proc_signal_received()) {
			st = status_str(status);
			error("leg %zu (%c, %s) %s (its table is in '%s')", i + 1, legs[i],
			      v->label, st, out_log);
			free(st);
		}
		free(label);
		free(out_log);
		if (!ok)
			break;
		n_done++;
	}
	if (proc_signal_received()) {
		char *why = interrupted_by(proc_signal_received());
		restore(restore_cmd, restore_cmd == va.setup ? &va : NULL, dir, why);
		free(why);
		fprintf(stderr,
			"mempath: interrupted; restore ran (see '%s/restore.log'), "
			"partial results kept in '%s'\n",
			dir, dir);
		rc = 130;
		goto out;
	}
	if (n_done < n_legs) {
		restore(restore_cmd, restore_cmd == va.setup ? &va : NULL, dir, "a leg failed");
		goto out;
	}
	if (restore(restore_cmd, restore_cmd == va.setup ? &va : NULL, dir, "end") != 0)
		goto out; /* rc 1: say so before any verdict */
	runs = xcalloc(n_legs, sizeof(*runs));
	for (size_t i = 0; i < n_legs; i++)
		if (!(runs[i] = run_read_file(leg_paths[i])))
			goto out;
	cmp = compare_runs(runs, (const char *const *)leg_paths, n_legs, &co);
	if (!cmp)
		goto out;
	{
		char *md = xasprintf("%s/compare.md", dir), *js = xasprintf("%s/compare.json", dir);
		int w = report_compare_write_file(cmp, REPORT_MD, md) |
			report_compare_write_file(cmp, REPORT_JSON, js) |
			report_compare_write_file(cmp, REPORT_TERM, NULL);
		free(md);
		free(js);
		if (w != 0)
			goto out;
	}
	fprintf(stderr, "results: %s/ (compare.md, compare.json, leg-N-*.json, logs)\n", dir);
	rc = 0;
	if (fail_on_loss && comparison_has_loss(cmp)) {
		error("%zu metric(s) read LOSS (--fail-on-loss)", cmp->summary.count[VERDICT_LOSS]);
		rc = 1;
	}
out:
	comparison_free(cmp);
	for (size_t i = 0; runs && i < n_legs; i++)
		run_free((struct run *)runs[i]);
	free(runs);
	for (size_t i = 0; leg_paths && i < n_legs; i++)
		free(leg_paths[i]);
	free(leg_paths);
	for (size_t i = 0; i < va.n_env; i++)
		free(va.env[i]);
	for (size_t i = 0; i < vb.n_env; i++)
		free(vb.env[i]);
	free(va.env);
	free(vb.env);
	return rc;
}

const struct command command_ab = {
	.name = "ab",
	.summary = "run A/B/A legs with your setup commands, restore, compare",
	.synopsis = "-o DIR [--] COMMAND [ARGS...]",
	.about = "Runs the legs in order (default A, B, A again). Before each leg it runs that\n"
		 "variant's setup command with 'sh -c' (a sysfs write, a module swap; output in\n"
		 "DIR/leg-N-setup.log), then this mempath with COMMAND ARGS plus\n"
		 "'-o DIR/leg-N-LABEL.json --label LABEL' and the variant's environment. The\n"
		 "fingerprint and knobs are read at the start and end of every leg. At the end,\n"
		 "when a setup or leg fails, and on Ctrl-C or SIGTERM it runs the restore command\n"
		 "(default: the A command; log in DIR/restore.log), so the machine is left as it\n"
		 "was found. Then it compares the legs (DIR/compare.md, DIR/compare.json) and\n"
		 "prints the table. Commands run non-interactively (stdin is /dev/null).\n",
	.tail = "example: mempath ab --a 'echo madvise > "
		"/sys/kernel/mm/transparent_hugepage/enabled'\n"
		"           --b 'echo always > /sys/kernel/mm/transparent_hugepage/enabled'\n"
		"           --expect-diff thp_enabled --control 'cpu.first_touch,pages=thp'\n"
		"           -o thp-ab -- probe cpu.first_touch size=256M touch=write\n"
		"\n"
		"Exit status: 0 compared, 1 a setup, leg or restore failed (or --fail-on-loss\n"
		"and a LOSS), 2 bad usage, 130 interrupted (after the restore ran).\n",
	.args = ab_args,
	.opts_size = sizeof(struct ab_opts),
	.init = ab_init,
	.run = ab_main,
	.flags = CMD_STOP_AT_ARG,
};
