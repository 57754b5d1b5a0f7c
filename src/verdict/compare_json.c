/* compare_json.c - a comparison as JSON (schema mempath/compare/1), with
 * jansson; compare_json_read.c reads it back. Raw samples stay in the legs'
 * results files, which it names.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/noise.h"
#include "machine/virt.h"
#include "verdict/compare_json.h"

/* NAN and infinities are not JSON: null. */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *labels_obj(const struct label *l, size_t n)
{
	json_t *o = json_object();
	for (size_t i = 0; i < n; i++)
		json_object_set_new(o, l[i].key, json_string(l[i].value));
	return o;
}

static json_t *str_array(char *const *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *row_to_json(const struct comparison *c, const struct compare_row *row)
{
	json_t *o = json_object(), *legs = json_array();
	json_object_set_new(o, "probe", json_string(row->probe));
	json_object_set_new(o, "metric", json_string(row->metric));
	json_object_set_new(o, "labels", labels_obj(row->labels, row->n_labels));
	json_object_set_new(o, "params", labels_obj(row->params, row->n_params));
	json_object_set_new(o, "key", json_string(row->key));
	json_object_set_new(o, "unit", json_string(unit_name(row->unit)));
	json_object_set_new(o, "better", json_string(better_name(row->better)));
	json_object_set_new(o, "control", json_boolean(row->control));
	json_object_set_new(o, "primary", json_boolean(row->primary));
	if (row->probe_primary !=
	    PRIMARY_UNSAID) /* only then: older comparisons keep their bytes */
		json_object_set_new(o, "probe_primary",
				    json_boolean(row->probe_primary == PRIMARY_YES));
	for (size_t j = 0; j < c->n_legs; j++) {
		json_t *l = json_object();
		json_object_set_new(l, "median", row->m[j] ? num(row->median[j]) : json_null());
		json_object_set_new(l, "n", json_integer((json_int_t)row->n[j]));
		/* a leg with the metric but no counted sample: only then, so the
		 * files of every other comparison read as before */
		if (row->m[j] && row->n[j] == 0)
			json_object_set_new(l, "present", json_true());
		json_object_set_new(l, "p_vs_b", num(row->p_vs_a[j]));
		/* only where the noise meter recorded it (§4.14) */
		if (isfinite(row->busy[j]))
			json_object_set_new(l, "busy", json_real(row->busy[j]));
		if (isfinite(row->wait[j]))
			json_object_set_new(l, "wait", json_real(row->wait[j]));
		if (isfinite(row->gpu_others[j]))
			json_object_set_new(l, "gpu_others", json_real(row->gpu_others[j]));
		/* samples a receipt voided (§4.18): only where there are some */
		if (row->dropped[j])
			json_object_set_new(l, "dropped",
					    json_integer((json_int_t)row->dropped[j]));
		json_array_append_new(legs, l);
	}
	json_object_set_new(o, "legs", legs);
	json_object_set_new(o, "median_a", num(row->median_a));
	json_object_set_new(o, "median_b", num(row->median_b));
	json_object_set_new(o, "change", num(row->change));
	json_object_set_new(o, "ci95", json_pack("[o, o]", num(row->ci_lo), num(row->ci_hi)));
	json_object_set_new(o, "p", num(row->p_effect));
	json_object_set_new(o, "p_adjusted", num(row->p_effect_adj));
	json_object_set_new(o, "drift", num(row->drift));
	json_object_set_new(o, "p_drift", num(row->p_drift));
	json_object_set_new(o, "p_drift_adjusted", num(row->p_drift_adj));
	json_object_set_new(o, "threshold", num(row->threshold));
	/* what set it, where one was set (§5.18); the rounds' spread, the CI
	 * too wide to say (§5.19): only where there is one */
	if (row->threshold_from < THRESHOLD_FROM__COUNT)
		json_object_set_new(o, "threshold_from",
				    json_string(threshold_from_id(row->threshold_from)));
	if (isfinite(row->round_noise))
		json_object_set_new(o, "round_noise", json_real(row->round_noise));
	if (row->heterogeneity) /* rounds, where it could be tested (§5.10) */
		json_object_set(o, "heterogeneity", row->heterogeneity);
	if (row->ci_wide)
		json_object_set_new(o, "ci_too_wide", json_true());
	json_object_set_new(o, "verdict", json_string(verdict_id(row->verdict)));
	json_object_set_new(o, "reason", row->reason ? json_string(row->reason) : json_null());
	if (row->rule)
		json_object_set_new(o, "rule", json_string(row->rule));
	if (row->mechanism) {
		json_t *mc = json_array();
		json_object_set_new(o, "mechanism", json_string(row->mechanism));
		for (size_t k = 0; k < row->n_mech; k++) /* the column: each counter, ranked */
			json_array_append_new(
				mc, json_pack("{s:s, s:o, s:o, s:o}", "counter", row->mech[k].name,
					      "median_a", num(row->mech[k].a), "median_b",
					      num(row->mech[k].b), "change",
					      num(row->mech[k].a > 0
							  ? row->mech[k].b / row->mech[k].a - 1
							  : NAN)));
		json_object_set_new(o, "mechanism_counters", mc);
	}
	if (row->control)
		json_object_set_new(o, "moved", json_boolean(row->moved));
	if (row->noisy)
		json_object_set_new(o, "noisy", json_true());
	/* legs without rounds: their own test, or too few of them (§5.4) */
	if (isfinite(row->p_legs))
		json_object_set_new(o, "p_legs", json_real(row->p_legs));
	if (row->few_legs)
		json_object_set_new(o, "few_legs", json_true());
	if (c->n_rounds)
		json_object_set_new(o, "rounds",
				    json_pack("{s:i, s:i, s:[i, i]}", "used", (int)row->rounds,
					      "left_out", (int)row->rounds_out, "n", (int)row->n_a,
					      (int)row->n_b));
	return o;
}

/* The few host facts the Markdown report prints, in the results file's
 * shape, so a report rendered from this file alone reads the same. */
static json_t *host_brief(const struct run *r)
{
	static const char *const keys[] = {"hostname", "kernel"};
	json_t *o = json_object(), *cpu, *v;
	if (!r->host)
		return o;
	for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
		v = json_object_get(r->host, keys[k]);
		if (v && json_is_string(v))
			json_object_set_new(o, keys[k], json_string(json_string_value(v)));
	}
	cpu = json_object_get(r->host, "cpu");
	v = cpu ? json_object_get(cpu, "model") : NULL;
	if (v && json_is_string(v))
		json_object_set_new(o, "cpu", json_pack("{s:s}", "model", json_string_value(v)));
	/* only under an emulator (its timings are not memory figures), so other
	 * comparisons read the same */
	if (virt_is_emulated(r->host, NULL))
		json_object_set(o, "virt", json_object_get(r->host, "virt"));
	return o;
}

