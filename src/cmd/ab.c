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
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/proc.h"
#include "base/util.h"
#include "cmd/cmd.h"
#include "report/report.h"
#include "results/results_json.h"
#include "verdict/compare.h"

const char usage_ab[] =
	"usage: mempath ab [--a CMD] [--b CMD] [--restore CMD] [--legs ABA|ABAB|...]\n"
	"                  [--a-env K=V]... [--b-env K=V]... [--label-a L] [--label-b L]\n"
	"                  -o DIR [compare options] -- COMMAND [ARGS...]\n"
	"\n"
	"Runs the legs in order (default A, B, A again). Before each leg it runs that\n"
	"variant's setup command with 'sh -c' (a sysfs write, a module swap; output in\n"
	"DIR/leg-N-setup.log), then this mempath with COMMAND ARGS plus\n"
	"'-o DIR/leg-N-LABEL.json --label LABEL' and the variant's environment. The\n"
	"fingerprint and knobs are read at the start and end of every leg. At the end,\n"
	"when a setup or leg fails, and on Ctrl-C or SIGTERM it runs the restore command\n"
	"(default: the A command; log in DIR/restore.log), so the machine is left as it\n"
	"was found. Then it compares the legs (DIR/compare.md, DIR/compare.json) and\n"
	"prints the table. Commands run non-interactively (stdin is /dev/null).\n"
	"\n"
	"  --a CMD, --b CMD     setup command for the A (baseline) and B (change) legs\n"
	"  --restore CMD        run at the end and on failure or interruption\n"
	"  --legs P             order of the legs (default ABA)\n"
	"  --a-env K=V          environment for the A legs (repeatable); --b-env for B\n"
	"  --label-a L          run label of the A legs (default A); --label-b (default B)\n"
	"  -o DIR               directory for the legs' results and logs (created)\n"
	"  compare options      --threshold, --control, --primary, --expect-diff,\n"
	"                       --allow-diff, --fail-on-loss (see 'mempath compare --help')\n"
	"\n"
	"example: mempath ab --a 'echo madvise > /sys/kernel/mm/transparent_hugepage/enabled'\n"
	"           --b 'echo always > /sys/kernel/mm/transparent_hugepage/enabled'\n"
	"           --expect-diff thp_enabled --control 'cpu.first_touch,pages=thp'\n"
	"           -o thp-ab -- probe cpu.first_touch size=256M touch=write\n"
	"\n"
	"Exit status: 0 compared, 1 a setup, leg or restore failed (or --fail-on-loss\n"
	"and a LOSS), 2 bad usage, 130 interrupted (after the restore ran).\n";

int compare_write(const struct comparison *c, const char *fmt, const char *out);
int parse_threshold(const char *s, double *out);

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

int cmd_ab(int argc, char **argv)
{
	static const struct option longopts[] = {{"a", required_argument, NULL, 'A'},
						 {"b", required_argument, NULL, 'B'},
						 {"restore", required_argument, NULL, 'R'},
						 {"legs", required_argument, NULL, 'L'},
						 {"a-env", required_argument, NULL, 'x'},
						 {"b-env", required_argument, NULL, 'y'},
						 {"label-a", required_argument, NULL, 'l'},
						 {"label-b", required_argument, NULL, 'm'},
						 {"output", required_argument, NULL, 'o'},
						 {"threshold", required_argument, NULL, 'T'},
						 {"control", required_argument, NULL, 'c'},
						 {"primary", required_argument, NULL, 'P'},
						 {"expect-diff", required_argument, NULL, 'e'},
						 {"allow-diff", no_argument, NULL, 'a'},
						 {"fail-on-loss", no_argument, NULL, 'F'},
						 {"help", no_argument, NULL, 'h'},
						 {NULL, 0, NULL, 0}};
	struct variant va = {.label = "A"}, vb = {.label = "B"};
	const char *legs = "ABA", *dir = NULL, *restore_cmd = NULL, **controls = NULL;
	const char **expect = NULL;
	size_t n_controls = 0, n_expect = 0, n_legs = 0, n_done = 0;
	struct compare_opts co;
	char exe[4096], **leg_paths = NULL;
	const struct run **runs = NULL;
	struct comparison *cmp = NULL;
	int ch, rc = 2, fail_on_loss = 0, sub_argc;
	ssize_t len;
	compare_opts_default(&co);
	optind = 1;
	while ((ch = getopt_long(argc, argv, "+o:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'A':
			va.setup = optarg;
			break;
		case 'B':
			vb.setup = optarg;
			break;
		case 'R':
			restore_cmd = optarg;
			break;
		case 'L':
			legs = optarg;
			break;
		case 'x':
		case 'y':
			if (add_env(ch == 'x' ? &va : &vb, optarg) != 0)
				goto out;
			break;
		case 'l':
			va.label = optarg;
			break;
		case 'm':
			vb.label = optarg;
			break;
		case 'o':
			dir = optarg;
			break;
		case 'T':
			if (parse_threshold(optarg, &co.threshold) != 0)
				goto out;
			break;
		case 'c':
		case 'P':
			if (compare_pattern_check(optarg, ch == 'c' ? "--control" : "--primary") !=
			    0)
				goto out;
			if (ch == 'P') {
				co.primary = optarg;
				break;
			}
			controls = xrealloc(controls, (n_controls + 1) * sizeof(*controls));
			controls[n_controls++] = optarg;
			break;
		case 'e': /* a list, as in compare: --expect-diff thp_enabled,thp_defrag */
			for (char *save = NULL, *t = strtok_r(optarg, ",", &save); t;
			     t = strtok_r(NULL, ",", &save)) {
				expect = xrealloc(expect, (n_expect + 1) * sizeof(*expect));
				expect[n_expect++] = t;
			}
			break;
		case 'a':
			co.allow_diff = 1;
			break;
		case 'F':
			fail_on_loss = 1;
			break;
		case 'h':
			fputs(usage_ab, stdout);
			rc = 0;
			goto out;
		default:
			fputs(usage_ab, stderr);
			goto out;
		}
	}
	co.controls = controls;
	co.n_controls = n_controls;
	co.expect_diff = expect;
	co.n_expect_diff = n_expect;
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
	sub_argc = argc - optind;
	if (check_leg_args(sub_argc, argv + optind) != 0)
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
			 v->label, argv[optind]);
		args = xcalloc((size_t)sub_argc + 7, sizeof(*args));
		args[0] = exe;
		/* Ours go right after the command name, so they come before any
		 * "--" (wrap -n 5 -- CMD) and stay mempath's, not the workload's. */
		args[1] = argv[optind];
		args[2] = "-o";
		args[3] = leg_paths[i];
		args[4] = "--label";
		args[5] = (char *)v->label;
		memcpy(args + 6, argv + optind + 1, (size_t)(sub_argc - 1) * sizeof(*args));
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
		int w = compare_write(cmp, "md", md) | compare_write(cmp, "json", js) |
			compare_write(cmp, "term", NULL);
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
	free(controls);
	free(expect);
	return rc;
}
