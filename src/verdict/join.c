/* join.c - the legs of a comparison: names, knobs, probe notes, and the join
 * of their metrics on (probe, identity, metric, labels). The verdict rules
 * are in compare.c. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "results/windows.h"
#include "verdict/join.h"
#include "verdict/rounds.h"

/* ---- patterns ---- */

int compare_pattern_check(const char *pattern, const char *what)
{
	const char *comma = strchr(pattern, ',');
	if (!*pattern || comma == pattern)
		return error("empty %s pattern", what);
	for (const char *p = comma; p && *p; p = strchr(p + 1, ',')) {
		size_t len = strcspn(p + 1, ",");
		const char *eq = memchr(p + 1, '=', len);
		if (!eq || eq == p + 1)
			return error("bad %s pattern '%s' (GLOB[,KEY=GLOB...])", what, pattern);
	}
	return 0;
}

static const char *find_value(const struct label *l, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(l[i].key, key) == 0)
			return l[i].value;
	return NULL;
}

int compare_pattern_match(const char *pattern, const char *probe, const char *metric,
			  const struct label *labels, size_t n_labels, const struct label *params,
			  size_t n_params)
{
	char *dup = xstrdup(pattern), *save = NULL, *tok, *pm;
	int ok;
	tok = strtok_r(dup, ",", &save);
	pm = xasprintf("%s:%s", probe, metric);
	ok = tok && (fnmatch(tok, probe, 0) == 0 || fnmatch(tok, pm, 0) == 0);
	free(pm);
	while (ok && (tok = strtok_r(NULL, ",", &save))) {
		char *eq = strchr(tok, '=');
		const char *v;
		if (!eq)
			break;
		*eq = '\0';
		v = find_value(labels, n_labels, tok);
		if (!v)
			v = find_value(params, n_params, tok);
		ok = v && fnmatch(eq + 1, v, 0) == 0;
	}
	free(dup);
	return ok;
}

/* ---- identity ---- */

static int cmp_label_ptr(const void *a, const void *b)
{
	return strcmp((*(const struct label *const *)a)->key,
		      (*(const struct label *const *)b)->key);
}

/* "k=v,k=v" sorted by key: which = 0 all of them, 1 only the probe's
 * identity (its options as given, as the file records them), 2 only what it
 * found. Caller frees. */
static char *labels_canon(const struct label *l, size_t n, const struct probe_result *p, int which)
{
	const struct label **v = xcalloc(n + 1, sizeof(*v));
	size_t k = 0, len = 1;
	char *s;
	for (size_t i = 0; i < n; i++)
		if (which == 0 || (which == 1) == probe_result_is_identity(p, l[i].key))
			v[k++] = &l[i];
	qsort(v, k, sizeof(*v), cmp_label_ptr);
	for (size_t i = 0; i < k; i++)
		len += strlen(v[i]->key) + strlen(v[i]->value) + 2;
	s = xcalloc(len, 1);
	for (size_t i = 0; i < k; i++) {
		if (i)
			strcat(s, ",");
		strcat(s, v[i]->key);
		strcat(s, "=");
		strcat(s, v[i]->value);
	}
	free(v);
	return s;
}

static char *probe_ident(const struct probe_result *pr)
{
	char *opts = labels_canon(pr->params, pr->n_params, pr, 1);
	char *s = xasprintf("%s\x1f%s", pr->name, opts);
	free(opts);
	return s;
}

char *join_metric_ident(const struct probe_result *pr, const struct metric *m)
{
	char *pid = probe_ident(pr), *labels = labels_canon(m->labels, m->n_labels, NULL, 0);
	char *s = xasprintf("%s\x1f%s\x1f%s", pid, m->name, labels);
	free(pid);
	free(labels);
	return s;
}

/* The probe result in run r with the same identity as pr, or NULL. */
static const struct probe_result *find_probe(const struct run *r, const char *pid)
{
	for (size_t i = 0; i < r->n_probes; i++) {
		char *id = probe_ident(&r->probes[i]);
		int same = strcmp(id, pid) == 0;
		free(id);
		if (same)
			return &r->probes[i];
	}
	return NULL;
}

/* ---- legs, notes ---- */

static void add_str(char ***v, size_t *n, char *s)
{
	GROW_ONE(*v, *n);
	(*v)[(*n)++] = s;
}

