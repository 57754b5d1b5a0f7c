/* history.c - `mempath history SUB ...`: results files kept in one SQLite
 * database (store/history.h), listed, shown, followed per metric, and
 * checked against the blessed baseline of their machine kind with the
 * verdict engine (verdict/compare.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/outguard.h"
#include "base/suggest.h"
#include "base/util.h"
#include "cmd/args.h"
#include "cmd/history_cmd.h"
#include "report/report.h"
#include "results/results_json.h"
#include "store/history.h"
#include "verdict/compare.h"
#include "verdict/join.h"

static void history_init(void *p)
{
	struct history_opts *o = p;

	o->wait_s = 5;
}

static const struct arg history_args[] = {
	ARG_STR("db", 0, struct history_opts, db, "PATH",
		"the database (default: $MEMPATH_HISTORY, else\n"
		"$XDG_DATA_HOME/mempath/history.db, ~/.local/share when unset)"),
	ARG_NUM("wait", 0, struct history_opts, wait_s, "S", 0, 3600,
		"seconds to wait for a database another process holds (default 5)"),
	ARG_FORMAT("format", 'f', struct history_opts, format,
		   REPORT_DOC_HISTORY | REPORT_DOC_RUN | REPORT_DOC_COMPARE,
		   "the format (default term); list and trend refuse one their tables\n"
		   "lack, naming those they have; show and check: as 'report'"),
	ARG_COUNT("limit", 'n', struct history_opts, limit, "N", 1, 1000000,
		  "list: the newest N runs (default 50); trend: N points a series"),
	ARG_STR("kind", 0, struct history_opts, kind, "K",
		"list, trend: runs of this machine kind only; bless, check: this kind\n"
		"instead of the file's own"),
	ARG_STR("host", 0, struct history_opts, host, "H", "list, trend: runs of this host only"),
	ARGS_VERDICT(struct history_opts, v), /* check's */
	ARG_FLAG("changepoints", 0, struct history_opts, changepoints,
		 "trend: where each series' level changed (segments, change with its\n"
		 "CI, what changed in the fingerprint); check (no FILE): exit 1 when a\n"
		 "series' newest segment is worse than the one before"),
	ARG_STR("stable", 0, struct history_opts, stable, "PROBE:METRIC",
		"bless: the runs of the metric's newest segment (after its last\n"
		"change point; the newest 10 of them, at least 3)"),
	ARG_END};

static const struct subcommand history_subs[] = {
	{"add", "FILE...", "keep results files in the history", POS_FILES},
	{"list", NULL, "the runs kept, oldest first (* the baseline of its kind)", POS_NONE},
	{"show", "RUN", "a kept run's tables, as 'report' prints a file", POS_NONE},
	{"trend", "PROBE:METRIC[,LABEL=GLOB...]", "one metric's medians over the runs", POS_NONE},
	{"bless", "FILE|RUN...", "make runs the baseline of their machine kind", POS_FILES},
	{"check", "[FILE]",
	 "verdicts of FILE against its kind's baseline; exit 1 on a LOSS (--changepoints:\n"
	 "of the history's newest segments)",
	 POS_FILES},
	{NULL, NULL, NULL, POS_NONE}};

/* add and bless write; list, show, trend and check only read: they open an
 * existing history read-only and never create or change it */
static struct history *open_db(const struct history_opts *o, int query, const struct cmd_line *l,
			       int *rc)
{
	char *path = history_path(o->db);
	enum history_err err = HISTORY_BAD_FILE;
	/* a writer's database must not be one of the files it adds */
	int bad = path && !query && check_output_not_input(path, l->argv + 1, (size_t)l->argc - 1);
	struct history *h = !path || bad ? NULL
			    : query	 ? history_open_query(path, o->wait_s, &err)
					 : history_open(path, o->wait_s, &err);

	free(path);
	*rc = err == HISTORY_BUSY || err == HISTORY_IO ? 1 : 2;
	return h;
}

/* The lines of the runs added since the last commit, printed once it
 * holds: "added" is never said of a run a failed commit lost. */
struct said {
	char *text;
	size_t len;
	FILE *f;
};

static int commit_and_say(struct history *h, struct said *s)
{
	int rc = history_commit(h);

	fclose(s->f);
	if (rc == 0)
		fwrite(s->text, 1, s->len, stdout);
	free(s->text);
	s->text = NULL;
	s->f = open_memstream(&s->text, &s->len);
	return rc;
}

