/* reaper.h - what a command leaves running when it ends: a background job,
 * a daemon that called setsid(). Such a process leaves the command's
 * process group, so stopping the group misses it, and it would run on into
 * the next run of a wrapped workload (docs/design.md §2.4). After
 * reaper_adopt(), a descendant whose parent exits becomes our child (Linux's
 * child subreaper), so reaper_end_left() can find and stop it. */
#ifndef MEMPATH_BASE_REAPER_H
#define MEMPATH_BASE_REAPER_H

#include <stddef.h>
#include <sys/types.h>

/* This process adopts its orphaned descendants from now on. */
void reaper_adopt(void);
/* Stops (SIGKILL) and reaps every child of ours: call it when no child of
 * ours should be running (a workload's run has ended and been reaped).
 * Returns how many there were; their names, comma-separated, in names
 * (cut to len). */
size_t reaper_end_left(char *names, size_t len);

/* Is a descendant of pid (pid itself aside) stopped (state T: a SIGSTOP
 * someone sent it, not a debugger's trace stop)? Looks at most 64 deep. */
int reaper_family_stopped(pid_t pid);

#endif
