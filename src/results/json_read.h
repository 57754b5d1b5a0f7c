/* json_read.h - strict readers of one field of a JSON object, shared by
 * every file mempath reads back (results, fleet, comparison and reference
 * files).
 *
 * Each returns 0, or -1 after one error line that names the file, the kind
 * of file, the JSON path of the object being read and the field:
 *   'x.json' is not a valid mempath results file: probes[2].wall_s is not a number
 * A field absent or null is "absent": it reads as the default given, unless
 * the reader is told it is required ("is missing").
 */
#ifndef MEMPATH_RESULTS_JSON_READ_H
#define MEMPATH_RESULTS_JSON_READ_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "results/results.h"

struct jrd {
	const char *kind; /* "mempath results", "reference", ...: a valid KIND file */
	const char *what; /* the file, as the user named it */
	char path[160];	  /* where in the file: "nodes[3].flags[0]", or "" */
};

/* The error line for `field` of the object at rd->path; returns -1. */
int jrd_bad(const struct jrd *rd, const char *field, const char *why);

/* A string; *out borrows from the JSON (NULL when absent). */
int jrd_str(const struct jrd *rd, json_t *o, const char *key, int required, const char **out);
/* The same, copied (xstrdup; NULL when absent). */
int jrd_strdup(const struct jrd *rd, json_t *o, const char *key, int required, char **out);
/* A number; absent reads `if_absent` (null reads it too, even when required:
 * a writer stores NAN and infinity as null). */
int jrd_num(const struct jrd *rd, json_t *o, const char *key, int required, double if_absent,
	    double *out);
/* An integer; absent leaves *out as it was. */
int jrd_int(const struct jrd *rd, json_t *o, const char *key, int64_t *out);
/* A count: an integer 0..INT_MAX; absent reads 0. */
int jrd_count(const struct jrd *rd, json_t *o, const char *key, int required, size_t *out);
/* true or false; absent reads 0. */
int jrd_bool(const struct jrd *rd, json_t *o, const char *key, int required, int *out);
/* An object of strings (labels, params): add(arg, key, value) for each,
 * in the file's order. Absent: nothing added. */
int jrd_labels(const struct jrd *rd, json_t *o, const char *key,
	       void (*add)(void *arg, const char *k, const char *v), void *arg);
/* The same into a new array of copied pairs (NULL and 0 when absent). */
int jrd_label_array(const struct jrd *rd, json_t *o, const char *key, struct label **out,
		    size_t *n);
/* An array of strings into a new NULL-terminated array of *n copies, each
 * made by copy(arg, s) (xstrdup when copy is NULL). Absent: none; required:
 * absent is missing and null is not an array. */
int jrd_strs(const struct jrd *rd, json_t *o, const char *key, int required,
	     char *(*copy)(void *arg, const char *s), void *arg, char ***out, size_t *n);
/* An array of numbers into a new array (*n of them; *cap allocated).
 * Absent: none. */
int jrd_doubles(const struct jrd *rd, json_t *o, const char *key, double **out, size_t *n,
		size_t *cap);

#endif
