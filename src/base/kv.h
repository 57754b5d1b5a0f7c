/* kv.h - "name value" files parsed by name: /proc/vmstat, /proc/meminfo.
 *
 * Counters are looked up by name, never by position; a counter the kernel does
 * not have is absent (kv_get returns found = 0), never zero.
 */
#ifndef MEMPATH_KV_H
#define MEMPATH_KV_H

#include <stddef.h>
#include <stdint.h>

struct kv {
	char *name;
	int64_t value;
};

struct kv_list {
	struct kv *items;
	size_t n, cap;
};

/* /proc/vmstat format: "name value" per line. Returns 0 or -1. */
int kv_parse_vmstat(const char *text, struct kv_list *out);
/* /proc/meminfo format: "Name:   123 kB"; values with "kB" become bytes. */
int kv_parse_meminfo(const char *text, struct kv_list *out);
int vmstat_read(struct kv_list *out);
int meminfo_read(struct kv_list *out);
int64_t kv_get(const struct kv_list *l, const char *name, int *found);
/* Appends name (copied) = v. */
void kv_add(struct kv_list *l, const char *name, int64_t v);
void kv_free(struct kv_list *l);

/* Is a vmstat counter one mempath records per probe (faults, thp_*, compact_*,
 * numa_*, pgmigrate_*, pgpromote_*, pgdemote_*, swap, pghot_*, hwhint_*)? */
int vmstat_is_recorded(const char *name);

/* after - before for every recorded counter (vmstat_is_recorded) present in
 * both; delta is initialised here, kv_free() it. */
void vmstat_delta(const struct kv_list *before, const struct kv_list *after, struct kv_list *delta);

#endif
