/* doctor.c - `mempath doctor`: the known traps of this machine, or of the
 * machine a results file was recorded on, each with its evidence and the fix.
 * It reads, never changes: the fixes are printed for a person to apply. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "base/proc.h"
#include "base/util.h"
#include "cmd/cmd.h"
#include "exec/runner.h"
#include "exec/session.h"
#include "machine/doctor.h"
#include "machine/sysinfo.h"
#include "probes/registry.h"
#include "report/report.h"
#include "results/results_json.h"

const char usage_doctor[] =
	"usage: mempath doctor [--from FILE | --measure] [--format term|md|json] [-o OUT]\n"
	"\n"
	"Checks this machine's fingerprint for known traps of the memory paths (THP\n"
	"in madvise or never mode, deep CPU idle states, RAM in no /proc/meminfo\n"
	"counter, GPU persistence, PCIe width, no HMM, NUMA reclaim ...) and prints\n"
	"each with the evidence read, the fix and the probe that measures its cost.\n"
	"Nothing is changed.\n"
	"\n"
	"  --from FILE   check the machine a file was recorded on instead: a results\n"
	"                file, a doctor JSON file, or 'mempath sysinfo --json' output\n"
	"  --measure     also run, at their quick sizes, the probes that measure what\n"
	"                a warning costs here (THP: first touch unadvised vs THP;\n"
	"                idle states: futex vs spin wake-up); JSON keeps their samples\n"
	"  --format F    term (default), md or json (schema mempath/doctor/1)\n"
	"  -o OUT        write the report to OUT (atomically) instead of stdout\n"
	"\n"
	"Exit status: 0 no warnings, 1 at least one warning, 2 bad input or the\n"
	"report could not be written.\n";

/* The fingerprint inside any file doctor accepts: a new reference, or NULL
 * after one error line. A results file goes through the strict reader, so a
 * corrupt one is refused the same way everywhere. */
static json_t *host_from_file(const char *path)
{
	json_t *j = results_load_file(path), *host = NULL;
	const char *schema;
	struct run *r;

	if (!j)
		return NULL;
	schema = json_string_value(json_object_get(j, "schema"));
	if (schema && strcmp(schema, "mempath/doctor/1") == 0) {
		host = json_object_get(j, "host");
		if (!json_is_object(host))
			error("'%s': a doctor file without a \"host\" object", path);
		else
			json_incref(host);
	} else if (schema) {
		r = run_from_json(j, path);
		if (r && !json_is_object(r->host))
			error("'%s': no machine fingerprint (\"host\") in it", path);
		else if (r)
			host = json_incref(r->host);
		run_free(r);
	} else if (json_is_object(j) && json_is_string(json_object_get(j, "kernel")) &&
		   json_is_object(json_object_get(j, "cpu"))) {
		host = json_incref(j); /* sysinfo --json */
	} else {
		error("'%s' is not a results file, a doctor file or a fingerprint", path);
	}
	json_decref(j);
	return host;
}

struct doctor_out {
	const struct doctor_doc *doc;
	enum report_format fmt;
};

static int render(const void *arg, FILE *f)
{
	const struct doctor_out *a = arg;
	return report_doctor_write(a->doc, a->fmt, f);
}

/* doctor --measure: the probes that price this machine's warnings and notes,
 * run through a session (fingerprint, children, timeouts) like `probe`.
 * Returns 0, or -1 when a probe could not be started (error printed). */
static int measure_costs(struct session *s, struct doctor_report *rep)
{
	int rc = 0;

	s->ropts.quick = 1;
	for (size_t i = 0; i < rep->n; i++)
		s->total += (rep->items[i].level == DOCTOR_WARN ||
			     rep->items[i].level == DOCTOR_INFO) &&
			    doctor_cost_of(rep->items[i].id);
	for (size_t i = 0; i < rep->n && !rc && !proc_signal_received(); i++) {
		struct doctor_finding *f = &rep->items[i];
		const struct doctor_cost *cost = doctor_cost_of(f->id);
		char *opts, *kvs[8], *save = NULL;
		size_t n = 0;

		if (!cost || (f->level != DOCTOR_WARN && f->level != DOCTOR_INFO))
			continue;
		opts = xstrdup(cost->opts);
		for (char *t = strtok_r(opts, " ", &save); t && n < 8;
		     t = strtok_r(NULL, " ", &save))
			kvs[n++] = t;
		rc = session_run_probe(s, probe_find(cost->probe), kvs, n);
		if (!rc)
			doctor_cost_read(cost, &s->run->probes[s->run->n_probes - 1], f);
		free(opts);
	}
	return rc;
}

int cmd_doctor(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"from", required_argument, NULL, 'F'},	  {"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'}, {"measure", no_argument, NULL, 'M'},
		{"help", no_argument, NULL, 'h'},	  {NULL, 0, NULL, 0}};
	const char *from = NULL, *out = NULL;
	struct doctor_out arg = {NULL, REPORT_TERM};
	struct doctor_report rep;
	struct doctor_doc doc;
	struct session s;
	char when[32];
	json_t *host;
	int c, rc, measure = 0;

	memset(&s, 0, sizeof(s));
	runner_opts_default(&s.ropts);

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'F':
			from = optarg;
			break;
		case 'f':
			if (report_format_parse(optarg, &arg.fmt) != 0 ||
			    (arg.fmt != REPORT_TERM && arg.fmt != REPORT_MD &&
			     arg.fmt != REPORT_JSON))
				return error("unknown format '%s' (term, md, json)", optarg), 2;
			break;
		case 'o':
			out = optarg;
			break;
		case 'M':
			measure = 1;
			break;
		case 'h':
			fputs(usage_doctor, stdout);
			return 0;
		default:
			fputs(usage_doctor, stderr);
			return 2;
		}
	}
	if (optind != argc)
		return error("unexpected argument '%s' (see 'mempath doctor --help')",
			     argv[optind]),
		       2;
	if (measure && from)
		return error("--measure measures this machine; it does not go with --from"), 2;
	time_iso8601(when, sizeof(when));
	if (measure) {
		/* the session's fingerprint is the one the rules read */
		proc_signals_install();
		session_begin(&s, argc, argv, "doctor", NULL);
		host = json_incref(s.run->host);
	} else {
		host = from ? host_from_file(from) : sysinfo_collect();
	}
	if (!host || doctor_check(host, &rep) != 0) {
		json_decref(host);
		run_free(s.run);
		return 2;
	}
	rc = measure && (measure_costs(&s, &rep) != 0 || session_end(&s) != 0) ? 2 : 0;
	doc = (struct doctor_doc){&rep, host, from ? from : "this machine", when, s.run};
	arg.doc = &doc;
	if (!rc)
		rc = write_rendered(out, render, &arg) != 0 ? 2 : rep.count[DOCTOR_WARN] ? 1 : 0;
	if (proc_signal_received())
		rc = 130;
	doctor_report_free(&rep);
	json_decref(host);
	run_free(s.run);
	return rc;
}
