/* compare_json.c - a comparison as JSON (schema mempath/compare/1), with
 * jansson, and back. Raw samples stay in the legs' results files, which it
 * names; reading one back never opens them (a results file never causes a
 * command to run, and they may be gone): it renders what was decided.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/noise.h"
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
		if (isfinite(row->gpu_others[j]))
			json_object_set_new(l, "gpu_others", json_real(row->gpu_others[j]));
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
	json_object_set_new(o, "verdict", json_string(verdict_id(row->verdict)));
	json_object_set_new(o, "reason", row->reason ? json_string(row->reason) : json_null());
	if (row->control)
		json_object_set_new(o, "moved", json_boolean(row->moved));
	if (row->noisy)
		json_object_set_new(o, "noisy", json_true());
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
	free(line);
	return o;
}

/* ---- reading ---- */

struct rd {
	const char *what;
	char path[64]; /* "metrics[12].legs[3]": where the fault is */
	struct comparison *c;
};

static int bad(const struct rd *rd, const char *field, const char *why)
{
	return error("'%s' is not a valid mempath comparison file: %s%s%s %s", rd->what, rd->path,
		     *rd->path && *field ? "." : "", field, why);
}

/* A copy the comparison owns, for the fields that only borrow (leg files,
 * option strings). */
static const char *keep(struct compare_owned *o, const char *s)
{
	o->strs = xrealloc(o->strs, (o->n_strs + 1) * sizeof(*o->strs));
	return o->strs[o->n_strs++] = xstrdup(s);
}

/* A string field; *out borrows from the JSON. Absent or null reads NULL,
 * unless required. */
static int get_str(const struct rd *rd, json_t *o, const char *key, int required, const char **out)
{
	json_t *v = json_object_get(o, key);
	*out = NULL;
	if (!v || json_is_null(v))
		return required ? bad(rd, key, "is missing") : 0;
	if (!json_is_string(v))
		return bad(rd, key, "is not a string");
	*out = json_string_value(v);
	return 0;
}

/* A number that must be present; null (the writer's NAN or infinity) reads
 * as `if_null`. */
static int get_num(const struct rd *rd, json_t *o, const char *key, double if_null, double *out)
{
	json_t *v = json_object_get(o, key);
	*out = if_null;
	if (!v)
		return bad(rd, key, "is missing");
	if (json_is_null(v))
		return 0;
	if (!json_is_number(v))
		return bad(rd, key, "is not a number");
	*out = json_number_value(v);
	return 0;
}

static int get_count(const struct rd *rd, json_t *o, const char *key, size_t *out)
{
	json_t *v = json_object_get(o, key);
	*out = 0;
	if (!v)
		return bad(rd, key, "is missing");
	if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > INT_MAX)
		return bad(rd, key, "is not a count");
	*out = (size_t)json_integer_value(v);
	return 0;
}

static int get_bool(const struct rd *rd, json_t *o, const char *key, int required, int *out)
{
	json_t *v = json_object_get(o, key);
	*out = 0;
	if (!v)
		return required ? bad(rd, key, "is missing") : 0;
	if (!json_is_boolean(v))
		return bad(rd, key, "is not true or false");
	*out = json_is_true(v);
	return 0;
}

/* An array of strings: copied into a new array (its strings in `keep`, or
 * each one owned by the caller when o is NULL). */
static int get_strs(const struct rd *rd, json_t *j, const char *key, struct compare_owned *o,
		    char ***out, size_t *n)
{
	json_t *v = json_object_get(j, key), *x;
	size_t i;
	*out = NULL;
	*n = 0;
	if (!v)
		return bad(rd, key, "is missing");
	if (!json_is_array(v))
		return bad(rd, key, "is not an array");
	*out = xcalloc(json_array_size(v) + 1, sizeof(**out));
	json_array_foreach (v, i, x) {
		if (!json_is_string(x))
			return bad(rd, key, "holds something that is not a string");
		(*out)[(*n)++] =
			o ? (char *)keep(o, json_string_value(x)) : xstrdup(json_string_value(x));
	}
	return 0;
}

