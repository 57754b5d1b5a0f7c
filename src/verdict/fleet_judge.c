/* fleet_judge.c - groups, peer outliers and reference checks of a fleet
 * (fleet_judge.h; the rules: docs/design.md §5.9). */
#include "verdict/fleet_judge.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "verdict/join.h"
#include "verdict/ref_busy.h"
#include "verdict/robust.h"

char *fleet_kind_key(json_t *host)
{
	json_t *cpu = json_object_get(host, "cpu"), *mem = json_object_get(host, "memory");
	json_t *gpu = json_object_get(host, "gpu"), *devs = json_object_get(gpu, "devices"), *d;
	const char *model = json_string_value(json_object_get(cpu, "model"));
	const char *gname = NULL, *driver = NULL;
	json_int_t cpus = json_integer_value(json_object_get(cpu, "logical_cpus"));
	double mem_gib = json_number_value(json_object_get(mem, "MemTotal")) / (1 << 30);
	size_t i, n_gpus = json_is_array(devs) ? json_array_size(devs) : 0;
	int mixed = 0;
	char *gpus;
	json_array_foreach (devs, i, d) {
		const char *name = json_string_value(json_object_get(d, "name"));
		if (!gname)
			gname = name ? name : "?";
		else if (!name || strcmp(name, gname) != 0)
			mixed = 1;
		if (!driver)
			driver = json_string_value(json_object_get(d, "driver_version"));
	}
	if (n_gpus == 0)
		gpus = xstrdup("no GPU");
	else
		gpus = xasprintf("%zux %s%s, driver %s", n_gpus, mixed ? "mixed: " : "", gname,
				 driver ? driver : "?");
	/* MemTotal to the nearest GiB: nodes of one kind differ by what the
	 * firmware and kernel keep, a few MiB */
	/* an emulator's or a hypervisor's guests are a kind of their own: never
	 * judged against real machines (an emulator's timings are not memory
	 * figures at all) */
	json_t *virt = json_object_get(host, "virt");
	const char *vkind = json_string_value(json_object_get(virt, "kind"));
	const char *vname = json_string_value(json_object_get(virt, "name"));
	char *key = xasprintf("%s x%lld, %.0f GiB, %s%s%s%s", model ? model : "?", (long long)cpus,
			      round(mem_gib), gpus, vkind && strcmp(vkind, "none") ? ", " : "",
			      vkind && strcmp(vkind, "none") ? (vname ? vname : "?") : "",
			      vkind && strcmp(vkind, "none")
				      ? (strcmp(vkind, "emulator") ? " guest" : " emulated")
				      : "");
	free(gpus);
	return key;
}

/* ---- groups ---- */

static size_t group_of(struct fleet *f, const char *key)
{
	for (size_t g = 0; g < f->n_groups; g++)
		if (strcmp(f->groups[g].key, key) == 0)
			return g;
	GROW_ONE(f->groups, f->n_groups);
	memset(&f->groups[f->n_groups], 0, sizeof(*f->groups));
	f->groups[f->n_groups].key = xstrdup(key);
	return f->n_groups++;
}

/* One metric of one node of a group. */
struct entry {
	char *id;
	size_t node, pos;
	const struct probe_result *pr;
	const struct metric *m;
};

static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->id, y->id);
	return c ? c : x->node < y->node ? -1 : x->node > y->node;
}

/* A group's metric and where it first appears (node, probe and metric
 * index), so the stats keep the order the runs have. */
struct pending {
	struct fleet_stat st;
	size_t node, pos;
};

