/* mps.c - an MPS control daemon of a probe's own (mps.h). */
#include "kit/mps.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"

#define CONTROL "nvidia-cuda-mps-control"

static int on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[512];

	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, p, prog);
		if (n && access(buf, X_OK) == 0)
			return 1;
		p += n + (p[n] == ':');
	}
	return 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* Runs CONTROL with `in` on its stdin (NULL: argument -d); its exit status,
 * or -1 when it did not end in 10 s (then killed). */
static int control(const char *in, int log_fd)
{
	int p[2];
	pid_t pid;

	if (pipe(p) != 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(p[0], 0);
		dup2(log_fd, 1);
		dup2(log_fd, 2);
		close(p[0]);
		close(p[1]);
		execlp(CONTROL, CONTROL, in ? NULL : "-d", (char *)NULL);
		_exit(127);
	}
	close(p[0]);
	if (in && write(p[1], in, strlen(in)) < 0)
		(void)0; /* it ended already: its status says */
	close(p[1]);
	for (int i = 0; i < 1000; i++) {
		int st;
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
		if (r < 0 && errno != EINTR)
			return -1;
		sleep_ms(10);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return -1;
}

/* Kills (sig 0: counts) the processes whose environment holds `needle`. */
static int with_env(const char *needle, int sig)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)) != NULL) {
		char path[64], *env;
		size_t len = 0;
		long pid = strtol(e->d_name, NULL, 10);

		if (pid <= 0 || pid == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/environ", pid);
		env = read_file_str(path, &len);
		for (size_t i = 0; env && i < len; i += strlen(env + i) + 1)
			if (strcmp(env + i, needle) == 0) {
				n++;
				if (sig)
					kill((pid_t)pid, sig);
				break;
			}
		free(env);
	}
	if (d)
		closedir(d);
	return n;
}

static void remove_dir(const char *dir)
{
	const char *sub[] = {"pipe", "log", ""};

	for (size_t s = 0; s < 3; s++) {
		char path[300];
		DIR *d;
		struct dirent *e;

		snprintf(path, sizeof(path), "%s/%s", dir, sub[s]);
		d = opendir(path);
		while (d && (e = readdir(d)) != NULL)
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
				char f[600];
				snprintf(f, sizeof(f), "%s/%s", path, e->d_name);
				unlink(f);
			}
		if (d)
			closedir(d);
		rmdir(path);
	}
}

/* The watcher: starts the daemon, says whether it answers, waits for the
 * pipe to end, ends the daemon and everything of its pipe directory. */
static void watch(const struct mps *m, int life, int status)
{
	char path[300], needle[300];
	int log_fd, ok = 0;

	setsid();
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	for (int fd = 3; fd < 1024; fd++)
		if (fd != life && fd != status)
			close(fd);
	snprintf(path, sizeof(path), "%s/log/watcher.log", m->dir);
	log_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	dup2(open("/dev/null", O_RDONLY), 0);
	if (log_fd >= 0) {
		dup2(log_fd, 1);
		dup2(log_fd, 2);
	}
	snprintf(path, sizeof(path), "%s/pipe/control", m->dir);
	if (control(NULL, log_fd) == 0)
		for (int i = 0; i < 1000 && !ok; i++) {
			ok = access(path, F_OK) == 0;
			if (!ok)
				sleep_ms(10);
		}
	if (write(status, ok ? "0" : "1", 1) < 0)
		(void)0; /* the probe is gone: stop all the same */
	close(status);
	for (char c; read(life, &c, 1) != 0;)
		if (errno != EINTR)
			break;
	if (control("quit\n", log_fd) != 0)
		fprintf(stderr, "mempath mps watcher: quit did not end cleanly\n");
	snprintf(needle, sizeof(needle), "CUDA_MPS_PIPE_DIRECTORY=%s/pipe", m->dir);
	for (int i = 0; i < 100 && with_env(needle, 0); i++)
		sleep_ms(100);
	if (with_env(needle, SIGKILL))
		fprintf(stderr, "mempath mps watcher: killed what quit left\n");
	for (int i = 0; i < 50 && with_env(needle, 0); i++)
		sleep_ms(100);
	remove_dir(m->dir);
	_exit(0);
}

int mps_start(struct mps *m, char *why, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	char path[300], st = '1';
	int life[2], status[2];

	memset(m, 0, sizeof(*m));
	m->fd = -1;
	if (!on_path(CONTROL)) {
		snprintf(why, len, "no %s on PATH: MPS cannot be used here", CONTROL);
		return -1;
	}
	snprintf(m->dir, sizeof(m->dir), "%s/mempath-mps-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(m->dir)) {
		snprintf(why, len, "cannot make a directory for MPS: %s", strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/pipe", m->dir);
	mkdir(path, 0700);
	setenv("CUDA_MPS_PIPE_DIRECTORY", path, 1);
	snprintf(path, sizeof(path), "%s/log", m->dir);
	mkdir(path, 0700);
	setenv("CUDA_MPS_LOG_DIRECTORY", path, 1);
	if (pipe2(life, O_CLOEXEC) != 0 || pipe2(status, O_CLOEXEC) != 0) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		remove_dir(m->dir);
		return -1;
	}
	m->watcher = fork();
	if (m->watcher == 0) {
		close(life[1]);
		close(status[0]);
		watch(m, life[0], status[1]);
	}
	close(life[0]);
	close(status[1]);
	m->fd = life[1];
	if (m->watcher < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		m->watcher = 0;
		close(status[0]);
		mps_stop(m);
		remove_dir(m->dir);
		return -1;
	}
	while (read(status[0], &st, 1) < 0 && errno == EINTR)
		;
	close(status[0]);
	if (st != '0') {
		snprintf(why, len, "%s -d did not start a daemon (its log: %s/log)", CONTROL,
			 m->dir);
		mps_stop(m);
		return -1;
	}
	return 0;
}

void mps_stop(struct mps *m)
{
	if (m->fd >= 0)
		close(m->fd);
	m->fd = -1;
	if (m->watcher > 0) {
		pid_t r;

		while ((r = waitpid(m->watcher, NULL, 0)) < 0 && errno == EINTR)
			;
		/* reaped elsewhere: it is gone when its pid is */
		for (int i = 0; r < 0 && i < 300 && kill(m->watcher, 0) == 0; i++)
			sleep_ms(100);
	}
	m->watcher = 0;
	unsetenv("CUDA_MPS_PIPE_DIRECTORY");
	unsetenv("CUDA_MPS_LOG_DIRECTORY");
}

size_t mps_clients(const struct mps *m, long *pids, size_t max)
{
	char path[300], *log, *p;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/log/control.log", m->dir);
	log = read_file_str(path, NULL);
	for (p = log; p && n < max && (p = strstr(p, "NEW CLIENT ")) != NULL;) {
		p += strlen("NEW CLIENT ");
		pids[n++] = strtol(p, &p, 10);
	}
	free(log);
	return n;
}
