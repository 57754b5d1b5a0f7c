/* workload_parse.c - what a workload says about itself: llama-bench (any of
 * its formats, read by llama.c), generic JSON lines, "name value unit"
 * lines. Pure (text in, values out) so every format is tested on fixtures;
 * JSON through jansson. */
#include "workload/workload_parse.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static const char *const parse_names[] = {"auto", "llama-bench", "jsonl", "lines", "none"};

int workload_parse_mode(const char *s, enum workload_parse *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(parse_names); i++)
		if (strcmp(s, parse_names[i]) == 0) {
			*out = (enum workload_parse)i;
			return 0;
		}
	return -1;
}

const char *workload_parse_name(enum workload_parse m)
{
	return (unsigned)m < ARRAY_SIZE(parse_names) ? parse_names[m] : "?";
}

void workload_unit_guess(const char *text, enum unit *unit, enum better *better)
{
	static const struct {
		const char *text;
		enum unit unit;
	} aliases[] = {{"t/s", UNIT_TOKENS_S},
		       {"tokens/s", UNIT_TOKENS_S},
		       {"tok/sec", UNIT_TOKENS_S},
		       {"tokens/sec", UNIT_TOKENS_S},
		       {"sec", UNIT_S},
		       {"seconds", UNIT_S},
		       {"msec", UNIT_MS},
		       {"usec", UNIT_US},
		       {"nsec", UNIT_NS},
		       {"bytes", UNIT_BYTES}};
	size_t len = text ? strlen(text) : 0;
	*unit = UNIT_NONE;
	*better = BETTER_NONE;
	if (!text || !*text)
		return;
	if (unit_parse(text, unit) != 0) {
		*unit = UNIT_NONE;
		for (size_t i = 0; i < ARRAY_SIZE(aliases); i++)
			if (strcmp(text, aliases[i].text) == 0)
				*unit = aliases[i].unit;
	}
	/* Direction from the unit alone: a rate is better higher, a time lower;
	 * anything else (sizes, counts) says nothing about better. */
	if ((len > 2 && strcmp(text + len - 2, "/s") == 0) ||
	    (len > 4 && strcmp(text + len - 4, "/sec") == 0))
		*better = BETTER_HIGHER;
	else if (*unit == UNIT_NS || *unit == UNIT_US || *unit == UNIT_MS || *unit == UNIT_S)
		*better = BETTER_LOWER;
}

static int same_labels(const struct workload_value *a, const struct workload_value *b)
{
	if (a->n_labels != b->n_labels)
		return 0;
	for (size_t i = 0; i < a->n_labels; i++)
		if (strcmp(a->labels[i].key, b->labels[i].key) != 0 ||
		    strcmp(a->labels[i].value, b->labels[i].value) != 0)
			return 0;
	return 1;
}

static void value_clear(struct workload_value *v)
{
	free(v->name);
	free(v->unit_text);
	for (size_t i = 0; i < v->n_labels; i++) {
		free(v->labels[i].key);
		free(v->labels[i].value);
	}
	if (v->reps)
		json_decref(v->reps);
	memset(v, 0, sizeof(*v));
}

/* Takes v (moved in). A name and labels seen before: the last value wins. */
static void values_push(struct workload_values *out, struct workload_value *v)
{
	for (size_t i = 0; i < out->n; i++)
		if (strcmp(out->items[i].name, v->name) == 0 && same_labels(&out->items[i], v)) {
			value_clear(&out->items[i]);
			out->items[i] = *v;
			memset(v, 0, sizeof(*v));
			return;
		}
	if (out->n == out->cap) {
		out->cap = out->cap ? 2 * out->cap : 16;
		out->items = xrealloc(out->items, out->cap * sizeof(*out->items));
	}
	out->items[out->n++] = *v;
	memset(v, 0, sizeof(*v));
}

static void value_label(struct workload_value *v, const char *k, const char *val)
{
	if (v->n_labels < WORKLOAD_MAX_LABELS) {
		v->labels[v->n_labels].key = xstrdup(k);
		v->labels[v->n_labels].value = xstrdup(val);
		v->n_labels++;
	}
}

void workload_values_free(struct workload_values *v)
{
	for (size_t i = 0; i < v->n; i++)
		value_clear(&v->items[i]);
	free(v->items);
	if (v->facts)
		json_decref(v->facts);
	memset(v, 0, sizeof(*v));
}

/* ---- llama-bench --------------------------------------------------------- */

static struct workload_value llama_value(const struct llama_test *t, const char *name)
{
	struct workload_value v;
	memset(&v, 0, sizeof(v));
	v.name = xstrdup(name);
	for (size_t k = 0; k < t->n_labels; k++)
		value_label(&v, t->labels[k].key, t->labels[k].value);
	v.spread = NAN;
	return v;
}

