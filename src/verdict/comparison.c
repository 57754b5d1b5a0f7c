/* comparison.c - the comparison model: names of verdicts, default options,
 * freeing, and the lines every writer prints from it (moved controls, the
 * summary). The rules that decide verdicts are in compare.c. */
#include "verdict/comparison.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/virt.h"
#include "results/windows.h"

static const char *const verdict_names[] = {
	"~",	"WIN",	   "LOSS",	"SAME", "UNSTABLE", "VOID", "too few samples",
	"fact", "missing", "no verdict"};
static const char *const verdict_ids[] = {"nowin", "win", "loss", "same",    "unstable",
					  "void",  "few", "fact", "missing", "refused"};

const char *verdict_name(enum verdict v)
{
	return v < VERDICT__COUNT ? verdict_names[v] : "?";
}

const char *verdict_id(enum verdict v)
{
	return v < VERDICT__COUNT ? verdict_ids[v] : "?";
}

static const char *const threshold_ids[] = {"min", "given", "gap", "round_noise"};

const char *threshold_from_id(enum threshold_from f)
{
	return f < THRESHOLD_FROM__COUNT ? threshold_ids[f] : "?";
}

int threshold_from_parse(const char *s, enum threshold_from *f)
{
	for (int k = 0; k < THRESHOLD_FROM__COUNT; k++)
		if (s && strcmp(s, threshold_ids[k]) == 0) {
			*f = (enum threshold_from)k;
			return 0;
		}
	return -1;
}

void compare_opts_default(struct compare_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->alpha = 0.05;
	o->bootstrap_iters = 2000;
	o->seed = 0x6d656d7061746821ull;
}

void comparison_free(struct comparison *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n_legs; i++)
		free(c->legs[i].name);
	for (size_t i = 0; i < c->n_rows; i++) {
		free(c->rows[i].key);
		free(c->rows[i].ident);
		free(c->rows[i].reason);
		free(c->rows[i].note);
		free(c->rows[i].mechanism);
		json_decref(c->rows[i].heterogeneity);
		for (size_t k = 0; k < c->rows[i].n_mech; k++)
			free(c->rows[i].mech[k].name);
		free(c->rows[i].mech);
	}
	free(c->rows);
	for (size_t i = 0; i < c->n_knob_diffs; i++)
		free(c->knob_diffs[i]);
	free(c->knob_diffs);
	for (size_t i = 0; i < c->n_notes; i++)
		free(c->notes[i]);
	free(c->notes);
	compare_owned_free(c->owned);
	for (size_t i = 0; i < c->n_kept; i++)
		metric_kept_free(c->kept[i]);
	free(c->kept);
	free(c);
}

void compare_owned_free(struct compare_owned *o)
{
	if (!o)
		return;
	for (size_t k = 0; k < COMPARE_MAX_LEGS; k++)
		run_free(o->legs[k]);
	for (size_t i = 0; i < o->n_probes; i++)
		probe_result_clear(&o->probes[i]);
	free(o->probes);
	for (size_t i = 0; i < o->n_strs; i++)
		free(o->strs[i]);
	free(o->strs);
	free(o->controls);
	free(o->expect_diff);
	if (o->tool)
		json_decref(o->tool);
	free(o);
}

int comparison_has_loss(const struct comparison *c)
{
	for (size_t i = 0; i < c->n_rows; i++)
		if (!c->rows[i].control && c->rows[i].verdict == VERDICT_LOSS)
			return 1;
	return 0;
}

/* A control measured under different load was not checked: it cannot vouch
 * for the others (§5.11). */
static size_t controls_unchecked(const struct comparison *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->n_rows; i++)
		n += c->rows[i].control && c->rows[i].noisy;
	return n;
}

int comparison_trusted(const struct comparison *c)
{
	return !c->summary.controls_moved && !c->refused && !controls_unchecked(c);
}

/* Rates and times are what a change is felt in; counts, sizes, shares and
 * the machine's own readings (clocks, power) move with them or not at all,
 * and would weigh a geomean by how many of them a probe reports. */
static int geomean_unit(enum unit u)
{
	switch (u) {
	case UNIT_GB_S:
	case UNIT_GIB_S:
	case UNIT_MACC_S:
	case UNIT_WORDS_US:
	case UNIT_TOKENS_S:
	case UNIT_GFLOP_S:
	case UNIT_NS:
	case UNIT_US:
	case UNIT_MS:
	case UNIT_S:
		return 1;
	default:
		return 0;
	}
}

static int is_wrap(const struct compare_row *row)
{
	return !row->control && row->probe && strcmp(row->probe, "work.wrap") == 0;
}

/* A work.wrap row that is the primary figure of its run (comparison.h):
 * own is whether any work.wrap row is one of the workload's own figures
 * with a direction. */
