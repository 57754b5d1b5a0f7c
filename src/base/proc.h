/* proc.h - every child process mempath starts, started, watched and ended
 * one way (docs/design.md, "Process model").
 *
 * A child gets its own process group (set in the child and in the parent, so
 * a signal sent to the group right after fork cannot miss it), so one kill
 * ends everything it started; stdin from /dev/null unless kept; stdout and
 * stderr inherited, sent to an fd, or captured through pipes; extra
 * environment; then it execs argv or calls a function. Every child asks for
 * SIGKILL when its parent dies (PR_SET_PDEATHSIG), so no child outlives a
 * mempath killed with SIGKILL. PR_SET_PDEATHSIG follows the thread that
 * forked: start children from a thread that lives as long as they should.
 *
 * Signals: proc_signals_install() catches SIGINT, SIGTERM and SIGHUP,
 * remembers the signal and passes it on, from the handler, to the group of
 * every running child that asked for it (as the signal itself or as
 * another one). A child that must not be cut short (ab's restore) asks for
 * none. Children start with default dispositions.
 *
 * Waiting: proc_wait() (blocking) and proc_poll() (not) read the captured
 * pipes, apply the timeout and the stop (SIGTERM to the group, SIGKILL
 * grace_s later; or SIGKILL at once) and reap with wait4() rusage. Wall time
 * ends when the child exits: a pidfd wakes the wait at once (without one,
 * on old kernels, the wait looks every 10 ms). After the exit, pipes still
 * held by something the child left behind are read for 0.5 s more, then
 * closed.
 */
#ifndef MEMPATH_PROC_H
#define MEMPATH_PROC_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

enum proc_stream { PROC_STDOUT, PROC_STDERR, PROC_CHAN, PROC_STREAMS };

enum proc_io {
	PROC_INHERIT = 0, /* stdout, stderr: ours; the channel: none */
	PROC_TO_FD,	  /* stdout, stderr: to spec.to_fd[stream] */
	PROC_PIPE,	  /* read by proc_wait/proc_poll: to on_data, else into p->buf[] */
	PROC_KEEP,	  /* a pipe whose read end p->fd[stream] the caller reads */
};

enum proc_on_signal {
	PROC_SIG_FORWARD = 0, /* pass it on to the child's group; wait for the child */
	PROC_SIG_STOP,	      /* pass it on, then stop the child as on a timeout */
	PROC_SIG_NONE,	      /* pass nothing on: the child must finish */
};

struct proc_spec {
	char *const *argv;		   /* execvp(argv[0], argv); or NULL and fn */
	int (*fn)(void *arg, int chan_fd); /* runs in the child; returns its exit status */
	void *arg;
	char *const *env; /* n_env "K=V" added to the child's environment */
	size_t n_env;
	int keep_stdin;		       /* 0: stdin is /dev/null */
	enum proc_io io[PROC_STREAMS]; /* stdout, stderr, the channel (fn's chan_fd) */
	int to_fd[2];		       /* PROC_TO_FD: where stdout and stderr go */
	/* PROC_PIPE data as it comes; NULL: kept in p->buf[] */
	void (*on_data)(void *ctx, enum proc_stream s, const char *data, size_t n);
	void *ctx;
	size_t max_bytes; /* p->buf[]: at most this much per stream (0: no limit) */
	enum proc_on_signal on_signal;
	int forward_as;	  /* the signal passed on; 0: the one that arrived */
	double timeout_s; /* fork to stop; <= 0: none */
	double grace_s;	  /* stopping: SIGTERM, SIGKILL grace_s later; 0: SIGKILL at once */
	/* While it runs, the wait calls on_tick(tick_ctx) at its first step and
	 * every tick_s after the fork (none once it exited): the noise meter. */
	void (*on_tick)(void *tick_ctx);
	void *tick_ctx;
	double tick_s;
};

struct proc {
	pid_t pid;		 /* also its process group; 0: not started */
	int fd[PROC_STREAMS];	 /* read ends of PROC_PIPE and PROC_KEEP pipes, or -1 */
	char *buf[PROC_STREAMS]; /* PROC_PIPE without on_data: NUL-terminated, or NULL */
	size_t len[PROC_STREAMS], cap[PROC_STREAMS];
	int truncated;		    /* more than max_bytes came on a stream */
	int reaped, status;	    /* wait status once reaped */
	struct rusage ru;	    /* wait4 */
	double wall_s;		    /* fork to exit */
	int timed_out, interrupted; /* stopped by the timeout / by a signal */
	int stopped_by;		    /* it stopped itself (SIGSTOP...): that signal; -1: a
				     * process it started stayed stopped; it was ended */
	int exec_errno;		    /* argv could not be run: execvp's errno (it exits 127) */
	/* the wait's own state */
	struct proc_spec spec;
	int pidfd, slot, stopping, family_stops;
	uint64_t family_ns; /* next look for a stopped descendant */
	uint64_t t0_ns, exit_ns, deadline_ns, kill_ns, tick_ns;
};

/* Starts a child as spec says (spec is copied; argv and env must stay valid
 * only until this returns). Returns 0, or -1 with p->pid 0 (error printed). */
int proc_start(struct proc *p, const struct proc_spec *spec);
/* Reads what is ready, applies the timeout and a stop under way, reaps the
 * child if it exited; never blocks. 1 once reaped and its pipes are read. */
int proc_poll(struct proc *p);
/* proc_poll() for up to ms milliseconds (woken by data or the exit);
 * 1 once reaped and its pipes are read, 0 when the time is up first. */
int proc_wait_for(struct proc *p, int ms);
/* proc_poll() until done; returns the wait status. */
int proc_wait(struct proc *p);
/* Stops the child (SIGTERM to its group, SIGKILL grace_s later; or SIGKILL)
 * and waits for it. Nothing when it was reaped already. */
void proc_stop(struct proc *p);
/* proc_stop(), then closes its pipes and frees the kept data; status,
 * rusage and times stay. A zeroed struct proc (never started) is fine. */
void proc_free(struct proc *p);

/* A built-in child's status line on a PROC_KEEP channel: "ok[ words]",
 * "skip: why" or "fail: why". proc_say() writes one (in the child);
 * proc_ready() waits up to timeout_s for it: 0 (ok: msg holds the words
 * after "ok"; also when there is no channel), 1 (skip: msg says why) or -1
 * (failed, ended without a word, or no answer in time: msg says which). */
void proc_say(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int proc_ready(struct proc *p, double timeout_s, char *msg, size_t len);

/* Runs fn(arg) in a child and returns the JSON it returned (sent over the
 * channel), or NULL: it failed, ran past timeout_s (then SIGKILL to its
 * group) or was stopped by SIGINT/SIGTERM/SIGHUP (passed on as SIGKILL).
 * For work that must not touch this process (a GPU context, a probe that
 * may crash). With p, the child's status, rusage and times are left there
 * (p->pid 0: it could not start, error printed); proc_free(p) after. */
json_t *proc_json(json_t *(*fn)(void *arg), void *arg, double timeout_s, struct proc *p);
/* proc_json() with on_tick(tick_ctx) called every tick_s while fn runs. */
json_t *proc_json_ticked(json_t *(*fn)(void *arg), void *arg, double timeout_s, struct proc *p,
			 void (*on_tick)(void *tick_ctx), void *tick_ctx, double tick_s);

/* Catches SIGINT, SIGTERM and SIGHUP without SA_RESTART (a blocking call
 * returns EINTR, so loops notice at once). */
void proc_signals_install(void);
/* The signal that arrived last, or 0. */
int proc_signal_received(void);

#endif
