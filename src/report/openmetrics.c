/* openmetrics.c - OpenMetrics text from runs and comparisons
 * (openmetrics.h).
 *
 * Why gauges of the median: a results file is a measurement taken once,
 * not a counter that grows; the median is the number every other format
 * leads with, and a gauge is read the same by OpenMetrics and by the
 * Prometheus text format that node_exporter's textfile collector parses
 * (no stateset, info or timestamps, which that parser refuses). Units are
 * converted to base units because the specification asks metric names to
 * end in one. */
#include "report/openmetrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/escape.h"
#include "base/util.h"
#include "verdict/compare.h"

struct om_sample {
	char *labels; /* rendered: key="value",... */
	double v;
};

struct om_family {
	char *name, *unit, *help;
	struct om_sample *s;
	size_t n;
};

struct om_set {
	struct om_family *f;
	size_t n;
};

struct om_set *om_set_new(void)
{
	return xcalloc(1, sizeof(struct om_set));
}

void om_set_free(struct om_set *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		for (size_t k = 0; k < s->f[i].n; k++)
			free(s->f[i].s[k].labels);
		free(s->f[i].s);
		free(s->f[i].name);
		free(s->f[i].unit);
		free(s->f[i].help);
	}
	free(s->f);
	free(s);
}

void om_name(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	if (len == 0)
		return;
	if (!*s || (*s >= '0' && *s <= '9'))
		buf[o++] = '_';
	for (; *s && o + 1 < len; s++) {
		int ok = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			 (*s >= '0' && *s <= '9') || *s == '_';

		buf[o++] = ok ? *s : '_';
	}
	buf[o < len ? o : len - 1] = '\0';
}

const char *om_unit(enum unit u, double *factor)
{
	static const struct {
		enum unit u;
		const char *name;
		double factor;
	} map[] = {
		{UNIT_GB_S, "bytes_per_second", 1e9},
		{UNIT_GIB_S, "bytes_per_second", 1073741824.0},
		{UNIT_NS, "seconds", 1e-9},
		{UNIT_US, "seconds", 1e-6},
		{UNIT_MS, "seconds", 1e-3},
		{UNIT_S, "seconds", 1},
		{UNIT_MACC_S, "accesses_per_second", 1e6},
		{UNIT_MIB, "bytes", 1048576.0},
		{UNIT_GIB, "bytes", 1073741824.0},
		{UNIT_BYTES, "bytes", 1},
		{UNIT_PER_GIB, "per_gibibyte", 1},
		{UNIT_WORDS_US, "words_per_second", 1e6},
		{UNIT_PCT, "ratio", 0.01},
		{UNIT_MHZ, "hertz", 1e6},
		{UNIT_W, "watts", 1},
		{UNIT_C, "celsius", 1},
		{UNIT_RATIO, "ratio", 1},
		{UNIT_TOKENS_S, "tokens_per_second", 1},
		{UNIT_GFLOP_S, "flops", 1e9},
	};

	*factor = 1;
	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (map[i].u == u) {
			*factor = map[i].factor;
			return map[i].name;
		}
	return ""; /* count, none */
}

/* s with \ " and newline escaped, as label values and HELP text want;
 * another control character as the text \xNN (escaped: "\\xNN"), a C1 or
 * bidi control as \uNNNN (escaped: "\\u202e"), never raw into a scrape a
 * terminal may show. */
static void put_escaped(FILE *f, const char *raw)
{
	char *text = xmalloc(3 * strlen(raw) + 1);
	const char *s = text;

	escape_json_text(text, raw);
	for (; *s; s++)
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '"')
			fputs("\\\"", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			fprintf(f, "\\\\x%02x", (unsigned char)*s);
		else
			fputc(*s, f);
	free(text);
}

/* Names a family must not end in: the suffixes OpenMetrics keeps for the
 * samples of other types; a unitless metric named so gets "_value". */
static int reserved_suffix(const char *name)
{
	static const char *const suffixes[] = {"_total",  "_created", "_count", "_sum",
					       "_bucket", "_gcount",  "_gsum",	"_info"};
	size_t n = strlen(name);

	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++) {
		size_t k = strlen(suffixes[i]);

		if (n >= k && strcmp(name + n - k, suffixes[i]) == 0)
			return 1;
	}
	return 0;
}

/* A name ending in its unit abbreviated ("..._tokens_per_s" of unit
 * tokens_per_second) loses that end, which the unit then spells out:
 * promtool refuses abbreviated units in names. */
