/* tierload.c - the lab's small workload: maps MIB MiB of anonymous memory,
 * writes every page, then reads it all in passes for SECONDS seconds and
 * prints what it did as 'name value unit' lines (mempath wrap reads them).
 * Under automatic NUMA balancing its pages on a slow node take hint faults
 * and are promoted; under a memory hog they are what reclaim demotes.
 * usage: tierload MIB SECONDS
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	size_t bytes;
	double secs, t0;
	unsigned long passes = 0;
	volatile unsigned long sink = 0;
	unsigned long *p;

	if (argc != 3 || atol(argv[1]) <= 0 || atof(argv[2]) < 0) {
		fprintf(stderr, "usage: tierload MIB SECONDS\n");
		return 2;
	}
	bytes = (size_t)atol(argv[1]) << 20;
	secs = atof(argv[2]);
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("tierload: mmap");
		return 1;
	}
	for (size_t i = 0; i < bytes / sizeof(*p); i += 512)
		p[i] = i;
	t0 = now();
	do {
		unsigned long s = 0;
		for (size_t i = 0; i < bytes / sizeof(*p); i += 8)
			s += p[i];
		sink += s;
		passes++;
	} while (now() - t0 < secs);
	printf("passes %lu count\n", passes);
	printf("pass_rate %.3f 1/s\n", (double)passes / (now() - t0));
	return 0;
}
