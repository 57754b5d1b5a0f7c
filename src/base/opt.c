/* opt.c - option rows: parsing (sizes with binary suffixes, counts, lists of
 * choices), defaults through the same parser, canonical formatting, help. */
#include "base/opt.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/suggest.h"
#include "base/util.h"

int opt_parse_size(const char *s, uint64_t *out)
{
	char *end;
	double v, mult = 1;
	const char *q;
	int dots = 0;
	if (!s || !*s)
		return -1;
	/* Plain decimal only: strtod would also take hex, exponents, "inf". */
	for (q = s; isdigit((unsigned char)*q) || *q == '.'; q++)
		dots += *q == '.';
	if (q == s || dots > 1 || (dots && q == s + 1))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	switch (*end) {
	case 'k':
	case 'K':
		mult = 1024.0;
		end++;
		break;
	case 'm':
	case 'M':
		mult = 1048576.0;
		end++;
		break;
	case 'g':
	case 'G':
		mult = 1073741824.0;
		end++;
		break;
	case 't':
	case 'T':
		mult = 1099511627776.0;
		end++;
		break;
	default:
		break;
	}
	if (mult > 1 && *end == 'i')
		end++;
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end)
		return -1;
	v *= mult;
	if (v >= 18446744073709551615.0)
		return -1;
	if (v != floor(v))
		return -1; /* "1.3k" is not a whole number of bytes */
	*out = (uint64_t)v;
	return 0;
}

void opt_format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char suffix[] = "KMGT";
	/* Largest unit giving a whole number, or a quarter of one (1.5G). */
	for (int i = 3; i >= 0; i--) {
		uint64_t unit = 1ull << (10 * (i + 1));
		if (bytes < unit)
			continue;
		if (bytes % unit == 0) {
			snprintf(buf, len, "%llu%c", (unsigned long long)(bytes / unit), suffix[i]);
			return;
		}
		if ((bytes % (unit / 4)) == 0) {
			snprintf(buf, len, "%.17g%c", (double)bytes / (double)unit, suffix[i]);
			return;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)bytes);
}

static int parse_uint(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

static int n_choices(const struct opt *o)
{
	int n = 1;
	for (const char *p = o->choices; *p; p++)
		n += *p == '|';
	return n;
}

const char *opt_choice_name(const struct opt *o, int i, char *buf, size_t len)
{
	const char *p = o->choices;
	for (int k = 0; k < i && p; k++) {
		p = strchr(p, '|');
		if (p)
			p++;
	}
	if (!p) {
		snprintf(buf, len, "?");
		return buf;
	}
	size_t n = strcspn(p, "|");
	snprintf(buf, len, "%.*s", (int)n, p);
	return buf;
}

int opt_choice_index(const struct opt *o, const char *choice)
{
	char name[64];
	int n = n_choices(o);
	for (int i = 0; i < n; i++)
		if (strcmp(opt_choice_name(o, i, name, sizeof(name)), choice) == 0)
			return i;
	return -1;
}

static int parse_list(const struct opt *o, const char *v, uint32_t *out)
{
	char *dup, *tok, *save = NULL;
	uint32_t mask = 0;
	if (!*v)
		return -1;
	if (strcmp(v, "all") == 0) {
		*out = (uint32_t)((1ull << n_choices(o)) - 1);
		return 0;
	}
	dup = xstrdup(v);
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int i = opt_choice_index(o, tok);
		if (i < 0) {
			free(dup);
			return -1;
		}
		mask |= 1u << i;
	}
	free(dup);
	if (!mask)
		return -1;
	*out = mask;
	return 0;
}

static const struct opt *find_opt(const struct opt *opts, const char *name, size_t n)
{
	for (const struct opt *o = opts; o && o->name; o++)
		if (strlen(o->name) == n && strncmp(o->name, name, n) == 0)
			return o;
	return NULL;
}

/* "; did you mean 'thp'?" for the first item of v that is no choice. */
static const char *list_hint(const struct opt *o, const char *v, char *hint, size_t len)
{
	char *dup = xstrdup(v), *save = NULL, pick[64];
	const char *s = NULL;

	for (char *t = strtok_r(dup, ",", &save); t && !s; t = strtok_r(NULL, ",", &save))
		if (opt_choice_index(o, t) < 0)
			s = suggest_choice(t, o->choices, pick, sizeof(pick));
	suggest_phrase(s, hint, len);
	free(dup);
	return s ? hint : "";
}

