/* history.c - the history database: opening, the schema and its
 * migrations, adding runs, baselines (history.h; reading: history_read.c).
 *
 * Why SQLite: an embedded database in one file, no server, transactions
 * that two processes can share safely, and an index that makes a trend
 * over 10,000 runs a single lookup (make bench: tools/bench-history.sh). */
#include "store/history.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "results/results_json.h"
#include "store/history_impl.h"

/* Why a history cannot be opened, found out here: SQLite retries a file it
 * may not write read-only, so its errno says "no such file" where the cause
 * is a folder without write permission. */
static int cannot_open(const char *path)
{
	char *copy = xstrdup(path), *dir = dirname(copy);
	struct stat st;
	int rc, fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	if (fd < 0 && (errno == EMFILE || errno == ENFILE || errno == ENOMEM))
		rc = error("cannot open history '%s': %s", path, strerror(errno));
	else if (stat(path, &st) == 0)
		rc = access(path, R_OK | W_OK) != 0
			     ? error("cannot open history '%s': %s", path, strerror(errno))
			     : error("cannot open history '%s': unable to open the file", path);
	else if (stat(dir, &st) != 0)
		rc = error("cannot open history '%s': its folder '%s': %s", path, dir,
			   strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		rc = error("cannot open history '%s': '%s' is not a folder", path, dir);
	else if (access(dir, W_OK | X_OK) != 0)
		rc = error("cannot create history '%s': its folder '%s' is not writable (%s)", path,
			   dir, strerror(errno));
	else
		rc = error("cannot create history '%s' in '%s' (a file system that takes no "
			   "new files?)",
			   path, dir);
	free(copy);
	return rc;
}

int history_fail(struct history *h, int rc, const char *doing)
{
	const char *path = h->path, *msg = h->db ? sqlite3_errmsg(h->db) : sqlite3_errstr(rc);

	h->err = HISTORY_BAD_FILE;
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		h->err = HISTORY_BUSY;
		return error("history '%s' is locked by another process while %s (waited %g s; "
			     "--wait S to wait longer)",
			     path, doing, h->wait_s);
	case SQLITE_NOTADB:
		return error("'%s' is not a history database: it is not an SQLite file", path);
	case SQLITE_CORRUPT:
		return error("history '%s' is damaged (%s); move it aside to start a new one", path,
			     msg);
	case SQLITE_CANTOPEN:
		return cannot_open(path);
	case SQLITE_READONLY:
	case SQLITE_PERM:
	case SQLITE_IOERR:
	case SQLITE_FULL:
		h->err = HISTORY_IO;
		return error("cannot write history '%s' while %s: %s", path, doing, msg);
	default:
		return error("history '%s': %s while %s", path, msg, doing);
	}
}

/* SQLite answers BUSY at once, without calling the busy handler, where
 * waiting could deadlock (two processes that both read a new history and
 * both want to switch it to WAL or write it): such a statement is run
 * again, every 10 ms, until wait_s has passed since the first try, as the
 * busy handler would have waited. Every statement run here is whole (a
 * pragma, BEGIN, COMMIT, a schema script inside a transaction), so a retry
 * repeats nothing that took effect. */
int history_exec(struct history *h, const char *sql, const char *doing)
{
	uint64_t t0 = time_now_ns();
	int rc;

	while ((rc = sqlite3_exec(h->db, sql, NULL, NULL, NULL)) != SQLITE_OK) {
		if ((rc & 0xff) != SQLITE_BUSY || (double)(time_now_ns() - t0) >= h->wait_s * 1e9)
			return history_fail(h, rc, doing);
		sqlite3_sleep(10);
	}
	return 0;
}

/* One integer from a statement with no parameters ("PRAGMA user_version"). */
static int one_int(struct history *h, const char *sql, int64_t *v)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(h->db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return history_fail(h, rc, "reading its header");
	rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0
						     : history_fail(h, rc, "reading its header");
}

/* Version 1: the runs, whole, and their metrics' summaries. */
static const char schema_v1[] =
	"CREATE TABLE runs ("
	" id INTEGER PRIMARY KEY,"
	" digest TEXT NOT NULL UNIQUE," /* the run's identity, however its file was formatted */
	" added TEXT NOT NULL,"
	" start_time TEXT, end_time TEXT, label TEXT, suite TEXT, host TEXT,"
	" tool_version TEXT, path TEXT, complete INTEGER NOT NULL,"
	" n_probes INTEGER NOT NULL, n_metrics INTEGER NOT NULL,"
	" doc TEXT NOT NULL);"
	"CREATE TABLE metrics ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" probe TEXT NOT NULL, metric TEXT NOT NULL, labels TEXT NOT NULL,"
	" unit TEXT NOT NULL, better TEXT NOT NULL,"
	" n INTEGER NOT NULL, median REAL, p5 REAL, p95 REAL);"
	"CREATE INDEX metrics_by_name ON metrics(probe, metric, run_id);"
	"CREATE INDEX runs_by_start ON runs(start_time, id);";

