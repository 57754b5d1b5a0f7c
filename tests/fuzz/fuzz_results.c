/* fuzz_results.c - libFuzzer target for the results reader (schema
 * mempath/run/1): whatever bytes come in, run_from_json either refuses them
 * with one error line or returns a run that the writer can write, the reader
 * accepts again unchanged, and every report writer renders without a crash;
 * so do the doctor's rules on whatever fingerprint the file carries.
 * Built and run by `make fuzz` (clang, ASan+UBSan); seeds: tests/data/ *.json.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "machine/doctor.h"
#include "results/results_json.h"
#include "report/doctor.h"
#include "report/report.h"

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *j = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL), *j2;
	struct run *r, *back;
	if (!j)
		return 0;
	r = run_from_json(j, "fuzz");
	json_decref(j);
	if (!r)
		return 0;
	/* What the reader took, the writer writes and the reader takes again,
	 * to the same JSON: summaries are recomputed from the same samples. */
	j = run_to_json(r);
	back = run_from_json(j, "fuzz round trip");
	if (!back)
		abort();
	j2 = run_to_json(back);
	if (!json_equal(j, j2))
		abort();
	json_decref(j);
	json_decref(j2);
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	for (size_t i = 0; i < report_writers_len; i++) /* every format of the table */
		report_write(r, report_writers[i].fmt, devnull);
	if (json_is_object(r->host)) {
		struct doctor_report d;
		struct doctor_doc doc = {&d, r->host, "fuzz", "-", r};
		if (doctor_check(r->host, &d) != 0)
			abort(); /* any object is a fingerprint, if a poor one */
		for (size_t i = 0; i < report_writers_len; i++)
			if (report_writers[i].doctor)
				report_doctor_write(&doc, report_writers[i].fmt, devnull);
		doctor_report_free(&d);
	}
	run_free(back);
	run_free(r);
	return 0;
}
