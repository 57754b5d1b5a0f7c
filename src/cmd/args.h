/* args.h - a command is one descriptor: its name, a summary, the options as
 * rows (like a probe's option table), and the function that runs it. The
 * parser, `--help`, `mempath help CMD` and the top-level usage are generated
 * from the rows, so they cannot drift apart.
 *
 *   static const struct arg run_args[] = {
 *       ARG_CHOICE("suite", 0, struct run_opts, suite, "S", "quick|full|cpu|gpu|p2p",
 *                  "quick (default: small sizes), full, cpu, gpu, p2p"),
 *       ARG_STR("output", 'o', struct run_opts, out, "FILE", "results file"),
 *       ARG_END};
 *   const struct command command_run = {.name = "run", .args = run_args, ...};
 *
 * Rules: options may come before or after positional arguments, unless the
 * command sets CMD_STOP_AT_ARG (its first positional starts a command line of
 * someone else's: wrap, ab, phantom); "--" ends the options; every command
 * takes -h/--help. A bad option or value is one error line naming it, exit 2.
 */
#ifndef MEMPATH_CMD_ARGS_H
#define MEMPATH_CMD_ARGS_H

#include <stddef.h>
#include <stdio.h>

enum arg_type {
	ARG_T_END = 0,
	ARG_T_FLAG,   /* int: 1 when given */
	ARG_T_STR,    /* const char *: the value as typed (points into argv) */
	ARG_T_STRS,   /* struct arg_strs: each use appends its value */
	ARG_T_ITEMS,  /* struct arg_strs: each use appends its comma-separated items */
	ARG_T_COUNT,  /* unsigned: a whole number in [min, max] */
	ARG_T_PCT,    /* double: a percentage ("2" or "2%") as a fraction (0.02) */
	ARG_T_CHOICE, /* const char *: one of the '|'-separated choices */
	ARG_T_SIZE,   /* uint64_t bytes: 4096, 64M, 1.5G (opt.h); min 1: not zero */
	ARG_T_NUM,    /* double in [min, max] */
	ARG_T_REPS,   /* unsigned: a whole number in [min, max], or "auto" (0) */
	ARG_T_FORMAT, /* enum report_format: a format of the writer table with a
		       * writer for any of the documents in min (enum report_doc) */
};

/* What ARG_T_STRS and ARG_T_ITEMS fill; args_free_strs() frees it. */
struct arg_strs {
	const char **v;
	size_t n;
	char **owned; /* split copies behind ARG_T_ITEMS values */
	size_t n_owned;
};

struct arg {
	const char *name; /* long name, without the dashes */
	char short_name;  /* 'o' for -o, or 0 */
	enum arg_type type;
	size_t offset; /* into the command's options struct */
	const char *meta;
	const char *help; /* one line; "\n" starts an indented continuation */
	const char *choices;
	unsigned min, max; /* ARG_T_COUNT, ARG_T_NUM; min for ARG_T_SIZE;
			    * min: ARG_T_FORMAT's documents */
};

#define ARG_FLAG(n, s, st, f, h)                                       \
	{                                                              \
		n, s, ARG_T_FLAG, offsetof(st, f), NULL, h, NULL, 0, 0 \
	}
#define ARG_STR(n, s, st, f, m, h)                                 \
	{                                                          \
		n, s, ARG_T_STR, offsetof(st, f), m, h, NULL, 0, 0 \
	}
#define ARG_STRS(n, s, st, f, m, h)                                 \
	{                                                           \
		n, s, ARG_T_STRS, offsetof(st, f), m, h, NULL, 0, 0 \
	}
#define ARG_ITEMS(n, s, st, f, m, h)                                 \
	{                                                            \
		n, s, ARG_T_ITEMS, offsetof(st, f), m, h, NULL, 0, 0 \
	}
#define ARG_COUNT(n, s, st, f, m, lo, hi, h)                           \
	{                                                              \
		n, s, ARG_T_COUNT, offsetof(st, f), m, h, NULL, lo, hi \
	}
#define ARG_PCT(n, s, st, f, m, h)                                 \
	{                                                          \
		n, s, ARG_T_PCT, offsetof(st, f), m, h, NULL, 0, 0 \
	}
#define ARG_CHOICE(n, s, st, f, m, c, h)                           \
	{                                                          \
		n, s, ARG_T_CHOICE, offsetof(st, f), m, h, c, 0, 0 \
	}
#define ARG_SIZE(n, s, st, f, m, lo, h)                              \
	{                                                            \
		n, s, ARG_T_SIZE, offsetof(st, f), m, h, NULL, lo, 0 \
	}
#define ARG_NUM(n, s, st, f, m, lo, hi, h)                           \
	{                                                            \
		n, s, ARG_T_NUM, offsetof(st, f), m, h, NULL, lo, hi \
	}
#define ARG_REPS(n, s, st, f, m, lo, hi, h)                           \
	{                                                             \
		n, s, ARG_T_REPS, offsetof(st, f), m, h, NULL, lo, hi \
	}
