/* reaper.c - finding and stopping what a command left running (reaper.h). */
#include "base/reaper.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/guard.h"
#include "base/util.h"

void reaper_adopt(void)
{
	prctl(PR_SET_CHILD_SUBREAPER, 1);
}

/* The parent and name of pid from /proc/pid/stat; 0, or -1 when gone. */
static int stat_of(pid_t pid, pid_t *ppid, char *name, size_t len)
{
	char path[64], buf[512], *open, *close;
	FILE *f;
	size_t n;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "r")))
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "pid (comm) state ppid ...": comm may hold spaces and ')' */
	open = strchr(buf, '(');
	close = strrchr(buf, ')');
	if (!open || !close || close < open || sscanf(close + 1, " %*c %d", ppid) != 1)
		return -1;
	snprintf(name, len, "%.*s", (int)(close - open - 1), open + 1);
	return 0;
}

/* The state letter of pid ('S', 'T', ...); 0 when gone. */
static char state_of(pid_t pid)
{
	char path[64], buf[512], *close;
	FILE *f;
	size_t n;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "r")))
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	close = strrchr(buf, ')');
	return close && close[1] == ' ' ? close[2] : 0;
}

int reaper_family_stopped(pid_t pid)
{
	pid_t todo[64];
	size_t n = 1;
	todo[0] = pid;
	for (size_t k = 0; k < n; k++) {
		char path[64];
		if (k > 0 && state_of(todo[k]) == 'T')
			return 1;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)todo[k],
			 (int)todo[k]);
		n = read_pids_append(path, todo, n, ARRAY_SIZE(todo));
	}
	return 0;
}

/* The children one stop has killed: each counted and named once, however
 * many passes see it before it is reaped. */
struct killed {
	pid_t pid[256];
	size_t n;
};

static int was_killed(const struct killed *k, pid_t pid)
{
	for (size_t i = 0; i < k->n; i++)
		if (k->pid[i] == pid)
			return 1;
	return 0;
}

/* One pass: SIGKILL to every child of ours; how many are children still
 * (killed in an earlier pass and not yet reaped among them). */
static size_t kill_children(char *names, size_t len, struct killed *k)
{
	pid_t self = getpid(), ppid;
	char name[64];
	size_t n = 0;
	struct dirent *e;
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		pid_t pid = (pid_t)atoi(e->d_name);
		if (pid <= 0 || pid == guard_watchdog() ||
		    stat_of(pid, &ppid, name, sizeof(name)) != 0 || ppid != self)
			continue;
		kill(pid, SIGKILL);
		n++;
		if (was_killed(k, pid))
			continue;
		if (k->n < ARRAY_SIZE(k->pid))
			k->pid[k->n] = pid;
		k->n++;
		if (strlen(names) + strlen(name) + 3 < len)
			snprintf(names + strlen(names), len - strlen(names), "%s%s",
				 *names ? ", " : "", name);
	}
	closedir(d);
	return n;
}

/* Every dead child reaped; the watchdog, alive, is never waited for. */
static void reap_all_but_watchdog(void)
{
	siginfo_t si;
	for (;;) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid == 0)
			return;
		waitpid(si.si_pid, NULL, 0);
	}
}

size_t reaper_end_left(char *names, size_t len)
{
	struct killed k = {.n = 0};
	if (len)
		*names = '\0';
	/* Killing a daemon orphans its own children, which come to us in
	 * turn: passes until none is left (on a busy machine a killed one may
	 * take more than a pass to die: it is counted once, and waited for, so
	 * that the next run does not find it), at most 2 s. */
	for (int pass = 0; pass < 200 && kill_children(names, len, &k) > 0; pass++) {
		reap_all_but_watchdog();
		usleep(10000);
		reap_all_but_watchdog();
	}
	return k.n;
}
