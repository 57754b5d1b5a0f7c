/* test_receipts.c - receipts (kit/receipts.h): the last-level cache read
 * from sysfs-shaped files (tests/data/cache: an L3 of 300 MiB, as the H200
 * host's), and each kind of receipt held, failed or unknown on a crafted
 * probe result. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include "kit/receipts.h"
#include "machine/mem.h"
#include "results/windows.h"

static void test_llc(void **state)
{
	assert_int_equal(mem_llc_bytes_at("tests/data/cache"), 300ull << 20);
	assert_int_equal(mem_llc_bytes_at("tests/data/does-not-exist"), 0);
}

static const char *state_of(const struct metric *m, size_t k, const char **ev)
{
	json_t *r = json_array_get(m->receipts, k);
	*ev = json_string_value(json_object_get(r, "evidence"));
	return json_string_value(json_object_get(r, "state"));
}

static void test_kinds(void **state)
{
	static const struct receipt rows[] = {
		{.metric = "bw", .kind = RECEIPT_DRAM, .size = "total_bytes"},
		{.metric = "rate",
		 .label = "pages",
		 .value = "thp",
		 .kind = RECEIPT_THP,
		 .size = "size_used",
		 .thp = "thp_backed",
		 .per_window = 1},
		{.metric = "rate",
		 .label = "pages",
		 .value = "4k",
		 .kind = RECEIPT_4K,
		 .size = "size_used",
		 .thp = "thp_backed"},
		{.metric = "chase", .kind = RECEIPT_NO_MIGRATION},
		{0},
	};
	struct probe_result p;
	struct metric *m;
	const char *ev;

	probe_result_init(&p, "x");
	probe_result_add_param(&p, "total_bytes", "768M");
	probe_result_add_param(&p, "size_used", "256M");
	p.counter_sources = json_pack("[{s:s,s:s},{s:s,s:s}]", "source", "vmstat", "state", "ok",
				      "source", "software", "state", "ok");
	metric_add_sample(probe_add_metric(&p, "bw", UNIT_GB_S, BETTER_HIGHER, "d", NULL), 1);
	m = probe_add_metric(&p, "rate", UNIT_GIB_S, BETTER_HIGHER, "d", "pages", "thp", NULL);
	metric_add_sample(m, 1);
	metric_add_sample(m, 1);
	m->counters = json_pack("{s:{s:[i,i]}}", "moved", "vmstat:thp_fault_alloc", 128, 127);
	metric_add_sample(probe_add_metric(&p, "thp_backed", UNIT_MIB, BETTER_NONE, "d", "pages",
					   "thp", NULL),
			  256);
	metric_add_sample(
		probe_add_metric(&p, "rate", UNIT_GIB_S, BETTER_HIGHER, "d", "pages", "4k", NULL),
		1);
	metric_add_sample(
		probe_add_metric(&p, "thp_backed", UNIT_MIB, BETTER_NONE, "d", "pages", "4k", NULL),
		2);
	m = probe_add_metric(&p, "chase", UNIT_NS, BETTER_LOWER, "d", NULL);
	metric_add_sample(m, 80);
	m->counters = json_pack("{s:{}}", "moved"); /* read, nothing moved */
	receipts_check(rows, &p, 300ull << 20);

	assert_string_equal(state_of(&p.metrics[0], 0, &ev), "failed");
	assert_string_equal(ev, "working set 768 MiB is 2.6x the 300 MiB LLC");
	assert_string_equal(metric_receipt_failed(&p.metrics[0]), ev);
	/* 127 huge-page faults in one window of 256 MiB: one short */
	assert_string_equal(state_of(&p.metrics[1], 0, &ev), "failed");
	assert_non_null(
		strstr(ev, "huge-page faults 127 in the fewest of 2 windows (128 expected)"));
	assert_string_equal(state_of(&p.metrics[3], 0, &ev), "failed");
	assert_string_equal(ev, "thp_backed 2 MiB");
	assert_string_equal(state_of(&p.metrics[5], 0, &ev), "held");
	assert_string_equal(ev, "0 CPU migrations over 1 windows");
	assert_null(p.metrics[2].receipts); /* no row names it */
	probe_result_clear(&p);

	/* no cache sizes, no counters read: unknown, never held */
	probe_result_init(&p, "x");
	probe_result_add_param(&p, "total_bytes", "2G");
	metric_add_sample(probe_add_metric(&p, "bw", UNIT_GB_S, BETTER_HIGHER, "d", NULL), 1);
	metric_add_sample(probe_add_metric(&p, "chase", UNIT_NS, BETTER_LOWER, "d", NULL), 1);
	receipts_check(rows, &p, 0);
	assert_string_equal(state_of(&p.metrics[0], 0, &ev), "unknown");
	assert_string_equal(state_of(&p.metrics[1], 0, &ev), "unknown");
	assert_null(metric_receipt_failed(&p.metrics[0]));
	probe_result_clear(&p);
}

