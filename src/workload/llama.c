/* llama.c - llama-bench's five output formats read into one shape
 * (llama.h): JSON objects (an array, or one a line), CSV with its header,
 * SQL INSERT statements and the Markdown table it prints by default.
 * docs/design.md §11.1. */
#include "workload/llama.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "workload/llama_text.h"

static const char *const format_names[] = {"none", "json", "jsonl", "csv", "sql", "md"};

const char *llama_format_name(enum llama_format f)
{
	return (unsigned)f < ARRAY_SIZE(format_names) ? format_names[f] : "?";
}

/* The fields that belong to one test, not to the configuration. */
static int per_test(const char *k)
{
	static const char *const own[] = {"n_prompt",	"n_gen",      "n_depth", "test_time",
					  "avg_ns",	"stddev_ns",  "avg_ts",	 "stddev_ts",
					  "samples_ns", "samples_ts", "test",	 "t/s"};
	for (size_t i = 0; i < ARRAY_SIZE(own); i++)
		if (strcmp(k, own[i]) == 0)
			return 1;
	return 0;
}

/* A value as text, the same in every format: booleans "0"/"1", whole
 * numbers without a point. New string. */
static char *value_text(json_t *v)
{
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	if (json_is_true(v))
		return xstrdup("1");
	if (json_is_false(v))
		return xstrdup("0");
	if (json_is_integer(v))
		return xasprintf("%lld", (long long)json_integer_value(v));
	if (json_is_real(v))
		return xasprintf("%.15g", json_real_value(v));
	return xstrdup("");
}

static int get_int(json_t *o, const char *key, long long *out)
{
	json_t *v = json_object_get(o, key);
	double d;
	if (json_is_integer(v)) {
		*out = (long long)json_integer_value(v);
		return 0;
	}
	if (!json_is_real(v))
		return -1;
	d = json_real_value(v);
	/* a whole number that fits: 1e300 does not (casting it is undefined) */
	if (d != floor(d) || fabs(d) >= 9.0e18)
		return -1;
	*out = (long long)d;
	return 0;
}

static double get_num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* ---- JSON and JSON lines ------------------------------------------------- */

/* Every object that starts a line (after blanks) and parses: the elements
 * of a -o json array, whole or cut short, and -o jsonl lines alike. */
static void read_objects(const char *text, json_t *tests)
{
	const char *p = text;
	while (*p) {
		const char *q = p;
		while (*q == ' ' || *q == '\t' || *q == '[' || *q == ',')
			q++;
		if (*q == '{') {
			json_error_t err;
			json_t *o = json_loadb(q, strlen(q), JSON_DISABLE_EOF_CHECK, &err);
			if (o && llama_is_test(o)) {
				json_array_append(tests, o);
				p = q + err.position;
				json_decref(o);
				continue;
			}
			if (o)
				json_decref(o);
		}
		p = strchr(q, '\n');
		if (!p)
			break;
		p++;
	}
}

/* ---- one shape ------------------------------------------------------------ */

static void test_name(json_t *o, char *buf, size_t len)
{
	long long p = 0, g = 0, d = 0;
	get_int(o, "n_prompt", &p);
	get_int(o, "n_gen", &g);
	get_int(o, "n_depth", &d);
	if (g == 0)
		snprintf(buf, len, "pp%lld", p);
	else if (p == 0)
		snprintf(buf, len, "tg%lld", g);
	else
		snprintf(buf, len, "pp%lld+tg%lld", p, g);
	if (d > 0) {
		size_t used = strlen(buf);
		snprintf(buf + used, len - used, "@d%lld", d);
	}
}

static void add_label(struct llama_test *t, const char *k, const char *v)
{
	t->labels[t->n_labels].key = xstrdup(k);
	t->labels[t->n_labels].value = xstrdup(v);
	t->n_labels++;
}

/* Facts over all tests; the fields that differ label each test. */
static void facts_and_labels(struct llama_output *out)
{
	json_t *keys = json_object(), *dummy;
	const char *k;
	int file_differs = 0;
	out->facts = json_object();
	for (size_t i = 0; i < out->n; i++) {
		json_t *v;
		json_object_foreach (out->tests[i].fields, k, v)
			if (!per_test(k))
				json_object_set_new(keys, k, json_true());
	}
	json_object_foreach (keys, k, dummy) {
		json_t *seen = json_array();
		char *joined = NULL;
		for (size_t i = 0; i < out->n; i++) {
			json_t *v = json_object_get(out->tests[i].fields, k);
			char *s;
			size_t j;
			json_t *x;
			int dup = 0;
			if (!v) /* a test without the field neither agrees nor differs */
				continue;
			s = value_text(v);
			json_array_foreach (seen, j, x)
				dup |= strcmp(json_string_value(x), s) == 0;
			if (!dup)
				json_array_append_new(seen, json_string(s));
			free(s);
		}
		for (size_t j = 0; j < json_array_size(seen); j++) {
			char *t = xasprintf("%s%s%s", joined ? joined : "", joined ? "," : "",
					    json_string_value(json_array_get(seen, j)));
			free(joined);
			joined = t;
		}
		json_object_set_new(out->facts, k, json_string(joined));
		if (json_array_size(seen) > 1) {
			json_object_set_new(keys, k, json_false()); /* false: labels */
			file_differs |= strcmp(k, "model_filename") == 0;
		}
		free(joined);
		json_decref(seen);
	}
	/* in llama-bench's field order where it has one (JSON objects keep it) */
	for (size_t i = 0; i < out->n; i++) {
		struct llama_test *t = &out->tests[i];
		json_t *v;
		add_label(t, "test", t->name);
		json_object_foreach (t->fields, k, v) {
			char *s;
			if (!json_is_false(json_object_get(keys, k)) ||
			    t->n_labels > LLAMA_MAX_LABELS - 1)
				continue;
			/* the model's type, size and count follow from its file */
			if (file_differs &&
			    (strcmp(k, "model_type") == 0 || strcmp(k, "model_size") == 0 ||
			     strcmp(k, "model_n_params") == 0))
				continue;
			s = value_text(v);
			if (strcmp(k, "model_filename") == 0 && strrchr(s, '/'))
				memmove(s, strrchr(s, '/') + 1, strlen(strrchr(s, '/')));
			add_label(t, llama_column_of(k), s);
			free(s);
		}
	}
	json_decref(keys);
}

