/* fleet.c - the in-memory fleet model (see fleet.h for ownership). */
#include "results/fleet.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static const char *const check_names[] = {"PASS", "WARN", "FAIL", "INCONCLUSIVE"};

const char *check_status_name(enum check_status s)
{
	return (unsigned)s < ARRAY_SIZE(check_names) ? check_names[s] : "INCONCLUSIVE";
}

int check_status_parse(const char *s, enum check_status *out)
{
	if (strcmp(s, "n/a") == 0) { /* files written before INCONCLUSIVE */
		*out = CHECK_NA;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(check_names); i++)
		if (strcmp(check_names[i], s) == 0) {
			*out = (enum check_status)i;
			return 0;
		}
	return -1;
}

void fleet_thresholds_default(struct fleet_thresholds *th)
{
	th->z = 3.5;
	th->practical = 0.05;
	th->min_group = 5;
}

struct fleet *fleet_new(void)
{
	struct fleet *f = xcalloc(1, sizeof(*f));
	fleet_thresholds_default(&f->th);
	f->test_alpha = f->expected_false = NAN;
	return f;
}

struct label *fleet_labels_dup(const struct label *l, size_t n)
{
	struct label *d = xcalloc(n ? n : 1, sizeof(*d));
	for (size_t i = 0; i < n; i++) {
		d[i].key = xstrdup(l[i].key);
		d[i].value = xstrdup(l[i].value);
	}
	return d;
}

void fleet_labels_free(struct label *l, size_t n)
{
	for (size_t i = 0; l && i < n; i++) {
		free(l[i].key);
		free(l[i].value);
	}
	free(l);
}

static void strs_free(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

void fleet_check_clear(struct fleet_check *c)
{
	free(c->kind);
	free(c->path);
	free(c->means);
	free(c->probe);
	free(c->metric);
	fleet_labels_free(c->labels, c->n_labels);
	free(c->source);
	free(c->date);
	free(c->other);
	free(c->load);
	free(c->reason);
	free(c->tool);
	free(c->note);
	memset(c, 0, sizeof(*c));
}

void fleet_flag_clear(struct fleet_flag *fl)
{
	free(fl->probe);
	free(fl->metric);
	fleet_labels_free(fl->labels, fl->n_labels);
	if (fl->ref) {
		fleet_check_clear(fl->ref);
		free(fl->ref);
	}
	free(fl->why);
	free(fl->busy);
	memset(fl, 0, sizeof(*fl));
}

int fleet_node_busy(const struct fleet_node *n)
{
	for (size_t i = 0; i < n->n_flags; i++)
		if (!n->flags[i].busy)
			return 0;
	return n->n_flags > 0;
}

void fleet_stat_clear(struct fleet_stat *s)
{
	free(s->probe);
	free(s->metric);
	fleet_labels_free(s->labels, s->n_labels);
	free(s->not_judged);
	memset(s, 0, sizeof(*s));
}

void fleet_clear_verdicts(struct fleet *f)
{
	for (size_t g = 0; g < f->n_groups; g++) {
		struct fleet_group *gr = &f->groups[g];
		free(gr->key);
		free(gr->judged);
		strs_free(gr->refs, gr->n_refs);
		for (size_t i = 0; i < gr->n_stats; i++)
			fleet_stat_clear(&gr->stats[i]);
		free(gr->stats);
	}
	free(f->groups);
	f->groups = NULL;
	f->n_groups = 0;
	for (size_t i = 0; i < f->n_nodes; i++) {
		struct fleet_node *n = &f->nodes[i];
		for (size_t k = 0; k < n->n_flags; k++)
			fleet_flag_clear(&n->flags[k]);
		free(n->flags);
		for (size_t k = 0; k < n->n_checks; k++)
			fleet_check_clear(&n->checks[k]);
		free(n->checks);
		n->flags = NULL;
		n->checks = NULL;
		n->n_flags = n->n_checks = 0;
	}
	f->n_flagged = 0;
	f->n_busy = 0;
}

void fleet_free(struct fleet *f)
{
	if (!f)
		return;
	fleet_clear_verdicts(f);
	for (size_t i = 0; i < f->n_nodes; i++) {
		struct fleet_node *n = &f->nodes[i];
		free(n->name);
		free(n->host);
		free(n->file);
		run_free(n->run);
		free(n->run_json);
		free(n->error);
		strs_free(n->notes, n->n_notes);
	}
	free(f->nodes);
	free(f->tool_version);
	free(f->git_hash);
	free(f->created);
	free(f->source);
	free(f->mpi);
	strs_free(f->argv, f->argc);
	strs_free(f->notes, f->n_notes);
	free(f);
}

struct fleet_node *fleet_add_node(struct fleet *f, const char *name, const char *host, int rank,
				  const char *file, struct run *run)
{
	struct fleet_node *n;
	if (f->n_nodes == f->cap_nodes) {
		f->cap_nodes = f->cap_nodes ? 2 * f->cap_nodes : 16;
		f->nodes = xrealloc(f->nodes, f->cap_nodes * sizeof(*f->nodes));
	}
	n = &f->nodes[f->n_nodes++];
	memset(n, 0, sizeof(*n));
	n->name = xstrdup(name);
	n->host = xstrdup(host ? host : name);
	n->rank = rank;
	n->file = file ? xstrdup(file) : NULL;
	n->run = run;
	return n;
}

static char *vformat(const char *fmt, va_list ap)
{
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0) {
		error("out of memory");
		exit(1);
	}
	return s;
}

void fleet_add_note(struct fleet *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	GROW_ONE(f->notes, f->n_notes);
	f->notes[f->n_notes++] = vformat(fmt, ap);
	va_end(ap);
}

void fleet_node_note(struct fleet_node *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	GROW_ONE(n->notes, n->n_notes);
	n->notes[n->n_notes++] = vformat(fmt, ap);
	va_end(ap);
}
