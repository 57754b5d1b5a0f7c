/* fleet.c - `mempath fleet`: every node of an MPI job measures its own
 * machine, rank 0 gathers and judges (flow/fleet.c); `mempath fleet merge
 * FILE...`: the same fleet file from results files. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/outguard.h"
#include "base/strvec.h"
#include "base/util.h"
#include "cmd/args.h"
#include "cmd/groups.h"
#include "exec/mpi.h"
#include "exec/session.h"
#include "flow/fleet.h"
#include "probes/registry.h"
#include "report/report.h"
#include "results/fleet_json.h"
#include "verdict/reference.h"

struct fleet_opts {
	const char *suite, *only, *label, *out, *refs, *node_dir;
	enum report_format format;
	struct arg_strs opt;
	struct sampling_args s;
	unsigned min_group;
	double z, threshold;
	int quick;
};

static void fleet_init(void *p)
{
	struct fleet_opts *o = p;
	struct fleet_thresholds th;
	fleet_thresholds_default(&th);
	sampling_args_init(&o->s);
	o->z = th.z;
	o->threshold = th.practical;
	o->min_group = th.min_group;
}

static const struct arg fleet_args[] = {
	ARG_CHOICE("suite", 0, struct fleet_opts, suite, "S", "quick|full|cpu|gpu|p2p",
		   "the probes every node runs: quick (default), full, cpu, gpu, p2p"),
	ARG_STR("only", 0, struct fleet_opts, only, "LIST",
		"only these probes (of the suite, when --suite is given)"),
	ARG_FLAG("quick", 0, struct fleet_opts, quick,
		 "the probes' small sizes first (as the quick suite does)"),
	ARG_STRS("opt", 0, struct fleet_opts, opt, "K=V",
		 "a probe option for every probe that has it (the same as a bare K=V)"),
	ARGS_SAMPLING(struct fleet_opts, s),
	ARG_STR("label", 0, struct fleet_opts, label, "L", "a name recorded in every node's run"),
	ARG_STR("node-dir", 0, struct fleet_opts, node_dir, "DIR",
		"each node also writes its results to DIR/<host>-<rank>.json"),
	ARG_STR("output", 'o', struct fleet_opts, out, "FILE",
		"fleet file (default ./mempath-fleet-<time>.json)"),
	ARG_FORMAT("format", 0, struct fleet_opts, format, REPORT_DOC_FLEET,
		   "the report's format on stdout (default term)"),
	ARG_STR("refs", 0, struct fleet_opts, refs, "DIR",
		"reference values (default: $MEMPATH_REFS, else data/ of this tree)"),
	ARG_NUM("z", 0, struct fleet_opts, z, "Z", 1, 100,
		"flag beyond this modified z in the worse direction (default 3.5)"),
	ARG_PCT("threshold", 0, struct fleet_opts, threshold, "PCT",
		"and beyond this difference from the group median (default 5%)"),
	ARG_COUNT("min-group", 0, struct fleet_opts, min_group, "N", 3, 1000000,
		  "peers judge groups of at least N nodes (default 5)"),
	ARG_END};

static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; p && *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && strncmp(p, name, n) == 0)
			return 1;
		p += len + (p[len] == ',');
	}
	return 0;
}

static int has_opt(const struct probe *p, const char *kv)
{
	size_t len = strcspn(kv, "=");
	for (const struct opt *o = p->opts; o && o->name; o++)
		if (strlen(o->name) == len && strncmp(o->name, kv, len) == 0)
			return 1;
	return 0;
}

/* The probes of the selection and the options each gets. 0, or -1 after an
 * error line. */
