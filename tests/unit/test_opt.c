/* test_opt.c - size parsing and formatting, option rows of every type. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "base/opt.h"

struct topts {
	uint64_t size;
	uint64_t count;
	double ratio;
	uint32_t pages;
	char name[OPT_STR_MAX];
};

static const struct opt rows[] = {
	OPT_SIZE("size", struct topts, size, "1G", "bytes"),
	OPT_UINT("count", struct topts, count, "10", "how many"),
	OPT_DOUBLE("ratio", struct topts, ratio, "0.5", "a fraction"),
	OPT_LIST("pages", struct topts, pages, "4k|thp|1g", "4k,thp", "page sizes"),
	OPT_STR("name", struct topts, name, "abc", "a name"),
	OPT_END,
};

static void test_parse_size_good(void **state)
{
	static const struct {
		const char *s;
		uint64_t v;
	} good[] = {
		{"4096", 4096},
		{"4k", 4096},
		{"4K", 4096},
		{"512M", 512ull << 20},
		{"1G", 1ull << 30},
		{"1.5G", 3ull << 29},
		{"2GiB", 2ull << 30},
		{"64KB", 64ull << 10},
		{"0", 0},
		{"1T", 1ull << 40},
		{"0.5K", 512},
		{"4096B", 4096},
		{"16777215T", 16777215ull << 40},
	};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		uint64_t v = 0;
		if (opt_parse_size(good[i].s, &v) != 0)
			fail_msg("'%s' rejected", good[i].s);
		if (v != good[i].v)
			fail_msg("'%s' gave %llu, expected %llu", good[i].s, (unsigned long long)v,
				 (unsigned long long)good[i].v);
	}
}

static void test_parse_size_bad(void **state)
{
	static const char *const bad[] = {
		"",    "-1",  "1X", "G",	 "1.3k", "1e30G", " 1G", "1G ",
		"1 G", "1GG", "k",  "16777216T", "1iB",	 "nan",	  "inf", "1.5",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t v = 12345;
		if (opt_parse_size(bad[i], &v) == 0)
			fail_msg("'%s' accepted as %llu", bad[i], (unsigned long long)v);
		assert_int_equal(v, 12345); /* untouched on failure */
	}
	assert_int_equal(opt_parse_size(NULL, &(uint64_t){0}), -1);
}

static void test_format_size(void **state)
{
	static const struct {
		uint64_t v;
		const char *s;
	} cases[] = {
		{4096, "4K"},
		{512ull << 20, "512M"},
		{3ull << 29, "1.5G"},
		{123, "123"},
		{0, "0"},
		{1ull << 40, "1T"},
		{1536, "1.5K"},
		{(1ull << 30) + 1, "1073741825"},
	};
	char buf[64];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		opt_format_size(cases[i].v, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].s);
	}
}

static void test_format_size_round_trip(void **state)
{
	static const uint64_t vals[] = {
		0,
		1,
		1023,
		1024,
		4097,
		(1ull << 20) + 256,
		(5ull << 30) + (1ull << 28),
		(1ull << 30) + 256, /* 1048576.25K: needs more than %g's 6 digits */
		(128ull << 20) + 768,
		(3ull << 40) + (3ull << 38),
		(1ull << 50) + 256, /* exact up to 2^53: strtod reads the text */
	};
	char buf[64];
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		uint64_t back = 0;
		opt_format_size(vals[i], buf, sizeof(buf));
		if (opt_parse_size(buf, &back) != 0 || back != vals[i])
			fail_msg("%llu formatted as '%s' reads back as %llu",
				 (unsigned long long)vals[i], buf, (unsigned long long)back);
	}
}

static void test_defaults(void **state)
{
	struct topts o;
	memset(&o, 0xff, sizeof(o));
	assert_int_equal(opt_defaults(rows, &o), 0);
	assert_int_equal(o.size, 1ull << 30);
	assert_int_equal(o.count, 10);
	assert_float_equal(o.ratio, 0.5, 0);
	assert_int_equal(o.pages, 3);
	assert_string_equal(o.name, "abc");
}

static void test_set_each_type(void **state)
{
	struct topts o;
	assert_int_equal(opt_defaults(rows, &o), 0);
	assert_int_equal(opt_set(rows, &o, "size=512M", "t"), 0);
	assert_int_equal(o.size, 512ull << 20);
	assert_int_equal(opt_set(rows, &o, "count=42", "t"), 0);
	assert_int_equal(o.count, 42);
	assert_int_equal(opt_set(rows, &o, "ratio=2.25", "t"), 0);
	assert_float_equal(o.ratio, 2.25, 0);
	assert_int_equal(opt_set(rows, &o, "pages=1g", "t"), 0);
	assert_int_equal(o.pages, 4);
	assert_int_equal(opt_set(rows, &o, "name=hello world", NULL), 0);
	assert_string_equal(o.name, "hello world");
	assert_int_equal(opt_set_all(rows, &o, "size=4k count=3", "t"), 0);
	assert_int_equal(o.size, 4096);
	assert_int_equal(o.count, 3);
	assert_int_equal(opt_set_all(rows, &o, "count=5 bogus=1", "t"), -1);
	assert_int_equal(o.count, 5);
}

