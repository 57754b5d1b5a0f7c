/* mps.h - an MPS control daemon of a probe's own (gpu.sync mps=1,
 * docs/design.md §10.5).
 *
 * mps_start() makes private pipe and log directories (mkdtemp under
 * $TMPDIR), sets CUDA_MPS_PIPE_DIRECTORY and CUDA_MPS_LOG_DIRECTORY in this
 * process (so it and every child it starts after are clients of that daemon
 * alone) and starts `nvidia-cuda-mps-control -d` from a watcher: a process
 * of its own session that holds the read end of a pipe whose write end only
 * this process holds (close-on-exec). When the pipe ends - mps_stop(), an
 * exit, a signal, SIGKILL - the watcher sends `quit` to the daemon, waits up
 * to 10 s for every process whose environment names the pipe directory (the
 * daemon and its server) to end, SIGKILLs what is left, removes the
 * directories and exits. The driver reads the pipe directory when it is
 * initialised, so mps_start() must run before anything in this process
 * initialises it (gpu.sync calls it from its supported() check).
 */
#ifndef MEMPATH_KIT_MPS_H
#define MEMPATH_KIT_MPS_H

#include <stddef.h>
#include <sys/types.h>

struct mps {
	pid_t watcher; /* 0: not started */
	int fd;	       /* the pipe's write end */
	char dir[200]; /* pipe/ and log/ below it */
};

/* 0 when the daemon answers (its control pipe exists), or -1 with why: no
 * nvidia-cuda-mps-control on PATH, it did not start. */
int mps_start(struct mps *m, char *why, size_t len);
/* Ends the daemon (through the watcher) and waits for the watcher; a zeroed
 * or stopped one is fine. */
void mps_stop(struct mps *m);
/* The pids the daemon's control.log names as clients ("NEW CLIENT <pid>"),
 * at most max; their count. */
size_t mps_clients(const struct mps *m, long *pids, size_t max);

#endif
