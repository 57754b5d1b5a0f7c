/* html_compare.h - a comparison as one HTML5 page: the Markdown facts,
 * verdicts coloured, and a forest plot of each metric's change with its CI
 * and practical threshold. */
#ifndef MEMPATH_REPORT_HTML_COMPARE_H
#define MEMPATH_REPORT_HTML_COMPARE_H

#include "verdict/compare.h"
#include <stdio.h>

int report_compare_html(const struct comparison *c, FILE *f);

#endif
