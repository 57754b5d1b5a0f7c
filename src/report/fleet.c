/* fleet.c - a fleet in term, md and csv (fleet.h). */
#include "report/fleet.h"

#include "report/checks_rest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "results/fleet_json.h"

/* Nodes shown per group in term and md: every node up to this, else the
 * flagged ones (CSV and HTML list every node). */
#define TEXT_MAX_NODES 64
/* Flagged metrics shown as columns; the rest are in the flags above. */
#define TEXT_MAX_COLUMNS 8

void report_fleet_labels(const struct label *l, size_t n, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++) {
		int w = snprintf(buf + used, len - used, "%s%s=%s", i ? "," : "", l[i].key,
				 l[i].value);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

double report_fleet_value(const struct run *r, const struct fleet_stat *s)
{
	for (size_t p = 0; r && p < r->n_probes; p++) {
		const struct probe_result *pr = &r->probes[p];
		if (pr->status != STATUS_OK || strcmp(pr->name, s->probe) != 0)
			continue;
		for (size_t k = 0; k < pr->n_metrics; k++) {
			const struct metric *m = &pr->metrics[k];
			if (strcmp(m->name, s->metric) == 0 && m->n_samples > 0 &&
			    labels_equal(m->labels, m->n_labels, s->labels, s->n_labels))
				return stats_median(m->samples, m->n_samples);
		}
	}
	return NAN;
}

const struct fleet_flag *report_fleet_flag_of(const struct fleet_node *n,
					      const struct fleet_stat *s)
{
	for (size_t i = 0; i < n->n_flags; i++) {
		const struct fleet_flag *fl = &n->flags[i];
		if (fl->metric && strcmp(fl->probe, s->probe) == 0 &&
		    strcmp(fl->metric, s->metric) == 0 &&
		    labels_equal(fl->labels, fl->n_labels, s->labels, s->n_labels))
			return fl;
	}
	return NULL;
}

/* ---- term and md ---- */

/* s, from the file, made safe for fmt (docs/design.md §9.3). */
static void put(FILE *f, enum report_format fmt, const char *s)
{
	char *e = fmt == REPORT_MD ? report_md_escape(s ? s : "") : report_term_escape(s ? s : "");
	if (fmt == REPORT_MD)
		report_md_cell(f, e);
	else
		fputs(e, f);
	free(e);
}

static void value_text(double v, enum unit u, char *buf, size_t len)
{
	char num[48] = "-";
	if (isfinite(v))
		report_fmt_value(v, num, sizeof(num));
	snprintf(buf, len, "%s%s%s", num, isfinite(v) && *unit_name(u) ? " " : "",
		 isfinite(v) ? unit_name(u) : "");
}

static void header(const struct fleet *fl, enum report_format fmt, FILE *f)
{
	int md = fmt == REPORT_MD;
	fprintf(f, "%smempath fleet: %zu node%s in %zu group%s, %zu flagged", md ? "# " : "",
		fl->n_nodes, fl->n_nodes == 1 ? "" : "s", fl->n_groups,
		fl->n_groups == 1 ? "" : "s", fl->n_flagged);
	if (fl->n_busy) /* their load explains every flag: busy, not slow (§4.14) */
		fprintf(f, " (%zu of them busy, not slow)", fl->n_busy);
	fputs("\n\n", f);
	fprintf(f, "%s", md ? "- made: " : "made: ");
	put(f, fmt, fl->created ? fl->created : "?");
	fputs(" by ", f);
	put(f, fmt, fl->source ? fl->source : "?");
	if (fl->mpi) {
		fputs(" (", f);
		put(f, fmt, fl->mpi);
		fputs(")", f);
	}
	fputs("; mempath ", f);
	put(f, fmt, fl->tool_version ? fl->tool_version : "?");
	fprintf(f,
		"\n%sflagged: |modified z| > %.1f in the worse direction and more than "
		"max(%.0f%%, the metric's own spread) from the group median; groups under %u "
		"nodes: reference values only; a reference check FAILs beyond twice its "
		"tolerance\n",
		md ? "- " : "", fl->th.z, fl->th.practical * 100, fl->th.min_group);
	if (isfinite(fl->test_alpha))
		fprintf(f,
			"%sfalse flags: %zu peer tests (nodes x metrics), each at %.2g (Bonferroni "
			"for %.0f%% family-wise, on a node's leave-one-out t against its peers); "
			"pure chance would give %.2g flags at most; a node within its own "
			"samples' p5-p95 spread of the group median is not flagged\n",
			md ? "- " : "", fl->n_tests, fl->test_alpha, FLEET_ALPHA * 100,
			fl->expected_false);
	for (size_t i = 0; i < fl->n_notes; i++) {
		fputs(md ? "- note: " : "note: ", f);
		put(f, fmt, fl->notes[i]);
		fputc('\n', f);
	}
}

static void node_flags(const struct fleet_node *n, enum report_format fmt, FILE *f)
{
	int md = fmt == REPORT_MD;
	int busy = fleet_node_busy(n);
	if (busy)
		fputs(md ? "\n**BUSY " : "\nBUSY     ", f);
	else
		fputs(md ? "\n**FLAGGED " : "\nFLAGGED  ", f);
	put(f, fmt, n->name);
	if (busy)
		fputs(" (other work ran beside its probes: busy, not slow)", f);
	fputs(md ? "**\n\n" : "\n", f);
	for (size_t i = 0; i < n->n_flags; i++) {
		const struct fleet_flag *fl = &n->flags[i];
		char labels[256], val[64], med[64];
		report_fleet_labels(fl->labels, fl->n_labels, labels, sizeof(labels));
		value_text(fl->value, fl->unit, val, sizeof(val));
		value_text(fl->group_median, fl->unit, med, sizeof(med));
		fputs(md ? "- " : "  ", f);
		put(f, fmt, fl->probe);
		if (fl->metric) {
			fputc(' ', f);
			put(f, fmt, fl->metric);
			fputc(' ', f);
			put(f, fmt, labels);
			fprintf(f, ": %s (group median %s): ", val, med);
		} else {
			fputs(": ", f);
		}
		put(f, fmt, fl->why);
		fputc('\n', f);
	}
}

/* The group's metrics that have a flag, at most TEXT_MAX_COLUMNS. */
static size_t flagged_stats(const struct fleet_group *g, const struct fleet_stat **out)
{
	size_t n = 0;
	for (size_t i = 0; i < g->n_stats && n < TEXT_MAX_COLUMNS; i++)
		if (g->stats[i].n_flagged)
			out[n++] = &g->stats[i];
	return n;
}

static void table_row(const struct fleet_node *nd, const struct fleet_stat *const *cols, size_t nc,
		      enum report_format fmt, FILE *f)
{
	int md = fmt == REPORT_MD;
	if (md) {
		fputs("| ", f);
		put(f, fmt, nd->name);
	} else {
		char *e = report_term_escape(nd->name);
		fprintf(f, "  %-20s", e);
		free(e);
	}
	for (size_t c = 0; c < nc; c++) {
		double v = report_fleet_value(nd->run, cols[c]);
		int flagged = report_fleet_flag_of(nd, cols[c]) != NULL;
		char num[48] = "-", cell[64];
		if (isfinite(v))
			report_fmt_value(v, num, sizeof(num));
		snprintf(cell, sizeof(cell), "%s%s%s", flagged ? (md ? "**" : "*") : "", num,
			 flagged && md ? "**" : "");
		if (md)
			fprintf(f, " | %s", cell);
		else
			fprintf(f, " %12s", cell);
	}
	fputs(md ? " |\n" : "\n", f);
}

static void group_table(const struct fleet *fl, size_t g, enum report_format fmt, FILE *f)
{
	const struct fleet_group *gr = &fl->groups[g];
	const struct fleet_stat *cols[TEXT_MAX_COLUMNS];
	size_t nc = flagged_stats(gr, cols), shown = 0;
	int md = fmt == REPORT_MD, all = gr->n_nodes <= TEXT_MAX_NODES;
	if (nc == 0)
		return;
	fprintf(f, "\n%smetrics with a flag (each node's median; %s flagged):\n\n", md ? "" : "  ",
		md ? "**bold**" : "*");
	for (size_t c = 0; c < nc; c++) {
		char labels[256];
		report_fleet_labels(cols[c]->labels, cols[c]->n_labels, labels, sizeof(labels));
		fprintf(f, "%s[%zu] ", md ? "- " : "  ", c + 1);
		put(f, fmt, cols[c]->probe);
		fputc(' ', f);
		put(f, fmt, cols[c]->metric);
		fputc(' ', f);
		put(f, fmt, labels);
		fprintf(f, " (%s, %s is better)\n", unit_name(cols[c]->unit),
			better_name(cols[c]->better));
	}
	fputs(md ? "\n| node |" : "\n  node                ", f);
	for (size_t c = 0; c < nc; c++) {
		char head[32];
		snprintf(head, sizeof(head), "[%zu]", c + 1);
		fprintf(f, md ? " %s |" : " %12s", head);
	}
	fputc('\n', f);
	if (md) {
		fputs("|---|", f);
		for (size_t c = 0; c < nc; c++)
			fputs("---:|", f);
		fputc('\n', f);
	}
	fputs(md ? "| group median" : "  group median        ", f);
	for (size_t c = 0; c < nc; c++) {
		char num[48] = "-";
		if (isfinite(cols[c]->median))
			report_fmt_value(cols[c]->median, num, sizeof(num));
		fprintf(f, md ? " | %s" : " %12s", num);
	}
	fputs(md ? " |\n" : "\n", f);
	for (size_t i = 0; i < fl->n_nodes; i++) {
		const struct fleet_node *nd = &fl->nodes[i];
		if (nd->group != g || (!all && nd->n_flags == 0))
			continue;
		table_row(nd, cols, nc, fmt, f);
		shown++;
	}
	if (shown < gr->n_nodes)
		fprintf(f,
			"%s(%zu nodes without a flag not shown; --format csv lists every node)\n",
			md ? "\n" : "  ", gr->n_nodes - shown);
}

/* A node's check on the same path and labels as ck, or NULL. */
static const struct fleet_check *same_check(const struct fleet_node *nd,
					    const struct fleet_check *ck)
{
	for (size_t i = 0; i < nd->n_checks; i++)
		if (strcmp(nd->checks[i].path, ck->path) == 0 &&
		    strcmp(nd->checks[i].kind ? nd->checks[i].kind : "",
			   ck->kind ? ck->kind : "") == 0 &&
		    labels_equal(nd->checks[i].labels, nd->checks[i].n_labels, ck->labels,
				 ck->n_labels))
			return &nd->checks[i];
	return NULL;
}

/* Per path of the references: how many nodes PASS, WARN, FAIL, n/a, and
 * which nodes did not pass. The paths are those of the group's first node
 * with checks (the nodes of a group match the same kinds). */
static void group_checks(const struct fleet *fl, size_t g, enum report_format fmt, FILE *f)
{
	const struct fleet_node *first = NULL;
	int md = fmt == REPORT_MD;
	for (size_t i = 0; i < fl->n_nodes && !first; i++)
		if (fl->nodes[i].group == g && fl->nodes[i].n_checks)
			first = &fl->nodes[i];
	if (!first)
		return;
	fprintf(f,
		"\n%sreference checks (PASS within the tolerance, WARN to twice it, FAIL "
		"beyond):\n\n",
		md ? "" : "  ");
	for (size_t c = 0; c < first->n_checks; c++) {
		const struct fleet_check *ck = &first->checks[c];
		size_t count[CHECK__COUNT] = {0};
		char ref[64], labels[256];
		report_fleet_labels(ck->labels, ck->n_labels, labels, sizeof(labels));
		for (size_t i = 0; i < fl->n_nodes; i++) {
			const struct fleet_check *x =
				fl->nodes[i].group == g ? same_check(&fl->nodes[i], ck) : NULL;
			if (x)
				count[x->status]++;
		}
		value_text(ck->reference, ck->unit, ref, sizeof(ref));
		fputs(md ? "- " : "  ", f);
		put(f, fmt, ck->path);
		fputs(" (", f);
		put(f, fmt, labels);
		fprintf(f,
			"): reference %s +-%.0f%%: %zu PASS, %zu WARN, %zu FAIL, %zu INCONCLUSIVE",
			ref, ck->tolerance * 100, count[CHECK_PASS], count[CHECK_WARN],
			count[CHECK_FAIL], count[CHECK_NA]);
		for (size_t i = 0; i < fl->n_nodes; i++) {
			const struct fleet_node *nd = &fl->nodes[i];
			const struct fleet_check *x = nd->group == g ? same_check(nd, ck) : NULL;
			char val[64];
			if (!x || (x->status != CHECK_WARN && x->status != CHECK_FAIL))
				continue;
			value_text(x->value, ck->unit, val, sizeof(val));
			fprintf(f, "; %s ", check_status_name(x->status));
			put(f, fmt, nd->name);
			fprintf(f, " %s", val);
		}
		fputc('\n', f);
	}
}

int report_fleet_text(const struct fleet *fl, enum report_format fmt, FILE *f)
{
	int md = fmt == REPORT_MD;
	header(fl, fmt, f);
	for (size_t g = 0; g < fl->n_groups; g++) {
		const struct fleet_group *gr = &fl->groups[g];
		fprintf(f, "\n%sgroup %zu: ", md ? "## " : "== ", g + 1);
		put(f, fmt, gr->key);
		fprintf(f, "\n\n%s%zu node%s; judged ", md ? "- " : "  ", gr->n_nodes,
			gr->n_nodes == 1 ? "" : "s");
		put(f, fmt, gr->judged);
		fputc('\n', f);
		for (size_t k = 0; k < gr->n_refs; k++) {
			fputs(md ? "- reference values: " : "  reference values: ", f);
			put(f, fmt, gr->refs[k]);
			fputc('\n', f);
		}
		for (size_t i = 0; i < fl->n_nodes; i++) {
			const struct fleet_node *nd = &fl->nodes[i];
			if (nd->group != g)
				continue;
			if (nd->n_flags)
				node_flags(nd, fmt, f);
			for (size_t k = 0; k < nd->n_notes; k++) {
				fputs(md ? "- note on " : "  note on ", f);
				put(f, fmt, nd->name);
				fputs(": ", f);
				put(f, fmt, nd->notes[k]);
				fputc('\n', f);
			}
		}
		group_table(fl, g, fmt, f);
		group_checks(fl, g, fmt, f);
	}
	if (fl->n_flagged == 0)
		fprintf(f, "\n%sno node flagged\n", md ? "**" : "");
	return ferror(f) ? error("cannot write the fleet report") : 0;
}

/* ---- csv ---- */

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.6g", v);
	else
		fputs(",", f);
}

