/* term.c - the terminal table: one block per probe, one row per metric; metrics
 * labelled src/dst as matrices (matrix.h). */
#include <math.h>
#include <string.h>

#include "base/util.h"
#include "report/doctor.h"
#include "report/format.h"
#include "report/limit.h"
#include "report/matrix.h"
#include "report/phantom.h"
#include "report/term.h"
#include "report/wrap.h"

static const char *host_str(const struct run *r, const char *key)
{
	json_t *v = r->host ? json_object_get(r->host, key) : NULL;
	return v && json_is_string(v) ? json_string_value(v) : "?";
}

/* Columns as wide as the probe's longest name and labels, up to a cap past
 * which the text is cut with "...": a long label never pushes the numbers
 * out of their columns. */
#define NAME_MAX_W   32
#define LABELS_MAX_W 56

#define COV_FLAG REPORT_COV_FLAG

/* A median whose samples' p5-p95 spans 0 (a difference of two medians,
 * translation_cost or thp_saving, that came out negative): its sign is the
 * noise's, not the machine's. */
static int spans_zero(const struct summary *s)
{
	return s->n >= 3 && s->p5 < 0 && s->p95 > 0;
}

static void metric_rows(const struct probe_result *p, FILE *f, size_t *n_flagged, size_t *n_zero)
{
	size_t nw = strlen("metric"), lw = strlen("labels");
	char labels[256], med[32], p5[32], p95[32], cov[32], ms[72];

	for (size_t k = 0; k < p->n_metrics; k++) {
		const struct metric *m = &p->metrics[k];

		if (matrix_is_cell(m))
			continue;
		metric_labels_str(m, labels, sizeof(labels));
		nw = report_text_width(m->name) > nw ? report_text_width(m->name) : nw;
		lw = report_text_width(labels) > lw ? report_text_width(labels) : lw;
	}
	nw = nw > NAME_MAX_W ? NAME_MAX_W : nw;
	lw = lw > LABELS_MAX_W ? LABELS_MAX_W : lw;
	fputs("   ", f);
	report_put_column(f, "metric", nw, 0);
	fputc(' ', f);
	report_put_column(f, "labels", lw, 0);
	fprintf(f, " %12s %21s %12s %12s %6s %3s  %s\n", "median", "mean +- sigma", "p5", "p95",
		"CoV%", "n", "unit");
	for (size_t k = 0; k < p->n_metrics; k++) {
		const struct metric *m = &p->metrics[k];
		struct summary s;

		/* src/dst cells are shown as matrices below (rows in the JSON) */
		if (matrix_is_cell(m))
			continue;
		stats_summarize(m->samples, m->n_samples, &s);
		metric_labels_str(m, labels, sizeof(labels));
		report_summary_text(&s, med, p5, p95, cov, sizeof(med));
		if (s.n > 1 && isfinite(s.mean) && isfinite(s.stddev)) {
			/* as hyperfine shows it, beside the median */
			char mean[32], sd[32];

			report_fmt_value(s.mean, mean, sizeof(mean));
			report_fmt_value(s.stddev, sd, sizeof(sd));
			snprintf(ms, sizeof(ms), "%s +- %s", mean, sd);
		} else
			snprintf(ms, sizeof(ms), "-");
		fputs("   ", f);
		report_put_column(f, m->name, nw, 0);
		fputc(' ', f);
		report_put_column(f, labels, lw, 0);
		fprintf(f, " %12s %21s %12s %12s %6s %3zu  %s", med, ms, p5, p95, cov, s.n,
			unit_name(m->unit));
		if (spans_zero(&s)) {
			fputs("  ! within noise", f);
			++*n_zero;
		} else if (s.n >= 3 && m->better != BETTER_NONE && s.cov > COV_FLAG) {
			fputs("  ! unsteady", f);
			++*n_flagged;
		}
		fputc('\n', f);
	}
}

