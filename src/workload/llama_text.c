/* llama_text.c - llama-bench's CSV, SQL and Markdown outputs, row by row
 * (llama_text.h, docs/design.md §11.1). */
#include "workload/llama_text.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* Fields llama-bench writes as numbers in JSON; in CSV, SQL and Markdown
 * they come as text and are turned back into numbers. */
static int numeric(const char *k)
{
	static const char *const nums[] = {
		"build_number", "model_size", "model_n_params", "n_batch",
		"n_ubatch",	"n_threads",  "poll",		"n_gpu_layers",
		"main_gpu",	"n_prompt",   "n_gen",		"n_depth",
		"avg_ns",	"stddev_ns",  "avg_ts",		"stddev_ts"};
	for (size_t i = 0; i < ARRAY_SIZE(nums); i++)
		if (strcmp(k, nums[i]) == 0)
			return 1;
	return 0;
}

/* llama-bench's Markdown column names and the fields behind them; a field
 * not listed keeps its own name. */
static const struct {
	const char *field, *column;
} columns[] = {{"model_type", "model"},
	       {"backends", "backend"},
	       {"n_gpu_layers", "ngl"},
	       {"n_threads", "threads"},
	       {"split_mode", "sm"},
	       {"no_kv_offload", "nkvo"},
	       {"flash_attn", "fa"},
	       {"tensor_split", "ts"},
	       {"use_mmap", "mmap"},
	       {"embeddings", "embd"},
	       {"model_filename", "model_file"}};

const char *llama_column_of(const char *field)
{
	for (size_t i = 0; i < ARRAY_SIZE(columns); i++)
		if (strcmp(columns[i].field, field) == 0)
			return columns[i].column;
	return field;
}

static const char *field_of(const char *column)
{
	for (size_t i = 0; i < ARRAY_SIZE(columns); i++)
		if (strcmp(columns[i].column, column) == 0)
			return columns[i].field;
	return column;
}

/* Text to a JSON value: a number when the field is numeric and the text is
 * all number, else the text. */
static json_t *typed(const char *field, const char *text)
{
	char *end;
	double d;
	/* decimal only: strtod's hex ("0x10" is not 16 here), inf and nan stay
	 * text, which the test's checks then name */
	if (numeric(field) && *text && !strpbrk(text, "xXnN")) {
		d = strtod(text, &end);
		if (*end == '\0' && isfinite(d)) {
			if (d == floor(d) && fabs(d) < 9.0e15 && !strpbrk(text, ".eE"))
				return json_integer((json_int_t)d);
			return json_real(d);
		}
	}
	return json_string(text);
}

int llama_is_test(json_t *o)
{
	return json_is_object(o) && json_object_get(o, "avg_ts") &&
	       json_object_get(o, "n_prompt") && json_object_get(o, "n_gen");
}

static int whole(json_t *v)
{
	double d = json_number_value(v);
	return json_is_number(v) && d == floor(d) && d >= 0 && d < 9.0e18;
}

/* NULL, or what is wrong with each number of the array of samples a test
 * may carry (samples_ts, samples_ns) */
static const char *samples_bad(json_t *o, const char *key, double max, char *buf, size_t len)
{
	json_t *a = json_object_get(o, key), *v;
	size_t i;
	if (!a)
		return NULL;
	if (!json_is_array(a))
		return snprintf(buf, len, "%s is not a list of numbers", key), buf;
	json_array_foreach (a, i, v) {
		double d = json_number_value(v);
		if (!json_is_number(v) || !isfinite(d))
			snprintf(buf, len, "%s[%zu] is not a number", key, i);
		else if (d < 0)
			snprintf(buf, len, "%s[%zu] = %g is negative", key, i, d);
		else if (d > max)
			snprintf(buf, len, "%s[%zu] = %g is past the plausible %g", key, i, d, max);
		else
			continue;
		return buf;
	}
	return NULL;
}

const char *llama_test_bad(json_t *o)
{
	static char buf[160];
	json_t *ts = json_object_get(o, "avg_ts");
	const char *bad;
	if (!whole(json_object_get(o, "n_prompt")) || !whole(json_object_get(o, "n_gen")))
		return "n_prompt and n_gen are not whole numbers >= 0";
	if (!json_is_number(ts) || !isfinite(json_number_value(ts)))
		return "avg_ts is not a number";
	if (json_number_value(ts) < 0)
		return "avg_ts is negative: not a rate";
	if (json_number_value(ts) > LLAMA_MAX_TS)
		return snprintf(buf, sizeof(buf), "avg_ts = %g is past the plausible %g tokens/s",
				json_number_value(ts), LLAMA_MAX_TS),
		       buf;
	if ((bad = samples_bad(o, "samples_ts", LLAMA_MAX_TS, buf, sizeof(buf))) ||
	    (bad = samples_bad(o, "samples_ns", LLAMA_MAX_NS, buf, sizeof(buf))))
		return bad;
	return NULL;
}

