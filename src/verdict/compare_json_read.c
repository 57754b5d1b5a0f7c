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
#include "results/json_read.h"
#include "verdict/compare.h"
#include "verdict/compare_json.h"

struct rd {
	struct jrd j; /* j.path: "metrics[12].legs[3]", where the fault is */
	struct comparison *c;
};

/* A copy the comparison owns, for the fields that only borrow (leg files,
 * option strings). */
/* The pipeline's own name for rule (static), or NULL: not one of its rules. */
static const char *known_rule(const char *rule)
{
	const char *name;
	int after;

	for (size_t k = 0; (name = compare_rule_name(k, &after)); k++)
		if (strcmp(name, rule) == 0)
			return name;
	return NULL;
}

static const char *keep(struct compare_owned *o, const char *s)
{
	GROW_ONE(o->strs, o->n_strs);
	return o->strs[o->n_strs++] = xstrdup(s);
}

/* keep() as jrd_strs's copy. */
static char *keep_str(void *owned, const char *s)
{
	return (char *)keep(owned, s);
}

static void add_metric_label(void *m, const char *k, const char *v)
{
	metric_add_label(m, k, v);
}

static void add_param(void *p, const char *k, const char *v)
{
	probe_result_add_param(p, k, v);
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

/* Where the threshold came from, the rounds' spread and a CI too wide to
 * say (§5.18, §5.19): each absent in files made before them. */
static int threshold_from_json(struct rd *rd, json_t *j, struct compare_row *row)
{
	const char *from = NULL;
	row->threshold_from = THRESHOLD_FROM__COUNT;
	row->round_noise = NAN;
	if (jrd_str(&rd->j, j, "threshold_from", 0, &from) ||
	    (json_object_get(j, "heterogeneity") &&
	     !json_is_object(json_object_get(j, "heterogeneity")) &&
	     jrd_bad(&rd->j, "heterogeneity", "is not an object")) ||
	    (json_object_get(j, "round_noise") &&
	     jrd_num(&rd->j, j, "round_noise", 1, NAN, &row->round_noise)) ||
	    jrd_bool(&rd->j, j, "ci_too_wide", 0, &row->ci_wide))
		return -1;
	if (from && threshold_from_parse(from, &row->threshold_from) != 0)
		return jrd_bad(&rd->j, "threshold_from", "is not min|given|gap|round_noise");
	if (json_object_get(j, "heterogeneity")) /* kept as read (§5.10) */
		row->heterogeneity = json_incref(json_object_get(j, "heterogeneity"));
	return 0;
}

static int legs_from_json(struct rd *rd, json_t *legs)
{
	struct comparison *c = rd->c;
	int seen_a = 0, seen_b = 0;
	if (!legs)
		return jrd_bad(&rd->j, "legs", "is missing");
	if (!json_is_array(legs))
		return jrd_bad(&rd->j, "legs", "is not an array");
	if (json_array_size(legs) < 2 || json_array_size(legs) > COMPARE_MAX_LEGS) {
		char why[64];
		snprintf(why, sizeof(why), "does not hold 2 to %d legs", COMPARE_MAX_LEGS);
		return jrd_bad(&rd->j, "legs", why);
	}
	for (size_t k = 0; k < json_array_size(legs); k++) {
		json_t *l = json_array_get(legs, k), *host, *ab, *wrap;
		const char *file, *name, *variant, *label, *start, *end;
		struct run *r;
		snprintf(rd->j.path, sizeof(rd->j.path), "legs[%zu]", k);
		if (!json_is_object(l))
			return jrd_bad(&rd->j, "", "is not an object");
		if (jrd_str(&rd->j, l, "file", 1, &file) || jrd_str(&rd->j, l, "name", 1, &name) ||
		    jrd_str(&rd->j, l, "variant", 1, &variant) ||
		    jrd_str(&rd->j, l, "label", 0, &label) ||
		    jrd_str(&rd->j, l, "start_time", 0, &start) ||
		    jrd_str(&rd->j, l, "end_time", 0, &end))
			return -1;
		if (strcmp(variant, "A") != 0 && strcmp(variant, "B") != 0)
			return jrd_bad(&rd->j, "variant", "is not A or B");
		host = json_object_get(l, "host");
		if (host && !json_is_object(host))
			return jrd_bad(&rd->j, "host", "is not an object");
		ab = json_object_get(l, "ab");
		if (ab && !json_is_object(ab))
			return jrd_bad(&rd->j, "ab", "is not an object");
		wrap = json_object_get(l, "wrap");
		if (wrap &&
		    (!json_is_object(wrap) || !json_is_array(json_object_get(wrap, "iterations"))))
			return jrd_bad(&rd->j, "wrap", "is not an object with iterations");
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
			if (jrd_count(&rd->j, l, "round", 1, &round))
				return -1;
			c->legs[k].round = (unsigned)round;
		}
		seen_a |= *variant == 'A';
		seen_b |= *variant == 'B';
		c->n_legs++;
	}
	*rd->j.path = '\0';
	if (!seen_a || !seen_b)
		return jrd_bad(&rd->j, "legs", "lack an A or a B leg");
	return 0;
}

