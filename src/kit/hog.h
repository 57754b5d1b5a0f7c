/* hog.h - a host memory hog: a child that maps anonymous memory (4 KiB
 * pages), touches it, says so on its status line and keeps every page hot
 * until stopped. Memory pressure for work.decode (hog=SIZE) and `phantom
 * --hog`/`--holder cpu:SIZE`. Like every child (base/proc.h) it runs in its
 * own process group and dies with its parent.
 */
#ifndef MEMPATH_HOG_H
#define MEMPATH_HOG_H

#include <stdint.h>

#include "base/proc.h"
#include "machine/mem.h"

/* Maps bytes and writes one byte per 4 KiB page (the kernel zero-fills the
 * rest): the ordinary path of a malloc'd buffer on a THP=madvise box, whose
 * frees go through the per-CPU lists. Returns the memory, or NULL. */
char *hog_touch(struct mem_buf *b, uint64_t bytes);
/* Writes every page once a second, so reclaim sees it in use. Never returns. */
void hog_keep_hot(char *p, uint64_t bytes) __attribute__((noreturn));
/* Starts the hog; proc_ready(p, ...) says when it holds its memory,
 * proc_stop() or proc_free() end it (SIGTERM, SIGKILL 2 s later). The
 * memory policy of the calling thread applies to it. Returns 0 or -1
 * (error printed). */
int hog_start(struct proc *p, uint64_t bytes);

#endif
