/* threshold.c - the practical threshold and a CI too wide to say
 * (threshold.h; docs/design.md §5.18, §5.19). */
#include "verdict/threshold.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

static const char *const from_text[] = {"min", "--threshold", "same-variant gap", "round noise"};

double threshold_round_noise(const double *log_ratio, size_t n)
{
	double mean = 0, ss = 0;
	if (n < 2)
		return NAN;
	for (size_t i = 0; i < n; i++)
		mean += log_ratio[i] / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (log_ratio[i] - mean) * (log_ratio[i] - mean);
	return exp(sqrt(ss / (double)(n - 1))) - 1;
}

void threshold_set(const struct comparison *c, struct compare_row *row)
{
	row->threshold = THRESHOLD_MIN;
	row->threshold_from = THRESHOLD_FROM_MIN;
	if (c->opts.threshold > row->threshold) {
		row->threshold = c->opts.threshold;
		row->threshold_from = THRESHOLD_FROM_GIVEN;
	}
	if (!c->n_rounds && row->drift > row->threshold) {
		row->threshold = row->drift;
		row->threshold_from = THRESHOLD_FROM_GAP;
	}
}

int threshold_cleared(const struct comparison *c, const struct compare_row *row)
{
	return row->p_effect_adj < c->opts.alpha && !isnan(row->ci_lo) &&
	       (row->ci_lo > row->threshold || row->ci_hi < -row->threshold);
}

void threshold_text(const struct compare_row *row, char *buf, size_t len)
{
	if (!isfinite(row->threshold) || row->threshold_from >= THRESHOLD_FROM__COUNT)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f%% %s", 100.0 * row->threshold,
			 from_text[row->threshold_from]);
}

const char *threshold_ci_relation(const struct compare_row *row)
{
	return row->ci_lo >= -row->threshold && row->ci_hi <= row->threshold ? "is within"
									     : "reaches into";
}

const char *threshold_source(const struct compare_row *row)
{
	return row->threshold_from < THRESHOLD_FROM__COUNT ? from_text[row->threshold_from] : "?";
}

int threshold_ci_too_wide(struct compare_row *row)
{
	row->ci_wide =
		isfinite(row->ci_lo) && isfinite(row->ci_hi) &&
		(!(row->ci_lo > -1) || (1 + row->ci_hi) / (1 + row->ci_lo) > THRESHOLD_CI_TOO_WIDE);
	return row->ci_wide;
}

char *threshold_too_wide_reason(const struct comparison *c, const struct compare_row *row,
				double level)
{
	char span[48], over[48] = "";
	if (row->ci_lo > -1)
		snprintf(span, sizeof(span), "a factor of %.3g",
			 (1 + row->ci_hi) / (1 + row->ci_lo));
	else
		snprintf(span, sizeof(span), "down to a ratio of 0");
	if (c->n_rounds)
		snprintf(over, sizeof(over), " over %zu round%s", row->rounds,
			 row->rounds == 1 ? "" : "s");
	return xasprintf("too wide to say: the %.3g%% CI [%+.1f, %+.1f]%% spans %s (more than "
			 "%g)%s",
			 100.0 * level, 100.0 * row->ci_lo, 100.0 * row->ci_hi, span,
			 THRESHOLD_CI_TOO_WIDE, over);
}
