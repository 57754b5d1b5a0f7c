/* completion.c - bash and zsh completion scripts, written from the command
 * table, the option rows and the probe table (manpage.h; docs/design.md
 * §9.7): commands, each command's options and their choices, files where a
 * value or an argument is a path, probes, each probe's name= options and
 * their choices (comma lists too), suites and formats (they are choices). */
#include <stdio.h>
#include <string.h>

#include "base/opt.h"
#include "cmd/args.h"
#include "cmd/manpage.h"
#include "probes/registry.h"

/* Choices "a|b|c" as words "a b c". */
static void words(FILE *f, const char *choices)
{
	for (const char *c = choices; c && *c; c++)
		fputc(*c == '|' ? ' ' : *c, f);
}

/* Both shells: which probe options there are, and each one's choices. */
static void bash_probe_tables(FILE *f)
{
	fputs("_mempath_probes=\"", f);
	for (size_t i = 0; i < probe_table_len; i++)
		fprintf(f, "%s%s", i ? " " : "", probe_table[i]->name);
	fputs("\"\n_mempath_probe_opts() {\n\tcase \"$1\" in\n", f);
	for (size_t i = 0; i < probe_table_len; i++) {
		fprintf(f, "\t%s) echo \"", probe_table[i]->name);
		for (const struct opt *o = probe_table[i]->opts; o && o->name; o++)
			fprintf(f, "%s%s=", o == probe_table[i]->opts ? "" : " ", o->name);
		fputs("\" ;;\n", f);
	}
	fputs("\tesac\n}\n_mempath_probe_choices() {\n\tcase \"$1 $2\" in\n", f);
	for (size_t i = 0; i < probe_table_len; i++)
		for (const struct opt *o = probe_table[i]->opts; o && o->name; o++)
			if (o->type == OPT_T_LIST || (o->type == OPT_T_STR && o->choices)) {
				fprintf(f, "\t\"%s %s\") echo \"", probe_table[i]->name, o->name);
				words(f, o->choices);
				fputs(o->type == OPT_T_LIST ? " all\" ;;\n" : "\" ;;\n", f);
			}
	fputs("\tesac\n}\n", f);
}

static void bash_option_names(FILE *f, const struct command *c, int values_only)
{
	for (const struct arg *a = c->args; a && a->type; a++) {
		if (values_only && a->type == ARG_T_FLAG)
			continue;
		if (a->short_name)
			fprintf(f, " -%c", a->short_name);
		if (a->name)
			fprintf(f, " --%s", a->name);
	}
	if (!values_only)
		fputs(" -h --help", f);
}

/* _mempath_takes CMD: the options that take a value (the next word); a
 * plain shell function, the same in bash and zsh. */
static void takes(FILE *f, const struct command *const *cmds, size_t n)
{
	fputs("_mempath_takes() {\n\tcase \"$1\" in\n", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "\t%s) echo \"", cmds[i]->name);
		bash_option_names(f, cmds[i], 1);
		fputs("\" ;;\n", f);
	}
	fputs("\tesac\n}\n", f);
}

/* _mempath_value CMD OPTION: the values of an option that takes one. */
static void bash_values(FILE *f, const struct command *const *cmds, size_t n)
{
	fputs("_mempath_value() {\n\tcase \"$1 $2\" in\n", f);
	for (size_t i = 0; i < n; i++)
		for (const struct arg *a = cmds[i]->args; a && a->type; a++) {
			const char *action = NULL;

			if (args_choices(a))
				action = "choice";
			else if (args_meta_is_path(a->meta))
				action = strcmp(a->meta, "DIR") == 0 ? "dirs" : "files";
			else if (a->meta && strcmp(a->meta, "LIST") == 0)
				action = "probes";
			if (!action)
				continue;
			fprintf(f, "\t\"%s --%s\"", cmds[i]->name, a->name);
			if (a->short_name)
				fprintf(f, " | \"%s -%c\"", cmds[i]->name, a->short_name);
			if (!strcmp(action, "choice")) {
				fputs(") COMPREPLY=($(compgen -W \"", f);
				words(f, args_choices(a));
				fputs("\" -- \"$cur\")) ;;\n", f);
			} else if (!strcmp(action, "probes")) {
				fputs(") _mempath_list \"$_mempath_probes\" \"\" ;;\n", f);
			} else {
				fprintf(f, ") _mempath_%s ;;\n", action);
			}
		}
	fputs("\tesac\n}\n", f);
}