/* Tests that still read the same (the same test, no field differing) get
 * config=k, the k-th of them. */
static int same_labels(const struct llama_test *a, const struct llama_test *b)
{
	if (a->n_labels != b->n_labels)
		return 0;
	for (size_t i = 0; i < a->n_labels; i++)
		if (strcmp(a->labels[i].key, b->labels[i].key) ||
		    strcmp(a->labels[i].value, b->labels[i].value))
			return 0;
	return 1;
}

static void number_repeats(struct llama_output *out)
{
	size_t *ord = xcalloc(out->n + 1, sizeof(*ord));
	for (size_t i = 0; i < out->n; i++) {
		size_t dup = 0, k = 0;
		for (size_t j = 0; j < out->n; j++)
			if (same_labels(&out->tests[i], &out->tests[j])) {
				dup++;
				if (j <= i)
					k++;
			}
		ord[i] = dup > 1 ? k : 0;
	}
	for (size_t i = 0; i < out->n; i++)
		if (ord[i]) {
			char buf[24];
			snprintf(buf, sizeof(buf), "%zu", ord[i]);
			add_label(&out->tests[i], "config", buf);
		}
	free(ord);
}

int llama_read(const char *text, struct llama_output *out)
{
	json_t *tests = json_array(), *o;
	const char *p = text;
	size_t i;
	memset(out, 0, sizeof(*out));
	while (isspace((unsigned char)*p))
		p++;
	read_objects(text, tests);
	if (json_array_size(tests))
		out->format = *p == '[' ? LLAMA_JSON : LLAMA_JSONL;
	else if (llama_read_csv(text, tests), json_array_size(tests))
		out->format = LLAMA_CSV;
	else if (llama_read_sql(text, tests), json_array_size(tests))
		out->format = LLAMA_SQL;
	else if (llama_read_md(text, tests), json_array_size(tests))
		out->format = LLAMA_MD;
	/* a test row with numbers llama-bench never writes (a negative rate,
	 * 1e999, nan, a hex count) is left out, and said */
	i = 0;
	for (size_t row = 1; i < json_array_size(tests); row++) {
		const char *bad = llama_test_bad(json_array_get(tests, i));
		if (bad) {
			warning("llama-bench test %zu left out: %s", row, bad);
			json_array_remove(tests, i);
		} else {
			i++;
		}
	}
	out->n = json_array_size(tests);
	if (out->n == 0) {
		json_decref(tests);
		return -1;
	}
	out->tests = xcalloc(out->n, sizeof(*out->tests));
	out->timed_s = 0;
	json_array_foreach (tests, i, o) {
		struct llama_test *t = &out->tests[i];
		json_t *sns = json_object_get(o, "samples_ns"),
		       *sts = json_object_get(o, "samples_ts");
		get_int(o, "n_prompt", &t->n_prompt);
		get_int(o, "n_gen", &t->n_gen);
		test_name(o, t->name, sizeof(t->name));
		t->fields = json_incref(o);
		t->avg_ts = get_num(o, "avg_ts");
		t->stddev_ts = get_num(o, "stddev_ts");
		t->avg_ns = get_num(o, "avg_ns");
		t->samples_ts = json_is_array(sts) ? json_incref(sts) : NULL;
		t->samples_ns = json_is_array(sns) ? json_incref(sns) : NULL;
		if (!t->samples_ns)
			out->timed_s = NAN;
		for (size_t k = 0; t->samples_ns && k < json_array_size(t->samples_ns); k++)
			out->timed_s += json_number_value(json_array_get(t->samples_ns, k)) * 1e-9;
	}
	json_decref(tests);
	facts_and_labels(out);
	number_repeats(out);
	return 0;
}

void llama_output_free(struct llama_output *o)
{
	for (size_t i = 0; i < o->n; i++) {
		struct llama_test *t = &o->tests[i];
		json_decref(t->fields);
		if (t->samples_ts)
			json_decref(t->samples_ts);
		if (t->samples_ns)
			json_decref(t->samples_ns);
		for (size_t k = 0; k < t->n_labels; k++) {
			free(t->labels[k].key);
			free(t->labels[k].value);
		}
	}
	free(o->tests);
	if (o->facts)
		json_decref(o->facts);
	memset(o, 0, sizeof(*o));
}

int llama_looks_unread(const char *text)
{
	return strstr(text, "| model ") || strstr(text, "\nbuild: ") ||
	       strncmp(text, "build: ", 7) == 0 || strstr(text, "INSERT INTO test") ||
	       strstr(text, "build_commit");
}
