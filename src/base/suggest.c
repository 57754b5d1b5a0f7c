/* suggest.c - the nearest known name to a mistyped one.
 *
 * Why a bound on the distance: a suggestion far from what was typed is a
 * guess, and a wrong guess costs more than none. Ties give none for the same
 * reason. */
#include "base/suggest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

size_t suggest_distance(const char *a, const char *b)
{
	/* three rows of the table (the swap looks two rows back), so any length works */
	size_t n = strlen(a), m = strlen(b), d;
	size_t *buf = xmalloc(3 * (m + 1) * sizeof(*buf));
	size_t *pp = buf, *p = buf + (m + 1), *c = buf + 2 * (m + 1);

	for (size_t j = 0; j <= m; j++)
		p[j] = j;
	for (size_t i = 1; i <= n; i++) {
		size_t *t;

		c[0] = i;
		for (size_t j = 1; j <= m; j++) {
			size_t cost = a[i - 1] != b[j - 1], v = p[j - 1] + cost;

			if (p[j] + 1 < v)
				v = p[j] + 1;
			if (c[j - 1] + 1 < v)
				v = c[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			c[j] = v;
		}
		t = pp;
		pp = p;
		p = c;
		c = t;
	}
	d = p[m];
	free(buf);
	return d;
}

const char *suggest(const char *typed, const char *const *cands, size_t n)
{
	size_t len = strlen(typed), limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
	size_t best = (size_t)-1, n_best = 0, n_prefix = 0;
	const char *pick = NULL, *prefix = NULL;

	if (len == 0)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t m = strlen(cands[i]);
		/* the distance is at least the difference in length: a candidate
		 * further than the limit by that alone cannot be the pick, and
		 * skipping it keeps a long word from costing len * m per name */
		size_t d = (m > len ? m - len : len - m) > limit
				   ? (size_t)-1
				   : suggest_distance(typed, cands[i]);

		if (strncmp(cands[i], typed, len) == 0) {
			n_prefix++;
			prefix = cands[i];
		}
		if (d < best) {
			best = d;
			pick = cands[i];
			n_best = 1;
		} else if (d == best && pick && strcmp(cands[i], pick) != 0) {
			n_best++;
		}
	}
	if (best <= limit && best < len && n_best == 1)
		return pick;
	return n_prefix == 1 ? prefix : NULL;
}

const char *suggest_choice(const char *typed, const char *choices, char *buf, size_t len)
{
	const char **v = NULL;
	char *dup = xstrdup(choices), *save = NULL;
	const char *s;
	size_t n = 0;

	for (char *t = strtok_r(dup, "|", &save); t; t = strtok_r(NULL, "|", &save)) {
		GROW_ONE(v, n);
		v[n++] = t;
	}
	s = suggest(typed, v, n);
	if (s)
		snprintf(buf, len, "%s", s);
	free(v);
	free(dup);
	return s ? buf : NULL;
}

const char *suggest_phrase(const char *s, char *buf, size_t len)
{
	if (!s)
		return "";
	snprintf(buf, len, "; did you mean '%s'?", s);
	return buf;
}