static int options_from_json(struct rd *rd, json_t *op)
{
	struct compare_opts *o = &rd->c->opts;
	struct compare_owned *ow = rd->c->owned;
	const char *primary;
	size_t iters;
	if (!op)
		return jrd_bad(&rd->j, "options", "is missing");
	if (!json_is_object(op))
		return jrd_bad(&rd->j, "options", "is not an object");
	snprintf(rd->j.path, sizeof(rd->j.path), "options");
	if (jrd_num(&rd->j, op, "alpha", 1, NAN, &o->alpha) ||
	    jrd_num(&rd->j, op, "threshold", 1, NAN, &o->threshold) ||
	    (json_object_get(op, "busy_cpus") &&
	     jrd_num(&rd->j, op, "busy_cpus", 1, NAN, &o->busy_cpus)) ||
	    (json_object_get(op, "ci_level") &&
	     jrd_num(&rd->j, op, "ci_level", 1, NAN, &o->ci_level)) ||
	    (json_object_get(op, "margin") && jrd_num(&rd->j, op, "margin", 1, NAN, &o->margin)) ||
	    jrd_str(&rd->j, op, "primary", 0, &primary) ||
	    jrd_strs(&rd->j, op, "controls", 1, keep_str, ow, &ow->controls, &o->n_controls) ||
	    jrd_strs(&rd->j, op, "expect_diff", 1, keep_str, ow, &ow->expect_diff,
		     &o->n_expect_diff) ||
	    jrd_bool(&rd->j, op, "allow_diff", 1, &o->allow_diff) ||
	    jrd_count(&rd->j, op, "bootstrap_iters", 1, &iters))
		return -1;
	o->primary = primary ? keep(ow, primary) : NULL;
	o->controls = (const char *const *)ow->controls;
	o->expect_diff = (const char *const *)ow->expect_diff;
	o->bootstrap_iters = (unsigned)iters;
	*rd->j.path = '\0';
	return 0;
}

/* A row of a comparison of rounds: the rounds used and left out, and the
 * samples of each variant in the rounds used. */
/* "mechanism_counters": [{"counter", "median_a", "median_b", "change"}],
 * ranked; absent in files written before it (the text alone). */
static int mech_from_json(struct rd *rd, json_t *j, struct compare_row *row)
{
	json_t *a = json_object_get(j, "mechanism_counters"), *e;
	size_t k;

	if (!a)
		return 0;
	if (!json_is_array(a) || !row->mechanism)
		return jrd_bad(&rd->j, "mechanism_counters", "is not an array beside a mechanism");
	row->mech = xcalloc(json_array_size(a) + 1, sizeof(*row->mech));
	json_array_foreach (a, k, e) {
		struct mech_counter *m = &row->mech[row->n_mech];
		if (!json_is_object(e))
			return jrd_bad(&rd->j, "mechanism_counters", "holds a non-object");
		if (jrd_strdup(&rd->j, e, "counter", 1, &m->name))
			return -1;
		row->n_mech++;
		if (jrd_num(&rd->j, e, "median_a", 1, NAN, &m->a) ||
		    jrd_num(&rd->j, e, "median_b", 1, NAN, &m->b))
			return -1;
	}
	return 0;
}