/* ---- CSV and SQL ---------------------------------------------------------- */

/* One line's comma-separated cells, RFC 4180 quotes ("" inside a quoted
 * cell is a quote). Returns the cells as a JSON array of strings. */
static json_t *csv_cells(const char *line, size_t len)
{
	json_t *cells = json_array();
	size_t i = 0;
	char *buf = xmalloc(len + 1);
	for (;;) {
		size_t n = 0;
		if (i < len && line[i] == '"') {
			for (i++; i < len; i++) {
				if (line[i] == '"' && i + 1 < len && line[i + 1] == '"')
					buf[n++] = line[i++];
				else if (line[i] == '"')
					break;
				else
					buf[n++] = line[i];
			}
			i++; /* the closing quote */
		}
		while (i < len && line[i] != ',' && line[i] != '\r')
			buf[n++] = line[i++];
		buf[n] = '\0';
		json_array_append_new(cells, json_string(buf));
		if (i >= len || line[i] != ',')
			break;
		i++;
	}
	free(buf);
	return cells;
}

static json_t *zip(json_t *names, json_t *cells)
{
	json_t *o = json_object(), *name;
	size_t i;
	json_array_foreach (names, i, name) {
		const char *k = json_string_value(name);
		json_object_set_new(o, k, typed(k, json_string_value(json_array_get(cells, i))));
	}
	return o;
}

static void next_line(const char **p, const char **line, size_t *len)
{
	const char *eol = strchr(*p, '\n');
	*line = *p;
	*len = eol ? (size_t)(eol - *p) : strlen(*p);
	*p += *len + (eol ? 1 : 0);
}

/* The header is the line that names build_commit, n_prompt and avg_ts. */
void llama_read_csv(const char *text, json_t *tests)
{
	json_t *names = NULL;
	for (const char *p = text, *line; *p;) {
		size_t len;
		json_t *cells;
		next_line(&p, &line, &len);
		cells = csv_cells(line, len);
		if (!names) {
			char *l = xasprintf("%.*s", (int)len, line);
			if (strstr(l, "build_commit") && strstr(l, "n_prompt") &&
			    strstr(l, "avg_ts") && !strchr(l, '"') && json_array_size(cells) > 3)
				names = json_incref(cells);
			free(l);
		} else if (json_array_size(cells) == json_array_size(names)) {
			json_t *o = zip(names, cells);
			if (llama_is_test(o))
				json_array_append(tests, o);
			json_decref(o);
		}
		json_decref(cells);
	}
	if (names)
		json_decref(names);
}

/* "INSERT INTO test (a, b) VALUES ('x', 'y');": llama-bench quotes every
 * value and escapes none, so a row whose value count is off is skipped. */
void llama_read_sql(const char *text, json_t *tests)
{
	static const char ins[] = "INSERT INTO test (", vals[] = ") VALUES (";
	for (const char *p = text, *line; *p;) {
		size_t len;
		char *l, *names_end, *v;
		json_t *names, *cells;
		next_line(&p, &line, &len);
		if (len < sizeof(ins) || strncmp(line, ins, sizeof(ins) - 1) != 0)
			continue;
		l = xasprintf("%.*s", (int)len, line + sizeof(ins) - 1);
		names_end = strstr(l, vals);
		if (!names_end) {
			free(l);
			continue;
		}
		*names_end = '\0';
		names = json_array();
		cells = json_array();
		for (char *save = NULL, *t = strtok_r(l, ", ", &save); t;
		     t = strtok_r(NULL, ", ", &save))
			json_array_append_new(names, json_string(t));
		for (v = names_end + sizeof(vals) - 1; *v == '\'';) {
			char *close = strstr(v + 1, "', '");
			if (!close)
				close = strstr(v + 1, "');");
			if (!close)
				break;
			json_array_append_new(cells, json_stringn(v + 1, (size_t)(close - v - 1)));
			v = close[1] == ',' ? close + 3 : close + 3 + strlen(close + 3);
		}
		if (json_array_size(cells) == json_array_size(names)) {
			json_t *o = zip(names, cells);
			if (llama_is_test(o))
				json_array_append(tests, o);
			json_decref(o);
		}
		json_decref(names);
		json_decref(cells);
		free(l);
	}
}

/* ---- Markdown ------------------------------------------------------------- */

