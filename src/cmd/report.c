/* report.c - `mempath report FILE --format ...`: render a results file or a
 * comparison file, chosen by its "schema". A comparison is rendered as it was
 * decided: the legs' results files it names are not read again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/outguard.h"
#include "base/util.h"
#include "cmd/args.h"
#include "report/report.h"
#include "results/fleet_json.h"
#include "results/results_json.h"
#include "verdict/compare_json.h"

struct report_opts {
	const char *out;
	enum report_format format;
};

static const struct arg report_args[] = {
	ARG_FORMAT("format", 'f', struct report_opts, format,
		   REPORT_DOC_RUN | REPORT_DOC_COMPARE | REPORT_DOC_FLEET,
		   "the report's format (default term; openmetrics: Prometheus,\n"
		   "node_exporter's textfile collector)"),
	ARG_STR("output", 'o', struct report_opts, out, "OUT",
		"write the report to OUT (atomically) instead of stdout"),
	ARG_END};

static int report_main(void *p, const struct cmd_line *l)
{
	struct report_opts *o = p;
	enum report_format fmt = o->format;
	struct run *r = NULL;
	struct comparison *cmp = NULL;
	struct fleet *fl = NULL;
	const char *schema;
	json_t *j;
	int rc;
	if (l->argc != 1)
		return error("report needs exactly one results file (see 'mempath report --help')"),
		       2;
	if (check_output_not_input(o->out, l->argv, 1) != 0)
		return 2;
	j = results_load_file(l->argv[0]);
	if (!j)
		return 2;
	/* Anything but a comparison goes to the results reader, whose errors
	 * name what is wrong (no schema, another schema, bad fields). Another
	 * kind of file (a fleet) is one more schema here and, for
	 * openmetrics, its samples added to report/openmetrics.h's set. */
	schema = json_string_value(json_object_get(j, "schema"));
	if (schema && strcmp(schema, COMPARE_SCHEMA) == 0)
		cmp = comparison_from_json(j, l->argv[0]);
	else if (schema && strcmp(schema, FLEET_SCHEMA) == 0)
		fl = fleet_from_json(j, l->argv[0]);
	else
		r = run_from_json(j, l->argv[0]);
	json_decref(j);
	if (!r && !cmp && !fl)
		return 2;
	rc = (fl    ? report_fleet_write_file(fl, fmt, o->out)
	      : cmp ? report_compare_write_file(cmp, fmt, o->out)
		    : report_write_file(r, fmt, o->out)) == 0
		     ? 0
		     : 1;
	/* a fleet with a flagged node is a failure, as `mempath fleet` said */
	if (rc == 0 && fl && fl->n_flagged)
		rc = 1;
	run_free(r);
	comparison_free(cmp);
	fleet_free(fl);
	return rc;
}

const struct command command_report = {
	.pos = POS_FILES,
	.name = "report",
	.summary = "render a results or comparison file (term, md, json, csv, html, openmetrics)",
	.synopsis = "FILE",
	.about = "Renders a results file (mempath/run/1; summaries are recomputed from the raw\n"
		 "samples), a comparison file (mempath/compare/1, from 'compare --format json'\n"
		 "or 'ab'; verdicts as recorded, one CSV row per metric) or a fleet file\n"
		 "(mempath/fleet/1, from 'fleet' or 'fleet merge'; flags as recorded, one CSV\n"
		 "row per node and metric).\n"
		 "\n"
		 "--format openmetrics writes one gauge family per probe metric,\n"
		 "mempath_<probe>_<metric>_<unit> in base units (the median), labelled with the\n"
		 "metric's labels, host and label; a comparison adds each leg's median, the\n"
		 "change as a ratio and the verdicts. Save it as a .prom file in node_exporter's\n"
		 "textfile directory.\n",
	.examples = "mempath report stock.json --format md\n"
		    "mempath report stock.json --format html -o stock.html\n"
		    "mempath report today.json --format openmetrics > mempath.prom\n",
	.tail = "Exit status: 0 rendered, 1 a fleet with a flagged node or the report could\n"
		"not be written, 2 bad usage or a file that cannot be read.\n",
	.args = report_args,
	.opts_size = sizeof(struct report_opts),
	.run = report_main,
};
