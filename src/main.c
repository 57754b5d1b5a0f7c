/* main.c - mempath: the command table (src/cmd/commands.c) decides the rest.
 *
 * Under a small stack limit (ulimit -s 16) the commands run on a thread
 * whose stack is of a known size, and every thread they start gets at least
 * that much too: the limit is the shell's, the frames (a read buffer, a
 * parser's recursion on deep JSON) are ours (docs/design.md §6). The thread
 * ends the process with exit(), so no thread outlives another: a child's
 * PR_SET_PDEATHSIG (which follows the thread that forked it) fires only
 * when mempath itself ends, as it would with one thread. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cmd/commands.h"

#define STACK_BYTES ((size_t)8 << 20)

struct main_args {
	int argc;
	char **argv;
	sigset_t mask;
};

static void *body(void *p)
{
	struct main_args *a = p;
	pthread_sigmask(SIG_SETMASK, &a->mask, NULL);
	exit(commands_main(a->argc, a->argv));
}

/* MEMPATH_TEST_CASES names a file that gets a line for every command a CLI
 * test runs, "run" or "skip", a tab and its command line: tests/run.sh
 * counts a test's cases so (one a command; tNNNN.K is the K-th) and names a
 * failed case by its line. MEMPATH_TEST_SKIP_CASES lists the K the run skips
 * ("3 5", "7-" for 7 and after; the runner derives it from
 * MEMPATH_SKIP_TESTS and MEMPATH_ONLY_TESTS): such a command runs nothing
 * and exits 77. The commands mempath runs itself (ab's legs) are part of
 * their case, not cases. Nothing is said where the file cannot be written: a
 * test of fd limits runs it too. */
static int skipped_case(const char *spec, long k)
{
	char *end;

	while (spec && *spec) {
		long n = strtol(spec, &end, 10);
		if (end == spec) {
			spec++;
			continue;
		}
		if (*end == '-' ? k >= n : k == n)
			return 1;
		spec = *end == '-' ? end + 1 : end;
	}
	return 0;
}

static void case_line(char *line, size_t cap, int argc, char **argv, int skip)
{
	size_t n = (size_t)snprintf(line, cap, "%s\tmempath", skip ? "skip" : "run");

	for (int i = 1; i < argc && n + 8 < cap; i++) {
		const char *a = argv[i];
		int quote =
			!*a || a[strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					   "0123456789_./=:,+@%-")] != '\0';
		line[n++] = ' ';
		if (quote)
			line[n++] = '\'';
		for (; *a && n + 5 < cap; a++)
			line[n++] = (unsigned char)*a < 0x20 || *a == 0x7f ? '?' : *a;
		if (quote)
			line[n++] = '\'';
	}
	line[n++] = '\n';
	line[n] = '\0';
}

static int count_case(int argc, char **argv)
{
	const char *path = getenv("MEMPATH_TEST_CASES");
	char line[480], buf[4096];
	long k = 1;
	ssize_t got;
	off_t off = 0;
	int fd, skip;

	if (!path || !*path || (fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC)) < 0)
		return 0;
	/* commands started at once (a test's background writers) take their
	 * numbers one at a time */
	(void)flock(fd, LOCK_EX);
	while ((got = pread(fd, buf, sizeof(buf), off)) > 0) {
		for (ssize_t i = 0; i < got; i++)
			k += buf[i] == '\n';
		off += got;
	}
	skip = skipped_case(getenv("MEMPATH_TEST_SKIP_CASES"), k);
	case_line(line, sizeof(line), argc, argv, skip);
	(void)!write(fd, line, strlen(line));
	close(fd);
	unsetenv("MEMPATH_TEST_CASES");
	if (skip)
		fprintf(stderr,
			"mempath: case %ld skipped (MEMPATH_SKIP_TESTS, MEMPATH_ONLY_TESTS)\n", k);
	return skip;
}

int main(int argc, char **argv)
{
	struct rlimit rl;
	struct main_args a = {.argc = argc, .argv = argv};
	pthread_attr_t attr;
	pthread_t t;
	sigset_t all;
	int err;
	if (count_case(argc, argv))
		return 77;
	if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur >= STACK_BYTES)
		return commands_main(argc, argv);
	/* signals to the process reach the commands' thread, never this one */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &a.mask);
	pthread_attr_init(&attr);
	err = pthread_attr_setstacksize(&attr, STACK_BYTES);
	if (!err)
		err = pthread_setattr_default_np(&attr);
	if (!err)
		err = pthread_create(&t, &attr, body, &a);
	if (err) {
		fprintf(stderr,
			"mempath: error: cannot make a %zu MiB stack under the stack limit of %llu "
			"KiB (ulimit -s): %s\n",
			STACK_BYTES >> 20, (unsigned long long)rl.rlim_cur / 1024, strerror(err));
		return 1;
	}
	pthread_join(t, NULL);
	return 1; /* not reached: body exits */
}