/* Two legs that are one run (one file twice, a link, a copy) are one
 * measurement: judged, they would read as an A/A of two runs. */
static int distinct_legs(const struct run *const *runs, const char *const *files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			if (files && files[i] && files[j] && same_file(files[i], files[j]))
				return error("'%s' and '%s' are the same file: compare needs "
					     "different runs",
					     files[i], files[j]);
			if (run_same(runs[i], runs[j]))
				return error("'%s' and '%s' hold the same run (started %s on %s, "
					     "every sample equal): a copy is not a second "
					     "measurement",
					     files ? files[i] : "?", files ? files[j] : "?",
					     runs[i]->start_time,
					     json_string_value(
						     json_object_get(runs[i]->host, "hostname")));
		}
	return 0;
}

static char *knob_str(json_t *v);

/* Legs measured on different machines: said, since a difference may be the
 * machine's and not the change's. */
static void machine_note(struct comparison *c)
{
	static const char *const what[][2] = {
		{"hostname", NULL}, {"cpu", "model"}, {"cpu", "logical_cpus"}};
	for (size_t w = 0; w < ARRAY_SIZE(what); w++) {
		char *line = NULL;
		int differ = 0;
		json_t *v0 = NULL;
		for (size_t i = 0; i < c->n_legs; i++) {
			json_t *v = json_object_get(c->legs[i].run->host, what[w][0]);
			char *sv, *t;
			if (what[w][1])
				v = json_object_get(v, what[w][1]);
			if (i == 0)
				v0 = v;
			differ |= !json_equal(v, v0) && (v || v0);
			sv = knob_str(v);
			t = xasprintf("%s%s%s in %s", line ? line : "", line ? ", " : "", sv,
				      c->legs[i].name);
			free(sv);
			free(line);
			line = t;
		}
		if (differ) {
			char *t = xasprintf("legs from different machines: %s%s%s differs (%s): a "
					    "difference may be the machine's, not the change's",
					    what[w][0], what[w][1] ? " " : "",
					    what[w][1] ? what[w][1] : "", line);
			add_str(&c->notes, &c->n_notes, t);
		}
		free(line);
	}
}

static int setup_legs(struct comparison *c, const struct run *const *runs, const char *const *files,
		      size_t n)
{
	const char *pat = c->opts.legs;
	int has_a = 0, has_b = 0;
	if (n < 2)
		return error("compare needs at least two results files");
	if (n > COMPARE_MAX_LEGS)
		return error("too many legs (%zu; at most %d)", n, COMPARE_MAX_LEGS);
	if (distinct_legs(runs, files, n) != 0)
		return -1;
	if (pat && strlen(pat) != n)
		return error("legs pattern '%s' has %zu letters for %zu results files", pat,
			     strlen(pat), n);
	for (size_t i = 0; i < n; i++) {
		char v = pat ? pat[i] : (i % 2 ? 'B' : 'A');
		if (v == 'a' || v == 'b')
			v = (char)(v - 'a' + 'A');
		if (v != 'A' && v != 'B')
			return error("bad legs pattern '%s' (letters A and B only)", pat);
		has_a |= v == 'A';
		has_b |= v == 'B';
		c->legs[i].run = runs[i];
		c->legs[i].file = files[i];
		c->legs[i].variant = v;
	}
	if (!has_a || !has_b)
		return error("legs pattern '%s' needs both an A and a B leg", pat);
	c->n_legs = n;
	/* Names: the run's label, "<label> again" for its second leg, "<label>
	 * (3)" after; without labels A, A', A'' (and B, B', ...). */
	for (size_t i = 0; i < n; i++) {
		const char *label = runs[i]->label;
		size_t seen = 0;
		for (size_t j = 0; j < i; j++) {
			const char *lj = runs[j]->label;
			if (label ? (lj && strcmp(lj, label) == 0)
				  : (!lj && c->legs[j].variant == c->legs[i].variant))
				seen++;
		}
		if (label)
			c->legs[i].name = seen == 0   ? xstrdup(label)
					  : seen == 1 ? xasprintf("%s again", label)
						      : xasprintf("%s (%zu)", label, seen + 1);
		else
			c->legs[i].name = xasprintf("%c%.*s", c->legs[i].variant, (int)seen,
						    "''''''''''''''''");
	}
	return 0;
}

