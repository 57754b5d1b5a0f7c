/* format.c - what every writer shares: numbers with a
 * sensible number of digits, and the escaping of text that came from a file
 * (results files are written on other machines) for each output format. */
#include "report/format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/stats.h"
#include "base/util.h"
#include "results/results.h"

void report_fmt_value(double v, char *buf, size_t len)
{
	double a = fabs(v);
	if (v == 0)
		snprintf(buf, len, "0");
	else if (!isfinite(v)) /* overflowed: unknown, the writer says why (§5.16) */
		snprintf(buf, len, "-");
	else if (a >= 1e15) /* past a double's exact digits: no digits it does not hold */
		snprintf(buf, len, "%.4g", v);
	else if (a >= 1e5)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 1)
		snprintf(buf, len, "%.3g", v);
	else
		snprintf(buf, len, "%.3g", v);
}

size_t report_text_width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80; /* continuation bytes take no column */
	return n;
}

void report_put_column(FILE *f, const char *s, size_t width, int right)
{
	size_t w = report_text_width(s);

	if (w > width && width > 3) {
		size_t keep = width - 3, chars = 0;
		const char *p = s;

		/* whole characters only: stop where character keep + 1 starts */
		for (; *p; p++)
			if (((unsigned char)*p & 0xc0) != 0x80 && chars++ == keep)
				break;
		fprintf(f, "%.*s...", (int)(p - s), s);
		return;
	}
	if (right)
		fprintf(f, "%*s%s", (int)(width > w ? width - w : 0), "", s);
	else
		fprintf(f, "%s%*s", s, (int)(width > w ? width - w : 0), "");
}

int report_json_dumpf(const json_t *j, FILE *f, size_t flags)
{
	char *text = json_dumps(j, flags), *safe;
	int rc;
	if (!text)
		return -1;
	safe = xmalloc(3 * strlen(text) + 1);
	escape_json_text(safe, text);
	rc = fputs(safe, f) < 0 ? -1 : 0;
	free(safe);
	free(text);
	return rc;
}

void report_fmt_seconds(double s, char *buf, size_t len)
{
	if (isfinite(s) && s >= 0 && s < REPORT_MAX_SECONDS)
		snprintf(buf, len, "%.1f s", s);
	else
		snprintf(buf, len, "- s: %s",
			 isfinite(s) && s > 0 ? "past a plausible wall time" : "not a duration");
}

void report_summary_text(const struct summary *s, char *med, char *p5, char *p95, char *cov,
			 size_t len)
{
	if (s->n == 0) {
		snprintf(med, len, "-");
		snprintf(p5, len, "-");
		snprintf(p95, len, "-");
		snprintf(cov, len, "-");
		return;
	}
	report_fmt_value(s->median, med, len);
	report_fmt_value(s->p5, p5, len);
	report_fmt_value(s->p95, p95, len);
	if (isfinite(s->cov)) /* 1e308 samples: their spread overflows, unknown */
		snprintf(cov, len, "%.1f", 100.0 * s->cov);
	else
		snprintf(cov, len, "-");
}

const char *report_jstr(const json_t *o, const char *key)
{
	const char *s = o ? json_string_value(json_object_get(o, key)) : NULL;
	return s ? s : "?";
}

/* Markdown table cells must not contain '|' or newlines. */
void report_md_cell(FILE *f, const char *s)
{
	/* the whole rule, so that no caller can forget a part of it; text a
	 * writer escaped before (report_escape_json) reads the same again:
	 * report_md_escape leaves nothing it would change */
	char *e = report_md_escape(s ? s : "");

	for (const char *p = e; *p; p++)
		if (*p == '|')
			fputs("\\|", f);
		else
			fputc(*p, f);
	free(e);
}

