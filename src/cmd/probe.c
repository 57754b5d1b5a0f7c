/* probe.c - `mempath probe NAME [name=value ...]`: one probe. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "base/proc.h"
#include "base/util.h"
#include "cmd/cmd.h"
#include "exec/session.h"
#include "probes/registry.h"
#include "report/report.h"

const char usage_probe[] =
	"usage: mempath probe NAME [--opt name=value ...] [name=value ...] [--quick]\n"
	"                     [--reps N] [--warmups N] [--timeout S] [-o FILE]\n"
	"                     [--format term|md|json|csv|html] [--label L] [--force] [--quiet]\n"
	"\n"
	"Runs one probe in a child process and prints its table. Options are the\n"
	"probe's own (see 'mempath help NAME'); --quick applies its small sizes first.\n"
	"The results file is written only with -o.\n";

int parse_count(const char *s, unsigned *out, unsigned min, const char *what);

int cmd_probe(int argc, char **argv)
{
	static const struct option longopts[] = {{"opt", required_argument, NULL, 'p'},
						 {"quick", no_argument, NULL, 'Q'},
						 {"reps", required_argument, NULL, 'r'},
						 {"warmups", required_argument, NULL, 'w'},
						 {"timeout", required_argument, NULL, 't'},
						 {"output", required_argument, NULL, 'o'},
						 {"format", required_argument, NULL, 'f'},
						 {"force", no_argument, NULL, 'F'},
						 {"quiet", no_argument, NULL, 'q'},
						 {"help", no_argument, NULL, 'h'},
						 {"label", required_argument, NULL, 'l'},
						 {NULL, 0, NULL, 0}};
	const char *label = NULL;
	enum report_format fmt = REPORT_TERM;
	const struct probe *p = NULL;
	char **kvs = xcalloc((size_t)argc + 1, sizeof(char *));
	size_t n_kvs = 0;
	struct session s;
	int c, rc = 0;
	memset(&s, 0, sizeof(s));
	runner_opts_default(&s.ropts);
	optind = 1;
	while ((c = getopt_long(argc, argv, "+p:Qr:w:t:o:f:l:Fqh", longopts, NULL)) != -1 ||
	       optind < argc) {
		if (c == -1) {
			/* Positional: the probe name first, then name=value options. */
			const char *a = argv[optind++];
			if (!p && !strchr(a, '=')) {
				p = probe_find(a);
				if (!p) {
					error("unknown probe '%s' (see 'mempath list')", a);
					rc = 2;
					goto out;
				}
			} else if (strchr(a, '=')) {
				kvs[n_kvs++] = (char *)a;
			} else {
				error("unexpected argument '%s' (see 'mempath probe --help')", a);
				rc = 2;
				goto out;
			}
			continue;
		}
		switch (c) {
		case 'p':
			kvs[n_kvs++] = optarg;
			break;
		case 'Q':
			s.ropts.quick = 1;
			break;
		case 'r':
			if (parse_count(optarg, &s.ropts.reps, 1, "--reps") != 0)
				rc = 2;
			break;
		case 'w':
			if (parse_count(optarg, &s.ropts.warmups, 0, "--warmups") != 0)
				rc = 2;
			break;
		case 't': {
			unsigned t;
			if (parse_count(optarg, &t, 1, "--timeout") != 0)
				rc = 2;
			s.ropts.timeout_s = t;
			break;
		}
		case 'o':
			s.out_path = optarg;
			break;
		case 'f':
			if (report_format_parse(optarg, &fmt) != 0) {
				error("unknown format '%s' (term, md, json, csv, html)", optarg);
				rc = 2;
			}
			break;
		case 'l':
			label = optarg;
			break;
		case 'F':
			s.ropts.force = 1;
			break;
		case 'q':
			util_set_quiet(1);
			break;
		case 'h':
			fputs(usage_probe, stdout);
			goto out;
		default:
			fputs(usage_probe, stderr);
			rc = 2;
			goto out;
		}
		if (rc)
			goto out;
	}
	if (!p) {
		error("which probe? (see 'mempath list')");
		rc = 2;
		goto out;
	}
	if (runner_check_opts(p, kvs, n_kvs, &s.ropts) != 0) {
		rc = 2;
		goto out;
	}
	proc_signals_install();
	session_begin(&s, argc, argv, label, NULL);
	s.total = 1;
	if (session_run_probe(&s, p, kvs, n_kvs) != 0)
		rc = 1;
	if (session_end(&s) != 0)
		rc = 1;
	report_write(s.run, fmt, stdout);
	if (s.out_path && rc == 0)
		fprintf(stderr, "results: %s\n", s.out_path);
	if (proc_signal_received())
		rc = 130;
	run_free(s.run);
out:
	free(kvs);
	return rc;
}
