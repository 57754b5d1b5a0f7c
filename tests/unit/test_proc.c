/* test_proc.c - children through base/proc: exit status and exec failure,
 * captured output (buffer, callback, limit, a background process holding the
 * pipe), environment and stdin, timeout SIGTERM then SIGKILL, rusage and wall
 * time, the non-blocking poll, the status line, JSON from a child, the death
 * signal, and signals passed on. Every child is bounded in time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/proc.h"
#include "base/util.h"

static void nap_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static int run_argv(char *const *argv, struct proc *p, const struct proc_spec *base)
{
	struct proc_spec s = *base;
	s.argv = argv;
	assert_int_equal(proc_start(p, &s), 0);
	return proc_wait(p);
}

static int exit_seven(void *arg, int fd)
{
	return 7;
}

static void test_exit_status(void **state)
{
	struct proc_spec s = {.fn = exit_seven};
	struct proc p;
	char *sh[] = {"sh", "-c", "exit 3", NULL}, *bad[] = {"/nonexistent/mempath-x", NULL};
	struct proc_spec cap = {.io = {PROC_INHERIT, PROC_PIPE}};
	assert_int_equal(proc_start(&p, &s), 0);
	proc_wait(&p);
	assert_true(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 7);
	assert_false(p.timed_out || p.interrupted);
	proc_free(&p);
	run_argv(sh, &p, &(struct proc_spec){0});
	assert_int_equal(WEXITSTATUS(p.status), 3);
	assert_int_equal(p.exec_errno, 0); /* it ran; its exit is its own */
	proc_free(&p);
	run_argv(bad, &p, &cap);
	assert_int_equal(WEXITSTATUS(p.status), 127);
	assert_int_equal(p.exec_errno, ENOENT); /* ours, told apart from a command's 127 */
	assert_non_null(strstr(p.buf[PROC_STDERR], "cannot run '/nonexistent/mempath-x'"));
	proc_free(&p);
	/* Neither or both of argv and fn: refused before any fork. */
	s.argv = sh;
	assert_int_equal(proc_start(&p, &s), -1);
	assert_int_equal(p.pid, 0);
	proc_free(&p);
}

static void count_bytes(void *ctx, enum proc_stream s, const char *data, size_t n)
{
	((size_t *)ctx)[s] += n;
}

static void test_capture(void **state)
{
	char *both[] = {"sh", "-c", "echo out; echo err >&2", NULL};
	char *big[] = {"sh", "-c", "head -c 300000 /dev/zero", NULL};
	char *bg[] = {"sh", "-c", "sleep 5 & echo hi", NULL};
	struct proc_spec s = {.io = {PROC_PIPE, PROC_PIPE}};
	size_t counted[PROC_STREAMS] = {0};
	struct proc p;
	run_argv(both, &p, &s);
	assert_string_equal(p.buf[PROC_STDOUT], "out\n");
	assert_string_equal(p.buf[PROC_STDERR], "err\n");
	proc_free(&p);
	s.on_data = count_bytes;
	s.ctx = counted;
	run_argv(big, &p, &s);
	assert_int_equal(counted[PROC_STDOUT], 300000);
	assert_null(p.buf[PROC_STDOUT]);
	proc_free(&p);
	s = (struct proc_spec){.io = {PROC_PIPE}, .max_bytes = 1000};
	run_argv(big, &p, &s);
	assert_int_equal(p.len[PROC_STDOUT], 1000);
	assert_true(p.truncated);
	proc_free(&p);
	/* A background process keeps the pipe open: read for 0.5 s after the
	 * exit, not until it ends; the wall time is the command's own. */
	run_argv(bg, &p, &s);
	assert_string_equal(p.buf[PROC_STDOUT], "hi\n");
	assert_true(p.wall_s < 1.0);
	kill(-p.pid, SIGKILL); /* the sleep, still in the group */
	proc_free(&p);
}

