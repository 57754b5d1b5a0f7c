/* pagesize.h - every page size the running kernel offers, the knobs that
 * choose one for a run, and what really backed a buffer (docs/design.md
 * §4.21).
 *
 * Sizes are discovered, never listed: the base page ("4k"), each multi-size
 * THP size under /sys/kernel/mm/transparent_hugepage/hugepages-<kB>kB
 * ("16k" ... "2m"), each hugetlb pool under /sys/kernel/mm/hugepages
 * ("hugetlb-2m", "hugetlb-1g"), and the two intents that change no knob:
 * "thp" (MADV_HUGEPAGE under the settings as found) and "default" (no
 * advice). "all" is 4k, every mTHP size and every hugetlb pool.
 *
 * pagesize_begin() sets the knobs a size needs for one run, as root: for an
 * mTHP size that size's enabled = madvise, every other size never, the
 * global enabled madvise where it was never (the mapping has
 * MADV_HUGEPAGE); for a hugetlb size the pool grown by the pages missing.
 * Before the first write the old values go to the pending-restore record
 * (base/pending.h) in pagesize_journal_dir(); pagesize_end(), a SIGINT,
 * SIGTERM or SIGHUP put every one back and remove the record; after a
 * SIGKILL the next run's pagesize_recover() does (the runner calls it when a
 * probe's child ended, and every pagesize_begin() first).
 */
#ifndef MEMPATH_MACHINE_PAGESIZE_H
#define MEMPATH_MACHINE_PAGESIZE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "machine/mem.h"

enum pagesize_kind {
	PAGESIZE_4K,	  /* MADV_NOHUGEPAGE */
	PAGESIZE_THP,	  /* MADV_HUGEPAGE, knobs as found */
	PAGESIZE_DEFAULT, /* no advice, knobs as found */
	PAGESIZE_MTHP,	  /* one mTHP size enabled alone, MADV_HUGEPAGE */
	PAGESIZE_HUGETLB, /* MAP_HUGETLB from the size's pool */
};

struct pagesize {
	char name[40]; /* "4k", "64k", "2m", "hugetlb-1g", "thp", "default" */
	enum pagesize_kind kind;
	uint64_t bytes; /* the page size asked for; 0 for thp and default */
};

#define PAGESIZE_MAX 32

/* Every size offered here, in the order "all" sweeps them (4k, mTHP
 * ascending, hugetlb ascending), then thp and default. */
size_t pagesize_offered(struct pagesize *out, size_t cap);
/* A comma-separated list of names (and "all") into out; 0, or -1 with why
 * naming the sizes this kernel offers. */
int pagesize_parse(const char *spec, struct pagesize *out, size_t cap, size_t *n, char *why,
		   size_t len);
/* The option check (base/opt.h): NULL when spec parses; and the words
 * the shell completion offers (those of most kernels: the list is read at
 * run time). */
#define PAGESIZE_HINT "4k|thp|default|16k|64k|1m|2m|hugetlb-2m|hugetlb-1g|all"
const char *pagesize_check(const char *spec, char *why, size_t len);

/* The journal's directory: $MEMPATH_KNOB_JOURNAL_DIR, else /run/mempath/knobs. */
const char *pagesize_journal_dir(void);
/* Sets the knobs for ps and a buffer of `bytes` (hugetlb: its pages). 0
 * when they are set (or nothing needed setting; note says what was done),
 * 1 when they could not be (not root, the kernel gave too few pages: note
 * says why; nothing is left changed), -1 on an error (error line). */
int pagesize_begin(const struct pagesize *ps, uint64_t bytes, char *note, size_t len);
/* Puts back what pagesize_begin() changed and removes the record; 0, or -1
 * when a knob could not be written back (error line; the record stays). */
int pagesize_end(void);
/* Puts back what a killed run left in the journal (only paths under
 * /sys/kernel/mm/). 1 when it did (note says what), 0 when there was
 * nothing to do (or the run that wrote it still holds the lock), -1 when a
 * knob could not be written (error line). */
int pagesize_recover(char *note, size_t len);

/* Maps `size` bytes for ps: mem_map() with MADV_HUGEPAGE (mTHP, thp),
 * MADV_NOHUGEPAGE (4k), no advice (default), or MAP_HUGETLB rounded up to
 * whole pages (hugetlb); extra_flags OR-ed into mmap's (MAP_NORESERVE). 0,
 * or -1 with errno set. */
int pagesize_map(struct mem_buf *b, const struct pagesize *ps, size_t size, int extra_flags);

/* Bytes of [addr, addr + len) in folios of at least `size` bytes, from
 * /proc/self/pagemap and /proc/kpageflags (root); -1 when they cannot be
 * read (no PFNs without CAP_SYS_ADMIN). */
int pagesize_backing(const void *addr, size_t len, uint64_t size, uint64_t *at_size);
/* An mTHP size's anon_fault_alloc and anon_fault_fallback (stats/); -1
 * when the size has no stats. */
int pagesize_mthp_stats(uint64_t size, uint64_t *alloc, uint64_t *fallback);

/* Splitting a buffer's huge pages to a smaller order (debugfs
 * split_huge_pages, root): pagesize_split_open() makes sure the file can be
 * written, mounting debugfs when it is not (*mounted: then
 * pagesize_split_close() unmounts it); 0, or -1 with why.
 * pagesize_split() splits every folio of [addr, addr + len) larger than
 * 2^order pages to folios of that order; 0, or -1 (errno). */
int pagesize_split_open(int *mounted, char *why, size_t len);
void pagesize_split_close(int mounted);
int pagesize_split(void *addr, size_t len, unsigned order);

/* The fingerprint's knobs (machine/sysinfo.h): "mthp_<kB>kB_enabled" and
 * "mthp_<kB>kB_shmem_enabled" per mTHP size, "hugetlb_<kB>kB_nr" per pool,
 * read under sys (a /sys tree). */
void pagesize_knobs(json_t *knobs, const char *sys);

#endif