/* a copy's link bytes beside the bytes it counted: held within 5% */
static void test_link(void **state)
{
	static const struct receipt rows[] = {
		{.metric = "copy_bw", .kind = RECEIPT_LINK, .thp = "pcie_rx_bytes"},
		{0},
	};
	struct probe_result p;
	struct metric *m;
	const char *ev;

	probe_result_init(&p, "gpu.copy");
	p.counter_sources = json_pack("[{s:s,s:s}]", "source", "gpu", "state", "ok");
	/* a: within 5%; b: 30% over; c: a counter that stood still in a window
	 * (NVML's on the H200): it does not count as bytes cross; d: a counter
	 * that moved in every window, in steps of 3.2 GB under windows of 64 GB:
	 * judged on the mean; e: the same steps under 8 GB windows: too coarse */
	static const long long v[5][2] = {{1010000000, 1000000000},
					  {1300000000, 1300000000},
					  {0, 3200000000},
					  {62400000000, 65600000000},
					  {6400000000, 9600000000}};
	static const double work[5] = {1e9, 1e9, 8e8, 6.4e10, 8e9};
	for (int k = 0; k < 5; k++) {
		char key[2] = {(char)('a' + k), 0};
		m = probe_add_metric(&p, "copy_bw", UNIT_GB_S, BETTER_HIGHER, "d", "k", key, NULL);
		metric_add_sample(m, 50);
		metric_add_sample(m, 50);
		m->work = work[k];
		m->counters = json_pack("{s:{s:[I,I]}}", "moved", "gpu0:pcie_rx_bytes",
					(json_int_t)v[k][0], (json_int_t)v[k][1]);
	}
	receipts_check(rows, &p, 0);
	assert_string_equal(state_of(&p.metrics[0], 0, &ev), "held");
	assert_string_equal(ev, "gpu0:pcie_rx_bytes 1.005x the bytes counted, over 2 windows");
	assert_string_equal(state_of(&p.metrics[1], 0, &ev), "failed");
	assert_string_equal(ev, "gpu0:pcie_rx_bytes 1.300x the bytes counted, over 2 windows");
	assert_string_equal(state_of(&p.metrics[2], 0, &ev), "unknown");
	assert_string_equal(ev, "gpu0:pcie_rx_bytes stood still over a window of bytes copied (it "
				"moved in steps of up to 3.20 GB; 2.000x the bytes counted over 2 "
				"windows): it does not count the bytes as they cross");
	assert_string_equal(state_of(&p.metrics[3], 0, &ev), "held");
	assert_string_equal(ev, "gpu0:pcie_rx_bytes 1.000x the bytes counted, over 2 windows");
	assert_string_equal(state_of(&p.metrics[4], 0, &ev), "unknown");
	assert_non_null(
		strstr(ev, "advances in steps of up to 3.20 GB, 40% of a window's 8.00 GB"));
	probe_result_clear(&p);
}

/* link bytes with their TLP overhead: judged against the bytes counted times
 * the probe's framing param; without the param it cannot tell */
