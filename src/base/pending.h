/* pending.h - the pending-restore record (docs/design.md §6.6): a file
 * DIR/restore.pending written before anything changes the machine and
 * removed once it is put back, so that a run killed in between (SIGKILL, a
 * power cut) leaves the next one what must be undone. `mempath ab` records
 * its --restore command there; a probe that sets kernel knobs for its run
 * (machine/pagesize.h) records the knobs' old values and the same shell
 * command that writes them back, so `mempath ab --restore-pending DIR` can
 * run either.
 *
 * The record is a JSON object: "restore" (an sh -c command), "why", and
 * what the writer adds ("env", "knobs").
 */
#ifndef MEMPATH_BASE_PENDING_H
#define MEMPATH_BASE_PENDING_H

#include <jansson.h>

/* DIR/restore.pending; a new string. */
char *pending_path(const char *dir);
/* Writes rec (with at least "restore" and "why") atomically, making dir
 * when it is missing; 0, or -1 after an error line. */
int pending_write(const char *dir, const json_t *rec);
/* The record in dir (a new reference), or NULL when there is none; a file
 * that is not a record (no "restore" string) is NULL with *bad set. */
json_t *pending_read(const char *dir, int *bad);
/* Removes the record; async-signal-safe given a path made beforehand. */
void pending_clear_path(const char *path);
void pending_clear(const char *dir);

#endif
