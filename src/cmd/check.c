/* check.c - `mempath check [FILE]`: this machine, or the machine of a results
 * file, against the reference values of its kind (data/, verdict/reference.h):
 * PASS, WARN or FAIL per path, with what each number means. */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/outguard.h"
#include "base/proc.h"
#include "base/util.h"
#include "cmd/args.h"
#include "cmd/check_again.h"
#include "cmd/groups.h"
#include "exec/session.h"
#include "machine/limits.h"
#include "machine/sysinfo.h"
#include "machine/virt.h"
#include "probes/registry.h"
#include "report/fleet.h"
#include "report/openmetrics.h"
#include "report/report.h"
#include "results/results_json.h"
#include "verdict/fleet_judge.h"
#include "verdict/ref_rest.h"
#include "verdict/reference.h"

struct check_opts {
	const char *refs, *out, *textfile, *beside;
	enum report_format format;
	struct sampling_args s;
	int drift, brief;
	double dram_gbps;
	double again_s; /* --again-quiet; < 0: not asked */
};

static void check_init(void *p)
{
	struct check_opts *o = p;
	sampling_args_init(&o->s);
	o->again_s = -1;
}

static const struct arg check_args[] = {
	ARG_STR("refs", 0, struct check_opts, refs, "DIR",
		"reference values (default: $MEMPATH_REFS, else data/ of this tree)"),
	ARG_FORMAT("format", 0, struct check_opts, format, REPORT_DOC_CHECKS,
		   "the report's format (default term)"),
	ARG_STR("output", 'o', struct check_opts, out, "FILE",
		"measuring here: also save the results file"),
	ARG_STR("textfile", 0, struct check_opts, textfile, "PATH",
		"also write the verdicts as OpenMetrics for node_exporter's textfile collector, "
		"atomically and mode 0644: PATH a directory (then PATH/mempath.prom) or a file"),
	ARGS_SAMPLING(struct check_opts, s),
	ARG_FLAG("drift", 0, struct check_opts, drift,
		 "with FILE: list every reference value (of every file in --refs) whose probe FILE "
		 "ran but whose metric and label keys it lacks, exit 1 if any"),
	ARG_STR("beside", 0, struct check_opts, beside, "FILE",
		"the reference tools' figures of this run (mempath import's results file) as the "
		"references of the paths that name them, a ratio a line"),
	ARG_NUM("dram-gbps", 0, struct check_opts, dram_gbps, "GBPS", 1, 100000,
		"the DRAM limit where SMBIOS gives none (a VM, a cloud host): GB/s, the user's "
		"value (also 'dram_gbps N' in $MEMPATH_LIMITS or /etc/mempath/limits.conf)"),
	ARG_NUM("again-quiet", 0, struct check_opts, again_s, "S", 0, 86400,
		"a figure INCONCLUSIVE for the load beside it: wait at most S seconds for a quiet "
		"machine, measure its probe again and judge the new figure (with FILE: one of this "
		"machine, -o saves the new run)"),
	ARG_FLAG("brief", 0, struct check_opts, brief,
		 "a line a path, then every other probe's headline figure and how steady it was "
		 "(what make run prints; term only)"),
	ARG_END};

