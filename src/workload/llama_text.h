/* llama_text.h - llama-bench's text formats (CSV with its header, SQL
 * INSERT statements, the Markdown table it prints by default), each row
 * read into a JSON object of its fields; llama.c makes one shape of them
 * (docs/design.md §11.1). Pure: text in, objects out. */
#ifndef MEMPATH_WORKLOAD_LLAMA_TEXT_H
#define MEMPATH_WORKLOAD_LLAMA_TEXT_H

#include <jansson.h>

/* Each appends to tests the rows it finds that hold a test (n_prompt,
 * n_gen and avg_ts). */
void llama_read_csv(const char *text, json_t *tests);
void llama_read_sql(const char *text, json_t *tests);
void llama_read_md(const char *text, json_t *tests);
/* A test row: an object with avg_ts, n_prompt and n_gen (llama_test_bad
 * says whether their numbers are good). */
int llama_is_test(json_t *o);
/* The plausible range of what llama-bench measures: a rate of tokens per
 * second in [0, LLAMA_MAX_TS] (the fastest prompt processing is near 1e5),
 * a repetition's time in [0, LLAMA_MAX_NS] ns (about 116 days). A value
 * past it is an edited or broken output, not a sample. */
#define LLAMA_MAX_TS 1e9
#define LLAMA_MAX_NS 1e16
/* NULL when a test's numbers are what llama-bench writes (n_prompt, n_gen
 * whole, avg_ts and each of samples_ts a finite rate in range, each of
 * samples_ns a time in range), else what is wrong with them (a static
 * buffer: valid until the next call). */
const char *llama_test_bad(json_t *o);
/* llama-bench's Markdown column name of a field ("use_mmap" -> "mmap"), or
 * the field's own name. */
const char *llama_column_of(const char *field);

#endif
