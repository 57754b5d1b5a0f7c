/* args.c - command-line options from a command's rows: parsing, checking and
 * the generated usage. Only the commands use it. */
#include "cmd/args.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/opt.h"
#include "base/suggest.h"
#include "base/util.h"
#include "report/report.h"

static void *field(void *opts, const struct arg *a)
{
	return (char *)opts + a->offset;
}

static void strs_add(struct arg_strs *s, const char *v)
{
	GROW_ONE(s->v, s->n);
	s->v[s->n++] = v;
}

void args_free_strs(struct arg_strs *s)
{
	for (size_t i = 0; i < s->n_owned; i++)
		free(s->owned[i]);
	free(s->owned);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int in_choices(const char *choices, const char *v)
{
	size_t n = strlen(v);
	for (const char *p = choices; *p;) {
		size_t len = strcspn(p, "|");
		if (len == n && strncmp(p, v, n) == 0)
			return 1;
		p += len;
		if (*p == '|')
			p++;
	}
	return 0;
}

/* "--name" or "-n" as the user would type it, for messages. */
static const char *spelled(const struct arg *a, char *buf, size_t len)
{
	if (a->name)
		snprintf(buf, len, "--%s", a->name);
	else
		snprintf(buf, len, "-%c", a->short_name);
	return buf;
}

static int set_value(const struct arg *a, void *opts, const char *v)
{
	char name[64], *end, pick[64], hint[96];
	spelled(a, name, sizeof(name));
	switch (a->type) {
	case ARG_T_STR:
		*(const char **)field(opts, a) = v;
		return 0;
	case ARG_T_STRS:
		strs_add(field(opts, a), v);
		return 0;
	case ARG_T_ITEMS: {
		struct arg_strs *s = field(opts, a);
		char *dup = xstrdup(v), *save = NULL;
		GROW_ONE(s->owned, s->n_owned);
		s->owned[s->n_owned++] = dup;
		for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save))
			strs_add(s, t);
		return 0;
	}
	case ARG_T_REPS:
		if (strcmp(v, "auto") == 0) {
			*(unsigned *)field(opts, a) = 0;
			return 0;
		}
		/* a count otherwise */
		__attribute__((fallthrough));
	case ARG_T_COUNT: {
		unsigned long n = strtoul(v, &end, 10);
		if (!*v || *end || *v == '-' || n < a->min || n > a->max)
			return error("bad %s '%s' (a whole number from %u to %u%s)", name, v,
				     a->min, a->max, a->type == ARG_T_REPS ? ", or auto" : "");
		*(unsigned *)field(opts, a) = (unsigned)n;
		return 0;
	}
	case ARG_T_PCT: {
		double x = strtod(v, &end);
		if (end == v || (*end && strcmp(end, "%") != 0) || !(x >= 0) || x >= 1000)
			return error("bad %s '%s' (a percentage, e.g. 2 or 2%%)", name, v);
		*(double *)field(opts, a) = x / 100.0;
		return 0;
	}
	case ARG_T_CHOICE:
	case ARG_T_FORMAT: {
		const char *choices = args_choices(a);
		char *list;
		if (in_choices(choices, v)) {
			if (a->type == ARG_T_FORMAT)
				*(enum report_format *)field(opts, a) = report_writer_find(v)->fmt;
			else
				*(const char **)field(opts, a) = v;
			return 0;
		}
		list = xcalloc(2 * strlen(choices) + 1, 1);
		for (const char *c = choices; *c; c++)
			strcat(list, *c == '|' ? ", " : (char[]){*c, '\0'});
		error("unknown %s '%s'%s (%s)", name, v,
		      suggest_phrase(suggest_choice(v, choices, pick, sizeof(pick)), hint,
				     sizeof(hint)),
		      list);
		free(list);
		return -1;
	}
	case ARG_T_SIZE: {
		uint64_t b;
		if (opt_parse_size(v, &b) != 0 || b < a->min)
			return error("bad size '%s' for %s (e.g. 4G)", v, name);
		*(uint64_t *)field(opts, a) = b;
		return 0;
	}
	case ARG_T_NUM: {
		double x = strtod(v, &end);
		if (!*v || *end || !(x >= a->min) || x > a->max)
			return error("bad number '%s' for %s (from %u to %u)", v, name, a->min,
				     a->max);
		*(double *)field(opts, a) = x;
		return 0;
	}
	case ARG_T_FLAG:
	case ARG_T_END:
		break;
	}
	return -1;
}

static const struct arg *find_long(const struct arg *args, const char *name, size_t len)
{
	for (const struct arg *a = args; a && a->type; a++)
		if (a->name && strlen(a->name) == len && strncmp(a->name, name, len) == 0)
			return a;
	return NULL;
}

