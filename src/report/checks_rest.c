/* checks_rest.c - check's other figures (checks_rest.h). */
#include "report/checks_rest.h"

#include <math.h>
#include <stdlib.h>

#include "base/util.h"
#include "report/format.h"

static void labels_text(const struct label *l, size_t n, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s=%s", i ? "," : "", l[i].key,
				       l[i].value);
}

static void value_text(double v, enum unit u, char *buf, size_t len)
{
	char num[48] = "-";
	if (isfinite(v))
		report_fmt_value(v, num, sizeof(num));
	snprintf(buf, len, "%s%s%s", num, isfinite(v) && *unit_name(u) ? " " : "",
		 isfinite(v) ? unit_name(u) : "");
}

void report_checks_rest(const struct fleet_check *c, size_t n, enum report_format fmt, FILE *f)
{
	size_t count[CHECK__COUNT] = {0}, rest = 0;
	int md = fmt == REPORT_MD;
	for (size_t i = 0; i < n; i++)
		rest += c[i].rest;
	if (!rest)
		return;
	fputs(md ? "\n## Every other figure: its physical limit, or why none judges it\n\n"
		 : "\nevery other figure: its physical limit, or why none judges it\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		char labels[256], val[64];
		char *e;
		if (!c[i].rest)
			continue;
		count[c[i].status]++;
		labels_text(c[i].labels, c[i].n_labels, labels, sizeof(labels));
		value_text(c[i].value, c[i].unit, val, sizeof(val));
		e = xasprintf("%s %s%s%s%s: %s: %s%s%s", c[i].probe, c[i].metric,
			      labels[0] ? " (" : "", labels, labels[0] ? ")" : "", val,
			      c[i].reason ? c[i].reason : "?",
			      c[i].load && c[i].status != CHECK_NA ? "; measured " : "",
			      c[i].load && c[i].status != CHECK_NA ? c[i].load : "");
		fprintf(f, md ? "- %s " : "  %-4s  ", check_status_name(c[i].status));
		if (md) {
			char *m = report_md_escape(e);
			fputs(m, f);
			free(m);
		} else {
			char *t = report_term_escape(e);
			fputs(t, f);
			free(t);
		}
		fputc('\n', f);
		free(e);
	}
	fprintf(f, "%sthe other figures: %zu PASS, %zu WARN, %zu FAIL, %zu INCONCLUSIVE\n",
		md ? "\n" : "", count[CHECK_PASS], count[CHECK_WARN], count[CHECK_FAIL],
		count[CHECK_NA]);
}