static const char bash_helpers[] =
	"_mempath_files() { compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "
	"\"$cur\")); "
	"}\n"
	"_mempath_dirs() { compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "
	"\"$cur\")); "
	"}\n"
	"# _mempath_list WORDS PREFIX: a comma-separated list, completed after its last comma\n"
	"_mempath_list() {\n"
	"\tlocal v=${cur#\"$2\"} head=\"\" w\n"
	"\t[[ $v == *,* ]] && head=${v%,*},\n"
	"\tfor w in $(compgen -W \"$1\" -- \"${v##*,}\"); do COMPREPLY+=(\"$2$head$w\"); done\n"
	"\tcompopt -o nospace 2>/dev/null\n"
	"}\n"
	"# a probe's name= options, and after the = its choices\n"
	"_mempath_probe_word() {\n"
	"\tif [[ $cur == *=* ]]; then\n"
	"\t\t_mempath_list \"$(_mempath_probe_choices \"$1\" \"${cur%%=*}\")\" \"${cur%%=*}=\"\n"
	"\telse\n"
	"\t\tCOMPREPLY=($(compgen -W \"$(_mempath_probe_opts \"$1\")\" -- \"$cur\"))\n"
	"\t\tcompopt -o nospace 2>/dev/null\n"
	"\tfi\n"
	"}\n";

/* _mempath_positional CMD N FIRST DASHDASH: an argument, by what the
 * command's arguments are (struct command.pos). */
static void bash_positional(FILE *f, const struct command *const *cmds, size_t n)
{
	fputs("_mempath_positional() {\n\tcase \"$1\" in\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct command *c = cmds[i];

		fprintf(f, "\t%s)", c->name);
		switch (c->pos) {
		case POS_FILES:
			fputs(" _mempath_files ;;\n", f);
			break;
		case POS_PROBE:
			fputs(" if [ \"$2\" -eq 0 ]; then COMPREPLY=($(compgen -W "
			      "\"$_mempath_probes\" "
			      "-- \"$cur\")); else _mempath_probe_word \"$3\"; fi ;;\n",
			      f);
			break;
		case POS_NAMES:
			fputs(" [ \"$2\" -eq 0 ] && COMPREPLY=($(compgen -W \"$_mempath_commands "
			      "$_mempath_probes\" -- \"$cur\")) ;;\n",
			      f);
			break;
		case POS_COMMAND:
			fputs(" if [ \"$2\" -eq 0 ]; then COMPREPLY=($(compgen -c -- \"$cur\")); "
			      "else "
			      "_mempath_files; fi ;;\n",
			      f);
			break;
		case POS_SUBS:
			fputs("\n\t\tif [ \"$2\" -eq 0 ]; then\n\t\t\tCOMPREPLY=($(compgen -W \"",
			      f);
			for (const struct subcommand *s = c->subs; s && s->name; s++)
				fprintf(f, "%s%s", s == c->subs ? "" : " ", s->name);
			fputs("\" -- \"$cur\"))\n\t\telse\n\t\t\tcase \"$3\" in\n", f);
			for (const struct subcommand *s = c->subs; s && s->name; s++)
				if (s->pos == POS_FILES)
					fprintf(f, "\t\t\t%s) _mempath_files ;;\n", s->name);
			fputs("\t\t\tesac\n\t\tfi ;;\n", f);
			break;
		case POS_WORDS:
			fputs(" [ \"$2\" -eq 0 ] && COMPREPLY=($(compgen -W \"", f);
			words(f, c->words);
			fputs("\" -- \"$cur\")) ;;\n", f);
			break;
		case POS_NONE:
			fputs(" ;;\n", f);
			break;
		}
	}
	fputs("\tesac\n}\n", f);
}

