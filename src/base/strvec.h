/* strvec.h - a growing, NULL-terminated array of strings it owns, for
 * building a command line or an environment (as git's strvec):
 *
 *   struct strvec a = STRVEC_INIT;
 *   strvec_push(&a, exe);
 *   strvec_pushf(&a, "--reps=%u", reps);
 *   spawn(a.v);            // a.v[a.n] == NULL
 *   strvec_clear(&a);
 *
 * Every string pushed is copied; v is NULL until the first push. */
#ifndef MEMPATH_BASE_STRVEC_H
#define MEMPATH_BASE_STRVEC_H

#include <stddef.h>

struct strvec {
	char **v;
	size_t n, alloc;
};

#define STRVEC_INIT        \
	{                  \
		NULL, 0, 0 \
	}

/* A copy of s at the end; returns the copy. */
const char *strvec_push(struct strvec *a, const char *s);
/* printf's text at the end; returns it. */
const char *strvec_pushf(struct strvec *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Copies of v[0..n) at the end (n: SIZE_MAX for up to v's NULL). */
void strvec_pushv(struct strvec *a, char *const *v, size_t n);
/* The words of text (split at any of seps, empty words dropped) at the end. */
void strvec_split(struct strvec *a, const char *text, const char *seps);
/* The array, still NULL-terminated (never NULL: an empty one is {NULL}),
 * now the caller's to free string by string; a is empty again. */
char **strvec_detach(struct strvec *a);
/* Frees every string and the array; a is empty again. */
void strvec_clear(struct strvec *a);

#endif