/* A wrapped workload's runs as its leg recorded them (iterations without
 * the stderr kept for failed runs; llama-bench's settings, the args, the
 * cgroup), so the per-run tables render from this file alone
 * (docs/design.md §11.6). NULL for a leg that is not a wrap. */
static json_t *wrap_brief(const struct run *r)
{
	static const char *const keep_keys[] = {"llama", "args", "cgroup"};
	for (size_t i = 0; i < r->n_probes; i++) {
		json_t *ex = r->probes[i].extra, *its, *o, *it;
		size_t k;
		if (strcmp(r->probes[i].name, "work.wrap") != 0 || !json_is_object(ex) ||
		    !json_is_array(its = json_object_get(ex, "iterations")))
			continue;
		o = json_pack("{s:[]}", "iterations");
		json_array_foreach (its, k, it) {
			json_t *copy = json_deep_copy(it);
			json_object_del(copy, "stderr_tail");
			json_array_append_new(json_object_get(o, "iterations"), copy);
		}
		for (k = 0; k < ARRAY_SIZE(keep_keys); k++)
			if (json_object_get(ex, keep_keys[k]))
				json_object_set(o, keep_keys[k], json_object_get(ex, keep_keys[k]));
		return o;
	}
	return NULL;
}

json_t *comparison_to_json(const struct comparison *c)
{
	const struct compare_opts *op = &c->opts;
	const struct compare_summary *s = &c->summary;
	json_t *o = json_object(), *legs = json_array(), *rows = json_array(), *counts;
	json_t *controls = json_array(), *expect = json_array();
	char *line;
	json_object_set_new(o, "schema", json_string(COMPARE_SCHEMA));
	if (c->owned && c->owned->tool)
		json_object_set(o, "tool", c->owned->tool);
	else
		json_object_set_new(o, "tool",
				    json_pack("{s:s, s:s, s:s}", "name", "mempath", "version",
					      MEMPATH_VERSION, "git", MEMPATH_GIT));
	for (size_t j = 0; j < c->n_legs; j++) {
		const struct run *r = c->legs[j].run;
		char v[2] = {c->legs[j].variant, 0};
		json_t *w;
		json_t *l =
			json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:o}", "file", c->legs[j].file,
				  "name", c->legs[j].name, "variant", v, "label",
				  r->label ? json_string(r->label) : json_null(), "start_time",
				  r->start_time ? json_string(r->start_time) : json_null(),
				  "end_time", r->end_time ? json_string(r->end_time) : json_null(),
				  "host", host_brief(r));
		/* only when it matters, so older comparisons read the same */
		if (!r->complete)
			json_object_set_new(l, "incomplete", json_true());
		if (r->leg) /* a leg of ab: its variant's setup and environment */
			json_object_set(l, "ab", r->leg);
		if ((w = wrap_brief(r)))
			json_object_set_new(l, "wrap", w);
		if (c->legs[j].round)
			json_object_set_new(l, "round", json_integer(c->legs[j].round));
		json_array_append_new(legs, l);
	}
	json_object_set_new(o, "legs", legs);
	if (c->n_rounds)
		json_object_set_new(o, "rounds", json_integer((json_int_t)c->n_rounds));
	json_object_set_new(o, "change_from", json_string(comparison_change_from(c)));
	for (size_t k = 0; k < op->n_controls; k++)
		json_array_append_new(controls, json_string(op->controls[k]));
	for (size_t k = 0; k < op->n_expect_diff; k++)
		json_array_append_new(expect, json_string(op->expect_diff[k]));
	json_object_set_new(o, "options",
			    json_pack("{s:f, s:f, s:o, s:o, s:o, s:b, s:i, s:s}", "alpha",
				      op->alpha, "threshold", op->threshold, "primary",
				      op->primary ? json_string(op->primary) : json_null(),
				      "controls", controls, "expect_diff", expect, "allow_diff",
				      op->allow_diff, "bootstrap_iters", (int)op->bootstrap_iters,
				      "multiple_testing",
				      op->primary ? "primary metric; Holm over the rest"
						  : "Holm-Bonferroni over the compared set"));
	json_object_set_new(json_object_get(o, "options"), "busy_cpus",
			    json_real(op->busy_cpus > 0 ? op->busy_cpus : NOISE_BUSY_CPUS));
	/* auto rounds' look (§5.13): the CI level and the margin of SAME */
	if (op->ci_level > 0)
		json_object_set_new(json_object_get(o, "options"), "ci_level",
				    json_real(op->ci_level));
	if (op->margin > 0)
		json_object_set_new(json_object_get(o, "options"), "margin", json_real(op->margin));
	line = comparison_controls_line(c);
	json_object_set_new(o, "controls_moved", line ? json_string(line) : json_null());
	free(line);
	json_object_set_new(o, "knobs_differ", str_array(c->knob_diffs, c->n_knob_diffs));
	json_object_set_new(o, "refused", json_boolean(c->refused));
	json_object_set_new(o, "notes", str_array(c->notes, c->n_notes));
	for (size_t i = 0; i < c->n_rows; i++)
		json_array_append_new(rows, row_to_json(c, &c->rows[i]));
	json_object_set_new(o, "metrics", rows);
	counts = json_object();
	for (int v = 0; v < VERDICT__COUNT; v++)
		json_object_set_new(counts, verdict_id((enum verdict)v),
				    json_integer((json_int_t)s->count[v]));
	line = comparison_summary_line(c);
	json_object_set_new(o, "summary",
			    json_pack("{s:o, s:o, s:i, s:i, s:i, s:i, s:b, s:s}", "counts", counts,
				      "geomean", num(s->geomean), "n_geomean", (int)s->n_geomean,
				      "controls", (int)s->controls, "controls_moved",
				      (int)s->controls_moved, "noisy", (int)s->noisy, "trusted",
				      comparison_trusted(c), "line", line));
	if (s->wrap_primary) /* only then, so that other comparisons read as before */
		json_object_set_new(json_object_get(o, "summary"), "wrap_primary", json_true());
	if (s->probe_primary)
		json_object_set_new(json_object_get(o, "summary"), "probe_primary", json_true());
	free(line);
	return o;
}
