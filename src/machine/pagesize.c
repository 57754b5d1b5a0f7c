/* pagesize.c - the page sizes offered, the knobs that pick one for a run and
 * their restore (pagesize.h); what backed a buffer: pagesize_backing.c. */
#include "machine/pagesize.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/pending.h"
#include "base/suggest.h"
#include "base/util.h"

#define THP_DIR	    "/sys/kernel/mm/transparent_hugepage"
#define HUGETLB_DIR "/sys/kernel/mm/hugepages"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The kB of each dir/hugepages-<kB>kB that has the file `need`, ascending;
 * how many. (6.18 lists 8 KiB for shmem alone: no anonymous `enabled`.) */
static size_t sizes_in(const char *dir, const char *need, uint64_t *kb, size_t cap)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	while (d && (e = readdir(d)) && n < cap) {
		unsigned long long v;
		char tail[4];
		char path[600];
		if (sscanf(e->d_name, "hugepages-%llu%3s", &v, tail) != 2 || strcmp(tail, "kB") ||
		    !v)
			continue;
		snprintf(path, sizeof(path), "%s/%s/%s", dir, e->d_name, need);
		if (access(path, F_OK) == 0)
			kb[n++] = v;
	}
	if (d)
		closedir(d);
	qsort(kb, n, sizeof(*kb), cmp_u64);
	return n;
}

static void size_name(uint64_t kb, const char *prefix, char *buf, size_t len)
{
	if (kb % (1024 * 1024) == 0)
		snprintf(buf, len, "%s%llug", prefix, (unsigned long long)(kb >> 20));
	else if (kb % 1024 == 0)
		snprintf(buf, len, "%s%llum", prefix, (unsigned long long)(kb >> 10));
	else
		snprintf(buf, len, "%s%lluk", prefix, (unsigned long long)kb);
}

static void add(struct pagesize *out, size_t cap, size_t *n, const char *name,
		enum pagesize_kind kind, uint64_t bytes)
{
	if (*n >= cap)
		return;
	snprintf(out[*n].name, sizeof(out[*n].name), "%s", name);
	out[*n].kind = kind;
	out[*n].bytes = bytes;
	(*n)++;
}

size_t pagesize_offered(struct pagesize *out, size_t cap)
{
	uint64_t kb[PAGESIZE_MAX];
	size_t n = 0, k;
	char name[40];

	add(out, cap, &n, "4k", PAGESIZE_4K, 4096);
	k = sizes_in(THP_DIR, "enabled", kb, PAGESIZE_MAX);
	for (size_t i = 0; i < k; i++) {
		size_name(kb[i], "", name, sizeof(name));
		add(out, cap, &n, name, PAGESIZE_MTHP, kb[i] << 10);
	}
	k = sizes_in(HUGETLB_DIR, "nr_hugepages", kb, PAGESIZE_MAX);
	for (size_t i = 0; i < k; i++) {
		size_name(kb[i], "hugetlb-", name, sizeof(name));
		add(out, cap, &n, name, PAGESIZE_HUGETLB, kb[i] << 10);
	}
	add(out, cap, &n, "thp", PAGESIZE_THP, 0);
	add(out, cap, &n, "default", PAGESIZE_DEFAULT, 0);
	return n;
}

int pagesize_parse(const char *spec, struct pagesize *out, size_t cap, size_t *n, char *why,
		   size_t len)
{
	struct pagesize all[PAGESIZE_MAX];
	size_t n_all = pagesize_offered(all, PAGESIZE_MAX);
	char *s = xstrdup(spec ? spec : ""), *save = NULL;
	int rc = 0;

	*n = 0;
	for (char *w = strtok_r(s, ",", &save); w && !rc; w = strtok_r(NULL, ",", &save)) {
		size_t i;
		int any = 0;
		for (i = 0; i < n_all; i++) {
			int in_all = all[i].kind != PAGESIZE_THP && all[i].kind != PAGESIZE_DEFAULT;
			if (strcasecmp(w, all[i].name) && !(in_all && !strcasecmp(w, "all")))
				continue;
			any = 1;
			int dup = 0;
			for (size_t j = 0; j < *n; j++)
				dup |= !strcmp(out[j].name, all[i].name);
			if (!dup && *n < cap)
				out[(*n)++] = all[i];
		}
		if (!any) {
			const char *names[PAGESIZE_MAX + 1];
			char hint[64];
			int k = snprintf(why, len,
					 "no page size '%s' here (this kernel offers:", w);
			for (i = 0; i < n_all; i++)
				names[i] = all[i].name;
			names[n_all] = "all";
			for (i = 0; i < n_all && k > 0 && (size_t)k < len; i++)
				k += snprintf(why + k, len - (size_t)k, " %s", all[i].name);
			if (k > 0 && (size_t)k < len)
				snprintf(why + k, len - (size_t)k, "; or all)%s",
					 suggest_phrase(suggest(w, names, n_all + 1), hint,
							sizeof(hint)));
			rc = -1;
		}
	}
	if (!rc && !*n) {
		snprintf(why, len, "no page size given");
		rc = -1;
	}
	free(s);
	return rc;
}

