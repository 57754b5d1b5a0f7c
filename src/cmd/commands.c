/* commands.c - the command table, the top-level usage and `mempath help
 * [COMMAND|PROBE]`, generated from the command and probe tables. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "base/suggest.h"
#include "base/util.h"
#include "cmd/cmd.h"
#include "cmd/commands.h"
#include "cmd/manpage.h"
#include "kit/cotenant.h"
#include "machine/cpulat.h"
#include "probes/registry.h"

#define CMD(x) &command_##x,
const struct command *const command_table[] = {CMD_LIST};
#undef CMD
const size_t command_table_len = sizeof(command_table) / sizeof(command_table[0]);

const struct command *command_find(const char *name)
{
	for (size_t i = 0; i < command_table_len; i++)
		if (strcmp(command_table[i]->name, name) == 0)
			return command_table[i];
	return NULL;
}

const char *command_suggest(const char *name)
{
	const char *names[64];
	size_t n = 0;

	for (size_t i = 0; i < command_table_len && n < ARRAY_SIZE(names); i++)
		names[n++] = command_table[i]->name;
	return suggest(name, names, n);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: mempath [--version] [--help] COMMAND [ARGS]\n\n"
		   "Measures how fast memory gets from where it is to where it is used.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < command_table_len; i++)
		fprintf(f, "  %-9s %s\n", command_table[i]->name, command_table[i]->summary);
	fprintf(f, "\n'mempath help COMMAND' or 'mempath help PROBE' for details; "
		   "'mempath list' for the probes.\n");
}

static void probe_help(const struct probe *p)
{
	printf("%s - %s\n\nsuites:%s%s%s%s\n\noptions (name=value):\n", p->name, p->summary,
	       p->flags & PROBE_QUICK ? " quick" : "", p->flags & PROBE_CPU ? " cpu" : "",
	       p->flags & PROBE_GPU ? " gpu" : "", p->flags & PROBE_P2P ? " p2p" : "");
	opt_print_help(p->opts, stdout);
	if (p->quick_opts)
		printf("\n--quick and the quick suite apply: %s\n", p->quick_opts);
	printf("\nexample: mempath probe %s --quick\n", p->name);
}

struct help_opts {
	int man;
};

static const struct arg help_args[] = {
	ARG_FLAG("man", 0, struct help_opts, man,
		 "the manual page mempath(1) in roff, from the same tables as --help\n"
		 "(man -l <(mempath help --man))"),
	ARG_END};

static int help_run(void *opts, const struct cmd_line *l)
{
	const struct command *c;
	const struct probe *p;
	if (((struct help_opts *)opts)->man) {
		if (l->argc > 0)
			return error("help --man takes no name (the page has them all)"), 2;
		return manpage_write(stdout, command_table, command_table_len) == 0 ? 0 : 1;
	}
	if (l->argc == 0) {
		usage(stdout);
		return 0;
	}
	if (l->argc > 1) {
		fprintf(stderr, "mempath: error: help takes one name (see 'mempath help help')\n");
		return 2;
	}
	c = command_find(l->argv[0]);
	if (c) {
		args_usage(c, stdout);
		return 0;
	}
	p = probe_find(l->argv[0]);
	if (!p) {
		const char *s = command_suggest(l->argv[0]);
		char hint[96];

		error("no command or probe named '%s'%s (see 'mempath list')", l->argv[0],
		      suggest_phrase(s ? s : probe_suggest(l->argv[0]), hint, sizeof(hint)));
		return 2;
	}
	probe_help(p);
	return 0;
}

const struct command command_help = {
	.name = "help",
	.pos = POS_NAMES,
	.summary = "help for a command or a probe; --man: the manual page",
	.synopsis = "[COMMAND | PROBE]",
	.about = "Usage of a command, or a probe's summary, suites and options.\n",
	.args = help_args,
	.opts_size = sizeof(struct help_opts),
	.run = help_run,
};

/* Here, beside the table it is written from (manpage.h), so that nothing
 * below the table reaches back up to it. */
static int completion_run(void *opts, const struct cmd_line *l)
{
	if (l->argc != 1 || (strcmp(l->argv[0], "bash") != 0 && strcmp(l->argv[0], "zsh") != 0)) {
		const char *shells[] = {"bash", "zsh"},
			   *s = l->argc ? suggest(l->argv[0], shells, 2) : NULL;
		char hint[96];

		return error("completion needs a shell: bash or zsh%s (see 'mempath completion "
			     "--help')",
			     suggest_phrase(s, hint, sizeof(hint))),
		       2;
	}
	return completion_write(stdout, l->argv[0], command_table, command_table_len) == 0 ? 0 : 1;
}

const struct command command_completion = {
	.name = "completion",
	.pos = POS_WORDS,
	.words = "bash|zsh",
	.summary = "the bash or zsh completion script, from the command and probe tables",
	.synopsis = "bash|zsh",
	.about = "Prints a completion script: commands, options and their choices, probes and\n"
		 "their name=value options, files. 'make install' installs both; to try one:\n"
		 "  source <(mempath completion bash)\n",
	.run = completion_run,
};

/* What went to stdout must have arrived: a full disk or a closed pipe is an
 * error (exit 1), not a silent success. SIGPIPE is ignored so that a reader
 * that goes away (`mempath wrap ... | head`) costs the output, never the
 * results file: writes fail with EPIPE instead (and SIGXFSZ, so a file over
 * `ulimit -f` is an error line, not a kill). A full disk or an I/O error is
 * said in one line; a reader that left is not (docs/design.md §2.1: it
 * chose to stop reading, as `head` does, and a line about it would be the
 * only noise in a pipeline). Children get the default dispositions back
 * (base/proc). */
static int stdout_ok(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		int err = errno ? errno : EIO;

		if (err != EPIPE && !stdout_reader_gone())
			fprintf(stderr, "mempath: error: cannot write to standard output: %s\n",
				strerror(err));
		return rc ? rc : 1;
	}
	return rc;
}

static int dispatch(int argc, char **argv)
{
	const struct command *c;
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("mempath %s (%s)\n", MEMPATH_VERSION, MEMPATH_GIT);
		return 0;
	}
	/* gpu.sync's co-tenant (kit/cotenant.h): no command, no options */
	if (strcmp(argv[1], "__cotenant") == 0)
		return cotenant_main(argc - 2, argv + 2);
	c = command_find(argv[1]);
	if (!c) {
		char hint[96];

		error("unknown command '%s'%s (see 'mempath --help')", argv[1],
		      suggest_phrase(command_suggest(argv[1]), hint, sizeof(hint)));
		return 2;
	}
	return args_main(c, argc - 1, argv + 1, command_find);
}

int commands_main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN); /* a file over ulimit -f: EFBIG, an error line */
	if (cpulat_hold_env() != 0)
		return 2;
	return stdout_ok(dispatch(argc, argv));
}
