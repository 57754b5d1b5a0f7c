/* cgroup.c - a run's cgroup (v2, or v1 in its memory, cpuacct and pids
 * hierarchies): made, joined, read, emptied and removed (cgroup.h,
 * docs/design.md §11.4). Where it goes is cgroup_place.c. */
#include "workload/cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/kv.h"
#include "base/util.h"

static struct cgroup *handle(int version, int shared, char *const dir[CGROUP_N_CTL])
{
	struct cgroup *cg = xcalloc(1, sizeof(*cg));
	cg->version = version;
	cg->shared = shared;
	for (int i = 0; i < CGROUP_N_CTL; i++)
		if (dir[i] && (version == 1 || i == CGROUP_MEM)) {
			cg->dir[i] = xstrdup(dir[i]);
			cg->procs[i] = xasprintf("%s/cgroup.procs", dir[i]);
		}
	return cg;
}

struct cgroup *cgroup_open(int version, const char *mem, const char *cpu, const char *pids)
{
	char *dir[CGROUP_N_CTL] = {(char *)mem, (char *)cpu, (char *)pids};
	return handle(version, 1, dir);
}

void cgroup_free(struct cgroup *cg)
{
	if (!cg)
		return;
	for (int i = 0; i < CGROUP_N_CTL; i++) {
		free(cg->dir[i]);
		free(cg->procs[i]);
	}
	if (cg->before)
		json_decref(cg->before);
	free(cg);
}

size_t cgroup_pids(const struct cgroup *cg, pid_t *pids, size_t max)
{
	char *text = read_file_str(cg->procs[CGROUP_MEM], NULL), *save = NULL;
	size_t n = 0;
	for (char *t = text ? strtok_r(text, "\n", &save) : NULL; t && n < max;
	     t = strtok_r(NULL, "\n", &save))
		if (atoi(t) > 0)
			pids[n++] = (pid_t)atoi(t);
	free(text);
	return n;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), rc;
	if (fd < 0)
		return -1;
	rc = write(fd, s, strlen(s)) == (ssize_t)strlen(s) ? 0 : -1;
	close(fd);
	return rc;
}

int cgroup_join(const struct cgroup *cg)
{
	/* "0": the writer itself; the memory group first, so nothing is
	 * charged outside it once it runs */
	for (int i = 0; i < CGROUP_N_CTL; i++)
		if (cg->procs[i] && write_str(cg->procs[i], "0") != 0)
			return -1;
	return 0;
}

/* What is left in dir killed, until none is listed (v1 has no cgroup.kill;
 * a process may fork while its siblings are killed): a few rounds. */
static void kill_all(const char *dir)
{
	char *kill_file = xasprintf("%s/cgroup.kill", dir), *procs;
	int done = write_str(kill_file, "1") == 0; /* Linux 5.14, cgroup v2 */
	free(kill_file);
	procs = xasprintf("%s/cgroup.procs", dir);
	for (int round = 0; !done && round < 20; round++) {
		struct cgroup one = {.procs = {procs}};
		pid_t pids[256];
		size_t n = cgroup_pids(&one, pids, ARRAY_SIZE(pids));
		struct timespec ts = {0, 5000000};
		for (size_t i = 0; i < n; i++)
			kill(pids[i], SIGKILL);
		done = n == 0;
		if (!done)
			nanosleep(&ts, NULL);
	}
	free(procs);
}

static int remove_dir(const char *dir)
{
	kill_all(dir);
	/* the killed leave the cgroup as they are reaped: up to 2 s */
	for (int i = 0; i < 200; i++) {
		struct timespec ts = {0, 10000000};
		if (rmdir(dir) == 0 || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -1;
		nanosleep(&ts, NULL);
	}
	return -1;
}

int cgroup_remove(const struct cgroup *cg)
{
	int rc = 0;
	if (cg->shared)
		return 0;
	/* the memory group last: it is the one whose procs were killed */
	for (int i = CGROUP_N_CTL - 1; i >= 0; i--)
		if (cg->dir[i] && remove_dir(cg->dir[i]) != 0)
			rc = -1;
	return rc;
}

int cgroup_clean_stale_dir(const char *parent)
{
	DIR *d = opendir(parent);
	struct dirent *e;
	int n = 0;
	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		long pid;
		unsigned k;
		char tail;
		if (sscanf(e->d_name, "mempath-%ld-%u%c", &pid, &k, &tail) != 2 || pid <= 0)
			continue;
		if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue; /* ours, or its mempath still runs */
		{
			char *path = xasprintf("%s/%s", parent, e->d_name);
			n += remove_dir(path) == 0;
			free(path);
		}
	}
	closedir(d);
	return n;
}

