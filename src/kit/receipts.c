/* receipts.c - a figure's assumptions checked on its evidence (receipts.h). */
#include "kit/receipts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/opt.h"
#include "base/stats.h"
#include "base/util.h"

static const char *const assumes[] = {
	[RECEIPT_DRAM] = "DRAM: working set >= 4x the last-level cache",
	[RECEIPT_THP] = "THP: huge-page backed, one fault per 2 MiB",
	[RECEIPT_4K] = "4 KiB pages: no THP",
	[RECEIPT_NO_MIGRATION] = "chase: no CPU migration",
	[RECEIPT_LINK] = "copy: the link carried the bytes counted (within 5%)",
	[RECEIPT_LINK_FLOOR] = "copy: the bytes counted crossed the link (its bytes at least "
			       "theirs, less 5%)",
	[RECEIPT_PAGESIZE] = "page size: >= 95% of the buffer backed at the size asked",
};

static const char *param(const struct probe_result *p, const char *key)
{
	for (size_t i = 0; key && i < p->n_params; i++)
		if (!strcmp(p->params[i].key, key))
			return p->params[i].value;
	return NULL;
}

/* Is a counter source ok in p? */
static int source_ok(const struct probe_result *p, const char *source)
{
	size_t i;
	json_t *s;
	json_array_foreach (p->counter_sources, i, s)
		if (!strcmp(json_string_value(json_object_get(s, "source")), source))
			return !strcmp(json_string_value(json_object_get(s, "state")), "ok");
	return 0;
}

/* The windows' counts of counter `name` in m: how many windows were read,
 * their total and the most in one (a counter absent from `moved` did not
 * move). 0 windows when none was read. */
static size_t windows(const struct metric *m, const char *name, double *sum, double *least)
{
	json_t *a = json_object_get(json_object_get(m->counters, "moved"), name);
	json_t *un = json_object_get(m->counters, "unmarked");
	size_t n = m->counters ? m->n_samples - json_array_size(un) : 0, i;
	json_t *x;

	*sum = 0;
	*least = n && !a ? 0 : INFINITY;
	json_array_foreach (a, i, x)
		if (json_is_integer(x)) {
			*sum += (double)json_integer_value(x);
			*least = fmin(*least, (double)json_integer_value(x));
		}
	return n;
}

/* The mean length of m's sample windows, ms (NAN: not recorded). */
static double window_ms(const struct metric *m)
{
	double sum = 0;
	if (!m->t0 || !m->t1 || !m->n_samples)
		return NAN;
	for (size_t i = 0; i < m->n_samples; i++)
		sum += m->t1[i] - m->t0[i];
	return sum / (double)m->n_samples * 1e3;
}

/* The backing metric beside m: named `name`, each of its labels as m has it. */
static const struct metric *beside(const struct probe_result *p, const struct metric *m,
				   const char *name)
{
	for (size_t i = 0; name && i < p->n_metrics; i++) {
		const struct metric *b = &p->metrics[i];
		size_t k;
		if (strcmp(b->name, name) || !b->n_samples)
			continue;
		for (k = 0; k < b->n_labels; k++) {
			const char *v = metric_label(m, b->labels[k].key);
			if (v && strcmp(v, b->labels[k].value))
				break;
		}
		if (k == b->n_labels)
			return b;
	}
	return NULL;
}

/* RECEIPT_PAGESIZE: the fewest MiB backed at the size over the windows. */
static const char *check_pagesize(const struct receipt *r, const struct probe_result *p,
				  const struct metric *m, const struct metric *thp, double mib,
				  char *ev, size_t len)
{
	double least_mib = INFINITY;
	const struct metric *f = beside(p, m, "minor_faults");
	size_t at;

	if (!thp) {
		snprintf(ev, len, "no %s recorded", r->thp);
		return "unknown";
	}
	if (!r->size) { /* a sparse span: of what its lines touched (rss) */
		const struct metric *rss = beside(p, m, "rss");
		if (!rss) {
			snprintf(ev, len, "no rss recorded beside %s", r->thp);
			return "unknown";
		}
		mib = stats_median(rss->samples, rss->n_samples);
	}
	for (size_t k = 0; k < thp->n_samples; k++)
		least_mib = fmin(least_mib, thp->samples[k]);
	snprintf(ev, len, "%s %.0f MiB of %.0f MiB in the fewest of %zu windows (%.1f%%)", r->thp,
		 least_mib, mib, thp->n_samples, 100 * least_mib / mib);
	at = strlen(ev);
	if (f && at < len)
		snprintf(ev + at, len - at, "; %.0f minor faults per GiB",
			 stats_median(f->samples, f->n_samples));
	return least_mib >= RECEIPT_PAGESIZE_SHARE * mib ? "held" : "failed";
}

