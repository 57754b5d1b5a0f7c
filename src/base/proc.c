/* proc.c - start, watch, stop and reap children; pass signals on to them.
 *
 * Why one module: every child must obey the same rules (its own process
 * group, no outliving us, Ctrl-C reaching it only through us), and the
 * signal handler must know every group being watched. proc.h says what
 * each call does.
 */
#include "base/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/escape.h"
#include "base/guard.h"
#include "base/reaper.h"
#include "base/util.h"

/* Pipes still open after the exit (held by something the child left
 * running) are read this long, then closed. */
#define DRAIN_NS 500000000ull
/* Children watched at once for signals; beyond that a child is still
 * stopped by its waiter (PROC_SIG_STOP) but gets nothing from the handler. */
#define WATCH_MAX 32

/* ---- signals ------------------------------------------------------------- */

static volatile sig_atomic_t received;
static struct {
	volatile pid_t pgid; /* 0: free */
	volatile sig_atomic_t as;
} watched[WATCH_MAX];

static void on_signal(int sig)
{
	int saved = errno;
	received = sig;
	for (int i = 0; i < WATCH_MAX; i++) {
		pid_t g = watched[i].pgid;
		if (g > 0)
			kill(-g, watched[i].as ? watched[i].as : sig);
	}
	errno = saved;
}

void proc_signals_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int proc_signal_received(void)
{
	return received;
}

/* From now on the handler passes a signal to group pgid (as `as`, or as
 * itself when 0); one that arrived already is passed at once. */
static int watch(pid_t pgid, int as)
{
	for (int i = 0; i < WATCH_MAX; i++) {
		if (watched[i].pgid != 0)
			continue;
		watched[i].as = as;
		watched[i].pgid = pgid;
		if (received)
			kill(-pgid, as ? as : received);
		return i;
	}
	return -1;
}

static void unwatch(struct proc *p)
{
	if (p->slot >= 0)
		watched[p->slot].pgid = 0;
	p->slot = -1;
}

/* ---- start --------------------------------------------------------------- */

static void close_pipes(int pipes[][2])
{
	for (int k = 0; k < PROC_STREAMS; k++)
		for (int e = 0; e < 2; e++)
			if (pipes[k][e] >= 0)
				close(pipes[k][e]);
}

/* In the child, with SIGINT/SIGTERM/SIGHUP blocked: never returns. */
static void child_run(const struct proc_spec *s, int pipes[][2], int exec_err, pid_t parent,
		      const sigset_t *mask)
{
	int chan = pipes[PROC_CHAN][1];
	guard_child();
	setpgid(0, 0);
	/* Killed when the parent dies; it may have died before the prctl. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGXFSZ, SIG_DFL);
	/* The parent's watch list and signal are not this process's. */
	received = 0;
	for (int i = 0; i < WATCH_MAX; i++)
		watched[i].pgid = 0;
	/* A signal sent to the group since the fork acts now, by default. */
	sigprocmask(SIG_SETMASK, mask, NULL);
	for (int k = PROC_STDOUT; k <= PROC_STDERR; k++) {
		int src = s->io[k] == PROC_TO_FD && s->to_fd[k] >= 0 ? s->to_fd[k] : pipes[k][1];
		if (src == k + 1) /* already there (our own was closed): keep it past exec */
			fcntl(src, F_SETFD, 0);
		else if (src >= 0)
			dup2(src, k + 1);
	}
	for (int k = 0; k < PROC_STREAMS; k++) {
		if (pipes[k][0] >= 0)
			close(pipes[k][0]);
		if (k != PROC_CHAN && pipes[k][1] >= 0 && pipes[k][1] != k + 1)
			close(pipes[k][1]);
	}
	/* Last, once no pipe end can sit on fd 0 (it may, when our own stdin
	 * was closed): nothing of ours is read by a child unless kept. */
	if (!s->keep_stdin) {
		int null = open("/dev/null", O_RDONLY);
		if (null < 0)
			close(0);
		else if (null != 0) {
			dup2(null, 0);
			close(null);
		}
	}
	for (size_t i = 0; i < s->n_env; i++)
		putenv(s->env[i]);
	if (s->argv) {
		int e;
		execvp(s->argv[0], s->argv);
		e = errno;
		/* tell the parent, which cannot tell a 127 of ours from the
		 * command's own; the pipe closed on a successful exec */
		(void)!write(exec_err, &e, sizeof(e));
		{
			char name[512]; /* the user's word, escaped (§9.3) */

			escape_into(name, sizeof(name), s->argv[0]);
			fprintf(stderr, "mempath: error: cannot run '%s': %s\n", name, strerror(e));
		}
		_exit(127);
	}
	_exit(s->fn(s->arg, chan));
}

