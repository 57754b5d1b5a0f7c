/* report.c - `mempath report FILE --format ...`: render a results file or a
 * comparison file, chosen by its "schema". A comparison is rendered as it was
 * decided: the legs' results files it names are not read again. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "cmd/cmd.h"
#include "report/report.h"
#include "results/results_json.h"
#include "verdict/compare.h"
#include "verdict/compare_json.h"

const char usage_report[] =
	"usage: mempath report FILE [--format term|md|json|csv|html] [-o OUT]\n"
	"\n"
	"Renders a results file (mempath/run/1; summaries are recomputed from the raw\n"
	"samples) or a comparison file (mempath/compare/1, from 'compare --format json'\n"
	"or 'ab'; verdicts as recorded, one CSV row per metric).\n";

/* One file, either kind: exactly one of r and c is set. */
struct report_out {
	const struct run *r;
	const struct comparison *c;
	enum report_format fmt;
};

static int render(const void *arg, FILE *f)
{
	const struct report_out *a = arg;
	return a->c ? report_compare_write(a->c, a->fmt, f) : report_write(a->r, a->fmt, f);
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {{"format", required_argument, NULL, 'f'},
						 {"output", required_argument, NULL, 'o'},
						 {"help", no_argument, NULL, 'h'},
						 {NULL, 0, NULL, 0}};
	enum report_format fmt = REPORT_TERM;
	const char *out = NULL, *schema;
	struct run *r = NULL;
	struct comparison *cmp = NULL;
	struct report_out a;
	json_t *j;
	int c, rc = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (report_format_parse(optarg, &fmt) != 0)
				return error("unknown format '%s' (term, md, json, csv, html)",
					     optarg),
				       2;
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			fputs(usage_report, stdout);
			return 0;
		default:
			fputs(usage_report, stderr);
			return 2;
		}
	}
	if (optind != argc - 1)
		return error("report needs exactly one results file (see 'mempath report --help')"),
		       2;
	j = results_load_file(argv[optind]);
	if (!j)
		return 2;
	/* Anything but a comparison goes to the results reader, whose errors
	 * name what is wrong (no schema, another schema, bad fields). */
	schema = json_string_value(json_object_get(j, "schema"));
	if (schema && strcmp(schema, COMPARE_SCHEMA) == 0)
		cmp = comparison_from_json(j, argv[optind]);
	else
		r = run_from_json(j, argv[optind]);
	json_decref(j);
	if (!r && !cmp)
		return 2;
	a = (struct report_out){r, cmp, fmt};
	rc = write_rendered(out, render, &a) == 0 ? 0 : 1;
	run_free(r);
	comparison_free(cmp);
	return rc;
}
