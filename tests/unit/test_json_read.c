/* test_json_read.c - the strict field readers shared by the results, fleet
 * and comparison file readers: absent, null, required, wrong types, and the
 * one error line that names the file, its kind and the JSON path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "results/json_read.h"

static const struct jrd rd = {.kind = "mempath results", .what = "x.json", .path = "probes[2]"};

static json_t *doc(void)
{
	json_error_t e;
	json_t *o = json_loads("{\"s\": \"text\", \"n\": 2.5, \"i\": 7, \"neg\": -1, \"z\": null,"
			       " \"b\": true, \"l\": {\"k1\": \"v1\", \"k2\": \"v2\"},"
			       " \"bad_l\": {\"k\": 3}, \"a\": [\"x\", \"y\"], \"d\": [1, 2.5],"
			       " \"bad_a\": [\"x\", 1]}",
			       0, &e);
	assert_non_null(o);
	return o;
}

/* The error line the call printed to stderr, its newline removed. */
static char last_error[512];
static int quiet(int (*fn)(json_t *), json_t *o)
{
	FILE *tmp = tmpfile();
	int saved = dup(2), rc;
	size_t n;

	assert_non_null(tmp);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	rc = fn(o);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(last_error, 1, sizeof(last_error) - 1, tmp);
	last_error[n] = '\0';
	while (n > 0 && (last_error[n - 1] == '\n'))
		last_error[--n] = '\0';
	fclose(tmp);
	return rc;
}

static void test_str(void **state)
{
	json_t *o = doc();
	const char *s = "unset";
	char *c = NULL;

	assert_int_equal(jrd_str(&rd, o, "s", 1, &s), 0);
	assert_string_equal(s, "text");
	assert_int_equal(jrd_str(&rd, o, "z", 0, &s), 0); /* null: absent */
	assert_null(s);
	assert_int_equal(jrd_str(&rd, o, "nope", 0, &s), 0);
	assert_null(s);
	assert_int_equal(jrd_strdup(&rd, o, "s", 0, &c), 0);
	assert_string_equal(c, "text");
	free(c);
	json_decref(o);
}

static int str_required_missing(json_t *o)
{
	const char *s;
	return jrd_str(&rd, o, "nope", 1, &s);
}

static int str_wrong_type(json_t *o)
{
	char *s;
	return jrd_strdup(&rd, o, "n", 0, &s);
}

static void test_errors_name_the_path(void **state)
{
	json_t *o = doc();

	assert_int_equal(quiet(str_required_missing, o), -1);
	assert_non_null(strstr(last_error, "'x.json' is not a valid mempath results file: "
					   "probes[2].nope is missing"));
	assert_int_equal(quiet(str_wrong_type, o), -1);
	assert_non_null(strstr(last_error, "probes[2].n is not a string"));
	json_decref(o);
}

static void test_numbers(void **state)
{
	json_t *o = doc();
	double x;
	int64_t i = 42;
	size_t n;
	int b;

	assert_int_equal(jrd_num(&rd, o, "n", 1, NAN, &x), 0);
	assert_true(x == 2.5);
	assert_int_equal(jrd_num(&rd, o, "z", 1, INFINITY, &x), 0); /* null: the writer's NAN */
	assert_true(isinf(x));
	assert_int_equal(jrd_num(&rd, o, "nope", 0, 3.0, &x), 0);
	assert_true(x == 3.0);
	assert_int_equal(jrd_int(&rd, o, "nope", &i), 0); /* absent: left as it was */
	assert_int_equal(i, 42);
	assert_int_equal(jrd_int(&rd, o, "i", &i), 0);
	assert_int_equal(i, 7);
	assert_int_equal(jrd_count(&rd, o, "i", 1, &n), 0);
	assert_int_equal(n, 7);
	assert_int_equal(jrd_count(&rd, o, "nope", 0, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(jrd_bool(&rd, o, "b", 1, &b), 0);
	assert_int_equal(b, 1);
	json_decref(o);
}

static void add(void *arg, const char *k, const char *v)
{
	strcat(arg, k);
	strcat(arg, "=");
	strcat(arg, v);
	strcat(arg, ";");
}

static void test_labels_and_arrays(void **state)
{
	json_t *o = doc();
	char seen[64] = "";
	struct label *l;
	char **s;
	double *d;
	size_t n, cap;

	assert_int_equal(jrd_labels(&rd, o, "l", add, seen), 0);
	assert_string_equal(seen, "k1=v1;k2=v2;"); /* the file's order */
	assert_int_equal(jrd_label_array(&rd, o, "l", &l, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(l[1].key, "k2");
	assert_string_equal(l[1].value, "v2");
	for (size_t k = 0; k < n; k++) {
		free(l[k].key);
		free(l[k].value);
	}
	free(l);
	assert_int_equal(jrd_label_array(&rd, o, "z", &l, &n), 0);
	assert_null(l);
	assert_int_equal(n, 0);
	assert_int_equal(jrd_strs(&rd, o, "a", 1, NULL, NULL, &s, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(s[1], "y");
	assert_null(s[2]);
	free(s[0]);
	free(s[1]);
	free(s);
	assert_int_equal(jrd_strs(&rd, o, "z", 0, NULL, NULL, &s, &n), 0); /* null, optional */
	assert_int_equal(n, 0);
	assert_int_equal(jrd_doubles(&rd, o, "d", &d, &n, &cap), 0);
	assert_int_equal(n, 2);
	assert_true(d[1] == 2.5);
	free(d);
	json_decref(o);
}

static int bad_label(json_t *o)
{
	struct label *l;
	size_t n;
	int rc = jrd_label_array(&rd, o, "bad_l", &l, &n);
	free(l);
	return rc;
}

static int bad_array(json_t *o)
{
	char **s;
	size_t n;
	int rc = jrd_strs(&rd, o, "bad_a", 0, NULL, NULL, &s, &n);
	for (size_t k = 0; k < n; k++)
		free(s[k]);
	free(s);
	return rc;
}

static int null_required_array(json_t *o)
{
	char **s;
	size_t n;
	return jrd_strs(&rd, o, "z", 1, NULL, NULL, &s, &n);
}

static int negative_count(json_t *o)
{
	size_t n;
	return jrd_count(&rd, o, "neg", 0, &n);
}

static void test_refusals(void **state)
{
	json_t *o = doc();

	assert_int_equal(quiet(bad_label, o), -1);
	assert_non_null(strstr(last_error, "probes[2].bad_l has a value that is not a string"));
	assert_int_equal(quiet(bad_array, o), -1);
	assert_non_null(strstr(last_error, "probes[2].bad_a holds something that is not a string"));
	assert_int_equal(quiet(null_required_array, o), -1);
	assert_non_null(strstr(last_error, "probes[2].z is not an array"));
	assert_int_equal(quiet(negative_count, o), -1);
	assert_non_null(strstr(last_error, "probes[2].neg is not a count"));
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_str),	 cmocka_unit_test(test_errors_name_the_path),
		cmocka_unit_test(test_numbers),	 cmocka_unit_test(test_labels_and_arrays),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