int proc_start(struct proc *p, const struct proc_spec *spec)
{
	int pipes[PROC_STREAMS][2], exec_err[2] = {-1, -1};
	pid_t parent = getpid(), pid;
	sigset_t block, mask;
	memset(p, 0, sizeof(*p));
	p->spec = *spec;
	p->slot = p->pidfd = -1;
	for (int k = 0; k < PROC_STREAMS; k++)
		p->fd[k] = pipes[k][0] = pipes[k][1] = -1;
	if (!spec->argv == !spec->fn)
		return error("a child needs a command or a function, not both");
	for (int k = 0; k < PROC_STREAMS; k++) {
		if (spec->io[k] != PROC_PIPE && spec->io[k] != PROC_KEEP)
			continue;
		if (pipe2(pipes[k], O_CLOEXEC) != 0) {
			close_pipes(pipes);
			return error("cannot create a pipe: %s", strerror(errno));
		}
	}
	if (spec->argv && pipe2(exec_err, O_CLOEXEC) != 0) {
		close_pipes(pipes);
		return error("cannot create a pipe: %s", strerror(errno));
	}
	fflush(NULL);
	/* Until the child has its own dispositions and is on the watch list, a
	 * signal waits: in the child it would run our handler, in the parent
	 * it would miss the child. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &mask);
	p->t0_ns = time_now_ns();
	pid = fork();
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &mask, NULL);
		close_pipes(pipes);
		if (exec_err[0] >= 0)
			close(exec_err[0]), close(exec_err[1]);
		return error("cannot fork: %s", strerror(errno));
	}
	if (pid == 0)
		child_run(spec, pipes, exec_err[1], parent, &mask);
	setpgid(pid, pid); /* also here: no window in which a signal misses it */
	guard_group(pid, 1);
	p->pid = pid;
	for (int k = 0; k < PROC_STREAMS; k++) {
		if (pipes[k][1] >= 0)
			close(pipes[k][1]);
		p->fd[k] = pipes[k][0];
	}
	if (exec_err[0] >= 0) { /* end of file: exec'd; an errno: could not */
		int e = 0;
		close(exec_err[1]);
		while (read(exec_err[0], &e, sizeof(e)) < 0 && errno == EINTR)
			;
		p->exec_errno = e;
		close(exec_err[0]);
	}
	/* Wakes the wait the moment the child exits, so wall time is exact. */
	p->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (spec->on_signal != PROC_SIG_NONE)
		p->slot = watch(pid, spec->forward_as);
	sigprocmask(SIG_SETMASK, &mask, NULL);
	p->deadline_ns =
		spec->timeout_s > 0 ? p->t0_ns + (uint64_t)(spec->timeout_s * 1e9) : UINT64_MAX;
	p->kill_ns = UINT64_MAX;
	/* the first tick at once: a reading at the child's start */
	p->tick_ns = spec->on_tick && spec->tick_s > 0 ? p->t0_ns : UINT64_MAX;
	return 0;
}

/* ---- wait ---------------------------------------------------------------- */

