/* import.c - `mempath import FILE...`: the reference tools' outputs
 * (nvbandwidth, STREAM, multichase, gpu-benches) read into a results file
 * of their own kind, one probe "ref.TOOL" a file (results/import.h), for
 * check --beside and compare (docs/design.md §5.20). */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "cmd/args.h"
#include "machine/sysinfo.h"
#include "results/import.h"
#include "results/results_json.h"

struct import_opts {
	const char *tool, *out;
};

static const struct arg import_args[] = {
	ARG_STR("tool", 0, struct import_opts, tool, "T",
		"which tool wrote every FILE (nvbandwidth, stream, multichase, gpu-l2-cache, "
		"gpu-stream, gpu-latency; default: found from each file's marks)"),
	ARG_STR("output", 'o', struct import_opts, out, "FILE",
		"the results file to write (default: stdout, as JSON)"),
	ARG_END};

static int import_main(void *p, const struct cmd_line *l)
{
	const struct import_opts *o = p;
	struct run *r;
	char now[32];
	int rc = 0;
	if (l->argc < 1)
		return error("import reads at least one tool's output (see 'mempath import "
			     "--help')"),
		       2;
	if (o->tool) {
		int known = 0;
		for (size_t i = 0; import_tools[i]; i++)
			known |= strcmp(o->tool, import_tools[i]) == 0;
		if (!known)
			return error("--tool '%s' is not one of nvbandwidth, stream, multichase, "
				     "gpu-l2-cache, gpu-stream, gpu-latency",
				     o->tool),
			       2;
	}
	r = run_new();
	r->tool_version = xstrdup(MEMPATH_VERSION);
	r->git_hash = xstrdup(MEMPATH_GIT);
	r->suite = xstrdup("import");
	time_iso8601(now, sizeof(now));
	r->start_time = xstrdup(now);
	r->end_time = xstrdup(now);
	r->host = sysinfo_collect(); /* where the tools ran: import beside them */
	for (int i = 0; i < l->argc && rc == 0; i++) {
		size_t len = 0;
		char *text = read_file_str(l->argv[i], &len), why[256];
		const char *tool = o->tool;
		struct probe_result pr;
		if (!text) {
			rc = error("cannot read '%s'", l->argv[i]);
			break;
		}
		if (!tool && !(tool = import_detect(text))) {
			rc = error(
				"'%s' is no output of a tool mempath reads (nvbandwidth, STREAM, "
				"multichase, gpu-l2-cache, gpu-stream, gpu-latency; --tool T "
				"says which)",
				l->argv[i]);
		} else if (import_read(tool, text, &pr, why, sizeof(why)) != 0) {
			rc = error("'%s': %s", l->argv[i], why);
			probe_result_clear(&pr);
		} else {
			probe_result_add_param(&pr, "file", l->argv[i]);
			run_take_probe(r, &pr);
		}
		free(text);
	}
	r->complete = 1;
	if (rc == 0) {
		if (o->out)
			rc = run_write_file(r, o->out) != 0;
		else {
			json_t *j = run_to_json(r);
			char *s = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
			rc = !s || puts(s) < 0;
			free(s);
			json_decref(j);
		}
	} else {
		rc = 2;
	}
	run_free(r);
	return rc;
}

const struct command command_import = {
	.name = "import",
	.pos = POS_FILES,
	.summary = "read the reference tools' outputs into a results file of their own kind",
	.synopsis = "FILE...",
	.about = "Reads what nvbandwidth (its JSON, -j, or its text), STREAM, multichase and\n"
		 "gpu-benches' gpu-l2-cache, gpu-stream and gpu-latency printed, as each\n"
		 "counts its figures, into a results file: one probe ref.TOOL a file (its\n"
		 "figures as metrics, the tool's version and the file as params) and this\n"
		 "machine's fingerprint (import beside the tools' run). check --beside FILE\n"
		 "then judges mempath's figures against these, a ratio a line.\n",
	.examples = "mempath import nvb.txt stream.txt -o tools.json\n"
		    "mempath import --tool multichase chase.txt -o chase.json\n",
	.tail = "Exit status: 0 written, 1 the file could not be written, 2 bad usage or a file\n"
		"that is no tool's output.\n",
	.args = import_args,
	.opts_size = sizeof(struct import_opts),
	.run = import_main,
};
