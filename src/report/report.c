/* report.c - format dispatch: a run, a comparison or a fleet to the writer of a
 * format. */

#include "report/report.h"

#include "base/util.h"
#include "report/compare.h"
#include "report/csv.h"
#include "report/fleet.h"
#include "report/html.h"
#include "report/html_compare.h"
#include "report/html_fleet.h"
#include "report/json.h"
#include "report/matrix.h"
#include "report/md.h"
#include "report/openmetrics.h"
#include "report/term.h"
#include "results/fleet_json.h"
#include "results/results_json.h"
#include "verdict/compare_json.h"
#include <math.h>
#include <string.h>

/* Every string from the file passes the format's escaping: a copy of the run
 * with its strings escaped is what the term and md writers see. */
int report_write(const struct run *r, enum report_format fmt, FILE *f)
{
	json_t *raw, *safe;
	struct run *copy;
	int rc;
	if ((fmt == REPORT_TERM || fmt == REPORT_MD || fmt == REPORT_HTML) &&
	    matrix_check_run(r) != 0)
		return -1;
	if (fmt == REPORT_TERM || fmt == REPORT_MD) {
		raw = run_to_json(r);
		safe = report_escape_json(raw, fmt);
		copy = run_from_json(safe, "the run to print");
		json_decref(raw);
		json_decref(safe);
		if (!copy)
			return -1;
		rc = fmt == REPORT_TERM ? report_term(copy, f) : report_md(copy, f);
		run_free(copy);
		return rc;
	}
	return fmt == REPORT_JSON	   ? report_json(r, f)
	       : fmt == REPORT_CSV	   ? report_csv(r, f)
	       : fmt == REPORT_OPENMETRICS ? report_openmetrics(r, f)
					   : report_html(r, f);
}

/* A copy of r with its strings escaped for the terminal, holding only the
 * probe p (or none): the streamed pieces escape what they print as
 * report_write does. NULL after an error line. */
static struct run *safe_part(const struct run *r, const struct probe_result *p)
{
	struct run part = *r;
	json_t *raw, *safe;
	struct run *copy;

	part.probes = (struct probe_result *)p;
	part.n_probes = p ? 1 : 0;
	raw = run_to_json(&part);
	safe = report_escape_json(raw, REPORT_TERM);
	copy = run_from_json(safe, "the run to print");
	json_decref(raw);
	json_decref(safe);
	return copy;
}

int report_term_stream_head(const struct run *r, FILE *f)
{
	struct run *copy = safe_part(r, NULL);

	if (!copy)
		return -1;
	report_term_head(copy, f);
	run_free(copy);
	return 0;
}

int report_term_stream_probe(const struct run *r, const struct probe_result *p, FILE *f)
{
	struct run part = *r, *copy;

	part.probes = (struct probe_result *)p;
	part.n_probes = 1;
	if (matrix_check_run(&part) != 0 || !(copy = safe_part(r, p)))
		return -1;
	report_term_probe(copy->host, &copy->probes[0],
			  p >= r->probes && p < r->probes + r->n_probes
				  ? report_term_same_skip(r, (size_t)(p - r->probes))
				  : NULL,
			  f);
	run_free(copy);
	return 0;
}

int report_term_stream_end(const struct run *r, FILE *f)
{
	report_term_state(r, f);
	return 0;
}

int report_compare_write(const struct comparison *c, enum report_format fmt, FILE *f)
{
	json_t *raw, *safe;
	struct comparison *copy;
	int rc;
	/* The tables print the comparison as its file holds it (reals to the
	 * file's digits): a table printed when it was decided and `report` of
	 * its file agree to the last digit, even where a median sits on the
	 * edge of its rounding. */
	if (fmt == REPORT_TERM || fmt == REPORT_MD) {
		raw = comparison_to_json(c);
		safe = report_print_json(raw, fmt, REPORT_COMPARE_DIGITS);
		copy = comparison_from_json(safe, "the comparison to print");
		json_decref(raw);
		json_decref(safe);
		if (!copy)
			return -1;
		copy->opts.brief_missing = c->opts.brief_missing; /* how to print, not kept */
		rc = fmt == REPORT_TERM ? report_compare_term(copy, f) : report_compare_md(copy, f);
		comparison_free(copy);
		return rc;
	}
	return fmt == REPORT_JSON	   ? report_compare_json(c, f)
	       : fmt == REPORT_CSV	   ? report_compare_csv(c, f)
	       : fmt == REPORT_OPENMETRICS ? report_compare_openmetrics(c, f)
					   : report_compare_html(c, f);
}

/* A fleet's text from the file is escaped as each writer prints it: a copy
 * of a thousand runs escaped first would cost more than the report. */
int report_fleet_write(const struct fleet *fl, enum report_format fmt, FILE *f)
{
	return fmt == REPORT_TERM || fmt == REPORT_MD ? report_fleet_text(fl, fmt, f)
	       : fmt == REPORT_JSON		      ? fleet_write(fl, f)
	       : fmt == REPORT_CSV		      ? report_fleet_csv(fl, f)
	       : fmt == REPORT_OPENMETRICS	      ? report_fleet_openmetrics(fl, f)
						      : report_fleet_html(fl, f);
}

/* One thing to render, any kind. */
struct render_arg {
	const struct run *r;
	const struct comparison *c;
	const struct fleet *fl;
	enum report_format fmt;
};

static int render(const void *arg, FILE *f)
{
	const struct render_arg *a = arg;
	return a->fl  ? report_fleet_write(a->fl, a->fmt, f)
	       : a->c ? report_compare_write(a->c, a->fmt, f)
		      : report_write(a->r, a->fmt, f);
}

int report_write_file(const struct run *r, enum report_format fmt, const char *path)
{
	struct render_arg a = {r, NULL, NULL, fmt};
	return write_rendered(path, render, &a);
}

int report_compare_write_file(const struct comparison *c, enum report_format fmt, const char *path)
{
	struct render_arg a = {NULL, c, NULL, fmt};
	return write_rendered(path, render, &a);
}

int report_fleet_write_file(const struct fleet *fl, enum report_format fmt, const char *path)
{
	struct render_arg a = {NULL, NULL, fl, fmt};
	return write_rendered(path, render, &a);
}