/* A chase: the windows a CPU migration touched void their samples
 * (*voids, their indices); the figure fails only when too few are left. */
static const char *no_migration(const struct probe_result *p, const struct metric *m, char *ev,
				size_t len, json_t **voids)
{
	double sum, least;
	size_t n;
	json_t *a = json_object_get(json_object_get(m->counters, "moved"), "sw:cpu-migrations"), *d;
	size_t i, touched = 0, kept;
	if (!source_ok(p, "software") || !(n = windows(m, "sw:cpu-migrations", &sum, &least))) {
		snprintf(ev, len, "CPU migrations not read");
		return "unknown";
	}
	if (!(sum > 0)) {
		snprintf(ev, len, "0 CPU migrations over %zu windows", n);
		return "held";
	}
	/* A migration voids the samples of the windows it touched, not
	 * the figure: the others never left their CPU. */
	*voids = json_array();
	json_array_foreach (a, i, d)
		if (i < m->n_samples && json_is_integer(d) && json_integer_value(d) > 0) {
			json_array_append_new(*voids, json_integer((json_int_t)i));
			touched++;
		}
	kept = m->n_samples - touched;
	if (kept < RECEIPT_MIN_KEPT) {
		snprintf(ev, len,
			 "%.0f CPU migrations in %zu of %zu windows: %zu samples left, %d "
			 "needed",
			 sum, touched, n, kept, RECEIPT_MIN_KEPT);
		json_decref(*voids);
		*voids = NULL;
		return "failed";
	}
	snprintf(ev, len,
		 "%.0f CPU migrations in %zu of %zu windows: %zu samples dropped, %zu "
		 "kept",
		 sum, touched, n, touched, kept);
	return "held";
}

/* RECEIPT_LINK and RECEIPT_LINK_FLOOR: the link's bytes over the windows
 * of m against the bytes counted (times the framing param sz names) */
