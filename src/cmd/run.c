/* run.c - `mempath run`: a suite of probes, a table, a results file. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "base/opt.h"
#include "base/proc.h"
#include "base/util.h"
#include "cmd/cmd.h"
#include "exec/session.h"
#include "probes/registry.h"
#include "report/report.h"

const char usage_run[] =
	"usage: mempath run [--suite quick|full|cpu|gpu|p2p] [--label L] [-o FILE]\n"
	"                   [--reps N] [--warmups N] [--timeout S]\n"
	"                   [--format term|md|json|csv|html] [--only PROBE[,PROBE...]]\n"
	"                   [--force] [--quiet]\n"
	"\n"
	"Runs a suite of probes, each in its own child process, prints a table and\n"
	"saves every sample with the machine's fingerprint to a results file\n"
	"(default: ./mempath-<label>-<time>.json, rewritten after every probe).\n"
	"\n"
	"  --suite S      quick (default: small sizes, about a minute), full, cpu, gpu, p2p\n"
	"  --label L      a name for this configuration (stock, patched, ...)\n"
	"  -o FILE        results file path\n"
	"  --reps N       counted samples per metric (default 10)\n"
	"  --warmups N    warm-up samples per metric, kept but not counted (default 2)\n"
	"  --timeout S    per-probe timeout in seconds (default: the probe's, else 600)\n"
	"  --format F     table format on stdout (default term)\n"
	"  --only LIST    run only these probes of the suite\n"
	"  --force        allow sizes above 80% of MemAvailable\n"
	"  --quiet        no progress lines on stderr\n";

int parse_count(const char *s, unsigned *out, unsigned min, const char *what)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	if (!*s || *end || v < min || v > 100000)
		return error("bad %s '%s' (a whole number >= %u)", what, s, min);
	*out = (unsigned)v;
	return 0;
}

static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; p && *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && strncmp(p, name, n) == 0)
			return 1;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {{"suite", required_argument, NULL, 's'},
						 {"label", required_argument, NULL, 'l'},
						 {"output", required_argument, NULL, 'o'},
						 {"reps", required_argument, NULL, 'r'},
						 {"warmups", required_argument, NULL, 'w'},
						 {"timeout", required_argument, NULL, 't'},
						 {"format", required_argument, NULL, 'f'},
						 {"only", required_argument, NULL, 'O'},
						 {"force", no_argument, NULL, 'F'},
						 {"quiet", no_argument, NULL, 'q'},
						 {"help", no_argument, NULL, 'h'},
						 {NULL, 0, NULL, 0}};
	const char *suite = "quick", *label = NULL, *only = NULL;
	char *out_path = NULL;
	enum report_format fmt = REPORT_TERM;
	struct session s;
	int c, rc = 0;
	memset(&s, 0, sizeof(s));
	runner_opts_default(&s.ropts);
	optind = 1;
	while ((c = getopt_long(argc, argv, "s:l:o:r:w:t:f:O:Fqh", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			suite = optarg;
			break;
		case 'l':
			label = optarg;
			break;
		case 'o':
			free(out_path);
			out_path = xstrdup(optarg);
			break;
		case 'r':
			if (parse_count(optarg, &s.ropts.reps, 1, "--reps") != 0)
				return 2;
			break;
		case 'w':
			if (parse_count(optarg, &s.ropts.warmups, 0, "--warmups") != 0)
				return 2;
			break;
		case 't': {
			unsigned t;
			if (parse_count(optarg, &t, 1, "--timeout") != 0)
				return 2;
			s.ropts.timeout_s = t;
			break;
		}
		case 'f':
			if (report_format_parse(optarg, &fmt) != 0)
				return error("unknown format '%s' (term, md, json, csv, html)",
					     optarg),
				       2;
			break;
		case 'O':
			only = optarg;
			break;
		case 'F':
			s.ropts.force = 1;
			break;
		case 'q':
			util_set_quiet(1);
			break;
		case 'h':
			fputs(usage_run, stdout);
			return 0;
		default:
			fputs(usage_run, stderr);
			return 2;
		}
	}
	if (optind < argc)
		return error("unexpected argument '%s' (see 'mempath run --help')", argv[optind]),
		       2;
	if (!session_suite_valid(suite))
		return error("unknown suite '%s' (quick, full, cpu, gpu, p2p)", suite), 2;
	if (only) {
		/* Every name in --only must be a probe. */
		char *dup = xstrdup(only), *save = NULL;
		for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save))
			if (!probe_find(t)) {
				error("unknown probe '%s' in --only (see 'mempath list')", t);
				free(dup);
				return 2;
			}
		free(dup);
	}
	s.ropts.quick = strcmp(suite, "quick") == 0;
	if (!out_path)
		out_path = session_default_path(label ? label : suite);
	s.out_path = out_path;
	proc_signals_install();
	progress("mempath: collecting the machine's fingerprint ...");
	session_begin(&s, argc, argv, label, suite);
	for (size_t i = 0; i < probe_table_len; i++)
		if (session_suite_has(suite, probe_table[i], s.gpu_present) &&
		    (!only || in_list(only, probe_table[i]->name)))
			s.total++;
	if (s.total == 0)
		warning("suite '%s' has no probe that applies to this machine", suite);
	for (size_t i = 0; i < probe_table_len && !proc_signal_received(); i++) {
		const struct probe *p = probe_table[i];
		if (!session_suite_has(suite, p, s.gpu_present) ||
		    (only && !in_list(only, p->name)))
			continue;
		if (session_run_probe(&s, p, NULL, 0) != 0) {
			rc = 1;
			break;
		}
	}
	if (session_end(&s) != 0)
		rc = 1;
	if (s.run->knobs_start && s.run->knobs_end &&
	    !json_equal(s.run->knobs_start, s.run->knobs_end))
		warning("machine knobs changed during the run (see knobs.start and knobs.end in "
			"'%s')",
			out_path);
	report_write(s.run, fmt, stdout);
	fflush(stdout);
	if (rc == 0)
		fprintf(stderr, "results: %s\n", out_path);
	if (proc_signal_received()) {
		fprintf(stderr, "mempath: interrupted; partial results kept in '%s'\n", out_path);
		rc = 130;
	}
	run_free(s.run);
	free(out_path);
	return rc;
}
