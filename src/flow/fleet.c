/* fleet.c - `mempath fleet` over MPI and `fleet merge` (fleet.h). */
#include "flow/fleet.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/proc.h"
#include "base/strvec.h"
#include "base/util.h"
#include "exec/mpi.h"
#include "exec/session.h"
#include "results/fleet_json.h"
#include "results/results_json.h"
#include "verdict/fleet_judge.h"

static void fleet_head(struct fleet *f, const char *source, int argc, char **argv)
{
	struct strvec v = STRVEC_INIT;
	char now[32];

	time_iso8601(now, sizeof(now));
	f->tool_version = xstrdup(MEMPATH_VERSION);
	f->git_hash = xstrdup(MEMPATH_GIT);
	f->created = xstrdup(now);
	f->source = xstrdup(source);
	strvec_pushv(&v, argv, (size_t)argc);
	f->argc = v.n;
	f->argv = strvec_detach(&v);
}

/* ---- one node ---- */

/* This rank's run: the session of `mempath run`, in the host's turn. NULL
 * when it could not start (error printed). */
static struct run *run_node(const struct fleet_plan *pl, const struct mpi_ops *mpi)
{
	struct session s;
	char *path = NULL;
	memset(&s, 0, sizeof(s));
	s.ropts = pl->ropts;
	if (pl->node_dir) {
		mkdir(pl->node_dir, 0777); /* exists already, or the write below says why */
		path = xasprintf("%s/%s-%d.json", pl->node_dir, mpi->host(), mpi->rank());
		for (char *c = path + strlen(pl->node_dir) + 1; *c; c++)
			if (*c == '/')
				*c = '_';
	}
	s.out_path = path;
	s.total = (unsigned)pl->n_items;
	if (session_begin(&s, pl->argc, pl->argv, pl->label, pl->suite) != 0) {
		run_free(s.run);
		free(path);
		return NULL;
	}
	for (size_t i = 0; i < pl->n_items && !proc_signal_received(); i++) {
		/* a GPU probe on a node without one: skipped with the reason (§2.9) */
		char *why = session_not_here(&s, pl->items[i].probe);
		int rc = why ? session_skip_probe(&s, pl->items[i].probe, why)
			     : session_run_probe(&s, pl->items[i].probe, pl->items[i].kvs,
						 pl->items[i].n_kvs);
		free(why);
		if (rc != 0)
			break;
	}
	session_end(&s);
	free(path);
	return s.run;
}

/* What a rank sends: a line of JSON with its host and rank (or why there is
 * no run), then its run as the text of a results file, which rank 0 keeps
 * and writes as it came. */
static char *node_message(const struct mpi_ops *mpi, const struct run *r)
{
	json_t *o = json_object(), *rj = r ? run_to_json(r) : NULL;
	char *head, *run = rj ? json_dumps(rj, JSON_INDENT(1) | JSON_PRESERVE_ORDER) : NULL, *msg;
	json_object_set_new(o, "host", json_string(mpi->host()));
	json_object_set_new(o, "rank", json_integer(mpi->rank()));
	if (!r)
		json_object_set_new(o, "error",
				    json_string("the run could not start (see that rank's "
						"standard error)"));
	head = json_dumps(o, JSON_COMPACT); /* one line: newlines in strings are escaped */
	msg = xasprintf("%s\n%s", head ? head : "{}", run ? run : "");
	json_decref(o);
	json_decref(rj);
	free(head);
	free(run);
	return msg;
}

/* A node from a rank's message; a message that cannot be read is a node
 * with an error, never a lost node. */
static void add_message(struct fleet *f, int from, char *text, size_t len)
{
	json_error_t err;
	char *nl = memchr(text, '\n', len), *what = xasprintf("the results of rank %d", from);
	json_t *head = nl ? json_loadb(text, (size_t)(nl - text), 0, &err) : NULL, *run = NULL;
	const char *host = json_string_value(json_object_get(head, "host"));
	struct fleet_node *n;
	char name[64];
	snprintf(name, sizeof(name), "rank %d", from);
	if (head && nl[1])
		run = json_loadb(nl + 1, len - (size_t)(nl + 1 - text), JSON_REJECT_DUPLICATES,
				 &err);
	n = fleet_add_node(f, name, host ? host : "?", from, NULL,
			   run ? run_from_json(run, what) : NULL);
	if (!head)
		n->error = xstrdup("its message could not be read");
	else if (!n->run)
		n->error =
			xstrdup(json_string_value(json_object_get(head, "error"))
					?: "its results could not be read (see the error above)");
	else
		n->run_json = xstrdup(nl + 1);
	json_decref(head);
	json_decref(run);
	free(what);
}

