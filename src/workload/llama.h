/* llama.h - llama-bench's output in every format it writes (-o md, the
 * default; csv, json, jsonl, sql) read into one shape: one test per row
 * with its fields, its numbers, the labels that tell its configuration
 * apart from the others in the same output, and the facts that hold for
 * the whole output (build, model, settings), docs/design.md §11.1.
 *
 * Pure: text in, tests out, so every format is tested on outputs recorded
 * from the real binary (tests/data/llama/).
 *
 * Ownership: llama_output_free() releases everything in it.
 */
#ifndef MEMPATH_WORKLOAD_LLAMA_H
#define MEMPATH_WORKLOAD_LLAMA_H

#include <jansson.h>
#include <stddef.h>

#include "results/results.h"

#define LLAMA_MAX_LABELS 6 /* fields that differ between configurations, labelled */

enum llama_format { LLAMA_NONE = 0, LLAMA_JSON, LLAMA_JSONL, LLAMA_CSV, LLAMA_SQL, LLAMA_MD };

struct llama_test {
	char name[64];	/* pp512, tg128, pp512+tg128, "@d<n>" appended for a depth */
	json_t *fields; /* every field as read; numbers as numbers */
	long long n_prompt, n_gen;
	double avg_ts, stddev_ts;	 /* stddev NAN when absent */
	double avg_ns;			 /* NAN when absent (md has none) */
	json_t *samples_ts, *samples_ns; /* arrays, or NULL (csv, sql, md have none) */
	/* The configuration: llama-bench's column names ("mmap", "threads",
	 * "sm") of the fields that differ between the tests of this output;
	 * "config" = k-th when two tests would still read the same. */
	struct label labels[LLAMA_MAX_LABELS + 1];
	size_t n_labels;
};

struct llama_output {
	enum llama_format format;
	struct llama_test *tests;
	size_t n;
	/* Field -> text for every field that is not the test's own numbers
	 * (build_commit, model_type, n_threads, use_mmap, ...): its value,
	 * or the distinct values in order joined by "," where tests differ.
	 * Booleans read "0"/"1" in every format. */
	json_t *facts;
	/* Seconds inside llama-bench's timed repetitions (the sum of every
	 * samples_ns); NAN when a test has none. */
	double timed_s;
};

/* Reads llama-bench output in any format; 0 with at least one test, else -1
 * (out left empty). */
int llama_read(const char *text, struct llama_output *out);
void llama_output_free(struct llama_output *o);
/* "json", "jsonl", "csv", "sql", "md", or "none". */
const char *llama_format_name(enum llama_format f);
/* Does this text look like llama-bench wrote it in a form no reader takes
 * (its Markdown header, its CSV header, its SQL, its build line)? */
int llama_looks_unread(const char *text);

#endif