static void keep(struct proc *p, int k, const char *data, size_t n)
{
	size_t max = p->spec.max_bytes;
	if (p->spec.on_data) {
		p->spec.on_data(p->spec.ctx, (enum proc_stream)k, data, n);
		return;
	}
	if (max && p->len[k] + n > max) {
		p->truncated = 1;
		n = p->len[k] < max ? max - p->len[k] : 0;
	}
	if (p->len[k] + n + 1 > p->cap[k]) {
		p->cap[k] = p->cap[k] ? p->cap[k] : 1 << 16;
		while (p->len[k] + n + 1 > p->cap[k])
			p->cap[k] *= 2;
		p->buf[k] = xrealloc(p->buf[k], p->cap[k]);
	}
	memcpy(p->buf[k] + p->len[k], data, n);
	p->len[k] += n;
	p->buf[k][p->len[k]] = '\0';
}

static void read_stream(struct proc *p, int k)
{
	char buf[65536];
	ssize_t n = read(p->fd[k], buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		close(p->fd[k]);
		p->fd[k] = -1;
		return;
	}
	keep(p, k, buf, (size_t)n);
}

static int pipes_open(const struct proc *p)
{
	for (int k = 0; k < PROC_STREAMS; k++)
		if (p->spec.io[k] == PROC_PIPE && p->fd[k] >= 0)
			return 1;
	return 0;
}

/* Has it exited? Looks without reaping, so the group stays ours until it
 * is off the watch list. */
static int exited(struct proc *p)
{
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0)
		return errno == ECHILD; /* not ours any more: nothing to wait for */
	return si.si_pid == p->pid;
}

static void reap(struct proc *p)
{
	unwatch(p); /* before the pid, and so the group id, can be reused */
	guard_group(p->pid, 0);
	while (wait4(p->pid, &p->status, 0, &p->ru) < 0 && errno == EINTR)
		;
	p->reaped = 1;
	p->exit_ns = time_now_ns();
	p->wall_s = (double)(p->exit_ns - p->t0_ns) * 1e-9;
	if (p->pidfd >= 0)
		close(p->pidfd);
	p->pidfd = -1;
}

/* Is it stopped (a SIGSTOP it sent itself, SIGTTOU)? The stop signal, or
 * 0. Nothing of ours continues a child, so one stopped would be waited for
 * forever: it is ended as a timeout is (docs/design.md §2.4). */
static int stopped(struct proc *p)
{
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)p->pid, &si, WSTOPPED | WNOHANG | WNOWAIT) != 0 ||
	    si.si_pid != p->pid || si.si_code != CLD_STOPPED)
		return 0;
	return si.si_status;
}

static void begin_stop(struct proc *p, uint64_t now)
{
	p->stopping = 1;
	if (p->spec.grace_s > 0) {
		kill(-p->pid, SIGTERM);
		kill(-p->pid, SIGCONT); /* a stopped member acts on it now */
		p->kill_ns = now + (uint64_t)(p->spec.grace_s * 1e9);
	} else {
		kill(-p->pid, SIGKILL);
	}
}

/* One round: stop when due, wait up to wait_ms (bounded by the next thing
 * due) for data or the exit, read, reap. 1 once reaped and read. */