/* Version 2: machine kinds and their baselines. The kind of a run kept
 * before is computed from its fingerprint, here rather than in SQL, with
 * the same function that names new runs' kinds. */
static int migrate_v2(struct history *h)
{
	sqlite3_stmt *sel, *upd;
	int rc;

	if (history_exec(h,
			 "ALTER TABLE runs ADD COLUMN kind TEXT;"
			 "CREATE INDEX runs_by_kind ON runs(kind, start_time);"
			 "CREATE TABLE baselines ("
			 " kind TEXT PRIMARY KEY,"
			 " run_id INTEGER NOT NULL REFERENCES runs(id),"
			 " blessed TEXT NOT NULL);",
			 "migrating to version 2") != 0)
		return -1;
	rc = sqlite3_prepare_v2(h->db, "SELECT id, doc FROM runs", -1, &sel, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(h->db, "UPDATE runs SET kind = ? WHERE id = ?", -1, &upd,
					NULL);
	else
		upd = NULL;
	while (rc == SQLITE_OK && (rc = sqlite3_step(sel)) == SQLITE_ROW) {
		json_t *doc = json_loads((const char *)sqlite3_column_text(sel, 1), 0, NULL);
		char *kind = history_kind(json_object_get(doc, "host"));

		sqlite3_bind_text(upd, 1, kind, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(upd, 2, sqlite3_column_int64(sel, 0));
		rc = sqlite3_step(upd) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(h->db);
		sqlite3_reset(upd);
		free(kind);
		json_decref(doc);
	}
	sqlite3_finalize(sel);
	sqlite3_finalize(upd);
	return rc == SQLITE_DONE || rc == SQLITE_OK ? 0
						    : history_fail(h, rc, "migrating to version 2");
}

/* Version 3: a baseline of several runs (history bless RUN RUN ..., or the
 * runs of a stable segment); baselines keeps the newest of them, so a
 * baseline of version 2 is a set of one. */
static const char schema_v3[] = "CREATE TABLE baseline_runs ("
				" kind TEXT NOT NULL,"
				" run_id INTEGER NOT NULL REFERENCES runs(id),"
				" PRIMARY KEY (kind, run_id));"
				"INSERT INTO baseline_runs SELECT kind, run_id FROM baselines;";

/* Version v - 1 to v, inside the caller's transaction. */
static int migrate_one(struct history *h, int v)
{
	char sql[64];

	if (v == 1   ? history_exec(h, schema_v1, "creating it") != 0
	    : v == 2 ? migrate_v2(h) != 0
		     : history_exec(h, schema_v3, "migrating to version 3") != 0)
		return -1;
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", v);
	return history_exec(h, sql, "recording its version");
}

/* Up to version `to`, in one transaction taken before the version is read,
 * so two processes opening a new history at once create it once. */
static int migrate(struct history *h, int to)
{
	int64_t v, app, tables;
	char sql[64];

	/* a history that is current needs no lock: a reader never waits here
	 * for another process's write */
	if (one_int(h, "PRAGMA user_version", &v) != 0 ||
	    one_int(h, "PRAGMA application_id", &app) != 0)
		return -1;
	if (v == to && app == HISTORY_APP_ID)
		return 0;
	if (history_exec(h, "BEGIN IMMEDIATE", "locking it") != 0)
		return -1;
	if (one_int(h, "PRAGMA user_version", &v) != 0 ||
	    one_int(h, "PRAGMA application_id", &app) != 0 ||
	    one_int(h, "SELECT count(*) FROM sqlite_schema", &tables) != 0)
		goto fail;
	if (app != HISTORY_APP_ID && (app != 0 || tables > 0)) {
		h->err = HISTORY_BAD_FILE;
		error("'%s' is an SQLite database of another program, not a mempath history",
		      h->path);
		goto fail;
	}
	if (v > HISTORY_SCHEMA_VERSION) {
		h->err = HISTORY_BAD_FILE;
		error("history '%s' has schema version %lld; this mempath reads versions up to %d "
		      "(a newer mempath wrote it)",
		      h->path, (long long)v, HISTORY_SCHEMA_VERSION);
		goto fail;
	}
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d", HISTORY_APP_ID);
	if (app == 0 && history_exec(h, sql, "creating it") != 0)
		goto fail;

	for (int next = (int)v + 1; next <= to; next++)
		if (migrate_one(h, next) != 0)
			goto fail;
	return history_exec(h, "COMMIT", "committing its schema");
fail:
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int history_migrate_to(void *db, int to, const char *path)
{
	struct history h = {.db = db, .path = (char *)path, .wait_s = 0};

	return migrate(&h, to);
}

char *history_path(const char *db)
{
	const char *env = getenv("MEMPATH_HISTORY");
	char *dir;

	if (db && !*db) {
		error("--db: an empty path (give the database's file, or leave --db out)");
		return NULL;
	}
	if (db)
		return xstrdup(db);
	if (env && *env)
		return xstrdup(env);
	dir = xdg_mempath_dir("DATA", ".local/share");
	if (!dir) {
		error("no place for the history: set HOME, XDG_DATA_HOME or MEMPATH_HISTORY, or "
		      "give --db PATH");
		return NULL;
	}
	{
		char *path = xasprintf("%s/history.db", dir);

		free(dir);
		return path;
	}
}

struct history *history_open(const char *path, double wait_s, enum history_err *err)
{
	struct history *h = xcalloc(1, sizeof(*h));
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	struct stat st;
	int rc;

	h->path = xstrdup(path);
	h->wait_s = wait_s;
	*err = HISTORY_BAD_FILE;
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir_parents(dir, 0755) != 0) {
			error("cannot make the folder of history '%s': %s", path, strerror(errno));
			goto fail;
		}
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		error("history '%s' is not a file", path);
		goto fail;
	}
	errno = 0;
	rc = sqlite3_open_v2(path, &h->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc != SQLITE_OK) {
		history_fail(h, rc, "opening it");
		goto fail;
	}
	sqlite3_extended_result_codes(h->db, 0);
	sqlite3_busy_timeout(h->db, (int)(wait_s * 1000));
	/* WAL: readers never wait for the writer; NORMAL: a commit is not
	 * synced (a crash can lose the last ones, never the file) */
	/* 16 KiB pages for a new history, set before anything is written (an
	 * existing file keeps its own): a run and its metrics are a few KiB,
	 * and a quarter of the page writes of 4 KiB pages */
	if (history_exec(h, "PRAGMA page_size = 16384", "opening it") != 0 ||
	    history_exec(h, "PRAGMA journal_mode = WAL", "opening it") != 0 ||
	    history_exec(h,
			 "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;"
			 /* 32 MiB of pages: a batch of adds is written once, not spilled */
			 "PRAGMA cache_size = -32768; PRAGMA temp_store = MEMORY",
			 "opening it") ||
	    migrate(h, HISTORY_SCHEMA_VERSION) != 0)
		goto fail;
	free(dir);
	*err = HISTORY_OK;
	return h;
fail:
	*err = h->err ? h->err : HISTORY_BAD_FILE;
	free(dir);
	history_close(h);
	return NULL;
}

/* "file:" and path with every byte but [A-Za-z0-9/._-] as %XX, immutable:
 * a read-only history in a folder where SQLite cannot make its -shm file
 * (the file cannot change while no one can write beside it) */
static char *immutable_uri(const char *path)
{
	size_t n = strlen(path);
	char *uri = xcalloc(n * 3 + 32, 1), *p = uri;

	p += sprintf(p, "file:");
	for (const unsigned char *c = (const unsigned char *)path; *c; c++)
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		    (*c >= '0' && *c <= '9') || strchr("/._-", *c))
			*p++ = (char)*c;
		else
			p += sprintf(p, "%%%02X", *c);
	strcpy(p, "?immutable=1");
	return uri;
}

