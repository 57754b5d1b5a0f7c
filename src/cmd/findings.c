/* findings.c - `mempath findings AB_DIR...`: a findings document from ab
 * directories, a study's among them (a finding per comparison) (report/findings.h, docs/design.md
 * §9.9). */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/outguard.h"
#include "base/util.h"
#include "cmd/args.h"
#include "report/findings.h"
#include "report/report.h"
#include "results/results_json.h"
#include "verdict/compare_json.h"

struct findings_opts {
	const char *out;
	enum report_format format;
};

static void findings_init(void *p)
{
	((struct findings_opts *)p)->format = REPORT_MD;
}

static const struct arg findings_args[] = {
	ARG_FORMAT("format", 'f', struct findings_opts, format, REPORT_DOC_FINDINGS,
		   "the document's format (default md)"),
	ARG_STR("output", 'o', struct findings_opts, out, "OUT",
		"write the document to OUT (atomically) instead of stdout"),
	ARG_END};

/* leg-N-...json in N's order */
static int by_leg(const void *a, const void *b)
{
	const char *x = strrchr(*(char *const *)a, '/'), *y = strrchr(*(char *const *)b, '/');
	long i = strtol(x + 5, NULL, 10), j = strtol(y + 5, NULL, 10);
	return (i > j) - (i < j);
}

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* DIR/leg-*.json in leg order into x; 0, or -1 after one error line. */
static int read_legs(const char *dir, struct finding *x)
{
	char *pat = xasprintf("%s/leg-*.json", dir);
	glob_t g;
	int rc = -1;
	if (glob(pat, 0, NULL, &g) == 0) {
		qsort(g.gl_pathv, g.gl_pathc, sizeof(*g.gl_pathv), by_leg);
		x->legs = xcalloc(g.gl_pathc + 1, sizeof(*x->legs));
		rc = 0;
		for (size_t i = 0; i < g.gl_pathc && rc == 0; i++)
			if (!(x->legs[x->n_legs++] = run_read_file(g.gl_pathv[i])))
				rc = -1;
		globfree(&g);
	} else
		error("%s: no leg-N-*.json (not an ab directory?)", dir);
	free(pat);
	return rc;
}

/* A study's directory (DIR/study.json, docs/design.md §5.22): a finding per
 * comparison of its family, appended to *fs; 0, or -1 after an error line. */
static int read_study(const char *dir, const char *path, struct finding **fs, size_t *n)
{
	json_t *j = results_load_file(path), *pairs, *e;
	size_t i, first = *n;
	int rc = -1;
	if (!j)
		return -1;
	pairs = json_object_get(j, "comparisons");
	if (!json_is_array(pairs) || !json_array_size(pairs)) {
		error("%s: no comparisons (not a study file?)", path);
		goto out;
	}
	json_array_foreach (pairs, i, e) {
		struct finding *x;
		*fs = xrealloc(*fs, (*n + 1) * sizeof(**fs));
		x = &(*fs)[(*n)++];
		memset(x, 0, sizeof(*x));
		x->dir = dir;
		x->n_var = json_array_size(json_object_get(j, "variants"));
		x->pair = xasprintf("%s against %s", json_string_value(json_object_get(e, "b")),
				    json_string_value(json_object_get(e, "a")));
		if (!(x->cmp = comparison_from_json(json_object_get(e, "comparison"), path)))
			goto out;
		if (i == 0 && read_legs(dir, x) != 0)
			goto out;
		if (i) {
			x->legs = (*fs)[first].legs;
			x->n_legs = (*fs)[first].n_legs;
			x->shares_legs = 1;
		}
	}
	rc = 0;
out:
	json_decref(j);
	return rc;
}

