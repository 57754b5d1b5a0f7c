/* html_fleet.h - a fleet as one self-contained HTML5 page: the groups, the
 * flagged nodes and why, nodes x flagged metrics with the flagged cells
 * marked, and a strip plot per flagged metric showing every node of the
 * group against the median and the practical threshold (inline SVG, no
 * scripts; html_page.h). */
#ifndef MEMPATH_REPORT_HTML_FLEET_H
#define MEMPATH_REPORT_HTML_FLEET_H

#include <stdio.h>

#include "results/fleet.h"

int report_fleet_html(const struct fleet *fl, FILE *f);

#endif
