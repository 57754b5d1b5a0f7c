/* pagesize_backing.c - what really backed a buffer, per size: the page
 * table (pagemap + kpageflags) and the per-size counters; and the page-size
 * knobs of the fingerprint (pagesize.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "base/util.h"
#include "machine/pagesize.h"

#define KPF_COMPOUND_HEAD 15
#define KPF_COMPOUND_TAIL 16
#define PM_PRESENT	  (1ull << 63)
#define PM_PFN		  ((1ull << 55) - 1)
#define CHUNK		  4096 /* pagemap entries read at once */

/* A folio being walked: its first PFN and pages so far. */
struct run {
	uint64_t start, n;
	uint64_t size, at_size;
};

static void run_close(struct run *r)
{
	if (r->n && r->n * 4096 >= r->size)
		r->at_size += r->n * 4096;
	r->n = 0;
}

/* One present page: a head starts a folio, a tail that follows its folio's
 * last PFN extends it, a tail without its head (the folio began before the
 * range) starts one too, any other page is a folio of its own. */
static void run_page(struct run *r, uint64_t pfn, uint64_t flags)
{
	int head = (flags >> KPF_COMPOUND_HEAD) & 1, tail = (flags >> KPF_COMPOUND_TAIL) & 1;
	if (r->n && tail && pfn == r->start + r->n) {
		r->n++;
		return;
	}
	run_close(r);
	r->start = pfn;
	r->n = 1;
	if (!head && !tail)
		run_close(r);
}

int pagesize_backing(const void *addr, size_t len, uint64_t size, uint64_t *at_size)
{
	uint64_t *pm = xmalloc(CHUNK * sizeof(uint64_t)), *fl = xmalloc(CHUNK * sizeof(uint64_t));
	uint64_t first = (uint64_t)(uintptr_t)addr / 4096, pages = len / 4096, pfns = 0;
	int fd_pm = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	int fd_fl = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC), rc = -1;
	struct run r = {.size = size};

	if (fd_pm < 0 || fd_fl < 0)
		goto out;
	for (uint64_t done = 0; done < pages;) {
		size_t n = pages - done < CHUNK ? (size_t)(pages - done) : CHUNK;
		if (pread(fd_pm, pm, n * 8, (off_t)((first + done) * 8)) != (ssize_t)(n * 8))
			goto out;
		for (size_t i = 0; i < n;) {
			size_t j = i + 1;
			uint64_t pfn = pm[i] & PM_PFN;
			if (!(pm[i] & PM_PRESENT) || !pfn) {
				run_close(&r);
				i++;
				continue;
			}
			/* flags of the PFN-contiguous stretch at once */
			while (j < n && (pm[j] & PM_PRESENT) && (pm[j] & PM_PFN) == pfn + (j - i))
				j++;
			if (pread(fd_fl, fl, (j - i) * 8, (off_t)(pfn * 8)) !=
			    (ssize_t)((j - i) * 8))
				goto out;
			for (size_t k = i; k < j; k++)
				run_page(&r, pfn + (k - i), fl[k - i]);
			pfns += j - i;
			i = j;
		}
		done += n;
	}
	run_close(&r);
	*at_size = r.at_size;
	rc = pfns ? 0 : -1; /* no PFN: not readable here, not "nothing backed" */
out:
	if (fd_pm >= 0)
		close(fd_pm);
	if (fd_fl >= 0)
		close(fd_fl);
	free(pm);
	free(fl);
	return rc;
}

static int read_u64(const char *path, uint64_t *v)
{
	char *s = read_line_str(path), *end;
	if (!s)
		return -1;
	*v = strtoull(s, &end, 10);
	free(s);
	return 0;
}

int pagesize_mthp_stats(uint64_t size, uint64_t *alloc, uint64_t *fallback)
{
	char path[200];
	unsigned long long kb = (unsigned long long)(size >> 10);
	snprintf(path, sizeof(path),
		 "/sys/kernel/mm/transparent_hugepage/hugepages-%llukB/stats/anon_fault_alloc", kb);
	if (read_u64(path, alloc))
		return -1;
	snprintf(path, sizeof(path),
		 "/sys/kernel/mm/transparent_hugepage/hugepages-%llukB/stats/anon_fault_fallback",
		 kb);
	return read_u64(path, fallback);
}

static void choice(json_t *knobs, const char *key, const char *path)
{
	char *s = read_line_str(path), *a, *b;
	if (!s)
		return;
	a = strchr(s, '[');
	b = a ? strchr(a, ']') : NULL;
	if (a && b)
		json_object_set_new(knobs, key, json_stringn(a + 1, (size_t)(b - a - 1)));
	free(s);
}

