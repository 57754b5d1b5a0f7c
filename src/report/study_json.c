/* study_json.c - a study as JSON, schema mempath/study/1 (study.h;
 * docs/schema.md): the variants and their legs, the family, per metric each
 * variant's median, stddev, ratio to the baseline with its CI, level and
 * verdict, its iterations and rounds, the factors' effects, the counters,
 * the summary lines, and each comparison whole (mempath/compare/1). */
#include "report/study.h"

#include <math.h>
#include <stdlib.h>

#include "base/util.h"
#include "report/study_data.h"
#include "verdict/compare_json.h"

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *cell_json(const struct study *s, const struct study_metric *m, size_t v)
{
	const struct study_cell *c = &m->cell[v];
	json_t *o = json_pack("{s:s, s:o, s:o, s:I}", "variant", s->names[v], "median",
			      num(c->median), "stddev", num(c->sd), "n", (json_int_t)c->n);
	json_t *it = json_array(), *rd = json_array();
	if (c->vs) {
		json_object_set_new(o, "ratio", num(1 + c->vs->change));
		json_object_set_new(o, "ci_lo", num(1 + c->vs->ci_lo));
		json_object_set_new(o, "ci_hi", num(1 + c->vs->ci_hi));
		json_object_set_new(o, "level", json_real(c->level));
		json_object_set_new(o, "verdict", json_string(verdict_id(c->vs->verdict)));
		json_object_set_new(o, "reason",
				    c->vs->reason ? json_string(c->vs->reason) : json_null());
	}
	for (size_t k = 0; k < c->n_iter; k++)
		json_array_append_new(it, num(c->iter[k]));
	for (size_t r = 0; r < s->n_rounds && r < COMPARE_MAX_LEGS; r++)
		json_array_append_new(rd, num(c->round[r]));
	json_object_set_new(o, "iterations", it);
	json_object_set_new(o, "rounds", rd);
	return o;
}

static json_t *metrics_json(const struct study_data *d)
{
	json_t *a = json_array();
	for (size_t i = 0; i < d->n_metrics; i++) {
		const struct study_metric *m = &d->metrics[i];
		json_t *o = json_pack("{s:s, s:s, s:s}", "key", m->row->key, "ident", m->row->ident,
				      "unit", unit_name(m->row->unit));
		json_t *vs = json_array(), *ef = json_array();
		for (size_t v = 0; v < d->s->n_var; v++)
			json_array_append_new(vs, cell_json(d->s, m, v));
		for (size_t k = 0; k < m->n_effects; k++) {
			const struct fact_effect *e = &m->effects[k];
			json_array_append_new(
				ef,
				json_pack("{s:s, s:b, s:o, s:o, s:o, s:I, s:s}", "effect", e->what,
					  "interaction", e->interaction, "ratio", num(e->ratio),
					  "ci_lo", num(e->lo), "ci_hi", num(e->hi), "rounds",
					  (json_int_t)e->rounds, "reading", e->word));
		}
		json_object_set_new(o, "variants", vs);
		if (d->fac)
			json_object_set_new(o, "effects", ef);
		else
			json_decref(ef);
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *counters_json(const struct study_data *d)
{
	json_t *a = json_array();
	for (size_t i = 0; i < d->n_counters; i++) {
		const struct study_counter *c = &d->counters[i];
		json_t *med = json_object();
		for (size_t v = 0; v < d->s->n_var; v++)
			json_object_set_new(med, d->s->names[v], num(c->median[v]));
		json_array_append_new(a, json_pack("{s:s, s:b, s:o}", "name", c->name, "from_zero",
						   c->from_zero, "medians", med));
	}
	return a;
}

static json_t *variants_json(const struct study *s)
{
	json_t *a = json_array();
	for (size_t v = 0; v < s->n_var; v++) {
		json_t *legs = json_array();
		char letter[2] = {(char)('A' + v), 0};
		for (size_t j = 0; j < s->n_legs; j++)
			if ((size_t)(s->of[j] - 'A') == v)
				json_array_append_new(legs, json_string(s->files[j]));
		json_array_append_new(a, json_pack("{s:s, s:s, s:o}", "name", s->names[v], "letter",
						   letter, "legs", legs));
	}
	return a;
}

json_t *report_study_to_json(const struct study *s)
{
	struct study_data d;
	json_t *o, *lines = json_array(), *pairs = json_array(), *notes = json_array();
	study_data_make(&d, s);
	o = json_pack("{s:s, s:o, s:s, s:I, s:{s:s, s:I, s:f, s:b}}", "schema", STUDY_SCHEMA,
		      "variants", variants_json(s), "baseline", s->names[0], "rounds",
		      (json_int_t)s->n_rounds, "family", "procedure", s->procedure, "comparisons",
		      (json_int_t)s->m, "alpha", s->opts.alpha, "all_pairs", s->all_pairs);
	for (size_t v = 1; v < s->n_var; v++)
		for (size_t i = 0; i < d.n_metrics; i++) {
			char *l = study_line(&d, i, v);
			json_array_append_new(lines, json_string(l));
			free(l);
		}
	json_object_set_new(o, "summary", lines);
	json_object_set_new(o, "metrics", metrics_json(&d));
	json_object_set_new(o, "counters", counters_json(&d));
	if (d.fac) {
		json_t *fs = json_array();
		for (size_t i = 0; i < d.fac->n; i++) {
			json_t *lv = json_array();
			for (size_t k = 0; k < d.fac->f[i].n_levels; k++)
				json_array_append_new(lv, json_string(d.fac->f[i].levels[k]));
			json_array_append_new(fs, json_pack("{s:s, s:o}", "name", d.fac->f[i].name,
							    "levels", lv));
		}
		json_object_set_new(o, "factors", fs);
	}
	for (size_t k = 0; k < s->n_pairs; k++)
		json_array_append_new(pairs,
				      json_pack("{s:s, s:s, s:o}", "a", s->names[s->pairs[k].a],
						"b", s->names[s->pairs[k].b], "comparison",
						comparison_to_json(s->pairs[k].c)));
	json_object_set_new(o, "comparisons", pairs);
	for (size_t i = 0; i < s->n_notes; i++)
		json_array_append_new(notes, json_string(s->notes[i]));
	json_object_set_new(o, "notes", notes);
	study_data_free(&d);
	return o;
}

int report_study_json(const struct study *s, FILE *f)
{
	json_t *o = report_study_to_json(s);
	int rc = report_json_dumpf(o, f, JSON_INDENT(2));
	fputc('\n', f);
	json_decref(o);
	return rc;
}