static const struct arg *find_short(const struct arg *args, char c)
{
	for (const struct arg *a = args; a && a->type; a++)
		if (a->short_name == c)
			return a;
	return NULL;
}

/* "; did you mean '--output'?" for a mistyped long option, or "". */
static const char *long_hint(const struct command *c, const char *w, size_t len, char *hint)
{
	const char *names[64];
	char typed[64], opt[80];
	const char *s;
	size_t n = 0;

	names[n++] = "help";
	for (const struct arg *a = c->args; a && a->type && n < ARRAY_SIZE(names); a++)
		if (a->name)
			names[n++] = a->name;
	snprintf(typed, sizeof(typed), "%.*s", (int)len, w);
	s = suggest(typed, names, n);
	if (!s)
		return "";
	snprintf(opt, sizeof(opt), "--%s", s);
	return suggest_phrase(opt, hint, 96);
}

/* One option word at argv[*i] (and its value, maybe the next word).
 * Returns 0, 1 for --help, or -1 after an error line. */
static int one_option(const struct command *c, int argc, char **argv, int *i, void *opts,
		      unsigned long long *given)
{
	const char *w = argv[*i], *value = NULL;
	const struct arg *a;
	char name[64], hint[96];
	if (strcmp(w, "--help") == 0 || strcmp(w, "-h") == 0)
		return 1;
	if (w[1] == '-') {
		const char *eq = strchr(w + 2, '=');
		size_t len = eq ? (size_t)(eq - w - 2) : strlen(w + 2);
		a = find_long(c->args, w + 2, len);
		if (!a)
			return error("unknown option '%.*s' for '%s'%s (see 'mempath %s --help')",
				     (int)(len + 2), w, c->name, long_hint(c, w + 2, len, hint),
				     c->name);
		value = eq ? eq + 1 : NULL;
	} else {
		a = find_short(c->args, w[1]);
		if (!a || w[2])
			return error("unknown option '%s' for '%s' (see 'mempath %s --help')", w,
				     c->name, c->name);
	}
	spelled(a, name, sizeof(name));
	if (a - c->args < 64)
		*given |= 1ull << (a - c->args);
	if (a->type == ARG_T_FLAG) {
		if (value)
			return error("%s takes no value", name);
		*(int *)field(opts, a) = 1;
		return 0;
	}
	if (!value) {
		if (*i + 1 >= argc)
			return error("%s needs a value (%s)", name, a->meta ? a->meta : "a value");
		value = argv[++*i];
	}
	return set_value(a, opts, value);
}

int args_parse(const struct command *c, int argc, char **argv, void *opts, struct cmd_line *l)
{
	int only_args = 0;
	memset(l, 0, sizeof(*l));
	if (c->init)
		c->init(opts);
	l->all_argc = argc;
	l->all_argv = argv;
	l->argv = xcalloc((size_t)argc + 1, sizeof(*l->argv));
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];
		int rc;
		if (only_args || w[0] != '-' || !w[1]) {
			l->argv[l->argc++] = argv[i];
			if (c->flags & CMD_STOP_AT_ARG)
				only_args = 1;
			continue;
		}
		if (strcmp(w, "--") == 0) {
			only_args = 1;
			continue;
		}
		rc = one_option(c, argc, argv, &i, opts, &l->given);
		if (rc == 1) {
			args_usage(c, stdout);
			free(l->argv);
			l->argv = NULL;
			return 1;
		}
		if (rc != 0) {
			free(l->argv);
			l->argv = NULL;
			return 2;
		}
	}
	return 0;
}

/* Prints text indented by `indent` after its first line's column. */
static void put_indented(FILE *f, const char *text, int indent)
{
	for (const char *p = text; *p; p++) {
		fputc(*p, f);
		if (*p == '\n' && p[1])
			fprintf(f, "%*s", indent, "");
	}
}

/* "-o, --output FILE", "    --suite S" or "-n N": the option column of the
 * usage; a choice shows its choices as the value ("--format term|md"). */
static void left_column(const struct arg *a, char *buf, size_t len)
{
	const char *meta = args_choices(a) ? args_choices(a) : a->meta;
	if (!a->name)
		snprintf(buf, len, "-%c%s%s", a->short_name, meta ? " " : "", meta ? meta : "");
	else if (a->short_name)
		snprintf(buf, len, "-%c, --%s%s%s", a->short_name, a->name, meta ? " " : "",
			 meta ? meta : "");
	else
		snprintf(buf, len, "    --%s%s%s", a->name, meta ? " " : "", meta ? meta : "");
}

/* Option columns wider than this put their help on the next line. */
#define USAGE_COLUMN 28

