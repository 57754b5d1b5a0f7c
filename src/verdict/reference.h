/* reference.h - reference values shipped in data/ (schema mempath/reference/1,
 * docs/fleet.md): one file per kind of machine, which fingerprints it
 * matches, the probes (and options) that measure its paths, and each path's
 * value with its source, date and tolerance. A node is checked against every
 * kind it matches: PASS within the tolerance (or better), WARN up to twice
 * it, FAIL beyond. */
#ifndef MEMPATH_VERDICT_REFERENCE_H
#define MEMPATH_VERDICT_REFERENCE_H

#include <jansson.h>
#include <stddef.h>

#include "results/fleet.h"
#include "results/results.h"

#define REFERENCE_SCHEMA "mempath/reference/1"

struct ref_value {
	char *path, *means, *probe, *metric;
	struct label *labels; /* every one must be on the metric (src, dst may be extra) */
	size_t n_labels;
	struct label *params; /* every one must be a param of its probe */
	size_t n_params;
	enum unit unit;
	double value, tolerance;
	char *source, *date, *other;
	/* the reference is this tool's figure (its name, version and call:
	 * "nvbandwidth v0.8 -t host_to_device_memcpy_ce"); NULL: mempath's own */
	char *tool;
	/* where that figure is in the results of `mempath import` (check
	 * --beside): its probe ("ref.nvbandwidth"), metric and labels */
	char *tf_probe, *tf_metric;
	struct label *tf_labels;
	size_t n_tf_labels;
	/* an efficiency band instead of a value: the path's physical limit
	 * (machine/limits.h: "dram", "hbm", "pcie", "nvlink"), PASS at or above
	 * pass x limit, WARN at or above warn x limit, else FAIL */
	char *limit;
	double pass, warn;
};

struct ref_run {
	char *probe;
	char **opts; /* "name=value" */
	size_t n_opts;
	int quick; /* the probe's quick sizes first, as the quick suite */
};

struct ref_kind {
	char *file; /* where it was read */
	char *kind, *about;
	/* what a fingerprint must hold (NULL / 0: anything) */
	char *cpu_model, *gpu_model;
	unsigned cpus, gpus_min;
	int fallback; /* match.fallback: any machine no other kind matches */
	struct ref_run *runs;
	size_t n_runs;
	struct ref_value *values;
	size_t n_values;
};

struct ref_set {
	char *dir;
	struct ref_kind *kinds;
	size_t n;
};

/* Where the references are: dir if given, else $MEMPATH_REFS, else data/
 * beside the binary's build folder (../data), else the data/ of the tree it
 * was built from. New string. */
char *ref_dir(const char *dir);
/* Reads every *.json of dir (in name order). 0, or -1 after one error line
 * naming the file and the fault. */
int ref_load(const char *dir, struct ref_set *out);
void ref_set_free(struct ref_set *s);
/* Does the fingerprint match the kind? */
int ref_matches(const struct ref_kind *k, json_t *host);
/* PASS, WARN or FAIL of value against reference and tolerance. */
enum check_status ref_judge(double value, double reference, double tolerance, enum better better);
/* Appends to *v one check per path of k and metric of r that it names
 * (INCONCLUSIVE with the reason where r did not measure it, or where a
 * band's limit is unknown; a band whose device r's machine lacks is left
 * out). */
void ref_check_run(const struct ref_kind *k, const struct run *r, struct fleet_check **v,
		   size_t *n);
/* Must `check` run probe for k on host? Not when every value naming it is a
 * band whose limit host does not know or whose device it lacks. */
int ref_probe_needed(const struct ref_kind *k, const char *probe, const json_t *host);
/* The values of k whose probe r ran but whose metric with the same label
 * keys (src, dst aside) r does not have: a probe's labels drifted from the
 * reference. One line each appended to *msgs; the count. */
size_t ref_drift(const struct ref_kind *k, const struct run *r, char ***msgs, size_t *n);
/* check --beside: each value of every kind whose tool figure (tf_*) the
 * imported run tools has takes that figure (the median of the metrics that
 * match) as its reference, with file and its date as the source; the
 * number of values it replaced. */
size_t ref_beside(struct ref_set *refs, const struct run *tools, const char *file);
/* Is r an imported run (`mempath import`: every probe a ref.TOOL)? */
int run_is_imported(const struct run *r);
/* compare TOOLS MINE: the tool figures of the imported run tools that
 * refs's values name as the reference of one of mine's metrics, as those
 * metrics: a new run of mine's probes (their names and options), each
 * metric with mine's name, unit and labels and the tool's samples of its
 * figure (its desc and param "tool" the tool's call); mine keeps only the
 * metrics that got one, so the two join row by row. NULL (mine emptied)
 * when none did. */
struct run *ref_tools_as(const struct ref_set *refs, const struct run *tools, struct run *mine);
/* Where pr ran with the quick suite's options and k's run of its probe
 * with the probe's defaults: one line (new string) saying so; else NULL. */
char *ref_options_differ(const struct ref_kind *k, const struct probe_result *pr);

#endif