static int step(struct proc *p, int wait_ms)
{
	struct pollfd pfd[PROC_STREAMS + 1];
	int idx[PROC_STREAMS + 1], n = 0, rc;
	uint64_t now = time_now_ns(), next;
	if (p->pid <= 0)
		return 1;
	if (!p->reaped) {
		int sig_stop = p->spec.on_signal == PROC_SIG_STOP && received;
		if (!p->stopping && (p->stopped_by = stopped(p)) != 0)
			begin_stop(p, now);
		/* one of its own stopped, twice a second apart: it waits on it */
		if (!p->stopping && now >= p->family_ns) {
			p->family_stops = reaper_family_stopped(p->pid) ? p->family_stops + 1 : 0;
			p->family_ns = now + 1000000000ull;
			if (p->family_stops >= 2) {
				p->stopped_by = -1;
				begin_stop(p, now);
			}
		}
		if (!p->stopping && (now >= p->deadline_ns || sig_stop)) {
			p->interrupted = sig_stop;
			p->timed_out = !sig_stop;
			begin_stop(p, now);
		}
		if (now >= p->kill_ns) {
			kill(-p->pid, SIGKILL);
			p->kill_ns = UINT64_MAX;
		}
		if (now >= p->tick_ns) {
			p->spec.on_tick(p->spec.tick_ctx);
			/* from the schedule, not from now: ticks do not drift */
			while (p->tick_ns <= now)
				p->tick_ns += (uint64_t)(p->spec.tick_s * 1e9);
		}
		next = p->stopping ? p->kill_ns : p->deadline_ns;
		if (p->tick_ns < next)
			next = p->tick_ns;
	} else {
		next = p->exit_ns + DRAIN_NS;
		if (now >= next) {
			for (int k = 0; k < PROC_STREAMS; k++)
				if (p->spec.io[k] == PROC_PIPE && p->fd[k] >= 0)
					close(p->fd[k]), p->fd[k] = -1;
			return 1;
		}
	}
	for (int k = 0; k < PROC_STREAMS; k++)
		if (p->spec.io[k] == PROC_PIPE && p->fd[k] >= 0) {
			idx[n] = k;
			pfd[n++] = (struct pollfd){.fd = p->fd[k], .events = POLLIN};
		}
	if (p->reaped && n == 0)
		return 1;
	if (!p->reaped && p->pidfd >= 0) {
		idx[n] = -1;
		pfd[n++] = (struct pollfd){.fd = p->pidfd, .events = POLLIN};
	}
	if (wait_ms > 0) {
		/* A signal between the check above and poll() is seen within 200 ms. */
		int cap = p->reaped || p->pidfd >= 0 ? 200 : 10;
		if (wait_ms > cap)
			wait_ms = cap;
		if (next != UINT64_MAX) {
			uint64_t left_ms = next > now ? (next - now) / 1000000 + 1 : 0;
			if (left_ms < (uint64_t)wait_ms)
				wait_ms = (int)left_ms;
		}
	}
	rc = poll(pfd, (nfds_t)n, wait_ms);
	for (int i = 0; i < n && rc > 0; i++)
		if (idx[i] >= 0 && p->fd[idx[i]] >= 0 &&
		    (pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
			read_stream(p, idx[i]);
	if (!p->reaped && exited(p))
		reap(p);
	return p->reaped && !pipes_open(p);
}

int proc_poll(struct proc *p)
{
	return step(p, 0);
}

int proc_wait_for(struct proc *p, int ms)
{
	uint64_t end = time_now_ns() + (uint64_t)(ms > 0 ? ms : 0) * 1000000;
	int done;
	while (!(done = step(p, ms)) && time_now_ns() < end)
		ms = (int)((end - time_now_ns()) / 1000000) + 1;
	return done;
}

int proc_wait(struct proc *p)
{
	while (!step(p, 1000))
		;
	return p->status;
}

void proc_stop(struct proc *p)
{
	if (p->pid <= 0 || p->reaped)
		return;
	if (!p->stopping)
		begin_stop(p, time_now_ns());
	proc_wait(p);
}

void proc_free(struct proc *p)
{
	if (p->pid <= 0)
		return;
	proc_stop(p);
	for (int k = 0; k < PROC_STREAMS; k++) {
		if (p->fd[k] >= 0)
			close(p->fd[k]);
		p->fd[k] = -1;
		free(p->buf[k]);
		p->buf[k] = NULL;
		p->len[k] = p->cap[k] = 0;
	}
}

/* ---- status line --------------------------------------------------------- */

void proc_say(int fd, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (fd >= 0 && n > 0)
		(void)!write(fd, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/* Reads the channel up to a newline: 1 (line without it), 0 (end of file
 * first), -1 (timeout_s passed). */
static int read_line(struct proc *p, double timeout_s, char *line, size_t len)
{
	uint64_t deadline = time_now_ns() + (uint64_t)(timeout_s * 1e9);
	size_t got = 0;
	while (got < len - 1 && !memchr(line, '\n', got)) {
		struct pollfd pf = {.fd = p->fd[PROC_CHAN], .events = POLLIN};
		uint64_t now = time_now_ns();
		ssize_t n;
		if (now >= deadline)
			return -1;
		if (poll(&pf, 1, (int)((deadline - now) / 1000000) + 1) <= 0)
			continue;
		n = read(pf.fd, line + got, len - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
		got += (size_t)n;
	}
	line[got] = '\0';
	line[strcspn(line, "\n")] = '\0';
	return 1;
}

int proc_ready(struct proc *p, double timeout_s, char *msg, size_t len)
{
	char line[512];
	int r;
	snprintf(msg, len, "%s", "");
	if (p->pid <= 0 || p->fd[PROC_CHAN] < 0)
		return 0;
	r = read_line(p, timeout_s, line, sizeof(line));
	if (r < 0) {
		snprintf(msg, len, "no answer within %.0f s", timeout_s);
		return -1;
	}
	if (r == 0) {
		proc_wait(p);
		snprintf(msg, len, "ended without a word (%s %d)",
			 WIFEXITED(p->status) ? "exit" : "signal",
			 WIFEXITED(p->status) ? WEXITSTATUS(p->status) : WTERMSIG(p->status));
		return -1;
	}
	if (strncmp(line, "ok", 2) == 0) {
		snprintf(msg, len, "%s", line[2] == ' ' ? line + 3 : line + 2);
		return 0;
	}
	if (strncmp(line, "skip: ", 6) == 0) {
		snprintf(msg, len, "%s", line + 6);
		return 1;
	}
	snprintf(msg, len, "%s", strncmp(line, "fail: ", 6) == 0 ? line + 6 : line);
	return -1;
}

/* ---- JSON from a child --------------------------------------------------- */

struct json_call {
	json_t *(*fn)(void *arg);
	void *arg;
};

static int json_child(void *argp, int fd)
{
	const struct json_call *c = argp;
	json_t *j = c->fn(c->arg);
	char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
	size_t left = text ? strlen(text) : 0;
	if (!text)
		return 3;
	for (const char *s = text; left > 0;) {
		ssize_t w = write(fd, s, left);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return 3;
		s += w;
		left -= (size_t)w;
	}
	return 0;
}

json_t *proc_json(json_t *(*fn)(void *arg), void *arg, double timeout_s, struct proc *p)
{
	return proc_json_ticked(fn, arg, timeout_s, p, NULL, NULL, 0);
}

json_t *proc_json_ticked(json_t *(*fn)(void *arg), void *arg, double timeout_s, struct proc *p,
			 void (*on_tick)(void *tick_ctx), void *tick_ctx, double tick_s)
{
	struct json_call call = {fn, arg};
	struct proc_spec s = {.fn = json_child,
			      .arg = &call,
			      .on_signal = PROC_SIG_STOP,
			      .forward_as = SIGKILL,
			      .timeout_s = timeout_s,
			      .on_tick = on_tick,
			      .tick_ctx = tick_ctx,
			      .tick_s = tick_s};
	struct proc mine;
	json_t *j = NULL;
	s.io[PROC_CHAN] = PROC_PIPE;
	if (!p)
		p = &mine;
	if (proc_start(p, &s) == 0) {
		proc_wait(p);
		if (p->len[PROC_CHAN] > 0 && WIFEXITED(p->status) && WEXITSTATUS(p->status) == 0) {
			json_error_t err;
			j = json_loadb(p->buf[PROC_CHAN], p->len[PROC_CHAN], 0, &err);
		}
	}
	if (p == &mine)
		proc_free(p);
	return j;
}
