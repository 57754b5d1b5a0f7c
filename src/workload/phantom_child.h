/* phantom_child.h - the children of `mempath phantom`, built in so the check
 * needs no external program: a CPU child (anonymous memory mapped, touched,
 * held, exit: the reference that must show no phantom), a GPU child
 * (gpu_hold_memory), a host memory hog (kit/hog.h), a holder, or any command.
 * Each runs in its own process group (base/proc.h) so stopping it stops all
 * it started; a built-in child says on a status line when it holds its
 * memory. A detached CPU child (a setsid grandchild holding the memory after
 * its parent exits, outside the group and not killed with us) is the
 * deliberate phantom that proves the check can fail.
 */
#ifndef MEMPATH_PHANTOM_CHILD_H
#define MEMPATH_PHANTOM_CHILD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/proc.h"

enum phantom_kind {
	PHANTOM_CMD = 0, /* argv, or "sh -c" of a holder command */
	PHANTOM_CPU,	 /* anonymous memory mapped, touched, held, exit */
	PHANTOM_GPU,	 /* gpu_hold_memory() */
	PHANTOM_HOG,	 /* host memory touched and kept hot until stopped */
};

struct phantom_child {
	struct proc p;	/* p.pid is also its process group; p.status once reaped */
	pid_t detached; /* the setsid grandchild still holding memory (detach), or 0 */
};

/* Starts a child; a zeroed phantom_child is one not started. argv for
 * PHANTOM_CMD; bytes and hold_s (< 0: until stopped) for the built-in kinds;
 * detach (PHANTOM_CPU) leaves a setsid grandchild holding the memory for
 * detach_s seconds after the child exits. Returns 0 or -1 (error printed). */
int phantom_child_start(struct phantom_child *c, enum phantom_kind kind, char *const *argv,
			uint64_t bytes, double hold_s, int detach, double detach_s);
/* Waits up to timeout_s for a built-in child's status line. Returns 0 (ok),
 * 1 (skip: msg says why), -1 (failed or no answer: msg says why). */
int phantom_child_ready(struct phantom_child *c, double timeout_s, char *msg, size_t len);
/* Reaps the child if it has exited (or waits when block). 1 reaped, 0 not yet. */
int phantom_child_poll(struct phantom_child *c, int block);
/* SIGTERM to its group, SIGKILL 2 s later if still there, reaped; its
 * status stays in c->p.status. */
void phantom_child_stop(struct phantom_child *c);

#endif
