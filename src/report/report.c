/* report.c - format dispatch: a run or a comparison to the writer of a format. */

#include "report/report.h"

#include "base/util.h"
#include "report/compare.h"
#include "report/csv.h"
#include "report/html.h"
#include "report/html_compare.h"
#include "report/json.h"
#include "report/md.h"
#include "report/term.h"
#include <math.h>
#include <string.h>

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

int report_compare_write(const struct comparison *c, enum report_format fmt, FILE *f)
{
	switch (fmt) {
	case REPORT_TERM:
		return report_compare_term(c, f);
	case REPORT_MD:
		return report_compare_md(c, f);
	case REPORT_JSON:
		return report_compare_json(c, f);
	case REPORT_CSV:
		return report_compare_csv(c, f);
	case REPORT_HTML:
		return report_compare_html(c, f);
	}
	return -1;
}

/* One thing to render, either kind. */
struct render_arg {
	const struct run *r;
	const struct comparison *c;
	enum report_format fmt;
};

static int render(const void *arg, FILE *f)
{
	const struct render_arg *a = arg;
	return a->c ? report_compare_write(a->c, a->fmt, f) : report_write(a->r, a->fmt, f);
}

int report_write_file(const struct run *r, enum report_format fmt, const char *path)
{
	struct render_arg a = {r, NULL, fmt};
	return write_rendered(path, render, &a);
}

int report_compare_write_file(const struct comparison *c, enum report_format fmt, const char *path)
{
	struct render_arg a = {NULL, c, fmt};
	return write_rendered(path, render, &a);
}
