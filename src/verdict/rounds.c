/* rounds.c - the legs' load and comparisons of rounds (rounds.h;
 * docs/design.md §4.14, §5.10). */
#include "verdict/rounds.h"
#include "verdict/hetero.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/blocked.h"
#include "base/stats.h"
#include "base/util.h"
#include "machine/noise.h"
#include "verdict/legs.h"
#include "verdict/threshold.h"

static double busy_threshold(const struct comparison *c)
{
	return c->opts.busy_cpus > 0 ? c->opts.busy_cpus : NOISE_BUSY_CPUS;
}

/* ---- finding the rounds ---- */

/* The round an ab record names (1, 2, ...), or 0. */
static unsigned leg_round(const struct run *r)
{
	json_t *v = r->leg ? json_object_get(r->leg, "round") : NULL;
	return v && json_is_integer(v) && json_integer_value(v) > 0 &&
			       json_integer_value(v) <= COMPARE_MAX_LEGS
		       ? (unsigned)json_integer_value(v)
		       : 0;
}

static char leg_variant(const struct run *r)
{
	const char *v = r->leg ? json_string_value(json_object_get(r->leg, "variant")) : NULL;
	return v && (strcmp(v, "A") == 0 || strcmp(v, "B") == 0) ? *v : 0;
}

int rounds_setup(struct comparison *c)
{
	int recorded = 1, variants = 1;
	unsigned max = 0;
	for (size_t j = 0; j < c->n_legs; j++) {
		recorded &= leg_round(c->legs[j].run) > 0;
		variants &= leg_variant(c->legs[j].run) != 0;
	}
	if (!recorded && !c->opts.rounds)
		return 0;
	if (recorded) {
		for (size_t j = 0; j < c->n_legs; j++) {
			c->legs[j].round = leg_round(c->legs[j].run);
			if (!c->opts.legs && variants)
				c->legs[j].variant = leg_variant(c->legs[j].run);
			if (c->legs[j].round > max)
				max = c->legs[j].round;
		}
	} else {
		if (c->n_legs % 2)
			return error("--rounds pairs the files in order: %zu files are not pairs",
				     c->n_legs);
		for (size_t j = 0; j < c->n_legs; j++)
			c->legs[j].round = (unsigned)(j / 2 + 1);
		max = (unsigned)(c->n_legs / 2);
	}
	for (unsigned r = 1; r <= max; r++) {
		int a = 0, b = 0;
		for (size_t j = 0; j < c->n_legs; j++)
			if (c->legs[j].round == r) {
				a += c->legs[j].variant == 'A';
				b += c->legs[j].variant == 'B';
			}
		if (a != 1 || b != 1)
			return error("round %u has %d A and %d B leg(s): a round is one A leg and "
				     "one B leg",
				     r, a, b);
	}
	c->n_rounds = max;
	for (size_t j = 0; j < c->n_legs; j++) {
		const char *label = c->legs[j].run->label;
		free(c->legs[j].name);
		c->legs[j].name = label ? xasprintf("%s r%u", label, c->legs[j].round)
					: xasprintf("%c r%u", c->legs[j].variant, c->legs[j].round);
	}
	return 0;
}

/* ---- load ---- */

/* The most other processes on the GPUs during m's samples; NAN: not read. */
static double gpu_most(const struct metric *m)
{
	double most = NAN;
	for (size_t i = 0; m->gpu_others && i < m->n_samples; i++)
		if (isfinite(m->gpu_others[i]))
			most = isnan(most) ? m->gpu_others[i] : fmax(most, m->gpu_others[i]);
	return most;
}

/* The probe's threads waiting for a CPU over m's samples, on average; NAN:
 * not recorded. */
static double wait_mean(const struct metric *m)
{
	double sum = 0;
	size_t n = 0;
	for (size_t i = 0; m->wait && i < m->n_samples; i++)
		if (isfinite(m->wait[i])) {
			sum += m->wait[i];
			n++;
		}
	return n ? sum / (double)n : NAN;
}

void rounds_busy(const struct comparison *c, struct compare_row *row)
{
	for (size_t j = 0; j < c->n_legs; j++) {
		row->busy[j] = row->m[j] ? metric_busy_mean(row->m[j], NULL) : NAN;
		row->wait[j] = row->m[j] ? wait_mean(row->m[j]) : NAN;
		row->gpu_others[j] = row->m[j] ? gpu_most(row->m[j]) : NAN;
	}
}

