/* study.c - the legs of N variants grouped, paired and compared (study.h;
 * docs/design.md §5.22). */
#include "verdict/study.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "verdict/compare.h"

/* The letter an ab record gives a leg (A, B, C, ...), or 0. */
static char record_letter(const struct run *r)
{
	const char *v = r->leg ? json_string_value(json_object_get(r->leg, "variant")) : NULL;
	return v && v[0] >= 'A' && v[0] < 'A' + STUDY_MAX_VARIANTS && !v[1] ? v[0] : 0;
}

/* The round an ab record gives a leg, or 0. */
static unsigned record_round(const struct run *r)
{
	json_t *v = r->leg ? json_object_get(r->leg, "round") : NULL;
	return json_is_integer(v) && json_integer_value(v) > 0 &&
			       json_integer_value(v) <= COMPARE_MAX_LEGS
		       ? (unsigned)json_integer_value(v)
		       : 0;
}

static const char *leg_label(const struct run *r, size_t j, char *buf, size_t len)
{
	if (r->label && *r->label)
		return r->label;
	snprintf(buf, len, "leg%zu", j + 1);
	return buf;
}

size_t study_group(const struct run *const *runs, size_t n, const char *baseline, char *of,
		   char **names)
{
	int letters = n > 0;
	size_t nv = 0;
	char buf[32];
	for (size_t j = 0; j < n; j++)
		letters &= record_letter(runs[j]) != 0;
	if (baseline) { /* named: first, whatever the letters say */
		int seen = 0;
		for (size_t j = 0; j < n; j++)
			seen |= strcmp(leg_label(runs[j], j, buf, sizeof(buf)), baseline) == 0;
		if (!seen)
			return error("--baseline '%s': no file has that label", baseline), 0;
		letters = 0;
		names[nv++] = xstrdup(baseline);
	}
	for (size_t j = 0; j < n; j++) {
		const char *name = leg_label(runs[j], j, buf, sizeof(buf));
		size_t i;
		if (letters) {
			i = (size_t)(record_letter(runs[j]) - 'A');
			for (; nv <= i; nv++)
				names[nv] = NULL;
			if (!names[i])
				names[i] = xstrdup(name);
		} else {
			for (i = 0; i < nv && strcmp(names[i], name) != 0; i++)
				;
			if (i == nv) {
				if (nv == STUDY_MAX_VARIANTS) {
					for (size_t k = 0; k < nv; k++)
						free(names[k]);
					return error("more than %d variants (labels)",
						     STUDY_MAX_VARIANTS),
					       0;
				}
				names[nv++] = xstrdup(name);
			}
		}
		of[j] = (char)('A' + i);
	}
	for (size_t i = 0; i < nv; i++)
		if (!names[i]) {
			for (size_t k = 0; k < nv; k++)
				free(names[k]);
			return error("no leg of variant %c (the legs' records skip it)",
				     (int)('A' + i)),
			       0;
		}
	if (nv < 2) {
		for (size_t k = 0; k < nv; k++)
			free(names[k]);
		return error("a study needs legs of two or more variants (by record or label)"), 0;
	}
	return nv;
}

/* The legs of variants a and b, ordered by round when the legs have rounds
 * (each round's a leg first), else as given. */
static int pair_legs(struct study *s, struct study_pair *p)
{
	size_t k = 0;
	p->runs = xcalloc(s->n_legs + 1, sizeof(*p->runs));
	p->files = xcalloc(s->n_legs + 1, sizeof(*p->files));
	p->legs = xcalloc(s->n_legs + 1, 1);
	for (unsigned r = s->n_rounds ? 1 : 0; r <= s->n_rounds; r++)
		for (int side = 0; side < (s->n_rounds ? 2 : 1); side++)
			for (size_t j = 0; j < s->n_legs; j++) {
				size_t v = (size_t)(s->of[j] - 'A');
				unsigned rj = s->n_rounds ? record_round(s->runs[j]) : 0;
				if (s->n_rounds && !rj) /* --rounds: the k-th leg of each */
					for (size_t i = 0; i <= j; i++)
						rj += s->of[i] == s->of[j];
				if ((v != p->a && v != p->b) || rj != r)
					continue;
				if (s->n_rounds && (v == p->b) != side)
					continue;
				p->runs[k] = s->runs[j];
				p->files[k] = s->files[j];
				p->legs[k++] = v == p->a ? 'A' : 'B';
			}
	if (k > COMPARE_MAX_LEGS)
		return error("%s against %s: %zu legs, at most %d", s->names[p->b], s->names[p->a],
			     k, COMPARE_MAX_LEGS);
	return (int)k;
}

