/* tracecount.h - tracepoints and perf events counted, for the counters layer
 * (counters.h, docs/design.md §4.17): perf_event_open in counting mode, one
 * group a CPU holding every tracepoint (read in one call a CPU), and why the
 * kernel refused when it did.
 */
#ifndef MEMPATH_TRACECOUNT_H
#define MEMPATH_TRACECOUNT_H

#include <jansson.h>
#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* perf_event_open(2), close-on-exec: an fd or -1 (errno). */
int perf_event_fd(struct perf_event_attr *a, pid_t pid, int cpu, int group);
/* Why perf_event_open(what) refused, from errno: "not permitted
 * (perf_event_paranoid 2)" or strerror; a new string. */
char *perf_refusal(const char *what);

struct tracecount;

/* The tlb:tlb_flush reason names by value (x86's enum tlb_flush_reason),
 * NULL past the last. */
const char *tracecount_tlb_reason(unsigned reason);

/* Opens the counted tracepoints on every online CPU: every huge_memory
 * event, migrate:mm_migrate_pages, tlb:tlb_flush once a reason (a filter),
 * iommu:map and unmap, irq:irq_handler_entry once a device line of
 * `irq_lines` ("343:nvidia"). NULL with *why set (a new string) when tracefs
 * is not mounted or nothing could be opened; events not in tracefs go to
 * *missing (a new array, or NULL). */
struct tracecount *tracecount_open(char *const *irq_lines, size_t n_irq, char **why,
				   json_t **missing);
size_t tracecount_n(const struct tracecount *t);
/* "tlb:tlb_flush:remote_shootdown", "huge_memory:mm_khugepaged_scan_pmd". */
const char *tracecount_name(const struct tracecount *t, size_t i);
/* Each event's count summed over the CPUs into row[0..n); -1 where a CPU's
 * group could not be read. */
void tracecount_read(struct tracecount *t, int64_t *row);
void tracecount_close(struct tracecount *t);

#endif
