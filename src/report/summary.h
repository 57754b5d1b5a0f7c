/* summary.h - a comparison's compact export (`compare --export-summary`):
 * per metric its legs' medians, mean +- sigma and p5..p95, the change with
 * its 95% CI, p and the verdict, and the summary line; no samples (the
 * comparison's JSON keeps those). JSON or CSV by the file's extension. */
#ifndef MEMPATH_REPORT_SUMMARY_H
#define MEMPATH_REPORT_SUMMARY_H

#include "verdict/comparison.h"

/* 0 when path ends in .json or .csv, else -1 after an error line. */
int report_summary_check_path(const char *path);
/* Writes it (atomically); 0, or -1 after an error line. */
int report_summary_write(const struct comparison *c, const char *path);

#endif