/* The rounds the legs have: every leg's record names one, or --rounds
 * counts each variant's legs in order; 0 without. */
static unsigned find_rounds(const struct study *s)
{
	unsigned most = 0, count[STUDY_MAX_VARIANTS] = {0};
	int recorded = 1;
	for (size_t j = 0; j < s->n_legs; j++) {
		unsigned r = record_round(s->runs[j]);
		recorded &= r > 0;
		most = r > most ? r : most;
		count[s->of[j] - 'A']++;
	}
	if (recorded)
		return most;
	if (!s->opts.rounds)
		return 0;
	most = count[0];
	for (size_t i = 1; i < s->n_var; i++)
		most = count[i] < most ? count[i] : most;
	return most;
}

/* ---- the family (docs/design.md §5.22) ----
 *
 * A verdict at level L is WIN or LOSS when the effect's adjusted p is below L
 * and the CI at 1 - L clears the threshold: a test that rejects more the
 * larger L is. Holm's procedure with such tests: every comparison at
 * alpha / m; a metric with t comparisons decided has its others tested at
 * alpha / (m - t), step after step, while that decides more. No model of
 * the correlation between the comparisons (they share the baseline's legs)
 * is needed; the chance of any false WIN or LOSS in the family stays within
 * alpha. Rows not decided keep the alpha / m comparison (its SAME, ~, ...):
 * an equivalence claim spends no more than its share. */
static struct comparison *compare_at(const struct study *s, const struct study_pair *p,
				     double level)
{
	struct compare_opts o = s->opts;
	double ci0 = s->opts.ci_level > 0 ? s->opts.ci_level : 0.95;
	o.legs = p->legs;
	o.alpha = level;
	o.ci_level = 1 - (1 - ci0) * level / s->opts.alpha;
	return compare_runs(p->runs, p->files, strlen(p->legs), &o);
}

static int decided(const struct compare_row *r)
{
	return r && (r->verdict == VERDICT_WIN || r->verdict == VERDICT_LOSS);
}

/* Comparisons decided for the metric of row i of the first pair. */
static size_t rejected(const struct study *s, const char *ident)
{
	size_t n = 0;
	for (size_t k = 0; k < s->n_pairs; k++)
		n += decided(study_row(&s->pairs[k], ident, NULL));
	return n;
}

/* Every metric of any pair, by its ident, once. */
static size_t idents(const struct study *s, const char ***out)
{
	size_t n = 0;
	const char **v = NULL;
	for (size_t k = 0; k < s->n_pairs; k++)
		for (size_t i = 0; i < s->pairs[k].c->n_rows; i++) {
			const char *id = s->pairs[k].c->rows[i].ident;
			size_t j;
			for (j = 0; j < n && strcmp(v[j], id) != 0; j++)
				;
			if (j < n)
				continue;
			GROW_ONE(v, n);
			v[n++] = id;
		}
	*out = v;
	return n;
}

