/* report.c - the writer table (one row per output format, docs/design.md
 * §9.12) and the dispatch through it: a run, a comparison, a fleet or a
 * history table to the writer of a format, escaped first where the format
 * says. */

#include "report/report.h"

#include "base/util.h"
#include "report/compare.h"
#include "report/csv.h"
#include "report/doctor.h"
#include "report/findings.h"
#include "report/fleet.h"
#include "report/history.h"
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

/* The fleet's text writers escape as they print (a copy of a thousand runs
 * escaped first would cost more than the report). */
static int fleet_term(const struct fleet *fl, FILE *f)
{
	return report_fleet_text(fl, REPORT_TERM, f);
}

static int fleet_md(const struct fleet *fl, FILE *f)
{
	return report_fleet_text(fl, REPORT_MD, f);
}

/* clang-format off */
const struct report_writer report_writers[] = {
	/* name, fmt, run, compare, fleet, history, checks, doctor, findings, escapes, matrices */
	{"term", REPORT_TERM, report_term, report_compare_term, fleet_term, report_history_term,
	 report_checks, report_doctor_term, NULL, report_term_escape, 1},
	{"md", REPORT_MD, report_md, report_compare_md, fleet_md, NULL,
	 report_checks, report_doctor_md, report_findings, report_md_escape, 1},
	{"json", REPORT_JSON, report_json, report_compare_json, fleet_write, NULL,
	 report_checks, report_doctor_json, NULL, NULL, 0},
	{"csv", REPORT_CSV, report_csv, report_compare_csv, report_fleet_csv, report_history_csv,
	 NULL, NULL, NULL, NULL, 0},
	{"html", REPORT_HTML, report_html, report_compare_html, report_fleet_html, report_history_html,
	 NULL, NULL, report_findings, NULL, 1},
	{"openmetrics", REPORT_OPENMETRICS, report_openmetrics, report_compare_openmetrics,
	 report_fleet_openmetrics, NULL, NULL, NULL, NULL, NULL, 0},
};
/* clang-format on */
const size_t report_writers_len = ARRAY_SIZE(report_writers);

const struct report_writer *report_writer_of(enum report_format fmt)
{
	for (size_t i = 0; i < report_writers_len; i++)
		if (report_writers[i].fmt == fmt)
			return &report_writers[i];
	return &report_writers[0];
}

const struct report_writer *report_writer_find(const char *s)
{
	for (size_t i = 0; s && i < report_writers_len; i++)
		if (strcmp(s, report_writers[i].name) == 0)
			return &report_writers[i];
	return NULL;
}

int report_writer_has(const struct report_writer *w, unsigned docs)
{
	return ((docs & REPORT_DOC_RUN) && w->run) || ((docs & REPORT_DOC_COMPARE) && w->compare) ||
	       ((docs & REPORT_DOC_FLEET) && w->fleet) ||
	       ((docs & REPORT_DOC_HISTORY) && w->history) ||
	       ((docs & REPORT_DOC_CHECKS) && w->checks) ||
	       ((docs & REPORT_DOC_DOCTOR) && w->doctor) ||
	       ((docs & REPORT_DOC_FINDINGS) && w->findings);
}

const char *report_format_names(unsigned docs, const char *sep)
{
	/* one list a set of kinds and separator, made on first use: the usage,
	 * the man page and the completions print them, none frees them */
	static struct {
		int used;
		unsigned docs;
		char sep[8];
		char names[96];
	} made[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(made) && made[i].used; i++)
		if (made[i].docs == docs && strcmp(made[i].sep, sep) == 0)
			return made[i].names;
	if (i == ARRAY_SIZE(made))
		i = 0; /* more lists than any command line asks for: reuse a slot */
	made[i].used = 1;
	made[i].docs = docs;
	snprintf(made[i].sep, sizeof(made[i].sep), "%s", sep);
	made[i].names[0] = '\0';
	for (size_t k = 0; k < report_writers_len; k++)
		if (report_writer_has(&report_writers[k], docs)) {
			size_t n = strlen(made[i].names);

			snprintf(made[i].names + n, sizeof(made[i].names) - n, "%s%s", n ? sep : "",
				 report_writers[k].name);
		}
	return made[i].names;
}

json_t *report_print_json(json_t *j, enum report_format fmt, int digits)
{
	return report_json_copy(j, report_writer_of(fmt)->escapes, digits);
}

