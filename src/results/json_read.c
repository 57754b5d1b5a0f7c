/* json_read.c - strict field readers for the files mempath reads back. */
#include "results/json_read.h"

#include <limits.h>

#include "base/util.h"

int jrd_bad(const struct jrd *rd, const char *field, const char *why)
{
	return error("'%s' is not a valid %s file: %s%s%s %s", rd->what, rd->kind, rd->path,
		     *rd->path && *field ? "." : "", field, why);
}

/* The field's value, NULL when absent or null (-1 in *rc when required). */
static json_t *field(const struct jrd *rd, json_t *o, const char *key, int required, int *rc)
{
	json_t *v = json_object_get(o, key);

	*rc = 0;
	if (v && !json_is_null(v))
		return v;
	if (required)
		*rc = jrd_bad(rd, key, "is missing");
	return NULL;
}

int jrd_str(const struct jrd *rd, json_t *o, const char *key, int required, const char **out)
{
	int rc;
	json_t *v = field(rd, o, key, required, &rc);

	*out = NULL;
	if (!v)
		return rc;
	if (!json_is_string(v))
		return jrd_bad(rd, key, "is not a string");
	*out = json_string_value(v);
	return 0;
}

int jrd_strdup(const struct jrd *rd, json_t *o, const char *key, int required, char **out)
{
	const char *s;

	*out = NULL;
	if (jrd_str(rd, o, key, required, &s))
		return -1;
	*out = s ? xstrdup(s) : NULL;
	return 0;
}

int jrd_num(const struct jrd *rd, json_t *o, const char *key, int required, double if_absent,
	    double *out)
{
	json_t *v = json_object_get(o, key);

	*out = if_absent;
	if (!v)
		return required ? jrd_bad(rd, key, "is missing") : 0;
	if (json_is_null(v))
		return 0;
	if (!json_is_number(v))
		return jrd_bad(rd, key, "is not a number");
	*out = json_number_value(v);
	return 0;
}

int jrd_int(const struct jrd *rd, json_t *o, const char *key, int64_t *out)
{
	int rc;
	json_t *v = field(rd, o, key, 0, &rc);

	if (!v)
		return rc;
	if (!json_is_integer(v))
		return jrd_bad(rd, key, "is not an integer");
	*out = json_integer_value(v);
	return 0;
}

int jrd_count(const struct jrd *rd, json_t *o, const char *key, int required, size_t *out)
{
	json_t *v = json_object_get(o, key);

	*out = 0;
	if (!v)
		return required ? jrd_bad(rd, key, "is missing") : 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > INT_MAX)
		return jrd_bad(rd, key, "is not a count");
	*out = (size_t)json_integer_value(v);
	return 0;
}

int jrd_bool(const struct jrd *rd, json_t *o, const char *key, int required, int *out)
{
	json_t *v = json_object_get(o, key);

	*out = 0;
	if (!v)
		return required ? jrd_bad(rd, key, "is missing") : 0;
	if (!json_is_boolean(v))
		return jrd_bad(rd, key, "is not true or false");
	*out = json_is_true(v);
	return 0;
}

int jrd_labels(const struct jrd *rd, json_t *o, const char *key,
	       void (*add)(void *arg, const char *k, const char *v), void *arg)
{
	int rc;
	json_t *v = field(rd, o, key, 0, &rc), *x;
	const char *k;

	if (!v)
		return rc;
	if (!json_is_object(v))
		return jrd_bad(rd, key, "is not an object");
	json_object_foreach (v, k, x) {
		if (!json_is_string(x))
			return jrd_bad(rd, key, "has a value that is not a string");
		add(arg, k, json_string_value(x));
	}
	return 0;
}

struct label_array {
	struct label *v;
	size_t n;
};

static void add_label(void *arg, const char *k, const char *v)
{
	struct label_array *a = arg;

	a->v[a->n].key = xstrdup(k);
	a->v[a->n].value = xstrdup(v);
	a->n++;
}

int jrd_label_array(const struct jrd *rd, json_t *o, const char *key, struct label **out, size_t *n)
{
	json_t *v = json_object_get(o, key);
	struct label_array a = {NULL, 0};
	int rc;

	if (json_is_object(v))
		a.v = xcalloc(json_object_size(v) + 1, sizeof(*a.v));
	rc = jrd_labels(rd, o, key, add_label, &a);
	*out = a.v;
	*n = a.n;
	return rc;
}

int jrd_strs(const struct jrd *rd, json_t *o, const char *key, int required,
	     char *(*copy)(void *arg, const char *s), void *arg, char ***out, size_t *n)
{
	json_t *v = json_object_get(o, key), *x;
	size_t i;

	*out = NULL;
	*n = 0;
	if (!v)
		return required ? jrd_bad(rd, key, "is missing") : 0;
	if (json_is_null(v) && !required)
		return 0;
	if (!json_is_array(v))
		return jrd_bad(rd, key, "is not an array");
	*out = xcalloc(json_array_size(v) + 1, sizeof(**out));
	json_array_foreach (v, i, x) {
		if (!json_is_string(x))
			return jrd_bad(rd, key, "holds something that is not a string");
		(*out)[(*n)++] =
			copy ? copy(arg, json_string_value(x)) : xstrdup(json_string_value(x));
	}
	return 0;
}

int jrd_doubles(const struct jrd *rd, json_t *o, const char *key, double **out, size_t *n,
		size_t *cap)
{
	json_t *v = json_object_get(o, key), *x;
	size_t i;

	*out = NULL;
	*n = *cap = 0;
	if (!v)
		return 0;
	if (!json_is_array(v))
		return jrd_bad(rd, key, "is not an array");
	*cap = json_array_size(v);
	*out = xcalloc(*cap + 1, sizeof(double));
	json_array_foreach (v, i, x) {
		if (!json_is_number(x))
			return jrd_bad(rd, key, "holds something that is not a number");
		(*out)[(*n)++] = json_number_value(x);
	}
	return 0;
}