static int study_family(struct study *s)
{
	double alpha = s->opts.alpha > 0 ? s->opts.alpha : 0.05;
	size_t m = s->m, n_id;
	const char **ids = NULL;
	/* the comparisons at alpha / (m - t), t = 0 .. m - 1, made when needed */
	struct comparison **at = xcalloc(m * m + 1, sizeof(*at));
	s->opts.alpha = alpha;
	for (size_t k = 0; k < s->n_pairs; k++) {
		struct study_pair *p = &s->pairs[k];
		if (!(p->c = compare_at(s, p, alpha / (double)m)))
			goto fail;
		p->alpha = xcalloc(p->c->n_rows + 1, sizeof(*p->alpha));
		for (size_t i = 0; i < p->c->n_rows; i++)
			p->alpha[i] = alpha / (double)m;
	}
	n_id = idents(s, &ids);
	for (size_t t = 1; t < m; t++) {
		double level = alpha / (double)(m - t);
		for (size_t i = 0; i < n_id; i++) {
			if (rejected(s, ids[i]) < t)
				continue;
			for (size_t k = 0; k < s->n_pairs; k++) {
				struct study_pair *p = &s->pairs[k];
				size_t ri, li;
				const struct compare_row *r = study_row(p, ids[i], &ri), *l;
				struct compare_row tmp;
				if (!r || decided(r) || p->c->refused)
					continue;
				if (!at[t * m + k] && !(at[t * m + k] = compare_at(s, p, level)))
					goto fail;
				l = study_row(&(struct study_pair){.c = at[t * m + k]}, ids[i],
					      &li);
				if (!decided(l))
					continue;
				/* the row judged at this level takes the place of the
				 * row at alpha / m (both stay owned by their comparisons) */
				tmp = p->c->rows[ri];
				p->c->rows[ri] = at[t * m + k]->rows[li];
				at[t * m + k]->rows[li] = tmp;
				p->alpha[ri] = level;
			}
		}
	}
	for (size_t k = 0; k < s->n_pairs; k++)
		comparison_summarize(s->pairs[k].c);
	free(ids);
	/* the comparisons whose rows moved are kept: rows point into their
	 * legs' kept metrics */
	for (size_t j = 0; j < m * m; j++)
		if (at[j]) {
			GROW_ONE(s->held, s->n_held);
			s->held[s->n_held++] = at[j];
		}
	free(at);
	return 0;
fail:
	for (size_t j = 0; j < m * m; j++)
		comparison_free(at[j]);
	free(at);
	free(ids);
	return -1;
}

/* Recorded rounds are whole: one leg of every variant in each (a plan that
 * lost a leg runs it again before the comparison). 0, or -1 after an error
 * line naming the first round that is not. */
static int check_rounds(const struct study *s)
{
	int recorded = 1;
	for (size_t j = 0; j < s->n_legs; j++)
		recorded &= record_round(s->runs[j]) > 0;
	for (unsigned r = 1; recorded && r <= s->n_rounds; r++)
		for (size_t v = 0; v < s->n_var; v++) {
			size_t n = 0;
			for (size_t j = 0; j < s->n_legs; j++)
				n += record_round(s->runs[j]) == r && (size_t)(s->of[j] - 'A') == v;
			if (n != 1)
				return error(
					"round %u has %zu leg(s) of %s: a study's round is one leg "
					"of every variant (run the missing leg: rounds are the "
					"legs' records)",
					r, n, s->names[v]);
		}
	return 0;
}

struct study *study_runs(const struct run *const *runs, const char *const *files, size_t n,
			 const char *of, char *const *names, size_t n_var,
			 const struct compare_opts *o, int all_pairs)
{
	struct study *s = xcalloc(1, sizeof(*s));
	s->opts = *o;
	s->opts.legs = NULL;
	s->n_var = n_var;
	s->n_legs = n;
	s->runs = runs;
	s->files = files;
	s->of = xstrdup(of);
	s->all_pairs = all_pairs;
	s->procedure = "Holm";
	for (size_t i = 0; i < n_var; i++)
		s->names[i] = xstrdup(names[i]);
	s->n_rounds = find_rounds(s);
	s->opts.rounds = s->n_rounds > 0;
	if (check_rounds(s) != 0) {
		study_free(s);
		return NULL;
	}
	s->pairs = xcalloc(n_var * n_var, sizeof(*s->pairs));
	for (size_t b = 1; b < n_var; b++)
		s->pairs[s->n_pairs++] = (struct study_pair){.a = 0, .b = b};
	for (size_t a = 1; all_pairs && a < n_var; a++)
		for (size_t b = a + 1; b < n_var; b++)
			s->pairs[s->n_pairs++] = (struct study_pair){.a = a, .b = b};
	s->m = s->n_pairs;
	for (size_t k = 0; k < s->n_pairs; k++) {
		int nl = pair_legs(s, &s->pairs[k]);
		if (nl < 0) {
			study_free(s);
			return NULL;
		}
		if (!memchr(s->pairs[k].legs, 'A', (size_t)nl) ||
		    !memchr(s->pairs[k].legs, 'B', (size_t)nl)) {
			error("no legs of %s or of %s to compare", s->names[s->pairs[k].a],
			      s->names[s->pairs[k].b]);
			study_free(s);
			return NULL;
		}
	}
	if (study_family(s) != 0) {
		study_free(s);
		return NULL;
	}
	return s;
}