/* The legs of most and least of a load figure v (other CPUs busy, the
 * probe waiting for a CPU) among the legs where it was recorded: whether
 * they differ by more than the threshold. */
static int spread(const struct comparison *c, const double *v, size_t *hi, size_t *lo)
{
	*hi = *lo = c->n_legs;
	for (size_t j = 0; j < c->n_legs; j++) {
		if (!isfinite(v[j]))
			continue;
		if (*hi == c->n_legs || v[j] > v[*hi])
			*hi = j;
		if (*lo == c->n_legs || v[j] < v[*lo])
			*lo = j;
	}
	return *hi < c->n_legs && v[*hi] - v[*lo] > busy_threshold(c);
}

/* "1.1 other CPUs busy during B r3, 0.1 during A r3" or "the probe waited
 * for a CPU 0.8 of the time during B, 0.4 during A" (hi the leg of more). */
static char *load_words(const struct comparison *c, const struct compare_row *row, int wait,
			size_t hi, size_t lo)
{
	return wait ? xasprintf("the probe waited for a CPU %.2f of the time during %s, %.2f "
				"during %s",
				row->wait[hi], c->legs[hi].name, row->wait[lo], c->legs[lo].name)
		    : xasprintf("%.1f other CPUs busy during %s, %.1f during %s", row->busy[hi],
				c->legs[hi].name, row->busy[lo], c->legs[lo].name);
}

/* --expect-diff gpu_others: a co-tenant on the GPUs is the change. */
static int gpu_expected(const struct comparison *c)
{
	for (size_t i = 0; i < c->opts.n_expect_diff; i++)
		if (strcmp(c->opts.expect_diff[i], COMPARE_GPU_OTHERS) == 0)
			return 1;
	return 0;
}

/* Leg a had other processes on the GPUs and leg b none (and they are not
 * the change)? */
static int gpu_apart(const struct comparison *c, const struct compare_row *row, size_t a, size_t b)
{
	return !gpu_expected(c) && row->gpu_others[a] > 0 && row->gpu_others[b] == 0;
}

/* The mean of a load figure v over the legs of one variant where it was
 * recorded, and how many legs of it that variant has (*n). */
static double variant_mean(const struct comparison *c, const double *v, char variant, size_t *n)
{
	double sum = 0;
	*n = 0;
	for (size_t j = 0; j < c->n_legs; j++)
		if (c->legs[j].variant == variant && isfinite(v[j])) {
			sum += v[j];
			(*n)++;
		}
	return *n ? sum / (double)*n : NAN;
}

/* Legs enough to judge: UNSTABLE only when the variants' legs ran under a
 * different load on average (a load aligned with the variant moves every
 * leg of one alike, and the rank test over the legs cannot tell it from
 * the change); a load that came and went on legs of both variants is
 * between-process noise the rank test already holds (§5.4). */
static char *variants_load_reason(const struct comparison *c, struct compare_row *row)
{
	for (int wait = 0; wait < 2; wait++) {
		const double *v = wait ? row->wait : row->busy;
		size_t na, nb;
		double a = variant_mean(c, v, 'A', &na), b = variant_mean(c, v, 'B', &nb);
		if (!na || !nb || !(fabs(b - a) > busy_threshold(c)))
			continue;
		row->noisy = 1;
		return wait ? xasprintf("the probe waited for a CPU %.2f of the time on average "
					"during B's %zu legs, %.2f during A's %zu (the variants' "
					"load may differ by %.2f)",
					b, nb, a, na, busy_threshold(c))
			    : xasprintf("%.1f other CPUs busy on average during B's %zu legs, "
					"%.1f during A's %zu (the variants' load may differ by "
					"%.2f)",
					b, nb, a, na, busy_threshold(c));
	}
	return NULL;
}

char *rounds_noise_reason(const struct comparison *c, struct compare_row *row)
{
	size_t hi = c->n_legs, lo = c->n_legs;
	for (size_t a = 0; a < c->n_legs; a++)
		for (size_t b = 0; b < c->n_legs; b++)
			if (gpu_apart(c, row, a, b)) {
				row->noisy = 1;
				return xasprintf("%.0f other process%s on the GPUs during %s, none "
						 "during %s",
						 row->gpu_others[a],
						 row->gpu_others[a] == 1 ? "" : "es",
						 c->legs[a].name, c->legs[b].name);
			}
	/* enough legs a side to judge (§5.4): the rank test over the legs
	 * already holds a load that came and went on some legs of either
	 * variant; only a load that differed between the variants explains */
	if (legs_enough(c, row))
		return variants_load_reason(c, row);
	/* the other CPUs busy first; under a load that keeps every CPU busy
	 * they no longer move, and the CPU a neighbour takes from the probe
	 * (its threads waiting) still does (§5.18) */
	for (int wait = 0; wait < 2; wait++) {
		char *words, *why;
		if (!spread(c, wait ? row->wait : row->busy, &hi, &lo))
			continue;
		row->noisy = 1;
		words = load_words(c, row, wait, hi, lo);
		why = xasprintf("%s (the legs' load may differ by %.2f)", words, busy_threshold(c));
		free(words);
		return why;
	}
	return NULL;
}

