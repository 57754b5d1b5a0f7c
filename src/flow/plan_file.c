/* plan_file.c - the plan file read (flow/plan.h has its lines). */
#include "flow/plan_file.h"

#include <stdlib.h>
#include <string.h>

#include "base/strvec.h"
#include "base/util.h"

/* The words of s as sh splits them: blanks separate, '...' keeps
 * everything, "..." all but \" and \\, a backslash outside quotes keeps
 * the next character. 0, or -1 with an unclosed quote. */
static int split_words(const char *s, struct strvec *out)
{
	struct strvec w = STRVEC_INIT;
	while (*s) {
		char *word = xcalloc(strlen(s) + 1, 1), *d = word;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s) {
			free(word);
			break;
		}
		while (*s && *s != ' ' && *s != '\t') {
			char q = *s;
			if (q == '\'' || q == '"') {
				for (s++; *s && *s != q; s++) {
					if (q == '"' && *s == '\\' && (s[1] == '"' || s[1] == '\\'))
						s++;
					*d++ = *s;
				}
				if (!*s) {
					free(word);
					strvec_clear(&w);
					return -1;
				}
				s++;
			} else if (q == '\\' && s[1]) {
				*d++ = s[1];
				s += 2;
			} else {
				*d++ = *s++;
			}
		}
		strvec_push(&w, word);
		free(word);
	}
	strvec_pushv(out, w.v, w.n);
	strvec_clear(&w);
	return 0;
}

static struct plan_variant *find_variant(const struct plan *p, const char *name, size_t *at)
{
	for (size_t i = 0; i < p->n_v; i++)
		if (strcmp(p->v[i].name, name) == 0) {
			if (at)
				*at = i;
			return &p->v[i];
		}
	return NULL;
}

/* A variant's name is its legs' label and part of their files' names. */
static int good_name(const char *s)
{
	return *s &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-") ==
		       strlen(s);
}

struct parse {
	struct plan *p;
	const char *path;
	unsigned line;
	struct plan_variant *cur; /* the variant the lines belong to */
	char *legs, *baseline;	  /* kept to the end: the variants come first or after */
	unsigned legs_line, baseline_line;
};

static int bad(const struct parse *ps, const char *what)
{
	return error("%s:%u: %s", ps->path, ps->line, what);
}

/* A string statement given twice is an error, not a silent override. */
static int set_once(const struct parse *ps, char **field, const char *key, const char *value)
{
	if (*field) {
		char *m = xasprintf("'%s' given twice", key);
		bad(ps, m);
		free(m);
		return -1;
	}
	if (!*value) {
		char *m = xasprintf("'%s' needs a value", key);
		bad(ps, m);
		free(m);
		return -1;
	}
	*field = xstrdup(value);
	return 0;
}

static int variant_line(struct parse *ps, const char *key, const char *rest)
{
	struct plan_variant *v = ps->cur;
	struct strvec w = STRVEC_INIT;
	struct plan_cond c = {0};
	int rc = -1;
	if (!strcmp(key, "setup"))
		return set_once(ps, &v->setup, key, rest);
	if (!strcmp(key, "restore"))
		return set_once(ps, &v->restore, key, rest);
	if (!strcmp(key, "boot"))
		return set_once(ps, &v->boot, key, rest);
	if (!strcmp(key, "args"))
		return set_once(ps, &v->args, key, rest);
	if (!strcmp(key, "env")) {
		const char *eq = strchr(rest, '=');
		if (!eq || eq == rest || strchr(rest, ' '))
			return bad(ps, "env takes one K=V");
		GROW_ONE(v->env, v->n_env);
		v->env[v->n_env++] = xstrdup(rest);
		return 0;
	}
	strvec_split(&w, rest, " \t");
	if (!strcmp(key, "kernel") && w.n == 1) {
		c = (struct plan_cond){PLAN_KERNEL, xstrdup(w.v[0]), NULL, 0};
	} else if (!strcmp(key, "cmdline") && w.n == 1 && strcmp(w.v[0], "!")) {
		int neg = w.v[0][0] == '!';
		c = (struct plan_cond){PLAN_CMDLINE, xstrdup(w.v[0] + neg), NULL, neg};
	} else if (!strcmp(key, "module") && (w.n == 1 || w.n == 2) && !strchr(w.v[0], '/')) {
		c = (struct plan_cond){PLAN_MODULE, xstrdup(w.v[0]),
				       w.n == 2 ? xstrdup(w.v[1]) : NULL, 0};
	} else {
		if (!strcmp(key, "kernel") || !strcmp(key, "cmdline") || !strcmp(key, "module"))
			bad(ps,
			    !strcmp(key, "module")
				    ? "module takes NAME [VERSION]"
				    : (!strcmp(key, "kernel") ? "kernel takes one GLOB (uname -r)"
							      : "cmdline takes one [!]WORD"));
		else {
			char *m = xasprintf("unknown statement '%s' in variant '%s' (kernel, "
					    "cmdline, module, setup, restore, env, args, boot)",
					    key, v->name);
			bad(ps, m);
			free(m);
		}
		goto out;
	}
	GROW_ONE(v->conds, v->n_conds);
	v->conds[v->n_conds++] = c;
	rc = 0;
out:
	strvec_clear(&w);
	return rc;
}