/* A query's open: the file must exist and be a current history; nothing is
 * created, migrated or written (docs/design.md §9.6). */
static int open_readonly(struct history *h, const char *path)
{
	int64_t v, app;
	int rc = sqlite3_open_v2(path, &h->db, SQLITE_OPEN_READONLY, NULL);

	if (rc == SQLITE_OK && sqlite3_exec(h->db, "SELECT count(*) FROM sqlite_schema", NULL, NULL,
					    NULL) != SQLITE_OK) {
		/* a WAL history in a read-only folder: no -shm can be made */
		char *uri = immutable_uri(path);

		sqlite3_close(h->db);
		h->db = NULL;
		rc = sqlite3_open_v2(uri, &h->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
		free(uri);
	}
	if (rc != SQLITE_OK)
		return history_fail(h, rc, "opening it"), -1;
	sqlite3_extended_result_codes(h->db, 0);
	sqlite3_busy_timeout(h->db, (int)(h->wait_s * 1000));
	if (one_int(h, "PRAGMA user_version", &v) != 0 ||
	    one_int(h, "PRAGMA application_id", &app) != 0)
		return -1;
	h->err = HISTORY_BAD_FILE;
	if (app != HISTORY_APP_ID)
		return error("'%s' is an SQLite database of another program, not a mempath "
			     "history",
			     path);
	if (v > HISTORY_SCHEMA_VERSION)
		return error("history '%s' has schema version %lld; this mempath reads versions "
			     "up to %d (a newer mempath wrote it)",
			     path, (long long)v, HISTORY_SCHEMA_VERSION);
	if (v < HISTORY_SCHEMA_VERSION)
		return error("history '%s' has schema version %lld, older than this mempath's %d: "
			     "a query changes nothing ('history add' migrates it)",
			     path, (long long)v, HISTORY_SCHEMA_VERSION);
	h->err = HISTORY_OK;
	return history_exec(h, "PRAGMA foreign_keys = ON; PRAGMA cache_size = -32768",
			    "opening it");
}

struct history *history_open_query(const char *path, double wait_s, enum history_err *err)
{
	struct history *h = xcalloc(1, sizeof(*h));
	struct stat st;

	h->path = xstrdup(path);
	h->wait_s = wait_s;
	*err = HISTORY_BAD_FILE;
	if (stat(path, &st) != 0)
		error("no history at '%s' (%s): 'mempath history add FILE' makes one", path,
		      strerror(errno));
	else if (!S_ISREG(st.st_mode))
		error("history '%s' is not a file", path);
	else if (open_readonly(h, path) == 0) {
		*err = HISTORY_OK;
		return h;
	}
	*err = h->err ? h->err : HISTORY_BAD_FILE;
	history_close(h);
	return NULL;
}

enum history_err history_error(const struct history *h)
{
	return h->err;
}

sqlite3_stmt *history_stmt(struct history *h, sqlite3_stmt **slot, const char *sql)
{
	int rc;

	if (*slot) {
		sqlite3_reset(*slot);
		sqlite3_clear_bindings(*slot);
		return *slot;
	}
	rc = sqlite3_prepare_v2(h->db, sql, -1, slot, NULL);
	if (rc != SQLITE_OK) {
		history_fail(h, rc, "preparing an add");
		*slot = NULL;
	}
	return *slot;
}

void history_close(struct history *h)
{
	if (!h)
		return;
	sqlite3_finalize(h->find);
	sqlite3_finalize(h->insert_run);
	sqlite3_finalize(h->insert_metric);
	sqlite3_close(h->db);
	free(h->path);
	free(h);
}

char *history_kind(const json_t *host)
{
	json_t *cpu = json_object_get(host, "cpu"), *gpus;
	const char *model = json_string_value(json_object_get(cpu, "model"));
	json_int_t cpus = json_integer_value(json_object_get(cpu, "logical_cpus"));
	json_t *mem = json_object_get(json_object_get(host, "memory"), "MemTotal");
	char *kind, *more;
	const char *seen[16];
	size_t n_seen = 0, count[16] = {0}, i;
	json_t *d;

	char n_cpus[32] = "?", gib[32] = "?";

	if (cpus > 0)
		snprintf(n_cpus, sizeof(n_cpus), "%lld", (long long)cpus);
	/* GiB rounded: MemTotal moves by a few MiB between kernels and boots */
	if (json_is_integer(mem) && json_integer_value(mem) > 0)
		snprintf(gib, sizeof(gib), "%.0f",
			 round((double)json_integer_value(mem) / 1073741824.0));
	kind = xasprintf("%s | %s CPUs | %s GiB", model ? model : "?", n_cpus, gib);
	gpus = json_object_get(json_object_get(host, "gpu"), "devices");
	json_array_foreach (gpus, i, d) {
		const char *name = json_string_value(json_object_get(d, "name"));
		size_t k = 0;

		name = name ? name : "?";
		while (k < n_seen && strcmp(seen[k], name) != 0)
			k++;
		if (k == n_seen && n_seen < 16)
			seen[n_seen++] = name;
		if (k < 16)
			count[k]++;
	}
	for (size_t k = 0; k < n_seen; k++) {
		more = xasprintf("%s | %zux %s", kind, count[k], seen[k]);
		free(kind);
		kind = more;
	}
	return kind;
}
