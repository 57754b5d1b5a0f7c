/* phantom.c - a phantom check's tables from extra.phantom, extra.cycles and
 * extra.kernel_log: what came back, how fast, and whether the kernel
 * complained; the acceptance row is the findings-table layout. */
#include "report/phantom.h"

#include <math.h>
#include <string.h>

#include "base/util.h"
#include "report/html_page.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

int report_is_phantom(const struct probe_result *p)
{
	return strcmp(p->name, "work.phantom") == 0 && p->extra &&
	       json_is_object(json_object_get(p->extra, "phantom"));
}

static double num(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str(const json_t *o, const char *key, const char *def)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : def;
}

/* Text lines: term as they are, md with a blank line before paragraphs,
 * html as paragraphs. */
static void line(FILE *f, enum report_format fmt, int md_gap, const char *text)
{
	if (fmt == REPORT_HTML)
		html_put(f, "<p>", text, "</p>\n");
	else
		fprintf(f, "%s%s\n", fmt == REPORT_MD && md_gap ? "\n" : "", text);
}

static void cells(FILE *f, enum report_format fmt, const char *const *v, size_t n, int head)
{
	if (fmt == REPORT_HTML) {
		fputs("<tr>", f);
		for (size_t i = 0; i < n; i++)
			html_put(f,
				 head ? "<th>"
				 : i  ? "<td class=\"n\">"
				      : "<td>",
				 v[i], head ? "</th>" : "</td>");
		fputs("</tr>\n", f);
		return;
	}
	fputc('|', f);
	for (size_t i = 0; i < n; i++) {
		fputc(' ', f);
		report_md_cell(f, v[i]);
		fputs(" |", f);
	}
	fputc('\n', f);
}

static void gib(char *buf, size_t len, const json_t *v)
{
	if (json_is_integer(v))
		snprintf(buf, len, "%.3f", (double)json_integer_value(v) / GIB);
	else
		snprintf(buf, len, "-");
}

static void levels(const json_t *ph, enum report_format fmt, FILE *f)
{
	static const char *const head[] = {"GiB", "before", "lowest", "after", "missing"};
	json_t *rows = json_object_get(ph, "levels"), *r;
	size_t i;
	if (fmt == REPORT_TERM)
		fprintf(f, "%-26s %12s %12s %12s %12s\n", "GiB", "before", "lowest", "after",
			"missing");
	else if (fmt == REPORT_HTML)
		fputs("<table>\n", f);
	if (fmt != REPORT_TERM)
		cells(f, fmt, head, 5, 1);
	if (fmt == REPORT_MD)
		fputs("|---|---:|---:|---:|---:|\n", f);
	json_array_foreach (rows, i, r) {
		json_t *b = json_object_get(r, "before"), *a = json_object_get(r, "after");
		char v[4][32];
		const char *row[5] = {str(r, "name", "?"), v[0], v[1], v[2], v[3]};
		if (!json_is_integer(b) && !json_is_integer(a)) {
			if (fmt == REPORT_TERM)
				fprintf(f, "%-26s absent\n", row[0]);
			else
				cells(f, fmt, (const char *[]){row[0], "absent", "", "", ""}, 5, 0);
			continue;
		}
		gib(v[0], sizeof(v[0]), b);
		gib(v[1], sizeof(v[1]), json_object_get(r, "lowest"));
		gib(v[2], sizeof(v[2]), a);
		if (json_is_integer(b) && json_is_integer(a))
			snprintf(v[3], sizeof(v[3]), "%.3f",
				 (double)(json_integer_value(b) - json_integer_value(a)) / GIB);
		else
			snprintf(v[3], sizeof(v[3]), "-");
		if (fmt == REPORT_TERM)
			fprintf(f, "%-26s %12s %12s %12s %12s\n", row[0], v[0], v[1], v[2], v[3]);
		else
			cells(f, fmt, row, 5, 0);
	}
	if (fmt == REPORT_HTML)
		fputs("</table>\n", f);
	else if (fmt == REPORT_MD)
		fputc('\n', f);
}

static void cycles_table(const struct probe_result *p, const json_t *ph, enum report_format fmt,
			 FILE *f)
{
	static const char *const head[] = {"cycle",    "status",      "run s",
					   "used GiB", "missing GiB", "returned in s"};
	json_t *cyj = json_object_get(p->extra, "cycles"), *c;
	double loaded = num(ph, "returnable_loaded");
	size_t k;
	if (fmt == REPORT_TERM)
		fprintf(f, "\n%5s %-10s %8s %10s %12s %14s\n", "cycle", "status", "run s",
			"used GiB", "missing GiB", "returned in s");
	else {
		if (fmt == REPORT_HTML)
			fputs("<table>\n", f);
		else
			fputc('\n', f);
		cells(f, fmt, head, 6, 1);
		if (fmt == REPORT_MD)
			fputs("|---:|---|---:|---:|---:|---:|\n", f);
	}
	json_array_foreach (cyj, k, c) {
		char v[5][32];
		const char *row[6] = {v[0], str(c, "status", "?"), v[1], v[2], v[3], v[4]};
		snprintf(v[0], sizeof(v[0]), "%zu", k + 1);
		snprintf(v[1], sizeof(v[1]), "%.2f", num(c, "run_s"));
		snprintf(v[2], sizeof(v[2]), "%.3f", (loaded - num(c, "lowest_bytes")) / GIB);
		snprintf(v[3], sizeof(v[3]), "%.3f", num(c, "missing_bytes") / GIB);
		snprintf(v[4], sizeof(v[4]), "%.2f", num(c, "return_s"));
		if (fmt == REPORT_TERM)
			fprintf(f, "%5s %-10s %8s %10s %12s %14s\n", v[0], row[1], v[1], v[2], v[3],
				v[4]);
		else
			cells(f, fmt, row, 6, 0);
	}
	if (fmt == REPORT_HTML)
		fputs("</table>\n", f);
}

