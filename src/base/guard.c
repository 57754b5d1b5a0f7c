/* guard.c - the mark and the watchdog (guard.h). */
#include "base/guard.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

#define GROUPS_MAX 4096

static int guard_fd = -1; /* the write end; the watchdog sees EOF when we end */
static char mark[96];	  /* "MEMPATH_GUARD_<pid>=<token>" */
static pid_t watchdog_pid;

/* Is pid a live process with memory of its own, neither a kernel thread nor
 * a zombie, by /proc/PID/stat (the state, and flags' PF_KTHREAD)? */
static int user_process(pid_t pid)
{
	char path[64], *st, *p;
	char state = 0;
	unsigned long flags = 0;
	int ok = 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(st = read_line_str(path)))
		return 0;
	if ((p = strrchr(st, ')')) &&
	    sscanf(p + 1, " %c %*d %*d %*d %*d %*d %lu", &state, &flags) == 2)
		ok = state != 'Z' && state != 'X' && !(flags & 0x00200000);
	free(st);
	return ok;
}

/* Does process pid carry the mark? Its environment as it was exec'd: 1, 0,
 * or -1 where a live user process's reads empty - in the middle of an
 * exec (a setup's `setsid sh -c "sleep 307" &` was read there beside
 * another make test, and missed): ask again. */
static int marked(pid_t pid)
{
	char path[64], *env, *e;
	size_t len = 0;
	int hit = 0;
	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	if (!(env = read_file_str(path, &len)))
		return 0; /* gone, or not ours to read (pid 1 in a container) */
	if (len == 0) {
		free(env);
		return user_process(pid) ? -1 : 0;
	}
	for (e = env; e < env + len; e += strlen(e) + 1)
		if (strcmp(e, mark) == 0) {
			hit = 1;
			break;
		}
	free(env);
	return hit;
}

static pid_t killed[256]; /* reaped, when ours, once dead */
static size_t n_killed;

static int was_killed(pid_t pid)
{
	for (size_t i = 0; i < n_killed; i++)
		if (killed[i] == pid)
			return 1;
	return 0;
}

/* One pass: SIGKILL to each marked process but us and the watchdog, its
 * name added to names; how many; *unsure: how many could not be read. */
static size_t kill_marked(char *names, size_t len, size_t *used, size_t *unsure)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	size_t n = 0;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		pid_t pid;
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid = (pid_t)strtol(e->d_name, NULL, 10);
		char path[64], *comm;
		int m;
		if (pid == getpid() || pid == watchdog_pid || was_killed(pid))
			continue;
		if ((m = marked(pid)) <= 0) {
			*unsure += m < 0;
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
		comm = read_line_str(path);
		/* the watchdog of a mempath we ran (an ab leg) carries our mark
		 * too: it ends by itself once it has ended that one's children */
		if (comm && strcmp(comm, "mempath-guard") == 0) {
			free(comm);
			continue;
		}
		if (names && *used + 1 < len) {
			*used += (size_t)snprintf(names + *used, len - *used, "%s%s",
						  *used ? ", " : "", comm ? comm : "?");
			if (*used >= len)
				*used = len - 1;
		}
		free(comm);
		kill(pid, SIGKILL);
		if (n_killed < sizeof(killed) / sizeof(killed[0]))
			killed[n_killed++] = pid;
		n++;
	}
	closedir(d);
	return n;
}

/* Passes until none is left (a process may fork while we look); bounded. */
static size_t end_marked(char *names, size_t len)
{
	size_t total = 0, used = 0, n, unsure = 0;
	if (names && len)
		names[0] = '\0';
	/* again while one was killed (it may have forked) or one could not
	 * be read (in an exec) */
	for (int round = 0;
	     round < 50 && ((n = kill_marked(names, len, &used, &unsure)) > 0 || unsure);
	     round++, unsure = 0) {
		total += n;
		usleep(20000);
		/* ours (adopted, or children): reaped; only those killed, never a
		 * child someone still waits for */
		for (size_t i = 0; i < n_killed; i++)
			waitpid(killed[i], NULL, WNOHANG);
	}
	for (size_t i = 0; i < n_killed; i++)
		waitpid(killed[i], NULL, WNOHANG);
	n_killed = 0;
	return total;
}