void report_csv_field(FILE *f, const char *raw)
{
	/* A cell a spreadsheet would run as a formula (OWASP CSV injection)
	 * gets a leading apostrophe; control characters are text (\x1b, \n:
	 * none ends the row or acts on a terminal). */
	char *text = util_escape_controls(raw ? raw : "");
	const char *s = text;
	int formula = strchr("=+-@", s[0]) && s[0];
	if (formula || strpbrk(s, ",\"\n\r")) {
		fputc('"', f);
		if (formula)
			fputc('\'', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	free(text);
}

void report_html_text(FILE *f, const char *raw)
{
	static const char special[] = "&<>\"'";
	static const char *const entity[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};
	/* control characters as text first: a page shown with cat is a
	 * terminal's too */
	char *text = util_escape_controls(raw ? raw : "");

	for (const char *s = text; *s; s++) {
		const char *e = strchr(special, *s);

		if (e)
			fputs(entity[e - special], f);
		else
			fputc(*s, f);
	}
	free(text);
}

/* ---- text from a file, made safe for the output ---- */

static void grow(char **buf, size_t *len, size_t *cap, const char *add, size_t n)
{
	if (*len + n + 1 > *cap) {
		*cap = 2 * (*len + n + 1);
		*buf = xrealloc(*buf, *cap);
	}
	memcpy(*buf + *len, add, n);
	*len += n;
	(*buf)[*len] = '\0';
}

char *report_term_escape(const char *s)
{
	return util_escape_controls(s);
}

char *report_md_escape(const char *s)
{
	/* controls as text first (an ANSI escape acts in a terminal that
	 * shows the Markdown), then the markup */
	char *text = util_escape_controls(s);
	size_t len = 0, cap = strlen(text) + 1;
	char *out = xmalloc(cap);
	out[0] = '\0';
	s = text;
	for (const char *p = s; *p; p++) {
		const char *rep = *p == '<'			       ? "&lt;"
				  : *p == '\n' || *p == '\r'	       ? " "
				  : *p == '(' && p > s && p[-1] == ']' ? "\\("
								       : NULL;
		if (rep)
			grow(&out, &len, &cap, rep, strlen(rep));
		else
			grow(&out, &len, &cap, p, 1);
	}
	free(text);
	return out;
}

/* The deep copy behind both: strings and keys through esc (none: as they
 * are), reals to `digits` significant digits (0: as they are). */
static json_t *copy_json(json_t *j, char *(*esc)(const char *), int digits)
{
	json_t *out, *v;
	const char *k;
	size_t i;
	if (json_is_string(j) && esc) {
		char *e = esc(json_string_value(j));
		out = json_string(e);
		free(e);
		return out ? out : json_string("?"); /* not valid UTF-8 */
	}
	if (json_is_real(j) && digits > 0) {
		char buf[40];
		snprintf(buf, sizeof(buf), "%.*g", digits, json_real_value(j));
		return json_real(strtod(buf, NULL));
	}
	if (json_is_array(j)) {
		out = json_array();
		json_array_foreach (j, i, v)
			json_array_append_new(out, copy_json(v, esc, digits));
		return out;
	}
	if (json_is_object(j)) {
		out = json_object();
		json_object_foreach (j, k, v) {
			char *ek = esc ? esc(k) : NULL;
			json_object_set_new(out, ek ? ek : k, copy_json(v, esc, digits));
			free(ek);
		}
		return out;
	}
	return json_incref(j);
}

json_t *report_json_copy(json_t *j, char *(*esc)(const char *), int digits)
{
	return j ? copy_json(j, esc, digits) : NULL;
}

/* A line for each metric of p whose statistics overflow: the "-" in its
 * row, said why. */
static void overflow_lines(const struct probe_result *p, enum report_format fmt, FILE *f)
{
	int any = 0;

	for (size_t k = 0; k < p->n_metrics; k++) {
		const struct metric *m = &p->metrics[k];
		struct summary s;
		char labels[256];

		stats_summarize(m->samples, m->n_samples, &s);
		if (!stats_summary_overflows(&s))
			continue;
		metric_labels_str(m, labels, sizeof(labels));
		fputs(fmt == REPORT_HTML ? "<p class=\"receipt\">"
		      : fmt == REPORT_MD ? (any++ ? "- " : "\n- ")
					 : (any++ ? "   " : "\n   "),
		      f);
		if (fmt == REPORT_HTML) {
			report_html_text(f, m->name);
			fputs(" ", f);
			report_html_text(f, labels);
		} else {
			fprintf(f, "%s ", m->name);
			report_md_cell(f, labels);
		}
		fprintf(f, ": - where a statistic is %s%s", STATS_OVERFLOW_WHY,
			fmt == REPORT_HTML ? "</p>\n" : "\n");
	}
}

/* The evidence of m's first receipt that voided samples but held, or NULL. */
static const char *receipt_dropped(const struct metric *m)
{
	size_t i;
	json_t *r;

	json_array_foreach (m->receipts, i, r)
		if (json_array_size(json_object_get(r, "void_samples")))
			return json_string_value(json_object_get(r, "evidence"));
	return NULL;
}

void report_receipts(const struct probe_result *p, enum report_format fmt, FILE *f)
{
	int any = 0;

	overflow_lines(p, fmt, f);

	for (size_t k = 0; k < p->n_metrics; k++) {
		const struct metric *m = &p->metrics[k];
		const char *ev = metric_receipt_failed(m), *what = "receipt failed";
		char labels[256];

		if (!ev && (ev = receipt_dropped(m)))
			what = "samples dropped";
		if (!ev)
			continue;
		metric_labels_str(m, labels, sizeof(labels));
		if (fmt == REPORT_HTML) {
			fputs(any++ ? "<br>" : "<p class=\"receipt\">", f);
			fprintf(f, "%s: ", what);
			report_html_text(f, m->name);
			fputs(" ", f);
			report_html_text(f, labels);
			fputs(": ", f);
			report_html_text(f, ev);
		} else if (fmt == REPORT_MD) {
			fprintf(f, "%s- %s: %s ", any++ ? "" : "\n", what, m->name);
			report_md_cell(f, labels);
			fprintf(f, ": %s\n", ev);
		} else
			fprintf(f, "%s   %s: %s %s: %s\n", any++ ? "" : "\n", what, m->name, labels,
				ev);
	}
	if (any && fmt == REPORT_HTML)
		fputs("</p>\n", f);
}