static const char *check_link(const struct receipt *r, const struct probe_result *p,
			      const struct metric *m, const char *sz, char *ev, size_t len)
{
	double sum, least, x;
	size_t n;
	int floor_only = r->kind == RECEIPT_LINK_FLOOR;
	char name[64];
	double most = 0, step, unc, per = 1, work;
	snprintf(name, sizeof(name), "gpu0:%s", r->thp);
	if (!source_ok(p, "gpu") || !(n = windows(m, name, &sum, &least)) || !(m->work > 0)) {
		snprintf(ev, len, "link bytes not read (%s)", name);
		return "unknown";
	}
	/* the link's bytes per byte copied (headers and framing), where
	 * the probe says (r->size names the param) */
	if (r->size && !(sz && (per = strtod(sz, NULL)) >= 1)) {
		snprintf(ev, len, "no TLP framing for %s (%s: the payload size was not read)", name,
			 r->size);
		return "unknown";
	}
	work = m->work * per;
	/* Windows under two of the counter's readouts hold mostly their
	 * edges: a readout's bytes land in the window beside as often as in
	 * their own, so neither the mean nor the readings' spread says what
	 * crossed (the H200's SM copies at 64 KiB in ~20 ms windows read
	 * 0.83x, "failed", where 400 ms windows held) */
	double wms = window_ms(m);
	if (isfinite(wms) && wms < 2 * RECEIPT_LINK_STEP_MS) {
		snprintf(ev, len,
			 "%s read over windows of %.0f ms, under two of its %d ms readouts: a "
			 "window's bytes land in the one beside it (windows of %.0f ms or more "
			 "would tell: --window-ms)",
			 name, wms, RECEIPT_LINK_STEP_MS, RECEIPT_LINK_WINDOW_MS);
		return "unknown";
	}
	json_t *a = json_object_get(json_object_get(m->counters, "moved"), name), *v;
	size_t i;
	json_array_foreach (a, i, v)
		if (json_is_integer(v))
			most = fmax(most, (double)json_integer_value(v));
	/* A counter that stood still over a window while bytes crossed is
	 * not counting them as they cross (NVML's PCIe counters on the
	 * H200: ~3.2 GB jumps in 2 of 10 windows of 50 ms, and 0.009x the
	 * bytes over 10 windows of 1 s, docs/results/receipts-h200-
	 * 2026-12-01.md): it cannot tell. One that moved in every window
	 * is judged on the windows' mean, where its steps (the spread of
	 * its readings) leave the mean within the tolerance; else longer
	 * windows would tell (--window-ms). */
	x = sum / (double)n / work;
	if (!(least > 0)) {
		snprintf(ev, len,
			 "%s stood still over a window of bytes copied (it moved "
			 "in steps "
			 "of up to %.2f GB; %.3fx the bytes counted over %zu "
			 "windows): it "
			 "does not count the bytes as they cross",
			 name, most * 1e-9, x, n);
		return "unknown";
	}
	step = most - least;
	unc = 0.5 * step / work;
	/* one way: the mean is past the floor, or short of it, by more
	 * than the steps leave unsure */
	if (floor_only &&
	    (x - unc >= 1 - RECEIPT_LINK_TOLERANCE || x + unc < 1 - RECEIPT_LINK_TOLERANCE)) {
		snprintf(ev, len,
			 "%s %.3fx the bytes counted with their TLP overhead (x%.4f, the "
			 "least), over %zu windows (steps of up to %.0f%% of a window)",
			 name, x, per, n, 100 * step / work);
		return x - unc >= 1 - RECEIPT_LINK_TOLERANCE ? "held" : "failed";
	}
	if (unc > RECEIPT_LINK_TOLERANCE || floor_only) {
		double w = window_ms(m);
		int k = snprintf(ev, len,
				 "%s advances in steps of up to %.2f GB, %.0f%% of a "
				 "window's "
				 "%.2f GB: %.3fx the bytes counted over %zu windows, which "
				 "cannot tell %.0f%%",
				 name, step * 1e-9, 100 * step / work, work * 1e-9, x, n,
				 100 * RECEIPT_LINK_TOLERANCE);
		/* the room the steps must fit in: half the tolerance each
		 * side of 1, or the mean's distance from the floor */
		double room = floor_only ? fabs(x - (1 - RECEIPT_LINK_TOLERANCE))
					 : RECEIPT_LINK_TOLERANCE / 2;
		if (isfinite(w) && room > 0 && k > 0 && (size_t)k < len)
			snprintf(ev + k, len - (size_t)k,
				 " (windows of %.0f ms or more would: --window-ms)",
				 ceil(w * unc / room));
		return "unknown";
	}
	if (per > 1)
		snprintf(ev, len,
			 "%s %.3fx the bytes counted with their TLP overhead "
			 "(x%.4f), over "
			 "%zu windows",
			 name, x, per, n);
	else
		snprintf(ev, len, "%s %.3fx the bytes counted, over %zu windows", name, x, n);
	return fabs(x - 1) <= RECEIPT_LINK_TOLERANCE ? "held" : "failed";
}

