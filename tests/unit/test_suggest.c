/* test_suggest.c - "did you mean": edit distance and the choice of a name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "base/suggest.h"

static void test_distance(void **state)
{
	assert_int_equal(suggest_distance("run", "run"), 0);
	assert_int_equal(suggest_distance("rn", "run"), 1);    /* deletion */
	assert_int_equal(suggest_distance("runn", "run"), 1);  /* insertion */
	assert_int_equal(suggest_distance("rum", "run"), 1);   /* substitution */
	assert_int_equal(suggest_distance("hlep", "help"), 1); /* swap */
	assert_int_equal(suggest_distance("", "abc"), 3);
	assert_int_equal(suggest_distance("kitten", "sitting"), 3);
}

/* names of any length: no bound on the table, so a 300-character word gets
 * its true distance and a typo of a long name is still found */
static void test_long(void **state)
{
	static char a[301], b[301], c[301], typo[301];
	const char *cands[3];

	memset(a, 'a', 300);
	memset(b, 'a', 300);
	b[150] = 'b';
	memset(c, '*', 300);
	memcpy(typo, b, sizeof(typo));
	typo[10] = 'z';
	assert_int_equal(suggest_distance(a, a), 0);
	assert_int_equal(suggest_distance(a, b), 1);
	assert_int_equal(suggest_distance(a, "aaa"), 297);
	assert_int_equal(suggest_distance("", a), 300);
	assert_int_equal(suggest_distance(a, c), 300);
	cands[0] = "run";
	cands[1] = "probe";
	cands[2] = "help";
	assert_null(suggest(c, cands, 3)); /* the crash of issue 44: two or more names */
	cands[0] = a;
	cands[1] = "run";
	cands[2] = c;
	assert_string_equal(suggest(typo, cands, 3),
			    a); /* two edits from a, too far from the rest */
	cands[2] = b;
	assert_string_equal(suggest(a, cands + 1, 2), b);    /* one edit from a */
	assert_string_equal(suggest(typo, cands + 1, 2), b); /* one edit from b */
}

static void test_suggest(void **state)
{
	static const char *const cmds[] = {"run", "probe", "list", "help", "report", "compare"};
	static const char *const probes[] = {"cpu.stream", "cpu.latency", "gpu.stream",
					     "gpu.latency"};
	const size_t nc = sizeof(cmds) / sizeof(cmds[0]), np = sizeof(probes) / sizeof(probes[0]);
	char buf[64];

	assert_string_equal(suggest("rn", cmds, nc), "run");
	assert_string_equal(suggest("hlep", cmds, nc), "help");
	assert_string_equal(suggest("compre", cmds, nc), "compare");
	assert_string_equal(suggest("rep", cmds, nc), "report"); /* the one it starts */
	assert_null(suggest("xyz", cmds, nc));			 /* too far */
	assert_null(suggest("", cmds, nc));
	assert_string_equal(suggest("cpu.stram", probes, np), "cpu.stream");
	/* cpu.latency and gpu.latency are both one edit from "xpu.latency": no guess */
	assert_null(suggest("xpu.latency", probes, np));
	assert_string_equal(suggest_choice("hmtl", "term|md|json|csv|html", buf, sizeof(buf)),
			    "html");
	assert_null(suggest_choice("pdf", "term|md|json|csv|html", buf, sizeof(buf)));
	assert_string_equal(suggest_phrase("run", buf, sizeof(buf)), "; did you mean 'run'?");
	assert_string_equal(suggest_phrase(NULL, buf, sizeof(buf)), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_long),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