static int plan_items(const struct fleet_opts *o, char **kvs, size_t n_kvs, struct fleet_plan *pl)
{
	struct fleet_item *items = xcalloc(probe_table_len + 1, sizeof(*items));
	for (const char *p = o->only; p && *p;) {
		size_t len = strcspn(p, ",");
		char *name = xasprintf("%.*s", (int)len, p);
		int known = probe_find(name) != NULL;
		if (!known)
			error("unknown probe '%s' in --only (see 'mempath list')", name);
		free(name);
		if (!known)
			return free(items), -1;
		p += len + (p[len] == ',');
	}
	for (size_t i = 0; i < probe_table_len; i++) {
		const struct probe *p = probe_table[i];
		struct fleet_item *it = &items[pl->n_items];
		if (o->only ? !in_list(o->only, p->name)
			    : !session_suite_has(o->suite ? o->suite : "quick", p))
			continue;
		if (o->only && o->suite && !session_suite_has(o->suite, p))
			continue;
		it->probe = p;
		it->kvs = xcalloc(n_kvs + 1, sizeof(char *));
		for (size_t k = 0; k < n_kvs; k++)
			if (has_opt(p, kvs[k]))
				it->kvs[it->n_kvs++] = kvs[k];
		pl->n_items++;
		if (runner_check_opts(p, it->kvs, it->n_kvs, &pl->ropts) != 0) {
			pl->items = items;
			return -1;
		}
	}
	pl->items = items;
	for (size_t k = 0; k < n_kvs; k++) {
		int used = 0;
		for (size_t i = 0; i < pl->n_items; i++)
			used |= has_opt(items[i].probe, kvs[k]);
		if (!used)
			return error(
				"no probe of the selection has the option in '%s' (see 'mempath "
				"help PROBE')",
				kvs[k]);
	}
	if (pl->n_items == 0)
		return error("the selection has no probe (see 'mempath list')");
	return 0;
}

static void plan_free(struct fleet_plan *pl)
{
	for (size_t i = 0; i < pl->n_items; i++)
		free(pl->items[i].kvs);
	free((void *)pl->items);
}

/* The references, or none when there is no data/ (a note); a file there
 * that cannot be read is an error, and so is a folder named by --refs or
 * $MEMPATH_REFS that is not there (the user asked for those). */
static int load_refs(const char *dir, struct ref_set *refs)
{
	char *d = ref_dir(dir);
	const char *env = getenv("MEMPATH_REFS");
	int rc = 0;
	memset(refs, 0, sizeof(*refs));
	if (!dir && !(env && *env) && access(d, F_OK) != 0)
		warning("no reference values ('%s' not found; --refs DIR)", d);
	else
		rc = ref_load(d, refs);
	free(d);
	return rc;
}

/* Writes the fleet file and the report; 1 when a node is flagged. */
static int finish(struct fleet *fl, const struct fleet_opts *o)
{
	enum report_format fmt = o->format;
	char *path = o->out ? xstrdup(o->out) : session_default_path("fleet");
	int rc = fleet_write_file(fl, path) == 0 ? 0 : 1;
	if (report_fleet_write(fl, fmt, stdout) != 0)
		rc = 1;
	fflush(stdout);
	if (rc == 0)
		notice("fleet: %s (%zu nodes, %zu flagged)", path, fl->n_nodes, fl->n_flagged);
	if (rc == 0 && fl->n_flagged)
		rc = 1;
	free(path);
	return rc;
}

static int merge_main(struct fleet_opts *o, const struct cmd_line *l, struct ref_set *refs,
		      const struct fleet_thresholds *th)
{
	struct fleet *fl;
	int rc;
	if (o->suite || o->only || o->quick || o->opt.n || o->node_dir || o->label)
		return error("merge takes FILE... and -o, --format, --refs, --z, --threshold, "
			     "--min-group; the run's options are for 'mempath fleet' itself"),
		       2;
	if (l->argc < 2)
		return error("merge needs results files (mempath fleet merge FILE...)"), 2;
	if (check_output_not_input(o->out, l->argv + 1, (size_t)l->argc - 1) != 0)
		return 2;
	fl = fleet_flow_merge(l->argv + 1, (size_t)l->argc - 1, th, refs, l->all_argc, l->all_argv);
	if (!fl)
		return 2;
	rc = finish(fl, o);
	fleet_free(fl);
	return rc;
}

