/* ab_study.c - the variants of an ab beyond A and B (--variant, --factor),
 * the comparison of a study's legs, and the ab command line that
 * reproduces them (cmd/ab.h; docs/design.md §5.22). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "cmd/ab_study.h"
#include "cmd/study.h"
#include "flow/ab_auto.h"
#include "report/study.h"
#include "results/results_json.h"
#include "verdict/study.h"

/* s for sh: as it is when it is plain, else in single quotes. */
static void shell_word(char **line, const char *s)
{
	/* plain words as they are, others in single quotes ('\'' for a quote) */
	int plain = *s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789_-.,/=:+@%") == strlen(s);
	char *q = xstrdup(plain ? "" : "'"), *n;

	for (const char *c = s; *c; c++, free(q), q = n)
		n = *c == '\'' ? xasprintf("%s'\\''", q) : xasprintf("%s%c", q, *c);
	n = xasprintf("%s %s%s", *line, q, plain ? "" : "'");
	free(q);
	free(*line);
	*line = n;
}

static void shell_opt(char **line, const char *name, const char *value)
{
	if (!value)
		return;
	shell_word(line, name);
	shell_word(line, value);
}

/* The ab command line that reproduces these legs (the seed of a random
 * order included), for the legs' record and `findings`. */
char *ab_command_line(const struct ab_opts *o, const struct cmd_line *l)
{
	char *line = xstrdup("mempath ab"), num[32];
	if (o->auto_rounds) {
		snprintf(num, sizeof(num), "%u", o->max_rounds);
		shell_opt(&line, "--rounds", "auto");
		shell_opt(&line, "--max-rounds", num);
		snprintf(num, sizeof(num), "%g", 100 * o->margin);
		shell_opt(&line, "--margin", num);
		snprintf(num, sizeof(num), "%g", o->budget_s);
		shell_opt(&line, "--budget", o->budget_s > 0 ? num : NULL);
	}
	if (o->rounds) {
		snprintf(num, sizeof(num), "%u", o->rounds);
		shell_opt(&line, "--rounds", o->auto_rounds ? NULL : num);
		shell_opt(&line, "--order", o->order);
		if (!strcmp(o->order, "random")) {
			snprintf(num, sizeof(num), "%u", o->seed);
			shell_opt(&line, "--seed", num);
		}
	} else
		shell_opt(&line, "--legs", o->legs);
	shell_opt(&line, "--title", o->title);
	shell_opt(&line, "--a", o->a);
	shell_opt(&line, "--b", o->b);
	shell_opt(&line, "--restore", o->restore);
	for (size_t i = 0; i < o->a_env.n; i++)
		shell_opt(&line, "--a-env", o->a_env.v[i]);
	for (size_t i = 0; i < o->b_env.n; i++)
		shell_opt(&line, "--b-env", o->b_env.v[i]);
	shell_opt(&line, "--a-args", o->a_args);
	shell_opt(&line, "--b-args", o->b_args);
	for (size_t i = 0; i < o->variants.n; i++)
		shell_opt(&line, "--variant", o->variants.v[i]);
	for (size_t i = 0; i < o->variant_env.n; i++)
		shell_opt(&line, "--variant-env", o->variant_env.v[i]);
	for (size_t i = 0; i < o->variant_args.n; i++)
		shell_opt(&line, "--variant-args", o->variant_args.v[i]);
	for (size_t i = 0; i < o->factors.n; i++)
		shell_opt(&line, "--factor", o->factors.v[i]);
	for (size_t i = 0; i < o->levels.n; i++)
		shell_opt(&line, "--level", o->levels.v[i]);
	for (size_t i = 0; i < o->level_env.n; i++)
		shell_opt(&line, "--level-env", o->level_env.v[i]);
	for (size_t i = 0; i < o->level_args.n; i++)
		shell_opt(&line, "--level-args", o->level_args.v[i]);
	if (o->all_pairs)
		shell_word(&line, "--all-pairs");
	for (size_t i = 0; i < o->v.expect.n; i++)
		shell_opt(&line, "--expect-diff", o->v.expect.v[i]);
	for (size_t i = 0; i < o->v.controls.n; i++)
		shell_opt(&line, "--control", o->v.controls.v[i]);
	shell_opt(&line, "--primary", o->v.primary);
	shell_opt(&line, "-o", o->dir);
	shell_word(&line, "--");
	for (int i = 0; i < l->argc; i++)
		shell_word(&line, l->argv[i]);
	return line;
}

