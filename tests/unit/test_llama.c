/* test_llama.c - llama-bench's outputs in every format it writes, recorded
 * from the real binary (tests/data/llama/: build c392e509 (4748), CPU, a
 * 162 M-parameter random-weight F16 model, `--mmap 0,1 -p 16 -n 4 -r 2`),
 * read into one shape: tests, their configuration labels, the settings. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "workload/llama.h"
#include "workload/llama_text.h"

static const char *label(const struct llama_test *t, const char *key)
{
	for (size_t i = 0; i < t->n_labels; i++)
		if (strcmp(t->labels[i].key, key) == 0)
			return t->labels[i].value;
	return NULL;
}

static const char *fact(const struct llama_output *o, const char *key)
{
	return json_string_value(json_object_get(o->facts, key));
}

static void read_fixture(const char *path, struct llama_output *o)
{
	char *text = read_file_str(path, NULL);
	assert_non_null(text);
	assert_int_equal(llama_read(text, o), 0);
	free(text);
}

/* Every format of one llama-bench call with two configurations: the same
 * four tests, labelled as llama-bench's own table labels them (mmap 0 /
 * mmap 1), and the same settings, in every format that writes them. */
static void test_every_format(void **state)
{
	static const struct {
		const char *file;
		enum llama_format format;
		double first_ts; /* avg_ts of pp16 at mmap 0, as the file has it */
	} files[] = {{"tests/data/llama/mmap01.json", LLAMA_JSON, 18.557480},
		     {"tests/data/llama/mmap01.jsonl", LLAMA_JSONL, 21.060663},
		     {"tests/data/llama/mmap01.csv", LLAMA_CSV, 5.299190},
		     {"tests/data/llama/mmap01.sql", LLAMA_SQL, 24.721438},
		     {"tests/data/llama/mmap01.md", LLAMA_MD, 11.65}};
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct llama_output o;
		read_fixture(files[f].file, &o);
		assert_int_equal(o.format, files[f].format);
		assert_int_equal(o.n, 4);
		assert_string_equal(o.tests[0].name, "pp16");
		assert_string_equal(o.tests[1].name, "tg4");
		assert_string_equal(o.tests[3].name, "tg4");
		assert_string_equal(label(&o.tests[0], "test"), "pp16");
		assert_string_equal(label(&o.tests[0], "mmap"), "0");
		assert_string_equal(label(&o.tests[3], "mmap"), "1");
		assert_null(label(&o.tests[0], "config"));
		assert_null(label(&o.tests[0], "threads")); /* the same in every test */
		assert_int_equal(o.tests[0].n_labels, 2);
		assert_true(fabs(o.tests[0].avg_ts - files[f].first_ts) < 1e-6);
		assert_true(isfinite(o.tests[0].stddev_ts));
		assert_string_equal(fact(&o, "build_commit"), "c392e509");
		assert_string_equal(fact(&o, "build_number"), "4748");
		assert_string_equal(fact(&o, "model_type"), "llama 1B F16");
		assert_string_equal(fact(&o, "n_threads"), "2");
		assert_string_equal(fact(&o, "use_mmap"), "0,1"); /* true/false read 1/0 */
		assert_null(json_object_get(o.facts, "avg_ts"));  /* a test's, not a setting */
		assert_null(json_object_get(o.facts, "test_time"));
		if (files[f].format == LLAMA_MD) {
			/* the table shows the model's size, not its bytes; no avg_ns */
			assert_string_equal(fact(&o, "size"), "309.85 MiB");
			assert_null(json_object_get(o.facts, "model_size"));
			assert_true(isnan(o.tests[0].avg_ns));
		} else {
			assert_string_equal(fact(&o, "model_size"), "324897792");
			assert_string_equal(fact(&o, "model_filename"), "models/m168.gguf");
			assert_string_equal(fact(&o, "split_mode"), "layer");
			assert_true(o.tests[0].avg_ns > 0);
		}
		/* repetitions and their times: JSON and JSONL only */
		if (files[f].format == LLAMA_JSON || files[f].format == LLAMA_JSONL) {
			assert_int_equal(json_array_size(o.tests[0].samples_ts), 2);
			assert_true(o.timed_s > 0);
		} else {
			assert_null(o.tests[0].samples_ts);
			assert_true(isnan(o.timed_s));
		}
		llama_output_free(&o);
	}
}