static void csv_head(FILE *f, const struct fleet_node *nd, const char *kind, const char *probe,
		     const char *metric, const struct label *l, size_t nl, enum unit u)
{
	char labels[256];
	report_fleet_labels(l, nl, labels, sizeof(labels));
	report_csv_field(f, nd->name);
	fprintf(f, ",%zu,%s,", nd->group + 1, kind);
	report_csv_field(f, probe ? probe : "");
	fputc(',', f);
	report_csv_field(f, metric ? metric : "");
	fputc(',', f);
	report_csv_field(f, labels);
	fputc(',', f);
	report_csv_field(f, unit_name(u));
}

/* One row per node and metric of its group, per flag without a metric
 * (a probe that failed) and per reference check. */
int report_fleet_csv(const struct fleet *fl, FILE *f)
{
	fputs("node,group,row,probe,metric,labels,unit,value,group_median,robust_z,flagged,"
	      "reference,check,why\n",
	      f);
	for (size_t i = 0; i < fl->n_nodes; i++) {
		const struct fleet_node *nd = &fl->nodes[i];
		const struct fleet_group *gr =
			nd->group < fl->n_groups ? &fl->groups[nd->group] : NULL;
		for (size_t k = 0; gr && k < gr->n_stats; k++) {
			const struct fleet_stat *st = &gr->stats[k];
			const struct fleet_flag *flag = report_fleet_flag_of(nd, st);
			csv_head(f, nd, "metric", st->probe, st->metric, st->labels, st->n_labels,
				 st->unit);
			csv_num(f, report_fleet_value(nd->run, st));
			csv_num(f, st->median);
			csv_num(f, flag ? flag->robust_z : NAN);
			fprintf(f, ",%s,,,", flag ? "yes" : "no");
			report_csv_field(f, flag ? flag->why : "");
			fputc('\n', f);
		}
		for (size_t k = 0; k < nd->n_flags; k++) {
			if (nd->flags[k].metric)
				continue;
			csv_head(f, nd, "status", nd->flags[k].probe, NULL, NULL, 0, UNIT_NONE);
			fputs(",,,,yes,,,", f);
			report_csv_field(f, nd->flags[k].why);
			fputc('\n', f);
		}
		for (size_t k = 0; k < nd->n_checks; k++) {
			const struct fleet_check *ck = &nd->checks[k];
			csv_head(f, nd, "check", ck->probe, ck->metric, ck->labels, ck->n_labels,
				 ck->unit);
			csv_num(f, ck->value);
			fprintf(f, ",,,%s", ck->status == CHECK_FAIL ? "yes" : "no");
			csv_num(f, ck->reference);
			fprintf(f, ",%s,", check_status_name(ck->status));
			report_csv_field(f, ck->path);
			fputc('\n', f);
		}
	}
	return ferror(f) ? error("cannot write the fleet as CSV") : 0;
}

