/* history_runs.c - runs in and out of the history: adding, reading back,
 * listing, blessing a baseline (history.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "results/results_json.h"
#include "store/history.h"
#include "store/history_impl.h"

/* The run's identity: two FNV-1a hashes over what makes it that run (when
 * and where it started, its label, and every probe's metrics with their
 * labels and raw samples as stored bytes), so a run added twice, or its file
 * reformatted by 'report --format json', is the same run. The numbers are
 * hashed as they are, not printed: printing them was most of an add. */
struct fnv {
	uint64_t a, b;
};

static void fnv_bytes(struct fnv *h, const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++) {
		h->a = (h->a ^ c[i]) * 0x100000001b3ull;
		h->b = ((h->b ^ c[i]) * 0x100000001b3ull) ^ (h->b >> 29);
	}
}

static void fnv_str(struct fnv *h, const char *s)
{
	fnv_bytes(h, s ? s : "", (s ? strlen(s) : 0) + 1); /* the NUL ends each field */
}

static char *digest(const struct run *r)
{
	struct fnv h = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
	size_t n = 0;

	fnv_str(&h, r->start_time);
	fnv_str(&h, json_string_value(json_object_get(r->host, "hostname")));
	fnv_str(&h, r->label);
	fnv_str(&h, r->suite);
	for (size_t i = 0; i < r->n_probes; i++) {
		fnv_str(&h, r->probes[i].name);
		fnv_str(&h, status_name(r->probes[i].status));
		for (size_t k = 0; k < r->probes[i].n_metrics; k++) {
			const struct metric *m = &r->probes[i].metrics[k];

			fnv_str(&h, m->name);
			for (size_t l = 0; l < m->n_labels; l++) {
				fnv_str(&h, m->labels[l].key);
				fnv_str(&h, m->labels[l].value);
			}
			fnv_bytes(&h, m->samples, m->n_samples * sizeof(*m->samples));
			n += m->n_samples;
		}
	}
	return xasprintf("%016llx%016llx-%zu", (unsigned long long)h.a, (unsigned long long)h.b, n);
}

/* Strings bound as they are, not copied: each one outlives the step that
 * reads it (the statement is reset right after). */
