/* workload.c - run a command once with rusage, captured output and a timeout;
 * counters around it; one iteration recorded as samples of a probe result.
 *
 * Why not the probe runner: a probe is our code in a forked child that sends
 * JSON back; a workload is someone else's program that prints what it likes.
 * The safety rules are the same: its own process group so a timeout or
 * Ctrl-C ends everything it started, wait4 for exact rusage.
 */
#include "workload/workload.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/sig.h"
#include "base/util.h"

void workload_install_signals(void)
{
	sig_install();
}

int workload_interrupted(void)
{
	return sig_received() != 0;
}

/* Keeps the last WORKLOAD_ERR_TAIL bytes seen. */
static void tail_append(char *tail, size_t *len, const char *data, size_t n)
{
	if (n >= WORKLOAD_ERR_TAIL) {
		memcpy(tail, data + n - WORKLOAD_ERR_TAIL, WORKLOAD_ERR_TAIL);
		*len = WORKLOAD_ERR_TAIL;
		return;
	}
	if (*len + n > WORKLOAD_ERR_TAIL) {
		size_t drop = *len + n - WORKLOAD_ERR_TAIL;
		memmove(tail, tail + drop, *len - drop);
		*len -= drop;
	}
	memcpy(tail + *len, data, n);
	*len += n;
}

static void child_exec(char *const *argv, int out_fd, int err_fd)
{
	int null = open("/dev/null", O_RDONLY);
	sig_child_defaults();
	if (null >= 0)
		dup2(null, 0);
	dup2(out_fd, 1);
	dup2(err_fd, 2);
	execvp(argv[0], argv);
	fprintf(stderr, "mempath: error: cannot run '%s': %s\n", argv[0], strerror(errno));
	_exit(127);
}

