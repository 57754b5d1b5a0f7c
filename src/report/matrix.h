/* matrix.h - the src x dst pivot of a probe's metrics, for the writers.
 *
 * A metric carrying both a "src" and a "dst" label is one cell of a matrix
 * (gpu.p2p records one metric per ordered pair of GPUs). Cells are grouped
 * into tables by metric name, unit and the remaining labels; every table of a
 * probe is N x N over all the ids the probe's cells name (numeric ids in
 * numeric order first, then the others in strcmp order), rows src, columns
 * dst, as p2pBandwidthLatencyTest prints them. A cell holds the median of the
 * metric's counted samples, or is missing ("-"): the diagonal when not
 * measured, a pair not measured, a metric without samples. The GPU count is
 * never assumed: it is what the cells name.
 *
 * Pure: reads the probe result, never changes it; only the writers print.
 * Ownership: matrix_build() fills a set the caller frees with
 * matrix_set_free(); every string in it is a copy.
 */
#ifndef MEMPATH_MATRIX_H
#define MEMPATH_MATRIX_H

#include <stddef.h>
#include <stdio.h>

#include "results/results.h"

struct matrix_table {
	char *name;   /* metric name */
	char *labels; /* the other labels, "k=v,k=v" in the first cell's order; "" if none */
	enum unit unit;
	size_t n;	    /* ids (rows = columns) */
	char **ids;	    /* n ids in display order */
	double *median;	    /* n * n, [src * n + dst]; NAN where missing */
	size_t n_cells;	    /* cells present */
	size_t min_samples; /* fewest counted samples of a present cell */
	size_t max_samples; /* most */
	double max_cov;	    /* largest coefficient of variation of a present cell */
};

struct matrix_set {
	struct matrix_table *tables; /* in the order of each table's first metric */
	size_t n;
};

/* 1 when m has both a "src" and a "dst" label. */
int matrix_is_cell(const struct metric *m);
/* The most ids a matrix may have: a file naming more (a results file comes
 * from elsewhere) would make n x n tables of millions of cells to draw. */
#define MATRIX_MAX_IDS 256

/* Pivots p's cells into tables (none: out->n = 0). When two metrics land in
 * the same cell the first one counts. Returns 0, or -1 after an error line
 * when the cells name more than MATRIX_MAX_IDS ids (out then empty). */
int matrix_build(const struct probe_result *p, struct matrix_set *out);
void matrix_set_free(struct matrix_set *s);
/* Every probe of r pivots (matrix_build): 0, or -1 after its error line. */
int matrix_check_run(const struct run *r);
/* Orders two ids: numeric ones by value, before any other; others by strcmp.
 * For qsort-like use; exposed for tests. */
int matrix_id_cmp(const char *a, const char *b);

/* The table as text, every line prefixed with indent:
 *   <name> <labels> (<unit>; median of n samples, CoV max x%)
 *      D\D      0      1
 *        0      -  394.2
 *        1  396.1      -
 */
void matrix_write_text(const struct matrix_table *t, const char *indent, FILE *f);
/* The same as a Markdown paragraph and table, preceded by a blank line. */
void matrix_write_md(const struct matrix_table *t, FILE *f);
/* For writers that lay a table out themselves (html.c), the same words and
 * numbers: "GB/s; median of 3 samples, CoV max 0.2%", and cell (i, j) as
 * text, "-" where missing. */
void matrix_describe(const struct matrix_table *t, char *buf, size_t len);
void matrix_cell_text(const struct matrix_table *t, size_t i, size_t j, char *buf, size_t len);

#endif
