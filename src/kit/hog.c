/* hog.c - a child that holds host memory and keeps it hot. */
#include "kit/hog.h"

#include <errno.h>
#include <time.h>

char *hog_touch(struct mem_buf *b, uint64_t bytes)
{
	if (mem_map(b, (size_t)bytes, MEM_PAGES_4K, 0) != 0)
		return NULL;
	for (uint64_t off = 0; off < bytes; off += 4096)
		((volatile char *)b->addr)[off] = 1;
	return b->addr;
}

void hog_keep_hot(char *p, uint64_t bytes)
{
	for (;;) {
		struct timespec ts = {1, 0};
		while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
		for (uint64_t off = 0; off < bytes; off += 4096)
			((volatile char *)p)[off]++;
	}
}

static int hog_main(void *arg, int fd)
{
	uint64_t bytes = *(const uint64_t *)arg;
	struct mem_buf b;
	char *p = hog_touch(&b, bytes);
	if (!p) {
		proc_say(fd, "fail: %s\n", "cannot map the memory");
		return 1;
	}
	proc_say(fd, "ok\n");
	hog_keep_hot(p, bytes);
}

int hog_start(struct proc *p, uint64_t bytes)
{
	/* Its output must not mix into a table on stdout. */
	struct proc_spec s = {.fn = hog_main,
			      .arg = &bytes,
			      .io = {PROC_TO_FD, PROC_INHERIT, PROC_KEEP},
			      .to_fd = {2, -1},
			      .on_signal = PROC_SIG_NONE,
			      .grace_s = 2};
	return proc_start(p, &s);
}