static const char bash_main[] =
	"_mempath() {\n"
	"\t# words split at blanks only (not at '=' or ':', as COMP_WORDS is), so that\n"
	"\t# pages=4k and --format=html are one word\n"
	"\tlocal line=${COMP_LINE:0:COMP_POINT} cur prev cmd i w n=0 first=\"\" dashdash=0\n"
	"\tlocal -a words\n"
	"\tread -ra words <<<\"$line\"\n"
	"\t[[ $line == *[[:space:]] || ${#words[@]} -eq 0 ]] && words+=(\"\")\n"
	"\tcur=${words[${#words[@]} - 1]}\n"
	"\tprev=${words[${#words[@]} - 2]}\n"
	"\tCOMPREPLY=()\n"
	"\tif [ ${#words[@]} -eq 2 ]; then\n"
	"\t\tCOMPREPLY=($(compgen -W \"$_mempath_commands --help --version\" -- \"$cur\"))\n"
	"\t\treturn 0\n"
	"\tfi\n"
	"\tcmd=${words[1]}\n"
	"\tfor ((i = 2; i < ${#words[@]} - 1; i++)); do\n"
	"\t\tw=${words[i]}\n"
	"\t\tif [ $dashdash -eq 0 ] && [ \"$w\" = -- ]; then dashdash=1; continue; fi\n"
	"\t\tif [ $dashdash -eq 0 ] && [[ $w == -* ]]; then\n"
	"\t\t\t[[ $w != *=* && \" $(_mempath_takes \"$cmd\") \" == *\" $w \"* ]] && i=$((i + 1))\n"
	"\t\t\tcontinue\n"
	"\t\tfi\n"
	"\t\t[ $n -eq 0 ] && first=$w\n"
	"\t\tn=$((n + 1))\n"
	"\tdone\n"
	"\tif [ $dashdash -eq 0 ] && [[ $cur == --*=* ]]; then\n"
	"\t\tlocal opt=${cur%%=*}\n"
	"\t\tcur=${cur#*=}\n"
	"\t\t_mempath_value \"$cmd\" \"$opt\"\n"
	"\t\tCOMPREPLY=(\"${COMPREPLY[@]/#/$opt=}\")\n"
	"\telif [ $dashdash -eq 0 ] && [[ \" $(_mempath_takes \"$cmd\") \" == *\" $prev \"* ]]; "
	"then\n"
	"\t\t_mempath_value \"$cmd\" \"$prev\"\n"
	"\telif [ $dashdash -eq 0 ] && [[ $cur == -* ]]; then\n"
	"\t\tCOMPREPLY=($(compgen -W \"$(_mempath_opts \"$cmd\")\" -- \"$cur\"))\n"
	"\telse\n"
	"\t\t_mempath_positional \"$cmd\" $n \"$first\" $dashdash\n"
	"\tfi\n"
	"\t# bash puts a reply in place of the part of the word after its last '=' or\n"
	"\t# ':' (COMP_WORDBREAKS): the replies lose what comes before\n"
	"\tlocal word=${words[${#words[@]} - 1]} c\n"
	"\tfor c in = :; do\n"
	"\t\tif [[ $COMP_WORDBREAKS == *$c* && $word == *$c* ]]; then\n"
	"\t\t\tlocal cut=${word%\"${word##*$c}\"}\n"
	"\t\t\tCOMPREPLY=(\"${COMPREPLY[@]#\"$cut\"}\")\n"
	"\t\t\tword=${word#\"$cut\"}\n"
	"\t\tfi\n"
	"\tdone\n"
	"\treturn 0\n"
	"}\n"
	"complete -F _mempath mempath\n";