static int wrap_primary(const struct compare_row *row, int own)
{
	int workloads = !results_wrap_measured(row->metric) && row->better != BETTER_NONE;

	return own ? workloads : strcmp(row->metric, "wall_time") == 0;
}

/* Counts, and the geomean over the rate and time metrics with a verdict (WIN,
 * LOSS, ~, SAME), or the primary ones among them (--primary; of a wrap, its
 * primary figure); none when no verdict can be trusted (docs/design.md §5.11). */
void comparison_summarize(struct comparison *c)
{
	struct compare_summary *s = &c->summary;
	double log_sum = 0;
	int own = 0;
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *row = &c->rows[i];
		if (row->control) {
			s->controls++;
			s->controls_moved += row->moved;
			continue;
		}
		s->noisy += row->noisy;
		s->count[row->verdict]++;
	}
	s->geomean = NAN;
	if (!comparison_trusted(c))
		return;
	for (size_t i = 0; i < c->n_rows; i++)
		if (is_wrap(&c->rows[i])) {
			s->wrap_primary = 1;
			own |= !results_wrap_measured(c->rows[i].metric) &&
			       c->rows[i].better != BETTER_NONE;
		}
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *row = &c->rows[i];
		double ratio;
		if (!row->control && !c->opts.primary && row->probe_primary == PRIMARY_NO &&
		    geomean_unit(row->unit)) {
			s->probe_primary = 1; /* a rate or time its probe does not put first */
			continue;
		}
		if (row->control || (!c->opts.primary && is_wrap(row) && !wrap_primary(row, own)) ||
		    (row->verdict != VERDICT_WIN && row->verdict != VERDICT_LOSS &&
		     row->verdict != VERDICT_NOWIN && row->verdict != VERDICT_SAME) ||
		    (c->opts.primary ? !row->primary : !geomean_unit(row->unit)) ||
		    !(row->median_a > 0) || !(row->median_b > 0) || row->ci_wide)
			continue;
		/* a comparison of rounds: the change as judged, from the rounds */
		ratio = c->n_rounds && isfinite(row->change) ? 1 + row->change
							     : row->median_b / row->median_a;
		if (row->better == BETTER_LOWER)
			ratio = 1 / ratio;
		log_sum += log(ratio);
		s->n_geomean++;
	}
	s->geomean = s->n_geomean ? exp(log_sum / (double)s->n_geomean) : NAN;
}

const char *comparison_change_from(const struct comparison *c)
{
	return c->n_rounds ? "the geometric mean of the rounds' ratios of medians (B/A); "
			     "A and B: the geometric means of the rounds' medians, whose ratio it "
			     "is (facts: pooled medians)"
			   : "the ratio of the pooled medians of B and A";
}

void comparison_add_note(struct comparison *c, char *text)
{
	GROW_ONE(c->notes, c->n_notes);
	c->notes[c->n_notes++] = text;
}

static char *append(char *s, const char *fmt, const char *a, const char *b)
{
	char *t = xasprintf(fmt, s, a, b);
	free(s);
	return t;
}

char *comparison_incomplete_line(const struct comparison *c)
{
	char *s = NULL;
	for (size_t j = 0; j < c->n_legs; j++) {
		if (c->legs[j].run->complete)
			continue;
		if (!s)
			s = xstrdup("incomplete runs - verdicts rest on partial results:");
		s = append(s, "%s %s (%s),", c->legs[j].name, c->legs[j].file);
	}
	if (s)
		s[strlen(s) - 1] = '\0';
	return s;
}

char *comparison_noise_line(const struct comparison *c)
{
	char *s = NULL;
	size_t shown = 0;
	for (size_t i = 0; i < c->n_rows; i++) {
		if (!c->rows[i].noisy)
			continue;
		if (!s)
			s = xstrdup("legs measured under different load - no verdict:");
		if (shown++ < 3)
			s = append(s, "%s %s,", c->rows[i].key, "");
	}
	if (!s)
		return NULL;
	s[strlen(s) - 1] = '\0';
	if (shown > 3) {
		char more[48];
		snprintf(more, sizeof(more), " (and %zu more)", shown - 3);
		s = append(s, "%s%s%s", more, "");
	}
	return s;
}

char *comparison_emulated_line(const struct comparison *c)
{
	const char *name = NULL;
	size_t j;
	for (j = 0; j < c->n_legs; j++)
		if (c->legs[j].run && virt_is_emulated(c->legs[j].run->host, &name))
			break;
	if (j == c->n_legs)
		return NULL;
	return xasprintf("measured under an emulator (%s): timings are the emulator's, not memory "
			 "figures; counters and placement are the kernel's own",
			 name ? name : "?");
}