static int rounds_from_json(struct rd *rd, json_t *j, struct compare_row *row)
{
	json_t *r = json_object_get(j, "rounds"), *n;
	size_t na, nb;
	if (!r)
		return 0;
	n = json_object_get(r, "n");
	if (!json_is_object(r) || jrd_count(&rd->j, r, "used", 1, &row->rounds) ||
	    jrd_count(&rd->j, r, "left_out", 1, &row->rounds_out))
		return json_is_object(r) ? -1 : jrd_bad(&rd->j, "rounds", "is not an object");
	if (!json_is_array(n) || json_array_size(n) != 2 ||
	    !json_is_integer(json_array_get(n, 0)) || !json_is_integer(json_array_get(n, 1)) ||
	    json_integer_value(json_array_get(n, 0)) < 0 ||
	    json_integer_value(json_array_get(n, 1)) < 0)
		return jrd_bad(&rd->j, "rounds.n", "is not [A samples, B samples]");
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
	const char *probe, *metric, *key, *unit, *better, *verdict, *reason, *mech, *rule;
	json_t *legs, *ci;
	struct metric *m;
	size_t base = strlen(rd->j.path);
	if (!json_is_object(j))
		return jrd_bad(&rd->j, "", "is not an object");
	if (jrd_str(&rd->j, j, "probe", 1, &probe) || jrd_str(&rd->j, j, "metric", 1, &metric) ||
	    jrd_str(&rd->j, j, "key", 1, &key) || jrd_str(&rd->j, j, "unit", 1, &unit) ||
	    jrd_str(&rd->j, j, "better", 1, &better) ||
	    jrd_str(&rd->j, j, "verdict", 1, &verdict) ||
	    jrd_str(&rd->j, j, "reason", 0, &reason) || jrd_str(&rd->j, j, "mechanism", 0, &mech) ||
	    jrd_str(&rd->j, j, "rule", 0, &rule))
		return -1;
	if (rule && !(row->rule = known_rule(rule)))
		return jrd_bad(&rd->j, "rule",
			       "is not a rule of the pipeline (docs/design.md 5.12)");
	if (unit_parse(unit, &row->unit) != 0)
		return jrd_bad(&rd->j, "unit", "is not a known unit");
	if (better_parse(better, &row->better) != 0)
		return jrd_bad(&rd->j, "better", "is not higher|lower|none");
	if (verdict_parse(verdict, &row->verdict) != 0)
		return jrd_bad(&rd->j, "verdict", "is not a known verdict");
	probe_result_init(p, probe);
	c->owned->n_probes++;
	m = probe_add_metric_v(p, metric, row->unit, row->better, NULL, NULL, 0);
	if (jrd_labels(&rd->j, j, "labels", add_metric_label, m) ||
	    jrd_labels(&rd->j, j, "params", add_param, p))
		return -1;
	row->probe = p->name;
	row->metric = m->name;
	row->labels = m->labels;
	row->n_labels = m->n_labels;
	row->params = p->params;
	row->n_params = p->n_params;
	row->key = xstrdup(key);
	row->reason = reason ? xstrdup(reason) : NULL;
	row->mechanism = mech ? xstrdup(mech) : NULL;
	if (jrd_bool(&rd->j, j, "control", 1, &row->control) ||
	    jrd_bool(&rd->j, j, "primary", 1, &row->primary) ||
	    jrd_bool(&rd->j, j, "moved", 0, &row->moved))
		return -1;
	row->moved &= row->control;
	{
		int said = json_object_get(j, "probe_primary") != NULL, yes = 0;
		if (jrd_bool(&rd->j, j, "probe_primary", 0, &yes))
			return -1;
		row->probe_primary = !said ? PRIMARY_UNSAID : yes ? PRIMARY_YES : PRIMARY_NO;
	}
	row->p_legs = NAN;
	if (jrd_bool(&rd->j, j, "noisy", 0, &row->noisy) ||
	    jrd_bool(&rd->j, j, "few_legs", 0, &row->few_legs) ||
	    jrd_num(&rd->j, j, "p_legs", 0, NAN, &row->p_legs) || rounds_from_json(rd, j, row) ||
	    mech_from_json(rd, j, row) || threshold_from_json(rd, j, row))
		return -1;
	legs = json_object_get(j, "legs");
	if (!legs || !json_is_array(legs) || json_array_size(legs) != c->n_legs)
		return jrd_bad(&rd->j, "legs", "is not an array with one entry per leg");
	for (size_t k = 0; k < c->n_legs; k++) {
		json_t *l = json_array_get(legs, k);
		snprintf(rd->j.path + base, sizeof(rd->j.path) - base, ".legs[%zu]", k);
		if (!json_is_object(l))
			return jrd_bad(&rd->j, "", "is not an object");
		row->busy[k] = row->wait[k] = row->gpu_others[k] = NAN;
		if (jrd_num(&rd->j, l, "median", 1, NAN, &row->median[k]) ||
		    jrd_count(&rd->j, l, "n", 1, &row->n[k]) ||
		    jrd_num(&rd->j, l, "p_vs_b", 1, NAN, &row->p_vs_a[k]) ||
		    (json_object_get(l, "busy") &&
		     jrd_num(&rd->j, l, "busy", 1, NAN, &row->busy[k])) ||
		    (json_object_get(l, "wait") &&
		     jrd_num(&rd->j, l, "wait", 1, NAN, &row->wait[k])) ||
		    (json_object_get(l, "gpu_others") &&
		     jrd_num(&rd->j, l, "gpu_others", 1, NAN, &row->gpu_others[k])) ||
		    (json_object_get(l, "dropped") &&
		     jrd_count(&rd->j, l, "dropped", 1, &row->dropped[k])))
			return -1;
		if (!json_object_get(j, "rounds")) /* else the rounds used say */
			*(c->legs[k].variant == 'A' ? &row->n_a : &row->n_b) += row->n[k];
		if (!isnan(row->median[k]) || row->n[k] ||
		    json_is_true(json_object_get(l, "present"))) {
			row->m[k] = m;
			row->pr[k] = p;
		}
	}
	rd->j.path[base] = '\0';
	ci = json_object_get(j, "ci95");
	if (!ci || !json_is_array(ci) || json_array_size(ci) != 2 ||
	    !(json_is_number(json_array_get(ci, 0)) || json_is_null(json_array_get(ci, 0))) ||
	    !(json_is_number(json_array_get(ci, 1)) || json_is_null(json_array_get(ci, 1))))
		return jrd_bad(&rd->j, "ci95", "is not [lo, hi]");
	row->ci_lo = json_is_null(json_array_get(ci, 0)) ? NAN
							 : json_number_value(json_array_get(ci, 0));
	row->ci_hi = json_is_null(json_array_get(ci, 1)) ? NAN
							 : json_number_value(json_array_get(ci, 1));
	/* drift and threshold are >= 0 (0 when not computed), so null was +inf:
	 * a zero median in the first leg of a variant. */
	return jrd_num(&rd->j, j, "median_a", 1, NAN, &row->median_a) ||
	       jrd_num(&rd->j, j, "median_b", 1, NAN, &row->median_b) ||
	       jrd_num(&rd->j, j, "change", 1, NAN, &row->change) ||
	       jrd_num(&rd->j, j, "p", 1, NAN, &row->p_effect) ||
	       jrd_num(&rd->j, j, "p_adjusted", 1, NAN, &row->p_effect_adj) ||
	       jrd_num(&rd->j, j, "drift", 1, INFINITY, &row->drift) ||
	       jrd_num(&rd->j, j, "p_drift", 1, NAN, &row->p_drift) ||
	       jrd_num(&rd->j, j, "p_drift_adjusted", 1, NAN, &row->p_drift_adj) ||
	       jrd_num(&rd->j, j, "threshold", 1, INFINITY, &row->threshold);
}