static int is_expected(const struct comparison *c, const char *knob)
{
	for (size_t i = 0; i < c->opts.n_expect_diff; i++)
		if (strcmp(c->opts.expect_diff[i], knob) == 0)
			return 1;
	return 0;
}

static char *knob_str(json_t *v)
{
	if (!v)
		return xstrdup("absent");
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	return json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) ?: xstrdup("?");
}

/* Knobs are read at the start and the end of every leg. Any knob that is not
 * the same everywhere is a second change (docs/design.md §5.8), unless --expect-diff names
 * it; an expected knob must still read the same within each variant (the
 * restore worked, nothing flipped during a leg). */
static void check_knobs(struct comparison *c)
{
	json_t *keys = json_object();
	const char *k;
	json_t *dummy;
	for (size_t i = 0; i < c->n_legs; i++) {
		json_t *ends[2] = {c->legs[i].run->knobs_start, c->legs[i].run->knobs_end};
		for (int e = 0; e < 2; e++) {
			const char *kk;
			json_t *vv;
			if (ends[e] && json_is_object(ends[e]))
				json_object_foreach (ends[e], kk, vv) {
					json_object_set_new(keys, kk, json_true());
				}
		}
	}
	json_object_foreach (keys, k, dummy) {
		json_t *v[COMPARE_MAX_LEGS][2];
		int differ = 0, expected = is_expected(c, k);
		for (size_t i = 0; i < c->n_legs; i++) {
			json_t *s = c->legs[i].run->knobs_start, *e = c->legs[i].run->knobs_end;
			v[i][0] = s ? json_object_get(s, k) : NULL;
			v[i][1] = e ? json_object_get(e, k) : NULL;
		}
		for (size_t i = 0; i < c->n_legs && !differ; i++)
			for (size_t j = 0; j < c->n_legs && !differ; j++)
				for (int a = 0; a < 2 && !differ; a++)
					for (int b = 0; b < 2 && !differ; b++) {
						json_t *x = v[i][a], *y = v[j][b];
						int same =
							(!x && !y) || (x && y && json_equal(x, y));
						if (expected &&
						    c->legs[i].variant != c->legs[j].variant)
							continue;
						differ = !same;
					}
		if (differ) {
			char *line = xasprintf("%s%s:", k, expected ? " (within a variant)" : "");
			for (size_t i = 0; i < c->n_legs; i++) {
				char *s0 = knob_str(v[i][0]), *s1 = knob_str(v[i][1]), *t;
				int same = (!v[i][0] && !v[i][1]) ||
					   (v[i][0] && v[i][1] && json_equal(v[i][0], v[i][1]));
				t = same ? xasprintf("%s %s=%s", line, c->legs[i].name, s0)
					 : xasprintf("%s %s=%s->%s", line, c->legs[i].name, s0, s1);
				free(line);
				line = t;
				if (i + 1 < c->n_legs) {
					t = xasprintf("%s,", line);
					free(line);
					line = t;
				}
				free(s0);
				free(s1);
			}
			add_str(&c->knob_diffs, &c->n_knob_diffs, line);
		}
	}
	json_decref(keys);
	c->refused = c->n_knob_diffs > 0 && !c->opts.allow_diff;
}

/* Did r run a probe of this name (perhaps with other identity options)? */
static int ran_named(const struct run *r, const char *name)
{
	for (size_t i = 0; i < r->n_probes; i++)
		if (strcmp(r->probes[i].name, name) == 0)
			return 1;
	return 0;
}

/* Probe-level notes: statuses other than ok, and found (non-option)
 * parameters that differ between legs. */