int cgroup_clean_stale(const struct cgroup_place *pl)
{
	int n = 0;
	if (pl->step)
		return 0;
	/* a run is one group per hierarchy: counted by its memory group */
	for (int i = CGROUP_N_CTL - 1; i >= 0; i--)
		if (pl->dir[i]) {
			int k = cgroup_clean_stale_dir(pl->dir[i]);
			n = i == CGROUP_MEM ? k : n;
		}
	return n;
}

struct cgroup *cgroup_make(const struct cgroup_place *pl, unsigned n, char **why)
{
	char *dir[CGROUP_N_CTL] = {NULL};
	struct cgroup *cg;
	*why = NULL;
	if (pl->step) {
		cg = handle(pl->version, 1, pl->dir);
		cg->before = cgroup_read_end(cg);
		return cg;
	}
	for (int i = 0; i < CGROUP_N_CTL && !*why; i++) {
		if (!pl->dir[i] || (pl->version == 2 && i != CGROUP_MEM))
			continue;
		dir[i] = xasprintf("%s/mempath-%ld-%u", pl->dir[i], (long)getpid(), n);
		if (mkdir(dir[i], 0755) != 0) {
			*why = xasprintf("cannot make cgroup %s: %s", dir[i], strerror(errno));
			free(dir[i]);
			dir[i] = NULL;
		}
	}
	cg = handle(pl->version, 0, dir);
	for (int i = 0; i < CGROUP_N_CTL; i++)
		free(dir[i]);
	if (*why) {
		cgroup_remove(cg);
		cgroup_free(cg);
		return NULL;
	}
	return cg;
}

json_t *cgroup_parse_stat(const char *text, const char *const *names)
{
	struct kv_list l;
	json_t *o = json_object();
	if (!text || kv_parse_vmstat(text, &l) != 0)
		return o;
	for (size_t i = 0; i < l.n; i++) {
		int want = names == NULL;
		for (size_t k = 0; names && names[k]; k++)
			want |= strcmp(names[k], l.items[i].name) == 0;
		if (want)
			json_object_set_new(o, l.items[i].name, json_integer(l.items[i].value));
	}
	kv_free(&l);
	return o;
}

json_t *cgroup_parse_io(const char *text)
{
	json_t *o = json_object();
	char *copy = text ? xstrdup(text) : NULL, *save = NULL;
	for (char *t = copy ? strtok_r(copy, " \n", &save) : NULL; t;
	     t = strtok_r(NULL, " \n", &save)) {
		char *eq = strchr(t, '='), *end;
		long long v;
		if (!eq)
			continue; /* the device, MAJ:MIN */
		*eq = '\0';
		v = strtoll(eq + 1, &end, 10);
		if (*end || end == eq + 1)
			continue;
		json_object_set_new(o, t,
				    json_integer(json_integer_value(json_object_get(o, t)) + v));
	}
	free(copy);
	return o;
}

/* A "name value" file's names as v2 calls them: map is {v1 name, v2 name}
 * pairs, NULL-terminated; names not in it are left out. */
static json_t *read_stat(const char *dir, const char *file, const char *const *names,
			 const char *const (*map)[2])
{
	char *path, *text;
	json_t *o, *out, *v;
	const char *k;
	if (!dir)
		return NULL;
	path = xasprintf("%s/%s", dir, file);
	text = read_file_str(path, NULL);
	o = text ? cgroup_parse_stat(text, names) : NULL;
	free(text);
	free(path);
	if (!o || !map)
		return o;
	out = json_object();
	json_object_foreach (o, k, v)
		for (size_t i = 0; map[i][0]; i++)
			if (strcmp(map[i][0], k) == 0)
				json_object_set(out, map[i][1], v);
	json_decref(o);
	return out;
}

