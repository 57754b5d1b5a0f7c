/* doctor.c - a doctor report (core/doctor.h) as terminal text, Markdown or JSON
 * (schema mempath/doctor/1). Warnings come first, then notes, then what was
 * fine, then what could not be checked, so the top of the page is the work. */
#include <string.h>

#include "base/util.h"
#include "machine/doctor.h"
#include "report/doctor.h"
#include "report/format.h"
#include "results/results_json.h"

/* Findings in display order: by level, rule order within a level. */
#define FOREACH_FINDING(d, lv, fi)                             \
	for (int lv = 0; lv < DOCTOR_LEVELS; lv++)             \
		for (size_t fi = 0; fi < (d)->report->n; fi++) \
			if ((int)(d)->report->items[fi].level == lv)

/* Prints text wrapped at `width` columns, every line after the first indented. */
static void wrap(FILE *f, const char *text, int indent, int width)
{
	int col = indent;
	const char *p = text;

	while (*p) {
		size_t word = strcspn(p, " ");
		if (col > indent && col + 1 + (int)word > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, word, f);
		col += (int)word;
		p += word;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

static void summary_line(const struct doctor_doc *d, FILE *f)
{
	const size_t *c = d->report->count;
	fprintf(f, "%zu warn, %zu info, %zu ok, %zu n/a, %zu unknown\n", c[DOCTOR_WARN],
		c[DOCTOR_INFO], c[DOCTOR_OK], c[DOCTOR_NA], c[DOCTOR_UNKNOWN]);
}

int report_doctor_term(const struct doctor_doc *d, FILE *f)
{
	fprintf(f, "mempath doctor: %s (host %s, kernel %s), %s\n\n", d->source,
		report_jstr(d->host, "hostname"), report_jstr(d->host, "kernel"),
		d->time ? d->time : "?");
	FOREACH_FINDING(d, lv, i)
	{
		const struct doctor_finding *x = &d->report->items[i];
		char head[160];
		snprintf(head, sizeof(head), "%-7s %-18s %s",
			 lv == DOCTOR_WARN   ? "WARN"
			 : lv == DOCTOR_INFO ? "INFO"
					     : doctor_level_name(x->level),
			 x->id, x->title);
		fprintf(f, "%s\n        ", head);
		wrap(f, x->evidence, 8, 100);
		if (x->fix) {
			fputs("        fix: ", f);
			wrap(f, x->fix, 13, 100);
		}
		if (x->measured) {
			fputs("        measured here: ", f);
			wrap(f, x->measured, 23, 100);
		} else if (x->measure && (x->level == DOCTOR_WARN || x->level == DOCTOR_INFO)) {
			fprintf(f, "        measure: %s\n", x->measure);
		}
	}
	fputc('\n', f);
	summary_line(d, f);
	return 0;
}

int report_doctor_md(const struct doctor_doc *d, FILE *f)
{
	fprintf(f, "# mempath doctor\n\n- source: ");
	report_md_cell(f, d->source);
	fprintf(f,
		"\n- host: %s, kernel %s\n- date: %s\n- result: ", report_jstr(d->host, "hostname"),
		report_jstr(d->host, "kernel"), d->time ? d->time : "?");
	summary_line(d, f);
	fprintf(f, "\n| level | check | evidence | fix | measure |\n|---|---|---|---|---|\n");
	FOREACH_FINDING(d, lv, i)
	{
		const struct doctor_finding *x = &d->report->items[i];
		fprintf(f, "| %s | %s | ",
			lv == DOCTOR_WARN ? "**WARN**" : doctor_level_name(x->level), x->id);
		report_md_cell(f, x->evidence);
		if (x->measured) {
			fputs(". Measured here: ", f);
			report_md_cell(f, x->measured);
		}
		fputs(" | ", f);
		report_md_cell(f, x->fix ? x->fix : "");
		fputs(" | ", f);
		if (x->measure && x->fix)
			fprintf(f, "`%s`", x->measure);
		fputs(" |\n", f);
	}
	return 0;
}

json_t *report_doctor_to_json(const struct doctor_doc *d)
{
	json_t *o = json_object(), *a = json_array(), *counts = json_object();

	json_object_set_new(o, "schema", json_string("mempath/doctor/1"));
	json_object_set_new(
		o, "tool", json_pack("{s:s, s:s}", "version", MEMPATH_VERSION, "git", MEMPATH_GIT));
	json_object_set_new(o, "time", json_string(d->time ? d->time : ""));
	json_object_set_new(o, "source", json_string(d->source));
	for (size_t i = 0; i < d->report->n; i++) {
		const struct doctor_finding *x = &d->report->items[i];
		json_t *e =
			json_pack("{s:s, s:s, s:s, s:s}", "id", x->id, "title", x->title, "level",
				  doctor_level_name(x->level), "evidence", x->evidence);
		if (x->fix)
			json_object_set_new(e, "fix", json_string(x->fix));
		if (x->measure)
			json_object_set_new(e, "measure", json_string(x->measure));
		if (x->measured)
			json_object_set_new(e, "measured", json_string(x->measured));
		if (x->facts)
			json_object_set(e, "facts", x->facts);
		json_array_append_new(a, e);
	}
	json_object_set_new(o, "findings", a);
	for (int l = 0; l < DOCTOR_LEVELS; l++)
		json_object_set_new(counts, doctor_level_name((enum doctor_level)l),
				    json_integer((json_int_t)d->report->count[l]));
	json_object_set_new(o, "counts", counts);
	json_object_set(o, "host", (json_t *)d->host);
	if (d->run)
		json_object_set_new(o, "run", run_to_json(d->run));
	return o;
}

int report_doctor_json(const struct doctor_doc *d, FILE *f)
{
	json_t *o = report_doctor_to_json(d);
	int rc = report_json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', f);
	json_decref(o);
	return rc == 0 ? 0 : error("cannot write the doctor report as JSON");
}

void report_doctor_traps(const json_t *host, enum report_format fmt, FILE *f)
{
	struct doctor_report rep;

	if (!json_is_object(host) || doctor_check(host, &rep) != 0)
		return;
	for (size_t i = 0; i < rep.n; i++) {
		const struct doctor_finding *x = &rep.items[i];
		if (x->level != DOCTOR_WARN)
			continue;
		if (fmt == REPORT_HTML) {
			fprintf(f, "<li>trap (doctor): %s: ", x->id);
			report_html_text(f, x->evidence);
			fputs("</li>\n", f);
		} else if (fmt == REPORT_MD) {
			fprintf(f, "- trap (doctor): %s: ", x->id);
			report_md_cell(f, x->evidence);
			fputc('\n', f);
		} else {
			fprintf(f, "trap (doctor): %s: %s\n", x->id, x->evidence);
		}
	}
	doctor_report_free(&rep);
}