static int summary_from_json(struct rd *rd, json_t *j)
{
	struct compare_summary *s = &rd->c->summary;
	json_t *counts, *x;
	const char *k;
	if (!j)
		return jrd_bad(&rd->j, "summary", "is missing");
	if (!json_is_object(j))
		return jrd_bad(&rd->j, "summary", "is not an object");
	snprintf(rd->j.path, sizeof(rd->j.path), "summary");
	counts = json_object_get(j, "counts");
	if (!counts || !json_is_object(counts))
		return jrd_bad(&rd->j, "counts", "is missing or not an object");
	snprintf(rd->j.path, sizeof(rd->j.path), "summary.counts");
	json_object_foreach (counts, k, x) {
		enum verdict v;
		if (verdict_parse(k, &v) != 0) /* the key itself may hold a newline */
			return jrd_bad(&rd->j, "", "has a key that is not a verdict");
		if (jrd_count(&rd->j, counts, k, 1, &s->count[v]))
			return -1;
	}
	snprintf(rd->j.path, sizeof(rd->j.path), "summary");
	if (jrd_num(&rd->j, j, "geomean", 1, NAN, &s->geomean) ||
	    jrd_count(&rd->j, j, "n_geomean", 1, &s->n_geomean) ||
	    jrd_count(&rd->j, j, "controls", 1, &s->controls) ||
	    jrd_count(&rd->j, j, "controls_moved", 1, &s->controls_moved) ||
	    (json_object_get(j, "noisy") && jrd_count(&rd->j, j, "noisy", 1, &s->noisy)) ||
	    jrd_bool(&rd->j, j, "wrap_primary", 0, &s->wrap_primary) ||
	    jrd_bool(&rd->j, j, "probe_primary", 0, &s->probe_primary))
		return -1;
	*rd->j.path = '\0';
	return 0;
}

