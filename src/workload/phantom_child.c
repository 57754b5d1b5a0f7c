/* phantom_child.c - the built-in children of `mempath phantom` (CPU memory,
 * GPU memory, host hog, holder) and any command, each in its own process
 * group; a status line on a pipe says when a built-in child holds its memory. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/sig.h"
#include "base/util.h"
#include "gpu/backend.h"
#include "machine/mem.h"
#include "workload/phantom.h"

static void sleep_s(double s)
{
	struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static void say(int fd, const char *fmt, const char *arg)
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), fmt, arg);
	if (fd >= 0 && n > 0)
		(void)!write(fd, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/* Maps and touches bytes of anonymous memory, one write per 4 KiB page (the
 * kernel zero-fills the rest), 4 KiB pages: the ordinary path of a malloc'd
 * buffer on a THP=madvise box, whose frees go through the per-CPU lists. */
static char *touch_memory(uint64_t bytes, struct mem_buf *b)
{
	if (mem_map(b, (size_t)bytes, MEM_PAGES_4K, 0) != 0)
		return NULL;
	for (uint64_t off = 0; off < bytes; off += 4096)
		((volatile char *)b->addr)[off] = 1;
	return b->addr;
}

static void retouch_forever(char *p, uint64_t bytes)
{
	/* Hot: every page written once a second, so reclaim sees it in use. */
	for (;;) {
		sleep_s(1.0);
		for (uint64_t off = 0; off < bytes; off += 4096)
			((volatile char *)p)[off]++;
	}
}

static void run_cpu(int fd, uint64_t bytes, double hold_s, int detach, double detach_s)
{
	struct mem_buf b;
	if (detach) {
		int ip[2];
		char c;
		pid_t g;
		if (pipe(ip) != 0)
			_exit(1);
		g = fork();
		if (g == 0) {
			char pid[32];
			close(ip[0]);
			setsid(); /* out of the group phantom_child_stop() ends */
			if (!touch_memory(bytes, &b)) {
				say(fd, "fail: %s\n", "cannot map the memory");
				_exit(1);
			}
			snprintf(pid, sizeof(pid), "%d", (int)getpid());
			say(fd, "ok detached %s\n", pid);
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
		_exit(g > 0 ? 0 : 1);
	}
	if (!touch_memory(bytes, &b)) {
		say(fd, "fail: %s\n", "cannot map the memory");
		_exit(1);
	}
	say(fd, "ok%s\n", "");
	if (hold_s < 0)
		retouch_forever(b.addr, bytes);
	sleep_s(hold_s);
	_exit(0);
}

int phantom_child_start(struct phantom_child *c, enum phantom_kind kind, char *const *argv,
			uint64_t bytes, double hold_s, int detach, double detach_s)
{
	int sp[2] = {-1, -1};
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	if (kind != PHANTOM_CMD && pipe2(sp, O_CLOEXEC) != 0)
		return error("cannot create a pipe: %s", strerror(errno));
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0) {
		if (sp[0] >= 0)
			close(sp[0]), close(sp[1]);
		return error("cannot fork: %s", strerror(errno));
	}
	if (c->pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		sig_child_defaults();
		if (null >= 0)
			dup2(null, 0);
		dup2(2, 1); /* its output must not mix into our table on stdout */
		if (sp[0] >= 0)
			close(sp[0]);
		/* Holders and hogs must not outlive us if we are killed. */
		if (hold_s < 0)
			prctl(PR_SET_PDEATHSIG, SIGKILL);
		switch (kind) {
		case PHANTOM_CMD:
			execvp(argv[0], argv);
			fprintf(stderr, "mempath: error: cannot run '%s': %s\n", argv[0],
				strerror(errno));
			_exit(127);
		case PHANTOM_CPU:
		case PHANTOM_HOG:
			run_cpu(sp[1], bytes, kind == PHANTOM_HOG ? -1 : hold_s, detach, detach_s);
			_exit(0);
		case PHANTOM_GPU: {
			const char *why = gpu_unsupported_reason();
			char err[512];
			if (why) {
				say(sp[1], "skip: %s\n", why);
				_exit(3);
			}
			if (gpu_backend()->hold_memory(bytes, hold_s, sp[1], err, sizeof(err))) {
				say(sp[1], "fail: %s\n", err);
				_exit(1);
			}
			_exit(0);
		}
		}
		_exit(1);
	}
	setpgid(c->pid, c->pid);
	if (sp[1] >= 0)
		close(sp[1]);
	c->fd = sp[0];
	return 0;
}

int phantom_child_ready(struct phantom_child *c, double timeout_s, char *msg, size_t len)
{
	uint64_t deadline = time_now_ns() + (uint64_t)(timeout_s * 1e9);
	size_t got = 0;
	char buf[512];
	snprintf(msg, len, "no answer");
	if (c->fd < 0)
		return 0;
	while (got < sizeof(buf) - 1 && !memchr(buf, '\n', got)) {
		struct pollfd p = {.fd = c->fd, .events = POLLIN};
		uint64_t now = time_now_ns();
		ssize_t n;
		if (now >= deadline) {
			snprintf(msg, len, "no answer within %.0f s", timeout_s);
			return -1;
		}
		if (poll(&p, 1, (int)((deadline - now) / 1000000) + 1) <= 0)
			continue;
		n = read(c->fd, buf + got, sizeof(buf) - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			phantom_child_poll(c, 1);
			snprintf(msg, len, "ended without a word (%s %d)",
				 WIFEXITED(c->status) ? "exit" : "signal",
				 WIFEXITED(c->status) ? WEXITSTATUS(c->status)
						      : WTERMSIG(c->status));
			return -1;
		}
		got += (size_t)n;
	}
	buf[got] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (strncmp(buf, "ok detached ", 12) == 0)
		c->detached = (pid_t)atoi(buf + 12);
	if (strncmp(buf, "ok", 2) == 0) {
		snprintf(msg, len, "ok");
		return 0;
	}
	snprintf(msg, len, "%s",
		 strncmp(buf, "skip: ", 6) == 0	  ? buf + 6
		 : strncmp(buf, "fail: ", 6) == 0 ? buf + 6
						  : buf);
	return strncmp(buf, "skip: ", 6) == 0 ? 1 : -1;
}

int phantom_child_poll(struct phantom_child *c, int block)
{
	if (c->reaped || c->pid <= 0)
		return 1;
	for (;;) {
		pid_t r = waitpid(c->pid, &c->status, block ? 0 : WNOHANG);
		if (r == c->pid) {
			c->reaped = 1;
			return 1;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			c->reaped = 1; /* not ours any more; nothing to wait for */
			return 1;
		}
		return 0;
	}
}

void phantom_child_stop(struct phantom_child *c)
{
	uint64_t until;
	if (c->pid > 0 && !c->reaped) {
		kill(-c->pid, SIGTERM);
		until = time_now_ns() + 2000000000ull;
		while (!phantom_child_poll(c, 0) && time_now_ns() < until)
			sleep_s(0.02);
		if (!c->reaped) {
			kill(-c->pid, SIGKILL);
			phantom_child_poll(c, 1);
		}
	}
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}