/* ---- variants ---- */

/* "NAME:REST" of opt: the name's length, or 0 after an error line. */
static size_t name_len(const char *opt, const char *v)
{
	const char *colon = strchr(v, ':');
	if (!colon || colon == v)
		return error("bad %s '%s' (NAME:...)", opt, v), 0;
	return (size_t)(colon - v);
}

static struct ab_variant *find_variant(struct ab_variant *vars, size_t n, const char *name,
				       size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(vars[i].label) == len && strncmp(vars[i].label, name, len) == 0)
			return &vars[i];
	return NULL;
}

/* --factor F=L1,L2 x ... with --level F=L:CMD: the product, f[0] slowest;
 * each variant named "F=L,G=M", its setup its levels' commands in order
 * (joined by &&). */
static int factor_variants(const struct ab_opts *o, struct ab_variant *vars, size_t *n)
{
	char *lev[8][STUDY_MAX_VARIANTS], *name[8];
	size_t nl[8] = {0}, nf = o->factors.n, total = 1;
	int rc = -1;
	if (nf > 4)
		return error("at most 4 --factor"), -1;
	for (size_t f = 0; f < nf; f++) {
		const char *v = o->factors.v[f], *eq = strchr(v, '=');
		char *copy, *save = NULL;
		name[f] = NULL;
		if (!eq || eq == v || !eq[1]) {
			error("bad --factor '%s' (NAME=LEVEL,LEVEL,...)", v);
			nf = f;
			goto out;
		}
		name[f] = xasprintf("%.*s", (int)(eq - v), v);
		copy = xstrdup(eq + 1);
		for (char *t = strtok_r(copy, ",", &save); t && nl[f] < STUDY_MAX_VARIANTS;
		     t = strtok_r(NULL, ",", &save))
			lev[f][nl[f]++] = xstrdup(t);
		free(copy);
		total *= nl[f];
		if (nl[f] < 2) {
			error("--factor '%s' needs two or more levels", v);
			nf = f + 1;
			goto out;
		}
	}
	if (total > STUDY_MAX_VARIANTS) {
		error("%zu variants from the factors: at most %d", total, STUDY_MAX_VARIANTS);
		goto out;
	}
	for (size_t c = 0; c < total; c++) {
		char *nm = xstrdup(""), *setup = NULL, *t;
		size_t rest = c, idx[8];
		for (size_t f = nf; f-- > 0;) {
			idx[f] = rest % nl[f];
			rest /= nl[f];
		}
		for (size_t f = 0; f < nf; f++) {
			t = xasprintf("%s%s%s=%s", nm, f ? "," : "", name[f], lev[f][idx[f]]);
			free(nm);
			nm = t;
			for (size_t k = 0; k < o->levels.n; k++) {
				const char *lv = o->levels.v[k], *colon = strchr(lv, ':');
				char *want = xasprintf("%s=%s", name[f], lev[f][idx[f]]);
				if (colon && strlen(want) == (size_t)(colon - lv) &&
				    strncmp(lv, want, strlen(want)) == 0) {
					t = setup ? xasprintf("%s && %s", setup, colon + 1)
						  : xstrdup(colon + 1);
					free(setup);
					setup = t;
				}
				free(want);
			}
		}
		vars[(*n)++] = (struct ab_variant){.label = nm, .setup = setup};
	}
	rc = 0;
out:
	for (size_t f = 0; f < nf; f++) {
		free(name[f]);
		for (size_t k = 0; k < nl[f]; k++)
			free(lev[f][k]);
	}
	return rc;
}