void pagesize_knobs(json_t *knobs, const char *sys)
{
	char *thp = xasprintf("%s/kernel/mm/transparent_hugepage", sys);
	char *tlb = xasprintf("%s/kernel/mm/hugepages", sys);
	DIR *d = opendir(thp);
	struct dirent *e;
	char key[64], path[400];

	while (d && (e = readdir(d))) {
		unsigned long long kb;
		char tail[4];
		if (sscanf(e->d_name, "hugepages-%llu%3s", &kb, tail) != 2 || strcmp(tail, "kB"))
			continue;
		snprintf(key, sizeof(key), "mthp_%llukB_enabled", kb);
		snprintf(path, sizeof(path), "%s/%s/enabled", thp, e->d_name);
		choice(knobs, key, path);
		snprintf(key, sizeof(key), "mthp_%llukB_shmem_enabled", kb);
		snprintf(path, sizeof(path), "%s/%s/shmem_enabled", thp, e->d_name);
		choice(knobs, key, path);
	}
	if (d)
		closedir(d);
	d = opendir(tlb);
	while (d && (e = readdir(d))) {
		unsigned long long kb;
		uint64_t nr;
		char tail[4];
		if (sscanf(e->d_name, "hugepages-%llu%3s", &kb, tail) != 2 || strcmp(tail, "kB"))
			continue;
		snprintf(key, sizeof(key), "hugetlb_%llukB_nr", kb);
		snprintf(path, sizeof(path), "%s/%s/nr_hugepages", tlb, e->d_name);
		if (read_u64(path, &nr) == 0)
			json_object_set_new(knobs, key, json_integer((json_int_t)nr));
	}
	if (d)
		closedir(d);
	free(thp);
	free(tlb);
}

#define SPLIT_FILE "/sys/kernel/debug/split_huge_pages"

int pagesize_split_open(int *mounted, char *why, size_t len)
{
	*mounted = 0;
	if (access(SPLIT_FILE, W_OK) == 0 && pagesize_split(NULL, 4096, 0) == 0)
		return 0;
	if (geteuid() != 0) {
		snprintf(why, len, "not root: %s cannot be written", SPLIT_FILE);
		return -1;
	}
	if (access(SPLIT_FILE, F_OK) != 0 && access("/sys/kernel/debug", F_OK) == 0 &&
	    mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL) == 0)
		*mounted = 1;
	if (access(SPLIT_FILE, W_OK) != 0) {
		snprintf(why, len, "no %s (debugfs%s; a kernel without CONFIG_DEBUG_FS?)",
			 SPLIT_FILE, *mounted ? " mounted for the run" : " could not be mounted");
	} else if (pagesize_split(NULL, 4096, 0) != 0) {
		/* a split of nothing mapped: refused only when writes are */
		int err = errno;
		char *lock = read_line_str("/sys/kernel/security/lockdown"), *a;
		if (!lock && mount("securityfs", "/sys/kernel/security", "securityfs", 0, NULL) ==
				     0) { /* not mounted: for this one read */
			lock = read_line_str("/sys/kernel/security/lockdown");
			umount("/sys/kernel/security");
		}
		a = lock ? strchr(lock, '[') : NULL;
		snprintf(why, len,
			 "%s refused a write (%s): kernel lockdown %.*s%srestricts debugfs (the "
			 "kernel log says 'Lockdown: ... debugfs access is restricted')",
			 SPLIT_FILE, strerror(err), a ? (int)strcspn(a, "\n") : 0, a ? a : "",
			 a ? " " : "");
		free(lock);
	} else {
		return 0;
	}
	pagesize_split_close(*mounted);
	*mounted = 0;
	return -1;
}

void pagesize_split_close(int mounted)
{
	if (mounted)
		umount2("/sys/kernel/debug", MNT_DETACH);
}

int pagesize_split(void *addr, size_t len, unsigned order)
{
	char cmd[96];
	int fd = open(SPLIT_FILE, O_WRONLY | O_CLOEXEC), n, ok;
	if (fd < 0)
		return -1;
	n = snprintf(cmd, sizeof(cmd), "%d,0x%llx,0x%llx,%u", (int)getpid(),
		     (unsigned long long)(uintptr_t)addr,
		     (unsigned long long)((uintptr_t)addr + len), order);
	ok = write(fd, cmd, (size_t)n) == n;
	close(fd);
	return ok ? 0 : -1;
}
