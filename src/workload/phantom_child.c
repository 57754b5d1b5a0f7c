/* phantom_child.c - the built-in children of `mempath phantom` (CPU memory,
 * GPU memory, host hog, holder) and any command, each a base/proc child; a
 * status line on its channel says when a built-in child holds its memory. */
#include "workload/phantom_child.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gpu/backend.h"
#include "kit/hog.h"
#include "machine/mem.h"

struct child_arg {
	enum phantom_kind kind;
	uint64_t bytes;
	double hold_s;
	int detach;
	double detach_s;
};

static void sleep_s(double s)
{
	struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* The deliberate phantom: a grandchild in a session of its own, so neither
 * the stop of this child's group nor our death ends it (the death signal is
 * not inherited through fork); it holds the memory for detach_s seconds. */
static int run_detached(int fd, uint64_t bytes, double detach_s)
{
	struct mem_buf b;
	int ip[2];
	char c;
	pid_t g;
	if (pipe(ip) != 0)
		return 1;
	g = fork();
	if (g == 0) {
		close(ip[0]);
		setsid();
		if (!hog_touch(&b, bytes)) {
			proc_say(fd, "fail: %s\n", "cannot map the memory");
			_exit(1);
		}
		proc_say(fd, "ok detached %d\n", (int)getpid());
		close(fd);
		(void)!write(ip[1], "x", 1);
		close(ip[1]);
		sleep_s(detach_s);
		_exit(0);
	}
	close(ip[1]);
	/* This process exits once the grandchild holds the memory. */
	while (read(ip[0], &c, 1) < 0 && errno == EINTR)
		;
	return g > 0 ? 0 : 1;
}

static int child_main(void *argp, int fd)
{
	const struct child_arg *a = argp;
	struct mem_buf b;
	char err[512];
	const char *why;
	if (a->kind == PHANTOM_GPU) {
		if ((why = gpu_unsupported_reason()) != NULL) {
			proc_say(fd, "skip: %s\n", why);
			return 3;
		}
		if (gpu_backend()->hold_memory(a->bytes, a->hold_s, fd, err, sizeof(err)) != 0) {
			proc_say(fd, "fail: %s\n", err);
			return 1;
		}
		return 0;
	}
	if (a->detach)
		return run_detached(fd, a->bytes, a->detach_s);
	if (!hog_touch(&b, a->bytes)) {
		proc_say(fd, "fail: %s\n", "cannot map the memory");
		return 1;
	}
	proc_say(fd, "ok\n");
	if (a->hold_s < 0)
		hog_keep_hot(b.addr, a->bytes);
	sleep_s(a->hold_s);
	return 0;
}

int phantom_child_start(struct phantom_child *c, enum phantom_kind kind, char *const *argv,
			uint64_t bytes, double hold_s, int detach, double detach_s)
{
	struct child_arg a = {kind, bytes, hold_s, detach, detach_s};
	/* Its output must not mix into our table on stdout. */
	struct proc_spec s = {.io = {PROC_TO_FD, PROC_INHERIT, PROC_KEEP},
			      .to_fd = {2, -1},
			      .on_signal = PROC_SIG_NONE,
			      .grace_s = 2};
	memset(c, 0, sizeof(*c));
	if (kind == PHANTOM_HOG)
		return hog_start(&c->p, bytes);
	if (kind == PHANTOM_CMD) {
		s.argv = argv;
		s.io[PROC_CHAN] = PROC_INHERIT;
	} else {
		s.fn = child_main;
		s.arg = &a;
	}
	return proc_start(&c->p, &s);
}

int phantom_child_ready(struct phantom_child *c, double timeout_s, char *msg, size_t len)
{
	int r = proc_ready(&c->p, timeout_s, msg, len);
	if (r == 0) {
		if (strncmp(msg, "detached ", 9) == 0)
			c->detached = (pid_t)atoi(msg + 9);
		snprintf(msg, len, "ok");
	}
	return r;
}

int phantom_child_poll(struct phantom_child *c, int block)
{
	if (block)
		proc_wait(&c->p);
	return proc_poll(&c->p);
}

void phantom_child_stop(struct phantom_child *c)
{
	proc_free(&c->p);
}