static int top_line(struct parse *ps, const char *key, const char *rest)
{
	struct plan *p = ps->p;
	if (!strcmp(key, "variant")) {
		if (!good_name(rest))
			return bad(ps, "a variant's name is letters, digits and _.+- (it names "
				       "its legs' files)");
		if (find_variant(p, rest, NULL))
			return bad(ps, "a variant of that name is declared already");
		GROW_ONE(p->v, p->n_v);
		p->v[p->n_v] = (struct plan_variant){.name = xstrdup(rest)};
		ps->cur = &p->v[p->n_v++];
		return 0;
	}
	if (!strcmp(key, "command")) {
		struct strvec w = STRVEC_INIT;
		if (p->argv)
			return bad(ps, "'command' given twice");
		if (split_words(rest, &w) != 0)
			return bad(ps, "an unclosed quote");
		if (w.n == 0)
			return bad(ps, "'command' needs the mempath command the legs run");
		p->argc = (int)w.n;
		p->argv = strvec_detach(&w);
		return 0;
	}
	if (!strcmp(key, "legs")) {
		ps->legs_line = ps->line;
		return set_once(ps, &ps->legs, key, rest);
	}
	if (!strcmp(key, "baseline")) {
		ps->baseline_line = ps->line;
		return set_once(ps, &ps->baseline, key, rest);
	}
	/* after a variant line, restore is that variant's */
	if (!strcmp(key, "restore") && !ps->cur)
		return set_once(ps, &p->restore, key, rest);
	if (!strcmp(key, "primary"))
		return set_once(ps, &p->primary, key, rest);
	if (!strcmp(key, "expect-diff")) {
		if (!*rest || strchr(rest, ' '))
			return bad(ps, "expect-diff takes one knob");
		GROW_ONE(p->expect_diff, p->n_expect_diff);
		p->expect_diff[p->n_expect_diff++] = xstrdup(rest);
		return 0;
	}
	if (ps->cur)
		return variant_line(ps, key, rest);
	{
		char *m = xasprintf("unknown statement '%s' (command, legs, baseline, restore, "
				    "expect-diff, primary, variant; kernel, cmdline, module, "
				    "setup, env, args and boot follow a variant line)",
				    key);
		bad(ps, m);
		free(m);
	}
	return -1;
}

/* The legs line against the variants: every name declared, every variant
 * the same number of times. */