static void test_set_rejects(void **state)
{
	static const char *const bad[] = {
		"bogus=1",
		"size",
		"=5",
		"siz=1G",
		"sizes=1G",
		"size=1X",
		"size=",
		"size=-1G",
		"count=-1",
		"count=abc",
		"count=",
		"count=1.5",
		"count=99999999999999999999",
		"ratio=abc",
		"ratio=",
		"ratio=inf",
		"ratio=1x",
		"pages=bad",
		"pages=",
		"pages=4k,bad",
		"pages=,",
		"pages=4K",
	};
	struct topts o, before;
	char longv[OPT_STR_MAX + 8];
	assert_int_equal(opt_defaults(rows, &o), 0);
	before = o;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (opt_set(rows, &o, bad[i], "t") != -1)
			fail_msg("'%s' accepted", bad[i]);
		assert_memory_equal(&o, &before, sizeof(o));
	}
	memcpy(longv, "name=", 5);
	memset(longv + 5, 'x', OPT_STR_MAX);
	longv[5 + OPT_STR_MAX] = '\0';
	assert_int_equal(opt_set(rows, &o, longv, "t"), -1);
	assert_string_equal(o.name, "abc");
}

static void test_list(void **state)
{
	static const struct {
		const char *v;
		uint32_t mask;
	} good[] = {{"4k,thp", 3}, {"thp,4k", 3}, {"all", 7}, {"thp", 2}, {"1g,1g", 4}};
	const struct opt *pages = &rows[3];
	struct topts o;
	char buf[64];
	assert_int_equal(opt_defaults(rows, &o), 0);
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		char kv[64];
		snprintf(kv, sizeof(kv), "pages=%s", good[i].v);
		assert_int_equal(opt_set(rows, &o, kv, "t"), 0);
		assert_int_equal(o.pages, good[i].mask);
	}
	assert_int_equal(opt_choice_index(pages, "4k"), 0);
	assert_int_equal(opt_choice_index(pages, "1g"), 2);
	assert_int_equal(opt_choice_index(pages, "th"), -1);
	assert_string_equal(opt_choice_name(pages, 1, buf, sizeof(buf)), "thp");
}

static void test_format_value(void **state)
{
	struct topts o;
	char buf[64];
	assert_int_equal(opt_defaults(rows, &o), 0);
	assert_int_equal(
		opt_set_all(rows, &o, "size=524288K count=7 ratio=0.125 pages=thp,4k", "t"), 0);
	opt_format_value(&rows[0], &o, buf, sizeof(buf));
	assert_string_equal(buf, "512M");
	opt_format_value(&rows[1], &o, buf, sizeof(buf));
	assert_string_equal(buf, "7");
	opt_format_value(&rows[2], &o, buf, sizeof(buf));
	assert_string_equal(buf, "0.125");
	opt_format_value(&rows[3], &o, buf, sizeof(buf));
	assert_string_equal(buf, "4k,thp");
	o.pages = 7;
	opt_format_value(&rows[3], &o, buf, sizeof(buf));
	assert_string_equal(buf, "4k,thp,1g");
	opt_format_value(&rows[4], &o, buf, sizeof(buf));
	assert_string_equal(buf, "abc");
	/* Canonical text parses back to the same value. */
	o.pages = 5;
	opt_format_value(&rows[3], &o, buf, sizeof(buf));
	{
		char kv[80];
		uint32_t want = o.pages;
		snprintf(kv, sizeof(kv), "pages=%s", buf);
		o.pages = 0;
		assert_int_equal(opt_set(rows, &o, kv, "t"), 0);
		assert_int_equal(o.pages, want);
	}
}

static void test_help(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	opt_print_help(rows, f);
	fclose(f);
	assert_non_null(strstr(text, "size=<size>"));
	assert_non_null(strstr(text, "(default: 1G)"));
	assert_non_null(strstr(text, "choices: 4k|thp|1g"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size_good),
		cmocka_unit_test(test_parse_size_bad),
		cmocka_unit_test(test_format_size),
		cmocka_unit_test(test_format_size_round_trip),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_set_each_type),
		cmocka_unit_test(test_set_rejects),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_format_value),
		cmocka_unit_test(test_help),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
