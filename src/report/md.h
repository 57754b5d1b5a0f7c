/* md.h - a run as Markdown: a header with the machine, a table per probe. */
#ifndef MEMPATH_REPORT_MD_H
#define MEMPATH_REPORT_MD_H

#include "results/results.h"
#include <stdio.h>

int report_md(const struct run *r, FILE *f);

#endif