static void probe_notes(struct comparison *c)
{
	for (size_t i = 0; i < c->n_legs; i++) {
		const struct run *r = c->legs[i].run;
		for (size_t p = 0; p < r->n_probes; p++) {
			const struct probe_result *pr = &r->probes[p];
			const struct probe_result *in[COMPARE_MAX_LEGS];
			char *pid = probe_ident(pr), *line = NULL;
			int first = 1, status_differs = 0, found_differs = 0;
			char *found0 = NULL;
			for (size_t j = 0; j < c->n_legs; j++) {
				in[j] = find_probe(c->legs[j].run, pid);
				if (j < i && in[j])
					first = 0; /* noted when its first leg was seen */
			}
			if (first) {
				found0 = labels_canon(pr->params, pr->n_params, pr, 2);
				for (size_t j = 0; j < c->n_legs; j++) {
					char *fj;
					if (!in[j] || in[j]->status != pr->status)
						status_differs = 1;
					if (!in[j])
						continue;
					fj = labels_canon(in[j]->params, in[j]->n_params, in[j], 2);
					found_differs |= strcmp(fj, found0) != 0;
					free(fj);
				}
			}
			if (first && (status_differs || pr->status != STATUS_OK)) {
				line = xasprintf("%s:", pr->name);
				for (size_t j = 0; j < c->n_legs; j++) {
					char *t = xasprintf(
						"%s%s %s in %s%s%s%s", line, j ? "," : "",
						in[j] ? status_name(in[j]->status)
						: ran_named(c->legs[j].run, pr->name)
							? "run with other options"
							: "not run",
						c->legs[j].name, in[j] && in[j]->reason ? " (" : "",
						in[j] && in[j]->reason ? in[j]->reason : "",
						in[j] && in[j]->reason ? ")" : "");
					free(line);
					line = t;
				}
				add_str(&c->notes, &c->n_notes, line);
			}
			if (first && found_differs) {
				line = xasprintf(
					"%s: found parameters differ (check they do not matter):",
					pr->name);
				for (size_t j = 0; j < c->n_legs; j++) {
					char *fj = in[j] ? labels_canon(in[j]->params,
									in[j]->n_params, in[j], 2)
							 : xstrdup("-");
					char *t = xasprintf("%s%s %s: %s", line, j ? ";" : "",
							    c->legs[j].name, fj);
					free(fj);
					free(line);
					line = t;
				}
				add_str(&c->notes, &c->n_notes, line);
			}
			free(found0);
			free(pid);
		}
	}
}

/* ---- join ---- */

static struct compare_row *find_row(struct comparison *c, const char *ident)
{
	for (size_t i = 0; i < c->n_rows; i++)
		if (strcmp(c->rows[i].ident, ident) == 0)
			return &c->rows[i];
	return NULL;
}

/* m without the samples a receipt voided, owned by c; the row counts them. */
static const struct metric *kept_of(struct comparison *c, struct compare_row *row, size_t leg,
				    const struct metric *m)
{
	struct metric *k = metric_kept(m);
	c->kept = xrealloc(c->kept, (c->n_kept + 1) * sizeof(*c->kept));
	c->kept[c->n_kept++] = k;
	row->dropped[leg] = m->n_samples - k->n_samples;
	return k;
}

/* "cpu.latency load_latency size=16M: 1 of 10 samples dropped in A (...)" */
static void dropped_notes(struct comparison *c)
{
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *row = &c->rows[i];
		char *line = NULL;
		for (size_t j = 0; j < c->n_legs; j++) {
			char *t;
			if (!row->dropped[j])
				continue;
			t = xasprintf("%s%s%zu of %zu samples dropped in %s",
				      line ? line : row->key, line ? ", " : ": ", row->dropped[j],
				      row->dropped[j] + row->m[j]->n_samples, c->legs[j].name);
			free(line);
			line = t;
		}
		if (line) {
			add_str(&c->notes, &c->n_notes,
				xasprintf("%s (a receipt voided their windows: a CPU migration, "
					  "§4.18)",
					  line));
			free(line);
		}
	}
}