void study_free(struct study *s)
{
	if (!s)
		return;
	for (size_t k = 0; k < s->n_pairs; k++) {
		comparison_free(s->pairs[k].c);
		free(s->pairs[k].alpha);
		free(s->pairs[k].runs);
		free(s->pairs[k].files);
		free(s->pairs[k].legs);
	}
	free(s->pairs);
	for (size_t i = 0; i < s->n_held; i++)
		comparison_free(s->held[i]);
	free(s->held);
	for (size_t i = 0; i < s->n_var; i++)
		free(s->names[i]);
	for (size_t i = 0; i < s->n_notes; i++)
		free(s->notes[i]);
	free(s->notes);
	free(s->of);
	free(s);
}

const struct compare_row *study_row(const struct study_pair *p, const char *ident, size_t *k)
{
	for (size_t i = 0; p->c && i < p->c->n_rows; i++)
		if (strcmp(p->c->rows[i].ident, ident) == 0) {
			if (k)
				*k = i;
			return &p->c->rows[i];
		}
	return NULL;
}

size_t study_metrics(const struct study *s, const struct compare_row ***rows)
{
	const struct comparison *c = s->pairs[0].c;
	size_t n = 0;
	*rows = xcalloc(c->n_rows + 1, sizeof(**rows));
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *r = &c->rows[i];
		if (r->control || r->verdict == VERDICT_FACT || (c->opts.primary && !r->primary))
			continue;
		(*rows)[n++] = r;
	}
	return n;
}

size_t study_undecided(const struct study *s, size_t *matter, unsigned *out)
{
	size_t left = 0;
	*matter = 0;
	*out = 0;
	for (size_t k = 0; k < s->n_pairs; k++) {
		const struct comparison *c = s->pairs[k].c;
		if (c->refused)
			continue;
		for (size_t i = 0; i < c->n_rows; i++) {
			const struct compare_row *row = &c->rows[i];
			if (row->control || (c->opts.primary && !row->primary) ||
			    row->verdict == VERDICT_FACT || row->verdict == VERDICT_MISSING ||
			    row->verdict == VERDICT_VOID || row->verdict == VERDICT_FEW ||
			    (row->verdict == VERDICT_NOWIN && !(row->median_a > 0)))
				continue;
			++*matter;
			left += row->verdict == VERDICT_NOWIN || row->verdict == VERDICT_UNSTABLE;
			if (row->rounds_out > *out)
				*out = (unsigned)row->rounds_out;
		}
	}
	return left;
}

int study_refused(const struct study *s)
{
	for (size_t k = 0; k < s->n_pairs; k++)
		if (s->pairs[k].c->refused)
			return 1;
	return 0;
}

int study_trusted(const struct study *s)
{
	for (size_t k = 0; k < s->n_pairs; k++)
		if (!comparison_trusted(s->pairs[k].c))
			return 0;
	return 1;
}

int study_has_loss(const struct study *s)
{
	for (size_t k = 0; k < s->n_pairs; k++)
		if (comparison_has_loss(s->pairs[k].c))
			return 1;
	return 0;
}

void study_add_note(struct study *s, char *text)
{
	GROW_ONE(s->notes, s->n_notes);
	s->notes[s->n_notes++] = text;
}
