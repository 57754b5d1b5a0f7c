/* json.c - the results file itself, pretty-printed. */
#include <stdlib.h>

#include "base/util.h"
#include "report/format.h"
#include "report/json.h"
#include "report/limit.h"
#include "results/results_json.h"

int report_json(const struct run *r, FILE *f)
{
	json_t *j = run_to_json(r), *shares = report_limit_json(r);
	int rc;
	/* each bandwidth figure's share of its physical limit (report/limit.h) */
	if (shares)
		json_object_set_new(j, "limit_shares", shares);
	rc = report_json_dumpf(j, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(j);
	fputc('\n', f);
	return rc == 0 ? 0 : error("cannot write the run as JSON");
}