/* Labels or params: an object of strings, optional; calls add for each. */
static int get_labels(const struct rd *rd, json_t *o, const char *key, struct probe_result *p,
		      struct metric *m)
{
	json_t *v = json_object_get(o, key), *x;
	const char *k;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_object(v))
		return bad(rd, key, "is not an object");
	json_object_foreach (v, k, x) {
		if (!json_is_string(x))
			return bad(rd, key, "has a value that is not a string");
		if (m)
			metric_add_label(m, k, json_string_value(x));
		else
			probe_result_add_param(p, k, json_string_value(x));
	}
	return 0;
}

static int verdict_parse(const char *s, enum verdict *out)
{
	for (int v = 0; v < VERDICT__COUNT; v++)
		if (strcmp(s, verdict_id((enum verdict)v)) == 0) {
			*out = (enum verdict)v;
			return 0;
		}
	return -1;
}

static int legs_from_json(struct rd *rd, json_t *legs)
{
	struct comparison *c = rd->c;
	int seen_a = 0, seen_b = 0;
	if (!legs)
		return bad(rd, "legs", "is missing");
	if (!json_is_array(legs))
		return bad(rd, "legs", "is not an array");
	if (json_array_size(legs) < 2 || json_array_size(legs) > COMPARE_MAX_LEGS) {
		char why[64];
		snprintf(why, sizeof(why), "does not hold 2 to %d legs", COMPARE_MAX_LEGS);
		return bad(rd, "legs", why);
	}
	for (size_t k = 0; k < json_array_size(legs); k++) {
		json_t *l = json_array_get(legs, k), *host, *ab, *wrap;
		const char *file, *name, *variant, *label, *start, *end;
		struct run *r;
		snprintf(rd->path, sizeof(rd->path), "legs[%zu]", k);
		if (!json_is_object(l))
			return bad(rd, "", "is not an object");
		if (get_str(rd, l, "file", 1, &file) || get_str(rd, l, "name", 1, &name) ||
		    get_str(rd, l, "variant", 1, &variant) || get_str(rd, l, "label", 0, &label) ||
		    get_str(rd, l, "start_time", 0, &start) || get_str(rd, l, "end_time", 0, &end))
			return -1;
		if (strcmp(variant, "A") != 0 && strcmp(variant, "B") != 0)
			return bad(rd, "variant", "is not A or B");
		host = json_object_get(l, "host");
		if (host && !json_is_object(host))
			return bad(rd, "host", "is not an object");
		ab = json_object_get(l, "ab");
		if (ab && !json_is_object(ab))
			return bad(rd, "ab", "is not an object");
		wrap = json_object_get(l, "wrap");
		if (wrap &&
		    (!json_is_object(wrap) || !json_is_array(json_object_get(wrap, "iterations"))))
			return bad(rd, "wrap", "is not an object with iterations");
		r = c->owned->legs[k] = run_new();
		r->complete = !json_is_true(json_object_get(l, "incomplete"));
		r->label = label ? xstrdup(label) : NULL;
		r->start_time = start ? xstrdup(start) : NULL;
		r->end_time = end ? xstrdup(end) : NULL;
		r->host = host ? json_incref(host) : NULL;
		r->leg = ab ? json_incref(ab) : NULL;
		if (wrap) /* the per-run tables read it as the leg's wrap */
			run_add_probe(r, "work.wrap")->extra = json_incref(wrap);
		c->legs[k].run = r;
		c->legs[k].file = keep(c->owned, file);
		c->legs[k].name = xstrdup(name);
		c->legs[k].variant = *variant;
		if (json_object_get(l, "round")) {
			size_t round;
			if (get_count(rd, l, "round", &round))
				return -1;
			c->legs[k].round = (unsigned)round;
		}
		seen_a |= *variant == 'A';
		seen_b |= *variant == 'B';
		c->n_legs++;
	}
	*rd->path = '\0';
	if (!seen_a || !seen_b)
		return bad(rd, "legs", "lack an A or a B leg");
	return 0;
}