const char *report_term_same_skip(const struct run *r, size_t i)
{
	const char *first = NULL;

	if (i >= r->n_probes || r->probes[i].status != STATUS_SKIP || !r->probes[i].reason)
		return NULL;
	for (size_t k = i; k-- > 0;) {
		const struct probe_result *q = &r->probes[k];

		if (q->status != STATUS_SKIP || !q->reason ||
		    strcmp(q->reason, r->probes[i].reason) != 0)
			break;
		first = q->name;
	}
	return first;
}

void report_term_head(const struct run *r, FILE *f)
{
	json_t *cpu = r->host ? json_object_get(r->host, "cpu") : NULL;
	json_t *model = cpu ? json_object_get(cpu, "model") : NULL;
	fprintf(f, "mempath %s  label=%s  suite=%s  %s\n", r->tool_version ? r->tool_version : "",
		r->label ? r->label : "-", r->suite ? r->suite : "-",
		r->start_time ? r->start_time : "");
	fprintf(f, "host %s  kernel %s  cpu %s\n", host_str(r, "hostname"), host_str(r, "kernel"),
		model && json_is_string(model) ? json_string_value(model) : "?");
	report_doctor_traps(r->host, REPORT_TERM, f);
}

void report_term_state(const struct run *r, FILE *f)
{
	if (!r->complete)
		fprintf(f, "INCOMPLETE RUN: the file was saved before the run ended (killed?); "
			   "results are partial\n");
	if (r->interrupted)
		fprintf(f, "INTERRUPTED: partial results\n");
}

void report_term_probe(const json_t *host, const struct probe_result *p, const char *same_as,
		       FILE *f)
{
	struct matrix_set ms;
	size_t n_cells = 0, n_flagged = 0, n_zero = 0;
	fprintf(f, "\n== %s  %s", p->name, status_name(p->status));
	if (same_as) /* ten GPU probes skipped for one reason: said once */
		fprintf(f, ": as %s", same_as);
	else if (p->reason)
		fprintf(f, ": %s", p->reason);
	{
		char wall[64];

		report_fmt_seconds(p->wall_s, wall, sizeof(wall));
		fprintf(f, "  (%s)\n", wall);
	}
	for (size_t k = 0; k < p->n_params; k++) /* the quick suite's sizes, said */
		if (strcmp(p->params[k].key, "quick_suite") == 0) {
			char *e = report_term_escape(p->params[k].value);
			fprintf(f, "   quick suite: %s\n", e);
			free(e);
		}
	if (report_is_wrap(p)) { /* a workload's own layout */
		report_wrap(p, REPORT_TERM, f);
		return;
	}
	if (report_is_phantom(p)) {
		report_phantom(p, REPORT_TERM, f);
		return;
	}
	(void)matrix_build(p, &ms); /* checked by report_write */
	for (size_t k = 0; k < p->n_metrics; k++)
		n_cells += matrix_is_cell(&p->metrics[k]);
	if (p->n_metrics > n_cells)
		metric_rows(p, f, &n_flagged, &n_zero);
	if (n_flagged)
		fprintf(f,
			"   ! unsteady: CoV above %.0f%%, the median may move that much between "
			"runs (more --reps, or a quieter machine: mempath doctor)\n",
			100 * COV_FLAG);
	if (n_zero)
		fputs("   ! within noise: its samples' p5-p95 spans 0, so neither the size nor the "
		      "sign of the median is established (a negative cost is noise)\n",
		      f);
	report_limit_lines(host, p, REPORT_TERM, f);
	for (size_t t = 0; t < ms.n; t++) {
		fputc('\n', f);
		matrix_write_text(&ms.tables[t], "   ", f);
	}
	matrix_set_free(&ms);
	report_receipts(p, REPORT_TERM, f);
}

int report_term(const struct run *r, FILE *f)
{
	report_term_head(r, f);
	report_term_state(r, f);
	for (size_t i = 0; i < r->n_probes; i++)
		report_term_probe(r->host, &r->probes[i], report_term_same_skip(r, i), f);
	return 0;
}
