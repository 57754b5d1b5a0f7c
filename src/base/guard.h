/* guard.h - no process a command started outlives it, even when it is
 * killed with SIGKILL (docs/design.md §2.4). PR_SET_PDEATHSIG ends each
 * direct child, but not what that child started: a shell's jobs, a daemon
 * that called setsid(), a setup command's background server. After
 * guard_start():
 *  - every command we exec carries MEMPATH_GUARD_<pid>=<token> in its
 *    environment, and so does everything it starts (that keeps its
 *    environment), whatever group or session it moves to;
 *  - a watchdog process (its own session, no descriptor of ours but one
 *    pipe) waits for this process to end, however it ends, then kills every
 *    process group proc_start() made that is still ours and every process
 *    carrying the mark;
 *  - guard_end_left() does the same at a normal end, naming what it ended.
 * Processes forked without exec (probe children, the planted phantom of
 * phantom --detach) do not carry the mark: only their group is ended. */
#ifndef MEMPATH_BASE_GUARD_H
#define MEMPATH_BASE_GUARD_H

#include <stddef.h>
#include <sys/types.h>

/* Starts the watchdog and sets the mark (once; later calls do nothing).
 * 0, or -1 when it cannot (a warning said so; the command goes on). */
int guard_start(void);
/* proc.c: a process group made (1) or reaped (0). */
void guard_group(pid_t pgid, int made);
/* The watchdog's pid (0: none), which no reaper of ours may stop. */
pid_t guard_watchdog(void);
/* In a child of proc_start(): the watchdog's pipe is not the child's. */
void guard_child(void);
/* Stops (SIGKILL) every process still carrying the mark, and reaps those
 * that are our children. How many there were; their names, comma-separated,
 * in names (cut to len). */
size_t guard_end_left(char *names, size_t len);
/* guard_end_left(), then a warning naming them: "CMD: WHAT left 2
 * processes running (sleep, sh): stopped". */
void guard_say_left(const char *cmd, const char *what);

#endif