static void test_env_stdin(void **state)
{
	char *env[] = {"MP_PROC_TEST=42", NULL};
	char *echo[] = {"sh", "-c",
			"echo $MP_PROC_TEST; if read x; then echo got; else echo eof; fi", NULL};
	struct proc_spec s = {.io = {PROC_PIPE}, .env = env, .n_env = 1};
	struct proc p;
	int line[2], saved = dup(0);
	/* Our stdin holds a line, so a child that read ours would say "got"
	 * whatever stdin the test runner gave us. */
	assert_int_equal(pipe(line), 0);
	assert_int_equal(write(line[1], "data\n", 5), 5);
	close(line[1]);
	dup2(line[0], 0);
	close(line[0]);
	run_argv(echo, &p, &s);
	assert_string_equal(p.buf[PROC_STDOUT], "42\neof\n");
	proc_free(&p);
	/* And with our stdin closed, a pipe end takes fd 0 in the child: it
	 * must still read /dev/null, not that pipe. */
	close(0);
	run_argv(echo, &p, &s);
	assert_string_equal(p.buf[PROC_STDOUT], "42\neof\n");
	dup2(saved, 0);
	close(saved);
	assert_null(getenv("MP_PROC_TEST")); /* the child's, not ours */
	proc_free(&p);
}

static int ignore_term(void *arg, int fd)
{
	signal(SIGTERM, SIG_IGN);
	proc_say(fd, "ok\n");
	sleep(30); /* SIGKILL ends it long before */
	return 0;
}

static int sleep_long(void *arg, int fd)
{
	proc_say(fd, "ok\n");
	sleep(30);
	return 0;
}

static void test_timeout(void **state)
{
	struct proc_spec s = {.fn = ignore_term,
			      .io = {PROC_INHERIT, PROC_INHERIT, PROC_KEEP},
			      .timeout_s = 0.2,
			      .grace_s = 0.3};
	struct proc p;
	char msg[128];
	/* SIGTERM ignored: SIGKILL grace_s later. */
	assert_int_equal(proc_start(&p, &s), 0);
	assert_int_equal(proc_ready(&p, 5, msg, sizeof(msg)), 0);
	proc_wait(&p);
	assert_true(p.timed_out && !p.interrupted);
	assert_true(WIFSIGNALED(p.status) && WTERMSIG(p.status) == SIGKILL);
	assert_true(p.wall_s >= 0.49 && p.wall_s < 3.0);
	proc_free(&p);
	/* SIGTERM ends it. */
	s.fn = sleep_long;
	assert_int_equal(proc_start(&p, &s), 0);
	proc_wait(&p);
	assert_true(p.timed_out);
	assert_true(WIFSIGNALED(p.status) && WTERMSIG(p.status) == SIGTERM);
	assert_true(p.wall_s >= 0.19 && p.wall_s < 2.0);
	proc_free(&p);
	/* No grace: SIGKILL at once. */
	s.grace_s = 0;
	assert_int_equal(proc_start(&p, &s), 0);
	proc_wait(&p);
	assert_true(WIFSIGNALED(p.status) && WTERMSIG(p.status) == SIGKILL);
	proc_free(&p);
	/* proc_stop: the same two steps without a timeout. */
	s = (struct proc_spec){
		.fn = ignore_term, .io = {PROC_INHERIT, PROC_INHERIT, PROC_KEEP}, .grace_s = 0.2};
	assert_int_equal(proc_start(&p, &s), 0);
	assert_int_equal(proc_ready(&p, 5, msg, sizeof(msg)), 0);
	proc_stop(&p);
	assert_true(p.reaped && !p.timed_out);
	assert_true(WIFSIGNALED(p.status) && WTERMSIG(p.status) == SIGKILL);
	proc_free(&p);
}

/* Spins until it has had 0.2 s of user time (the event, not a wall time:
 * beside another make test's lab a wall-time spin got 10 ms of it; and
 * user time, not CPU time: in a clean-clone CI its 64 MiB of faults took
 * most of 0.2 s of CPU time, leaving under 50 ms of user time). */
