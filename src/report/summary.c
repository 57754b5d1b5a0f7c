/* summary.c - a comparison's compact export (summary.h). */
#include "report/summary.h"

#include <math.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "report/format.h"

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);
	return n > k && strcmp(s + n - k, tail) == 0;
}

int report_summary_check_path(const char *path)
{
	if (ends_with(path, ".json") || ends_with(path, ".csv"))
		return 0;
	return error("--export-summary '%s': name a .json or a .csv file", path);
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *leg_json(const struct comparison *c, const struct compare_row *row, size_t j)
{
	struct summary s;

	if (!row->m[j])
		return json_null();
	stats_summarize(row->m[j]->samples, row->m[j]->n_samples, &s);
	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:I}", "leg", c->legs[j].name, "median",
			 num(s.n ? s.median : NAN), "mean", num(s.n ? s.mean : NAN), "sigma",
			 num(s.n > 1 ? s.stddev : NAN), "p5", num(s.n ? s.p5 : NAN), "p95",
			 num(s.n ? s.p95 : NAN), "n", (json_int_t)s.n);
}

static int render_json(const void *arg, FILE *f)
{
	const struct comparison *c = arg;
	json_t *o = json_object(), *rows = json_array();
	char *line = comparison_summary_line(c), *head = comparison_headline(c);
	int rc;

	json_object_set_new(o, "schema", json_string("mempath/summary/1"));
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *row = &c->rows[i];
		json_t *legs = json_array();

		for (size_t j = 0; j < c->n_legs; j++)
			json_array_append_new(legs, leg_json(c, row, j));
		json_array_append_new(
			rows,
			json_pack("{s:s, s:s, s:s, s:s, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:s}",
				  "key", row->key, "unit", unit_name(row->unit), "better",
				  better_name(row->better), "verdict", verdict_id(row->verdict),
				  "control", row->control, "legs", legs, "median_a",
				  num(row->median_a), "median_b", num(row->median_b), "change",
				  num(row->change), "ci95",
				  json_pack("[o, o]", num(row->ci_lo), num(row->ci_hi)), "p",
				  num(row->p_effect_adj), "reason",
				  row->reason ? row->reason : ""));
	}
	json_object_set_new(o, "metrics", rows);
	json_object_set_new(o, "summary", json_string(line));
	json_object_set_new(o, "headline", head ? json_string(head) : json_null());
	json_object_set_new(o, "geomean", num(c->summary.geomean));
	rc = report_json_dumpf(
		     o, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10)) == 0 &&
			     fputc('\n', f) != EOF
		     ? 0
		     : error("cannot write the summary");
	json_decref(o);
	free(line);
	free(head);
	return rc;
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.6g", v);
	else
		fputs(",", f);
}

static int render_csv(const void *arg, FILE *f)
{
	const struct comparison *c = arg;

	fputs("metric,unit,better,verdict,control,median_a,median_b,change,ci95_lo,ci95_hi,p", f);
	for (size_t j = 0; j < c->n_legs; j++)
		fprintf(f, ",leg%zu_median,leg%zu_mean,leg%zu_sigma,leg%zu_p5,leg%zu_p95,leg%zu_n",
			j + 1, j + 1, j + 1, j + 1, j + 1, j + 1);
	fputc('\n', f);
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *row = &c->rows[i];

		report_csv_field(f, row->key);
		fprintf(f, ",%s,%s,%s,%s", unit_name(row->unit), better_name(row->better),
			verdict_id(row->verdict), row->control ? "yes" : "no");
		csv_num(f, row->median_a);
		csv_num(f, row->median_b);
		csv_num(f, row->change);
		csv_num(f, row->ci_lo);
		csv_num(f, row->ci_hi);
		csv_num(f, row->p_effect_adj);
		for (size_t j = 0; j < c->n_legs; j++) {
			struct summary s = {0};

			if (row->m[j])
				stats_summarize(row->m[j]->samples, row->m[j]->n_samples, &s);
			csv_num(f, s.n ? s.median : NAN);
			csv_num(f, s.n ? s.mean : NAN);
			csv_num(f, s.n > 1 ? s.stddev : NAN);
			csv_num(f, s.n ? s.p5 : NAN);
			csv_num(f, s.n ? s.p95 : NAN);
			fprintf(f, ",%zu", s.n);
		}
		fputc('\n', f);
	}
	return ferror(f) ? error("cannot write the summary") : 0;
}

int report_summary_write(const struct comparison *c, const char *path)
{
	return write_rendered(path, ends_with(path, ".csv") ? render_csv : render_json, c);
}
