/* study_write.c - a study in the format asked for, to a stream or a file
 * (study.h). */
#include "report/study.h"

#include <stdio.h>

#include "base/util.h"

int report_study_write(const struct study *s, enum report_format fmt, FILE *f)
{
	switch (fmt) {
	case REPORT_TERM:
		return report_study_term(s, f);
	case REPORT_MD:
		return report_study_md(s, f);
	case REPORT_JSON:
		return report_study_json(s, f);
	case REPORT_HTML:
		return report_study_html(s, f);
	default:
		return error("a study is written as term, md, json or html");
	}
}

int report_study_write_file(const struct study *s, enum report_format fmt, const char *path)
{
	FILE *f = path ? fopen(path, "w") : stdout;
	int rc;
	if (!f)
		return error("cannot write '%s': %m", path);
	rc = report_study_write(s, fmt, f);
	if (path && fclose(f) != 0)
		rc = error("cannot write '%s': %m", path);
	else if (!path)
		fflush(f);
	return rc;
}