static int options_from_json(struct rd *rd, json_t *op)
{
	struct compare_opts *o = &rd->c->opts;
	struct compare_owned *ow = rd->c->owned;
	const char *primary;
	size_t iters;
	if (!op)
		return bad(rd, "options", "is missing");
	if (!json_is_object(op))
		return bad(rd, "options", "is not an object");
	snprintf(rd->path, sizeof(rd->path), "options");
	if (get_num(rd, op, "alpha", NAN, &o->alpha) ||
	    get_num(rd, op, "threshold", NAN, &o->threshold) ||
	    (json_object_get(op, "busy_cpus") &&
	     get_num(rd, op, "busy_cpus", NAN, &o->busy_cpus)) ||
	    get_str(rd, op, "primary", 0, &primary) ||
	    get_strs(rd, op, "controls", ow, &ow->controls, &o->n_controls) ||
	    get_strs(rd, op, "expect_diff", ow, &ow->expect_diff, &o->n_expect_diff) ||
	    get_bool(rd, op, "allow_diff", 1, &o->allow_diff) ||
	    get_count(rd, op, "bootstrap_iters", &iters))
		return -1;
	o->primary = primary ? keep(ow, primary) : NULL;
	o->controls = (const char *const *)ow->controls;
	o->expect_diff = (const char *const *)ow->expect_diff;
	o->bootstrap_iters = (unsigned)iters;
	*rd->path = '\0';
	return 0;
}

/* A row of a comparison of rounds: the rounds used and left out, and the
 * samples of each variant in the rounds used. */
static int rounds_from_json(struct rd *rd, json_t *j, struct compare_row *row)
{
	json_t *r = json_object_get(j, "rounds"), *n;
	size_t na, nb;
	if (!r)
		return 0;
	n = json_object_get(r, "n");
	if (!json_is_object(r) || get_count(rd, r, "used", &row->rounds) ||
	    get_count(rd, r, "left_out", &row->rounds_out))
		return json_is_object(r) ? -1 : bad(rd, "rounds", "is not an object");
	if (!json_is_array(n) || json_array_size(n) != 2 ||
	    !json_is_integer(json_array_get(n, 0)) || !json_is_integer(json_array_get(n, 1)) ||
	    json_integer_value(json_array_get(n, 0)) < 0 ||
	    json_integer_value(json_array_get(n, 1)) < 0)
		return bad(rd, "rounds.n", "is not [A samples, B samples]");
	na = (size_t)json_integer_value(json_array_get(n, 0));
	nb = (size_t)json_integer_value(json_array_get(n, 1));
	row->n_a = na;
	row->n_b = nb;
	return 0;
}

/* One row: the probe and metric it names become an owned probe result with
 * one metric, which row->m[j] points to in the legs that had it (median not
 * null: the writer writes null for an absent leg). */