/* The summary says what the rows say: a count that contradicts them ("99
 * WIN" over one row) is a file edited or broken, never printed as written. */
static int summary_agrees(struct rd *rd)
{
	const struct comparison *c = rd->c;
	size_t count[VERDICT__COUNT] = {0}, controls = 0, moved = 0;
	for (size_t i = 0; i < c->n_rows; i++) {
		if (c->rows[i].control) {
			controls++;
			moved += c->rows[i].moved;
		} else if ((size_t)c->rows[i].verdict < VERDICT__COUNT) {
			count[c->rows[i].verdict]++;
		}
	}
	snprintf(rd->j.path, sizeof(rd->j.path), "summary");
	for (int v = 0; v < VERDICT__COUNT; v++)
		if (count[v] != c->summary.count[v]) {
			char why[160];
			snprintf(why, sizeof(why), "say %zu %s where the metrics hold %zu",
				 c->summary.count[v], verdict_name((enum verdict)v), count[v]);
			return jrd_bad(&rd->j, "counts", why);
		}
	if (controls != c->summary.controls || moved != c->summary.controls_moved)
		return jrd_bad(&rd->j, "controls",
			       "do not match the metrics marked control (and moved)");
	return 0;
}

struct comparison *comparison_from_json(json_t *j, const char *what)
{
	struct rd rd = {.j = {.kind = "mempath comparison", .what = what, .path = ""}};
	struct comparison *c;
	const char *schema, *line;
	json_t *metrics, *tool;
	if (!json_is_object(j)) {
		jrd_bad(&rd.j, "top level", "is not an object");
		return NULL;
	}
	if (jrd_str(&rd.j, j, "schema", 1, &schema))
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
	if (json_object_get(j, "rounds") && jrd_count(&rd.j, j, "rounds", 1, &c->n_rounds))
		goto fail;
	if (legs_from_json(&rd, json_object_get(j, "legs")) ||
	    options_from_json(&rd, json_object_get(j, "options")) ||
	    jrd_str(&rd.j, j, "controls_moved", 0, &line) ||
	    jrd_strs(&rd.j, j, "knobs_differ", 1, NULL, NULL, &c->knob_diffs, &c->n_knob_diffs) ||
	    jrd_bool(&rd.j, j, "refused", 1, &c->refused) ||
	    jrd_strs(&rd.j, j, "notes", 1, NULL, NULL, &c->notes, &c->n_notes))
		goto fail;
	metrics = json_object_get(j, "metrics");
	if (!metrics || !json_is_array(metrics)) {
		jrd_bad(&rd.j, "metrics", "is missing or not an array");
		goto fail;
	}
	c->cap_rows = json_array_size(metrics);
	c->rows = xcalloc(c->cap_rows + 1, sizeof(*c->rows));
	c->owned->probes = xcalloc(c->cap_rows + 1, sizeof(*c->owned->probes));
	for (size_t i = 0; i < c->cap_rows; i++) {
		snprintf(rd.j.path, sizeof(rd.j.path), "metrics[%zu]", i);
		c->n_rows++;
		if (row_from_json(&rd, json_array_get(metrics, i), i))
			goto fail;
	}
	*rd.j.path = '\0';
	if (summary_from_json(&rd, json_object_get(j, "summary")) || summary_agrees(&rd))
		goto fail;
	return c;
fail:
	comparison_free(c);
	return NULL;
}
