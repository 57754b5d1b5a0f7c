/* csv.c - one row per metric (RFC 4180 quoting). */
#include "report/csv.h"

#include <math.h>
#include <string.h>

#include "report/format.h"

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
			if (s.n == 0) /* no counted sample: absent, never 0 */
				fprintf(f, ",%s,0,,,,,,\n", better_name(m->better));
			else if (!isfinite(s.cov)) /* a spread that overflowed: unknown, empty */
				fprintf(f, ",%s,%zu,%.6g,%.6g,%.6g,%.6g,%.6g,\n",
					better_name(m->better), s.n, s.median, s.p5, s.p95, s.min,
					s.max);
			else
				fprintf(f, ",%s,%zu,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n",
					better_name(m->better), s.n, s.median, s.p5, s.p95, s.min,
					s.max, s.cov);
		}
	}
	return 0;
}