/* A file holding one number, into o[key] (scaled down by div). */
static void read_number(json_t *o, const char *dir, const char *file, const char *key, long div)
{
	char *f, *text;
	if (!dir)
		return;
	f = xasprintf("%s/%s", dir, file);
	text = read_line_str(f);
	if (text && *text >= '0' && *text <= '9')
		json_object_set_new(o, key, json_integer(strtoll(text, NULL, 10) / div));
	free(text);
	free(f);
}

/* v1's memory.stat names without total_ are the group's own, those with it
 * the group's and its descendants' (as v2 counts): a step's processes are
 * in its task groups, below it. */
static const char *const v1_sizes[][2] = {{"total_rss", "anon"},
					  {"total_cache", "file"},
					  {"total_shmem", "shmem"},
					  {"total_rss_huge", "anon_thp"},
					  {NULL, NULL}};

json_t *cgroup_read_sizes(const struct cgroup *cg)
{
	static const char *const sizes[] = {"anon",	"file",	     "shmem", "anon_thp",
					    "file_thp", "shmem_thp", NULL};
	if (cg->version == 1)
		return read_stat(cg->dir[CGROUP_MEM], "memory.stat", NULL, v1_sizes);
	return read_stat(cg->dir[CGROUP_MEM], "memory.stat", sizes, NULL);
}

static void read_v1(const struct cgroup *cg, json_t *o)
{
	static const char *const events[][2] = {
		{"total_pgfault", "pgfault"}, {"total_pgmajfault", "pgmajfault"}, {NULL, NULL}};
	const char *mem = cg->dir[CGROUP_MEM], *cpu = cg->dir[CGROUP_CPU];
	json_t *v = read_stat(mem, "memory.stat", NULL, events), *c = json_object();
	if (v) {
		read_number(v, mem, "memory.failcnt", "failcnt", 1);
		json_object_set_new(o, "memory", v);
	}
	read_number(o, mem, "memory.max_usage_in_bytes", "peak", 1);
	read_number(c, cpu, "cpuacct.usage", "usage_usec", 1000);
	read_number(c, cpu, "cpuacct.usage_user", "user_usec", 1000);
	read_number(c, cpu, "cpuacct.usage_sys", "system_usec", 1000);
	if (json_object_size(c))
		json_object_set(o, "cpu", c);
	json_decref(c);
	if ((v = read_stat(cg->dir[CGROUP_PIDS], "pids.events", NULL, NULL)))
		json_object_set_new(o, "pids", v);
}

static void read_v2(const struct cgroup *cg, json_t *o)
{
	static const char *const events[] = {"pgfault", "pgmajfault", "thp_fault_alloc",
					     "thp_collapse_alloc", NULL};
	const char *dir = cg->dir[CGROUP_MEM];
	json_t *v;
	char *f, *text;
	if ((v = read_stat(dir, "memory.stat", events, NULL)))
		json_object_set_new(o, "memory", v);
	if ((v = read_stat(dir, "cpu.stat", NULL, NULL)))
		json_object_set_new(o, "cpu", v);
	read_number(o, dir, "memory.peak", "peak", 1);
	f = xasprintf("%s/io.stat", dir);
	text = read_file_str(f, NULL);
	if (text)
		json_object_set_new(o, "io", cgroup_parse_io(text));
	free(text);
	free(f);
}

/* now - before for every counter of every group (memory, cpu, io, pids). */
static json_t *delta(json_t *now, json_t *before)
{
	json_t *o = json_object(), *grp;
	const char *g;
	json_object_foreach (now, g, grp) {
		json_t *d, *v, *b;
		const char *k;
		if (!json_is_object(grp))
			continue; /* the peak: kept whole below */
		d = json_object();
		json_object_foreach (grp, k, v) {
			b = json_object_get(json_object_get(before, g), k);
			if (json_is_integer(b))
				json_object_set_new(d, k,
						    json_integer(json_integer_value(v) -
								 json_integer_value(b)));
		}
		json_object_set_new(o, g, d);
	}
	if ((grp = json_object_get(now, "peak")))
		json_object_set(o, "step_peak", grp);
	return o;
}

json_t *cgroup_read_end(const struct cgroup *cg)
{
	json_t *o = json_object(), *d;
	if (cg->version == 1)
		read_v1(cg, o);
	else
		read_v2(cg, o);
	if (!cg->before)
		return o;
	d = delta(o, cg->before);
	json_decref(o);
	return d;
}
