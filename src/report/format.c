/* format.c - what every writer shares: the format names, numbers with a
 * sensible number of digits, and the escaping of text that came from a file
 * (results files are written on other machines) for each output format. */
#include "report/format.h"

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

/* Markdown table cells must not contain '|' or newlines. */
void report_md_cell(FILE *f, const char *s)
{
	for (; s && *s; s++)
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '\n')
			fputc(' ', f);
		else
			fputc(*s, f);
}

void report_csv_field(FILE *f, const char *s)
{
	if (!s)
		s = "";
	if (strpbrk(s, ",\"\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
}

void report_html_text(FILE *f, const char *s)
{
	static const char special[] = "&<>\"'";
	static const char *const entity[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};

	for (; s && *s; s++) {
		const char *e = strchr(special, *s);

		if (e)
			fputs(entity[e - special], f);
		else
			fputc(*s, f);
	}
}