/* The probes the matching kinds name, each once, through one session. */
static int measure(const struct check_opts *o, const struct ref_set *refs, const int *match,
		   struct session *s)
{
	const char *seen[64];
	size_t n_seen = 0;
	for (size_t k = 0; k < refs->n; k++)
		for (size_t i = 0; match[k] && i < refs->kinds[k].n_runs; i++)
			s->total++;
	for (size_t k = 0; k < refs->n && !proc_signal_received(); k++) {
		for (size_t i = 0; match[k] && i < refs->kinds[k].n_runs; i++) {
			const struct ref_run *rr = &refs->kinds[k].runs[i];
			const struct probe *p = probe_find(rr->probe);
			int dup = 0;
			for (size_t j = 0; j < n_seen; j++)
				dup |= strcmp(seen[j], rr->probe) == 0;
			/* a band whose limit is unknown here is judged without it */
			if (!ref_probe_needed(&refs->kinds[k], rr->probe, s->run->host))
				s->total--, dup = 1;
			if (dup || proc_signal_received())
				continue;
			if (!p)
				return error("'%s' names a probe this build does not have: '%s'",
					     refs->kinds[k].file, rr->probe);
			if (n_seen < sizeof(seen) / sizeof(seen[0]))
				seen[n_seen++] = rr->probe;
			s->ropts.quick = rr->quick;
			if (session_run_probe(s, p, rr->opts, rr->n_opts) != 0)
				return -1;
		}
	}
	(void)o;
	return 0;
}

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The GPUs' model names of a fingerprint, each once, apart by ","; "" for none. */
static char *gpu_names(const json_t *host)
{
	const json_t *devs = json_object_get(json_object_get(host, "gpu"), "devices"), *d;
	char *names = xstrdup("");
	size_t i;
	json_array_foreach (devs, i, d) {
		const char *nm = json_string_value(json_object_get(d, "name"));
		char *t;
		if (!nm || str_in_list(names, nm))
			continue;
		t = xasprintf("%s%s%s", names, *names ? "," : "", nm);
		free(names);
		names = t;
	}
	return names;
}

/* --textfile: the verdicts with the ids of the node (NODE_NAME, a pod's
 * spec.nodeName, when measuring here; else the run's hostname), its GPUs and
 * the job that ran it (SLURM_JOB_ID; POD_NAME or, in a pod, HOSTNAME, and
 * POD_NAMESPACE), written at once or not at all. */
static int write_textfile(const char *where, const struct run *r, const struct fleet_check *c,
			  size_t n, int here)
{
	const char *ids[10], *node = here ? getenv("NODE_NAME") : NULL, *v;
	char *gpus = gpu_names(r->host), *path, *text = NULL;
	size_t n_ids = 0, len = 0;
	int in_pod = getenv("KUBERNETES_SERVICE_HOST") != NULL, rc;
	FILE *f;
#define ID(k, val)                                \
	do {                                      \
		if ((v = (val)) && *v) {          \
			ids[2 * n_ids] = k;       \
			ids[2 * n_ids++ + 1] = v; \
		}                                 \
	} while (0)
	ID("node", node && *node ? node : report_jstr(r->host, "hostname"));
	ID("gpu", gpus);
	ID("slurm_job", getenv("SLURM_JOB_ID"));
	ID("pod", getenv("POD_NAME") ? getenv("POD_NAME") : in_pod ? getenv("HOSTNAME") : NULL);
	ID("namespace", getenv("POD_NAMESPACE"));
#undef ID
	path = is_dir(where) ? xasprintf("%s/mempath.prom", where) : xstrdup(where);
	f = open_memstream(&text, &len);
	rc = f ? report_checks_openmetrics(r, c, n, ids, n_ids, f) : -1;
	if (f && fclose(f) != 0)
		rc = -1;
	if (rc == 0)
		rc = write_file_atomic_mode(path, text, len, 0644);
	free(text);
	free(path);
	free(gpus);
	return rc;
}

/* --beside FILE: the tools' own figures, taken beside the run, as the
 * references of the values that name them; -1 after an error line. */
static int beside(struct ref_set *refs, const char *file)
{
	struct run *t = run_read_file(file);
	size_t n = t ? ref_beside(refs, t, file) : 0;
	run_free(t);
	if (!t)
		return -1;
	if (n == 0)
		return error("'%s' holds none of the tool figures the reference values name "
			     "(mempath import of nvbandwidth, STREAM, multichase, gpu-benches)",
			     file);
	return 0;
}