static void strip_abbreviated_unit(char *fam, const char *unit)
{
	const char *per = strstr(unit, "_per_second");
	size_t n = strlen(fam), stem = per ? (size_t)(per - unit) + 5 : 0; /* "x_per_" */
	char want[96];

	if (!per || stem + 1 >= sizeof(want))
		return;
	snprintf(want, sizeof(want), "_%.*ss", (int)stem, unit);
	if (n > strlen(want) && strcmp(fam + n - strlen(want), want) == 0)
		fam[n - strlen(want)] = '\0';
}

static char *render_labels(const char *const *kv, size_t n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return xstrdup("");
	for (size_t i = 0; i < n; i++) {
		char key[128];

		om_name(kv[2 * i], key, sizeof(key));
		/* "__" starts the names Prometheus keeps for itself */
		fprintf(f, "%s%s%s=\"", i ? "," : "", strncmp(key, "__", 2) == 0 ? "l" : "", key);
		put_escaped(f, kv[2 * i + 1]);
		fputc('"', f);
	}
	fclose(f);
	return text ? text : xstrdup("");
}

void om_add(struct om_set *s, const char *name, const char *unit, const char *help,
	    const char *const *kv, size_t n, double v)
{
	char fam[256], *full;
	struct om_family *f = NULL;
	char *labels;

	if (!isfinite(v))
		return; /* absent, never a number it is not */
	om_name(name, fam, sizeof(fam));
	strip_abbreviated_unit(fam, unit);
	full = *unit ? xasprintf("%s_%s", fam, unit)
		     : xasprintf("%s%s", fam, reserved_suffix(fam) ? "_value" : "");
	for (size_t i = 0; i < s->n && !f; i++)
		if (strcmp(s->f[i].name, full) == 0)
			f = &s->f[i];
	if (!f) {
		GROW_ONE(s->f, s->n);
		f = &s->f[s->n++];
		*f = (struct om_family){full, xstrdup(unit), xstrdup(help ? help : ""), NULL, 0};
	} else {
		free(full);
	}
	labels = render_labels(kv, n);
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->s[i].labels, labels) == 0) {
			free(labels);
			return;
		}
	GROW_ONE(f->s, f->n);
	f->s[f->n++] = (struct om_sample){labels, v};
}

int om_write(const struct om_set *s, FILE *f)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct om_family *fam = &s->f[i];

		fprintf(f, "# TYPE %s gauge\n", fam->name);
		if (*fam->unit)
			fprintf(f, "# UNIT %s %s\n", fam->name, fam->unit);
		if (*fam->help) {
			fprintf(f, "# HELP %s ", fam->name);
			put_escaped(f, fam->help);
			fputc('\n', f);
		}
		for (size_t k = 0; k < fam->n; k++)
			fprintf(f, "%s%s%s%s %.10g\n", fam->name, *fam->s[k].labels ? "{" : "",
				fam->s[k].labels, *fam->s[k].labels ? "}" : "", fam->s[k].v);
	}
	fputs("# EOF\n", f);
	return ferror(f) ? error("cannot write the OpenMetrics text") : 0;
}

/* The label pairs of a metric, then the extra pairs; a metric label named
 * like one of the extras ("host") is renamed "metric_host". Into kv (2 *
 * max strings), names made in names. Returns the pairs. */
static size_t label_pairs(const struct label *l, size_t n_l, const char *const *extra, size_t n_x,
			  const char **kv, char (*names)[72], size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < n_l && n < max; i++) {
		int clash = 0;

		for (size_t k = 0; k < n_x; k++)
			clash |= strcmp(l[i].key, extra[2 * k]) == 0;
		snprintf(names[n], sizeof(names[n]), "%s%s", clash ? "metric_" : "", l[i].key);
		kv[2 * n] = names[n];
		kv[2 * n + 1] = l[i].value;
		n++;
	}
	for (size_t k = 0; k < n_x && n < max; k++, n++) {
		kv[2 * n] = extra[2 * k];
		kv[2 * n + 1] = extra[2 * k + 1];
	}
	return n;
}

#define MAX_PAIRS 24

/* "mempath_<probe>_<metric>" and its HELP: the metric's description and
 * where the number comes from. */
static void family_of(const char *probe, const char *metric, enum unit u, const char *desc,
		      char *name, size_t len, char **help)
{
	snprintf(name, len, "mempath_%s_%s", probe, metric);
	*help = xasprintf("%s: %s (median of the counted samples; recorded in %s)", probe,
			  desc && *desc ? desc : metric, unit_name(u));
}

/* Every metric of r with counted samples, in its probe metric's family,
 * labelled with its labels and the extra pairs. */
