/* fuzz_compare.c - libFuzzer target for the comparison reader (schema
 * mempath/compare/1): comparison_from_json either refuses the bytes with one
 * error line or returns a comparison that writes the same JSON after a second
 * read, and that the term, Markdown, JSON and CSV writers render without a
 * crash. Built and run by `make fuzz`; seeds: tests/data/ *.json.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "verdict/compare.h"
#include "verdict/compare_json.h"
#include "report/report.h"

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *j = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL), *j2;
	struct comparison *c, *back;
	if (!j)
		return 0;
	c = comparison_from_json(j, "fuzz");
	json_decref(j); /* the comparison owns copies: nothing may point into j */
	if (!c)
		return 0;
	j = comparison_to_json(c);
	back = comparison_from_json(j, "fuzz round trip");
	if (!back)
		abort();
	j2 = comparison_to_json(back);
	if (!json_equal(j, j2))
		abort();
	json_decref(j);
	json_decref(j2);
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	for (size_t i = 0; i < report_writers_len; i++) /* every format of the table */
		report_compare_write(c, report_writers[i].fmt, devnull);
	comparison_free(back);
	comparison_free(c);
	return 0;
}