static int bash(FILE *f, const struct command *const *cmds, size_t n)
{
	fputs("# bash completion for mempath(1), generated by 'mempath completion bash' from\n"
	      "# its command, option and probe tables (edit those, not this). Install as\n"
	      "# /usr/share/bash-completion/completions/mempath, or source it.\n",
	      f);
	fputs("_mempath_commands=\"", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? " " : "", cmds[i]->name);
	fputs("\"\n", f);
	bash_probe_tables(f);
	fputs("_mempath_opts() {\n\tcase \"$1\" in\n", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "\t%s) echo \"", cmds[i]->name);
		bash_option_names(f, cmds[i], 0);
		fputs("\" ;;\n", f);
	}
	fputs("\tesac\n}\n", f);
	takes(f, cmds, n);
	fputs(bash_helpers, f);
	bash_values(f, cmds, n);
	bash_positional(f, cmds, n);
	fputs(bash_main, f);
	return ferror(f) ? -1 : 0;
}

/* ---- zsh ---- */

/* Help text inside a single-quoted _arguments spec's [...]: one line, the
 * quote closed and reopened, ] and : escaped. */
static void zsh_text(FILE *f, const char *s)
{
	for (; s && *s; s++)
		if (*s == '\n')
			fputc(' ', f);
		else if (*s == '\'')
			fputs("'\\''", f);
		else if (*s == ']' || *s == ':' || *s == '[')
			fprintf(f, "\\%c", *s);
		else
			fputc(*s, f);
}

static void zsh_action(FILE *f, const struct arg *a)
{
	if (a->type == ARG_T_FLAG)
		return;
	fprintf(f, ":%s:", a->meta ? a->meta : "value");
	if (args_choices(a)) {
		fputc('(', f);
		words(f, args_choices(a));
		fputc(')', f);
	} else if (args_meta_is_path(a->meta)) {
		fputs(strcmp(a->meta, "DIR") == 0 ? "_files -/" : "_files", f);
	} else if (a->meta && strcmp(a->meta, "LIST") == 0) {
		fputs("_mempath_probe_list", f);
	} else {
		fputs(" ", f);
	}
}

static void zsh_options(FILE *f, const struct command *c)
{
	for (const struct arg *a = c->args; a && a->type; a++) {
		int many = a->type == ARG_T_STRS || a->type == ARG_T_ITEMS;

		fputs(" \\\n\t\t", f);
		if (a->short_name && a->name)
			fprintf(f, "'%s(-%c --%s)'{-%c,--%s}'", many ? "*" : "", a->short_name,
				a->name, a->short_name, a->name);
		else if (a->name)
			fprintf(f, "'%s--%s", many ? "*" : "", a->name);
		else
			fprintf(f, "'%s-%c", many ? "*" : "", a->short_name);
		fputc('[', f);
		zsh_text(f, a->help);
		fputc(']', f);
		zsh_action(f, a);
		fputc('\'', f);
	}
	fputs(" \\\n\t\t'(- *)'{-h,--help}'[this help]'", f);
}

static void zsh_positional(FILE *f, const struct command *c)
{
	switch (c->pos) {
	case POS_FILES:
		fputs(" \\\n\t\t'*:file:_files'", f);
		break;
	case POS_PROBE:
		fputs(" \\\n\t\t'1:probe:_mempath_probe_name' '*:probe option:_mempath_probe_word'",
		      f);
		break;
	case POS_NAMES:
		fputs(" \\\n\t\t'1:command or probe:_mempath_name'", f);
		break;
	case POS_COMMAND:
		fputs(" \\\n\t\t'*::command:_normal'", f);
		break;
	case POS_SUBS:
		fputs(" \\\n\t\t'1:subcommand:((", f);
		for (const struct subcommand *s = c->subs; s && s->name; s++) {
			fprintf(f, "%s%s\\:\"", s == c->subs ? "" : " ", s->name);
			zsh_text(f, s->summary);
			fputc('"', f);
		}
		fputs("))' '*:argument:_mempath_sub_arg'", f);
		break;
	case POS_WORDS:
		fputs(" \\\n\t\t'1:word:(", f);
		words(f, c->words);
		fputs(")'", f);
		break;
	case POS_NONE:
		break;
	}
}