/* Whether a variant named "F=L,G=M" has the level of lv's first len
 * characters ("G=M"). */
static int has_level(const char *label, const char *lv, size_t len)
{
	char *want = xasprintf(",%s,", label), *lvl = xasprintf(",%.*s,", (int)len, lv);
	int seen = strstr(want, lvl) != NULL;
	free(want);
	free(lvl);
	return seen;
}

/* Every --level names a factor's level: a typo would run no setup. */
static int check_levels(const struct ab_opts *o, const struct ab_variant *vars, size_t n)
{
	for (size_t k = 0; k < o->levels.n; k++) {
		const char *lv = o->levels.v[k], *colon = strchr(lv, ':');
		int seen = 0;
		for (size_t i = 0; colon && i < n; i++)
			seen |= has_level(vars[i].label, lv, (size_t)(colon - lv));
		if (!seen)
			return error("--level '%s' names no factor's level (F=L:CMD)", lv);
	}
	return 0;
}

/* --level-env F=L:K=V and --level-args F=L:WORDS: into every variant with
 * that level, the words after those of the --level-args before it (in the
 * order given); a level no variant has is an error, as --level's. */
static int level_env_args(const struct ab_opts *o, struct ab_variant *vars, size_t n)
{
	for (size_t i = 0; i < o->level_env.n + o->level_args.n; i++) {
		int env = i < o->level_env.n;
		const char *v = env ? o->level_env.v[i] : o->level_args.v[i - o->level_env.n];
		const char *opt = env ? "--level-env" : "--level-args";
		size_t len = name_len(opt, v), hits = 0;
		if (!len)
			return -1;
		for (size_t k = 0; k < n; k++) {
			if (!has_level(vars[k].label, v, len))
				continue;
			hits++;
			if (env && ab_variant_env(&vars[k], v + len + 1) != 0)
				return -1;
			if (!env) {
				char *t = vars[k].args
						  ? xasprintf("%s %s", vars[k].args, v + len + 1)
						  : xstrdup(v + len + 1);
				free((char *)vars[k].args);
				vars[k].args = t;
			}
		}
		if (!hits)
			return error("%s '%s' names no factor's level (F=L:...)", opt, v);
	}
	return 0;
}

int ab_variants_build(const struct ab_opts *o, struct ab_variant **out, size_t *n)
{
	struct ab_variant *vars = xcalloc(STUDY_MAX_VARIANTS, sizeof(*vars));
	*n = 0;
	*out = vars;
	if (o->variants.n && o->factors.n)
		return error("--variant and --factor: give the variants one way");
	if (!o->factors.n && (o->levels.n || o->level_env.n || o->level_args.n || !o->variants.n)) {
		if (o->levels.n)
			return error("--level is for --factor");
		if (o->level_env.n || o->level_args.n)
			return error("--level-env and --level-args are for --factor");
		return 0;
	}
	if (o->a || o->b || o->a_env.n || o->b_env.n || o->a_args || o->b_args)
		return error("--variant or --factor name every variant: no --a, --b, "
			     "--a-env, --b-env, --a-args or --b-args with them");
	if (o->factors.n) {
		if (factor_variants(o, vars, n) != 0 || check_levels(o, vars, *n) != 0 ||
		    level_env_args(o, vars, *n) != 0)
			return -1;
	} else {
		if (o->variants.n > STUDY_MAX_VARIANTS)
			return error("at most %d --variant", STUDY_MAX_VARIANTS);
		for (size_t i = 0; i < o->variants.n; i++) {
			const char *v = o->variants.v[i], *colon = strchr(v, ':');
			size_t len = colon ? (size_t)(colon - v) : strlen(v);
			if (!len)
				return error("bad --variant '%s' (NAME or NAME:CMD)", v);
			if (find_variant(vars, *n, v, len))
				return error("--variant '%.*s' given twice", (int)len, v);
			vars[(*n)++] = (struct ab_variant){
				.label = xasprintf("%.*s", (int)len, v),
				.setup = colon && colon[1] ? xstrdup(colon + 1) : NULL};
		}
	}
	if (*n < 2)
		return error("a study needs two or more variants (--variant given %zu)", *n);
	for (size_t i = 0; i < o->variant_env.n + o->variant_args.n; i++) {
		int env = i < o->variant_env.n;
		const char *v = env ? o->variant_env.v[i] : o->variant_args.v[i - o->variant_env.n];
		const char *opt = env ? "--variant-env" : "--variant-args";
		size_t len = name_len(opt, v);
		struct ab_variant *x = len ? find_variant(vars, *n, v, len) : NULL;
		if (!len)
			return -1;
		if (!x)
			return error("%s '%s': no variant '%.*s'", opt, v, (int)len, v);
		if (env && ab_variant_env(x, v + len + 1) != 0)
			return -1;
		if (!env) {
			free((char *)x->args);
			x->args = xstrdup(v + len + 1);
		}
	}
	/* one variant's words given: the others' are none, so their {} goes */
	for (size_t i = 0; (o->variant_args.n || o->level_args.n) && i < *n; i++)
		if (!vars[i].args)
			vars[i].args = xstrdup("");
	return 0;
}

