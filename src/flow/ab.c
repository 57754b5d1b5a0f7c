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

#include "base/proc.h"
#include "base/util.h"

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
static int run_logged(const char *cmd, const struct ab_variant *v, const char *log,
		      const char *what, int forward)
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

static int restore(const char *cmd, const struct ab_variant *a_env, const char *dir,
		   const char *why)
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

int ab_variant_env(struct ab_variant *v, const char *kv)
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

void ab_variant_free(struct ab_variant *v)
{
	for (size_t i = 0; i < v->n_env; i++)
		free(v->env[i]);
	free(v->env);
	v->env = NULL;
	v->n_env = 0;
}

/* The setup of leg i: 0 when it ran and exited 0 (or there is none). */
static int setup_leg(const struct ab_plan *p, size_t i, const struct ab_variant *v)
{
	char *log = xasprintf("%s/leg-%zu-setup.log", p->dir, i + 1), *st;
	int status = 0, ok;
	if (v->setup) {
		char *what = xasprintf("setup of leg %zu (%c, %s)", i + 1, p->legs[i], v->label);
		progress("ab: leg %zu/%zu (%c, %s): setup: %s", i + 1, strlen(p->legs), p->legs[i],
			 v->label, v->setup);
		status = run_logged(v->setup, v, log, what, 1);
		free(what);
	} else {
		FILE *f = fopen(log, "w");
		if (f) {
			fprintf(f, "# leg %zu (%c, %s): no setup command\n", i + 1, p->legs[i],
				v->label);
			fclose(f);
		}
	}
	ok = status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	if (!ok && !proc_signal_received()) {
		st = status_str(status);
		error("setup of leg %zu (%c, %s) %s: '%s' (output in '%s')", i + 1, p->legs[i],
		      v->label, st, v->setup, log);
		free(st);
	}
	free(log);
	return ok ? 0 : -1;
}

/* Leg i itself: this mempath with the command, -o and --label. */
static int run_leg(const struct ab_plan *p, size_t i, const struct ab_variant *v, const char *exe,
		   const char *path)
{
	char *label = safe_label(v->label), *st, **args;
	char *out_log = xasprintf("%s/leg-%zu-%s.log", p->dir, i + 1, label);
	int status, fd, ok;
	progress("ab: leg %zu/%zu (%c, %s): mempath %s ...", i + 1, strlen(p->legs), p->legs[i],
		 v->label, p->argv[0]);
	args = xcalloc((size_t)p->argc + 7, sizeof(*args));
	args[0] = (char *)exe;
	/* Ours go right after the command name, so they come before any "--"
	 * (wrap -n 5 -- CMD) and stay mempath's, not the workload's. */
	args[1] = p->argv[0];
	args[2] = "-o";
	args[3] = (char *)path;
	args[4] = "--label";
	args[5] = (char *)v->label;
	memcpy(args + 6, p->argv + 1, (size_t)(p->argc - 1) * sizeof(*args));
	fd = open(out_log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	status = spawn_wait(args, v->env, v->n_env, fd, 0, 1);
	if (fd >= 0)
		close(fd);
	free(args);
	ok = status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	if (!ok && !proc_signal_received()) {
		st = status_str(status);
		error("leg %zu (%c, %s) %s (its table is in '%s')", i + 1, p->legs[i], v->label, st,
		      out_log);
		free(st);
	}
	free(label);
	free(out_log);
	return ok ? 0 : -1;
}

enum ab_outcome ab_flow(const struct ab_plan *p, char ***leg_paths_out)
{
	size_t n_legs = strlen(p->legs), n_done = 0;
	const char *restore_cmd = p->restore ? p->restore : p->a.setup;
	/* the A variant's environment goes with the restore when it is A's setup */
	const struct ab_variant *renv = restore_cmd == p->a.setup ? &p->a : NULL;
	char exe[4096], **leg_paths = xcalloc(n_legs + 1, sizeof(*leg_paths));
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	*leg_paths_out = leg_paths;
	for (size_t i = 0; i < n_legs; i++) {
		const struct ab_variant *v = p->legs[i] == 'A' ? &p->a : &p->b;
		char *label = safe_label(v->label);
		leg_paths[i] = xasprintf("%s/leg-%zu-%s.json", p->dir, i + 1, label);
		free(label);
	}
	if (len <= 0) {
		error("cannot find this mempath binary: %s", strerror(errno));
		return AB_LEG_FAILED;
	}
	exe[len] = '\0';
	proc_signals_install();
	for (size_t i = 0; i < n_legs && !proc_signal_received(); i++) {
		const struct ab_variant *v = p->legs[i] == 'A' ? &p->a : &p->b;
		if (setup_leg(p, i, v) != 0 || proc_signal_received() ||
		    run_leg(p, i, v, exe, leg_paths[i]) != 0)
			break;
		n_done++;
	}
	if (proc_signal_received()) {
		char *why = interrupted_by(proc_signal_received());
		restore(restore_cmd, renv, p->dir, why);
		free(why);
		return AB_INTERRUPTED;
	}
	if (n_done < n_legs) {
		restore(restore_cmd, renv, p->dir, "a leg failed");
		return AB_LEG_FAILED;
	}
	return restore(restore_cmd, renv, p->dir, "end") != 0 ? AB_RESTORE_FAILED : AB_DONE;
}
