/* sig.c - remember a terminating signal; pass it on to the watched child. */
#include "base/sig.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t received;
static volatile pid_t watched_pgid;
static volatile sig_atomic_t forward_as;

static void on_signal(int sig)
{
	received = sig;
	if (watched_pgid > 0)
		kill(-watched_pgid, forward_as ? forward_as : sig);
}

void sig_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int sig_received(void)
{
	return received;
}

void sig_watch(pid_t pgid, int fwd)
{
	forward_as = fwd;
	watched_pgid = pgid;
	if (received && pgid > 0)
		kill(-pgid, fwd ? fwd : received);
}

void sig_unwatch(void)
{
	watched_pgid = 0;
}

void sig_child_defaults(void)
{
	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
}