static int h_add(struct history *h, const struct history_opts *o, const struct cmd_line *l)
{
	struct said said = {NULL, 0, NULL};
	uint64_t t0 = time_now_ns();
	int rc = 0;

	if (l->argc < 2)
		return error("history add needs results files (see 'mempath history --help')"), 2;
	if (history_begin(h) != 0 || !(said.f = open_memstream(&said.text, &said.len)))
		return 1;
	for (int i = 1; i < l->argc; i++) {
		char *text;
		struct run *r = history_cmd_read_run(l->argv[i], &text);
		int dup;
		int64_t id = r ? history_add(h, r, l->argv[i], text, &dup) : -1;

		free(text);
		if (id > 0)
			report_history_added(said.f, id, dup, l->argv[i], r->label, r->start_time);
		else
			rc = r ? 1 : 2; /* a bad file is input; a failed write is not */
		run_free(r);
		/* a commit every 200 ms: another process adding waits at most that */
		if (time_now_ns() - t0 > 200000000ull) {
			if (commit_and_say(h, &said) != 0 || !said.f || history_begin(h) != 0) {
				if (said.f)
					fclose(said.f);
				free(said.text);
				return 1;
			}
			t0 = time_now_ns();
		}
	}
	if (commit_and_say(h, &said) != 0)
		rc = 1;
	if (said.f)
		fclose(said.f);
	free(said.text);
	return rc;
}

static int h_list(struct history *h, const struct history_opts *o, const struct cmd_line *l)
{
	struct history_table t = {.kind = HISTORY_TABLE_RUNS};
	struct history_run *v;
	size_t n;
	int rc;

	if (l->argc != 1)
		return error("history list takes no argument (see 'mempath history --help')"), 2;
	if (history_list(h, o->kind, o->host, o->limit_given ? o->limit : 50, &v, &n) != 0)
		return 1;
	t.runs = v;
	t.n_runs = n;
	rc = report_history_write(&t, o->format, stdout) == 0 ? 0 : 1;
	history_runs_free(v, n);
	return rc;
}

static int h_show(struct history *h, const struct history_opts *o, const struct cmd_line *l)
{
	int64_t id = l->argc == 2 ? history_cmd_run_id(l->argv[1]) : 0;
	struct run *r;
	int rc;

	if (!id)
		return error("history show needs a run number (see 'mempath history list')"), 2;
	if (!(r = history_get(h, id)))
		return 2;
	rc = report_write_file(r, o->format, NULL) == 0 ? 0 : 1;
	run_free(r);
	return rc;
}

/* "; did you mean 'cpu.stream:bandwidth'?" for a trend that found nothing:
 * the nearest probe the history keeps, then the nearest of its metrics
 * (suggest() returns an exact name too); "" when both were as typed (the
 * labels matched nothing) or nothing is near. */
static const char *trend_hint(struct history *h, const char *probe, const char *metric, char *buf,
			      size_t len)
{
	char **probes = NULL, **metrics = NULL;
	size_t np = 0, nm = 0;
	const char *p = NULL, *m = NULL;

	buf[0] = '\0';
	if (history_names(h, NULL, &probes, &np) == 0)
		p = suggest(probe, (const char *const *)probes, np);
	if (p && history_names(h, p, &metrics, &nm) == 0)
		m = suggest(metric, (const char *const *)metrics, nm);
	if (p && m && (strcmp(p, probe) != 0 || strcmp(m, metric) != 0))
		snprintf(buf, len, "; did you mean '%s:%s'?", p, m);
	history_names_free(metrics, nm);
	history_names_free(probes, np);
	return buf;
}

static int h_trend(struct history *h, const struct history_opts *o, const struct cmd_line *l)
{
	char *probe, *metric, *unit, *better;
	const char *labels = NULL;
	struct history_point *p;
	size_t n;
	int csv = o->format == REPORT_CSV, rc = 0;

	if (l->argc != 2)
		return error("history trend needs one metric, PROBE:METRIC[,LABEL=GLOB...] (see "
			     "'mempath history --help')"),
		       2;
	if (history_cmd_parse_metric(l->argv[1], &probe, &metric, &labels) != 0)
		return 2;
	if (o->changepoints) {
		rc = history_cmd_trend_changes(h, probe, metric, labels, o->kind, o->host, csv);
		free(probe);
		free(metric);
		return rc;
	}
	if (history_trend(h, probe, metric, labels, o->kind, o->host, o->limit_given ? o->limit : 0,
			  &p, &n, &unit, &better) != 0)
		rc = 1;
	else if (n == 0) {
		char hint[96];

		error("no run kept has %s %s%s%s%s (see 'mempath history list')", probe, metric,
		      labels ? " with " : "", labels ? labels : "",
		      trend_hint(h, probe, metric, hint, sizeof(hint)));
		rc = 2;
	}
	if (rc == 0) {
		struct history_table t = {.kind = HISTORY_TABLE_TREND,
					  .probe = probe,
					  .metric = metric,
					  .unit = unit,
					  .better = better,
					  .points = p,
					  .n_points = n};

		rc = report_history_write(&t, o->format, stdout) == 0 ? 0 : 1;
	}
	history_points_free(p, n);
	free(unit);
	free(better);
	free(probe);
	free(metric);
	return rc;
}