static int row_from_json(struct rd *rd, json_t *j, size_t i)
{
	struct comparison *c = rd->c;
	struct compare_row *row = &c->rows[i];
	struct probe_result *p = &c->owned->probes[i];
	const char *probe, *metric, *key, *unit, *better, *verdict, *reason;
	json_t *legs, *ci;
	struct metric *m;
	size_t base = strlen(rd->path);
	if (!json_is_object(j))
		return bad(rd, "", "is not an object");
	if (get_str(rd, j, "probe", 1, &probe) || get_str(rd, j, "metric", 1, &metric) ||
	    get_str(rd, j, "key", 1, &key) || get_str(rd, j, "unit", 1, &unit) ||
	    get_str(rd, j, "better", 1, &better) || get_str(rd, j, "verdict", 1, &verdict) ||
	    get_str(rd, j, "reason", 0, &reason))
		return -1;
	if (unit_parse(unit, &row->unit) != 0)
		return bad(rd, "unit", "is not a known unit");
	if (better_parse(better, &row->better) != 0)
		return bad(rd, "better", "is not higher|lower|none");
	if (verdict_parse(verdict, &row->verdict) != 0)
		return bad(rd, "verdict", "is not a known verdict");
	probe_result_init(p, probe);
	c->owned->n_probes++;
	m = probe_add_metric_v(p, metric, row->unit, row->better, NULL, NULL, 0);
	if (get_labels(rd, j, "labels", p, m) || get_labels(rd, j, "params", p, NULL))
		return -1;
	row->probe = p->name;
	row->metric = m->name;
	row->labels = m->labels;
	row->n_labels = m->n_labels;
	row->params = p->params;
	row->n_params = p->n_params;
	row->key = xstrdup(key);
	row->reason = reason ? xstrdup(reason) : NULL;
	if (get_bool(rd, j, "control", 1, &row->control) ||
	    get_bool(rd, j, "primary", 1, &row->primary) ||
	    get_bool(rd, j, "moved", 0, &row->moved))
		return -1;
	row->moved &= row->control;
	if (get_bool(rd, j, "noisy", 0, &row->noisy) || rounds_from_json(rd, j, row))
		return -1;
	legs = json_object_get(j, "legs");
	if (!legs || !json_is_array(legs) || json_array_size(legs) != c->n_legs)
		return bad(rd, "legs", "is not an array with one entry per leg");
	for (size_t k = 0; k < c->n_legs; k++) {
		json_t *l = json_array_get(legs, k);
		snprintf(rd->path + base, sizeof(rd->path) - base, ".legs[%zu]", k);
		if (!json_is_object(l))
			return bad(rd, "", "is not an object");
		row->busy[k] = row->gpu_others[k] = NAN;
		if (get_num(rd, l, "median", NAN, &row->median[k]) ||
		    get_count(rd, l, "n", &row->n[k]) ||
		    get_num(rd, l, "p_vs_b", NAN, &row->p_vs_a[k]) ||
		    (json_object_get(l, "busy") && get_num(rd, l, "busy", NAN, &row->busy[k])) ||
		    (json_object_get(l, "gpu_others") &&
		     get_num(rd, l, "gpu_others", NAN, &row->gpu_others[k])))
			return -1;
		if (!json_object_get(j, "rounds")) /* else the rounds used say */
			*(c->legs[k].variant == 'A' ? &row->n_a : &row->n_b) += row->n[k];
		if (!isnan(row->median[k]) || row->n[k] ||
		    json_is_true(json_object_get(l, "present"))) {
			row->m[k] = m;
			row->pr[k] = p;
		}
	}
	rd->path[base] = '\0';
	ci = json_object_get(j, "ci95");
	if (!ci || !json_is_array(ci) || json_array_size(ci) != 2 ||
	    !(json_is_number(json_array_get(ci, 0)) || json_is_null(json_array_get(ci, 0))) ||
	    !(json_is_number(json_array_get(ci, 1)) || json_is_null(json_array_get(ci, 1))))
		return bad(rd, "ci95", "is not [lo, hi]");
	row->ci_lo = json_is_null(json_array_get(ci, 0)) ? NAN
							 : json_number_value(json_array_get(ci, 0));
	row->ci_hi = json_is_null(json_array_get(ci, 1)) ? NAN
							 : json_number_value(json_array_get(ci, 1));
	/* drift and threshold are >= 0 (0 when not computed), so null was +inf:
	 * a zero median in the first leg of a variant. */
	return get_num(rd, j, "median_a", NAN, &row->median_a) ||
	       get_num(rd, j, "median_b", NAN, &row->median_b) ||
	       get_num(rd, j, "change", NAN, &row->change) ||
	       get_num(rd, j, "p", NAN, &row->p_effect) ||
	       get_num(rd, j, "p_adjusted", NAN, &row->p_effect_adj) ||
	       get_num(rd, j, "drift", INFINITY, &row->drift) ||
	       get_num(rd, j, "p_drift", NAN, &row->p_drift) ||
	       get_num(rd, j, "p_drift_adjusted", NAN, &row->p_drift_adj) ||
	       get_num(rd, j, "threshold", INFINITY, &row->threshold);
}

