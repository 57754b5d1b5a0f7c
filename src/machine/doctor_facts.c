/* doctor_facts.c - what every doctor rule uses: facts read from the
 * fingerprint by path, and the one finding a rule fills. */
#include "machine/doctor_facts.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/util.h"

/* o[a][b]... for a NULL-terminated path of keys; NULL when any step is absent. */
json_t *doctor_at(const json_t *o, ...)
{
	va_list ap;
	const char *k;
	json_t *v = (json_t *)o;
	va_start(ap, o);
	while ((k = va_arg(ap, const char *)) != NULL && v)
		v = json_is_object(v) ? json_object_get(v, k) : NULL;
	va_end(ap);
	return v;
}

const char *doctor_str_at(const json_t *o, const char *a, const char *b)
{
	return json_string_value(doctor_at(o, a, b, NULL));
}

/* An integer fact: 1 and *v set, or 0 when absent or not an integer. */
int doctor_int_at(const json_t *o, const char *a, const char *b, long long *v)
{
	json_t *x = doctor_at(o, a, b, NULL);
	if (!json_is_integer(x))
		return 0;
	*v = json_integer_value(x);
	return 1;
}

void doctor_set(struct doctor_finding *f, enum doctor_level l, const char *fix, const char *fmt,
		...)
{
	va_list ap;
	char *s = NULL;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	free(f->evidence);
	f->evidence = s ? s : xstrdup("");
	f->level = l;
	free(f->fix);
	f->fix = (l == DOCTOR_WARN || l == DOCTOR_INFO) && fix ? xstrdup(fix) : NULL;
}