/* --dram-gbps: the run's DRAM limit is the user's where SMBIOS gives none. */
static void user_dram(struct run *r, double gbps)
{
	json_t *dram = json_object_get(r->host, "dram");
	if (!json_is_object(dram)) {
		dram = json_pack("{s:s}", "unknown", "no DRAM facts in the fingerprint");
		json_object_set_new(r->host, "dram", dram);
	}
	json_object_set_new(dram, "user",
			    json_pack("{s:f, s:s}", "gbps", gbps, "from", "--dram-gbps"));
	json_object_set_new(r->host, "limits", limits_derive(r->host));
}

/* --textfile: the kind's paths, a series each (the other figures share
 * their path names across labels). */
static int textfile_paths(const char *where, const struct run *r, const struct fleet_check *c,
			  size_t n, int here)
{
	struct fleet_check *paths = xcalloc(n + 1, sizeof(*paths));
	size_t n_paths = 0;
	int rc;
	for (size_t i = 0; i < n; i++)
		if (!c[i].rest)
			paths[n_paths++] = c[i];
	rc = write_textfile(where, r, paths, n_paths, here);
	free(paths);
	return rc;
}

/* --drift: every kind's values against the labels FILE's probes wrote. */
static int drift_main(const struct ref_set *refs, const struct run *r)
{
	char **msgs = NULL;
	size_t n = 0, values = 0;
	for (size_t k = 0; k < refs->n; k++) {
		ref_drift(&refs->kinds[k], r, &msgs, &n);
		values += refs->kinds[k].n_values;
	}
	for (size_t i = 0; i < n; i++) {
		printf("DRIFT %s\n", msgs[i]);
		free(msgs[i]);
	}
	free(msgs);
	printf("%zu of %zu reference values drifted from the labels of %s\n", n, values, refs->dir);
	return n ? 1 : 0;
}

/* --again-quiet: FILE's busy figures only where FILE is of this machine;
 * 0 done, 1 a probe could not run again (what was measured is judged), 2
 * FILE is of another machine. */
static int again(const struct check_opts *o, const struct ref_set *refs, const int *match,
		 struct run *r, const struct cmd_line *l)
{
	if (l->argc == 1) {
		json_t *here = sysinfo_collect();
		char *a = fleet_kind_key(here), *b = fleet_kind_key(r->host);
		const char *h1 = report_jstr(here, "hostname"),
			   *h2 = report_jstr(r->host, "hostname");
		int same = strcmp(a, b) == 0 && h1 && h2 && strcmp(h1, h2) == 0;
		if (!same)
			error("%s was measured on %s (%s), not on this machine (%s, %s): "
			      "--again-quiet measures here",
			      l->argv[0], h2 ? h2 : "?", b, h1 ? h1 : "?", a);
		free(a);
		free(b);
		json_decref(here);
		if (!same)
			return 2;
	}
	return check_again_quiet(r, refs, match, o->again_s, o->out, &o->s, l->all_argc,
				 l->all_argv) != 0;
}

/* Judges r against the kinds matched and every other figure, prints the
 * checks (*checks, *n_checks: the caller clears them) and writes the
 * textfile: 0 all judged well, 1 a path failed or could not be judged (or
 * a figure beyond its limit), or the report or textfile failed. */
static int judge(const struct check_opts *o, const struct ref_set *refs, const int *match,
		 const struct run *r, const char *key, const char *kinds, const struct cmd_line *l,
		 struct fleet_check **checks, size_t *n_checks)
{
	size_t fails = 0;
	char *what;
	int rc;
	for (size_t k = 0; k < refs->n; k++)
		if (match[k])
			ref_check_run(&refs->kinds[k], r, checks, n_checks);
	ref_check_rest(refs, match, r, checks, n_checks); /* no figure unjudged */
	what = xasprintf("%s (%s) against %s", report_jstr(r->host, "hostname"), key, kinds);
	rc = (o->brief ? report_checks_brief(what, *checks, *n_checks, r, stdout)
		       : report_checks(what, *checks, *n_checks, o->format, stdout)) == 0
		     ? 0
		     : 1;
	free(what);
	/* a path that could not be judged fails the check too; of the other
	 * figures, one beyond its limit */
	for (size_t i = 0; i < *n_checks; i++)
		fails += (*checks)[i].status == CHECK_FAIL ||
			 ((*checks)[i].status == CHECK_NA && !(*checks)[i].rest);
	if (fails)
		rc = 1;
	if (o->textfile && textfile_paths(o->textfile, r, *checks, *n_checks, l->argc == 0))
		rc = 1;
	return rc;
}

