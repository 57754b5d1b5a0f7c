/* csv.c - one row per metric (RFC 4180 quoting). */
#include "report/csv.h"

#include <math.h>
#include <string.h>

#include "report/format.h"

/* ",value": empty when there is no sample or the value is not finite */
static void num(FILE *f, size_t n, double v)
{
	if (n && isfinite(v))
		fprintf(f, ",%.6g", v);
	else
		fputc(',', f);
}

int report_csv(const struct run *r, FILE *f)
{
	fputs("probe,status,metric,labels,unit,better,n,median,p5,p95,min,max,cov\n", f);
	for (size_t i = 0; i < r->n_probes; i++) {
		const struct probe_result *p = &r->probes[i];
		if (p->n_metrics == 0) {
			report_csv_field(f, p->name);
			fprintf(f, ",%s,,,,,0,,,,,,\n", status_name(p->status));
		}
		for (size_t k = 0; k < p->n_metrics; k++) {
			const struct metric *m = &p->metrics[k];
			struct summary s;
			char labels[256];
			stats_summarize(m->samples, m->n_samples, &s);
			metric_labels_str(m, labels, sizeof(labels));
			report_csv_field(f, p->name);
			fprintf(f, ",%s,", status_name(p->status));
			report_csv_field(f, m->name);
			fputc(',', f);
			report_csv_field(f, labels);
			fputc(',', f);
			report_csv_field(f, unit_name(m->unit));
			fprintf(f, ",%s,%zu", better_name(m->better), s.n);
			/* no counted sample: absent, never 0; a statistic that
			 * overflowed (samples near 1e308): unknown, empty too */
			num(f, s.n, s.median);
			num(f, s.n, s.p5);
			num(f, s.n, s.p95);
			num(f, s.n, s.min);
			num(f, s.n, s.max);
			num(f, s.n, s.cov);
			fputc('\n', f);
		}
	}
	return 0;
}