/* Options that only some subcommands read, refused elsewhere: one given
 * where it does nothing is a mistake worth a line. */
static int options_fit(const struct history_opts *o, const char *sub)
{
	int list_like = !strcmp(sub, "list") || !strcmp(sub, "trend");
	int check = !strcmp(sub, "check");

	if ((o->limit_given || o->host) && !list_like)
		return error("--limit and --host apply to 'history list' and 'history trend'");
	if (o->kind && !list_like && !check && strcmp(sub, "bless") != 0)
		return error("--kind applies to 'history list', 'trend', 'bless' and 'check'");
	if (o->changepoints && !check && strcmp(sub, "trend") != 0)
		return error("--changepoints applies to 'history trend' and 'history check'");
	if (o->stable && strcmp(sub, "bless") != 0)
		return error("--stable applies to 'history bless'");
	if (verdict_args_given(&o->v) && !check)
		return error("--threshold, --load-diff, --control, --primary, --expect-diff and "
			     "--allow-diff apply to "
			     "'history check'");
	if (list_like && !report_writer_of(o->format)->history)
		return error("'history %s' writes %s, not %s", sub,
			     report_format_names(REPORT_DOC_HISTORY, " or "),
			     report_writer_of(o->format)->name);
	return 0;
}

static int history_main(void *p, const struct cmd_line *l)
{
	static const struct {
		const char *name;
		int (*fn)(struct history *, const struct history_opts *, const struct cmd_line *);
		int query;
	} subs[] = {{"add", h_add, 0},
		    {"list", h_list, 1},
		    {"show", h_show, 1},
		    {"trend", h_trend, 1},
		    {"bless", history_cmd_bless, 0},
		    {"check", history_cmd_check, 1}};
	struct history_opts *o = p;
	const char *names[ARRAY_SIZE(subs)], *sub = l->argc ? l->argv[0] : NULL;
	struct history *h;
	char hint[96];
	int rc;

	o->limit_given = o->limit > 0;
	for (size_t i = 0; i < ARRAY_SIZE(subs); i++) {
		names[i] = subs[i].name;
		if (sub && strcmp(sub, subs[i].name) == 0) {
			if (options_fit(o, sub) != 0)
				return 2;
			if (!(h = open_db(o, subs[i].query, l, &rc)))
				return rc;
			rc = subs[i].fn(h, o, l);
			if (rc == 1 && history_error(h) == HISTORY_BAD_FILE)
				rc = 2; /* damaged, found only now: the file is bad input */
			history_close(h);
			return rc;
		}
	}
	if (!sub)
		return error("history needs a subcommand: add, list, show, trend, bless or check "
			     "(see 'mempath history --help')"),
		       2;
	return error("unknown history subcommand '%s'%s (see 'mempath history --help')", sub,
		     suggest_phrase(suggest(sub, names, ARRAY_SIZE(subs)), hint, sizeof(hint))),
	       2;
}

const struct command command_history = {
	.pos = POS_SUBS,
	.name = "history",
	.summary = "keep runs in a database: list, trend, bless a baseline, check against it",
	.synopsis = "SUBCOMMAND [ARGS]",
	.about = "Keeps results files in one SQLite database, so 'is this machine slower than\n"
		 "last month?' has an answer: the runs kept are listed, a metric is followed\n"
		 "over them, one run is blessed as the baseline of its machine kind (CPU model,\n"
		 "CPU count, memory, GPUs), and a new file is checked against that baseline with\n"
		 "the verdicts of 'compare'. 'mempath run --history' adds each run it makes.\n",
	.examples = "mempath history add docs/results/*.json\n"
		    "mempath history trend cpu.stream:bandwidth,kernel=read,threads=1\n"
		    "mempath history bless stock.json && mempath history check today.json\n",
	.tail = "Exit status: 0 ok, 1 check found a LOSS (or could give no verdict: knobs\n"
		"differ), or the database is locked or cannot be written, 2 bad usage, a bad\n"
		"file, a database that is not a history, damaged or of a newer mempath.\n",
	.args = history_args,
	.opts_size = sizeof(struct history_opts),
	.init = history_init,
	.run = history_main,
	.subs = history_subs,
};
