/* json.c - the results file itself, pretty-printed. */
#include <stdlib.h>

#include "base/util.h"
#include "report/json.h"
#include "results/results_json.h"

int report_json(const struct run *r, FILE *f)
{
	json_t *j = run_to_json(r);
	int rc = json_dumpf(j, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(j);
	fputc('\n', f);
	return rc == 0 ? 0 : error("cannot write the run as JSON");
}