/* ---- rounds ---- */

/* The legs of round r (1-based): 0, or -1 when one lacks the metric. */
static int round_legs(const struct comparison *c, const struct compare_row *row, unsigned r,
		      size_t *ja, size_t *jb)
{
	*ja = *jb = c->n_legs;
	for (size_t j = 0; j < c->n_legs; j++)
		if (c->legs[j].round == r)
			*(c->legs[j].variant == 'A' ? ja : jb) = j;
	return *ja < c->n_legs && *jb < c->n_legs && row->m[*ja] && row->m[*jb] ? 0 : -1;
}

/* Did the load of round r's legs differ beyond the threshold? */
static int round_noisy(const struct comparison *c, const struct compare_row *row, size_t ja,
		       size_t jb)
{
	return (isfinite(row->busy[ja]) && isfinite(row->busy[jb]) &&
		fabs(row->busy[ja] - row->busy[jb]) > busy_threshold(c)) ||
	       (isfinite(row->wait[ja]) && isfinite(row->wait[jb]) &&
		fabs(row->wait[ja] - row->wait[jb]) > busy_threshold(c)) ||
	       gpu_apart(c, row, ja, jb) || gpu_apart(c, row, jb, ja);
}

/* A round whose legs' load differed is left out unless it reads as the
 * rounds whose legs' load did not differ: kept only when there are at least
 * ROUNDS_QUIET_TO_KEEP of those and its log ratio lies within their range
 * (no extrapolation: a load aligned with one variant moves every round
 * alike, and two rounds' interval covers nearly anything). A blip beside a
 * round that reads as the others do costs no round (§5.10). */
#define ROUNDS_QUIET_TO_KEEP 3
static int round_out(const struct comparison *c, const struct compare_row *row, unsigned r,
		     size_t ja, size_t jb)
{
	double lo = INFINITY, hi = -INFINITY, x;
	size_t n = 0;
	if (!round_noisy(c, row, ja, jb))
		return 0;
	if (!(row->median[ja] > 0) || !(row->median[jb] > 0))
		return 1;
	for (unsigned q = 1; q <= c->n_rounds; q++) {
		size_t qa, qb;
		double lr;
		if (q == r || round_legs(c, row, q, &qa, &qb) != 0 || round_noisy(c, row, qa, qb) ||
		    !(row->median[qa] > 0) || !(row->median[qb] > 0))
			continue;
		lr = log(row->median[qb] / row->median[qa]);
		lo = fmin(lo, lr);
		hi = fmax(hi, lr);
		n++;
	}
	x = log(row->median[jb] / row->median[ja]);
	return !(n >= ROUNDS_QUIET_TO_KEEP && x >= lo && x <= hi);
}

/* The medians of the rounds used, and the change from them: the geometric
 * means of each variant's medians (their ratio is the geometric mean of the
 * rounds' ratios, the change: what the table prints beside it, §5.19) and
 * the rounds' spread of their ratios (threshold.h); NAN where a median is
 * not > 0. */
static void round_medians(struct compare_row *row, const double *med_a, const double *med_b,
			  size_t n)
{
	double *la = xcalloc(n + 1, sizeof(*la)), *lb = xcalloc(n + 1, sizeof(*lb)), sa = 0, sb = 0;
	int ok = n > 0;
	for (size_t k = 0; k < n && ok; k++) {
		ok = med_a[k] > 0 && med_b[k] > 0;
		la[k] = log(med_a[k]);
		lb[k] = log(med_b[k]);
		sa += la[k];
		sb += lb[k];
	}
	if (ok) {
		row->median_a = exp(sa / (double)n);
		row->median_b = exp(sb / (double)n);
		for (size_t k = 0; k < n; k++)
			lb[k] -= la[k]; /* the rounds' log ratios */
		row->round_noise = threshold_round_noise(lb, n);
	}
	free(la);
	free(lb);
}

