/* tierload.c - the lab's small workloads.
 *
 * tierload MIB SECONDS: maps MIB MiB of anonymous memory, writes every page,
 * then reads it all in passes for SECONDS seconds and prints what it did as
 * 'name value unit' lines (mempath wrap reads them). Under automatic NUMA
 * balancing in tiering mode its pages on a slow node take hint faults and are
 * promoted.
 *
 * tierload MIB SECONDS preferred-many=NODE[,NODE...]: the same under its own
 * policy, MPOL_PREFERRED_MANY of those nodes asked with MPOL_F_NUMA_BALANCING (so
 * that NUMA balancing scans it: numactl --balancing sets the flag only with
 * --membind); a kernel that refuses the flag with preferred-many (EINVAL:
 * Linux before 6.10 takes it with MPOL_BIND alone) gets the policy without
 * it, which NUMA balancing never scans; which one it got goes to stderr and
 * to tierload-policy.log in its directory (a workload's stderr under wrap
 * is kept only in part).
 *
 * tierload fill FAST FREE SLOW FLOOR: a cold balloon (placed by numactl)
 * that keeps node FAST at about FREE MiB free: every 50 ms it maps and writes
 * 4 MiB chunks while FAST has more free than that, and unmaps its oldest
 * chunks while node SLOW has under FLOOR MiB free (the pages reclaim demoted
 * there), so every run of a workload meets the same full fast node. Runs
 * until killed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define CHUNK	   (4ul << 20)
#define MAX_CHUNKS 4096

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* MemFree of a node in MiB, -1 when unreadable. */
static long node_free_mib(int node)
{
	char path[96], line[256];
	long kb = -1;
	FILE *f;
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", node);
	if (!(f = fopen(path, "r")))
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "MemFree:");
		if (p)
			kb = atol(p + 8);
	}
	fclose(f);
	return kb < 0 ? -1 : kb / 1024;
}

static void *chunk_new(void)
{
	char *p = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	madvise(p, CHUNK, MADV_NOHUGEPAGE); /* 4 KiB pages: reclaim takes any of them */
	for (size_t i = 0; i < CHUNK; i += 4096)
		p[i] = 1;
	return p;
}

static int fill(int fast, long target, int slow, long floor)
{
	static void *chunks[MAX_CHUNKS];
	size_t head = 0, n = 0;
	struct timespec tick = {0, 50 * 1000 * 1000};
	for (;;) {
		long f = node_free_mib(fast), s = node_free_mib(slow);
		if (f < 0 || s < 0) {
			fprintf(stderr, "tierload: cannot read node %d or %d meminfo\n", fast, slow);
			return 1;
		}
		if (s < floor && n > 0) {
			for (int k = 0; k < 4 && n > 0; k++, n--) {
				munmap(chunks[head], CHUNK);
				head = (head + 1) % MAX_CHUNKS;
			}
		} else {
			for (long k = (f - target) / 4; k > 0 && n < MAX_CHUNKS; k--) {
				void *c = chunk_new();
				if (!c)
					break;
				chunks[(head + n++) % MAX_CHUNKS] = c;
			}
		}
		nanosleep(&tick, NULL);
	}
}

#define MPOL_PREFERRED_MANY_ 5
#define MPOL_F_NUMA_BALANCING_ (1 << 13)

static void say_policy(const char *what)
{
	FILE *f = fopen("tierload-policy.log", "a");
	fprintf(stderr, "tierload: %s\n", what);
	if (f) {
		fprintf(f, "%s\n", what);
		fclose(f);
	}
}

/* The task's policy: preferred-many of the nodes ("1,2"), with NUMA
 * balancing if the kernel takes it. 0, or -1 when neither is taken. */
static int prefer_many(const char *nodes)
{
	unsigned long mask = 0;
	for (const char *s = nodes; *s;) {
		char *end;
		mask |= 1ul << (strtoul(s, &end, 10) & 63);
		if (end == s || (*end && *end != ','))
			return fprintf(stderr, "tierload: bad nodes '%s'\n", nodes), -1;
		s = *end ? end + 1 : end;
	}
	if (syscall(SYS_set_mempolicy, MPOL_PREFERRED_MANY_ | MPOL_F_NUMA_BALANCING_, &mask,
		    sizeof(mask) * 8) == 0) {
		say_policy("MPOL_PREFERRED_MANY with MPOL_F_NUMA_BALANCING");
		return 0;
	}
	if (errno != EINVAL ||
	    syscall(SYS_set_mempolicy, MPOL_PREFERRED_MANY_, &mask, sizeof(mask) * 8) != 0) {
		perror("tierload: set_mempolicy");
		return -1;
	}
	say_policy("MPOL_F_NUMA_BALANCING refused with MPOL_PREFERRED_MANY (EINVAL): the policy "
		   "without it, which NUMA balancing does not scan");
	return 0;
}

int main(int argc, char **argv)
{
	size_t bytes;
	double secs, t0;
	unsigned long passes = 0;
	volatile unsigned long sink = 0;
	unsigned long *p;

	if (argc == 6 && strcmp(argv[1], "fill") == 0)
		return fill(atoi(argv[2]), atol(argv[3]), atoi(argv[4]), atol(argv[5]));
	if ((argc != 3 && !(argc == 4 && strncmp(argv[3], "preferred-many=", 15) == 0)) ||
	    atol(argv[1]) <= 0 || atof(argv[2]) < 0) {
		fprintf(stderr, "usage: tierload MIB SECONDS [preferred-many=NODES] | tierload fill "
				"FAST FREE SLOW FLOOR\n");
		return 2;
	}
	if (argc == 4 && prefer_many(argv[3] + 15) != 0)
		return 1;
	bytes = (size_t)atol(argv[1]) << 20;
	secs = atof(argv[2]);
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("tierload: mmap");
		return 1;
	}
	madvise(p, bytes, MADV_NOHUGEPAGE); /* hint faults and migration page by page */
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
