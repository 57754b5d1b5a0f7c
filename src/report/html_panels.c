/* html_panels.c - how series look and where they go: styles from their
 * labels, and small multiples (html_plot.h). */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/html_page.h"
#include "report/html_plot.h"

/* The index of v among the first n of seen (added when new); -1 when full. */
static int index_of(char (*seen)[160], size_t *n, size_t max, const char *v)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(seen[i], v) == 0)
			return (int)i;
	if (*n == max)
		return -1;
	snprintf(seen[*n], sizeof(seen[*n]), "%s", v);
	return (int)(*n)++;
}

void plot_split_label(const char *s, const char *key, char *pair, char *rest, size_t len)
{
	char *dup = xstrdup(s), *save = NULL;
	size_t used = 0, kl = strlen(key);

	pair[0] = rest[0] = '\0';
	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (strncmp(t, key, kl) == 0 && t[kl] == '=')
			snprintf(pair, len, "%s", t);
		else
			used += (size_t)snprintf(rest + used, used < len ? len - used : 0, "%s%s",
						 used ? "," : "", t);
	free(dup);
}

/* The label keys of series 0 whose value is not the same in every series,
 * in order; returns how many (at most max). */
static size_t varying_keys(const struct plot_series *s, size_t n, char (*keys)[64], size_t max)
{
	char *dup = xstrdup(n ? s[0].name : ""), *save = NULL, p0[160], pi[160], rest[160];
	size_t k = 0;

	for (char *t = strtok_r(dup, ",", &save); t && k < max; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		int varies = 0;

		if (!eq)
			continue;
		*eq = '\0';
		plot_split_label(s[0].name, t, p0, rest, sizeof(p0));
		for (size_t i = 1; i < n && !varies; i++) {
			plot_split_label(s[i].name, t, pi, rest, sizeof(pi));
			varies = strcmp(p0, pi) != 0;
		}
		if (varies)
			snprintf(keys[k++], sizeof(keys[0]), "%s", t);
	}
	free(dup);
	return k;
}

/* Colour by everything but key, dash by key: 0 when that takes at most 8
 * colours and 4 dashes (and the styles are set), else -1. */
static int style_by(struct plot_series *s, size_t n, const char *key)
{
	char pair[160], rest[160], seen_c[PLOT_MAX_SERIES][160], seen_d[PLOT_MAX_SERIES][160];
	int c[PLOT_MAX_SERIES], d[PLOT_MAX_SERIES];
	size_t nc = 0, nd = 0;

	for (size_t i = 0; i < n; i++) {
		plot_split_label(s[i].name, key, pair, rest, sizeof(pair));
		c[i] = index_of(seen_c, &nc, 8, rest);
		d[i] = index_of(seen_d, &nd, 4, pair);
		if (c[i] < 0 || d[i] < 0)
			return -1;
	}
	for (size_t i = 0; i < n; i++) {
		s[i].colour = c[i];
		s[i].dash = d[i];
	}
	return 0;
}

void plot_styles(struct plot_series *s, size_t n)
{
	char keys[8][64];
	size_t nk = varying_keys(s, n, keys, 8);

	for (size_t i = 0; i < n; i++) {
		s[i].colour = (int)i;
		s[i].dash = i >= 12 ? 1 : 0;
	}
	/* the dash from the last key that allows it (order, pages), so the
	 * colours go to what the reader compares first */
	if (nk < 2)
		return; /* one key that varies: a colour each */
	for (size_t k = nk; k-- > 0;)
		if (style_by(s, n, keys[k]) == 0)
			return;
}

void plot_panels_begin(FILE *f, const char *title, const char *how)
{
	html_put(f, "<p><b>", title, "</b>");
	html_put(f, "", how, "</p>\n<div class=\"panels\">\n");
}

void plot_panels_end(FILE *f)
{
	fputs("</div>\n", f);
}

/* The index of v in vals (added when new and there is room); -1 when full. */
static int value_index(char (*vals)[160], size_t *n, const char *v)
{
	return index_of(vals, n, PLOT_MAX_SERIES, v);
}

int plot_panels(FILE *f, const struct plot_lines *all, const char *key, int one_scale)
{
	char vals[PLOT_MAX_SERIES][160], rest[PLOT_MAX_SERIES][160], pair[160], other[160];
	struct plot_series styled[PLOT_MAX_SERIES], sub[PLOT_MAX_SERIES];
	size_t nv = 0, nr = 0, kl = strlen(key);
	double lo = 0, hi = 0;
	struct plot_lines pl;

	for (size_t i = 0; i < all->n; i++) {
		plot_split_label(all->s[i].name, key, pair, other, sizeof(pair));
		if (!pair[0] || value_index(vals, &nv, pair + kl + 1) < 0 ||
		    value_index(rest, &nr, other) < 0)
			return 0;
	}
	if (nv < 2 || plot_lines_y_extent(all, &lo, &hi) != 0)
		return 0;
	memset(styled, 0, sizeof(styled));
	for (size_t k = 0; k < nr; k++)
		snprintf(styled[k].name, sizeof(styled[k].name), "%.159s", rest[k]);
	plot_styles(styled, nr);
	snprintf(other, sizeof(other), ", one panel per %.40s (%s%s)", key,
		 one_scale ? "one scale" : "a scale each",
		 plot_lines_has_band(all) ? "; medians with their p5-p95 band" : "");
	plot_panels_begin(f, all->title, other);
	for (size_t v = 0; v < nv; v++) {
		char title[192];
		size_t n = 0;

		for (size_t i = 0; i < all->n; i++) {
			int k;

			plot_split_label(all->s[i].name, key, pair, other, sizeof(pair));
			if (strcmp(pair + kl + 1, vals[v]) != 0)
				continue;
			k = value_index(rest, &nr, other);
			sub[n] = all->s[i];
			snprintf(sub[n].name, sizeof(sub[n].name), "%s", other);
			sub[n].colour = styled[k].colour;
			sub[n++].dash = styled[k].dash;
		}
		snprintf(title, sizeof(title), "%.30s=%.150s", key, vals[v]);
		pl = *all;
		pl.title = title;
		pl.s = sub;
		pl.n = n;
		pl.panel_w = CHART_W / 2.0 - 6;
		pl.y_lo = one_scale ? lo : 0;
		pl.y_hi = one_scale ? hi : 0;
		plot_lines(f, &pl);
	}
	plot_panels_end(f);
	return 1;
}