static int burn(void *arg, int fd)
{
	size_t bytes = 64u << 20;
	volatile char *m = malloc(bytes);
	struct rusage ru = {0};
	for (size_t i = 0; m && i < bytes; i += 4096)
		m[i] = 1;
	while (ru.ru_utime.tv_sec == 0 && ru.ru_utime.tv_usec < 200000) {
		for (volatile int k = 0; k < 1000000; k++)
			;
		getrusage(RUSAGE_SELF, &ru);
	}
	return m ? 0 : 1;
}

static void test_rusage_wall(void **state)
{
	struct proc_spec s = {.fn = burn};
	char *nap[] = {"sleep", "0.3", NULL};
	struct proc p;
	assert_int_equal(proc_start(&p, &s), 0);
	proc_wait(&p);
	assert_int_equal(WEXITSTATUS(p.status), 0);
	/* 0.2 s of user time; the wall at least that */
	assert_true(p.ru.ru_utime.tv_sec * 1000000 + p.ru.ru_utime.tv_usec > 50000);
	assert_true(p.ru.ru_maxrss >= 64 * 1024);
	assert_true(p.wall_s >= 0.19);
	proc_free(&p);
	/* The wait wakes when the child exits, not on a later tick. */
	run_argv(nap, &p, &(struct proc_spec){0});
	assert_true(p.wall_s >= 0.29 && p.wall_s < 1.5);
	proc_free(&p);
}

static void test_poll(void **state)
{
	char *nap[] = {"sleep", "30", NULL};
	struct proc_spec s = {.argv = nap};
	struct proc p;
	int rounds = 0;
	assert_int_equal(proc_start(&p, &s), 0);
	/* A poll of a child that runs on returns at once, however busy the
	 * machine: a poll that waited would not come back for 30 s. */
	assert_int_equal(proc_poll(&p), 0);
	assert_false(p.reaped);
	kill(p.pid, SIGTERM);
	while (!proc_poll(&p) && rounds++ < 3000)
		nap_ms(10);
	assert_true(p.reaped);
	assert_true(WIFSIGNALED(p.status) && WTERMSIG(p.status) == SIGTERM);
	proc_free(&p);
	proc_free(&p); /* twice is fine */
	memset(&p, 0, sizeof(p));
	assert_int_equal(proc_poll(&p), 1); /* never started */
	proc_free(&p);
}

static int say_what(void *arg, int fd)
{
	const char *line = arg;
	if (*line)
		proc_say(fd, "%s\n", line);
	return 0;
}

static int ready_of(const char *line, char *msg, size_t len)
{
	struct proc_spec s = {
		.fn = say_what, .arg = (void *)line, .io = {PROC_INHERIT, PROC_INHERIT, PROC_KEEP}};
	struct proc p;
	int r;
	assert_int_equal(proc_start(&p, &s), 0);
	r = proc_ready(&p, 5, msg, len);
	proc_free(&p);
	return r;
}

static void test_ready(void **state)
{
	char msg[128];
	assert_int_equal(ready_of("ok detached 42", msg, sizeof(msg)), 0);
	assert_string_equal(msg, "detached 42");
	assert_int_equal(ready_of("ok", msg, sizeof(msg)), 0);
	assert_string_equal(msg, "");
	assert_int_equal(ready_of("skip: no GPU", msg, sizeof(msg)), 1);
	assert_string_equal(msg, "no GPU");
	assert_int_equal(ready_of("fail: cannot map", msg, sizeof(msg)), -1);
	assert_string_equal(msg, "cannot map");
	assert_int_equal(ready_of("", msg, sizeof(msg)), -1);
	assert_string_equal(msg, "ended without a word (exit 0)");
}

static json_t *make_json(void *arg)
{
	return arg ? json_pack("{s:i}", "answer", 42) : NULL;
}