static int set_value(const struct opt *o, void *dst, const char *v, const char *ctx)
{
	char *field = (char *)dst + o->offset, hint[320];
	switch (o->type) {
	case OPT_T_SIZE:
		if (opt_parse_size(v, (uint64_t *)field) != 0)
			return error(
				"bad size '%s' for option '%s'%s%s (examples: 4096, 64K, 512M, 1G)",
				v, o->name, ctx ? " of " : "", ctx ? ctx : "");
		return 0;
	case OPT_T_UINT:
		if (parse_uint(v, (uint64_t *)field) != 0)
			return error("bad number '%s' for option '%s'%s%s", v, o->name,
				     ctx ? " of " : "", ctx ? ctx : "");
		return 0;
	case OPT_T_DOUBLE: {
		char *end;
		double d;
		errno = 0;
		d = strtod(v, &end);
		if (!*v || *end || errno || !isfinite(d))
			return error("bad number '%s' for option '%s'%s%s", v, o->name,
				     ctx ? " of " : "", ctx ? ctx : "");
		*(double *)field = d;
		return 0;
	}
	case OPT_T_LIST:
		if (parse_list(o, v, (uint32_t *)field) != 0)
			return error("bad value '%s' for option '%s'%s%s: choose from %s "
				     "(comma-separated) or all%s",
				     v, o->name, ctx ? " of " : "", ctx ? ctx : "", o->choices,
				     list_hint(o, v, hint, sizeof(hint)));
		return 0;
	case OPT_T_CPUS:
	case OPT_T_STR: {
		/* a list's syntax is a usage error here, never a skip at run time */
		const char *why = o->check ? o->check(v, hint, sizeof(hint)) : NULL;

		if (why) /* "gpu.l2: threads=x: ...": the probe first, as its own checks */
			return error("%s%s%s=%s: %s", ctx ? ctx : "", ctx ? ": " : "", o->name, v,
				     why);
	}
		if (strlen(v) >= OPT_STR_MAX)
			return error("value for option '%s' is too long", o->name);
		strcpy(field, v);
		return 0;
	case OPT_T_END:
		break;
	}
	return error("option '%s' has no type", o->name);
}

int opt_defaults(const struct opt *opts, void *dst)
{
	for (const struct opt *o = opts; o && o->name; o++)
		if (set_value(o, dst, o->def ? o->def : "", "(default)") != 0)
			return -1;
	return 0;
}

/* "; did you mean 'pages'?" for a mistyped option name, or "". */
static const char *name_hint(const struct opt *opts, const char *kv, const char *eq, char *hint)
{
	const char *names[64], *s;
	char typed[64];
	size_t n = 0;

	for (const struct opt *o = opts; o && o->name && n < 64; o++)
		names[n++] = o->name;
	snprintf(typed, sizeof(typed), "%.*s", (int)(eq - kv), kv);
	s = suggest(typed, names, n);
	return s ? suggest_phrase(s, hint, 96) : "";
}

int opt_set(const struct opt *opts, void *dst, const char *kv, const char *ctx)
{
	const char *eq = strchr(kv, '=');
	const struct opt *o;
	char hint[96];
	if (!eq || eq == kv)
		return error("option '%s' is not of the form name=value", kv);
	o = find_opt(opts, kv, (size_t)(eq - kv));
	if (!o)
		return error("unknown option '%.*s'%s%s%s (see 'mempath help%s%s')", (int)(eq - kv),
			     kv, ctx ? " for " : "", ctx ? ctx : "", name_hint(opts, kv, eq, hint),
			     ctx ? " " : "", ctx ? ctx : "");
	return set_value(o, dst, eq + 1, ctx);
}

int opt_set_all(const struct opt *opts, void *dst, const char *kvs, const char *ctx)
{
	char *dup, *tok, *save = NULL;
	int rc = 0;
	if (!kvs)
		return 0;
	dup = xstrdup(kvs);
	for (tok = strtok_r(dup, " ", &save); tok && rc == 0; tok = strtok_r(NULL, " ", &save))
		rc = opt_set(opts, dst, tok, ctx);
	free(dup);
	return rc;
}

void opt_format_value(const struct opt *o, const void *src, char *buf, size_t len)
{
	const char *field = (const char *)src + o->offset;
	switch (o->type) {
	case OPT_T_SIZE:
		opt_format_size(*(const uint64_t *)field, buf, len);
		break;
	case OPT_T_UINT:
		snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)field);
		break;
	case OPT_T_DOUBLE:
		snprintf(buf, len, "%g", *(const double *)field);
		break;
	case OPT_T_LIST: {
		uint32_t mask = *(const uint32_t *)field;
		size_t used = 0;
		char name[64];
		buf[0] = '\0';
		for (int i = 0; i < n_choices(o) && used < len; i++) {
			if (!(mask & (1u << i)))
				continue;
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "",
						 opt_choice_name(o, i, name, sizeof(name)));
		}
		break;
	}
	case OPT_T_STR:
	case OPT_T_CPUS:
		snprintf(buf, len, "%s", field);
		break;
	case OPT_T_END:
		buf[0] = '\0';
		break;
	}
}

const char *opt_type_name(enum opt_type t)
{
	static const char *const names[] = {"",	    "size", "count",  "number",
					    "list", "text", "threads"};

	return (size_t)t < sizeof(names) / sizeof(names[0]) ? names[t] : "";
}

void opt_print_help(const struct opt *opts, FILE *f)
{

	if (!opts || !opts->name) {
		fprintf(f, "  (no options)\n");
		return;
	}
	for (const struct opt *o = opts; o->name; o++) {
		char lhs[64];
		snprintf(lhs, sizeof(lhs), "%s=<%s>", o->name, opt_type_name(o->type));
		fprintf(f, "  %-22s %s (default: %s)\n", lhs, o->help,
			o->def && *o->def ? o->def : "none");
		if (o->type == OPT_T_LIST)
			fprintf(f, "  %-22s choices: %s, comma-separated, or all\n", "",
				o->choices);
	}
}
