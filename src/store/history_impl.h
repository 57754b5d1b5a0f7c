/* history_impl.h - what the files of the history share (store/ only:
 * tools/layers keeps it private). */
#ifndef MEMPATH_STORE_HISTORY_IMPL_H
#define MEMPATH_STORE_HISTORY_IMPL_H

#include <sqlite3.h>

struct history {
	sqlite3 *db;
	char *path;
	double wait_s;
	int err;      /* enum history_err (history.h, which includes nothing of this) */
	int in_batch; /* history_begin() without its commit yet */
	/* an add's statements, prepared once per handle: parsing the SQL
	 * again for every run was a tenth of an add */
	sqlite3_stmt *find, *insert_run, *insert_metric;
};

/* A statement of an add, prepared on first use: NULL after an error line. */
sqlite3_stmt *history_stmt(struct history *h, sqlite3_stmt **slot, const char *sql);

/* One error line for an SQLite result code met while `doing` something
 * ("adding a run"); sets h->err. Returns -1. */
int history_fail(struct history *h, int rc, const char *doing);
/* sqlite3_exec, its failure reported by history_fail. 0 or -1. */
int history_exec(struct history *h, const char *sql, const char *doing);

#endif
