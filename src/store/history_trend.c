/* history_trend.c - one metric's medians over the kept runs (history.h). */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "store/history.h"
#include "store/history_impl.h"

/* The value of key in "k=v,k=v" into buf; 0, or -1 when absent. */
static int label_value(const char *labels, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);

	for (const char *p = labels; p && *p;) {
		size_t n = strcspn(p, ",");

		if (n > kl && strncmp(p, key, kl) == 0 && p[kl] == '=') {
			snprintf(buf, len, "%.*s", (int)(n - kl - 1), p + kl + 1);
			return 0;
		}
		p += n;
		p += *p == ',';
	}
	return -1;
}

/* Every "k=GLOB" of want matches the point's labels. */
static int labels_match(const char *labels, const char *want)
{
	char *dup, *save = NULL, value[256];
	int ok = 1;

	if (!want || !*want)
		return 1;
	dup = xstrdup(want);
	for (char *t = strtok_r(dup, ",", &save); t && ok; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');

		if (!eq) {
			ok = 0;
			break;
		}
		*eq = '\0';
		ok = label_value(labels, t, value, sizeof(value)) == 0 &&
		     fnmatch(eq + 1, value, 0) == 0;
	}
	free(dup);
	return ok;
}

static char *col_str(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? xstrdup((const char *)s) : NULL;
}

#define MAX_GLOBS 16

/* The query, with one GLOB per "k=GLOB" of labels on ",<labels>," (SQLite's
 * GLOB is fnmatch's * ? [...]): most series are left out by the database,
 * so a trend over 10,000 runs of a metric with many label sets reads only
 * its own. labels_match() still decides: a * there may span a comma. */
static char *trend_sql(const char *labels)
{
	char *sql = xstrdup("SELECT m.run_id, r.start_time, r.label, r.host, m.labels, m.median,"
			    " m.p5, m.p95, m.n, m.unit, m.better,"
			    " EXISTS (SELECT 1 FROM baseline_runs b WHERE b.run_id = r.id), r.kind"
			    " FROM metrics m JOIN runs r ON r.id = m.run_id"
			    " WHERE m.probe = ?1 AND m.metric = ?2 AND (?3 IS NULL OR r.kind = ?3)"
			    " AND (?4 IS NULL OR r.host = ?4)");
	size_t k = 0;

	for (const char *p = labels; p && *p && k < MAX_GLOBS; k++) {
		char *more = xasprintf("%s AND (',' || m.labels || ',') GLOB ?%zu", sql, 5 + k);

		free(sql);
		sql = more;
		p += strcspn(p, ",");
		p += *p == ',';
	}
	{
		char *more = xasprintf("%s ORDER BY m.labels, r.start_time, r.id", sql);

		free(sql);
		return more;
	}
}

static void bind_globs(sqlite3_stmt *st, const char *labels)
{
	size_t k = 0;

	for (const char *p = labels; p && *p && k < MAX_GLOBS; k++) {
		size_t n = strcspn(p, ",");
		char *g = xasprintf("*,%.*s,*", (int)n, p);

		sqlite3_bind_text(st, (int)(5 + k), g, -1, SQLITE_TRANSIENT);
		free(g);
		p += n;
		p += *p == ',';
	}
}

static void point_clear(struct history_point *p)
{
	free(p->start_time);
	free(p->label);
	free(p->host);
	free(p->labels);
	free(p->kind);
}

/* Keeps the newest `limit` points of each series (points are in series
 * order, then time). */
static void keep_newest(struct history_point *v, size_t *n, size_t limit)
{
	size_t o = 0;

	for (size_t i = 0; i < *n;) {
		size_t j = i;

		while (j < *n && strcmp(v[j].labels, v[i].labels) == 0)
			j++;
		for (size_t k = i; k < j; k++)
			if (j - k <= limit)
				v[o++] = v[k];
			else
				point_clear(&v[k]);
		i = j;
	}
	*n = o;
}

int history_trend(struct history *h, const char *probe, const char *metric, const char *labels,
		  const char *kind, const char *host, size_t limit, struct history_point **out,
		  size_t *n, char **unit, char **better)
{
	sqlite3_stmt *st;
	char *sql = trend_sql(labels);
	int rc = sqlite3_prepare_v2(h->db, sql, -1, &st, NULL);

	*out = NULL;
	*n = 0;
	*unit = *better = NULL;
	if (rc != SQLITE_OK) {
		free(sql);
		return history_fail(h, rc, "reading a trend");
	}
	sqlite3_bind_text(st, 1, probe, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, metric, -1, SQLITE_TRANSIENT);
	if (kind)
		sqlite3_bind_text(st, 3, kind, -1, SQLITE_TRANSIENT);
	if (host)
		sqlite3_bind_text(st, 4, host, -1, SQLITE_TRANSIENT);
	bind_globs(st, labels);
	free(sql);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *l = (const char *)sqlite3_column_text(st, 4);
		struct history_point *p;

		if (!labels_match(l, labels))
			continue;
		GROW_ONE(*out, *n);
		p = &(*out)[(*n)++];
		p->run_id = sqlite3_column_int64(st, 0);
		p->start_time = col_str(st, 1);
		p->label = col_str(st, 2);
		p->host = col_str(st, 3);
		p->labels = xstrdup(l ? l : "");
		/* NULL (no counted sample) reads as NaN: absent, never 0 */
		p->median = sqlite3_column_type(st, 5) == SQLITE_NULL
				    ? NAN
				    : sqlite3_column_double(st, 5);
		p->p5 = sqlite3_column_type(st, 6) == SQLITE_NULL ? NAN
								  : sqlite3_column_double(st, 6);
		p->p95 = sqlite3_column_type(st, 7) == SQLITE_NULL ? NAN
								   : sqlite3_column_double(st, 7);
		p->n = sqlite3_column_int64(st, 8);
		p->blessed = sqlite3_column_int(st, 11);
		p->kind = col_str(st, 12);
		free(*unit);
		free(*better);
		*unit = col_str(st, 9);
		*better = col_str(st, 10);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		history_points_free(*out, *n);
		*out = NULL;
		*n = 0;
		return history_fail(h, rc, "reading a trend");
	}
	if (limit)
		keep_newest(*out, n, limit);
	return 0;
}

void history_points_free(struct history_point *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		point_clear(&v[i]);
	free(v);
}

int history_names(struct history *h, const char *probe, char ***names, size_t *n)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(h->db,
				    probe ? "SELECT DISTINCT metric FROM metrics WHERE probe = ?1"
					    " ORDER BY metric"
					  : "SELECT DISTINCT probe FROM metrics ORDER BY probe",
				    -1, &st, NULL);

	*names = NULL;
	*n = 0;
	if (rc != SQLITE_OK)
		return history_fail(h, rc, "reading the metric names");
	if (probe)
		sqlite3_bind_text(st, 1, probe, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		GROW_ONE(*names, *n);
		(*names)[(*n)++] = col_str(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		history_names_free(*names, *n);
		*names = NULL;
		*n = 0;
		return history_fail(h, rc, "reading the metric names");
	}
	return 0;
}

void history_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