static void test_json(void **state)
{
	struct proc p;
	json_t *j = proc_json(make_json, (void *)1, 10, &p);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "answer")), 42);
	assert_true(p.reaped && WEXITSTATUS(p.status) == 0);
	json_decref(j);
	proc_free(&p);
	assert_null(proc_json(make_json, NULL, 10, &p));
	assert_int_equal(WEXITSTATUS(p.status), 3);
	proc_free(&p);
	assert_null(proc_json(make_json, NULL, 10, NULL));
}

/* A middle child starts a grandchild (sleep 30) and exits without ending it:
 * the grandchild gets SIGKILL with its parent. */
static int leave_orphan(void *arg, int fd)
{
	char *sl[] = {"sleep", "30", NULL};
	struct proc_spec s = {.argv = sl, .on_signal = PROC_SIG_NONE};
	struct proc g;
	if (proc_start(&g, &s) != 0)
		return 1;
	proc_say(fd, "ok %d\n", (int)g.pid);
	return 0;
}

static int gone(pid_t pid)
{
	char path[64], *stat;
	int z;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	stat = read_file_str(path, NULL);
	/* Gone, or a zombie waiting for init to reap it. */
	z = !stat || (strrchr(stat, ')') && strrchr(stat, ')')[2] == 'Z');
	free(stat);
	return z;
}

static void test_parent_death(void **state)
{
	struct proc_spec s = {.fn = leave_orphan, .io = {PROC_INHERIT, PROC_INHERIT, PROC_KEEP}};
	struct proc p;
	char msg[64];
	pid_t g;
	int rounds = 0;
	assert_int_equal(proc_start(&p, &s), 0);
	assert_int_equal(proc_ready(&p, 5, msg, sizeof(msg)), 0);
	g = (pid_t)atoi(msg);
	assert_true(g > 0);
	proc_wait(&p);
	while (!gone(g) && rounds++ < 200)
		nap_ms(10);
	if (!gone(g))
		kill(g, SIGKILL);
	assert_true(rounds <= 200);
	proc_free(&p);
}

/* Last: a signal once received stays received for this process. */
static void test_signals(void **state)
{
	char *sl[] = {"sleep", "5", NULL}, *five[] = {"sh", "-c", "sleep 0.3; exit 5", NULL};
	struct proc_spec fwd = {.argv = sl}, stop = {.argv = sl,
						     .on_signal = PROC_SIG_STOP,
						     .forward_as = SIGTERM,
						     .grace_s = 2};
	struct proc a, b, c;
	proc_signals_install();
	assert_int_equal(proc_signal_received(), 0);
	assert_int_equal(proc_start(&a, &fwd), 0);
	assert_int_equal(proc_start(&b, &stop), 0);
	nap_ms(50);
	raise(SIGINT);
	assert_int_equal(proc_signal_received(), SIGINT);
	proc_wait(&a);
	proc_wait(&b);
	/* Passed on as itself; as SIGTERM, and the waiter calls it interrupted. */
	assert_true(WIFSIGNALED(a.status) && WTERMSIG(a.status) == SIGINT);
	assert_false(a.interrupted);
	assert_true(WIFSIGNALED(b.status) && WTERMSIG(b.status) == SIGTERM);
	assert_true(b.interrupted && !b.timed_out);
	assert_true(a.wall_s < 3 && b.wall_s < 3);
	proc_free(&a);
	proc_free(&b);
	/* Started after the signal: passed on at once; or not at all. */
	assert_int_equal(proc_start(&a, &fwd), 0);
	proc_wait(&a);
	assert_true(WIFSIGNALED(a.status) && WTERMSIG(a.status) == SIGINT);
	proc_free(&a);
	run_argv(five, &c, &(struct proc_spec){.on_signal = PROC_SIG_NONE});
	assert_true(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 5);
	proc_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_status),  cmocka_unit_test(test_capture),
		cmocka_unit_test(test_env_stdin),    cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_rusage_wall),  cmocka_unit_test(test_poll),
		cmocka_unit_test(test_ready),	     cmocka_unit_test(test_json),
		cmocka_unit_test(test_parent_death), cmocka_unit_test(test_signals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