static void join_metrics(struct comparison *c)
{
	for (size_t i = 0; i < c->n_legs; i++) {
		const struct run *r = c->legs[i].run;
		for (size_t p = 0; p < r->n_probes; p++)
			for (size_t k = 0; k < r->probes[p].n_metrics; k++) {
				const struct probe_result *pr = &r->probes[p];
				const struct metric *m = &pr->metrics[k];
				char *id = join_metric_ident(pr, m);
				struct compare_row *row = find_row(c, id);
				if (row && row->m[i]) { /* a duplicate in one run: first wins */
					free(id);
					continue;
				}
				if (!row) {
					if (c->n_rows == c->cap_rows) {
						c->cap_rows = c->cap_rows ? 2 * c->cap_rows : 32;
						c->rows = xrealloc(c->rows,
								   c->cap_rows * sizeof(*c->rows));
					}
					row = &c->rows[c->n_rows++];
					memset(row, 0, sizeof(*row));
					row->ident = id;
					row->probe = pr->name;
					row->metric = m->name;
					row->labels = m->labels;
					row->n_labels = m->n_labels;
					row->params = pr->params;
					row->n_params = pr->n_params;
					row->unit = m->unit;
					row->better = m->better;
				} else {
					free(id);
				}
				if (row->probe_primary == PRIMARY_UNSAID)
					row->probe_primary = m->primary;
				if (metric_void_count(m)) /* a receipt voided samples (§4.18) */
					m = kept_of(c, row, i, m);
				row->m[i] = m;
				row->pr[i] = pr;
			}
	}
	for (size_t i = 0; i < c->n_rows; i++) {
		struct compare_row *row = &c->rows[i];
		char labels[512], *pid = NULL;
		int ambiguous = 0;
		for (size_t j = 0; j < c->n_legs; j++)
			if (row->m[j] && !pid)
				pid = probe_ident(row->pr[j]);
		for (size_t j = 0; j < c->n_legs; j++)
			if (!row->pr[j])
				row->pr[j] = find_probe(c->legs[j].run, pid);
		free(pid);
		/* Display key; parameters only where two rows would read the same. */
		for (size_t j = 0; j < c->n_rows; j++)
			ambiguous |= j != i && strcmp(c->rows[j].probe, row->probe) == 0 &&
				     strcmp(c->rows[j].metric, row->metric) == 0 &&
				     strcmp(strrchr(c->rows[j].ident, '\x1f'),
					    strrchr(row->ident, '\x1f')) == 0;
		{
			struct metric tmp = {.labels = (struct label *)row->labels,
					     .n_labels = row->n_labels};
			metric_labels_str(&tmp, labels, sizeof(labels));
		}
		if (ambiguous) {
			const struct probe_result *pr0 = NULL;
			char *opts;
			for (size_t j = 0; j < c->n_legs && !pr0; j++)
				pr0 = row->m[j] ? row->pr[j] : NULL;
			opts = labels_canon(row->params, row->n_params, pr0, 1);
			row->key =
				xasprintf("%s %s %s [%s]", row->probe, row->metric, labels, opts);
			free(opts);
		} else {
			row->key = xasprintf("%s %s%s%s", row->probe, row->metric,
					     *labels ? " " : "", labels);
		}
	}
}

int compare_join(struct comparison *c, const struct run *const *runs, const char *const *files,
		 size_t n)
{
	int repeated = 0;
	if (setup_legs(c, runs, files, n) != 0 || rounds_setup(c) != 0)
		return -1;
	check_knobs(c);
	machine_note(c);
	probe_notes(c);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			repeated |= c->legs[i].variant == c->legs[j].variant;
	if (!repeated)
		add_str(&c->notes, &c->n_notes,
			xstrdup("no repeated leg of either variant: baseline drift not checked "
				"(measure A/B/A to check it)"));
	join_metrics(c);
	dropped_notes(c);
	return 0;
}

int compare_check_names(const struct comparison *c, const struct compare_opts *o)
{
	for (size_t k = 0; k < o->n_controls + (o->primary ? 1 : 0); k++) {
		const char *pat = k < o->n_controls ? o->controls[k] : o->primary;
		size_t hits = 0;
		for (size_t i = 0; i < c->n_rows; i++)
			hits += compare_pattern_match(pat, c->rows[i].probe, c->rows[i].metric,
						      c->rows[i].labels, c->rows[i].n_labels,
						      c->rows[i].params, c->rows[i].n_params);
		if (!hits)
			return error("%s '%s' matches no metric of these files",
				     k < o->n_controls ? "--control" : "--primary", pat);
	}
	for (size_t k = 0; k < o->n_expect_diff; k++) {
		int known = strcmp(o->expect_diff[k], COMPARE_GPU_OTHERS) == 0; /* not a knob */
		for (size_t j = 0; j < c->n_legs && !known; j++)
			known = json_object_get(c->legs[j].run->knobs_start, o->expect_diff[k]) ||
				json_object_get(c->legs[j].run->knobs_end, o->expect_diff[k]);
		if (!known)
			return error("--expect-diff '%s' is not a knob of these files (see their "
				     "\"knobs\")",
				     o->expect_diff[k]);
	}
	return 0;
}
