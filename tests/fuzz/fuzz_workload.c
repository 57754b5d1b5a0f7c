/* fuzz_workload.c - libFuzzer target for the parsers of a wrapped workload's
 * output (llama-bench in each of its formats: md, csv, json, jsonl, sql;
 * JSON lines, "name value unit" lines, and auto): whatever a command prints,
 * each parser returns values or none, never crashes, never reads past the
 * text; every value it returns has a name, a finite value, labels it owns,
 * and can be recorded into a probe result that the results writer and reader
 * round-trip; llama-bench's reader gives each test a name, a test label
 * first, at most its label slots, and settings that are all text.
 * Built and run by `make fuzz` (clang, ASan+UBSan); seeds: tests/fuzz/seeds-workload.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "results/results_json.h"
#include "workload/llama.h"
#include "workload/workload.h"
#include "workload/workload_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum workload_parse modes[] = {WORKLOAD_PARSE_AUTO, WORKLOAD_PARSE_LLAMA,
						    WORKLOAD_PARSE_JSONL, WORKLOAD_PARSE_LINES};
	char *text = malloc(size + 1);
	struct llama_output lo;
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (llama_read(text, &lo) == 0) {
		const char *k;
		json_t *v;
		if (lo.n == 0 || lo.format == LLAMA_NONE || !json_is_object(lo.facts))
			abort();
		for (size_t i = 0; i < lo.n; i++)
			if (!lo.tests[i].name[0] || lo.tests[i].n_labels < 1 ||
			    lo.tests[i].n_labels > LLAMA_MAX_LABELS + 1 ||
			    strcmp(lo.tests[i].labels[0].key, "test") != 0)
				abort();
		json_object_foreach (lo.facts, k, v)
			if (!json_is_string(v))
				abort();
		llama_output_free(&lo);
	}
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		struct workload_values v = {0};
		struct workload_iter it = {0};
		struct probe_result p;
		json_t *j;
		workload_parse_output(text, modes[m], &v);
		for (size_t i = 0; i < v.n; i++)
			if (!v.items[i].name || !v.items[i].name[0] || !isfinite(v.items[i].value))
				abort();
		/* what was parsed is recorded as one iteration and survives the file */
		probe_result_init(&p, "work.wrap");
		it.index = 1;
		it.run.started = 1;
		it.vals = v;
		it.parsed_as = modes[m];
		workload_record_iter(&p, &it);
		j = probe_result_to_json(&p);
		if (!j)
			abort();
		json_decref(j);
		probe_result_clear(&p);
		workload_values_free(&v);
	}
	free(text);
	return 0;
}