static int summary_from_json(struct rd *rd, json_t *j)
{
	struct compare_summary *s = &rd->c->summary;
	json_t *counts, *x;
	const char *k;
	if (!j)
		return bad(rd, "summary", "is missing");
	if (!json_is_object(j))
		return bad(rd, "summary", "is not an object");
	snprintf(rd->path, sizeof(rd->path), "summary");
	counts = json_object_get(j, "counts");
	if (!counts || !json_is_object(counts))
		return bad(rd, "counts", "is missing or not an object");
	snprintf(rd->path, sizeof(rd->path), "summary.counts");
	json_object_foreach (counts, k, x) {
		enum verdict v;
		if (verdict_parse(k, &v) != 0) /* the key itself may hold a newline */
			return bad(rd, "", "has a key that is not a verdict");
		if (get_count(rd, counts, k, &s->count[v]))
			return -1;
	}
	snprintf(rd->path, sizeof(rd->path), "summary");
	if (get_num(rd, j, "geomean", NAN, &s->geomean) ||
	    get_count(rd, j, "n_geomean", &s->n_geomean) ||
	    get_count(rd, j, "controls", &s->controls) ||
	    get_count(rd, j, "controls_moved", &s->controls_moved) ||
	    (json_object_get(j, "noisy") && get_count(rd, j, "noisy", &s->noisy)))
		return -1;
	*rd->path = '\0';
	return 0;
}

struct comparison *comparison_from_json(json_t *j, const char *what)
{
	struct rd rd = {.what = what, .path = ""};
	struct comparison *c;
	const char *schema, *line;
	json_t *metrics, *tool;
	if (!json_is_object(j)) {
		bad(&rd, "top level", "is not an object");
		return NULL;
	}
	if (get_str(&rd, j, "schema", 1, &schema))
		return NULL;
	if (strcmp(schema, COMPARE_SCHEMA) != 0) {
		error("'%s' has schema '%s', expected '%s'", what, schema, COMPARE_SCHEMA);
		return NULL;
	}
	rd.c = c = xcalloc(1, sizeof(*c));
	compare_opts_default(&c->opts);
	c->owned = xcalloc(1, sizeof(*c->owned));
	tool = json_object_get(j, "tool");
	if (tool && json_is_object(tool))
		c->owned->tool = json_incref(tool);
	if (json_object_get(j, "rounds") && get_count(&rd, j, "rounds", &c->n_rounds))
		goto fail;
	if (legs_from_json(&rd, json_object_get(j, "legs")) ||
	    options_from_json(&rd, json_object_get(j, "options")) ||
	    get_str(&rd, j, "controls_moved", 0, &line) ||
	    get_strs(&rd, j, "knobs_differ", NULL, &c->knob_diffs, &c->n_knob_diffs) ||
	    get_bool(&rd, j, "refused", 1, &c->refused) ||
	    get_strs(&rd, j, "notes", NULL, &c->notes, &c->n_notes))
		goto fail;
	metrics = json_object_get(j, "metrics");
	if (!metrics || !json_is_array(metrics)) {
		bad(&rd, "metrics", "is missing or not an array");
		goto fail;
	}
	c->cap_rows = json_array_size(metrics);
	c->rows = xcalloc(c->cap_rows + 1, sizeof(*c->rows));
	c->owned->probes = xcalloc(c->cap_rows + 1, sizeof(*c->owned->probes));
	for (size_t i = 0; i < c->cap_rows; i++) {
		snprintf(rd.path, sizeof(rd.path), "metrics[%zu]", i);
		c->n_rows++;
		if (row_from_json(&rd, json_array_get(metrics, i), i))
			goto fail;
	}
	*rd.path = '\0';
	if (summary_from_json(&rd, json_object_get(j, "summary")))
		goto fail;
	return c;
fail:
	comparison_free(c);
	return NULL;
}