const char *pagesize_check(const char *spec, char *why, size_t len)
{
	struct pagesize ps[PAGESIZE_MAX];
	size_t n;
	return pagesize_parse(spec, ps, PAGESIZE_MAX, &n, why, len) ? why : NULL;
}

/* ---- knobs ---------------------------------------------------------------- */

/* The word of a sysfs choice ("always [madvise] never" -> madvise) or the
 * first line of a plain value, into buf; 0 or -1. */
static int knob_read(const char *path, char *buf, size_t len)
{
	char *s = read_line_str(path), *a, *b;
	if (!s)
		return -1;
	a = strchr(s, '[');
	b = a ? strchr(a, ']') : NULL;
	if (a && b)
		snprintf(buf, len, "%.*s", (int)(b - a - 1), a + 1);
	else
		snprintf(buf, len, "%s", str_trim(s));
	free(s);
	return 0;
}

/* Async-signal-safe: open, write, close. */
static int knob_write(const char *path, const char *v)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ok;
	size_t n = strlen(v);
	if (fd < 0)
		return -1;
	ok = write(fd, v, n) == (ssize_t)n;
	close(fd);
	return ok ? 0 : -1;
}

struct knob_old {
	char path[160];
	char old[24];
};

/* What this process changed (one run at a time), and the record's path,
 * made before any handler may need them. */
static struct knob_old saved[PAGESIZE_MAX + 2];
static int n_saved;
static char journal_file[320];
static struct sigaction old_sa[3];
static const int caught[3] = {SIGINT, SIGTERM, SIGHUP};

/* One run at a time sets the knobs: a flock on DIR/lock from before the
 * first write to after the last restore (a killed holder's lock goes with
 * it, so its record is then free to recover). */
static int lock_fd = -1;

static int knobs_lock(void)
{
	char *path = xasprintf("%s/lock", pagesize_journal_dir());
	int fd = -1;

	if (mkdir_parents(pagesize_journal_dir(), 0700) == 0)
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	free(path);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	lock_fd = fd;
	return 0;
}

static void knobs_unlock(void)
{
	if (lock_fd >= 0)
		close(lock_fd);
	lock_fd = -1;
}

static void restore_raw(void)
{
	for (int i = n_saved - 1; i >= 0; i--)
		knob_write(saved[i].path, saved[i].old);
}

static void on_signal(int sig)
{
	restore_raw();
	pending_clear_path(journal_file);
	signal(sig, SIG_DFL);
	raise(sig);
}

const char *pagesize_journal_dir(void)
{
	const char *d = getenv("MEMPATH_KNOB_JOURNAL_DIR");
	return d && *d ? d : "/run/mempath/knobs";
}

static void save(const char *path)
{
	if (n_saved >= (int)(sizeof(saved) / sizeof(saved[0])))
		return;
	snprintf(saved[n_saved].path, sizeof(saved[n_saved].path), "%s", path);
	if (knob_read(path, saved[n_saved].old, sizeof(saved[n_saved].old)) == 0)
		n_saved++;
}

/* The record of saved[], then the handlers: before the first write. */
static int journal_begin(void)
{
	json_t *rec = json_object(), *knobs = json_object();
	char *cmd = xstrdup(""), *dir;
	struct sigaction sa;
	int rc;

	for (int i = 0; i < n_saved; i++) {
		char *c = xasprintf("%s%sprintf '%%s\\n' '%s' > '%s'", cmd, i ? "; " : "",
				    saved[i].old, saved[i].path);
		free(cmd);
		cmd = c;
		json_object_set_new(knobs, saved[i].path, json_string(saved[i].old));
	}
	json_object_set_new(rec, "restore", json_string(cmd));
	json_object_set_new(rec, "why",
			    json_string("a mempath probe set page-size knobs for its run and "
					"did not put them back"));
	json_object_set_new(rec, "pid", json_integer(getpid()));
	json_object_set_new(rec, "knobs", knobs);
	dir = xstrdup(pagesize_journal_dir());
	snprintf(journal_file, sizeof(journal_file), "%s/restore.pending", dir);
	rc = pending_write(dir, rec);
	free(dir);
	free(cmd);
	json_decref(rec);
	if (rc)
		return rc;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 3; i++)
		sigaddset(&sa.sa_mask, caught[i]);
	for (int i = 0; i < 3; i++)
		sigaction(caught[i], &sa, &old_sa[i]);
	return 0;
}

