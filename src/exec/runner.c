/* runner.c - each probe in a child: options, timeout, status, rusage, vmstat.
 *
 * Why a child: a probe that crashes, is OOM-killed or hangs must not take the
 * run with it (DESIGN §6); it also gives each probe a fresh address space and
 * exact per-probe rusage. Results come back as JSON over a pipe.
 */
#include "exec/runner.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/kv.h"
#include "base/sig.h"
#include "base/util.h"
#include "results/results_json.h"

void runner_install_signals(void)
{
	sig_install();
}

int runner_interrupted(void)
{
	return sig_received() != 0;
}

void runner_opts_default(struct runner_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->reps = 10;
	o->warmups = 2;
	o->min_sample_ns = 50ull * 1000 * 1000;
}

static void write_all(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, s, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		s += w;
		n -= (size_t)w;
	}
}

struct child_out {
	char *buf;
	size_t len;
	int status;
	struct rusage ru;
	int timed_out;
	double wall_s;
};

/* Forks; the child runs fn(arg) which returns a JSON object to send back.
 * The parent collects it with a deadline. */
static int run_child(json_t *(*fn)(void *), void *arg, double timeout_s, struct child_out *out)
{
	int fds[2];
	pid_t pid;
	uint64_t t0 = time_now_ns(), deadline;
	size_t cap = 1 << 16;
	memset(out, 0, sizeof(*out));
	if (pipe(fds) != 0)
		return error("cannot create a pipe: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return error("cannot fork: %s", strerror(errno));
	}
	if (pid == 0) {
		json_t *j;
		char *text;
		sig_child_defaults();
		close(fds[0]);
		j = fn(arg);
		text = j ? json_dumps(j, JSON_COMPACT) : NULL;
		if (text)
			write_all(fds[1], text, strlen(text));
		close(fds[1]);
		_exit(text ? 0 : 3);
	}
	setpgid(pid, pid);
	sig_watch(pid, SIGKILL);
	close(fds[1]);
	deadline = t0 + (uint64_t)(timeout_s * 1e9);
	out->buf = xmalloc(cap);
	for (;;) {
		struct pollfd pfd = {.fd = fds[0], .events = POLLIN};
		uint64_t now = time_now_ns();
		int wait_ms, rc;
		if (sig_received())
			break;
		if (now >= deadline) {
			out->timed_out = 1;
			kill(-pid, SIGKILL);
			break;
		}
		wait_ms = (int)((deadline - now) / 1000000) + 1;
		rc = poll(&pfd, 1, wait_ms > 1000 ? 1000 : wait_ms);
		if (rc < 0 && errno != EINTR)
			break;
		if (rc > 0) {
			ssize_t n;
			if (out->len + 4096 > cap) {
				cap *= 2;
				out->buf = xrealloc(out->buf, cap);
			}
			n = read(fds[0], out->buf + out->len, cap - out->len - 1);
			if (n == 0)
				break;
			if (n > 0)
				out->len += (size_t)n;
		}
	}
	out->buf[out->len] = '\0';
	close(fds[0]);
	if (sig_received())
		kill(-pid, SIGKILL);
	while (wait4(pid, &out->status, 0, &out->ru) < 0 && errno == EINTR)
		;
	sig_unwatch();
	out->wall_s = (double)(time_now_ns() - t0) * 1e-9;
	return 0;
}

struct probe_child_arg {
	const struct probe *p;
	void *opts;
	const struct runner_opts *o;
};

static int parse_probe_opts(const struct probe *p, char *const *kvs, size_t n_kvs,
			    const struct runner_opts *o, void *opts);