static void run_samples(struct om_set *s, const struct run *r, const char *const *extra,
			size_t n_extra)
{
	for (size_t i = 0; i < r->n_probes; i++) {
		const struct probe_result *p = &r->probes[i];

		for (size_t k = 0; k < p->n_metrics; k++) {
			const struct metric *m = &p->metrics[k];
			const char *kv[2 * MAX_PAIRS];
			char names[MAX_PAIRS][72], name[256], *help;
			struct summary sum;
			double factor;
			const char *unit = om_unit(m->unit, &factor);
			size_t n;

			stats_summarize(m->samples, m->n_samples, &sum);
			if (sum.n == 0)
				continue; /* no counted sample: absent, never 0 */
			n = label_pairs(m->labels, m->n_labels, extra, n_extra, kv, names,
					MAX_PAIRS);
			family_of(p->name, m->name, m->unit, m->desc, name, sizeof(name), &help);
			om_add(s, name, unit, help, kv, n, sum.median * factor);
			free(help);
		}
	}
}

int report_openmetrics(const struct run *r, FILE *f)
{
	struct om_set *s = om_set_new();
	const char *host = r->host ? json_string_value(json_object_get(r->host, "hostname")) : NULL;
	const char *extra[4] = {"host", host ? host : "", "label", r->label ? r->label : ""};
	int rc;

	run_samples(s, r, extra, r->label ? 2 : 1);
	rc = om_write(s, f);
	om_set_free(s);
	return rc;
}

int report_fleet_openmetrics(const struct fleet *fl, FILE *f)
{
	struct om_set *s = om_set_new();
	size_t flagged = 0;
	int rc;

	for (size_t i = 0; i < fl->n_nodes; i++) {
		const struct fleet_node *nd = &fl->nodes[i];
		char group[24];
		const char *extra[6] = {"host", nd->host ? nd->host : "", "node", nd->name, "group",
					group};

		snprintf(group, sizeof(group), "%zu", nd->group + 1);
		if (nd->run)
			run_samples(s, nd->run, extra, 2);
		om_add(s, "mempath_fleet_node_flagged", "",
		       "1 when the node is flagged (an outlier among its peers, a failed "
		       "reference check or a failed probe), else 0",
		       extra, 3, nd->n_flags > 0);
		om_add(s, "mempath_fleet_node_flags", "", "the node's flagged metrics and probes",
		       extra, 3, (double)nd->n_flags);
		flagged += nd->n_flags > 0;
		for (size_t k = 0; k < nd->n_checks; k++) {
			const struct fleet_check *c = &nd->checks[k];
			const char *kv[10] = {
				"host",	 extra[1], "node",  nd->name, "reference",
				c->kind, "path",   c->path, "status", check_status_name(c->status)};

			om_add(s, "mempath_fleet_check", "",
			       "each reference check of each node, its status as a label (value "
			       "always 1)",
			       kv, 5, 1);
		}
	}
	om_add(s, "mempath_fleet_nodes", "", "nodes in the fleet file", NULL, 0,
	       (double)fl->n_nodes);
	om_add(s, "mempath_fleet_flagged_nodes", "", "nodes with at least one flag", NULL, 0,
	       (double)flagged);
	rc = om_write(s, f);
	om_set_free(s);
	return rc;
}

/* Per row: each leg's median in the probe metric's own family (labelled
 * with the leg), and the change and verdict in families of their own. */
static void compare_row_om(struct om_set *s, const struct comparison *c,
			   const struct compare_row *row)
{
	const char *kv[2 * MAX_PAIRS];
	char names[MAX_PAIRS][72], name[256], idx[24], *help;
	double factor;
	const char *unit = om_unit(row->unit, &factor);
	const struct run *a = c->legs[0].run;
	const char *host = json_string_value(json_object_get(a->host, "hostname"));
	size_t n, nb = 1;

	const char *desc = NULL;

	while (nb < c->n_legs && c->legs[nb].variant != 'B')
		nb++;
	for (size_t j = 0; j < c->n_legs && !desc; j++)
		desc = row->m[j] ? row->m[j]->desc : NULL;
	family_of(row->probe, row->metric, row->unit, desc, name, sizeof(name), &help);
	for (size_t j = 0; j < c->n_legs; j++) {
		const struct run *r = c->legs[j].run;
		const char *h =
			r->host ? json_string_value(json_object_get(r->host, "hostname")) : "";
		const char variant[2] = {c->legs[j].variant, '\0'};
		const char *extra[8] = {"host", h ? h : "", "label",   c->legs[j].name,
					"leg",	idx,	    "variant", variant};

		if (!row->m[j] || row->n[j] == 0)
			continue;
		snprintf(idx, sizeof(idx), "%zu", j + 1);
		n = label_pairs(row->labels, row->n_labels, extra, 4, kv, names, MAX_PAIRS);
		om_add(s, name, unit, help, kv, n, row->median[j] * factor);
	}
	free(help);
	{
		const char *extra[10] = {"probe",  row->probe,
					 "metric", row->metric,
					 "host",   host ? host : "",
					 "a",	   c->legs[0].name,
					 "b",	   nb < c->n_legs ? c->legs[nb].name : ""};

		n = label_pairs(row->labels, row->n_labels, extra, 5, kv, names, MAX_PAIRS - 2);
		om_add(s, "mempath_compare_change", "ratio",
		       "median of B over median of A (1: no change), per compared metric", kv, n,
		       1 + row->change);
		kv[2 * n] = "verdict";
		kv[2 * n + 1] = verdict_id(row->verdict);
		kv[2 * n + 2] = "control";
		kv[2 * n + 3] = !row->control ? "no" : row->moved ? "moved" : "yes";
		om_add(s, "mempath_compare_verdict", "",
		       "the verdict of each compared metric, as its label (value always 1)", kv,
		       n + 2, 1);
	}
}

