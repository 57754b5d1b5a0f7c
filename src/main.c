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

/* MEMPATH_TEST_CASES names a file that gets a line for every command run:
 * tests/run.sh counts a CLI test's cases so (one a command it ran). Nothing
 * is said where it cannot be written: a test of fd limits runs it too. */
static void count_case(int argc, char **argv)
{
	const char *path = getenv("MEMPATH_TEST_CASES");
	char line[64];
	int fd, n;

	if (!path || !*path || (fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)) < 0)
		return;
	n = snprintf(line, sizeof(line), "%.60s\n", argc > 1 ? argv[1] : "-");
	(void)!write(fd, line, (size_t)n);
	close(fd);
}

int main(int argc, char **argv)
{
	struct rlimit rl;
	struct main_args a = {.argc = argc, .argv = argv};
	pthread_attr_t attr;
	pthread_t t;
	sigset_t all;
	int err;
	count_case(argc, argv);
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