char *comparison_controls_line(const struct comparison *c)
{
	char *s = NULL;
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *row = &c->rows[i];
		if (!row->moved)
			continue;
		if (!s)
			s = xstrdup("controls moved - verdicts untrusted:");
		s = append(s, "%s %s (%s),", row->key,
			   row->verdict == VERDICT_FACT ? "differs" : verdict_name(row->verdict));
	}
	if (s)
		s[strlen(s) - 1] = '\0';
	return s;
}

/* The B variant's name: its first leg's ("patched", "B'"); of rounds, its
 * label or "B", not one round's leg ("B r1"). */
static const char *b_name(const struct comparison *c)
{
	for (size_t j = 0; j < c->n_legs; j++)
		if (c->legs[j].variant == 'B')
			return !c->n_rounds	       ? c->legs[j].name
			       : c->legs[j].run->label ? c->legs[j].run->label
						       : "B";
	return "B";
}

char *comparison_summary_line(const struct comparison *c)
{
	const struct compare_summary *s = &c->summary;
	const char *bname = "B";
	char *line, geo[160], why[160] = "";
	int trusted = comparison_trusted(c);
	static const struct {
		enum verdict v;
		const char *what;
	} extra[] = {{VERDICT_SAME, "SAME"},
		     {VERDICT_VOID, "VOID"},
		     {VERDICT_FEW, "too few samples or legs"},
		     {VERDICT_FACT, "fact(s)"},
		     {VERDICT_MISSING, "missing"},
		     {VERDICT_REFUSED, "no verdict (knobs differ)"}};
	bname = b_name(c);
	if (s->n_geomean)
		snprintf(geo, sizeof(geo),
			 "geomean %.3fx over the %zu %s metric%s with a verdict "
			 "(>1: %s better)",
			 s->geomean, s->n_geomean,
			 c->opts.primary || s->wrap_primary || s->probe_primary ? "primary"
										: "rate and time",
			 s->n_geomean == 1 ? "" : "s", bname);
	else
		snprintf(geo, sizeof(geo), "no geomean (%s)",
			 !trusted ? "no trusted verdict" : "no metric with a verdict");
	if (trusted) {
		/* a metric whose legs ran under different load is UNSTABLE on its
		 * own; the others' verdicts stand (§5.11) */
		char load[96] = "";
		if (s->noisy)
			snprintf(load, sizeof(load), " (%zu measured under different load)",
				 s->noisy);
		line = xasprintf("summary: %zu WIN, %zu LOSS, %zu NOWIN, %zu UNSTABLE%s; %s",
				 s->count[VERDICT_WIN], s->count[VERDICT_LOSS],
				 s->count[VERDICT_NOWIN], s->count[VERDICT_UNSTABLE], load, geo);
	} else {
		/* what makes the verdicts untrustworthy comes first (§5.11) */
		if (s->controls_moved)
			snprintf(why, sizeof(why), "%zu control%s moved", s->controls_moved,
				 s->controls_moved == 1 ? "" : "s");
		if (controls_unchecked(c))
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 "%s%zu control%s not checked: measured under different load",
				 *why ? "; " : "", controls_unchecked(c),
				 controls_unchecked(c) == 1 ? "" : "s");
		if (c->refused)
			snprintf(why + strlen(why), sizeof(why) - strlen(why), "%sknobs differ",
				 *why ? "; " : "");
		line = xasprintf("no trusted verdict (%s): %zu WIN and %zu LOSS not trusted, %zu "
				 "NOWIN, %zu UNSTABLE; %s",
				 why, s->count[VERDICT_WIN], s->count[VERDICT_LOSS],
				 s->count[VERDICT_NOWIN], s->count[VERDICT_UNSTABLE], geo);
	}
	for (size_t k = 0; k < ARRAY_SIZE(extra); k++)
		if (s->count[extra[k].v]) {
			char n[32];
			snprintf(n, sizeof(n), "%zu", s->count[extra[k].v]);
			line = append(line, "%s; %s %s", n, extra[k].what);
		}
	if (s->controls) {
		char n[64];
		snprintf(n, sizeof(n), "%zu, %zu moved", s->controls, s->controls_moved);
		line = append(line, "%s; controls: %s%s", n, "");
	}
	return line;
}

/* Time and rates read "faster"/"slower"; other figures "better"/"worse". */
static int is_speed(enum unit u)
{
	switch (u) {
	case UNIT_GB_S:
	case UNIT_GIB_S:
	case UNIT_NS:
	case UNIT_US:
	case UNIT_MS:
	case UNIT_S:
	case UNIT_MACC_S:
	case UNIT_WORDS_US:
	case UNIT_TOKENS_S:
		return 1;
	default:
		return 0;
	}
}

/* The figure the answer is about: --primary's rows, else a wrapped
 * workload's primary figure (its own figures with a direction, or
 * wall_time: comparison.h); 0 for every row where neither applies. */