int pagesize_end(void)
{
	int rc = 0;
	char now[24];

	if (!n_saved) {
		knobs_unlock();
		return 0;
	}
	restore_raw();
	for (int i = 0; i < n_saved; i++)
		if (knob_read(saved[i].path, now, sizeof(now)) || strcmp(now, saved[i].old))
			rc = error("could not put '%s' back to '%s' (it reads '%s'; '%s' keeps "
				   "the record)",
				   saved[i].path, saved[i].old, now, journal_file);
	if (!rc)
		pending_clear_path(journal_file);
	for (int i = 0; i < 3; i++)
		sigaction(caught[i], &old_sa[i], NULL);
	n_saved = 0;
	knobs_unlock();
	return rc;
}

int pagesize_recover(char *note, size_t len)
{
	const char *dir = pagesize_journal_dir(), *k;
	int bad, rc = 1, at = 0, took = 0;
	json_t *rec = pending_read(dir, &bad), *v;
	long long pid;

	note[0] = '\0';
	if (!rec)
		return bad ? error("'%s/restore.pending' is not a pending-restore record", dir) : 0;
	if (lock_fd < 0) { /* held: its run is alive and its knobs its own */
		if (knobs_lock() != 0) {
			json_decref(rec);
			return 0;
		}
		took = 1;
	}
	pid = json_integer_value(json_object_get(rec, "pid"));
	at = snprintf(note, len, "put back what a killed run (pid %lld) left set:", pid);
	json_object_foreach (json_object_get(rec, "knobs"), k, v) {
		const char *old = json_string_value(v);
		/* only the knobs a run of ours can have set: a record is data */
		if (!str_starts_with(k, "/sys/kernel/mm/") || strstr(k, "..")) {
			rc = error(
				"'%s' in '%s/restore.pending' is not a page-size knob: left alone",
				k, dir);
			continue;
		}
		if (!old || knob_write(k, old) != 0) {
			rc = error("cannot put '%s' back to '%s' (the record stays in '%s')", k,
				   old ? old : "?", dir);
			continue;
		}
		if (at > 0 && (size_t)at < len)
			at += snprintf(note + at, len - (size_t)at, " %s=%s", k, old);
	}
	if (rc == 1)
		pending_clear(dir);
	json_decref(rec);
	if (took)
		knobs_unlock();
	return rc;
}

static int begin_mthp(const struct pagesize *ps, char *note, size_t len)
{
	uint64_t kb[PAGESIZE_MAX];
	size_t k = sizes_in(THP_DIR, "enabled", kb, PAGESIZE_MAX);
	char path[160], now[24];
	int at;

	if (geteuid() != 0) {
		at = snprintf(note, len, "not root: the mTHP settings as found (");
		for (size_t i = 0; i < k && at > 0 && (size_t)at < len; i++) {
			snprintf(path, sizeof(path), THP_DIR "/hugepages-%llukB/enabled",
				 (unsigned long long)kb[i]);
			if (knob_read(path, now, sizeof(now)) == 0)
				at += snprintf(note + at, len - (size_t)at, "%s%llukB %s",
					       i ? ", " : "", (unsigned long long)kb[i], now);
		}
		if (at > 0 && (size_t)at < len)
			snprintf(note + at, len - (size_t)at, ")");
		return 1;
	}
	for (size_t i = 0; i < k; i++) {
		snprintf(path, sizeof(path), THP_DIR "/hugepages-%llukB/enabled",
			 (unsigned long long)kb[i]);
		save(path);
	}
	save(THP_DIR "/enabled");
	if (journal_begin() != 0) {
		n_saved = 0;
		return -1;
	}
	for (int i = 0; i < n_saved; i++) {
		int global = !strcmp(saved[i].path, THP_DIR "/enabled");
		const char *want =
			global ? (strcmp(saved[i].old, "never") ? saved[i].old : "madvise")
			       : "never";
		snprintf(path, sizeof(path), THP_DIR "/hugepages-%llukB/enabled",
			 (unsigned long long)(ps->bytes >> 10));
		if (!strcmp(saved[i].path, path))
			want = "madvise";
		if (!strcmp(want, saved[i].old))
			continue;
		if (knob_write(saved[i].path, want) != 0) {
			snprintf(note, len, "the kernel refused %s = %s (%s)", saved[i].path, want,
				 strerror(errno));
			pagesize_end();
			return 1;
		}
	}
	snprintf(note, len, "%s enabled alone (madvise, every other size never), put back after",
		 ps->name);
	return 0;
}

