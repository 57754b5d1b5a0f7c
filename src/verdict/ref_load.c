/* ref_load.c - reading the reference values of data/ (reference.h): where
 * they are, each kind's file, its runs and values. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "results/json_read.h"
#include "results/results_json.h"
#include "verdict/reference.h"

#ifndef MEMPATH_DATA
#define MEMPATH_DATA "data"
#endif

static int is_dir(const char *p)
{
	DIR *d = opendir(p);
	if (d)
		closedir(d);
	return d != NULL;
}

char *ref_dir(const char *dir)
{
	char exe[PATH_MAX];
	ssize_t n;
	const char *env = getenv("MEMPATH_REFS");
	if (dir)
		return xstrdup(dir);
	if (env && *env)
		return xstrdup(env);
	/* build/mempath -> data/: the tree the binary sits in, wherever it was
	 * copied to (a GPU machine gets the tree, not the build path). */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash, *cand;
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			cand = xasprintf("%s/../data", exe);
			if (is_dir(cand))
				return cand;
			free(cand);
			/* PREFIX/bin/mempath -> PREFIX/share/mempath/data (make install) */
			cand = xasprintf("%s/../share/mempath/data", exe);
			if (is_dir(cand))
				return cand;
			free(cand);
		}
	}
	return xstrdup(MEMPATH_DATA);
}

static void value_free(struct ref_value *v)
{
	free(v->path);
	free(v->means);
	free(v->probe);
	free(v->metric);
	fleet_labels_free(v->labels, v->n_labels);
	fleet_labels_free(v->params, v->n_params);
	free(v->source);
	free(v->date);
	free(v->other);
	free(v->tool);
	free(v->tf_probe);
	free(v->tf_metric);
	fleet_labels_free(v->tf_labels, v->n_tf_labels);
	free(v->limit);
}

static void kind_free(struct ref_kind *k)
{
	free(k->file);
	free(k->kind);
	free(k->about);
	free(k->cpu_model);
	free(k->gpu_model);
	for (size_t i = 0; i < k->n_runs; i++) {
		free(k->runs[i].probe);
		for (size_t j = 0; j < k->runs[i].n_opts; j++)
			free(k->runs[i].opts[j]);
		free(k->runs[i].opts);
	}
	free(k->runs);
	for (size_t i = 0; i < k->n_values; i++)
		value_free(&k->values[i]);
	free(k->values);
}

void ref_set_free(struct ref_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		kind_free(&s->kinds[i]);
	free(s->kinds);
	free(s->dir);
	memset(s, 0, sizeof(*s));
}

/* ---- reading ---- */

static int value_from(const struct jrd *rd, json_t *o, struct ref_value *v)
{
	json_t *val = json_object_get(o, "value"), *tol = json_object_get(o, "tolerance");
	char *unit = NULL;
	int rc;
	if (!json_is_object(o))
		return jrd_bad(rd, "", "is not an object");
	if (jrd_strdup(rd, o, "path", 1, &v->path) || jrd_strdup(rd, o, "means", 1, &v->means) ||
	    jrd_strdup(rd, o, "probe", 1, &v->probe) ||
	    jrd_strdup(rd, o, "metric", 1, &v->metric) ||
	    jrd_label_array(rd, o, "labels", &v->labels, &v->n_labels) ||
	    jrd_label_array(rd, o, "params", &v->params, &v->n_params) ||
	    jrd_strdup(rd, o, "source", 1, &v->source) || jrd_strdup(rd, o, "date", 1, &v->date) ||
	    jrd_strdup(rd, o, "other", 0, &v->other) || jrd_strdup(rd, o, "unit", 1, &unit) ||
	    jrd_strdup(rd, o, "limit", 0, &v->limit) || jrd_strdup(rd, o, "tool", 0, &v->tool))
		return free(unit), -1;
	json_t *tf = json_object_get(o, "tool_figure");
	if (tf && (!json_is_object(tf) || jrd_strdup(rd, tf, "probe", 1, &v->tf_probe) ||
		   jrd_strdup(rd, tf, "metric", 1, &v->tf_metric) ||
		   jrd_label_array(rd, tf, "labels", &v->tf_labels, &v->n_tf_labels)))
		return free(unit), tf && !json_is_object(tf)
					   ? jrd_bad(rd, "tool_figure", "is not an object")
					   : -1;
	rc = unit_parse(unit, &v->unit);
	free(unit);
	if (rc != 0)
		return jrd_bad(rd, "unit", "is not a unit mempath writes");
	if (v->limit) { /* a band: shares of the limit, no value */
		json_t *pass = json_object_get(o, "pass"), *warn = json_object_get(o, "warn");
		if (!pass && !warn) /* no band measured yet: INCONCLUSIVE, the source says why */
			return 0;
		if (!json_is_number(pass) || !json_is_number(warn) ||
		    !(json_number_value(warn) > 0) ||
		    !(json_number_value(pass) > json_number_value(warn)) ||
		    json_number_value(pass) > 1)
			return jrd_bad(rd, "pass and warn",
				       "are not shares of the limit with 0 < warn < pass <= 1");
		v->pass = json_number_value(pass);
		v->warn = json_number_value(warn);
		v->tolerance = 1 - v->pass;
		return 0;
	}
	if (!json_is_number(val) || !(json_number_value(val) > 0) ||
	    !isfinite(json_number_value(val)))
		return jrd_bad(rd, "value", "is not a positive number");
	if (!json_is_number(tol) || !(json_number_value(tol) > 0) || json_number_value(tol) >= 1)
		return jrd_bad(rd, "tolerance", "is not a fraction between 0 and 1");
	v->value = json_number_value(val);
	v->tolerance = json_number_value(tol);
	return 0;
}

