/* report.c - `mempath report FILE --format ...`: render any results file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/results_json.h"
#include "../core/util.h"
#include "../report/report.h"
#include "cmd.h"

const char usage_report[] =
	"usage: mempath report FILE [--format term|md|json|csv] [-o OUT]\n"
	"\n"
	"Renders a results file. Summaries are recomputed from the raw samples.\n";

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {{"format", required_argument, NULL, 'f'},
						 {"output", required_argument, NULL, 'o'},
						 {"help", no_argument, NULL, 'h'},
						 {NULL, 0, NULL, 0}};
	enum report_format fmt = REPORT_TERM;
	const char *out = NULL;
	struct run *r;
	int c, rc = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (report_format_parse(optarg, &fmt) != 0)
				return error("unknown format '%s' (term, md, json, csv)", optarg),
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
	r = run_read_file(argv[optind]);
	if (!r)
		return 2;
	if (out) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		if (!m || report_write(r, fmt, m) != 0) {
			rc = 1;
			if (m)
				fclose(m);
		} else {
			fclose(m);
			rc = write_file_atomic(out, buf, len) == 0 ? 0 : 1;
		}
		free(buf);
	} else {
		rc = report_write(r, fmt, stdout) == 0 ? 0 : 1;
	}
	run_free(r);
	return rc;
}
