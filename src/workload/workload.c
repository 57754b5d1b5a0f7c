/* workload.c - run a command once with rusage, captured output and a timeout;
 * counters around it; one iteration recorded as samples of a probe result.
 *
 * Why not the probe runner: a probe is our code in a forked child that sends
 * JSON back; a workload is someone else's program that prints what it likes.
 * The safety rules are the same (base/proc.h): its own process group so a
 * timeout or Ctrl-C ends everything it started, wait4 for exact rusage.
 */
#include "workload/workload.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/escape.h"
#include "base/proc.h"
#include "base/reaper.h"
#include "base/util.h"
#include "workload/cgroup.h"

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

struct sink {
	struct workload_run *r;
	size_t cap, tail_len;
	int echo;
};

/* stdout kept up to WORKLOAD_MAX_STDOUT, the tail of stderr, both echoed. */
static void on_data(void *ctx, enum proc_stream s, const char *data, size_t n)
{
	struct sink *k = ctx;
	struct workload_run *r = k->r;
	if (k->echo)
		(void)!write(2, data, n);
	if (s == PROC_STDERR) {
		tail_append(r->err_tail, &k->tail_len, data, n);
		return;
	}
	if (r->out_len + n > WORKLOAD_MAX_STDOUT) {
		r->out_truncated = 1;
		return;
	}
	while (r->out_len + n + 1 > k->cap)
		k->cap *= 2;
	r->out = xrealloc(r->out, k->cap);
	memcpy(r->out + r->out_len, data, n);
	r->out_len += n;
}

/* The command's child: into its cgroup first (before exec, so nothing it
 * starts is outside), then the command. */
struct exec_child {
	char *const *argv;
	const struct cgroup *cg; /* the run's cgroup, or NULL */
};

static int join_and_exec(void *arg, int chan)
{
	const struct exec_child *c = arg;
	int e;
	if (c->cg && cgroup_join(c->cg) != 0) {
		int err = errno;
		char dir[1024]; /* a path read from /proc/self/mountinfo (§9.3) */

		escape_into(dir, sizeof(dir), c->cg->dir[CGROUP_MEM]);
		fprintf(stderr,
			"mempath: warning: this run could not join its cgroup (%s: %s); "
			"its cgroup readings will be dropped\n",
			dir, strerror(err));
	}
	(void)chan;
	execvp(c->argv[0], c->argv);
	e = errno;
	{
		char name[512]; /* the user's word, escaped (§9.3) */

		escape_into(name, sizeof(name), c->argv[0]);
		fprintf(stderr, "mempath: error: cannot run '%s': %s\n", name, strerror(e));
	}
	return 127;
}

int workload_exec(char *const *argv, double timeout_s, int echo, const struct cgroup *cgroup,
		  struct sampler *smp, struct workload_run *r)
{
	struct sink k = {.r = r, .cap = 1 << 16, .echo = echo};
	struct exec_child child = {.argv = argv, .cg = cgroup && !cgroup->shared ? cgroup : NULL};
	/* Ctrl-C: SIGTERM first so the command can clean up; SIGKILL 2 s later.
	 * A background process it left holding the pipes gets 0.5 s after its
	 * exit, then is ignored. */
	struct proc_spec s = {.argv = child.cg ? NULL : argv,
			      .fn = child.cg ? join_and_exec : NULL,
			      .arg = &child,
			      .io = {PROC_PIPE, PROC_PIPE},
			      .on_data = on_data,
			      .ctx = &k,
			      .on_signal = PROC_SIG_STOP,
			      .forward_as = SIGTERM,
			      .timeout_s = timeout_s,
			      .grace_s = 2};
	struct proc p;
	memset(r, 0, sizeof(*r));
	r->out = xmalloc(k.cap);
	r->err_tail = xmalloc(WORKLOAD_ERR_TAIL + 1);
	if (smp)
		sampler_gpu_edge(smp, 0); /* NVML shut again before the fork */
	if (proc_start(&p, &s) != 0) {
		workload_run_free(r);
		return -1;
	}
	r->started = 1;
	if (smp && smp->every_ms > 0) {
		/* the first look soon, the next ones at doubling intervals up to
		 * the period: a command of a second still gets a few looks (what
		 * it held is gone once it exits, and cgroup v1 counts no THP
		 * event) */
		int wait_ms = smp->every_ms < 100 ? smp->every_ms : 100;
		while (!proc_wait_for(&p, wait_ms)) {
			sampler_take(smp, p.pid);
			wait_ms = 2 * wait_ms < smp->every_ms ? 2 * wait_ms : smp->every_ms;
		}
		r->status = p.status;
	} else {
		r->status = proc_wait(&p);
	}
	if (smp)
		sampler_gpu_edge(smp, 1);
	r->out[r->out_len] = '\0';
	r->err_tail[k.tail_len] = '\0';
	r->timed_out = p.timed_out;
	r->interrupted = p.interrupted;
	r->stopped_by = p.stopped_by;
	r->wall_s = p.wall_s;
	r->user_s = (double)p.ru.ru_utime.tv_sec + (double)p.ru.ru_utime.tv_usec * 1e-6;
	r->sys_s = (double)p.ru.ru_stime.tv_sec + (double)p.ru.ru_stime.tv_usec * 1e-6;
	r->max_rss_kib = p.ru.ru_maxrss;
	r->minflt = p.ru.ru_minflt;
	r->majflt = p.ru.ru_majflt;
	proc_free(&p);
	r->left = reaper_end_left(r->left_names, sizeof(r->left_names));
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
	if (r->stopped_by < 0)
		return xstrdup("a process it started stayed stopped: ended");
	if (r->stopped_by)
		return xasprintf("stopped itself (signal %d, %s): ended", r->stopped_by,
				 strsignal(r->stopped_by));
	if (WIFEXITED(r->status))
		return xasprintf("exit %d", WEXITSTATUS(r->status));
	if (WIFSIGNALED(r->status))
		return xasprintf("signal %d (%s)", WTERMSIG(r->status),
				 strsignal(WTERMSIG(r->status)));
	return xstrdup("ended oddly");
}

int workload_run_ok(const struct workload_run *r)
{
	return r->started && !r->timed_out && !r->interrupted && !r->stopped_by &&
	       WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0;
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