static int run_from(const struct jrd *rd, json_t *o, struct ref_run *r)
{
	json_t *opts = json_object_get(o, "options"), *x;
	size_t i;
	if (!json_is_object(o))
		return jrd_bad(rd, "", "is not an object");
	if (jrd_strdup(rd, o, "probe", 1, &r->probe))
		return -1;
	r->quick = json_is_true(json_object_get(o, "quick"));
	if (opts && !json_is_array(opts))
		return jrd_bad(rd, "options", "is not an array");
	r->opts = xcalloc(json_array_size(opts) + 1, sizeof(char *));
	json_array_foreach (opts, i, x) {
		if (!json_is_string(x) || !strchr(json_string_value(x), '='))
			return jrd_bad(rd, "options", "holds something that is not name=value");
		r->opts[r->n_opts++] = xstrdup(json_string_value(x));
	}
	return 0;
}

/* A count of at most 2^20 (CPUs, GPUs); absent reads 0. */
static int count_at(const struct jrd *rd, json_t *o, const char *key, unsigned *out)
{
	size_t n;
	if (jrd_count(rd, o, key, 0, &n))
		return -1;
	if (n > 1u << 20)
		return jrd_bad(rd, key, "is not a count");
	*out = (unsigned)n;
	return 0;
}

static int kind_from(struct jrd *rd, json_t *j, struct ref_kind *k)
{
	json_t *schema = json_object_get(j, "schema"), *match = json_object_get(j, "match");
	json_t *runs = json_object_get(j, "run"), *values = json_object_get(j, "values");
	if (!json_is_object(j))
		return jrd_bad(rd, "top level", "is not an object");
	if (!json_is_string(schema) || strcmp(json_string_value(schema), REFERENCE_SCHEMA) != 0)
		return jrd_bad(rd, "schema", "is not " REFERENCE_SCHEMA);
	if (jrd_strdup(rd, j, "kind", 1, &k->kind) || jrd_strdup(rd, j, "about", 0, &k->about))
		return -1;
	if (!json_is_object(match))
		return jrd_bad(rd, "match", "is missing or not an object");
	if (jrd_strdup(rd, match, "cpu_model", 0, &k->cpu_model) ||
	    jrd_strdup(rd, match, "gpu_model", 0, &k->gpu_model) ||
	    count_at(rd, match, "cpus", &k->cpus) || count_at(rd, match, "gpus_min", &k->gpus_min))
		return -1;
	k->fallback = json_is_true(json_object_get(match, "fallback"));
	if (!json_is_array(runs) || !json_is_array(values) || json_array_size(values) == 0)
		return jrd_bad(rd, "run and values", "must be arrays, values not empty");
	k->runs = xcalloc(json_array_size(runs) + 1, sizeof(*k->runs));
	for (size_t i = 0; i < json_array_size(runs); i++) {
		snprintf(rd->path, sizeof(rd->path), "run[%zu]", i);
		k->n_runs++;
		if (run_from(rd, json_array_get(runs, i), &k->runs[i]) != 0)
			return -1;
	}
	k->values = xcalloc(json_array_size(values), sizeof(*k->values));
	for (size_t i = 0; i < json_array_size(values); i++) {
		snprintf(rd->path, sizeof(rd->path), "values[%zu]", i);
		k->n_values++;
		if (value_from(rd, json_array_get(values, i), &k->values[i]) != 0)
			return -1;
	}
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_json(const struct dirent *e)
{
	size_t n = strlen(e->d_name);
	return e->d_name[0] != '.' && n > 5 && strcmp(e->d_name + n - 5, ".json") == 0;
}

int ref_load(const char *dir, struct ref_set *out)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, is_json, by_name), rc = 0;
	memset(out, 0, sizeof(*out));
	out->dir = xstrdup(dir);
	if (n < 0)
		return error("cannot read the reference values in '%s': %s (--refs DIR or "
			     "MEMPATH_REFS)",
			     dir, strerror(errno));
	out->kinds = xcalloc((size_t)n + 1, sizeof(*out->kinds));
	for (int i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]->d_name);
		json_t *j = rc ? NULL : results_load_file(path);
		struct jrd rd = {.kind = "reference", .what = path, .path = ""};
		if (!rc && !j)
			rc = -1;
		if (j) {
			struct ref_kind *k = &out->kinds[out->n++];
			k->file = xstrdup(path);
			if (kind_from(&rd, j, k) != 0)
				rc = -1;
			json_decref(j);
		}
		free(path);
		free(names[i]);
	}
	free(names);
	return rc;
}