static int pending_cmp(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static struct fleet_flag *add_flag(struct fleet_node *n, const char *probe, const char *metric,
				   const struct metric *m)
{
	struct fleet_flag *fl;
	GROW_ONE(n->flags, n->n_flags);
	fl = &n->flags[n->n_flags++];
	memset(fl, 0, sizeof(*fl));
	fl->probe = xstrdup(probe);
	fl->metric = metric ? xstrdup(metric) : NULL;
	fl->labels = fleet_labels_dup(m ? m->labels : NULL, m ? m->n_labels : 0);
	fl->n_labels = m ? m->n_labels : 0;
	fl->unit = m ? m->unit : UNIT_NONE;
	fl->better = m ? m->better : BETTER_NONE;
	fl->value = fl->group_median = fl->robust_z = fl->threshold = NAN;
	return fl;
}

/* The nodes' medians of one metric (entries e[0..k)) against each other. */
static void judge_metric(struct fleet *f, struct fleet_group *g, const struct entry *e, size_t k,
			 struct fleet_stat *st)
{
	double *x = xmalloc(k * sizeof(double)), *z = xmalloc(k * sizeof(double));
	double *spread = xmalloc(k * sizeof(double)), sp, *own = xmalloc(k * sizeof(double)), tcut;
	for (size_t i = 0; i < k; i++) {
		struct summary s;
		stats_summarize(e[i].m->samples, e[i].m->n_samples, &s);
		x[i] = s.median;
		own[i] = fabs(s.p95 - s.p5) / 2;
		spread[i] = s.median != 0 ? own[i] / fabs(s.median) : 0;
	}
	robust_z(x, k, z, &st->median, &st->mad);
	/* a difference within the metric's own run-to-run band is noise: the
	 * typical node's p5-p95 half-width, where it is wider than the default */
	sp = stats_median(spread, k);
	st->threshold = sp > f->th.practical ? sp : f->th.practical;
	if (st->better == BETTER_NONE)
		st->not_judged = xstrdup("a fact (no better direction): shown, not judged");
	else if (!g->by_peers)
		st->not_judged = xasprintf("%zu nodes in the group: peers judge from %u",
					   g->n_nodes, f->th.min_group);
	else if (k < f->th.min_group)
		st->not_judged =
			xasprintf("measured on %zu nodes: peers judge from %u", k, f->th.min_group);
	tcut = st->not_judged ? NAN : robust_t_cut(FLEET_ALPHA, f->n_tests, k);
	for (size_t i = 0; !st->not_judged && i < k; i++) {
		struct fleet_flag *fl;
		double rel, t;
		/* beyond the family-wise cut over every peer test of the fleet
		 * (§5.9) in the worse direction, and not within the node's own
		 * spread: that distance is its own noise */
		if (!robust_outlier(x[i], z[i], st->median, st->better, f->th.z, st->threshold) ||
		    robust_within_own(x[i], st->median, own[i]))
			continue;
		t = robust_loo_t(x, k, i);
		if (!(st->better == BETTER_HIGHER ? t < -tcut : t > tcut))
			continue;
		rel = st->median != 0 ? x[i] / st->median - 1 : INFINITY;
		fl = add_flag(&f->nodes[e[i].node], st->probe, st->metric, e[i].m);
		fl->value = x[i];
		fl->group_median = st->median;
		fl->robust_z = z[i];
		fl->threshold = st->threshold;
		fl->why = xasprintf("%.1f%% %s the group median (modified z %.1f; flagged beyond "
				    "|z| %.1f and %.1f%%; leave-one-out t %.1f beyond %.1f, "
				    "Bonferroni over %zu tests; its own samples +-%.1f%%)",
				    fabs(rel) * 100, rel < 0 ? "below" : "above", z[i], f->th.z,
				    st->threshold * 100, t, tcut, f->n_tests,
				    x[i] != 0 ? 100 * own[i] / fabs(x[i]) : 0.0);
		ref_flag_busy(fl, e[i].pr->noise); /* busy, not slow (§4.14) */
		st->n_flagged++;
	}
	free(x);
	free(z);
	free(spread);
	free(own);
}

static void collect(const struct fleet *f, size_t g, struct entry **ev, size_t *n)
{
	size_t cap = 0;
	for (size_t i = 0; i < f->n_nodes; i++) {
		const struct run *r = f->nodes[i].run;
		if (f->nodes[i].group != g || !r)
			continue;
		for (size_t p = 0; p < r->n_probes; p++) {
			const struct probe_result *pr = &r->probes[p];
			if (pr->status != STATUS_OK)
				continue;
			for (size_t k = 0; k < pr->n_metrics; k++) {
				if (pr->metrics[k].n_samples == 0)
					continue;
				if (*n == cap) {
					cap = cap ? 2 * cap : 256;
					*ev = xrealloc(*ev, cap * sizeof(**ev));
				}
				(*ev)[*n].id = join_metric_ident(pr, &pr->metrics[k]);
				(*ev)[*n].node = i;
				(*ev)[*n].pos = p << 20 | k; /* a run holds far fewer */
				(*ev)[*n].pr = pr;
				(*ev)[*n].m = &pr->metrics[k];
				(*n)++;
			}
		}
	}
}

/* The peer tests of group g: for each metric with a better direction that
 * at least min_group of its nodes measured, one test a node; none in a
 * group under min_group nodes. */
static size_t group_tests(const struct fleet *f, size_t g)
{
	struct entry *ev = NULL;
	size_t n = 0, nodes = 0, tests = 0;
	for (size_t i = 0; i < f->n_nodes; i++)
		nodes += f->nodes[i].group == g;
	if (nodes < f->th.min_group)
		return 0;
	collect(f, g, &ev, &n);
	qsort(ev, n, sizeof(*ev), entry_cmp);
	for (size_t i = 0; i < n;) {
		size_t k = i + 1;
		while (k < n && strcmp(ev[k].id, ev[i].id) == 0)
			k++;
		if (ev[i].m->better != BETTER_NONE && k - i >= f->th.min_group)
			tests += k - i;
		i = k;
	}
	for (size_t i = 0; i < n; i++)
		free(ev[i].id);
	free(ev);
	return tests;
}

static void judge_group(struct fleet *f, size_t g, const struct ref_set *refs)
{
	struct fleet_group *gr = &f->groups[g];
	struct entry *ev = NULL;
	struct pending *pv = NULL;
	size_t n = 0, np = 0;
	json_t *host = NULL;
	for (size_t i = 0; i < f->n_nodes; i++)
		if (f->nodes[i].group == g) {
			gr->n_nodes++;
			if (!host && f->nodes[i].run)
				host = f->nodes[i].run->host;
		}
	gr->by_peers = gr->n_nodes >= f->th.min_group;
	for (size_t k = 0; host && refs && k < refs->n; k++)
		if (ref_matches(&refs->kinds[k], host)) {
			GROW_ONE(gr->refs, gr->n_refs);
			gr->refs[gr->n_refs++] = xstrdup(refs->kinds[k].kind);
		}
	gr->judged = gr->by_peers
			     ? xasprintf("by peers (%zu nodes) and %s", gr->n_nodes,
					 gr->n_refs ? "reference values" : "no reference values")
			     : xasprintf("%s only: %zu node%s, peers judge from %u",
					 gr->n_refs ? "by reference values"
						    : "not judged (no reference "
						      "values for this kind)",
					 gr->n_nodes, gr->n_nodes == 1 ? "" : "s", f->th.min_group);
	collect(f, g, &ev, &n);
	qsort(ev, n, sizeof(*ev), entry_cmp);
	pv = xcalloc(n + 1, sizeof(*pv));
	for (size_t i = 0; i < n;) {
		size_t k = i + 1;
		struct fleet_stat *st = &pv[np].st;
		while (k < n && strcmp(ev[k].id, ev[i].id) == 0)
			k++;
		pv[np].node = ev[i].node;
		pv[np++].pos = ev[i].pos;
		st->probe = xstrdup(ev[i].pr->name);
		st->metric = xstrdup(ev[i].m->name);
		st->labels = fleet_labels_dup(ev[i].m->labels, ev[i].m->n_labels);
		st->n_labels = ev[i].m->n_labels;
		st->unit = ev[i].m->unit;
		st->better = ev[i].m->better;
		st->n = k - i;
		judge_metric(f, gr, ev + i, k - i, st);
		i = k;
	}
	qsort(pv, np, sizeof(*pv), pending_cmp);
	gr->stats = xcalloc(np + 1, sizeof(*gr->stats));
	for (size_t i = 0; i < np; i++)
		gr->stats[gr->n_stats++] = pv[i].st;
	for (size_t i = 0; i < n; i++)
		free(ev[i].id);
	free(ev);
	free(pv);
}

/* A failed reference check flags its metric: on the flag the peers gave it,
 * or on a new one. */
static void flag_check(struct fleet_node *n, const struct fleet_check *c)
{
	struct fleet_flag *fl = NULL;
	char *why;
	for (size_t i = 0; i < n->n_flags && !fl; i++)
		if (n->flags[i].metric && strcmp(n->flags[i].probe, c->probe) == 0 &&
		    strcmp(n->flags[i].metric, c->metric) == 0 &&
		    labels_equal(n->flags[i].labels, n->flags[i].n_labels, c->labels, c->n_labels))
			fl = &n->flags[i];
	if (fl && fl->ref)
		return; /* one reference per flag: the first kind's */
	if (!fl) {
		fl = add_flag(n, c->probe, c->metric, NULL);
		fl->labels = fleet_labels_dup(c->labels, c->n_labels);
		fl->n_labels = c->n_labels;
		fl->unit = c->unit;
		fl->better = c->better;
		fl->value = c->value;
	}
	fl->ref = xcalloc(1, sizeof(*fl->ref));
	*fl->ref = *c;
	fl->ref->kind = xstrdup(c->kind);
	fl->ref->path = xstrdup(c->path);
	fl->ref->means = xstrdup(c->means);
	fl->ref->probe = xstrdup(c->probe);
	fl->ref->metric = xstrdup(c->metric);
	fl->ref->labels = fleet_labels_dup(c->labels, c->n_labels);
	fl->ref->source = c->source ? xstrdup(c->source) : NULL;
	fl->ref->date = c->date ? xstrdup(c->date) : NULL;
	fl->ref->other = c->other ? xstrdup(c->other) : NULL;
	fl->ref->load = c->load ? xstrdup(c->load) : NULL;
	fl->ref->reason = c->reason ? xstrdup(c->reason) : NULL;
	fl->ref->tool = c->tool ? xstrdup(c->tool) : NULL;
	fl->ref->note = c->note ? xstrdup(c->note) : NULL;
	why = xasprintf(
		"%s%sFAIL against the %s reference %s: %.1f%% from %.4g %s (tolerance %.0f%%, "
		"FAIL beyond %.0f%%)%s%s",
		fl->why ? fl->why : "", fl->why ? "; " : "", c->kind, c->path,
		(c->value / c->reference - 1) * 100, c->reference, unit_name(c->unit),
		c->tolerance * 100, c->tolerance * 200, c->load ? "; " : "",
		c->load ? c->load : "");
	free(fl->why);
	fl->why = why;
}

/* What a node says of itself: no results, probes that failed, only skips;
 * and its reference checks. */
static void judge_node(struct fleet *f, struct fleet_node *n, const struct ref_set *refs)
{
	const struct run *r = n->run;
	size_t skipped = 0;
	if (!r) {
		struct fleet_flag *fl = add_flag(n, "mempath", NULL, NULL);
		fl->why = xasprintf("no results: %s", n->error ? n->error : "none sent");
		return;
	}
	for (size_t p = 0; p < r->n_probes; p++) {
		const struct probe_result *pr = &r->probes[p];
		struct fleet_flag *fl;
		skipped += pr->status == STATUS_SKIP;
		if (pr->status != STATUS_FAIL && pr->status != STATUS_TIMEOUT)
			continue;
		fl = add_flag(n, pr->name, NULL, NULL);
		fl->why = xasprintf("%s: %s", pr->status == STATUS_FAIL ? "failed" : "timed out",
				    pr->reason ? pr->reason : "no reason given");
	}
	if (r->n_probes == 0)
		fleet_node_note(n, "no probe ran");
	else if (skipped == r->n_probes)
		fleet_node_note(n, "every probe skipped (%s: %s)", r->probes[0].name,
				r->probes[0].reason ? r->probes[0].reason : "no reason given");
	for (size_t k = 0; refs && k < refs->n; k++) {
		size_t first = n->n_checks;
		if (!ref_matches(&refs->kinds[k], r->host))
			continue;
		ref_check_run(&refs->kinds[k], r, &n->checks, &n->n_checks);
		for (size_t i = first; i < n->n_checks; i++)
			if (n->checks[i].status == CHECK_FAIL)
				flag_check(n, &n->checks[i]);
	}
	(void)f;
}

void fleet_judge(struct fleet *f, const struct ref_set *refs)
{
	fleet_clear_verdicts(f);
	for (size_t i = 0; i < f->n_nodes; i++) {
		struct fleet_node *n = &f->nodes[i];
		char *key = n->run ? fleet_kind_key(n->run->host) : xstrdup("(no results)");
		n->group = group_of(f, key);
		free(key);
	}
	/* one family: every peer test of the fleet (§5.9) */
	f->n_tests = 0;
	for (size_t g = 0; g < f->n_groups; g++)
		f->n_tests += group_tests(f, g);
	/* Bonferroni: each test at alpha / n, so pure chance gives alpha flags
	 * in all, at most (the other conditions of a flag only take some away) */
	f->test_alpha = f->n_tests ? FLEET_ALPHA / (double)f->n_tests : FLEET_ALPHA;
	f->expected_false = f->n_tests ? FLEET_ALPHA : 0;
	for (size_t g = 0; g < f->n_groups; g++)
		judge_group(f, g, refs);
	for (size_t i = 0; i < f->n_nodes; i++) {
		judge_node(f, &f->nodes[i], refs);
		f->n_flagged += f->nodes[i].n_flags > 0;
		f->n_busy += fleet_node_busy(&f->nodes[i]);
	}
}
