/* sig.h - SIGINT/SIGTERM/SIGHUP in one place: remember that one arrived and
 * pass a signal on to the child process group being watched, so Ctrl-C ends
 * the running probe, workload or leg and the caller still writes its results
 * (and `ab` still restores the machine). */
#ifndef MEMPATH_SIG_H
#define MEMPATH_SIG_H

#include <sys/types.h>

/* Installs the handlers (no SA_RESTART: blocking calls return EINTR). */
void sig_install(void);
/* The signal received so far, or 0. */
int sig_received(void);
/* From now on a signal is passed to process group pgid: as `fwd`, or as the
 * signal itself when fwd is 0. If one already arrived it is sent at once. */
void sig_watch(pid_t pgid, int fwd);
/* Stops passing signals on (the child was reaped). */
void sig_unwatch(void);

/* In a forked child: its own process group (so the watched-group signal
 * reaches everything it starts) and default signal dispositions. */
void sig_child_defaults(void);

#endif