static int fleet_main(void *p, const struct cmd_line *l)
{
	struct fleet_opts *o = p;
	struct fleet_plan pl;
	struct fleet_thresholds th = {o->z, o->threshold, o->min_group};
	struct ref_set refs = {0};
	struct fleet *fl = NULL;
	struct strvec kvs = STRVEC_INIT;
	int rc = 0, merge = l->argc > 0 && strcmp(l->argv[0], "merge") == 0;
	util_set_quiet(o->s.quiet);
	for (int i = merge; i < l->argc && !merge; i++) {
		if (!strchr(l->argv[i], '='))
			rc = error("unexpected argument '%s' (probe options are K=V; see "
				   "'mempath fleet --help')",
				   l->argv[i]);
		strvec_push(&kvs, l->argv[i]);
	}
	for (size_t i = 0; i < o->opt.n; i++)
		strvec_push(&kvs, o->opt.v[i]);
	if (rc || load_refs(o->refs, &refs) != 0) {
		ref_set_free(&refs);
		strvec_clear(&kvs);
		return 2;
	}
	if (merge) {
		rc = merge_main(o, l, &refs, &th);
		ref_set_free(&refs);
		strvec_clear(&kvs);
		return rc;
	}
	memset(&pl, 0, sizeof(pl));
	sampling_args_runner(&o->s, &pl.ropts);
	pl.ropts.quick = o->quick || (!o->only && (!o->suite || !strcmp(o->suite, "quick")));
	pl.suite = o->suite ? o->suite : o->only ? NULL : "quick";
	pl.label = o->label;
	pl.node_dir = o->node_dir;
	pl.argc = l->all_argc;
	pl.argv = l->all_argv;
	pl.th = th;
	pl.refs = &refs;
	if (plan_items(o, kvs.v, kvs.n, &pl) != 0)
		rc = 2;
	else if (fleet_flow_mpi(&pl, &fl) != 0)
		rc = mpi_get() ? 1 : 2; /* no MPI built in: use merge */
	else if (fl)
		rc = finish(fl, o);
	fleet_free(fl);
	plan_free(&pl);
	ref_set_free(&refs);
	strvec_clear(&kvs);
	return rc;
}

const struct command command_fleet = {
	.name = "fleet",
	.summary = "many nodes: measure each (MPI) or merge their files, flag the unhealthy",
	.synopsis = "[K=V...] | merge [NAME=]FILE...",
	.about = "Under MPI (mpirun, or srun with Open MPI's Slurm support), one rank per node:\n"
		 "every rank runs the probes on its own node (ranks of one host take turns and\n"
		 "are reported as host:rank), rank 0 gathers each node's results once, judges\n"
		 "them and writes the fleet file (mempath/fleet/1) atomically. A probe that\n"
		 "fails on one node is recorded for that node; the others go on.\n"
		 "\n"
		 "'fleet merge FILE...' builds the same fleet file from results files written\n"
		 "by 'mempath run' on each node (NAME=FILE names a node; default its host).\n"
		 "\n"
		 "Nodes are grouped by kind (CPU model and count, memory, GPU model and count,\n"
		 "driver). In a group of --min-group nodes or more a node is flagged on a metric\n"
		 "whose median is an outlier among its peers' (modified z beyond --z in the\n"
		 "worse direction) and differs from the group median by more than --threshold\n"
		 "or the metric's own spread; every node is also checked against the reference\n"
		 "values of its kind (data/, 'mempath check'), and a FAIL there flags it.\n",
	.examples = "mpirun -np 64 --map-by ppr:1:node mempath fleet --suite quick -o fleet.json\n"
		    "srun --ntasks-per-node=1 mempath fleet --only cpu.stream,gpu.stream -o "
		    "fleet.json\n"
		    "mempath fleet merge results/*.json -o fleet.json --format html > fleet.html\n",
	.tail = "Exit status: 0 no node flagged, 1 a node flagged (or the fleet file could not\n"
		"be written, or MPI failed), 2 bad usage, a file that is not a results file,\n"
		"or 'fleet' in a binary built without MPI. Ranks other than 0 exit 0.\n",
	.args = fleet_args,
	.opts_size = sizeof(struct fleet_opts),
	.init = fleet_init,
	.run = fleet_main,
};