static void watchdog(int fd)
{
	static pid_t groups[GROUPS_MAX];
	size_t n = 0;
	int32_t msg;
	ssize_t got;
	/* nothing of the command's: no terminal signal, no descriptor, no cwd */
	setsid();
	for (int s = 1; s < NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP)
			signal(s, SIG_IGN);
	if (fd != 3) {
		dup2(fd, 3);
		fd = 3;
	}
	for (int k = 0; k < 3; k++) {
		int null = open("/dev/null", O_RDWR);
		if (null >= 0 && null != k) {
			dup2(null, k);
			close(null);
		}
	}
	/* one call (Linux 5.9): a loop of 65532 close() took 10 ms of system
	 * time in every mempath command */
#ifdef SYS_close_range
	if (syscall(SYS_close_range, 4u, ~0u, 0u) != 0)
#endif
		for (int k = 4; k < 65536; k++)
			close(k);
	(void)!chdir("/");
	prctl(PR_SET_NAME, "mempath-guard");
	while ((got = read(fd, &msg, sizeof(msg))) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got != (ssize_t)sizeof(msg))
			break;
		if (msg > 0 && n < GROUPS_MAX) {
			groups[n++] = msg;
		} else if (msg < 0) {
			for (size_t i = 0; i < n; i++)
				if (groups[i] == -msg) {
					groups[i] = groups[--n];
					break;
				}
		}
	}
	/* the command ended, however it ended */
	for (size_t i = 0; i < n; i++)
		kill(-groups[i], SIGKILL);
	end_marked(NULL, 0);
	_exit(0);
}

int guard_start(void)
{
	int p[2];
	pid_t pid;
	char name[48];
	if (guard_fd >= 0)
		return 0;
	if (pipe2(p, O_CLOEXEC) != 0)
		return warning("cannot start the watchdog of this command's children: %s",
			       strerror(errno)),
		       -1;
	snprintf(name, sizeof(name), "MEMPATH_GUARD_%d", (int)getpid());
	snprintf(mark, sizeof(mark), "%s=%llx", name, (unsigned long long)time_now_ns());
	setenv(name, strchr(mark, '=') + 1, 1);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return warning("cannot start the watchdog of this command's children: %s",
			       strerror(errno)),
		       -1;
	}
	if (pid == 0) {
		close(p[1]);
		watchdog(p[0]);
	}
	close(p[0]);
	watchdog_pid = pid;
	guard_fd = p[1];
	fcntl(guard_fd, F_SETFL, O_NONBLOCK); /* never wait on it */
	return 0;
}

void guard_group(pid_t pgid, int made)
{
	int32_t msg = made ? (int32_t)pgid : -(int32_t)pgid;
	if (guard_fd >= 0 && pgid > 0)
		(void)!write(guard_fd, &msg, sizeof(msg));
}

pid_t guard_watchdog(void)
{
	return watchdog_pid;
}

void guard_child(void)
{
	if (guard_fd >= 0)
		close(guard_fd);
	guard_fd = -1;
}

/* Is marked process pid one of mempath's own (our executable, forked or
 * run by a command of ours): a leg's watchdog ending its leg's children, a
 * probe's child? */
static int ours_running(pid_t pid)
{
	char path[64], self[PATH_MAX], exe[PATH_MAX];
	ssize_t a = readlink("/proc/self/exe", self, sizeof(self) - 1), b;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	b = readlink(path, exe, sizeof(exe) - 1);
	return a > 0 && b == a && memcmp(self, exe, (size_t)a) == 0;
}

/* A mempath of ours still running at a normal end ends by itself (each has
 * its own watchdog, which ends what its command started): seen beside
 * another make test, a leg's was still ending when ab looked. Those are
 * given up to a second to go, each checked every 20 ms (the event: its
 * /proc entry gone), before what is left is ended and named. */
static void let_ours_end(void)
{
	DIR *d;
	struct dirent *e;

	for (int round = 0; round < 50; round++) {
		int waiting = 0;
		if (!(d = opendir("/proc")))
			return;
		while (!waiting && (e = readdir(d))) {
			pid_t pid = (pid_t)strtol(e->d_name, NULL, 10);
			if (isdigit((unsigned char)e->d_name[0]) && pid != getpid() &&
			    pid != watchdog_pid && marked(pid) > 0 && ours_running(pid))
				waiting = 1;
		}
		closedir(d);
		if (!waiting)
			return;
		usleep(20000);
	}
}

size_t guard_end_left(char *names, size_t len)
{
	if (guard_fd < 0) {
		if (names && len)
			names[0] = '\0';
		return 0;
	}
	let_ours_end();
	return end_marked(names, len);
}

void guard_say_left(const char *cmd, const char *what)
{
	char names[256];
	size_t n = guard_end_left(names, sizeof(names));
	if (n)
		warning("%s: %s left %zu process%s running (%s): stopped", cmd, what, n,
			n == 1 ? "" : "es", names);
}