static void test_json_numbers(void **state)
{
	struct llama_output o;
	read_fixture("tests/data/llama/mmap01.json", &o);
	/* every samples_ns of the file, in seconds */
	assert_true(fabs(o.timed_s - (935688212.0 + 799390597 + 4232018256 + 3458573274 +
				      3940566418 + 3504256356 + 13585665089 + 7225953569) *
					     1e-9) < 1e-9);
	assert_true(fabs(o.tests[1].avg_ns - 3845295765.0) < 1);
	assert_int_equal(o.tests[1].n_gen, 4);
	assert_int_equal(o.tests[1].n_prompt, 0);
	llama_output_free(&o);
}

/* The default output (-o md) of a single configuration: no label but the
 * test; the build line's commit and number are facts. */
static void test_default_markdown(void **state)
{
	struct llama_output o;
	read_fixture("tests/data/llama/default.md", &o);
	assert_int_equal(o.format, LLAMA_MD);
	assert_int_equal(o.n, 2);
	assert_int_equal(o.tests[0].n_labels, 1);
	assert_true(fabs(o.tests[0].avg_ts - 8.71) < 1e-9);
	assert_true(fabs(o.tests[0].stddev_ts - 5.81) < 1e-9);
	assert_true(fabs(o.tests[1].avg_ts - 0.60) < 1e-9);
	assert_string_equal(fact(&o, "build_commit"), "c392e509");
	assert_string_equal(fact(&o, "backends"), "CPU");
	assert_null(json_object_get(o.facts, "use_mmap")); /* not a column here */
	llama_output_free(&o);
}

/* Shapes the recorded files do not have: a JSON array cut short, a depth
 * in a Markdown test name, quotes in CSV, a SQL value that breaks the row,
 * two tests that read the same, and text that is not llama-bench's. */
static void test_edges(void **state)
{
	struct llama_output o;
	const char *cut =
		"[\n  {\"n_prompt\": 0, \"n_gen\": 8, \"avg_ts\": 5.5, \"n_threads\": 4},\n"
		"  {\"n_prompt\": 0, \"n_gen\": 8, \"avg_ts\": 5.";
	const char *md = "| model | backend | sm | test | t/s |\n"
			 "| ----- | ------: | --: | ---: | ---: |\n"
			 "| llama 8B F16 | CUDA | layer | pp512 @ d4096 | 1234.50 \xc2\xb1 3.25 |\n"
			 "| llama 8B F16 | CUDA | row | pp512 @ d4096 | 1500.00 \xc2\xb1 1.00 |\n"
			 "\nbuild: abc123 (5000)\n";
	const char *csv = "build_commit,model_filename,n_prompt,n_gen,avg_ts\n"
			  "\"x\",\"a \"\"b\"\", c.gguf\",\"0\",\"4\",\"2.5\"\n"
			  "\"x\",\"short row\"\n";
	const char *sql = "INSERT INTO test (model_filename, n_prompt, n_gen, avg_ts) VALUES "
			  "('a', 'b.gguf', '0', '4', '1.0');\n"
			  "INSERT INTO test (model_filename, n_prompt, n_gen, avg_ts) VALUES "
			  "('ok.gguf', '0', '4', '3.0');\n";
	const char *twice = "{\"n_prompt\": 0, \"n_gen\": 8, \"avg_ts\": 5}\n"
			    "{\"n_prompt\": 0, \"n_gen\": 8, \"avg_ts\": 6}\n";
	assert_int_equal(llama_read(cut, &o), 0);
	assert_int_equal(o.n, 1);
	assert_int_equal(o.format, LLAMA_JSON);
	llama_output_free(&o);
	assert_int_equal(llama_read(md, &o), 0);
	assert_int_equal(o.format, LLAMA_MD);
	assert_string_equal(o.tests[1].name, "pp512@d4096");
	assert_string_equal(label(&o.tests[1], "sm"), "row");
	assert_true(fabs(o.tests[1].avg_ts - 1500) < 1e-9);
	assert_string_equal(fact(&o, "split_mode"), "layer,row");
	assert_string_equal(fact(&o, "build_number"), "5000");
	llama_output_free(&o);
	assert_int_equal(llama_read(csv, &o), 0);
	assert_int_equal(o.n, 1); /* the short row is no row */
	assert_string_equal(fact(&o, "model_filename"), "a \"b\", c.gguf");
	llama_output_free(&o);
	assert_int_equal(llama_read(sql, &o), 0);
	assert_int_equal(o.n, 1); /* five values for four fields: skipped */
	assert_true(fabs(o.tests[0].avg_ts - 3.0) < 1e-9);
	llama_output_free(&o);
	assert_int_equal(llama_read(twice, &o), 0);
	assert_string_equal(label(&o.tests[0], "config"), "1");
	assert_string_equal(label(&o.tests[1], "config"), "2");
	llama_output_free(&o);
	assert_int_equal(llama_read("bandwidth 20 GB/s\n| a | b |\n", &o), -1);
	assert_int_equal(o.n, 0);
	assert_int_equal(llama_read("", &o), -1);
	/* a table of llama-bench's that no row of could be read is named */
	assert_true(llama_looks_unread("| model | size | test |\n"));
	assert_false(llama_looks_unread("bandwidth 20 GB/s\n"));
}