/* state and evidence of one row on one metric */
static const char *check(const struct receipt *r, const struct probe_result *p,
			 const struct metric *m, uint64_t llc, char *ev, size_t len, json_t **voids)
{
	const char *sz = param(p, r->size);
	uint64_t bytes = 0;
	double mib, sum, least, x;
	const struct metric *thp = beside(p, m, r->thp);
	double med = thp ? stats_median(thp->samples, thp->n_samples) : 0, top = 0;
	size_t n;

	for (size_t k = 0; thp && k < thp->n_samples; k++)
		top = fmax(top, thp->samples[k]);
	if (r->size && r->kind != RECEIPT_LINK && r->kind != RECEIPT_LINK_FLOOR &&
	    /* the link's `size` is its framing */
	    (!sz || opt_parse_size(sz, &bytes) != 0 || !bytes)) {
		snprintf(ev, len, "no working set recorded (%s)", r->size);
		return "unknown";
	}
	mib = (double)bytes / 1048576.0;
	switch (r->kind) {
	case RECEIPT_DRAM:
		if (!llc) {
			snprintf(ev, len, "working set %.0f MiB; no cache sizes in sysfs", mib);
			return "unknown";
		}
		x = (double)bytes / (double)llc;
		snprintf(ev, len,
			 x < 1 ? "working set %.0f MiB is %.2gx the %.0f MiB LLC"
			       : "working set %.0f MiB is %.1fx the %.0f MiB LLC",
			 mib, x, (double)llc / 1048576.0);
		return bytes >= RECEIPT_LLC_TIMES * llc ? "held" : "failed";
	case RECEIPT_THP:
		if (!thp) {
			snprintf(ev, len, "no %s recorded", r->thp);
			return "unknown";
		}
		if (med + 1e-9 < mib) {
			snprintf(ev, len, "%s %.0f MiB of %.0f MiB", r->thp, med, mib);
			return "failed";
		}
		if (!r->per_window) {
			snprintf(ev, len, "%s %.0f MiB of %.0f MiB", r->thp, med, mib);
			return "held";
		}
		if (!(n = windows(m, "vmstat:thp_fault_alloc", &sum, &least)) ||
		    !source_ok(p, "vmstat")) {
			snprintf(ev, len, "%s %.0f MiB of %.0f MiB; huge-page faults not read",
				 r->thp, med, mib);
			return "unknown";
		}
		snprintf(ev, len,
			 "%s %.0f MiB of %.0f MiB, huge-page faults %.0f in the fewest of "
			 "%zu "
			 "windows (%.0f expected)",
			 r->thp, med, mib, least, n, mib / 2);
		return least + 1e-9 >= mib / 2 ? "held" : "failed";
	case RECEIPT_4K:
		if (!thp) {
			snprintf(ev, len, "no %s recorded", r->thp);
			return "unknown";
		}
		snprintf(ev, len, "%s %.0f MiB", r->thp, top);
		return top > 0 ? "failed" : "held";
	case RECEIPT_LINK:
	case RECEIPT_LINK_FLOOR:
		return check_link(r, p, m, sz, ev, len);
	case RECEIPT_PAGESIZE:
		return check_pagesize(r, p, m, thp, mib, ev, len);
	case RECEIPT_NO_MIGRATION:
		return no_migration(p, m, ev, len, voids);
	}
	snprintf(ev, len, "unknown receipt");
	return "unknown";
}

void receipts_check(const struct receipt *rows, struct probe_result *p, uint64_t llc_bytes)
{
	for (const struct receipt *r = rows; r && r->metric; r++)
		for (size_t i = 0; i < p->n_metrics; i++) {
			struct metric *m = &p->metrics[i];
			const char *v = r->label ? metric_label(m, r->label) : NULL;
			char ev[256];
			const char *state;
			json_t *voids = NULL, *row;

			const char *v2 = r->label2 ? metric_label(m, r->label2) : NULL;
			if (strcmp(m->name, r->metric) || !m->n_samples ||
			    (r->label && r->value && (!v || strcmp(v, r->value))) ||
			    (r->label2 && r->value2 && (!v2 || strcmp(v2, r->value2))))
				continue;
			if (r->kind == RECEIPT_PAGESIZE && !beside(p, m, r->thp))
				continue;
			state = check(r, p, m, llc_bytes, ev, sizeof(ev), &voids);
			if (!m->receipts)
				m->receipts = json_array();
			row = json_pack("{s:s, s:s, s:s}", "assumes", assumes[r->kind], "state",
					state, "evidence", ev);
			if (voids) /* the samples it voided: out of the figure, kept in the
				      file */
				json_object_set_new(row, "void_samples", voids);
			json_array_append_new(m->receipts, row);
			if (voids)
				metric_summarize(m);
		}
}
