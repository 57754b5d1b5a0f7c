/* compare_json_read.c - a comparison file (schema mempath/compare/1) read
 * back, strictly. Reading one never opens the legs' results files (a results
 * file never causes a command to run, and they may be gone): it renders what
 * was decided.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "verdict/compare_json.h"

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