static void klog(const struct probe_result *p, enum report_format fmt, FILE *f)
{
	json_t *kj = json_object_get(p->extra, "kernel_log"), *l;
	char text[600];
	size_t i;
	if (json_is_string(json_object_get(kj, "skipped"))) {
		snprintf(text, sizeof(text), "kernel log: skipped: %s", str(kj, "skipped", "?"));
		line(f, fmt, 1, text);
		return;
	}
	snprintf(text, sizeof(text), "kernel log (%s): %.0f new warnings, %.0f bug reports",
		 str(kj, "source", "?"), num(kj, "warnings"), num(kj, "bugs"));
	line(f, fmt, 1, text);
	json_array_foreach (json_object_get(kj, "lines"), i, l) {
		snprintf(text, sizeof(text), "  %s",
			 json_string_value(l) ? json_string_value(l) : "");
		line(f, fmt, 0, text);
	}
}

/* The acceptance row, in the findings-table layout. */
static void acceptance(const json_t *ph, enum report_format fmt, FILE *f)
{
	json_t *ret = json_array_get(json_object_get(ph, "levels"), 0);
	double before = num(ret, "before") / GIB, after = num(ret, "after") / GIB;
	double missing = num(ph, "missing_bytes") / GIB, after_s = num(ph, "sampled_s");
	const char *what = str(ph, "what", "?"), *verdict = str(ph, "verdict", "?");
	char head3[64], v[4][32];
	if (fmt == REPORT_TERM) {
		fprintf(f, "\n%-3s %-28s %14s %16s %10s  %s\n", "#", "configuration", "before GiB",
			"after GiB", "missing", "result");
		fprintf(f, "%-3s %-28s %14.3f %16.3f %10.3f  %s\n", "1", what, before, after,
			missing, verdict);
		return;
	}
	snprintf(head3, sizeof(head3), "%.1f s after exit", after_s);
	snprintf(v[0], sizeof(v[0]), "%.1f GiB", before);
	snprintf(v[1], sizeof(v[1]), "%.1f GiB", after);
	snprintf(v[2], sizeof(v[2]), "%.2f GiB", missing);
	if (fmt == REPORT_HTML)
		fputs("<table>\n", f);
	else
		fputc('\n', f);
	cells(f, fmt,
	      (const char *[]){"#", "configuration", "MemAvailable+pcp before", head3, "missing",
			       "result"},
	      6, 1);
	if (fmt == REPORT_MD)
		fputs("|---|---|---:|---:|---:|---|\n", f);
	cells(f, fmt, (const char *[]){"1", what, v[0], v[1], v[2], verdict}, 6, 0);
	if (fmt == REPORT_HTML)
		fputs("</table>\n", f);
}

void report_phantom(const struct probe_result *p, enum report_format fmt, FILE *f)
{
	json_t *ph = json_object_get(p->extra, "phantom");
	const char *verdict = str(ph, "verdict", "?"), *holder = str(ph, "holder", NULL);
	double done = num(ph, "cycles_done"), tol = num(ph, "tolerance_bytes") / GIB;
	double ret_s = num(ph, "return_s"), sampled = num(ph, "sampled_s");
	char text[700];
	int judged = !strcmp(verdict, "PASS") || !strcmp(verdict, "FAIL");
	snprintf(text, sizeof(text),
		 fmt == REPORT_MD ? "**phantom: %s** (%.0f cycle%s%s%s)\n"
				  : "phantom: %s  (%.0f cycle%s%s%s)",
		 str(ph, "what", "?"), done, done == 1 ? "" : "s", holder ? ", holder " : "",
		 holder ? holder : "");
	line(f, fmt, 0, text);
	if (!strcmp(verdict, "SKIP") || !strcmp(verdict, "ERROR")) {
		snprintf(text, sizeof(text), "%s: %s", !strcmp(verdict, "SKIP") ? "skip" : "error",
			 str(ph, "message", "did not run"));
		line(f, fmt, 0, text);
	} else if (strcmp(verdict, "INTERRUPTED") != 0) {
		levels(ph, fmt, f);
		if (ret_s >= 0)
			snprintf(text, sizeof(text),
				 "returned to within %.3f GiB %.2f s after exit; stable after %.2f "
				 "s; sampled %.2f s every %.0f ms",
				 tol, ret_s, num(ph, "stable_s"), sampled,
				 num(ph, "interval_s") * 1e3);
		else
			snprintf(text, sizeof(text),
				 "NOT returned to within %.3f GiB in %.2f s after exit (sampled "
				 "every "
				 "%.0f ms)",
				 tol, sampled, num(ph, "interval_s") * 1e3);
		line(f, fmt, 0, text);
		if (done > 1)
			cycles_table(p, ph, fmt, f);
	}
	klog(p, fmt, f);
	if (judged)
		acceptance(ph, fmt, f);
	snprintf(text, sizeof(text), "result: %s", verdict);
	line(f, fmt, 1, text);
	for (size_t k = 0; k < json_array_size(json_object_get(p->extra, "cycles")); k++) {
		json_t *c = json_array_get(json_object_get(p->extra, "cycles"), k);
		if (json_is_integer(json_object_get(c, "detached_pid"))) {
			snprintf(text, sizeof(text),
				 "detached holder pid %lld (ends by itself after "
				 "%.0f s)",
				 (long long)json_integer_value(json_object_get(c, "detached_pid")),
				 num(ph, "settle_s") + 5);
			line(f, fmt, 0, text);
		}
	}
}
