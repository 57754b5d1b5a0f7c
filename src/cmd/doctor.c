/* doctor.c - `mempath doctor`: the known traps of this machine, or of the
 * machine a results file was recorded on, each with its evidence and the fix.
 * It reads, never changes: the fixes are printed for a person to apply. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/outguard.h"
#include "base/proc.h"
#include "base/util.h"
#include "cmd/args.h"
#include "exec/runner.h"
#include "exec/session.h"
#include "machine/doctor.h"
#include "machine/sysinfo.h"
#include "probes/registry.h"
#include "report/doctor.h"
#include "report/report.h"
#include "results/results_json.h"

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

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
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

struct doctor_opts {
	const char *from, *root, *out;
	enum report_format format;
	int measure;
};

static const struct arg doctor_args[] = {
	ARG_STR("from", 0, struct doctor_opts, from, "FILE",
		"check the machine a file was recorded on instead: a results\n"
		"file, a doctor JSON file, or 'mempath sysinfo --json' output"),
	ARG_STR("root", 0, struct doctor_opts, root, "DIR",
		"check the PCIe and IOMMU facts of a recorded tree instead:\n"
		"DIR/sys (bus/pci, kernel/iommu_groups, class/iommu) and\n"
		"DIR/proc (cmdline), as tools/pci-tree.sh DIR records them;\n"
		"the other rules find nothing there"),
	ARG_FLAG("measure", 0, struct doctor_opts, measure,
		 "also run, at their quick sizes, the probes that measure what\n"
		 "a warning costs here (THP: first touch unadvised vs THP;\n"
		 "idle states: futex vs spin wake-up); JSON keeps their samples"),
	ARG_FORMAT("format", 'f', struct doctor_opts, format, REPORT_DOC_DOCTOR,
		   "the report's format (default term; json: schema mempath/doctor/1)"),
	ARG_STR("output", 'o', struct doctor_opts, out, "OUT",
		"write the report to OUT (atomically) instead of stdout"),
	ARG_END};

static int doctor_main(void *p, const struct cmd_line *l)
{
	struct doctor_opts *o = p;
	enum report_format fmt = o->format;
	struct doctor_report rep;
	struct doctor_doc doc;
	struct session s;
	char when[32];
	json_t *host;
	int rc;

	if (l->argc > 0)
		return error("unexpected argument '%s' (see 'mempath doctor --help')", l->argv[0]),
		       2;
	if (o->measure && (o->from || o->root))
		return error("--measure measures this machine; it does not go with --from or "
			     "--root"),
		       2;
	if (o->from && o->root)
		return error("--from and --root name two machines; give one"), 2;
	if (o->root && !is_dir(o->root))
		return error("--root '%s' is not a directory", o->root), 2;
	if (o->from && check_output_not_input(o->out, (char *const *)&o->from, 1) != 0)
		return 2;
	memset(&s, 0, sizeof(s));
	runner_opts_default(&s.ropts);
	time_iso8601(when, sizeof(when));
	if (o->measure) {
		/* the session's fingerprint is the one the rules read */
		proc_signals_install();
		session_begin(&s, l->all_argc, l->all_argv, "doctor", NULL);
		host = json_incref(s.run->host);
	} else {
		host = o->from	 ? host_from_file(o->from)
		       : o->root ? sysinfo_collect_tree(o->root)
				 : sysinfo_collect();
	}
	/* The fingerprint may come from another machine's file: the term and md
	 * reports read a copy with its strings escaped for the terminal or
	 * Markdown, so the evidence quoted from it injects nothing. */
	if (host && (fmt == REPORT_TERM || fmt == REPORT_MD)) {
		json_t *safe = report_escape_json(host, fmt);
		json_decref(host);
		host = safe;
	}
	if (!host || doctor_check(host, &rep) != 0) {
		json_decref(host);
		run_free(s.run);
		return 2;
	}
	rc = o->measure && (measure_costs(&s, &rep) != 0 || session_end(&s) != 0) ? 2 : 0;
	doc = (struct doctor_doc){&rep, host,
				  o->from   ? o->from
				  : o->root ? o->root
					    : "this machine",
				  when, s.run};
	if (!rc)
		rc = report_doctor_write_file(&doc, fmt, o->out) != 0 ? 2
		     : rep.count[DOCTOR_WARN]			      ? 1
								      : 0;
	if (proc_signal_received())
		rc = 130;
	doctor_report_free(&rep);
	json_decref(host);
	run_free(s.run);
	return rc;
}

const struct command command_doctor = {
	.name = "doctor",
	.summary = "known traps of this machine, with the evidence and the fix",
	.about = "Checks this machine's fingerprint for known traps of the memory paths (THP\n"
		 "in madvise or never mode, deep CPU idle states, RAM in no /proc/meminfo\n"
		 "counter, GPU persistence, PCIe width, no HMM, NUMA reclaim; for GPU\n"
		 "peer-to-peer: IOMMU mode, ACS redirect on the ports between GPUs, BAR size,\n"
		 "the pairs' PCIe path, the driver's peer-access answers ...) and prints\n"
		 "each with the evidence read, the fix and the probe that measures its cost.\n"
		 "Nothing is changed.\n",
	.examples = "mempath doctor\n"
		    "mempath doctor --from stock.json\n"
		    "mempath doctor --measure\n",
	.tail = "Exit status: 0 no warnings, 1 at least one warning, 2 bad input or the\n"
		"report could not be written.\n",
	.args = doctor_args,
	.opts_size = sizeof(struct doctor_opts),
	.run = doctor_main,
};