static int check_main(void *p, const struct cmd_line *l)
{
	struct check_opts *o = p;
	enum report_format fmt = o->format;
	struct ref_set refs;
	struct session s;
	struct run *r = NULL;
	struct fleet_check *checks = NULL;
	size_t n_checks = 0, n_match = 0;
	char *dir, *key, *kinds;
	int *match, rc = 0, again_rc = 0;
	struct out_inputs ref_in = {0};
	const char *emu = NULL;
	if (l->argc > 1)
		return error("check takes at most one results file (see 'mempath check --help')"),
		       2;
	if (o->brief && fmt != REPORT_TERM)
		return error("--brief is a terminal summary: leave --format out"), 2;
	if (l->argc == 1 && o->out && o->again_s < 0)
		return error("check FILE measures nothing: -o saves the run that check measures "
			     "here (without FILE, or with --again-quiet); the report goes to "
			     "stdout"),
		       2;
	if (l->argc == 1 && o->again_s >= 0 && !o->out)
		return error("check FILE --again-quiet measures again: -o OUT saves the run with "
			     "the new figures (FILE is left as it is)"),
		       2;
	if (o->textfile && !is_dir(o->textfile)) { /* before anything is measured */
		char *d = xstrdup(o->textfile), *up = dirname(d);
		int bad = output_path_check(o->textfile) != 0 ||
			  (!is_dir(up) &&
			   error("cannot write '%s': no folder '%s'", o->textfile, up));
		free(d);
		if (bad)
			return 2;
	}
	kinds = xstrdup("");
	util_set_quiet(o->s.quiet);
	dir = ref_dir(o->refs);
	/* the run check saves must not overwrite a reference file it reads */
	ref_in.dirs = &dir;
	ref_in.n_dirs = 1;
	if (output_guard(o->out, &ref_in, NULL) != 0) {
		free(dir);
		free(kinds);
		return 2;
	}
	rc = ref_load(dir, &refs);
	free(dir);
	if (rc != 0) {
		ref_set_free(&refs);
		free(kinds);
		return 2;
	}
	if (o->beside && beside(&refs, o->beside) != 0) {
		ref_set_free(&refs);
		free(kinds);
		return 2;
	}
	memset(&s, 0, sizeof(s));
	if (o->drift && l->argc != 1) {
		ref_set_free(&refs);
		free(kinds);
		return error("--drift reads a results file: mempath check --drift FILE"), 2;
	}
	if (l->argc == 1) {
		r = run_read_file(l->argv[0]);
		if (r && o->drift) {
			rc = drift_main(&refs, r);
			run_free(r);
			ref_set_free(&refs);
			free(kinds);
			return rc;
		}
	} else {
		sampling_args_runner(&o->s, &s.ropts);
		s.out_path = o->out;
		proc_signals_install();
		progress("mempath: collecting the machine's fingerprint ...");
		if (session_begin(&s, l->all_argc, l->all_argv, NULL, "check") != 0)
			rc = 1;
		r = s.run;
	}
	/* an emulator's timings are not memory figures (docs/topology.md) */
	if (r && !rc && virt_is_emulated(r->host, &emu)) {
		error("%s ran under an emulator (%s): its timings are not memory figures, so check "
		      "judges none against reference values of real machines",
		      l->argc == 1 ? l->argv[0] : "this machine", emu ? emu : "?");
		rc = 2;
	}
	match = xcalloc(refs.n + 1, sizeof(int));
	for (size_t k = 0; r && k < refs.n; k++)
		if ((match[k] = ref_matches(&refs.kinds[k], r->host))) {
			char *t = xasprintf("%s%s%s", kinds, n_match++ ? "; " : "",
					    refs.kinds[k].kind);
			free(kinds);
			kinds = t;
		}
	/* no kind of its own: the limits and their efficiency bands */
	for (size_t k = 0; r && n_match == 0 && k < refs.n; k++)
		if (refs.kinds[k].fallback) {
			char *t = xasprintf("%s%s%s", kinds, n_match++ ? "; " : "",
					    refs.kinds[k].kind);
			match[k] = 1;
			free(kinds);
			kinds = t;
		}
	key = r ? fleet_kind_key(r->host) : xstrdup("?");
	if (!r) {
		rc = 2;
	} else if (!rc && n_match == 0) {
		error("no reference values for this kind of machine (%s) in '%s'", key, refs.dir);
		if (l->argc == 0)
			session_abandon(&s);
		rc = 2;
	} else if (!rc && l->argc == 0) {
		rc = measure(o, &refs, match, &s) != 0 || session_end(&s) != 0 ? 1 : 0;
	}
	if (l->argc == 0 && rc == 2) /* begun, refused before measuring */
		session_abandon(&s);
	if (rc == 0 && o->dram_gbps > 0) /* the user's DRAM limit, SMBIOS silent */
		user_dram(r, o->dram_gbps);
	if (rc == 0 && o->again_s >= 0 && (again_rc = again(o, &refs, match, r, l)) == 2)
		rc = 2;
	if (rc == 0)
		rc = judge(o, &refs, match, r, key, kinds, l, &checks, &n_checks) || again_rc
			     ? (proc_signal_received() ? 130 : 1)
			     : (proc_signal_received() ? 130 : 0);
	for (size_t i = 0; i < n_checks; i++)
		fleet_check_clear(&checks[i]);
	free(checks);
	free(match);
	free(key);
	free(kinds);
	run_free(r);
	ref_set_free(&refs);
	return rc;
}