/* --format F: the formats that have a writer for any of docs
 * (REPORT_DOC_RUN | ...), read from report.h's writer table; the usage, the
 * man page and the completions list them from there. */
#define ARG_FORMAT(n, s, st, f, docs, h)                                   \
	{                                                                  \
		n, s, ARG_T_FORMAT, offsetof(st, f), "F", h, NULL, docs, 0 \
	}
#define ARG_END                                               \
	{                                                     \
		NULL, 0, ARG_T_END, 0, NULL, NULL, NULL, 0, 0 \
	}

#define CMD_STOP_AT_ARG 0x1u /* options end at the first positional argument */

/* Positional arguments left after the options, and the command line as typed
 * (from the command's name on) for the results file's record. */
struct cmd_line {
	int argc;
	char **argv;
	int all_argc;
	char **all_argv;
	unsigned long long given; /* bit i: the command's args[i] was given */
	/* The command table's lookup, for a command that runs another's
	 * command line (ab's legs): handed down, so no command includes the
	 * table that lists it. */
	const struct command *(*find)(const char *name);
};

/* A command that is a family of subcommands (`mempath history add FILE`)
 * lists them: the usage, the man page and the completions show them. */
/* What a command's positional arguments are, for the shell completions. */
enum cmd_pos {
	POS_NONE = 0,
	POS_FILES,   /* results files and other paths */
	POS_PROBE,   /* a probe's name, then its name=value options */
	POS_NAMES,   /* a command's or a probe's name (help) */
	POS_COMMAND, /* someone else's command line (wrap, ab, phantom) */
	POS_SUBS,    /* a subcommand (struct subcommand), then its own */
	POS_WORDS,   /* fixed words: struct command.words */
};

struct subcommand {
	const char *name;
	const char *synopsis; /* its arguments: "FILE..." */
	const char *summary;  /* one line */
	enum cmd_pos pos;     /* POS_FILES or POS_NONE */
};

struct command {
	const char *name;
	const char *summary;  /* one line for `mempath --help` */
	const char *synopsis; /* the positional part of the usage line ("FILE") */
	const char *about;    /* paragraphs between the usage line and the options */
	/* Command lines as a user types them, one a line ("mempath run --suite
	 * quick"; a line that starts with spaces continues the one above): under
	 * "examples:" in --help and in the man page's EXAMPLES. */
	const char *examples;
	const char *tail; /* after the options and examples: exit status */
	const struct arg *args;
	size_t opts_size;	  /* sizeof the options struct */
	void (*init)(void *opts); /* defaults (NULL: all zero) */
	int (*run)(void *opts, const struct cmd_line *l);
	/* A command that measures (ab can run it as a leg: it takes -o and
	 * --label): the counted samples per metric these options give. */
	unsigned (*samples)(const void *opts);
	/* What its arguments name (a probe, a probe's options, --only's
	 * probes) checked as its run would check them, running nothing: 0, or
	 * -1 after an error line. ab calls it before any setup. May be NULL. */
	int (*check)(const void *opts, const struct cmd_line *l);
	unsigned flags;
	const struct subcommand *subs; /* ended by a row without a name; or NULL */
	enum cmd_pos pos;	       /* what its positional arguments are */
	const char *words;	       /* POS_WORDS: "bash|zsh" */
};

/* An option's choices, '|'-separated ("term|md|json"), or NULL when it has
 * none: ARG_T_CHOICE's own, ARG_T_FORMAT's from the writer table. */
const char *args_choices(const struct arg *a);
/* Does an option's value name a file or folder (its meta: FILE, OUT, PATH,
 * DIR)? For the completions. */
int args_meta_is_path(const char *meta);

/* Parses argv (argv[0] is the command's name) into opts (initialised here).
 * Returns 0 with l filled (l->argv is allocated: free it), 1 when --help was
 * printed, 2 after one error line. */
int args_parse(const struct command *c, int argc, char **argv, void *opts, struct cmd_line *l);
/* The generated usage of c. */
void args_usage(const struct command *c, FILE *f);
/* Parses, runs, frees: a command's whole life; returns its exit status. */
int args_main(const struct command *c, int argc, char **argv,
	      const struct command *(*find)(const char *name));
void args_free_strs(struct arg_strs *s);
/* Parses argv as c would and does not run it: for a command that runs
 * another's command line later (ab checks its legs before the first).
 * 0 with *samples (c->samples of the options; 0 when c has none) and
 * *given (struct cmd_line), 1 when argv asks for --help, 2 after one error
 * line. */
int args_try(const struct command *c, int argc, char **argv, unsigned *samples,
	     unsigned long long *given);
/* Where c's own options end in argv (parsed as c would): the index of the
 * "--" or of the first word that is not one of them (a wrapped workload's
 * command), else argc; -1 when argv does not parse. */
int args_options_end(const struct command *c, int argc, char **argv);
/* Whether option `name` of c is among the bits of `given`. */
int args_given(const struct command *c, unsigned long long given, const char *name);

#endif