static json_t *probe_child(void *argp)
{
	struct probe_child_arg *a = argp;
	struct probe_result res;
	struct probe_ctx ctx;
	const char *why = NULL;
	json_t *j;
	probe_result_init(&res, a->p->name);
	for (const struct opt *opt = a->p->opts; opt && opt->name; opt++) {
		char val[256];
		opt_format_value(opt, a->opts, val, sizeof(val));
		probe_result_add_option(&res, opt->name, val);
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.res = &res;
	ctx.reps = a->o->reps;
	ctx.warmups = a->o->warmups;
	ctx.min_sample_ns = a->o->min_sample_ns;
	ctx.quick = a->o->quick;
	ctx.force = a->o->force;
	if (a->p->supported)
		why = a->p->supported(a->opts);
	if (why) {
		probe_result_set_status(&res, STATUS_SKIP, "%s", why);
	} else {
		int rc = a->p->run(&ctx, a->opts);
		if (rc == PROBE_SKIP && res.status == STATUS_OK)
			probe_result_set_status(&res, STATUS_SKIP, "skipped (no reason given)");
		else if (rc == PROBE_FAIL && res.status == STATUS_OK)
			probe_result_set_status(&res, STATUS_FAIL, "failed (no reason given)");
		else if (rc != PROBE_OK && rc != PROBE_SKIP && rc != PROBE_FAIL)
			probe_result_set_status(&res, STATUS_FAIL, "returned %d", rc);
	}
	j = probe_result_to_json(&res);
	probe_result_clear(&res);
	return j;
}

int runner_check_opts(const struct probe *p, char *const *kvs, size_t n_kvs,
		      const struct runner_opts *o)
{
	void *opts = xcalloc(1, p->opts_size ? p->opts_size : 1);
	int rc = parse_probe_opts(p, kvs, n_kvs, o, opts);
	free(opts);
	return rc;
}

static int parse_probe_opts(const struct probe *p, char *const *kvs, size_t n_kvs,
			    const struct runner_opts *o, void *opts)
{
	if (opt_defaults(p->opts, opts) != 0)
		return -1;
	if (o->quick && p->quick_opts && opt_set_all(p->opts, opts, p->quick_opts, p->name) != 0)
		return -1;
	for (size_t i = 0; i < n_kvs; i++)
		if (opt_set(p->opts, opts, kvs[i], p->name) != 0)
			return -1;
	return 0;
}

static void record_vmstat(struct probe_result *p, const struct kv_list *before,
			  const struct kv_list *after)
{
	struct kv_list d;
	vmstat_delta(before, after, &d);
	for (size_t i = 0; i < d.n; i++)
		probe_add_counter(p, d.items[i].name, d.items[i].value);
	kv_free(&d);
}

int runner_run_probe(const struct probe *p, char *const *kvs, size_t n_kvs,
		     const struct runner_opts *o, struct probe_result *out)
{
	struct probe_child_arg arg = {.p = p, .o = o};
	struct kv_list before, after;
	struct child_out co;
	double timeout = o->timeout_s > 0 ? o->timeout_s : (p->timeout_s > 0 ? p->timeout_s : 600);
	int have_vm, oom_before_found = 0, oom_after_found = 0;
	int64_t oom_before, oom_after;
	json_t *j = NULL;
	arg.opts = xcalloc(1, p->opts_size ? p->opts_size : 1);
	if (parse_probe_opts(p, kvs, n_kvs, o, arg.opts) != 0) {
		free(arg.opts);
		return -1;
	}
	have_vm = vmstat_read(&before) == 0;
	oom_before = kv_get(&before, "oom_kill", &oom_before_found);
	if (run_child(probe_child, &arg, timeout, &co) != 0) {
		free(arg.opts);
		kv_free(&before);
		return -1;
	}
	free(arg.opts);
	if (co.len > 0 && WIFEXITED(co.status) && WEXITSTATUS(co.status) == 0) {
		json_error_t err;
		j = json_loadb(co.buf, co.len, 0, &err);
	}
	if (!j || probe_result_from_json(j, out, p->name) != 0) {
		probe_result_init(out, p->name);
		if (sig_received())
			probe_result_set_status(out, STATUS_FAIL, "interrupted");
		else if (co.timed_out)
			probe_result_set_status(out, STATUS_TIMEOUT,
						"no result after %.0f s; killed", timeout);
		else if (WIFSIGNALED(co.status)) {
			struct kv_list now;
			int sig = WTERMSIG(co.status);
			vmstat_read(&now);
			oom_after = kv_get(&now, "oom_kill", &oom_after_found);
			kv_free(&now);
			if (sig == SIGKILL && oom_before_found && oom_after_found &&
			    oom_after > oom_before)
				probe_result_set_status(out, STATUS_FAIL,
							"killed by the OOM killer");
			else
				probe_result_set_status(out, STATUS_FAIL, "crashed: signal %d (%s)",
							sig, strsignal(sig));
		} else if (WIFEXITED(co.status))
			probe_result_set_status(out, STATUS_FAIL,
						"child exited with status %d and no result",
						WEXITSTATUS(co.status));
		else
			probe_result_set_status(out, STATUS_FAIL, "child ended with no result");
	}
	if (j)
		json_decref(j);
	free(co.buf);
	out->wall_s = co.wall_s;
	out->user_s = (double)co.ru.ru_utime.tv_sec + (double)co.ru.ru_utime.tv_usec * 1e-6;
	out->sys_s = (double)co.ru.ru_stime.tv_sec + (double)co.ru.ru_stime.tv_usec * 1e-6;
	out->max_rss_kib = co.ru.ru_maxrss;
	out->minflt = co.ru.ru_minflt;
	out->majflt = co.ru.ru_majflt;
	if (have_vm && vmstat_read(&after) == 0) {
		/* Counters from the child's own result (if any) are replaced by the
		 * parent's view, which covers the whole child lifetime. */
		for (size_t i = 0; i < out->n_counters; i++)
			free(out->counters[i].name);
		free(out->counters);
		out->counters = NULL;
		out->n_counters = 0;
		record_vmstat(out, &before, &after);
		kv_free(&after);
	}
	kv_free(&before);
	return 0;
}

static json_t *call_plain(void *fn)
{
	json_t *(*f)(void);
	memcpy(&f, &fn, sizeof(f));
	return f();
}

json_t *runner_json_in_child(json_t *(*fn)(void), double timeout_s)
{
	struct child_out co;
	json_t *j = NULL;
	void *arg;
	memcpy(&arg, &fn, sizeof(arg));
	if (run_child(call_plain, arg, timeout_s, &co) != 0)
		return NULL;
	if (co.len > 0 && WIFEXITED(co.status) && WEXITSTATUS(co.status) == 0) {
		json_error_t err;
		j = json_loadb(co.buf, co.len, 0, &err);
	}
	free(co.buf);
	return j;
}