static int answer_row(const struct comparison *c, const struct compare_row *row)
{
	int own = 0, wraps = 0;
	if (row->control)
		return 0;
	if (c->opts.primary)
		return row->primary;
	for (size_t i = 0; i < c->n_rows; i++)
		if (is_wrap(&c->rows[i])) {
			wraps = 1;
			own |= !results_wrap_measured(c->rows[i].metric) &&
			       c->rows[i].better != BETTER_NONE;
		}
	return wraps && is_wrap(row) && wrap_primary(row, own);
}

static char *headline(const struct comparison *c)
{
	const struct compare_row *best = NULL, *asked = NULL;
	double best_log = 0, r = 0, lo = NAN, hi = NAN;
	size_t others = 0, unchanged = 0, few_legs = 0;
	const char *bname = "B";
	char ci[64] = "", rest[96] = "";

	if (!comparison_trusted(c))
		return NULL; /* the summary line says why */
	bname = b_name(c);
	/* the primary figure heads the answer when it has a verdict: the wall
	 * time a wrapped command took, not its sys_time (§5.11) */
	for (size_t i = 0; !asked && i < c->n_rows; i++)
		if (answer_row(c, &c->rows[i]) && !c->rows[i].ci_wide &&
		    (c->rows[i].verdict == VERDICT_WIN || c->rows[i].verdict == VERDICT_LOSS ||
		     c->rows[i].verdict == VERDICT_NOWIN || c->rows[i].verdict == VERDICT_SAME))
			asked = &c->rows[i];
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *row = &c->rows[i];
		double ratio = 1 + row->change;

		if (row->control)
			continue;
		/* a CI too wide to say is no "unchanged" (§5.19) */
		unchanged += row->verdict == VERDICT_NOWIN && !row->ci_wide;
		if ((row->verdict != VERDICT_WIN && row->verdict != VERDICT_LOSS) || !(ratio > 0) ||
		    !isfinite(ratio))
			continue;
		others++;
		if (asked && !answer_row(c, row))
			continue;
		/* a speed (time, rate) before a count, then the largest change */
		if (!best || (is_speed(row->unit) && !is_speed(best->unit)) ||
		    (is_speed(row->unit) == is_speed(best->unit) && fabs(log(ratio)) > best_log)) {
			best = row;
			best_log = fabs(log(ratio));
		}
	}
	for (size_t i = 0; i < c->n_rows; i++)
		few_legs += !c->rows[i].control && c->rows[i].few_legs;
	if (!best && !unchanged && few_legs)
		return xasprintf("%s: no verdict: %zu metric%s with too few legs to judge (one "
				 "process a side cannot show what differs between processes); "
				 "run rounds (ab --rounds auto) or 4 or more legs a side",
				 bname, few_legs, few_legs == 1 ? "" : "s");
	if (!best && asked && others)
		return xasprintf(
			"%s: no change beyond noise at %s; %zu other metric%s changed, %zu "
			"unchanged",
			bname, asked->key, others, others == 1 ? "" : "s",
			unchanged - (asked->verdict == VERDICT_NOWIN));
	if (!best)
		return xasprintf("%s: no change beyond noise in the %zu metric%s with a verdict",
				 bname, unchanged, unchanged == 1 ? "" : "s");
	others--;
	/* oriented so that r > 1 reads as the word: "3.1x faster", "2.0x slower" */
	r = 1 + best->change;
	lo = 1 + best->ci_lo;
	hi = 1 + best->ci_hi;
	if (best->better == BETTER_LOWER) {
		double t = lo;

		r = 1 / r;
		lo = 1 / hi;
		hi = 1 / t;
	}
	if (isfinite(lo) && isfinite(hi) && lo > 0 && hi > 0)
		snprintf(ci, sizeof(ci), " [%.3g, %.3g]", r >= 1 ? lo : 1 / hi,
			 r >= 1 ? hi : 1 / lo);
	if (others)
		snprintf(rest, sizeof(rest), ", %zu other metric%s changed", others,
			 others == 1 ? "" : "s");
	snprintf(rest + strlen(rest), sizeof(rest) - strlen(rest), ", %zu unchanged", unchanged);
	return xasprintf("%s is %.3gx %s at %s%s%s", bname, r >= 1 ? r : 1 / r,
			 is_speed(best->unit) ? (r >= 1 ? "faster" : "slower")
					      : (r >= 1 ? "better" : "worse"),
			 best->key, ci, rest);
}

char *comparison_headline(const struct comparison *c)
{
	/* labels and metric names come from the files: their control
	 * characters as text, like every line printed */
	char *raw = headline(c), *safe = raw ? util_escape_controls(raw) : NULL;
	free(raw);
	return safe;
}
