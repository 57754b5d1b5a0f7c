/* receipts.h - what a figure assumes, checked against the evidence the
 * probe recorded (docs/design.md §4.18). A probe's receipts are rows of a
 * table beside it (struct probe .receipts); after it ran, each row is
 * checked on every metric it names, and the metric keeps the outcome
 * ("receipts": [{"assumes", "state": held|failed|unknown, "evidence"}]).
 * A failed receipt marks the metric in every report, makes `check`
 * INCONCLUSIVE for it and gives its comparison row no verdict (the receipt
 * rule, §5.12).
 */
#ifndef MEMPATH_RECEIPTS_H
#define MEMPATH_RECEIPTS_H

#include "results/results.h"

enum receipt_kind {
	/* DRAM figure: the working set (param `size`) is at least 4x the
	 * last-level cache sysfs advertises. */
	RECEIPT_DRAM = 1,
	/* THP figure: `thp` (the backing metric, MiB) reads the working set;
	 * with `per_window`, each window's huge-page faults (vmstat
	 * thp_fault_alloc) number at least size / 2 MiB. */
	RECEIPT_THP,
	/* 4 KiB figure: `thp` reads 0 MiB. */
	RECEIPT_4K,
	/* A chase: the probe's threads migrated to no other CPU in a window
	 * (sw:cpu-migrations). A window with a migration voids its sample
	 * ("void_samples": out of the summary and of compare, kept in the
	 * file); the receipt fails only when fewer than RECEIPT_MIN_KEPT
	 * samples are left. */
	RECEIPT_NO_MIGRATION,
	/* A copy over PCIe: each window's link bytes (the gpu counter named by
	 * `thp`, "pcie_rx_link_bytes" for host to device, of gpu0 in NVML's
	 * order) are within RECEIPT_LINK_TOLERANCE of the bytes the sample
	 * counted times the param `size` names (the link's bytes per byte
	 * copied: headers and framing), where it is set. */
	RECEIPT_LINK,
	/* A copy over PCIe in requests of no known size (an SM kernel's over a
	 * host mapping): as RECEIPT_LINK, but one way: each window's link
	 * bytes are at least the bytes counted times `size`'s framing, less
	 * the tolerance - the bytes crossed the link, none came from a cache
	 * on the device's side; more is the requests' overhead, not an error. */
	RECEIPT_LINK_FLOOR,
	/* A page-size figure (docs/design.md §4.21): `thp` (the backing
	 * metric, MiB in folios of at least the size asked) reads at least
	 * RECEIPT_PAGESIZE_SHARE of the working set in every window (no `size`:
	 * of the rss metric beside it, the pages a sparse span touched). Rows
	 * with no backing metric beside them (no size asked) get no receipt. */
	RECEIPT_PAGESIZE,
};

#define RECEIPT_PAGESIZE_SHARE 0.95

#define RECEIPT_LINK_TOLERANCE 0.05

/* The link counter's step: NVML's throughput readout covers 20 ms, and a
 * window's integral may credit up to one readout to the window beside it
 * at each edge (src/gpu/cuda/nvml_link.c). A window of W ms then reads the
 * link's bytes to within 0.5 x step / W of them, so the receipt's default
 * window is the step over its tolerance: 400 ms, where the readings' half
 * spread is at most half the tolerance (the H200's steps at ~58 ms windows:
 * up to 0.35 GB H2D and 1.03 GB D2H, 11% and 32%, unknown; held at 250 and
 * 1000 ms, docs/results/receipts-h200-2026-12-01/link.md). A probe whose
 * figure the link receipt holds samples for at least this long unless the
 * user gave --window-ms. */
#define RECEIPT_LINK_STEP_MS   20
#define RECEIPT_LINK_WINDOW_MS (RECEIPT_LINK_STEP_MS / RECEIPT_LINK_TOLERANCE)

/* The fewest samples left after a receipt voided some before it fails:
 * the fewest a leg of any verdict takes (a leg of a round,
 * COMPARE_MIN_ROUND_SAMPLES); compare's "too few" rule then holds each
 * design to its own minimum (6 a leg in A/B/A', §5.12). */
#define RECEIPT_MIN_KEPT 3

/* The DRAM receipt's multiple of the last-level cache. */
#define RECEIPT_LLC_TIMES 4

struct receipt {
	const char *metric;	     /* the metric it holds for; NULL ends the table */
	const char *label, *value;   /* only where this label has this value; NULL: every one */
	const char *label2, *value2; /* and this one (NULL: no second) */
	enum receipt_kind kind;
	const char *size; /* the param giving the working set ("total_bytes") */
	const char *thp;  /* _THP, _4K: the backing metric ("thp_backed"); _LINK: the counter */
	int per_window;	  /* RECEIPT_THP: the faults happen in the metric's windows */
};

/* Checks each row on p's metrics; llc_bytes: the last-level cache (0:
 * unknown). */
void receipts_check(const struct receipt *rows, struct probe_result *p, uint64_t llc_bytes);

#endif