/* A round's load: the mean of its legs', either where one is unknown. */
static double load_of(double a, double b)
{
	return isfinite(a) && isfinite(b) ? (a + b) / 2 : isfinite(a) ? a : b;
}

void rounds_stats(const struct comparison *c, struct compare_row *row)
{
	struct stratum *s = xcalloc(c->n_rounds + 1, sizeof(*s));
	double *ratio = xcalloc(c->n_rounds + 1, sizeof(*ratio)), *a, *b, p, est, lo, hi;
	double *med_a = xcalloc(c->n_rounds + 1, sizeof(*med_a)),
	       *med_b = xcalloc(c->n_rounds + 1, sizeof(*med_b));
	struct hetero_round *het = xcalloc(c->n_rounds + 1, sizeof(*het));
	size_t n_ratio = 0, na = 0, nb = 0;
	int undefined = 0;
	row->rounds = row->rounds_out = 0;
	for (unsigned r = 1; r <= c->n_rounds; r++) {
		size_t ja, jb;
		if (round_legs(c, row, r, &ja, &jb) != 0)
			continue;
		if (round_out(c, row, r, ja, jb)) {
			row->rounds_out++;
			continue;
		}
		het[row->rounds] = (struct hetero_round){
			r,
			row->median[ja] > 0 && row->median[jb] > 0
				? log(row->median[jb] / row->median[ja])
				: NAN,
			hetero_log_median_var(row->m[ja]) + hetero_log_median_var(row->m[jb]),
			load_of(row->busy[ja], row->busy[jb])};
		med_a[row->rounds] = row->median[ja];
		med_b[row->rounds] = row->median[jb];
		s[row->rounds++] = (struct stratum){row->m[ja]->samples, row->m[jb]->samples,
						    row->m[ja]->n_samples, row->m[jb]->n_samples};
		na += row->m[ja]->n_samples;
		nb += row->m[jb]->n_samples;
		if (row->median[ja] > 0)
			ratio[n_ratio++] = row->median[jb] / row->median[ja];
		else
			undefined = 1;
	}
	/* pooled medians over the rounds used where the rounds' own cannot be
	 * averaged (a median of 0) */
	a = xcalloc(na + 1, sizeof(*a));
	b = xcalloc(nb + 1, sizeof(*b));
	row->n_a = row->n_b = 0;
	for (size_t k = 0; k < row->rounds; k++) {
		memcpy(a + row->n_a, s[k].a, s[k].na * sizeof(*a));
		memcpy(b + row->n_b, s[k].b, s[k].nb * sizeof(*b));
		row->n_a += s[k].na;
		row->n_b += s[k].nb;
	}
	row->median_a = row->n_a ? stats_median(a, row->n_a) : NAN;
	row->median_b = row->n_b ? stats_median(b, row->n_b) : NAN;
	round_medians(row, med_a, med_b, row->rounds);
	stats_van_elteren(s, row->rounds, &p);
	/* both must hold: B beyond A within the rounds (van Elteren, on the
	 * samples) and the change the same across them (the t test of the
	 * rounds' ratios: a leg's samples are not independent on a busy
	 * machine, the rounds are the unit; docs/design.md §5.10) */
	row->p_effect = row->rounds ? p : NAN;
	if (!undefined && n_ratio >= 2)
		row->p_effect = fmax(row->p_effect, stats_ratio_t_p(ratio, n_ratio));
	row->change = row->ci_lo = row->ci_hi = row->eq_lo = row->eq_hi = NAN;
	if (!undefined && c->opts.margin > 0 &&
	    stats_ratio_t_ci(ratio, n_ratio, 1 - 2 * c->opts.alpha, &est, &lo, &hi) == 0) {
		row->eq_lo = lo - 1;
		row->eq_hi = hi - 1;
	}
	if (!undefined &&
	    stats_ratio_t_ci(ratio, n_ratio, c->opts.ci_level > 0 ? c->opts.ci_level : 0.95, &est,
			     &lo, &hi) == 0) {
		row->change = est - 1;
		row->ci_lo = lo - 1;
		row->ci_hi = hi - 1;
	} else if (!undefined && n_ratio == 1) {
		row->change = est - 1;
	}
	row->drift = 0;
	row->p_drift = NAN;
	json_decref(row->heterogeneity);
	row->heterogeneity = hetero_json(het, row->rounds);
	free(het);
	free(s);
	free(med_a);
	free(med_b);
	free(ratio);
	free(a);
	free(b);
}

