/* fleet_json.c - the fleet model to and from JSON (fleet_json.h). Numbers
 * that are undefined (a median not judged, a value not measured) are null. */
#include "results/fleet_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "results/json_read.h"
#include "results/results_json.h"

/* ---- writing ---- */

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *labels_json(const struct label *l, size_t n)
{
	json_t *o = json_object();
	for (size_t i = 0; i < n; i++)
		json_object_set_new(o, l[i].key, json_string(l[i].value));
	return o;
}

static json_t *strs_json(char *const *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

json_t *fleet_check_to_json(const struct fleet_check *c)
{
	json_t *o = json_object();
	json_object_set_new(o, "kind", str_or_null(c->kind));
	json_object_set_new(o, "path", str_or_null(c->path));
	json_object_set_new(o, "means", str_or_null(c->means));
	json_object_set_new(o, "probe", str_or_null(c->probe));
	json_object_set_new(o, "metric", str_or_null(c->metric));
	json_object_set_new(o, "labels", labels_json(c->labels, c->n_labels));
	json_object_set_new(o, "unit", json_string(unit_name(c->unit)));
	json_object_set_new(o, "better", json_string(better_name(c->better)));
	json_object_set_new(o, "value", num_or_null(c->value));
	json_object_set_new(o, "reference", num_or_null(c->reference));
	json_object_set_new(o, "tolerance", num_or_null(c->tolerance));
	json_object_set_new(o, "source", str_or_null(c->source));
	json_object_set_new(o, "date", str_or_null(c->date));
	json_object_set_new(o, "other", str_or_null(c->other));
	json_object_set_new(o, "status", json_string(check_status_name(c->status)));
	if (c->reason)
		json_object_set_new(o, "reason", json_string(c->reason));
	if (c->tool)
		json_object_set_new(o, "tool", json_string(c->tool));
	if (c->note)
		json_object_set_new(o, "note", json_string(c->note));
	if (c->load)
		json_object_set_new(o, "load", json_string(c->load));
	if (c->rest)
		json_object_set_new(o, "rest", json_true());
	return o;
}

static json_t *flag_json(const struct fleet_flag *fl)
{
	json_t *o = json_object();
	json_object_set_new(o, "probe", str_or_null(fl->probe));
	json_object_set_new(o, "metric", str_or_null(fl->metric));
	json_object_set_new(o, "labels", labels_json(fl->labels, fl->n_labels));
	json_object_set_new(o, "unit", json_string(unit_name(fl->unit)));
	json_object_set_new(o, "better", json_string(better_name(fl->better)));
	json_object_set_new(o, "value", num_or_null(fl->value));
	json_object_set_new(o, "group_median", num_or_null(fl->group_median));
	json_object_set_new(o, "robust_z", num_or_null(fl->robust_z));
	json_object_set_new(o, "threshold", num_or_null(fl->threshold));
	json_object_set_new(o, "reference", fl->ref ? fleet_check_to_json(fl->ref) : json_null());
	json_object_set_new(o, "why", str_or_null(fl->why));
	if (fl->busy)
		json_object_set_new(o, "busy", json_string(fl->busy));
	return o;
}

static json_t *stat_json(const struct fleet_stat *s)
{
	json_t *o = json_object();
	json_object_set_new(o, "probe", str_or_null(s->probe));
	json_object_set_new(o, "metric", str_or_null(s->metric));
	json_object_set_new(o, "labels", labels_json(s->labels, s->n_labels));
	json_object_set_new(o, "unit", json_string(unit_name(s->unit)));
	json_object_set_new(o, "better", json_string(better_name(s->better)));
	json_object_set_new(o, "n", json_integer((json_int_t)s->n));
	json_object_set_new(o, "median", num_or_null(s->median));
	json_object_set_new(o, "mad", num_or_null(s->mad));
	json_object_set_new(o, "threshold", num_or_null(s->threshold));
	json_object_set_new(o, "not_judged", str_or_null(s->not_judged));
	json_object_set_new(o, "flagged", json_integer((json_int_t)s->n_flagged));
	return o;
}

static json_t *group_json(const struct fleet_group *g)
{
	json_t *o = json_object(), *stats = json_array();
	json_object_set_new(o, "key", str_or_null(g->key));
	json_object_set_new(o, "nodes", json_integer((json_int_t)g->n_nodes));
	json_object_set_new(o, "by_peers", json_boolean(g->by_peers));
	json_object_set_new(o, "judged", str_or_null(g->judged));
	json_object_set_new(o, "references", strs_json(g->refs, g->n_refs));
	for (size_t i = 0; i < g->n_stats; i++)
		json_array_append_new(stats, stat_json(&g->stats[i]));
	json_object_set_new(o, "metrics", stats);
	return o;
}

json_t *fleet_node_to_json(const struct fleet_node *n)
{
	json_t *o = json_object(), *flags = json_array(), *checks = json_array();
	json_object_set_new(o, "name", str_or_null(n->name));
	json_object_set_new(o, "host", str_or_null(n->host));
	json_object_set_new(o, "rank", n->rank >= 0 ? json_integer(n->rank) : json_null());
	json_object_set_new(o, "file", str_or_null(n->file));
	json_object_set_new(o, "group", json_integer((json_int_t)n->group));
	json_object_set_new(o, "error", str_or_null(n->error));
	json_object_set_new(o, "notes", strs_json(n->notes, n->n_notes));
	for (size_t i = 0; i < n->n_flags; i++)
		json_array_append_new(flags, flag_json(&n->flags[i]));
	json_object_set_new(o, "flags", flags);
	for (size_t i = 0; i < n->n_checks; i++)
		json_array_append_new(checks, fleet_check_to_json(&n->checks[i]));
	json_object_set_new(o, "checks", checks);
	/* a run kept as text is written by fleet_write as it came */
	json_object_set_new(o, "run", n->run && !n->run_json ? run_to_json(n->run) : json_null());
	return o;
}

static json_t *head_json(const struct fleet *fl)
{
	json_t *o = json_object(), *groups = json_array();
	json_object_set_new(o, "schema", json_string(FLEET_SCHEMA));
	json_object_set_new(o, "tool",
			    json_pack("{s:s, s:o, s:o}", "name", "mempath", "version",
				      str_or_null(fl->tool_version), "git",
				      str_or_null(fl->git_hash)));
	json_object_set_new(o, "created", str_or_null(fl->created));
	json_object_set_new(o, "source", str_or_null(fl->source));
	json_object_set_new(o, "mpi", str_or_null(fl->mpi));
	json_object_set_new(o, "argv", strs_json(fl->argv, fl->argc));
	json_object_set_new(o, "thresholds",
			    json_pack("{s:f, s:f, s:I}", "z", fl->th.z, "practical",
				      fl->th.practical, "min_group", (json_int_t)fl->th.min_group));
	json_object_set_new(o, "summary",
			    json_pack("{s:I, s:I, s:I}", "nodes", (json_int_t)fl->n_nodes,
				      "flagged", (json_int_t)fl->n_flagged, "groups",
				      (json_int_t)fl->n_groups));
	if (fl->n_busy) /* flagged nodes whose load explains every flag (§4.14) */
		json_object_set_new(json_object_get(o, "summary"), "busy",
				    json_integer((json_int_t)fl->n_busy));
	/* the family of peer tests (docs/design.md §5.9), once judged */
	if (isfinite(fl->test_alpha)) {
		json_t *sm = json_object_get(o, "summary");
		json_object_set_new(sm, "tests", json_integer((json_int_t)fl->n_tests));
		json_object_set_new(sm, "test_alpha", json_real(fl->test_alpha));
		json_object_set_new(sm, "expected_false_flags", json_real(fl->expected_false));
	}
	json_object_set_new(o, "notes", strs_json(fl->notes, fl->n_notes));
	for (size_t i = 0; i < fl->n_groups; i++)
		json_array_append_new(groups, group_json(&fl->groups[i]));
	json_object_set_new(o, "groups", groups);
	return o;
}

/* The head as one object, then "nodes" written one node at a time: a
 * thousand runs are never one JSON tree in memory. */
int fleet_write(const struct fleet *fl, FILE *f)
{
	json_t *head = head_json(fl);
	char *text = json_dumps(head, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	size_t len = text ? strlen(text) : 0;
	json_decref(head);
	if (len < 2)
		return free(text), error("cannot serialise the fleet");
	text[len - 1] = '\0'; /* the closing brace: "nodes" follows */
	fputs(text, f);
	free(text);
	fputs(",\n \"nodes\": [", f);
	for (size_t i = 0; i < fl->n_nodes; i++) {
		/* each node dumped to a string, then written once; a run that
		 * came as text is written as it came */
		const struct fleet_node *nd = &fl->nodes[i];
		json_t *n = fleet_node_to_json(nd);
		char *s;
		if (nd->run_json)
			json_object_del(n, "run");
		s = json_dumps(n, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
		json_decref(n);
		if (!s || strlen(s) < 2)
			return free(s), error("cannot serialise node '%s'", nd->name);
		fputs(i ? ",\n" : "\n", f);
		if (nd->run_json) {
			s[strlen(s) - 2] = '\0'; /* "\n}": the run follows */
			fprintf(f, "%s,\n \"run\": %s\n}", s, nd->run_json);
		} else {
			fputs(s, f);
		}
		free(s);
	}
	fputs("\n ]\n}\n", f);
	return ferror(f) ? error("cannot write the fleet") : 0;
}

static int render(const void *arg, FILE *f)
{
	return fleet_write(arg, f);
}

int fleet_write_file(const struct fleet *fl, const char *path)
{
	if (!path)
		return error("no path for the fleet file");
	return write_rendered(path, render, fl);
}

/* ---- reading ---- */

static int get_unit_better(const struct jrd *rd, json_t *o, enum unit *u, enum better *b)
{
	json_t *vu = json_object_get(o, "unit"), *vb = json_object_get(o, "better");
	if (!json_is_string(vu) || unit_parse(json_string_value(vu), u) != 0)
		return jrd_bad(rd, "unit", "is missing or not a known unit");
	if (!json_is_string(vb) || better_parse(json_string_value(vb), b) != 0)
		return jrd_bad(rd, "better", "is not higher, lower or none");
	return 0;
}

static int check_from(const struct jrd *rd, json_t *o, struct fleet_check *c)
{
	json_t *st = json_object_get(o, "status");
	memset(c, 0, sizeof(*c));
	if (!json_is_object(o))
		return jrd_bad(rd, "", "is not an object");
	if (jrd_strdup(rd, o, "kind", 0, &c->kind) || jrd_strdup(rd, o, "path", 1, &c->path) ||
	    jrd_strdup(rd, o, "means", 0, &c->means) || jrd_strdup(rd, o, "probe", 1, &c->probe) ||
	    jrd_strdup(rd, o, "metric", 1, &c->metric) ||
	    jrd_label_array(rd, o, "labels", &c->labels, &c->n_labels) ||
	    get_unit_better(rd, o, &c->unit, &c->better) ||
	    jrd_num(rd, o, "value", 0, NAN, &c->value) ||
	    jrd_num(rd, o, "reference", 0, NAN, &c->reference) ||
	    jrd_num(rd, o, "tolerance", 0, NAN, &c->tolerance) ||
	    jrd_strdup(rd, o, "source", 0, &c->source) || jrd_strdup(rd, o, "date", 0, &c->date) ||
	    jrd_strdup(rd, o, "other", 0, &c->other) ||
	    jrd_strdup(rd, o, "reason", 0, &c->reason) || jrd_strdup(rd, o, "tool", 0, &c->tool) ||
	    jrd_strdup(rd, o, "note", 0, &c->note) || jrd_strdup(rd, o, "load", 0, &c->load))
		return -1;
	c->rest = json_is_true(json_object_get(o, "rest"));
	if (!json_is_string(st) || check_status_parse(json_string_value(st), &c->status) != 0)
		return jrd_bad(rd, "status", "is not PASS, WARN, FAIL or INCONCLUSIVE");
	return 0;
}

static int flag_from(const struct jrd *rd, json_t *o, struct fleet_flag *fl)
{
	json_t *ref = json_object_get(o, "reference");
	memset(fl, 0, sizeof(*fl));
	if (!json_is_object(o))
		return jrd_bad(rd, "", "is not an object");
	if (jrd_strdup(rd, o, "probe", 1, &fl->probe) ||
	    jrd_strdup(rd, o, "metric", 0, &fl->metric) ||
	    jrd_label_array(rd, o, "labels", &fl->labels, &fl->n_labels) ||
	    get_unit_better(rd, o, &fl->unit, &fl->better) ||
	    jrd_num(rd, o, "value", 0, NAN, &fl->value) ||
	    jrd_num(rd, o, "group_median", 0, NAN, &fl->group_median) ||
	    jrd_num(rd, o, "robust_z", 0, NAN, &fl->robust_z) ||
	    jrd_num(rd, o, "threshold", 0, NAN, &fl->threshold) ||
	    jrd_strdup(rd, o, "why", 1, &fl->why) || jrd_strdup(rd, o, "busy", 0, &fl->busy))
		return -1;
	if (ref && !json_is_null(ref)) {
		fl->ref = xcalloc(1, sizeof(*fl->ref));
		return check_from(rd, ref, fl->ref);
	}
	return 0;
}

static int stat_from(const struct jrd *rd, json_t *o, struct fleet_stat *s)
{
	memset(s, 0, sizeof(*s));
	if (!json_is_object(o))
		return jrd_bad(rd, "", "is not an object");
	return jrd_strdup(rd, o, "probe", 1, &s->probe) ||
			       jrd_strdup(rd, o, "metric", 1, &s->metric) ||
			       jrd_label_array(rd, o, "labels", &s->labels, &s->n_labels) ||
			       get_unit_better(rd, o, &s->unit, &s->better) ||
			       jrd_count(rd, o, "n", 0, &s->n) ||
			       jrd_num(rd, o, "median", 0, NAN, &s->median) ||
			       jrd_num(rd, o, "mad", 0, NAN, &s->mad) ||
			       jrd_num(rd, o, "threshold", 0, NAN, &s->threshold) ||
			       jrd_strdup(rd, o, "not_judged", 0, &s->not_judged) ||
			       jrd_count(rd, o, "flagged", 0, &s->n_flagged)
		       ? -1
		       : 0;
}

/* Reads the array o[key] into *v (elements of size sz) with fn. */
static int get_array(struct jrd *rd, json_t *o, const char *key, void **v, size_t *n, size_t sz,
		     int (*fn)(const struct jrd *, json_t *, void *))
{
	json_t *a = json_object_get(o, key);
	size_t base = strlen(rd->path);
	*v = NULL;
	*n = 0;
	if (!a || json_is_null(a))
		return 0;
	if (!json_is_array(a))
		return jrd_bad(rd, key, "is not an array");
	*v = xcalloc(json_array_size(a) + 1, sz);
	for (size_t i = 0; i < json_array_size(a); i++) {
		int rc;
		snprintf(rd->path + base, sizeof(rd->path) - base, "%s%s[%zu]", base ? "." : "",
			 key, i);
		rc = fn(rd, json_array_get(a, i), (char *)*v + i * sz);
		(*n)++; /* counted either way, so the caller frees what was read */
		if (rc != 0)
			return -1;
	}
	rd->path[base] = '\0';
	return 0;
}

static int check_from_v(const struct jrd *rd, json_t *o, void *p)
{
	return check_from(rd, o, p);
}

static int flag_from_v(const struct jrd *rd, json_t *o, void *p)
{
	return flag_from(rd, o, p);
}

static int stat_from_v(const struct jrd *rd, json_t *o, void *p)
{
	return stat_from(rd, o, p);
}

static int group_from_v(const struct jrd *crd, json_t *o, void *p)
{
	struct fleet_group *g = p;
	struct jrd rd = *crd;
	if (!json_is_object(o))
		return jrd_bad(&rd, "", "is not an object");
	g->by_peers = json_is_true(json_object_get(o, "by_peers"));
	return jrd_strdup(&rd, o, "key", 1, &g->key) ||
			       jrd_count(&rd, o, "nodes", 0, &g->n_nodes) ||
			       jrd_strdup(&rd, o, "judged", 0, &g->judged) ||
			       jrd_strs(&rd, o, "references", 0, NULL, NULL, &g->refs,
					&g->n_refs) ||
			       get_array(&rd, o, "metrics", (void **)&g->stats, &g->n_stats,
					 sizeof(*g->stats), stat_from_v)
		       ? -1
		       : 0;
}

static int node_from(struct jrd *rd, json_t *o, struct fleet *fl, size_t n_groups)
{
	struct fleet_node *n;
	json_t *rank = json_object_get(o, "rank"), *run = json_object_get(o, "run");
	char *name = NULL, *host = NULL, *file = NULL;
	size_t group = 0;
	if (!json_is_object(o))
		return jrd_bad(rd, "", "is not an object");
	if (jrd_strdup(rd, o, "name", 1, &name) || jrd_strdup(rd, o, "host", 0, &host) ||
	    jrd_strdup(rd, o, "file", 0, &file) || jrd_count(rd, o, "group", 0, &group)) {
		free(name);
		free(host);
		return -1;
	}
	n = fleet_add_node(fl, name, host,
			   json_is_integer(rank) ? (int)json_integer_value(rank) : -1, file, NULL);
	free(name);
	free(host);
	free(file);
	if (rank && !json_is_null(rank) &&
	    (!json_is_integer(rank) || json_integer_value(rank) < 0 ||
	     json_integer_value(rank) > 1 << 30))
		return jrd_bad(rd, "rank", "is not a rank");
	if (group >= n_groups && n_groups > 0)
		return jrd_bad(rd, "group", "names no group");
	n->group = group;
	if (jrd_strdup(rd, o, "error", 0, &n->error) ||
	    jrd_strs(rd, o, "notes", 0, NULL, NULL, &n->notes, &n->n_notes) ||
	    get_array(rd, o, "flags", (void **)&n->flags, &n->n_flags, sizeof(*n->flags),
		      flag_from_v) ||
	    get_array(rd, o, "checks", (void **)&n->checks, &n->n_checks, sizeof(*n->checks),
		      check_from_v))
		return -1;
	if (run && !json_is_null(run)) {
		char *what = xasprintf("%s (%s.run)", rd->what, rd->path);
		n->run = run_from_json(run, what);
		free(what);
		if (!n->run)
			return -1;
	} else if (!n->error) {
		return jrd_bad(rd, "run", "is missing and no error says why");
	}
	return 0;
}

static int head_from(struct jrd *rd, json_t *j, struct fleet *fl)
{
	json_t *tool = json_object_get(j, "tool"), *th = json_object_get(j, "thresholds");
	double z, practical, min_group;
	if (tool && json_is_object(tool) &&
	    (jrd_strdup(rd, tool, "version", 0, &fl->tool_version) ||
	     jrd_strdup(rd, tool, "git", 0, &fl->git_hash)))
		return -1;
	if (jrd_strdup(rd, j, "created", 0, &fl->created) ||
	    jrd_strdup(rd, j, "source", 0, &fl->source) || jrd_strdup(rd, j, "mpi", 0, &fl->mpi) ||
	    jrd_strs(rd, j, "argv", 0, NULL, NULL, &fl->argv, &fl->argc) ||
	    jrd_strs(rd, j, "notes", 0, NULL, NULL, &fl->notes, &fl->n_notes))
		return -1;
	if (!th || !json_is_object(th))
		return jrd_bad(rd, "thresholds", "is missing or not an object");
	if (jrd_num(rd, th, "z", 0, NAN, &z) || jrd_num(rd, th, "practical", 0, NAN, &practical) ||
	    jrd_num(rd, th, "min_group", 0, NAN, &min_group))
		return -1;
	if (!(z > 0) || !(practical >= 0) || !(min_group >= 1 && min_group < 1e6))
		return jrd_bad(rd, "thresholds", "holds a value out of range");
	fl->th.z = z;
	fl->th.practical = practical;
	{
		json_t *sm = json_object_get(j, "summary");
		if (json_is_object(sm) && json_object_get(sm, "test_alpha") &&
		    (jrd_count(rd, sm, "tests", 1, &fl->n_tests) ||
		     jrd_num(rd, sm, "test_alpha", 1, NAN, &fl->test_alpha) ||
		     jrd_num(rd, sm, "expected_false_flags", 1, NAN, &fl->expected_false)))
			return -1;
	}
	fl->th.min_group = (unsigned)min_group;
	return get_array(rd, j, "groups", (void **)&fl->groups, &fl->n_groups, sizeof(*fl->groups),
			 group_from_v);
}

struct fleet *fleet_from_json(json_t *j, const char *what)
{
	struct jrd rd = {.kind = "mempath fleet", .what = what, .path = ""};
	struct fleet *fl = fleet_new();
	json_t *nodes, *schema = json_object_get(j, "schema");
	if (!json_is_object(j)) {
		jrd_bad(&rd, "top level", "is not an object");
		goto fail;
	}
	if (!json_is_string(schema) || strcmp(json_string_value(schema), FLEET_SCHEMA) != 0) {
		error("'%s' is not a fleet file (schema '%s', expected '%s')", what,
		      json_is_string(schema) ? json_string_value(schema) : "?", FLEET_SCHEMA);
		goto fail;
	}
	if (head_from(&rd, j, fl) != 0)
		goto fail;
	nodes = json_object_get(j, "nodes");
	if (!nodes || !json_is_array(nodes)) {
		jrd_bad(&rd, "nodes", "is missing or not an array");
		goto fail;
	}
	for (size_t i = 0; i < json_array_size(nodes); i++) {
		snprintf(rd.path, sizeof(rd.path), "nodes[%zu]", i);
		if (node_from(&rd, json_array_get(nodes, i), fl, fl->n_groups) != 0)
			goto fail;
	}
	for (size_t i = 0; i < fl->n_nodes; i++) {
		fl->n_flagged += fl->nodes[i].n_flags > 0;
		fl->n_busy += fleet_node_busy(&fl->nodes[i]);
	}
	return fl;
fail:
	fleet_free(fl);
	return NULL;
}