static int check_legs(struct parse *ps)
{
	struct plan *p = ps->p;
	struct strvec w = STRVEC_INIT;
	int rc = -1;
	ps->line = ps->legs_line;
	strvec_split(&w, ps->legs, " \t");
	p->legs = xcalloc(w.n + 1, sizeof(*p->legs));
	for (size_t i = 0; i < w.n; i++) {
		if (!find_variant(p, w.v[i], &p->legs[i])) {
			char *m = xasprintf("legs: no variant '%s' is declared", w.v[i]);
			bad(ps, m);
			free(m);
			goto out;
		}
	}
	p->n_legs = w.n;
	for (size_t k = 0; k < p->n_v; k++) {
		size_t n = 0, n0 = 0;
		for (size_t i = 0; i < p->n_legs; i++) {
			n += p->legs[i] == k;
			n0 += p->legs[i] == 0;
		}
		if (n == 0 || n != n0) {
			char *m = xasprintf("legs: variant '%s' has %zu leg(s), '%s' %zu: every "
					    "variant the same number (a round is one leg of each)",
					    p->v[k].name, n, p->v[0].name, n0);
			bad(ps, m);
			free(m);
			goto out;
		}
	}
	rc = 0;
out:
	strvec_clear(&w);
	return rc;
}

static int finish(struct parse *ps)
{
	struct plan *p = ps->p;
	if (!p->argv)
		return error("%s: no 'command' line (the mempath command every leg runs)",
			     ps->path);
	if (p->n_v < 2)
		return error("%s: a plan needs two variants or more ('variant NAME' lines), "
			     "it has %zu",
			     ps->path, p->n_v);
	if (!ps->legs)
		return error("%s: no 'legs' line (the order of the legs)", ps->path);
	if (check_legs(ps) != 0)
		return -1;
	if (ps->baseline && !find_variant(p, ps->baseline, &p->baseline)) {
		ps->line = ps->baseline_line;
		return bad(ps, "baseline: no variant of that name is declared");
	}
	return 0;
}

int plan_parse(const char *path, struct plan *p)
{
	struct parse ps = {.p = p, .path = path};
	char *text;
	size_t len = 0;
	int rc = -1;
	memset(p, 0, sizeof(*p));
	text = read_file_str(path, &len);
	if (!text)
		return error("cannot read the plan file '%s'", path);
	if (strlen(text) != len) {
		free(text);
		return error("%s: not a text file (a NUL byte)", path);
	}
	p->path = xstrdup(path);
	p->text = xstrdup(text);
	/* strtok_r would merge empty lines and lose the numbers: walk them */
	for (char *s = text, *eol; s && *s; s = eol ? eol + 1 : NULL) {
		char *key, *rest;
		eol = strchr(s, '\n');
		if (eol)
			*eol = '\0';
		ps.line++;
		s = str_trim(s);
		if (!*s || *s == '#')
			continue;
		key = s;
		rest = s + strcspn(s, " \t");
		if (*rest)
			*rest++ = '\0';
		rest = str_trim(rest);
		if (top_line(&ps, key, rest) != 0)
			goto out;
	}
	rc = finish(&ps);
out:
	free(ps.legs);
	free(ps.baseline);
	free(text);
	if (rc != 0)
		plan_free(p);
	return rc;
}

unsigned plan_leg_round(const struct plan *p, size_t i)
{
	unsigned r = 0;
	for (size_t k = 0; k <= i && k < p->n_legs; k++)
		r += p->legs[k] == p->legs[i];
	return r;
}

void plan_free(struct plan *p)
{
	for (size_t i = 0; i < p->n_v; i++) {
		struct plan_variant *v = &p->v[i];
		free(v->name);
		free(v->setup);
		free(v->restore);
		free(v->boot);
		free(v->args);
		for (size_t k = 0; k < v->n_env; k++)
			free(v->env[k]);
		free(v->env);
		for (size_t k = 0; k < v->n_conds; k++) {
			free(v->conds[k].what);
			free(v->conds[k].version);
		}
		free(v->conds);
	}
	free(p->v);
	for (int i = 0; p->argv && i < p->argc; i++)
		free(p->argv[i]);
	free(p->argv);
	for (size_t i = 0; i < p->n_expect_diff; i++)
		free(p->expect_diff[i]);
	free(p->expect_diff);
	free(p->legs);
	free(p->restore);
	free(p->primary);
	free(p->path);
	free(p->text);
	memset(p, 0, sizeof(*p));
}
