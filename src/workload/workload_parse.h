/* workload_parse.h - what a workload says about itself: its own numbers
 * from llama-bench (any of its output formats, llama.h), JSON lines or
 * "name value unit" lines. Pure: text in, values out, so every format is
 * tested on fixtures.
 *
 * Ownership: the values own their strings; workload_values_free() releases
 * them.
 */
#ifndef MEMPATH_WORKLOAD_PARSE_H
#define MEMPATH_WORKLOAD_PARSE_H

#include <jansson.h>
#include <stddef.h>

#include "results/results.h"
#include "workload/llama.h"

#define WORKLOAD_MAX_LABELS (LLAMA_MAX_LABELS + 1)

enum workload_parse {
	WORKLOAD_PARSE_AUTO = 0, /* llama-bench, else JSON lines, else name value lines */
	WORKLOAD_PARSE_LLAMA,	 /* llama-bench, any -o: md, csv, json, jsonl, sql */
	WORKLOAD_PARSE_JSONL,	 /* one JSON object per line */
	WORKLOAD_PARSE_LINES,	 /* "name value [unit]" lines */
	WORKLOAD_PARSE_NONE,	 /* rusage and counters only */
};

struct workload_value {
	char *name; /* metric name: "tokens_per_s", or the workload's own name */
	struct label labels[WORKLOAD_MAX_LABELS];
	size_t n_labels;
	enum unit unit;
	char *unit_text; /* the unit as written when not one of ours ("MB/s"); or NULL */
	enum better better;
	double value;
	double spread; /* llama-bench stddev_ts over its own repetitions; NAN if none */
	json_t *reps;  /* llama-bench samples_ts (new reference) or NULL */
};

struct workload_values {
	struct workload_value *items;
	size_t n, cap;
	/* llama-bench only: its settings and build (llama.h's facts), the
	 * format it wrote, and the seconds inside its timed repetitions (NAN:
	 * unknown). NULL / "" / NAN otherwise. */
	json_t *facts;
	char format[8];
	double timed_s;
};

/* "auto", "llama-bench", "jsonl", "lines", "none" -> mode; 0 or -1. */
int workload_parse_mode(const char *s, enum workload_parse *out);
const char *workload_parse_name(enum workload_parse m);

/* llama-bench output in any format (llama.h). A test is pp<n_prompt> when
 * n_gen == 0, tg<n_gen> when n_prompt == 0, pp<p>+tg<g> otherwise,
 * "@d<n_depth>" appended when n_depth > 0. Each gives "tokens_per_s"
 * (tok/s, avg_ts; stddev_ts and samples_ts kept) and, where avg_ns is
 * written (all but md), "ms_per_token" (avg_ns / (n_prompt + n_gen)),
 * labelled test=<name> and by the llama-bench columns that differ between
 * its configurations (mmap=0, threads=8, sm=row), config=<k> when two
 * still read the same. Returns 0 with at least one test, else -1. */
int workload_parse_llama(const char *text, struct workload_values *out);
/* JSON lines: {"name": N, "value": V, "unit": U} gives one value; any other
 * object gives one value per numeric top-level field. Returns 0 or -1 (none). */
int workload_parse_jsonl(const char *text, struct workload_values *out);
/* "name value [unit]" lines (also "name: value" and "name=value"): a name is
 * [A-Za-z_][A-Za-z0-9_.:/-]*, the value a whole number token. Other lines
 * are ignored. Returns 0 or -1 (none). */
int workload_parse_lines(const char *text, struct workload_values *out);
/* Applies mode (auto tries llama-bench, JSON lines, lines in that order);
 * a name seen twice keeps the last value. Returns the mode that found
 * values, or WORKLOAD_PARSE_NONE. */
enum workload_parse workload_parse_output(const char *text, enum workload_parse mode,
					  struct workload_values *out);
void workload_values_free(struct workload_values *v);
/* Unit and better-direction for a unit as written: "t/s" -> tok/s, higher. */
void workload_unit_guess(const char *text, enum unit *unit, enum better *better);

#endif