/* "| a | b |" -> ["a", "b"] (cells trimmed). */
static json_t *md_cells(const char *line, size_t len)
{
	json_t *cells = json_array();
	char *l = xasprintf("%.*s", (int)len, line), *p = strchr(l, '|');
	while (p) {
		char *next = strchr(p + 1, '|');
		if (!next)
			break;
		*next = '\0';
		json_array_append_new(cells, json_string(str_trim(p + 1)));
		p = next;
	}
	free(l);
	return cells;
}

/* "pp512", "tg128", "pp512+tg128", "pp512 @ d4096" into o. */
static int md_test(const char *s, json_t *o)
{
	long long p = 0, g = 0, d = 0;
	char buf[64];
	size_t n = 0;
	int used = 0;
	for (; *s && n + 1 < sizeof(buf); s++)
		if (!isspace((unsigned char)*s))
			buf[n++] = *s;
	buf[n] = '\0';
	if (sscanf(buf, "pp%lld+tg%lld%n", &p, &g, &used) == 2 ||
	    (g = 0, sscanf(buf, "pp%lld%n", &p, &used) == 1) ||
	    (p = 0, sscanf(buf, "tg%lld%n", &g, &used) == 1)) {
		if (buf[used] == '@' && sscanf(buf + used, "@d%lld", &d) != 1)
			return -1;
		if (buf[used] != '@' && buf[used] != '\0')
			return -1;
		json_object_set_new(o, "n_prompt", json_integer(p));
		json_object_set_new(o, "n_gen", json_integer(g));
		if (d)
			json_object_set_new(o, "n_depth", json_integer(d));
		return 0;
	}
	return -1;
}

/* "70.18 ± 0.52": the mean and stddev of the repetitions. */
static int md_rate(const char *s, json_t *o)
{
	char *end;
	double avg = strtod(s, &end), sd;
	if (end == s || !isfinite(avg) || strpbrk(s, "xX")) {
		/* a row of the table all the same: kept as text, so the test's
		 * checks name it (llama_test_bad), never dropped unsaid */
		json_object_set_new(o, "avg_ts", json_string(s));
		return 0;
	}
	while (*end && !isdigit((unsigned char)*end) && *end != '.')
		end++; /* " ± " */
	sd = strtod(end, NULL);
	json_object_set_new(o, "avg_ts", json_real(avg));
	if (*end && isfinite(sd))
		json_object_set_new(o, "stddev_ts", json_real(sd));
	return 0;
}

void llama_read_md(const char *text, json_t *tests)
{
	json_t *head = NULL;
	long long number = -1;
	char commit[64] = "";
	size_t first = json_array_size(tests);
	for (const char *p = text, *line; *p;) {
		size_t len, i;
		json_t *cells, *c;
		next_line(&p, &line, &len);
		if (len > 7 && strncmp(line, "build: ", 7) == 0) {
			char *l = xasprintf("%.*s", (int)len, line);
			if (sscanf(l, "build: %63s (%lld)", commit, &number) != 2)
				commit[0] = '\0';
			free(l);
			continue;
		}
		if (len == 0 || line[0] != '|') {
			if (head)
				json_decref(head), head = NULL;
			continue;
		}
		cells = md_cells(line, len);
		if (!head) {
			int has_test = 0, has_ts = 0;
			json_array_foreach (cells, i, c) {
				has_test |= strcmp(json_string_value(c), "test") == 0;
				has_ts |= strcmp(json_string_value(c), "t/s") == 0;
			}
			if (has_test && has_ts)
				head = json_incref(cells);
		} else if (json_array_size(cells) == json_array_size(head) &&
			   strncmp(json_string_value(json_array_get(cells, 0)), "---", 3) != 0) {
			json_t *o = json_object();
			int ok = 1;
			json_array_foreach (head, i, c) {
				const char *col = json_string_value(c);
				const char *v = json_string_value(json_array_get(cells, i));
				if (strcmp(col, "test") == 0)
					ok &= md_test(v, o) == 0;
				else if (strcmp(col, "t/s") == 0)
					ok &= md_rate(v, o) == 0;
				else
					json_object_set_new(o, field_of(col),
							    typed(field_of(col), v));
			}
			if (ok && llama_is_test(o))
				json_array_append(tests, o);
			json_decref(o);
		}
		json_decref(cells);
	}
	if (head)
		json_decref(head);
	/* the build line comes after the table it belongs to */
	for (size_t i = first; *commit && i < json_array_size(tests); i++) {
		json_object_set_new(json_array_get(tests, i), "build_commit", json_string(commit));
		json_object_set_new(json_array_get(tests, i), "build_number", json_integer(number));
	}
}