static int by_rank(const void *a, const void *b)
{
	const struct fleet_node *x = a, *y = b;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* host, or host:rank where ranks share a host. */
static void name_nodes(struct fleet *f)
{
	qsort(f->nodes, f->n_nodes, sizeof(*f->nodes), by_rank);
	for (size_t i = 0; i < f->n_nodes; i++) {
		size_t same = 0;
		for (size_t k = 0; k < f->n_nodes; k++)
			same += strcmp(f->nodes[k].host, f->nodes[i].host) == 0;
		free(f->nodes[i].name);
		f->nodes[i].name = same > 1 ? xasprintf("%s:%d", f->nodes[i].host, f->nodes[i].rank)
					    : xstrdup(f->nodes[i].host);
	}
}

/* Rank 0: its own node, then each other rank's as it arrives. */
static struct fleet *gather(const struct fleet_plan *pl, const struct mpi_ops *mpi, struct run *own)
{
	struct fleet *f = fleet_new();
	int size = mpi->size();
	fleet_head(f, "mpi", pl->argc, pl->argv);
	f->mpi = xstrdup(mpi->name);
	f->th = pl->th;
	fleet_add_node(f, "rank 0", mpi->host(), 0, NULL, own);
	if (!own)
		f->nodes[0].error = xstrdup("the run could not start (see the error above)");
	for (int k = 1; k < size; k++) {
		char *text = NULL;
		size_t len = 0;
		int from = -1;
		if (mpi->recv_result(&from, &text, &len) != 0) {
			fleet_free(f);
			return NULL;
		}
		add_message(f, from, text, len);
		free(text);
		progress("fleet: results of rank %d in (%d of %d)", from, k + 1, size);
	}
	name_nodes(f);
	return f;
}

int fleet_flow_mpi(const struct fleet_plan *pl, struct fleet **out)
{
	const struct mpi_ops *mpi = mpi_get();
	struct run *r;
	int rank, rc = 0;
	*out = NULL;
	if (!mpi)
		return error("%s: run 'mempath run -o FILE' on each node and 'mempath fleet merge "
			     "FILE...'",
			     mpi_unsupported_reason());
	if (mpi->init() != 0)
		return -1;
	rank = mpi->rank();
	if (rank != 0)
		util_set_quiet(1); /* one progress stream: rank 0's */
	proc_signals_install();
	/* ranks of one host take turns: never two measuring at once */
	if (mpi->turn_wait() != 0) {
		mpi->abort(1);
		return -1;
	}
	progress("fleet: rank %d of %d on %s measuring (%d of %d on this host)", rank, mpi->size(),
		 mpi->host(), mpi->local_rank() + 1, mpi->local_size());
	r = run_node(pl, mpi);
	if (mpi->turn_pass() != 0) {
		mpi->abort(1);
		return -1;
	}
	if (rank != 0) {
		char *text = node_message(mpi, r);
		rc = text && mpi->send_result(text, strlen(text)) == 0 && mpi->wait_release() == 0
			     ? 0
			     : -1;
		free(text);
		run_free(r);
	} else {
		*out = gather(pl, mpi, r);
		rc = *out && mpi->release() == 0 ? 0 : -1;
		if (*out)
			fleet_judge(*out, pl->refs);
	}
	if (rc != 0)
		mpi->abort(1);
	mpi->finalize();
	return rc;
}

/* ---- merge ---- */

static int add_file(struct fleet *f, const char *arg)
{
	const char *eq = strchr(arg, '='), *file = eq ? eq + 1 : arg, *schema, *host;
	json_t *j;
	struct run *r;
	char *name, *text = NULL;
	size_t text_len = 0;
	if (eq && eq == arg)
		return error("'%s': an empty node name (NAME=FILE)", arg);
	j = results_load_file_text(file, &text, &text_len);
	if (!j)
		return -1;
	schema = json_string_value(json_object_get(j, "schema"));
	if (schema && strcmp(schema, FLEET_SCHEMA) == 0) {
		json_decref(j);
		free(text);
		return error("'%s' is a fleet file; merge takes results files (mempath/run/1)",
			     file);
	}
	r = run_from_json(j, file);
	json_decref(j);
	if (!r)
		return free(text), -1;
	host = json_string_value(json_object_get(r->host, "hostname"));
	name = eq ? xasprintf("%.*s", (int)(eq - arg), arg) : xstrdup(host ? host : file);
	for (size_t i = 0; i < f->n_nodes; i++) {
		const struct fleet_node *o = &f->nodes[i];
		int rc = 0;
		if (same_file(o->file, file))
			rc = error("'%s' is given twice (as '%s')", file, o->file);
		else if (run_same(o->run, r))
			rc = error("'%s' holds the same run as '%s' (a copy: host %s, started %s, "
				   "every sample equal)",
				   file, o->file, host, r->start_time);
		else if (strcmp(o->name, name) == 0)
			rc = error("two nodes named '%s': '%s' and '%s' (name them apart: "
				   "NAME=FILE)",
				   name, o->file, file);
		if (rc) {
			free(name);
			free(text);
			run_free(r);
			return -1;
		}
	}
	fleet_add_node(f, name, host ? host : "?", -1, file, r)->run_json = text;
	if (!r->complete)
		fleet_node_note(&f->nodes[f->n_nodes - 1],
				"incomplete run: the file was saved before its run ended");
	free(name);
	return 0;
}

struct fleet *fleet_flow_merge(char *const *args, size_t n, const struct fleet_thresholds *th,
			       const struct ref_set *refs, int argc, char **argv)
{
	struct fleet *f = fleet_new();
	fleet_head(f, "merge", argc, argv);
	f->th = *th;
	for (size_t i = 0; i < n; i++)
		if (add_file(f, args[i]) != 0) {
			fleet_free(f);
			return NULL;
		}
	/* files of other versions join on what each records (docs/design.md §3.1) */
	for (size_t i = 1; i < f->n_nodes; i++) {
		const struct run *a = f->nodes[0].run, *b = f->nodes[i].run;
		if (strcmp(a->tool_version ?: "?", b->tool_version ?: "?") != 0 ||
		    strcmp(a->git_hash ?: "?", b->git_hash ?: "?") != 0) {
			fleet_add_note(
				f,
				"files from different mempath builds ('%s': %s %s, '%s': "
				"%s %s): metrics are matched on the options each file records",
				f->nodes[0].file, a->tool_version ?: "?", a->git_hash ?: "?",
				f->nodes[i].file, b->tool_version ?: "?", b->git_hash ?: "?");
			break;
		}
	}
	fleet_judge(f, refs);
	return f;
}