int workload_exec(char *const *argv, double timeout_s, int echo, struct workload_run *r)
{
	int fds[2] = {-1, -1}, out_p[2], err_p[2], status = 0, killed = 0, reaped = 0, pidfd;
	uint64_t t0, t_end = 0, deadline, kill_at = UINT64_MAX, drain_until = UINT64_MAX;
	size_t cap = 1 << 16, tail_len = 0;
	struct rusage ru;
	pid_t pid;
	memset(r, 0, sizeof(*r));
	memset(&ru, 0, sizeof(ru));
	if (pipe2(out_p, O_CLOEXEC) != 0)
		return error("cannot create a pipe: %s", strerror(errno));
	if (pipe2(err_p, O_CLOEXEC) != 0) {
		close(out_p[0]);
		close(out_p[1]);
		return error("cannot create a pipe: %s", strerror(errno));
	}
	fflush(NULL);
	t0 = time_now_ns();
	pid = fork();
	if (pid < 0) {
		close(out_p[0]), close(out_p[1]), close(err_p[0]), close(err_p[1]);
		return error("cannot fork: %s", strerror(errno));
	}
	if (pid == 0)
		child_exec(argv, out_p[1], err_p[1]);
	setpgid(pid, pid); /* also here: no window in which a signal misses it */
	sig_watch(pid, SIGTERM);
	/* A pidfd wakes poll() the moment the command exits, so wall time is
	 * exact; without one (old kernel) poll every 10 ms instead. */
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	r->started = 1;
	close(out_p[1]);
	close(err_p[1]);
	fds[0] = out_p[0];
	fds[1] = err_p[0];
	r->out = xmalloc(cap);
	r->err_tail = xmalloc(WORKLOAD_ERR_TAIL + 1);
	deadline = timeout_s > 0 ? t0 + (uint64_t)(timeout_s * 1e9) : UINT64_MAX;
	/* Until the command exits and its output is drained; a background
	 * process it left holding the pipes gets 0.5 s, then is ignored. */
	while (!reaped || fds[0] >= 0 || fds[1] >= 0) {
		struct pollfd pfd[3] = {{.fd = fds[0], .events = POLLIN},
					{.fd = fds[1], .events = POLLIN},
					{.fd = reaped ? -1 : pidfd, .events = POLLIN}};
		uint64_t now = time_now_ns();
		char buf[65536];
		int rc;
		if (reaped && now >= drain_until)
			break;
		if (!reaped && !killed && (now >= deadline || sig_received())) {
			/* TERM first so the command can clean up; KILL 2 s later. */
			r->timed_out = !sig_received();
			r->interrupted = sig_received() != 0;
			kill(-pid, SIGTERM);
			killed = 1;
			kill_at = now + 2000000000ull;
		}
		if (!reaped && now >= kill_at) {
			kill(-pid, SIGKILL);
			kill_at = UINT64_MAX;
		}
		rc = poll(pfd, 3, pidfd >= 0 ? 200 : 10);
		if (rc < 0 && errno != EINTR)
			break;
		for (int k = 0; k < 2 && rc > 0; k++) {
			ssize_t n;
			if (fds[k] < 0 || !(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(fds[k], buf, sizeof(buf));
			if (n <= 0) {
				if (n < 0 && errno == EINTR)
					continue;
				close(fds[k]);
				fds[k] = -1;
				continue;
			}
			if (echo)
				(void)!write(2, buf, (size_t)n);
			if (k == 1) {
				tail_append(r->err_tail, &tail_len, buf, (size_t)n);
				continue;
			}
			if (r->out_len + (size_t)n > WORKLOAD_MAX_STDOUT) {
				r->out_truncated = 1;
				continue;
			}
			while (r->out_len + (size_t)n + 1 > cap)
				cap *= 2;
			r->out = xrealloc(r->out, cap);
			memcpy(r->out + r->out_len, buf, (size_t)n);
			r->out_len += (size_t)n;
		}
		if (!reaped && wait4(pid, &status, WNOHANG, &ru) == pid) {
			reaped = 1;
			t_end = time_now_ns();
			drain_until = t_end + 500000000ull;
		}
	}
	for (int k = 0; k < 2; k++)
		if (fds[k] >= 0)
			close(fds[k]);
	if (pidfd >= 0)
		close(pidfd);
	while (!reaped && wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
		;
	if (!t_end)
		t_end = time_now_ns();
	sig_unwatch();
	r->out[r->out_len] = '\0';
	r->err_tail[tail_len] = '\0';
	r->status = status;
	r->wall_s = (double)(t_end - t0) * 1e-9;
	r->user_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6;
	r->sys_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	r->max_rss_kib = ru.ru_maxrss;
	r->minflt = ru.ru_minflt;
	r->majflt = ru.ru_majflt;
	return 0;
}

void workload_run_free(struct workload_run *r)
{
	free(r->out);
	free(r->err_tail);
	memset(r, 0, sizeof(*r));
}

char *workload_status_str(const struct workload_run *r)
{
	if (!r->started)
		return xstrdup("not started");
	if (r->timed_out)
		return xstrdup("timeout");
	if (r->interrupted)
		return xstrdup("interrupted");
	if (WIFEXITED(r->status))
		return xasprintf("exit %d", WEXITSTATUS(r->status));
	if (WIFSIGNALED(r->status))
		return xasprintf("signal %d (%s)", WTERMSIG(r->status),
				 strsignal(WTERMSIG(r->status)));
	return xstrdup("ended oddly");
}

int workload_run_ok(const struct workload_run *r)
{
	return r->started && !r->timed_out && !r->interrupted && WIFEXITED(r->status) &&
	       WEXITSTATUS(r->status) == 0;
}

/* ---- counters ------------------------------------------------------------ */

int workload_counter_is_key(const char *name)
{
	static const char *const names[] = {
		"pgpromote_success", "pgpromote_candidate", "pgdemote_kswapd",	"pgdemote_direct",
		"pgmigrate_success", "numa_pte_updates",    "numa_hint_faults", "thp_fault_alloc",
	};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strcmp(name, names[i]) == 0)
			return 1;
	return str_starts_with(name, "pghot_") || str_starts_with(name, "hwhint_");
}

json_t *workload_numastat_read(const char *sysfs_root)
{
	char *dir = xasprintf("%s/devices/system/node", sysfs_root);
	DIR *d = opendir(dir);
	struct dirent *e;
	json_t *all = json_object();
	free(dir);
	if (!d)
		return all;
	while ((e = readdir(d)) != NULL) {
		struct kv_list l;
		json_t *node;
		char *end;
		long id;
		if (strncmp(e->d_name, "node", 4) != 0)
			continue;
		id = strtol(e->d_name + 4, &end, 10);
		if (end == e->d_name + 4 || *end)
			continue;
		{
			char *path = xasprintf("%s/devices/system/node/%s/numastat", sysfs_root,
					       e->d_name);
			char *text = read_file_str(path, NULL);
			free(path);
			if (!text)
				continue;
			kv_parse_vmstat(text, &l);
			free(text);
		}
		node = json_object();
		for (size_t i = 0; i < l.n; i++)
			json_object_set_new(node, l.items[i].name, json_integer(l.items[i].value));
		json_object_set_new(all, e->d_name, node);
		kv_free(&l);
		(void)id;
	}
	closedir(d);
	return all;
}

json_t *workload_numastat_delta(json_t *before, json_t *after)
{
	json_t *out = json_object(), *a;
	const char *node;
	json_object_foreach (after, node, a) {
		json_t *b = json_object_get(before, node), *d = json_object(), *v;
		const char *k;
		if (!json_is_object(b)) {
			json_decref(d);
			continue;
		}
		json_object_foreach (a, k, v) {
			json_t *bv = json_object_get(b, k);
			if (json_is_integer(bv) && json_is_integer(v))
				json_object_set_new(d, k,
						    json_integer(json_integer_value(v) -
								 json_integer_value(bv)));
		}
		json_object_set_new(out, node, d);
	}
	return out;
}

json_t *workload_meminfo_json(void)
{
	struct kv_list l;
	json_t *o = json_object();
	if (meminfo_read(&l) != 0)
		return o;
	for (size_t i = 0; i < l.n; i++)
		json_object_set_new(o, l.items[i].name, json_integer(l.items[i].value));
	kv_free(&l);
	return o;
}

/* ---- recording ----------------------------------------------------------- */

/* The metric with this name and exactly these labels, created on first use. */
static struct metric *metric_for(struct probe_result *p, const char *name, enum unit unit,
				 enum better better, const char *desc, const struct label *labels,
				 size_t n_labels)
{
	const char *kv[2 * WORKLOAD_MAX_LABELS];
	for (size_t i = 0; i < p->n_metrics; i++) {
		struct metric *m = &p->metrics[i];
		size_t k;
		if (strcmp(m->name, name) != 0 || m->n_labels != n_labels)
			continue;
		for (k = 0; k < n_labels; k++)
			if (strcmp(m->labels[k].key, labels[k].key) != 0 ||
			    strcmp(m->labels[k].value, labels[k].value) != 0)
				break;
		if (k == n_labels)
			return m;
	}
	for (size_t i = 0; i < n_labels && i < WORKLOAD_MAX_LABELS; i++) {
		kv[2 * i] = labels[i].key;
		kv[2 * i + 1] = labels[i].value;
	}
	return probe_add_metric_v(p, name, unit, better, desc, kv, n_labels);
}

static void add(struct metric *m, int warmup, double v)
{
	if (warmup)
		metric_add_warmup(m, v);
	else
		metric_add_sample(m, v);
}

static void add_plain(struct probe_result *p, const struct workload_iter *it, const char *name,
		      enum unit unit, enum better better, const char *desc, double v)
{
	add(metric_for(p, name, unit, better, desc, NULL, 0), it->warmup, v);
}

void workload_record_iter(struct probe_result *p, const struct workload_iter *it)
{
	const struct workload_run *r = &it->run;
	json_t *iters, *o, *vals, *vm;
	char *st = workload_status_str(r);
	if (!p->extra)
		p->extra = json_object();
	iters = json_object_get(p->extra, "iterations");
	if (!iters) {
		iters = json_array();
		json_object_set_new(p->extra, "iterations", iters);
	}
	o = json_object();
	json_object_set_new(o, "iteration", json_integer(it->index));
	json_object_set_new(o, "warmup", json_boolean(it->warmup));
	json_object_set_new(o, "status", json_string(st));
	if (r->started && WIFEXITED(r->status))
		json_object_set_new(o, "exit_code", json_integer(WEXITSTATUS(r->status)));
	json_object_set_new(o, "wall_s", json_real(r->wall_s));
	json_object_set_new(o, "parsed_as", json_string(workload_parse_name(it->parsed_as)));
	if (!workload_run_ok(r) && r->err_tail)
		json_object_set_new(o, "stderr_tail", json_string(r->err_tail));
	if (r->out_truncated)
		json_object_set_new(o, "stdout_truncated", json_true());
	free(st);
	if (!r->started) {
		json_array_append_new(iters, o);
		return;
	}
	add_plain(p, it, "wall_time", UNIT_S, BETTER_LOWER,
		  "wall-clock time of one run of the command, start to exit (s)", r->wall_s);
	add_plain(p, it, "user_time", UNIT_S, BETTER_LOWER,
		  "user CPU time of the command and its waited-for children (wait4 rusage, s)",
		  r->user_s);
	add_plain(p, it, "sys_time", UNIT_S, BETTER_LOWER,
		  "system CPU time of the command and its waited-for children (wait4 rusage, s)",
		  r->sys_s);
	add_plain(p, it, "max_rss", UNIT_MIB, BETTER_NONE,
		  "largest resident set of the command or one of its children (ru_maxrss, MiB)",
		  (double)r->max_rss_kib / 1024.0);
	add_plain(p, it, "minor_faults", UNIT_COUNT, BETTER_NONE,
		  "minor page faults (ru_minflt), command and waited-for children",
		  (double)r->minflt);
	add_plain(p, it, "major_faults", UNIT_COUNT, BETTER_NONE,
		  "major page faults (ru_majflt), command and waited-for children",
		  (double)r->majflt);
	vals = json_object();
	for (size_t i = 0; i < it->vals.n && workload_run_ok(r); i++) {
		const struct workload_value *v = &it->vals.items[i];
		char desc[160], key[160];
		json_t *jv;
		if (v->reps)
			snprintf(desc, sizeof(desc),
				 "llama-bench avg_ts of one run (tokens per second over its own "
				 "repetitions)");
		else
			snprintf(desc, sizeof(desc), "reported by the workload (%s)%s%s",
				 workload_parse_name(it->parsed_as), v->unit_text ? ", unit " : "",
				 v->unit_text ? v->unit_text : "");
		add(metric_for(p, v->name, v->unit, v->better, desc, v->labels, v->n_labels),
		    it->warmup, v->value);
		snprintf(key, sizeof(key), "%s", v->name);
		for (size_t k = 0; k < v->n_labels; k++) {
			size_t used = strlen(key);
			snprintf(key + used, sizeof(key) - used, "%s%s=%s", k ? "," : " ",
				 v->labels[k].key, v->labels[k].value);
		}
		jv = json_object();
		json_object_set_new(jv, "value", json_real(v->value));
		if (!isnan(v->spread))
			json_object_set_new(jv, "stddev", json_real(v->spread));
		if (v->reps)
			json_object_set(jv, "samples", v->reps);
		json_object_set_new(vals, key, jv);
	}
	json_object_set_new(o, "values", vals);
	vm = json_object();
	for (size_t i = 0; it->have_vm && i < it->vm_delta.n; i++) {
		const struct kv *c = &it->vm_delta.items[i];
		if (workload_counter_is_key(c->name)) {
			struct label l = {.key = "counter", .value = c->name};
			add(metric_for(p, "vmstat", UNIT_COUNT, BETTER_NONE,
				       "/proc/vmstat counter delta over one run (pages or events)",
				       &l, 1),
			    it->warmup, (double)c->value);
		}
		if (c->value != 0)
			json_object_set_new(vm, c->name, json_integer(c->value));
	}
	json_object_set_new(o, "vmstat", vm);
	json_array_append_new(iters, o);
}

void workload_iter_free(struct workload_iter *it)
{
	workload_run_free(&it->run);
	workload_values_free(&it->vals);
	kv_free(&it->vm_delta);
}