/* ---- mempath check ---- */

static int checks_json(const char *what, const struct fleet_check *c, size_t n, FILE *f)
{
	json_t *o = json_object(), *a = json_array(), *counts = json_object();
	size_t count[CHECK__COUNT] = {0};
	int rc;
	for (size_t i = 0; i < n; i++) {
		json_array_append_new(a, fleet_check_to_json(&c[i]));
		count[c[i].status]++;
	}
	for (int s = CHECK_PASS; s < CHECK__COUNT; s++)
		if (s <= CHECK_NA || count[s])
			json_object_set_new(counts, check_status_name((enum check_status)s),
					    json_integer((json_int_t)count[s]));
	json_object_set_new(o, "what", json_string(what));
	json_object_set_new(o, "checks", a);
	json_object_set_new(o, "counts", counts);
	rc = report_json_dumpf(o, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	fputc('\n', f);
	json_decref(o);
	return rc == 0 ? 0 : error("cannot write the checks as JSON");
}

int report_checks(const char *what, const struct fleet_check *c, size_t n, enum report_format fmt,
		  FILE *f)
{
	size_t count[CHECK__COUNT] = {0};
	int md = fmt == REPORT_MD;
	if (fmt == REPORT_JSON)
		return checks_json(what, c, n, f);
	fputs(md ? "# mempath check: " : "mempath check: ", f);
	put(f, fmt, what);
	fputs(md ? "\n\n| check | path | labels | value | reference | change | means | source "
		   "|\n|---|---|---|---:|---:|---:|---|---|\n"
		 : "\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		char labels[256], val[64], ref[64], change[32] = "-";
		if (c[i].rest) /* after the kind's paths, a line each */
			continue;
		count[c[i].status]++;
		report_fleet_labels(c[i].labels, c[i].n_labels, labels, sizeof(labels));
		value_text(c[i].value, c[i].unit, val, sizeof(val));
		value_text(c[i].reference, c[i].unit, ref, sizeof(ref));
		if (isfinite(c[i].value))
			snprintf(change, sizeof(change), "%+.1f%%",
				 (c[i].value / c[i].reference - 1) * 100);
		if (md) {
			fprintf(f, "| %s | ", check_status_name(c[i].status));
			put(f, fmt, c[i].path);
			fputs(" | ", f);
			put(f, fmt, labels);
			fprintf(f, " | %s | %s +-%.0f%% | %s | ", val, ref, c[i].tolerance * 100,
				change);
			put(f, fmt, c[i].means);
			if (c[i].reason) {
				fputs(c[i].status == CHECK_NA ? "; why: " : "; limit: ", f);
				put(f, fmt, c[i].reason);
			}
			fputs(" | ", f);
			put(f, fmt, c[i].source);
			fputs(" |\n", f);
			continue;
		}
		fprintf(f, "%-4s  ", check_status_name(c[i].status));
		put(f, fmt, c[i].path);
		fputs(" (", f);
		put(f, fmt, labels);
		if (c[i].status == CHECK_NA && isfinite(c[i].value) && c[i].reference > 0)
			fprintf(f, "): %s, reference %s +-%.0f%% (%s), not judged", val, ref,
				c[i].tolerance * 100, change);
		else if (c[i].status == CHECK_NA)
			fputs("): not judged", f);
		else
			fprintf(f, "): %s, %s %s +-%.0f%% (%s)", val,
				c[i].reason ? "limit" : "reference", ref, c[i].tolerance * 100,
				change);
		if (c[i].tool && isfinite(c[i].value) && c[i].reference > 0) {
			char tv[48], mv[48];
			report_fmt_value(c[i].reference, tv, sizeof(tv));
			report_fmt_value(c[i].value, mv, sizeof(mv));
			fputs("\n      beside: ", f);
			put(f, fmt, c[i].tool);
			fprintf(f, " %s beside mempath %s (x%.3f)", tv, mv,
				c[i].value / c[i].reference);
		}
		if (c[i].reason) {
			fputs(c[i].status == CHECK_NA ? "\n      why: " : "\n      limit: ", f);
			put(f, fmt, c[i].reason);
		}
		fputs("\n      means: ", f);
		put(f, fmt, c[i].means);
		fputs("\n      source: ", f);
		put(f, fmt, c[i].source);
		fputs(", ", f);
		put(f, fmt, c[i].date);
		if (c[i].load) {
			fputs("\n      load: ", f);
			put(f, fmt, c[i].load);
		}
		if (c[i].note) {
			fputs("\n      note: ", f);
			put(f, fmt, c[i].note);
		}
		if (c[i].other) {
			fputs("\n      other tools: ", f);
			put(f, fmt, c[i].other);
		}
		fputc('\n', f);
	}
	fprintf(f, "%s%zu PASS, %zu WARN, %zu FAIL, %zu INCONCLUSIVE\n", md ? "\n" : "",
		count[CHECK_PASS], count[CHECK_WARN], count[CHECK_FAIL], count[CHECK_NA]);
	report_checks_rest(c, n, fmt, f);
	return ferror(f) ? error("cannot write the checks") : 0;
}
