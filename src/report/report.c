/* report.c - format dispatch and shared number formatting. */
#include "report/report.h"

#include <math.h>
#include <string.h>

int report_format_parse(const char *s, enum report_format *out)
{
	static const struct {
		const char *name;
		enum report_format fmt;
	} names[] = {{"term", REPORT_TERM},
		     {"md", REPORT_MD},
		     {"json", REPORT_JSON},
		     {"csv", REPORT_CSV},
		     {"html", REPORT_HTML}};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i].name) == 0) {
			*out = names[i].fmt;
			return 0;
		}
	return -1;
}

int report_write(const struct run *r, enum report_format fmt, FILE *f)
{
	switch (fmt) {
	case REPORT_TERM:
		return report_term(r, f);
	case REPORT_MD:
		return report_md(r, f);
	case REPORT_JSON:
		return report_json(r, f);
	case REPORT_CSV:
		return report_csv(r, f);
	case REPORT_HTML:
		return report_html(r, f);
	}
	return -1;
}

void report_fmt_value(double v, char *buf, size_t len)
{
	double a = fabs(v);
	if (v == 0)
		snprintf(buf, len, "0");
	else if (a >= 1e5)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 1)
		snprintf(buf, len, "%.3g", v);
	else
		snprintf(buf, len, "%.3g", v);
}

const char *report_jstr(const json_t *o, const char *key)
{
	const char *s = o ? json_string_value(json_object_get(o, key)) : NULL;
	return s ? s : "?";
}
