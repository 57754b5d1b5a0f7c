/* probe.c - `mempath probe NAME [name=value ...]`: one probe. */
#include <stdlib.h>
#include <string.h>

#include "base/proc.h"
#include "base/strvec.h"
#include "base/suggest.h"
#include "base/util.h"
#include "cmd/args.h"
#include "cmd/groups.h"
#include "exec/session.h"
#include "probes/registry.h"
#include "report/report.h"

struct probe_opts {
	struct arg_strs opt;
	const char *out, *label;
	enum report_format format;
	struct sampling_args s;
	int quick;
};

static void probe_init(void *p)
{
	struct probe_opts *o = p;
	sampling_args_init(&o->s);
}

static const struct arg probe_args[] = {
	ARG_STRS("opt", 0, struct probe_opts, opt, "K=V",
		 "a probe option (the same as a bare K=V argument)"),
	ARG_FLAG("quick", 0, struct probe_opts, quick, "apply the probe's small sizes first"),
	ARGS_SAMPLING_AUTO(struct probe_opts, s),
	ARG_STR("output", 'o', struct probe_opts, out, "FILE",
		"results file (written only with -o)"),
	ARG_FORMAT("format", 0, struct probe_opts, format, REPORT_DOC_RUN,
		   "the table's format on stdout (default term)"),
	ARG_STR("label", 0, struct probe_opts, label, "L", "a name for this configuration"),
	ARG_END};

/* The probe's name first, then its name=value options (into kvs), checked;
 * ropts as the run takes them. 0, or -1 after an error line. */
static int probe_line(const struct probe_opts *o, const struct cmd_line *l, const struct probe **pr,
		      struct strvec *kvs, struct runner_opts *ro)
{
	char hint[96];
	int rc = 0;
	*pr = NULL;
	for (int i = 0; i < l->argc && !rc; i++) {
		const char *a = l->argv[i];
		if (strchr(a, '='))
			strvec_push(kvs, a);
		else if (*pr)
			rc = error("unexpected argument '%s' (see 'mempath probe --help')", a);
		else if (!(*pr = probe_find(a)))
			rc = error("unknown probe '%s'%s (see 'mempath list')", a,
				   suggest_phrase(probe_suggest(a), hint, sizeof(hint)));
	}
	for (size_t i = 0; i < o->opt.n; i++)
		strvec_push(kvs, o->opt.v[i]);
	if (!rc && !*pr)
		rc = error("which probe? (see 'mempath list')");
	sampling_args_runner(&o->s, ro);
	ro->quick = o->quick;
	return rc || runner_check_opts(*pr, kvs->v, kvs->n, ro) != 0 ? -1 : 0;
}

static int probe_check(const void *p, const struct cmd_line *l)
{
	const struct probe_opts *o = p;
	const struct probe *pr;
	struct strvec kvs = STRVEC_INIT;
	struct runner_opts ro;
	int rc = probe_line(o, l, &pr, &kvs, &ro);
	strvec_clear(&kvs);
	return rc;
}

static int probe_main(void *p, const struct cmd_line *l)
{
	struct probe_opts *o = p;
	const struct probe *pr = NULL;
	struct strvec kvs = STRVEC_INIT;
	struct session s;
	int rc = 0;
	memset(&s, 0, sizeof(s));
	s.out_path = o->out;
	if (probe_line(o, l, &pr, &kvs, &s.ropts) != 0) {
		strvec_clear(&kvs);
		return 2;
	}
	util_set_quiet(o->s.quiet);
	session_show(&s, o->s.quiet, 0);
	proc_signals_install();
	if (session_begin(&s, l->all_argc, l->all_argv, o->label, NULL) != 0) {
		run_free(s.run);
		strvec_clear(&kvs);
		return 1;
	}
	s.total = 1;
	if (session_run_probe(&s, pr, kvs.v, kvs.n) != 0)
		rc = 1;
	if (session_end(&s) != 0)
		rc = 1;
	report_write(s.run, o->format, stdout);
	if (s.out_path && rc == 0)
		notice("results: %s", s.out_path);
	if (rc == 0 && session_failed(&s))
		rc = 1;
	if (proc_signal_received())
		rc = 130;
	run_free(s.run);
	strvec_clear(&kvs);
	return rc;
}

static unsigned probe_samples(const void *p)
{
	return sampling_args_samples(&((const struct probe_opts *)p)->s);
}

const struct command command_probe = {
	.pos = POS_PROBE,
	.name = "probe",
	.summary = "run one probe",
	.synopsis = "NAME [name=value ...]",
	.about = "Runs one probe in a child process and prints its table. Options are the\n"
		 "probe's own (see 'mempath help NAME'); --quick applies its small sizes first.\n",
	.examples = "mempath probe cpu.first_touch pages=thp touch=write size=4G\n"
		    "mempath probe cpu.stream --reps auto --ci 1\n"
		    "mempath probe cpu.latency --quick\n",
	.tail = "Exit status: 0 the probe ran or was skipped (the table says why), 1 it failed,\n"
		"crashed, timed out or was OOM-killed (the table says which), 2 bad usage,\n"
		"130 interrupted.\n",
	.args = probe_args,
	.opts_size = sizeof(struct probe_opts),
	.init = probe_init,
	.run = probe_main,
	.samples = probe_samples,
	.check = probe_check,
};
