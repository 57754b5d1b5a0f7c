/* pending.c - the pending-restore record (pending.h). */
#include "base/pending.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

char *pending_path(const char *dir)
{
	return xasprintf("%s/restore.pending", dir);
}

int pending_write(const char *dir, const json_t *rec)
{
	char *path = pending_path(dir), *text;
	int rc;

	if (mkdir_parents(dir, 0700) != 0) {
		rc = error("cannot make '%s' for the pending-restore record", dir);
		free(path);
		return rc;
	}
	text = json_dumps(rec, JSON_INDENT(1));
	rc = write_file_atomic(path, text, strlen(text));
	free(text);
	free(path);
	return rc;
}

json_t *pending_read(const char *dir, int *bad)
{
	char *path = pending_path(dir), *text = read_file_str(path, NULL);
	json_t *o = text ? json_loads(text, 0, NULL) : NULL;

	*bad = 0;
	if (text && !json_is_string(json_object_get(o, "restore"))) {
		*bad = 1;
		json_decref(o);
		o = NULL;
	}
	free(text);
	free(path);
	return o;
}

void pending_clear_path(const char *path)
{
	unlink(path);
}

void pending_clear(const char *dir)
{
	char *path = pending_path(dir);
	pending_clear_path(path);
	free(path);
}