int report_compare_openmetrics(const struct comparison *c, FILE *f)
{
	struct om_set *s = om_set_new();
	int rc;

	for (size_t i = 0; i < c->n_rows; i++)
		compare_row_om(s, c, &c->rows[i]);
	for (int v = 0; v < VERDICT__COUNT; v++) {
		const char *kv[2] = {"verdict", verdict_id((enum verdict)v)};

		om_add(s, "mempath_compare_metrics", "",
		       "compared metrics (controls not counted) per verdict", kv, 1,
		       (double)c->summary.count[v]);
	}
	rc = om_write(s, f);
	om_set_free(s);
	return rc;
}

/* "2026-12-01T12:50:03Z" as seconds since the epoch; NAN when it is not. */
static double iso_seconds(const char *s)
{
	struct tm tm;
	char *end;

	memset(&tm, 0, sizeof(tm));
	if (!s || !(end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm)) || (*end && *end != 'Z'))
		return NAN;
	return (double)timegm(&tm);
}

int report_checks_openmetrics(const struct run *r, const struct fleet_check *c, size_t n,
			      const char *const *ids, size_t n_ids, FILE *f)
{
	struct om_set *s = om_set_new();
	size_t count[CHECK__COUNT] = {0};
	double start = r ? iso_seconds(r->start_time) : NAN;
	double end = r ? iso_seconds(r->end_time) : NAN;
	int rc;

	for (size_t i = 0; i < n; i++) {
		const char *kv[2 * MAX_PAIRS];
		size_t k = 0;

		for (; k < n_ids && k < MAX_PAIRS - 3; k++) {
			kv[2 * k] = ids[2 * k];
			kv[2 * k + 1] = ids[2 * k + 1];
		}
		kv[2 * k] = "reference";
		kv[2 * k + 1] = c[i].kind;
		kv[2 * k + 2] = "path";
		kv[2 * k + 3] = c[i].path;
		count[c[i].status]++;
		for (int st = CHECK_PASS; st < CHECK__COUNT; st++) {
			kv[2 * k + 4] = "state";
			kv[2 * k + 5] = check_status_name((enum check_status)st);
			om_add(s, "mempath_check_state", "",
			       "each judged path, one series per state (PASS, WARN, FAIL, "
			       "INCONCLUSIVE): 1 for the path's state, 0 for the others",
			       kv, k + 3, st == (int)c[i].status);
		}
		if (isfinite(c[i].value) && c[i].reference > 0)
			om_add(s, "mempath_check_share", "ratio",
			       "the path's median over its reference value (a band: over the "
			       "physical limit); absent when the path was not measured",
			       kv, k + 2, c[i].value / c[i].reference);
		om_add(s, "mempath_check_tolerance", "ratio",
		       "the reference's tolerance: WARN beyond it, FAIL beyond twice it", kv, k + 2,
		       c[i].tolerance);
	}
	for (int st = CHECK_PASS; st < CHECK__COUNT; st++) {
		const char *kv[2 * MAX_PAIRS];
		size_t k = 0;

		for (; k < n_ids && k < MAX_PAIRS - 1; k++) {
			kv[2 * k] = ids[2 * k];
			kv[2 * k + 1] = ids[2 * k + 1];
		}
		kv[2 * k] = "state";
		kv[2 * k + 1] = check_status_name((enum check_status)st);
		om_add(s, "mempath_check_paths", "", "judged paths per state", kv, k + 1,
		       (double)count[st]);
	}
	om_add(s, "mempath_check_run_start_timestamp", "seconds",
	       "when the judged run started (seconds since 1970, UTC)", ids, n_ids, start);
	om_add(s, "mempath_check_run_duration", "seconds",
	       "how long the judged run took, start to end", ids, n_ids, end - start);
	rc = om_write(s, f);
	om_set_free(s);
	return rc;
}
