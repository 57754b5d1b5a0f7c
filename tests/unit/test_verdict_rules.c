/* test_verdict_rules.c - docs/design.md §5.12's table of the verdict
 * pipeline's rules against the rules the code applies (compare_rule_name):
 * the same rules, in the same order, the statistics between the same two;
 * and each compared row records the rule that settled it. The runner starts
 * unit tests in the repository's root (tests/run.sh), where the design is. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/results_json.h"
#include "verdict/compare.h"

#define MAX_RULES 32

struct doc_rules {
	char name[MAX_RULES][64];
	size_t n;
	size_t stats_at; /* how many rules come before the statistics row */
	int stats_seen;
};

/* s with the blanks at both ends cut (in place) */
static char *trim(char *s)
{
	char *e = s + strlen(s);

	while (*s == ' ')
		s++;
	while (e > s && e[-1] == ' ')
		*--e = '\0';
	return s;
}

/* The rows of the first table after the line "5.12 ": each "| N | rule |",
 * in order, and where the unnumbered "(statistics" row sits. */
static void read_design(struct doc_rules *d)
{
	FILE *f = fopen("docs/design.md", "r");
	char line[1024];
	int in_section = 0, in_table = 0;

	if (!f)
		fail_msg("docs/design.md: cannot be read from the repository's root");
	memset(d, 0, sizeof(*d));
	while (fgets(line, sizeof(line), f)) {
		char *cell[4], *p = line;
		size_t n = 0;

		if (!in_section) {
			in_section = strncmp(line, "5.12 ", 5) == 0;
			continue;
		}
		line[strcspn(line, "\n")] = '\0';
		p = trim(line);
		if (p[0] != '|') {
			if (in_table)
				break; /* the table ended */
			if (strncmp(line, "5.13 ", 5) == 0)
				break;
			continue;
		}
		in_table = 1;
		for (char *c = strtok(p, "|"); c && n < 4; c = strtok(NULL, "|"))
			cell[n++] = trim(c);
		if (n < 2 || strcmp(cell[0], "order") == 0 || strncmp(cell[0], "---", 3) == 0)
			continue;
		if (!*cell[0]) { /* "|   | (statistics, then Holm, §5.7) | | |" */
			if (strncmp(cell[1], "(statistics", 11) == 0) {
				d->stats_at = d->n;
				d->stats_seen++;
			}
			continue;
		}
		assert_int_equal(atoi(cell[0]), (int)d->n + 1); /* numbered 1, 2, ... */
		assert_true(d->n < MAX_RULES);
		snprintf(d->name[d->n++], sizeof(d->name[0]), "%s", cell[1]);
	}
	fclose(f);
	if (!in_table)
		fail_msg("docs/design.md: no table after the line '5.12 '");
}

static void test_design_table(void **state)
{
	struct doc_rules d;
	const char *name;
	size_t k;
	int after, was_after = 0;

	(void)state;
	read_design(&d);
	assert_true(d.n >= 2);
	assert_int_equal(d.stats_seen, 1);
	for (k = 0; (name = compare_rule_name(k, &after)); k++) {
		if (k >= d.n)
			fail_msg("rule %zu '%s' of the code is not in design §5.12's table", k + 1,
				 name);
		if (strcmp(d.name[k], name) != 0)
			fail_msg("rule %zu: design §5.12 says '%s', the code applies '%s'", k + 1,
				 d.name[k], name);
		if (after && !was_after && k != d.stats_at)
			fail_msg("the statistics come before rule %zu in the code, before rule %zu "
				 "in design §5.12",
				 k + 1, d.stats_at + 1);
		assert_true(after >= was_after); /* one split, once */
		was_after = after;
	}
	if (k != d.n)
		fail_msg("design §5.12 lists %zu rules, the code applies %zu", d.n, k);
}

/* Every row of a comparison of the fixtures says which rule settled it, a
 * rule that gives its verdict (design §5.12's "settles as"): on A/B/A'
 * (drift, facts, too few legs for a verdict) and on four legs a side with
 * the drifted leg last (drift, facts, effects). */
static void test_row_rule(void **state)
{
	static const char *const sets[2][8] = {
		{"tests/data/cmp-aa-1.json", "tests/data/cmp-effect-b.json",
		 "tests/data/cmp-drift-a2.json"},
		{"tests/data/cmp-aa-1.json", "tests/data/cmp-effect-b.json",
		 "tests/data/cmp-aa-3.json", "tests/data/cmp-effect-b2.json",
		 "tests/data/cmp-aa-4.json", "tests/data/cmp-effect-b3.json",
		 "tests/data/cmp-drift-a2.json", "tests/data/cmp-effect-b4.json"}};
	static const size_t n_files[2] = {3, 8};
	int seen_effect = 0, seen_legs = 0;

	(void)state;
	for (int set = 0; set < 2; set++) {
		const struct run *runs[8];
		struct compare_opts o;
		struct comparison *c;
		for (size_t i = 0; i < n_files[set]; i++) {
			runs[i] = run_read_file(sets[set][i]);
			assert_non_null(runs[i]);
		}
		compare_opts_default(&o);
		c = compare_runs(runs, (const char *const *)sets[set], n_files[set], &o);
		assert_non_null(c);
		assert_true(c->n_rows > 0);
		for (size_t i = 0; i < c->n_rows; i++) {
			const struct compare_row *r = &c->rows[i];
			const char *want = NULL;

			if (!r->rule)
				fail_msg("%s: no rule recorded", r->key);
			switch (r->verdict) {
			case VERDICT_FACT:
				want = "fact";
				break;
			case VERDICT_MISSING:
				want = "missing";
				break;
			case VERDICT_FEW:
				want = r->few_legs ? "legs" : "too few";
				seen_legs |= r->few_legs;
				break;
			case VERDICT_WIN:
			case VERDICT_LOSS:
			case VERDICT_NOWIN:
			case VERDICT_SAME:
				want = "effect";
				seen_effect = 1;
				break;
			case VERDICT_UNSTABLE:
				want = strcmp(r->rule, "load") == 0 ? "load" : "drift";
				break;
			default:
				break;
			}
			if (want && strcmp(want, r->rule) != 0)
				fail_msg("%s: verdict %d settled by '%s', not '%s'", r->key,
					 (int)r->verdict, r->rule, want);
		}
		comparison_free(c);
		for (size_t i = 0; i < n_files[set]; i++)
			run_free((struct run *)runs[i]);
	}
	assert_true(seen_effect);
	assert_true(seen_legs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_design_table),
					   cmocka_unit_test(test_row_rule)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