const struct command command_check = {
	.name = "check",
	.summary = "this machine (or a results file) against reference values of its kind",
	.synopsis = "[FILE]",
	.about = "Finds the reference values for this machine's kind (data/: one file per kind,\n"
		 "each value with its source, date and tolerance), runs the probes they name\n"
		 "(or reads FILE, a results file) and judges every path: PASS within the\n"
		 "tolerance (or better), WARN up to twice it, FAIL beyond. A machine of no kind\n"
		 "in data/ is judged against its physical limits (the fingerprint's, from its\n"
		 "NVML, PCIe, NVLink and SMBIOS facts) with the efficiency bands of\n"
		 "data/limits.json. A path that cannot be judged (not measured, its labels\n"
		 "changed, its limit unknown) is INCONCLUSIVE with the reason. Each line says\n"
		 "what the number means (one way or both, bytes counted once or read plus\n"
		 "write) and, where the reference is a reference tool's figure, that figure\n"
		 "beside mempath's with the ratio (--beside FILE: an imported run of the\n"
		 "tools, mempath import). Then every other figure of the file: FAIL beyond\n"
		 "its physical limit, else INCONCLUSIVE with its share of the limit or why\n"
		 "no limit holds (these INCONCLUSIVEs do not fail the check).\n",
	.examples = "mempath check\n"
		    "mempath check h200.json\n"
		    "mempath check --brief mempath-run.json\n"
		    "mempath check --beside tools.json h200.json\n",
	.tail = "Exit status: 0 every path PASS or WARN, 1 a FAIL or INCONCLUSIVE (or a probe\n"
		"could not run; --drift: a value drifted), 2 bad usage, a file that cannot be\n"
		"read, or no reference values for this kind.\n",
	.args = check_args,
	.opts_size = sizeof(struct check_opts),
	.init = check_init,
	.run = check_main,
};
