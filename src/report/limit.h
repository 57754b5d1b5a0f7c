/* limit.h - a bandwidth figure beside its physical limit (machine/limits.h):
 * the share of the limit the fingerprint records for the path, or why there
 * is none. Every writer with per-metric rows (term, md, html, json) adds it. */
#ifndef MEMPATH_REPORT_LIMIT_H
#define MEMPATH_REPORT_LIMIT_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "report/format.h"
#include "results/results.h"

/* Metric m of p against its limit on host: 1 and "94.6% of 4916.7 GB/s
 * (gpu0.hbm: 6144 bit x ...)" in buf; 0 and "limit unknown: why" in buf;
 * -1 (buf empty) when no limit applies to the metric. */
int report_limit_share(const json_t *host, const struct probe_result *p, const struct metric *m,
		       char *buf, size_t len);
/* One line per metric of p with a limit (known or not): "limit: bandwidth
 * kernel=read: 94.6% of ..." as fmt writes text (term, md, html). */
void report_limit_lines(const json_t *host, const struct probe_result *p, enum report_format fmt,
			FILE *f);
/* The JSON writer's "limit_shares": [{probe, metric, labels, median,
 * limit_key, limit_gbps, share} or {..., unknown}] for the run, or NULL
 * when no metric has a limit. */
json_t *report_limit_json(const struct run *r);

#endif