/* "2 of 6 rounds left out, their legs' load differed (round 3: 1.1 other
 * CPUs busy during B r3, 0.1 during A r3)", or NULL; a new string. */
static char *left_out(const struct comparison *c, const struct compare_row *row)
{
	size_t wa = 0, wb = 0;
	double worst = -1;
	unsigned wr = 0;
	int wait = 0;
	char *words, *s;
	for (unsigned r = 1; r <= c->n_rounds; r++) {
		size_t ja, jb;
		double d, db;
		int by_wait = 0;
		if (round_legs(c, row, r, &ja, &jb) != 0 || !round_out(c, row, r, ja, jb))
			continue;
		db = fabs(row->busy[ja] - row->busy[jb]);
		/* a GPU process seen on one side only outranks any CPU load; the
		 * CPUs busy outrank the probe's waiting */
		if (gpu_apart(c, row, ja, jb) || gpu_apart(c, row, jb, ja))
			d = INFINITY;
		else if (db > busy_threshold(c))
			d = db;
		else {
			d = fabs(row->wait[ja] - row->wait[jb]);
			by_wait = 1;
		}
		if (d > worst || !wr) {
			worst = d;
			wa = ja;
			wb = jb;
			wr = r;
			wait = by_wait;
		}
	}
	if (!wr)
		return NULL;
	if (gpu_apart(c, row, wa, wb) || gpu_apart(c, row, wb, wa)) {
		size_t with = gpu_apart(c, row, wa, wb) ? wa : wb, none = with == wa ? wb : wa;
		return xasprintf("%zu of %zu rounds left out, their legs' load differed (round %u: "
				 "%.0f other process%s on the GPUs during %s, none during %s)",
				 row->rounds_out, row->rounds + row->rounds_out, wr,
				 row->gpu_others[with], row->gpu_others[with] == 1 ? "" : "es",
				 c->legs[with].name, c->legs[none].name);
	}
	if ((wait ? row->wait[wa] < row->wait[wb] : row->busy[wa] < row->busy[wb])) {
		size_t t = wa;
		wa = wb;
		wb = t;
	}
	words = load_words(c, row, wait, wa, wb);
	s = xasprintf("%zu of %zu rounds left out, their legs' load differed (round %u: %s)",
		      row->rounds_out, row->rounds + row->rounds_out, wr, words);
	free(words);
	return s;
}

char *rounds_left_out(const struct comparison *c, const struct compare_row *row)
{
	return left_out(c, row);
}

char *rounds_too_few(const struct comparison *c, struct compare_row *row)
{
	char *out, *why;
	if (row->rounds >= COMPARE_MIN_ROUNDS)
		return NULL;
	out = left_out(c, row);
	row->noisy = row->rounds_out > 0;
	why = xasprintf("%zu round%s left to judge, %d needed%s%s", row->rounds,
			row->rounds == 1 ? "" : "s", COMPARE_MIN_ROUNDS, out ? ": " : "",
			out ? out : "");
	free(out);
	return why;
}

char *rounds_nowin_reason(const struct comparison *c, const struct compare_row *row)
{
	if (isnan(row->change))
		return xasprintf("no ratio: an A median is %g", row->median_a);
	if (!(row->p_effect_adj < c->opts.alpha))
		return xasprintf("not significant over %zu rounds (p=%.2g after Holm)", row->rounds,
				 row->p_effect_adj);
	if (isnan(row->ci_lo))
		return xstrdup("no confidence interval");
	return xasprintf("the CI [%+.1f, %+.1f]%% of the %zu rounds' ratios %s +-%.1f%% (%s)",
			 100.0 * row->ci_lo, 100.0 * row->ci_hi, row->rounds,
			 threshold_ci_relation(row), 100.0 * row->threshold, threshold_source(row));
}

void rounds_heterogeneity(struct comparison *c)
{
	for (size_t i = 0; c->n_rounds && i < c->n_rows; i++) {
		struct compare_row *row = &c->rows[i];
		char *w, *t;
		if ((row->verdict != VERDICT_WIN && row->verdict != VERDICT_LOSS) ||
		    !(w = hetero_words(row->heterogeneity)))
			continue;
		t = row->reason ? xasprintf("%s; %s", w, row->reason) : xstrdup(w);
		free(row->reason);
		free(w);
		row->reason = t;
	}
}