static void test_link_framing(void **state)
{
	static const struct receipt rows[] = {
		{.metric = "copy_bw",
		 .kind = RECEIPT_LINK,
		 .size = "link_tlp_rx",
		 .thp = "pcie_rx_link_bytes"},
		{0},
	};
	struct probe_result p;
	const char *ev;

	(void)state;
	for (int with = 0; with < 2; with++) {
		struct metric *m;
		probe_result_init(&p, "gpu.copy");
		p.counter_sources = json_pack("[{s:s,s:s}]", "source", "gpu", "state", "ok");
		if (with)
			probe_result_add_param(&p, "link_tlp_rx", "1.0781");
		/* 1 GB copied a window; the link carried 1.0766 GB (the H200's ratio) */
		m = probe_add_metric(&p, "copy_bw", UNIT_GB_S, BETTER_HIGHER, "d", NULL);
		metric_add_sample(m, 55);
		metric_add_sample(m, 55);
		m->work = 1e9;
		m->counters = json_pack("{s:{s:[I,I]}}", "moved", "gpu0:pcie_rx_link_bytes",
					(json_int_t)1076600000, (json_int_t)1076600000);
		receipts_check(rows, &p, 0);
		if (with) {
			assert_string_equal(state_of(&p.metrics[0], 0, &ev), "held");
			assert_string_equal(ev,
					    "gpu0:pcie_rx_link_bytes 0.999x the bytes counted "
					    "with their TLP overhead (x1.0781), over 2 windows");
		} else {
			assert_string_equal(state_of(&p.metrics[0], 0, &ev), "unknown");
			assert_non_null(strstr(ev, "no TLP framing"));
		}
		probe_result_clear(&p);
	}
}

/* the floor (an SM copy's requests of no known size): more bytes on the
 * link than the framing says is held, fewer fails, and steps that leave the
 * mean on either side of the floor cannot tell */
static void test_link_floor(void **state)
{
	static const struct receipt rows[] = {
		{.metric = "sm_copy_bw",
		 .kind = RECEIPT_LINK_FLOOR,
		 .size = "link_tlp_rx_sm",
		 .thp = "pcie_rx_link_bytes"},
		{0},
	};
	/* per window (1 GB counted, x1.1562 framing: 1.1562 GB expected): a
	 * 1.23x over in steady windows (the H200's 512 MiB SM copies); the
	 * same mean in windows 20% apart; 0.8x (bytes served from a cache);
	 * steps of 0.6 GB about a mean near the floor */
	static const long long v[4][2] = {{1422000000, 1422000000},
					  {1306000000, 1538000000},
					  {925000000, 925000000},
					  {800000000, 1400000000}};
	static const char *const want[4] = {"held", "held", "failed", "unknown"};
	struct probe_result p;
	const char *ev;

	probe_result_init(&p, "gpu.copy");
	p.counter_sources = json_pack("[{s:s,s:s}]", "source", "gpu", "state", "ok");
	probe_result_add_param(&p, "link_tlp_rx_sm", "1.1562");
	for (int k = 0; k < 4; k++) {
		char key[2] = {(char)('a' + k), 0};
		struct metric *m = probe_add_metric(&p, "sm_copy_bw", UNIT_GB_S, BETTER_HIGHER, "d",
						    "k", key, NULL);
		metric_add_sample(m, 50);
		metric_add_sample(m, 50);
		m->work = 1e9;
		m->counters = json_pack("{s:{s:[I,I]}}", "moved", "gpu0:pcie_rx_link_bytes",
					(json_int_t)v[k][0], (json_int_t)v[k][1]);
	}
	receipts_check(rows, &p, 0);
	for (int k = 0; k < 4; k++)
		assert_string_equal(state_of(&p.metrics[k], 0, &ev), want[k]);
	state_of(&p.metrics[0], 0, &ev);
	assert_string_equal(ev,
			    "gpu0:pcie_rx_link_bytes 1.230x the bytes counted with their TLP "
			    "overhead (x1.1562, the least), over 2 windows (steps of up to 0% of "
			    "a window)");
	state_of(&p.metrics[3], 0, &ev);
	assert_non_null(strstr(ev, "advances in steps of up to 0.60 GB"));
	probe_result_clear(&p);
}

/* windows under two of the counter's 20 ms readouts cannot tell, whatever
 * the counter read in them (the H200's 64 KiB SM copies in ~20 ms windows
 * read 0.83x the floor) */