/* numbers past what llama-bench can measure are no samples: the test is
 * left out (llama_read warns), and the reason names the value */
static void test_plausible_range(void **state)
{
	static const struct {
		const char *json, *why; /* NULL: kept */
	} cases[] = {
		{"{\"n_prompt\": 0, \"n_gen\": 4, \"avg_ts\": 5, \"samples_ts\": [4, 6]}", NULL},
		{"{\"n_prompt\": 0, \"n_gen\": 4, \"avg_ts\": 5, \"samples_ts\": [1e308, -1]}",
		 "samples_ts[0] = 1e+308 is past the plausible 1e+09"},
		{"{\"n_prompt\": 0, \"n_gen\": 4, \"avg_ts\": 5, \"samples_ts\": [4, -1]}",
		 "samples_ts[1] = -1 is negative"},
		{"{\"n_prompt\": 0, \"n_gen\": 4, \"avg_ts\": 5, \"samples_ts\": [4, \"x\"]}",
		 "samples_ts[1] is not a number"},
		{"{\"n_prompt\": 0, \"n_gen\": 4, \"avg_ts\": 5, \"samples_ts\": 7}",
		 "samples_ts is not a list of numbers"},
		{"{\"n_prompt\": 0, \"n_gen\": 4, \"avg_ts\": 2e9}",
		 "avg_ts = 2e+09 is past the plausible 1e+09 tokens/s"},
		{"{\"n_prompt\": 0, \"n_gen\": 4, \"avg_ts\": 5, \"samples_ns\": [1e300]}",
		 "samples_ns[0] = 1e+300 is past the plausible 1e+16"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *o = json_loads(cases[i].json, 0, NULL);
		const char *why;
		struct llama_output out;

		assert_non_null(o);
		why = llama_test_bad(o);
		if (!cases[i].why)
			assert_null(why);
		else {
			assert_non_null(why);
			assert_string_equal(why, cases[i].why);
		}
		json_decref(o);
		/* through the reader: a bad test is not a sample */
		assert_int_equal(llama_read(cases[i].json, &out), cases[i].why ? -1 : 0);
		if (!cases[i].why)
			llama_output_free(&out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_format),	 cmocka_unit_test(test_json_numbers),
		cmocka_unit_test(test_default_markdown), cmocka_unit_test(test_edges),
		cmocka_unit_test(test_plausible_range),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