/* DIR's comparison and legs into x; 0, or -1 after one error line. */
static int read_dir(const char *dir, struct finding *x)
{
	char *path = xasprintf("%s/compare.json", dir);
	json_t *j = NULL;
	int rc = -1;

	memset(x, 0, sizeof(*x));
	x->dir = dir;
	if (!is_dir(dir)) { /* a results or comparison file: say what it takes */
		error("'%s' is not a directory: findings takes ab directories (DIR with "
		      "compare.json or study.json and leg-N-*.json; 'mempath report FILE' shows "
		      "a file)",
		      dir);
		free(path);
		return -1;
	}
	j = results_load_file(path);
	if (j)
		x->cmp = comparison_from_json(j, path);
	if (j)
		json_decref(j);
	if (x->cmp)
		rc = read_legs(dir, x);
	free(path);
	return rc;
}

static void finding_free(struct finding *x)
{
	comparison_free(x->cmp);
	free(x->pair);
	if (x->shares_legs)
		return;
	for (size_t i = 0; i < x->n_legs; i++)
		run_free(x->legs[i]);
	free(x->legs);
}

struct doc {
	const struct finding *fs;
	size_t n;
	enum report_format fmt;
};

static int render(const void *arg, FILE *f)
{
	const struct doc *d = arg;
	return report_findings(d->fs, d->n, d->fmt, f);
}

static int findings_main(void *p, const struct cmd_line *l)
{
	struct findings_opts *o = p;
	struct finding *fs;
	struct doc d;
	struct out_inputs in = {0};
	size_t n = 0;
	int rc = 0;

	if (l->argc < 1)
		return error("findings needs one or more ab directories (see 'mempath findings "
			     "--help')"),
		       2;
	/* its own input (a leg, compare.json, a log of the directory) is refused
	 * before anything is read */
	in.dirs = l->argv;
	in.n_dirs = (size_t)l->argc;
	if (output_guard(o->out, &in, NULL) != 0)
		return 2;
	fs = NULL;
	for (int i = 0; i < l->argc && rc == 0; i++) {
		char *study = xasprintf("%s/study.json", l->argv[i]);
		struct stat st;
		if (is_dir(l->argv[i]) && stat(study, &st) == 0) {
			if (read_study(l->argv[i], study, &fs, &n) != 0)
				rc = 2;
		} else {
			fs = xrealloc(fs, (n + 1) * sizeof(*fs));
			if (read_dir(l->argv[i], &fs[n++]) != 0)
				rc = 2;
		}
		free(study);
	}
	d.fs = fs;
	d.n = n;
	d.fmt = o->format;
	if (rc == 0)
		rc = (o->out ? write_rendered(o->out, render, &d) : render(&d, stdout)) == 0 ? 0
											     : 1;
	for (size_t i = 0; i < n; i++)
		finding_free(&fs[i]);
	free(fs);
	return rc;
}

const struct command command_findings = {
	.pos = POS_FILES,
	.name = "findings",
	.summary = "a findings document from ab directories (summary table, receipts, mechanism)",
	.synopsis = "AB_DIR...",
	.about = "Writes a findings document from the directories of one or more 'mempath ab'\n"
		 "runs: a summary table (finding, kind, impact, status with the A/B numbers),\n"
		 "then each finding with its table of metrics, the receipts of each figure (what\n"
		 "it assumes and the evidence) and the counters that moved with each WIN and\n"
		 "LOSS, the machine, and the ab command that reproduces it. A finding's title is\n"
		 "its ab --title (else its directory). A study's directory (ab with more than\n"
		 "two variants: DIR/study.json) gives a finding per comparison of its family\n"
		 "(\"madvise against never\"), each with its verdicts as the study judged them.\n",
	.tail = "Example:\n"
		"  mempath findings thp-aba/ p2p-aba/ --format html -o findings.html\n"
		"\n"
		"Exit status: 0 written, 1 the document could not be written, 2 bad usage or a\n"
		"directory that cannot be read.\n",
	.args = findings_args,
	.opts_size = sizeof(struct findings_opts),
	.init = findings_init,
	.run = findings_main,
};