static void bind_str(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

static void bind_num(sqlite3_stmt *st, int i, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/* The id of the run with this digest, 0 when none, -1 after an error. */
static int64_t find(struct history *h, const char *dg)
{
	sqlite3_stmt *st = history_stmt(h, &h->find, "SELECT id FROM runs WHERE digest = ?");
	int64_t id = 0;
	int rc;

	if (!st)
		return -1;
	bind_str(st, 1, dg);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? id
						     : history_fail(h, rc, "looking the run up");
}

static int insert_metrics(struct history *h, const struct run *r, int64_t id)
{
	sqlite3_stmt *st = history_stmt(h, &h->insert_metric,
					"INSERT INTO metrics (run_id, probe, metric, labels, unit,"
					" better, n, median, p5, p95)"
					" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
	int rc = st ? SQLITE_OK : SQLITE_ERROR;

	if (!st)
		return -1;

	for (size_t i = 0; rc == SQLITE_OK && i < r->n_probes; i++)
		for (size_t k = 0; rc == SQLITE_OK && k < r->probes[i].n_metrics; k++) {
			const struct metric *m = &r->probes[i].metrics[k];
			struct summary s;
			char labels[512];

			/* a run read from a file has its summaries recomputed already */
			if (m->summary.n == m->n_samples && m->n_samples > 0)
				s = m->summary;
			else
				stats_summarize(m->samples, m->n_samples, &s);
			metric_labels_str(m, labels, sizeof(labels));
			sqlite3_bind_int64(st, 1, id);
			bind_str(st, 2, r->probes[i].name);
			bind_str(st, 3, m->name);
			bind_str(st, 4, labels);
			bind_str(st, 5, unit_name(m->unit));
			bind_str(st, 6, better_name(m->better));
			sqlite3_bind_int64(st, 7, (sqlite3_int64)s.n);
			/* no counted sample: no number, never 0 */
			bind_num(st, 8, s.n ? s.median : NAN);
			bind_num(st, 9, s.n ? s.p5 : NAN);
			bind_num(st, 10, s.n ? s.p95 : NAN);
			rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(h->db);
			sqlite3_reset(st);
		}
	return rc == SQLITE_OK ? 0 : history_fail(h, rc, "adding the run's metrics");
}

static int64_t insert_run(struct history *h, const struct run *r, const char *path, const char *doc,
			  const char *dg)
{
	sqlite3_stmt *st = history_stmt(
		h, &h->insert_run,
		"INSERT INTO runs (digest, added, start_time, end_time, label, suite, host,"
		" tool_version, path, complete, n_probes, n_metrics, doc, kind)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
	char now[32], *kind = history_kind(r->host);
	int64_t n_metrics = 0;
	int rc = st ? SQLITE_OK : SQLITE_ERROR;

	for (size_t i = 0; i < r->n_probes; i++)
		n_metrics += (int64_t)r->probes[i].n_metrics;
	time_iso8601(now, sizeof(now));
	if (rc == SQLITE_OK) {
		bind_str(st, 1, dg);
		bind_str(st, 2, now);
		bind_str(st, 3, r->start_time);
		bind_str(st, 4, r->end_time);
		bind_str(st, 5, r->label);
		bind_str(st, 6, r->suite);
		bind_str(st, 7, json_string_value(json_object_get(r->host, "hostname")));
		bind_str(st, 8, r->tool_version);
		bind_str(st, 9, path);
		sqlite3_bind_int(st, 10, r->complete);
		sqlite3_bind_int64(st, 11, (sqlite3_int64)r->n_probes);
		sqlite3_bind_int64(st, 12, n_metrics);
		bind_str(st, 13, doc);
		bind_str(st, 14, kind);
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(h->db);
		sqlite3_reset(st);
	}
	free(kind);
	if (!st)
		return -1;
	if (rc != SQLITE_OK)
		return history_fail(h, rc, "adding the run");
	return sqlite3_last_insert_rowid(h->db);
}

int64_t history_add(struct history *h, const struct run *r, const char *path, const char *text,
		    int *dup)
{
	json_t *j = text ? NULL : run_to_json(r);
	char *dumped = j ? json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;
	const char *doc = text ? text : dumped;
	char *dg = digest(r);
	int64_t id = -1;

	json_decref(j);
	*dup = 0;
	if (!doc) {
		error("cannot encode the run from '%s'", path);
		goto out;
	}
	/* the whole add in one transaction taken up front: a second process
	 * adding at the same time waits (busy timeout) instead of failing; in
	 * a batch, a savepoint, so a run that fails leaves the others */
	if (history_exec(h, h->in_batch ? "SAVEPOINT run" : "BEGIN IMMEDIATE", "adding a run") != 0)
		goto out;
	id = find(h, dg);
	if (id > 0)
		*dup = 1;
	else if (id == 0 && (id = insert_run(h, r, path, doc, dg)) > 0 &&
		 insert_metrics(h, r, id) != 0)
		id = -1;
	if (id < 0 ||
	    history_exec(h, h->in_batch ? "RELEASE run" : "COMMIT", "adding a run") != 0) {
		sqlite3_exec(h->db, h->in_batch ? "ROLLBACK TO run; RELEASE run" : "ROLLBACK", NULL,
			     NULL, NULL);
		id = -1;
	}
out:
	free(dg);
	free(dumped);
	return id;
}

int history_begin(struct history *h)
{
	if (history_exec(h, "BEGIN IMMEDIATE", "adding runs") != 0)
		return -1;
	h->in_batch = 1;
	return 0;
}

int history_commit(struct history *h)
{
	int rc = history_exec(h, "COMMIT", "adding runs");

	if (rc != 0)
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	h->in_batch = 0;
	return rc;
}

struct run *history_get(struct history *h, int64_t id)
{
	sqlite3_stmt *st;
	struct run *r = NULL;
	char what[64];
	int rc = sqlite3_prepare_v2(h->db, "SELECT doc FROM runs WHERE id = ?", -1, &st, NULL);

	if (rc != SQLITE_OK) {
		history_fail(h, rc, "reading a run");
		return NULL;
	}
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	snprintf(what, sizeof(what), "run %lld of the history", (long long)id);
	if (rc == SQLITE_ROW) {
		json_error_t e;
		json_t *j = json_loads((const char *)sqlite3_column_text(st, 0), 0, &e);

		if (j)
			r = run_from_json(j, what);
		else
			error("%s does not read back: %s", what, e.text);
		json_decref(j);
	} else if (rc == SQLITE_DONE) {
		error("no run %lld in history '%s' (see 'mempath history list')", (long long)id,
		      h->path);
	} else {
		history_fail(h, rc, "reading a run");
	}
	sqlite3_finalize(st);
	return r;
}

static char *col_str(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? xstrdup((const char *)s) : NULL;
}

/* One statement with run ids and a kind bound, run to its end. */
static int bless_step(struct history *h, const char *sql, const char *kind, int64_t id,
		      const char *now)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(h->db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return history_fail(h, rc, "blessing runs");
	bind_str(st, 1, kind);
	sqlite3_bind_int64(st, 2, id);
	if (now)
		bind_str(st, 3, now);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : history_fail(h, rc, "blessing runs");
}

/* The kind of run id (a new string; NULL when it has none), *kept 0 when
 * there is no such run. 0 or -1 after an error line. */
static int run_kind(struct history *h, int64_t id, char **kind, int *kept)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(h->db, "SELECT kind FROM runs WHERE id = ?", -1, &st, NULL);

	*kind = NULL;
	*kept = 0;
	if (rc != SQLITE_OK)
		return history_fail(h, rc, "blessing runs");
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*kept = 1;
		*kind = col_str(st, 0);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : history_fail(h, rc, "blessing runs");
}

int history_bless_set(struct history *h, const int64_t *ids, size_t n, const char *kind)
{
	char now[32], *own = NULL;
	int kept = 0;

	if (history_exec(h, "BEGIN IMMEDIATE", "blessing runs") != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char *k;

		if (run_kind(h, ids[i], &k, &kept) != 0)
			goto fail;
		if (!kept) {
			error("no run %lld in history '%s' (see 'mempath history list')",
			      (long long)ids[i], h->path);
			goto fail;
		}
		if (i == 0)
			own = k;
		else
			free(k);
	}
	kind = kind ? kind : own ? own : "?";
	time_iso8601(now, sizeof(now));
	if (bless_step(
		    h,
		    "INSERT OR REPLACE INTO baselines (kind, run_id, blessed) VALUES (?1, ?2, ?3)",
		    kind, ids[n - 1], now) != 0 ||
	    bless_step(h, "DELETE FROM baseline_runs WHERE kind = ?1 AND ?2 = ?2", kind, 0, NULL) !=
		    0)
		goto fail;
	for (size_t i = 0; i < n; i++)
		if (bless_step(h,
			       "INSERT OR IGNORE INTO baseline_runs (kind, run_id) VALUES (?1, ?2)",
			       kind, ids[i], NULL) != 0)
			goto fail;
	free(own);
	return history_exec(h, "COMMIT", "blessing runs");
fail:
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	free(own);
	return -1;
}

int history_bless(struct history *h, int64_t id, const char *kind)
{
	return history_bless_set(h, &id, 1, kind);
}

int history_baseline_runs(struct history *h, const char *kind, int64_t **ids, size_t *n)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(
		h->db,
		"SELECT b.run_id FROM baseline_runs b JOIN runs r ON r.id = b.run_id"
		" WHERE b.kind = ? ORDER BY r.start_time, r.id",
		-1, &st, NULL);

	*ids = NULL;
	*n = 0;
	if (rc != SQLITE_OK)
		return history_fail(h, rc, "reading the baselines");
	bind_str(st, 1, kind);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		GROW_ONE(*ids, *n);
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : history_fail(h, rc, "reading the baselines");
}

int64_t history_baseline(struct history *h, const char *kind)
{
	sqlite3_stmt *st;
	int64_t id = 0;
	int rc = sqlite3_prepare_v2(h->db, "SELECT run_id FROM baselines WHERE kind = ?", -1, &st,
				    NULL);

	if (rc != SQLITE_OK)
		return history_fail(h, rc, "reading the baselines");
	bind_str(st, 1, kind);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? id
						     : history_fail(h, rc, "reading the baselines");
}

int history_list(struct history *h, const char *kind, const char *host, size_t limit,
		 struct history_run **out, size_t *n)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(
		h->db,
		"SELECT * FROM (SELECT r.id, r.start_time, r.label, r.suite, r.host, r.kind, "
		"r.path,"
		" r.n_probes, r.n_metrics,"
		" EXISTS (SELECT 1 FROM baseline_runs b WHERE b.run_id = r.id), r.complete"
		" FROM runs r"
		" WHERE (?1 IS NULL OR r.kind = ?1) AND (?2 IS NULL OR r.host = ?2)"
		" ORDER BY r.start_time DESC, r.id DESC LIMIT ?3)"
		" ORDER BY 2, 1",
		-1, &st, NULL);

	*out = NULL;
	*n = 0;
	if (rc != SQLITE_OK)
		return history_fail(h, rc, "listing the runs");
	bind_str(st, 1, kind);
	bind_str(st, 2, host);
	sqlite3_bind_int64(st, 3, limit ? (sqlite3_int64)limit : -1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct history_run *v;

		GROW_ONE(*out, *n);
		v = &(*out)[(*n)++];
		v->id = sqlite3_column_int64(st, 0);
		v->start_time = col_str(st, 1);
		v->label = col_str(st, 2);
		v->suite = col_str(st, 3);
		v->host = col_str(st, 4);
		v->kind = col_str(st, 5);
		v->path = col_str(st, 6);
		v->n_probes = sqlite3_column_int64(st, 7);
		v->n_metrics = sqlite3_column_int64(st, 8);
		v->blessed = sqlite3_column_int(st, 9);
		v->complete = sqlite3_column_int(st, 10);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : history_fail(h, rc, "listing the runs");
}

void history_runs_free(struct history_run *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].start_time);
		free(v[i].label);
		free(v[i].suite);
		free(v[i].host);
		free(v[i].kind);
		free(v[i].path);
	}
	free(v);
}