static int completion_zsh(FILE *f, const struct command *const *cmds, size_t n)
{
	fputs("#compdef mempath\n"
	      "# zsh completion for mempath(1), generated by 'mempath completion zsh' from its\n"
	      "# command, option and probe tables (edit those, not this). Install as _mempath\n"
	      "# in a folder of $fpath (/usr/share/zsh/site-functions).\n",
	      f);
	fputs("_mempath_commands=(", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? " " : "", cmds[i]->name);
	fputs(")\n", f);
	bash_probe_tables(f); /* plain functions and strings: the same in zsh */
	takes(f, cmds, n);
	fputs("_mempath_probes=(${=_mempath_probes})\n"
	      "# the command's first argument (a probe, a subcommand): the first word after\n"
	      "# it that is no option and no option's value\n"
	      "_mempath_first_arg() {\n"
	      "\tlocal i w t=\" $(_mempath_takes ${words[1]}) \"\n"
	      "\tREPLY=\"\"\n"
	      "\tfor ((i = 2; i < CURRENT; i++)); do\n"
	      "\t\tw=${words[i]}\n"
	      "\t\tif [[ $w == -* ]]; then\n"
	      "\t\t\t[[ $w != *=* && $t == *\" $w \"* ]] && (( i++ ))\n"
	      "\t\t\tcontinue\n"
	      "\t\tfi\n"
	      "\t\tREPLY=$w\n\t\treturn 0\n"
	      "\tdone\n\treturn 1\n"
	      "}\n"
	      "_mempath_probe_name() { compadd -a _mempath_probes; }\n"
	      "_mempath_name() { compadd -a _mempath_commands _mempath_probes; }\n"
	      "_mempath_probe_list() { compset -P '*,'; compadd -S ',' -q -a _mempath_probes; }\n"
	      "_mempath_probe_word() {\n"
	      "\tlocal REPLY\n\t_mempath_first_arg\n\tlocal probe=$REPLY\n"
	      "\tif compset -P '*='; then\n"
	      "\t\tcompset -P '*,'\n"
	      "\t\tlocal -a c=(${=$(_mempath_probe_choices $probe ${IPREFIX%%=*})})\n"
	      "\t\tcompadd -S ',' -q -a c\n"
	      "\telse\n"
	      "\t\tlocal -a o=(${=$(_mempath_probe_opts $probe)})\n"
	      "\t\tcompadd -S '' -a o\n"
	      "\tfi\n"
	      "}\n"
	      "_mempath_sub_arg() {\n"
	      "\tlocal REPLY\n\t_mempath_first_arg\n"
	      "\tcase $REPLY in\n",
	      f);
	for (size_t i = 0; i < n; i++)
		for (const struct subcommand *s = cmds[i]->subs; s && s->name; s++)
			if (s->pos == POS_FILES)
				fprintf(f, "\t%s) _files ;;\n", s->name);
	fputs("\tesac\n}\n_mempath() {\n\tlocal -a cmds=(\n", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "\t\t'%s:", cmds[i]->name);
		zsh_text(f, cmds[i]->summary);
		fputs("'\n", f);
	}
	fputs("\t)\n\tif (( CURRENT == 2 )); then\n"
	      "\t\t_describe -t commands 'mempath command' cmds\n\t\treturn\n\tfi\n"
	      "\tlocal cmd=${words[2]}\n\tshift words\n\t(( CURRENT-- ))\n"
	      "\tcase $cmd in\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "\t%s)\n\t\t_arguments -s -S", cmds[i]->name);
		zsh_options(f, cmds[i]);
		zsh_positional(f, cmds[i]);
		fputs(" ;;\n", f);
	}
	fputs("\tesac\n}\n_mempath \"$@\"\n", f);
	return ferror(f) ? -1 : 0;
}

int completion_write(FILE *f, const char *shell, const struct command *const *cmds, size_t n)
{
	return strcmp(shell, "zsh") == 0 ? completion_zsh(f, cmds, n) : bash(f, cmds, n);
}