void ab_variants_free(struct ab_variant *vars, size_t n)
{
	for (size_t i = 0; vars && i < n; i++) {
		ab_variant_free(&vars[i]);
		free((char *)vars[i].label);
		free((char *)vars[i].setup);
		free((char *)vars[i].args);
	}
	free(vars);
}

int ab_study_plan(const struct ab_opts *o, struct ab_plan *plan, struct ab_variant **vars,
		  size_t *n)
{
	if (ab_variants_build(o, vars, n) != 0)
		return -1;
	if (*n == 2) { /* two named variants are today's A and B */
		plan->a = (*vars)[0];
		plan->b = (*vars)[1];
		(*vars)[0].env = (*vars)[1].env = NULL;
		(*vars)[0].n_env = (*vars)[1].n_env = 0;
	} else if (*n > 2) {
		plan->vars = *vars;
		plan->n_vars = *n;
	}
	if (o->summary_out && *n > 2)
		return error("--export-summary is for two variants: a study writes study.json");
	for (size_t i = 1; i < *n && !o->restore && !(*vars)[0].setup; i++)
		if ((*vars)[i].setup)
			return error("variant %s's setup changes the machine and nothing puts it "
				     "back: give the baseline's setup (--variant %s:CMD, also the "
				     "restore) or --restore CMD",
				     (*vars)[i].label, (*vars)[0].label);
	return 0;
}

/* ---- the comparison ---- */

int ab_study_compare(const struct ab_opts *o, const struct compare_opts *co, char *const *leg_paths,
		     size_t n, char *note)
{
	const struct run **runs = xcalloc(n + 1, sizeof(*runs));
	struct study *s = NULL;
	char *md = xasprintf("%s/study.md", o->dir), *js = xasprintf("%s/study.json", o->dir);
	int rc = 1;
	for (size_t i = 0; i < n; i++)
		if (!(runs[i] = run_read_file(leg_paths[i])))
			goto out;
	s = study_of_runs(runs, (const char *const *)leg_paths, n, NULL, co, o->all_pairs);
	if (!s)
		goto out;
	if (note) {
		study_add_note(s, note);
		note = NULL;
	}
	if ((report_study_write_file(s, REPORT_MD, md) |
	     report_study_write_file(s, REPORT_JSON, js) |
	     report_study_write_file(s, REPORT_TERM, NULL)) != 0)
		goto out;
	notice("results: %s/ (study.md, study.json, leg-N-*.json, logs)", o->dir);
	rc = study_exit(s, o->fail_on_loss);
out:
	study_free(s);
	ab_runs_free(runs, n);
	free(note);
	free(md);
	free(js);
	return rc;
}
