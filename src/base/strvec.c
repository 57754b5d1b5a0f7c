/* strvec.c - the growing string array (strvec.h). */
#include "base/strvec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* Takes s (allocated) as the last string. */
static const char *take(struct strvec *a, char *s)
{
	if (a->n + 2 > a->alloc) {
		a->alloc = a->alloc ? 2 * a->alloc : 8;
		a->v = xrealloc(a->v, a->alloc * sizeof(*a->v));
	}
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
	return s;
}

const char *strvec_push(struct strvec *a, const char *s)
{
	return take(a, xstrdup(s));
}

const char *strvec_pushf(struct strvec *a, const char *fmt, ...)
{
	va_list ap;
	int len;
	char *s;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = xmalloc(len > 0 ? (size_t)len + 1 : 1);
	va_start(ap, fmt);
	vsnprintf(s, len > 0 ? (size_t)len + 1 : 1, fmt, ap);
	va_end(ap);
	return take(a, s);
}

void strvec_pushv(struct strvec *a, char *const *v, size_t n)
{
	for (size_t i = 0; i < n && v[i]; i++)
		strvec_push(a, v[i]);
}

void strvec_split(struct strvec *a, const char *text, const char *seps)
{
	for (const char *p = text; *p;) {
		size_t len;

		p += strspn(p, seps);
		len = strcspn(p, seps);
		if (len)
			take(a, xasprintf("%.*s", (int)len, p));
		p += len;
	}
}

char **strvec_detach(struct strvec *a)
{
	char **v = a->v ? a->v : xcalloc(1, sizeof(*v));

	a->v = NULL;
	a->n = a->alloc = 0;
	return v;
}

void strvec_clear(struct strvec *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	a->v = NULL;
	a->n = a->alloc = 0;
}