static void test_link_short_windows(void **state)
{
	static const struct receipt rows[] = {
		{.metric = "sm_copy_bw",
		 .kind = RECEIPT_LINK_FLOOR,
		 .size = "link_tlp_rx_sm",
		 .thp = "pcie_rx_link_bytes"},
		{0},
	};
	static const double win_s[2] = {0.021, 0.041}; /* just under, just over 40 ms */
	struct probe_result p;
	const char *ev;

	probe_result_init(&p, "gpu.copy");
	p.counter_sources = json_pack("[{s:s,s:s}]", "source", "gpu", "state", "ok");
	probe_result_add_param(&p, "link_tlp_rx_sm", "1.1562");
	for (int k = 0; k < 2; k++) {
		char key[2] = {(char)('a' + k), 0};
		struct metric *m = probe_add_metric(&p, "sm_copy_bw", UNIT_GB_S, BETTER_HIGHER, "d",
						    "k", key, NULL);
		metric_add_sample_at(m, 50, 1.0, 1.0 + win_s[k]);
		metric_add_sample_at(m, 50, 2.0, 2.0 + win_s[k]);
		m->work = 1e9;
		m->counters = json_pack("{s:{s:[I,I]}}", "moved", "gpu0:pcie_rx_link_bytes",
					(json_int_t)957000000, (json_int_t)957000000);
	}
	receipts_check(rows, &p, 0);
	assert_string_equal(state_of(&p.metrics[0], 0, &ev), "unknown");
	assert_string_equal(ev, "gpu0:pcie_rx_link_bytes read over windows of 21 ms, under two "
				"of its 20 ms readouts: a window's bytes land in the one beside it "
				"(windows of 400 ms or more would tell: --window-ms)");
	/* 41 ms windows are judged: 0.83x the floor fails */
	assert_string_equal(state_of(&p.metrics[1], 0, &ev), "failed");
	probe_result_clear(&p);
}

/* A migration voids the samples of the windows it touched: out of the
 * summary and of compare (metric_kept), kept in the file; the receipt fails
 * only when fewer than RECEIPT_MIN_KEPT samples are left. */
static void test_migration_voids_samples(void **state)
{
	static const struct receipt rows[] = {
		{.metric = "chase", .kind = RECEIPT_NO_MIGRATION},
		{0},
	};
	struct probe_result p;
	struct metric *m, *k;
	const char *ev;
	json_t *moved = json_array();

	probe_result_init(&p, "cpu.latency");
	p.counter_sources = json_pack("[{s:s,s:s}]", "source", "software", "state", "ok");
	m = probe_add_metric(&p, "chase", UNIT_NS, BETTER_LOWER, "d", "size", "16M", NULL);
	for (int i = 0; i < 10; i++) { /* window 3 migrated twice: its sample 5x slower */
		metric_add_sample(m, i == 3 ? 500 : 100 + i);
		json_array_append_new(moved, json_integer(i == 3 ? 2 : 0));
	}
	metric_summarize(m);
	assert_true(m->summary.max == 500);
	m->counters = json_pack("{s:{s:o}}", "moved", "sw:cpu-migrations", moved);
	receipts_check(rows, &p, 0);
	assert_string_equal(state_of(m, 0, &ev), "held");
	assert_string_equal(ev, "2 CPU migrations in 1 of 10 windows: 1 samples dropped, 9 kept");
	assert_null(metric_receipt_failed(m));
	assert_int_equal(metric_void_count(m), 1);
	assert_true(metric_sample_void(m, 3) && !metric_sample_void(m, 2));
	assert_int_equal(m->n_samples, 10); /* kept in the file */
	assert_true(m->summary.max == 109); /* out of the figure */
	k = metric_kept(m);
	assert_int_equal(k->n_samples, 9);
	assert_true(k->samples[3] == 104);
	assert_int_equal(json_array_size(json_object_get(json_object_get(k->counters, "moved"),
							 "sw:cpu-migrations")),
			 9);
	metric_kept_free(k);
	probe_result_clear(&p);

	/* migrations in 8 of 10 windows: 2 left, too few: the receipt fails and
	 * the figure is kept whole */
	probe_result_init(&p, "cpu.latency");
	p.counter_sources = json_pack("[{s:s,s:s}]", "source", "software", "state", "ok");
	m = probe_add_metric(&p, "chase", UNIT_NS, BETTER_LOWER, "d", NULL);
	moved = json_array();
	for (int i = 0; i < 10; i++) {
		metric_add_sample(m, 100);
		json_array_append_new(moved, json_integer(i < 8));
	}
	m->counters = json_pack("{s:{s:o}}", "moved", "sw:cpu-migrations", moved);
	receipts_check(rows, &p, 0);
	assert_string_equal(state_of(m, 0, &ev), "failed");
	assert_string_equal(ev, "8 CPU migrations in 8 of 10 windows: 2 samples left, 3 needed");
	assert_int_equal(metric_void_count(m), 0);
	probe_result_clear(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_llc),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_link),
		cmocka_unit_test(test_link_framing),
		cmocka_unit_test(test_link_floor),
		cmocka_unit_test(test_link_short_windows),
		cmocka_unit_test(test_migration_voids_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
