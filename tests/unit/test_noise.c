/* test_noise.c - the look's per-process CPU time: /proc/PID/stat parsed
 * (a comm with spaces and parentheses), and a child reaped between the two
 * looks counted only for what it ran between them. tests/data/proc-reap/
 * is recorded on the dev VM (2026-12-01, record.sh there): a shell whose
 * awk child had run 72 ticks at the first look, then finished and was
 * reaped, so that the shell's cutime + cstime reads 277 at the second. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/noise.h"

static void read_stat(const char *name, struct noise_proc *p)
{
	char *path = xasprintf("tests/data/proc-reap/%s.stat", name), *text;

	text = read_file_str(path, NULL);
	assert_non_null(text);
	assert_int_equal(noise_parse_stat(text, p), 0);
	free(text);
	free(path);
}

static void parse_recorded(void **state)
{
	struct noise_proc sh, awk;

	(void)state;
	read_stat("sh-after", &sh);
	assert_int_equal(sh.pid, 18484);
	assert_int_equal(sh.ppid, 18483);
	assert_string_equal(sh.comm, "sh");
	assert_int_equal(sh.self, 0);
	assert_int_equal(sh.kids, 277);
	read_stat("awk-before", &awk);
	assert_int_equal(awk.ppid, 18484);
	assert_int_equal(awk.self, 72);
}

static void parse_odd_comm(void **state)
{
	struct noise_proc p;

	(void)state;
	assert_int_equal(noise_parse_stat("42 (a (b) c) R 7 1 1 0 -1 0 0 0 0 0 5 6 7 8 20 0 1 0 1 "
					  "0 0",
					  &p),
			 0);
	assert_string_equal(p.comm, "a (b) c");
	assert_int_equal(p.ppid, 7);
	assert_int_equal(p.self, 11);
	assert_int_equal(p.kids, 15);
	assert_int_equal(noise_parse_stat("42 no parens", &p), -1);
	assert_int_equal(noise_parse_stat("", &p), -1);
	assert_int_equal(noise_parse_stat(NULL, &p), -1);
}

/* The shell ran nothing itself; its child ran 277 - 72 = 205 ticks after
 * the first look. Counted as current, the whole 277 was the shell's. */
static void reaped_child_counted_when_it_ran(void **state)
{
	struct noise_proc before[2], after[1];

	(void)state;
	read_stat("sh-before", &before[0]);
	read_stat("awk-before", &before[1]);
	read_stat("sh-after", &after[0]);
	noise_interval_ticks(before, 2, after, 1);
	assert_int_equal(after[0].ticks, 205);
}

/* A process that is still there counts its own growth; a new one all of
 * it; a child reparented elsewhere never makes a parent negative. */
static void deltas(void **state)
{
	struct noise_proc before[2] = {{.pid = 10, .ppid = 1, .self = 100, .kids = 50},
				       {.pid = 11, .ppid = 10, .self = 400}};
	struct noise_proc after[2] = {{.pid = 10, .ppid = 1, .self = 130, .kids = 50},
				      {.pid = 12, .ppid = 10, .self = 9}};

	(void)state;
	noise_interval_ticks(before, 2, after, 2);
	/* its own 30; its child went, reaped elsewhere: nothing came to it */
	assert_int_equal(after[0].ticks, 30);
	assert_int_equal(after[1].ticks, 9);
	after[0].kids = 50 + 420;
	noise_interval_ticks(before, 2, after, 2);
	assert_int_equal(after[0].ticks, 30 + 20);
}

/* A shell (20) whose child (30) had a child of its own (50) at the first
 * look; both ended and were reaped, the grandchild by the child: the
 * shell's cutime grows by 30 + 50 + what they ran since (7). */
static void reaped_grandchild(void **state)
{
	struct noise_proc before[3] = {{.pid = 20, .ppid = 1},
				       {.pid = 30, .ppid = 20, .self = 30},
				       {.pid = 50, .ppid = 30, .self = 50}};
	struct noise_proc after[1] = {{.pid = 20, .ppid = 1, .kids = 87}};

	(void)state;
	noise_interval_ticks(before, 3, after, 1);
	assert_int_equal(after[0].ticks, 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_recorded),
		cmocka_unit_test(parse_odd_comm),
		cmocka_unit_test(reaped_child_counted_when_it_ran),
		cmocka_unit_test(deltas),
		cmocka_unit_test(reaped_grandchild),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