int workload_parse_llama(const char *text, struct workload_values *out)
{
	struct llama_output lo;
	if (llama_read(text, &lo) != 0)
		return -1;
	for (size_t i = 0; i < lo.n; i++) {
		const struct llama_test *t = &lo.tests[i];
		struct workload_value v = llama_value(t, "tokens_per_s");
		v.unit = UNIT_TOKENS_S;
		v.better = BETTER_HIGHER;
		v.value = t->avg_ts;
		v.spread = t->stddev_ts;
		v.reps = t->samples_ts ? json_incref(t->samples_ts) : NULL;
		values_push(out, &v);
		/* per token, from the mean time of a repetition (docs/design.md §11.3) */
		if (isfinite(t->avg_ns) && t->n_prompt + t->n_gen > 0) {
			v = llama_value(t, "ms_per_token");
			v.unit = UNIT_MS;
			v.better = BETTER_LOWER;
			v.value = t->avg_ns * 1e-6 / (double)(t->n_prompt + t->n_gen);
			values_push(out, &v);
		}
	}
	if (out->facts)
		json_decref(out->facts);
	out->facts = json_incref(lo.facts);
	snprintf(out->format, sizeof(out->format), "%s", llama_format_name(lo.format));
	out->timed_s = lo.timed_s;
	llama_output_free(&lo);
	return 0;
}

/* ---- JSON lines ---------------------------------------------------------- */

static void push_number(struct workload_values *out, const char *name, double value,
			const char *unit)
{
	struct workload_value v;
	if (!*name || !isfinite(value)) /* no name to join on, or no number */
		return;
	memset(&v, 0, sizeof(v));
	v.name = xstrdup(name);
	v.value = value;
	v.spread = NAN;
	workload_unit_guess(unit, &v.unit, &v.better);
	if (unit && *unit && v.unit == UNIT_NONE)
		v.unit_text = xstrdup(unit);
	values_push(out, &v);
}

int workload_parse_jsonl(const char *text, struct workload_values *out)
{
	size_t before = out->n;
	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		const char *q = p;
		json_error_t err;
		json_t *o = NULL;
		while (q < p + len && isspace((unsigned char)*q))
			q++;
		if (q < p + len && *q == '{')
			o = json_loadb(q, len - (size_t)(q - p), 0, &err);
		if (json_is_object(o)) {
			json_t *name = json_object_get(o, "name"),
			       *val = json_object_get(o, "value");
			json_t *unit = json_object_get(o, "unit");
			if (!json_is_string(name))
				name = json_object_get(o, "metric");
			if (json_is_string(name) && json_is_number(val)) {
				push_number(out, json_string_value(name), json_number_value(val),
					    json_is_string(unit) ? json_string_value(unit) : NULL);
			} else {
				const char *k;
				json_t *v;
				json_object_foreach (o, k, v)
					if (json_is_number(v))
						push_number(out, k, json_number_value(v), NULL);
			}
		}
		if (o)
			json_decref(o);
		p += len;
		if (*p == '\n')
			p++;
	}
	return out->n > before ? 0 : -1;
}

/* ---- name value unit lines ----------------------------------------------- */

static int name_char(int c, int first)
{
	return isalpha(c) || c == '_' ||
	       (!first && (isdigit(c) || c == '.' || c == ':' || c == '/' || c == '-'));
}

int workload_parse_lines(const char *text, struct workload_values *out)
{
	size_t before = out->n;
	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char *line = xmalloc(len + 1), *tok[4], *save = NULL, *t;
		size_t nt = 0, nl;
		memcpy(line, p, len);
		line[len] = '\0';
		/* "name=value" and "name: value" read like "name value". */
		for (char *c = line; *c && !isspace((unsigned char)*c); c++)
			if (*c == '=') {
				*c = ' ';
				break;
			}
		for (t = strtok_r(line, " \t\r", &save); t && nt < 4;
		     t = strtok_r(NULL, " \t\r", &save))
			tok[nt++] = t;
		if (nt >= 2 && nt <= 3) {
			char *end;
			double v;
			int ok = name_char((unsigned char)tok[0][0], 1);
			nl = strlen(tok[0]);
			if (nl > 1 && tok[0][nl - 1] == ':')
				tok[0][--nl] = '\0';
			for (size_t i = 1; ok && i < nl; i++)
				ok = name_char((unsigned char)tok[0][i], 0);
			v = strtod(tok[1], &end);
			if (ok && end != tok[1] && *end == '\0' && isfinite(v))
				push_number(out, tok[0], v, nt == 3 ? tok[2] : NULL);
		}
		free(line);
		p += len;
		if (*p == '\n')
			p++;
	}
	return out->n > before ? 0 : -1;
}

enum workload_parse workload_parse_output(const char *text, enum workload_parse mode,
					  struct workload_values *out)
{
	if (!text)
		return WORKLOAD_PARSE_NONE;
	switch (mode) {
	case WORKLOAD_PARSE_AUTO:
		if (workload_parse_llama(text, out) == 0)
			return WORKLOAD_PARSE_LLAMA;
		if (workload_parse_jsonl(text, out) == 0)
			return WORKLOAD_PARSE_JSONL;
		if (workload_parse_lines(text, out) == 0)
			return WORKLOAD_PARSE_LINES;
		return WORKLOAD_PARSE_NONE;
	case WORKLOAD_PARSE_LLAMA:
		return workload_parse_llama(text, out) == 0 ? mode : WORKLOAD_PARSE_NONE;
	case WORKLOAD_PARSE_JSONL:
		return workload_parse_jsonl(text, out) == 0 ? mode : WORKLOAD_PARSE_NONE;
	case WORKLOAD_PARSE_LINES:
		return workload_parse_lines(text, out) == 0 ? mode : WORKLOAD_PARSE_NONE;
	case WORKLOAD_PARSE_NONE:
		break;
	}
	return WORKLOAD_PARSE_NONE;
}
