/* md.c - Markdown: a header with the machine, then a table per probe; metrics
 * labelled src/dst as matrices (matrix.h). */
#include <string.h>

#include "base/util.h"
#include "report/doctor.h"
#include "report/format.h"
#include "report/limit.h"
#include "report/matrix.h"
#include "report/md.h"
#include "report/phantom.h"
#include "report/wrap.h"

int report_md(const struct run *r, FILE *f)
{
	json_t *cpu = r->host ? json_object_get(r->host, "cpu") : NULL;
	json_t *knobs = r->knobs_start;
	fprintf(f, "# mempath results%s%s\n\n", r->label ? ": " : "", r->label ? r->label : "");
	fprintf(f, "- date: %s to %s\n", r->start_time ? r->start_time : "?",
		r->end_time ? r->end_time : "?");
	fprintf(f, "- host: %s, kernel %s, %s\n", report_jstr(r->host, "hostname"),
		report_jstr(r->host, "kernel"), report_jstr(cpu, "model"));
	fprintf(f, "- suite: %s; mempath %s (%s)\n", r->suite ? r->suite : "-",
		r->tool_version ? r->tool_version : "?", r->git_hash ? r->git_hash : "?");
	if (knobs)
		fprintf(f, "- THP enabled=%s defrag=%s; numa_balancing=%s\n",
			report_jstr(knobs, "thp_enabled"), report_jstr(knobs, "thp_defrag"),
			json_is_integer(json_object_get(knobs, "numa_balancing"))
				? (json_integer_value(json_object_get(knobs, "numa_balancing"))
					   ? "on"
					   : "off")
				: "?");
	report_doctor_traps(r->host, REPORT_MD, f);
	if (!r->complete)
		fprintf(f, "\n**Incomplete run: the file was saved before the run ended (killed?); "
			   "results are partial.**\n");
	if (r->interrupted)
		fprintf(f, "\n**Interrupted: partial results.**\n");
	for (size_t i = 0; i < r->n_probes; i++) {
		const struct probe_result *p = &r->probes[i];
		struct matrix_set ms;
		size_t n_cells = 0;
		char wall[64];
		fprintf(f, "\n## %s (%s", p->name, status_name(p->status));
		if (p->reason) {
			fputs(": ", f);
			report_md_cell(f, p->reason);
		}
		report_fmt_seconds(p->wall_s, wall, sizeof(wall));
		fprintf(f, ", %s)\n\n", wall);
		if (p->n_params) {
			fputs("Parameters:", f);
			for (size_t k = 0; k < p->n_params; k++)
				fprintf(f, " %s=%s%s", p->params[k].key, p->params[k].value,
					k + 1 < p->n_params ? "," : "");
			fputs("\n\n", f);
		}
		if (report_is_wrap(p)) { /* a workload's own layout */
			report_wrap(p, REPORT_MD, f);
			continue;
		}
		if (report_is_phantom(p)) {
			report_phantom(p, REPORT_MD, f);
			continue;
		}
		if (p->n_metrics == 0)
			continue;
		(void)matrix_build(p, &ms); /* checked by report_write */
		for (size_t k = 0; k < p->n_metrics; k++)
			n_cells += matrix_is_cell(&p->metrics[k]);
		if (p->n_metrics > n_cells) {
			fputs("| metric | labels | median | p5 | p95 | CoV | n | unit |\n", f);
			fputs("|---|---|---:|---:|---:|---:|---:|---|\n", f);
		}
		for (size_t k = 0; k < p->n_metrics; k++) {
			const struct metric *m = &p->metrics[k];
			struct summary s;
			char labels[256], med[32], p5[32], p95[32], cov[32];
			/* src/dst cells are shown as matrices below (rows in the JSON) */
			if (matrix_is_cell(m))
				continue;
			stats_summarize(m->samples, m->n_samples, &s);
			metric_labels_str(m, labels, sizeof(labels));
			report_summary_text(&s, med, p5, p95, cov, sizeof(med));
			fputs("| ", f);
			report_md_cell(f, m->name);
			fputs(" | ", f);
			report_md_cell(f, labels);
			fprintf(f, " | %s | %s | %s | %s%s | %zu | %s |\n", med, p5, p95, cov,
				strcmp(cov, "-") ? "%" : "", s.n, unit_name(m->unit));
		}
		report_limit_lines(r->host, p, REPORT_MD, f);
		for (size_t t = 0; t < ms.n; t++)
			matrix_write_md(&ms.tables[t], f);
		matrix_set_free(&ms);
		report_receipts(p, REPORT_MD, f);
	}
	return 0;
}