void args_usage(const struct command *c, FILE *f)
{
	int width = (int)strlen("-h, --help");
	char left[160];
	fprintf(f, "usage: mempath %s%s%s%s\n", c->name, c->args ? " [options]" : "",
		c->synopsis ? " " : "", c->synopsis ? c->synopsis : "");
	if (c->about)
		fprintf(f, "\n%s", c->about);
	if (c->subs) {
		int sw = 0;

		for (const struct subcommand *s = c->subs; s->name; s++) {
			int w = (int)(strlen(s->name) +
				      (s->synopsis ? strlen(s->synopsis) + 1 : 0));

			sw = w > sw ? w : sw;
		}
		fprintf(f, "\nsubcommands:\n");
		for (const struct subcommand *s = c->subs; s->name; s++) {
			snprintf(left, sizeof(left), "%s%s%s", s->name, s->synopsis ? " " : "",
				 s->synopsis ? s->synopsis : "");
			fprintf(f, "  %-*s  %s\n", sw, left, s->summary);
		}
	}
	for (const struct arg *a = c->args; a && a->type; a++) {
		left_column(a, left, sizeof(left));
		if ((int)strlen(left) > width && (int)strlen(left) <= USAGE_COLUMN)
			width = (int)strlen(left);
	}
	fprintf(f, "\noptions:\n");
	for (const struct arg *a = c->args; a && a->type; a++) {
		left_column(a, left, sizeof(left));
		if ((int)strlen(left) > width)
			fprintf(f, "  %s\n  %-*s  ", left, width, "");
		else
			fprintf(f, "  %-*s  ", width, left);
		put_indented(f, a->help, width + 4);
		fputc('\n', f);
	}
	fprintf(f, "  %-*s  %s\n", width, "-h, --help", "this help");
	if (c->examples) {
		fputs("\nexamples:\n", f);
		for (const char *p = c->examples; *p;) {
			size_t n = strcspn(p, "\n");

			fprintf(f, "  %.*s\n", (int)n, p);
			p += n + (p[n] == '\n');
		}
	}
	if (c->tail)
		fprintf(f, "\n%s", c->tail);
}

const char *args_choices(const struct arg *a)
{
	if (a->type == ARG_T_FORMAT)
		return report_format_names(a->min, "|");
	return a->type == ARG_T_CHOICE ? a->choices : NULL;
}

int args_meta_is_path(const char *meta)
{
	static const char *const paths[] = {"FILE", "OUT", "PATH", "DIR"};

	for (size_t i = 0; meta && i < ARRAY_SIZE(paths); i++)
		if (strcmp(meta, paths[i]) == 0)
			return 1;
	return 0;
}

static void opts_free(const struct command *c, void *opts)
{
	for (const struct arg *a = c->args; a && a->type; a++)
		if (a->type == ARG_T_STRS || a->type == ARG_T_ITEMS)
			args_free_strs(field(opts, a));
	free(opts);
}

int args_main(const struct command *c, int argc, char **argv,
	      const struct command *(*find)(const char *name))
{
	void *opts = xcalloc(1, c->opts_size ? c->opts_size : 1);
	struct cmd_line l;
	int rc = args_parse(c, argc, argv, opts, &l);
	l.find = find;
	if (rc == 0)
		rc = c->run(opts, &l);
	else if (rc == 1)
		rc = 0;
	free(l.argv);
	opts_free(c, opts);
	return rc;
}

int args_try(const struct command *c, int argc, char **argv, unsigned *samples,
	     unsigned long long *given)
{
	void *opts = xcalloc(1, c->opts_size ? c->opts_size : 1);
	struct cmd_line l;
	int rc = args_parse(c, argc, argv, opts, &l);
	if (rc == 0 && c->check && c->check(opts, &l) != 0)
		rc = 2;
	*samples = rc == 0 && c->samples ? c->samples(opts) : 0;
	*given = l.given;
	free(l.argv);
	opts_free(c, opts);
	return rc;
}

int args_options_end(const struct command *c, int argc, char **argv)
{
	void *opts = xcalloc(1, c->opts_size ? c->opts_size : 1);
	struct cmd_line l;
	int end = argc;

	if (args_parse(c, argc, argv, opts, &l) != 0)
		end = -1;
	for (int i = 1; end == argc && l.argc > 0 && i < argc; i++)
		if (argv[i] == l.argv[0])
			end = i > 1 && strcmp(argv[i - 1], "--") == 0 ? i - 1 : i;
	for (int i = 1; end == argc && i < argc; i++) /* a "--" with nothing after it */
		if (strcmp(argv[i], "--") == 0)
			end = i;
	free(l.argv);
	opts_free(c, opts);
	return end;
}

int args_given(const struct command *c, unsigned long long given, const char *name)
{
	for (const struct arg *a = c->args; a && a->type && a - c->args < 64; a++)
		if (a->name && strcmp(a->name, name) == 0 && (given >> (a - c->args) & 1))
			return 1;
	return 0;
}
