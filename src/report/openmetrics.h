/* openmetrics.h - runs and comparisons as OpenMetrics text (docs/design.md
 * §9.6), the format Prometheus scrapes and node_exporter's textfile
 * collector reads: one gauge family per probe metric,
 * mempath_<probe>_<metric>_<unit> in base units (seconds, bytes,
 * bytes_per_second, ...), the median of the counted samples, labelled with
 * the metric's labels, host and label; HELP, TYPE and UNIT lines; # EOF.
 *
 * Comparisons and fleets write through the same set (om_add, om_write): a
 * family's samples must be contiguous and a label set appear once, which
 * the set sees to, whatever order they are added in. */
#ifndef MEMPATH_REPORT_OPENMETRICS_H
#define MEMPATH_REPORT_OPENMETRICS_H

#include <stddef.h>
#include <stdio.h>

#include "results/fleet.h"
#include "results/results.h"
#include "verdict/comparison.h"

struct om_set;

struct om_set *om_set_new(void);
void om_set_free(struct om_set *s);
/* One sample of family `name` (made a valid name here), of OpenMetrics unit
 * `unit` ("" for none) and type gauge; labels as n key, value pairs (keys
 * made valid names, values escaped here). A label set already in the family
 * is dropped: the first one stays. */
void om_add(struct om_set *s, const char *name, const char *unit, const char *help,
	    const char *const *kv, size_t n, double v);
/* Every family in the order first added, then "# EOF". 0, or -1 when the
 * stream failed. */
int om_write(const struct om_set *s, FILE *f);

/* A mempath unit as an OpenMetrics one: the name's suffix ("seconds",
 * "bytes_per_second"; "" for none) and the factor to it (ns: 1e-9). */
const char *om_unit(enum unit u, double *factor);
/* A valid metric or label name from any text: [a-zA-Z_][a-zA-Z0-9_]*,
 * other characters as '_'. Into buf. */
void om_name(const char *s, char *buf, size_t len);

int report_openmetrics(const struct run *r, FILE *f);
int report_compare_openmetrics(const struct comparison *c, FILE *f);
/* A fleet: every node's medians in the probe metrics' families, labelled
 * with the node (and its host and group); per node whether it is flagged
 * and each reference check's status; the counts of nodes. */
int report_fleet_openmetrics(const struct fleet *fl, FILE *f);
/* check's verdicts (docs/schema.md, "check as OpenMetrics"): per path a
 * gauge a state (1 for its state), its share of the reference and the
 * tolerance; the paths per state; when the run r started and how long it
 * took. Every series carries the ids (n_ids key, value pairs: node, gpu,
 * slurm_job, pod, namespace). */
int report_checks_openmetrics(const struct run *r, const struct fleet_check *c, size_t n,
			      const char *const *ids, size_t n_ids, FILE *f);

#endif