json_t *report_escape_json(json_t *j, enum report_format fmt)
{
	char *(*esc)(const char *) = report_writer_of(fmt)->escapes;

	return esc && j ? report_json_copy(j, esc, 0) : json_incref(j);
}

/* "there is no csv writer for a doctor report": the table has none. */
static int none(const struct report_writer *w, const char *what)
{
	return error("there is no %s report of %s", w->name, what);
}

/* Every string from the file passes the format's escaping: a copy of the run
 * with its strings escaped is what a writer with escapes sees. */
int report_write(const struct run *r, enum report_format fmt, FILE *f)
{
	const struct report_writer *w = report_writer_of(fmt);
	json_t *raw, *safe;
	struct run *copy;
	int rc;

	if (!w->run)
		return none(w, "a results file");
	if (w->matrices && matrix_check_run(r) != 0)
		return -1;
	if (!w->escapes)
		return w->run(r, f);
	raw = run_to_json(r);
	safe = report_escape_json(raw, fmt);
	copy = run_from_json(safe, "the run to print");
	json_decref(raw);
	json_decref(safe);
	if (!copy)
		return -1;
	rc = w->run(copy, f);
	run_free(copy);
	return rc;
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
	const struct report_writer *w = report_writer_of(fmt);
	json_t *raw, *safe;
	struct comparison *copy;
	int rc;

	if (!w->compare)
		return none(w, "a comparison");
	if (!w->escapes)
		return w->compare(c, f);
	/* The tables print the comparison as its file holds it (reals to the
	 * file's digits): a table printed when it was decided and `report` of
	 * its file agree to the last digit, even where a median sits on the
	 * edge of its rounding. */
	raw = comparison_to_json(c);
	safe = report_print_json(raw, fmt, REPORT_COMPARE_DIGITS);
	copy = comparison_from_json(safe, "the comparison to print");
	json_decref(raw);
	json_decref(safe);
	if (!copy)
		return -1;
	copy->opts.brief_missing = c->opts.brief_missing; /* how to print, not kept */
	rc = w->compare(copy, f);
	comparison_free(copy);
	return rc;
}

int report_fleet_write(const struct fleet *fl, enum report_format fmt, FILE *f)
{
	const struct report_writer *w = report_writer_of(fmt);

	return w->fleet ? w->fleet(fl, f) : none(w, "a fleet");
}

/* The history's writers escape as they print (report/history.c). */
int report_history_write(const struct history_table *t, enum report_format fmt, FILE *f)
{
	const struct report_writer *w = report_writer_of(fmt);

	return w->history ? w->history(t, f) : none(w, "the history");
}

int report_doctor_write(const struct doctor_doc *d, enum report_format fmt, FILE *f)
{
	const struct report_writer *w = report_writer_of(fmt);

	return w->doctor ? w->doctor(d, f) : none(w, "the doctor's findings");
}

/* One thing to render, any kind. */
struct render_arg {
	const struct run *r;
	const struct comparison *c;
	const struct fleet *fl;
	const struct doctor_doc *d;
	enum report_format fmt;
};

static int render(const void *arg, FILE *f)
{
	const struct render_arg *a = arg;
	if (a->d)
		return report_doctor_write(a->d, a->fmt, f);
	if (a->fl)
		return report_fleet_write(a->fl, a->fmt, f);
	if (a->c)
		return report_compare_write(a->c, a->fmt, f);
	return report_write(a->r, a->fmt, f);
}

int report_write_file(const struct run *r, enum report_format fmt, const char *path)
{
	struct render_arg a = {r, NULL, NULL, NULL, fmt};
	return write_rendered(path, render, &a);
}

int report_compare_write_file(const struct comparison *c, enum report_format fmt, const char *path)
{
	struct render_arg a = {NULL, c, NULL, NULL, fmt};
	return write_rendered(path, render, &a);
}

int report_fleet_write_file(const struct fleet *fl, enum report_format fmt, const char *path)
{
	struct render_arg a = {NULL, NULL, fl, NULL, fmt};
	return write_rendered(path, render, &a);
}

int report_doctor_write_file(const struct doctor_doc *d, enum report_format fmt, const char *path)
{
	struct render_arg a = {NULL, NULL, NULL, d, fmt};
	return write_rendered(path, render, &a);
}