static long long read_ll(const char *path)
{
	char buf[24];
	return knob_read(path, buf, sizeof(buf)) ? -1 : strtoll(buf, NULL, 10);
}

static int begin_hugetlb(const struct pagesize *ps, uint64_t bytes, char *note, size_t len)
{
	unsigned long long kb = (unsigned long long)(ps->bytes >> 10);
	char nr_path[160], free_path[160], v[24];
	long long want = (long long)((bytes + ps->bytes - 1) / ps->bytes), nr, fr, got;

	snprintf(nr_path, sizeof(nr_path), HUGETLB_DIR "/hugepages-%llukB/nr_hugepages", kb);
	snprintf(free_path, sizeof(free_path), HUGETLB_DIR "/hugepages-%llukB/free_hugepages", kb);
	nr = read_ll(nr_path);
	fr = read_ll(free_path);
	if (nr < 0 || fr < 0) {
		snprintf(note, len, "the %s pool cannot be read (%s)", ps->name, nr_path);
		return 1;
	}
	if (fr >= want) {
		snprintf(note, len, "the pool had %lld free pages, %lld needed: nothing reserved",
			 fr, want);
		return 0;
	}
	if (geteuid() != 0) {
		snprintf(note, len, "not root: the %s pool has %lld free pages, %lld needed",
			 ps->name, fr, want);
		return 1;
	}
	save(nr_path);
	if (journal_begin() != 0) {
		n_saved = 0;
		return -1;
	}
	snprintf(v, sizeof(v), "%lld", nr + (want - fr));
	knob_write(nr_path, v);
	got = read_ll(nr_path) - nr;
	if (read_ll(free_path) < want) {
		snprintf(note, len,
			 "asked the %s pool for %lld more pages, the kernel gave %lld (memory too "
			 "fragmented or too little free): given back",
			 ps->name, want - fr, got);
		pagesize_end();
		return 1;
	}
	snprintf(note, len, "reserved %lld pages (nr_hugepages %lld -> %lld), given back after",
		 got, nr, nr + got);
	return 0;
}

int pagesize_begin(const struct pagesize *ps, uint64_t bytes, char *note, size_t len)
{
	char rec[512];
	int rc;

	note[0] = '\0';
	if (n_saved)
		return error("page-size knobs already set for a run");
	if (pagesize_recover(rec, sizeof(rec)) < 0)
		return -1;
	if (rec[0])
		warning("%s", rec);
	if (ps->kind != PAGESIZE_MTHP && ps->kind != PAGESIZE_HUGETLB)
		return 0;
	if (geteuid() == 0 && knobs_lock() != 0) {
		snprintf(note, len,
			 "another mempath run holds the page-size knobs (%s/lock): nothing "
			 "set, the settings as found",
			 pagesize_journal_dir());
		return 1;
	}
	rc = ps->kind == PAGESIZE_MTHP ? begin_mthp(ps, note, len)
				       : begin_hugetlb(ps, bytes, note, len);
	if (!n_saved)
		knobs_unlock(); /* nothing set: nothing to hold */
	return rc;
}

int pagesize_map(struct mem_buf *b, const struct pagesize *ps, size_t size, int extra_flags)
{
	static const enum mem_pages modes[] = {
		[PAGESIZE_4K] = MEM_PAGES_4K,		[PAGESIZE_THP] = MEM_PAGES_THP,
		[PAGESIZE_DEFAULT] = MEM_PAGES_DEFAULT, [PAGESIZE_MTHP] = MEM_PAGES_THP,
		[PAGESIZE_HUGETLB] = MEM_PAGES_DEFAULT,
	};
	size_t len;
	int shift = 0;
	void *p;

	if (ps->kind != PAGESIZE_HUGETLB)
		return mem_map(b, size, modes[ps->kind], extra_flags);
	len = (size + ps->bytes - 1) / ps->bytes * ps->bytes;
	while ((1ull << shift) < ps->bytes)
		shift++;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | (shift << MAP_HUGE_SHIFT) |
			 extra_flags,
		 -1, 0);
	if (p == MAP_FAILED)
		return -1;
	memset(b, 0, sizeof(*b));
	b->addr = b->map_addr = p;
	b->size_bytes = size;
	b->map_bytes = len;
	b->pages = MEM_PAGES_DEFAULT;
	return 0;
}
