/* cgroup.c - a cgroup v2 per run of a wrapped command: found, made,
 * read, emptied and removed (cgroup.h, docs/design.md §11.4). */
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

/* mountinfo: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [TAGS] - FSTYPE SRC OPTS". */
char *cgroup_mount_of(const char *mountinfo)
{
	for (const char *p = mountinfo; p && *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char *line = xasprintf("%.*s", (int)len, p), *dash = strstr(line, " - ");
		char mnt[4096], fs[64];
		if (dash && sscanf(dash + 3, "%63s", fs) == 1 && strcmp(fs, "cgroup2") == 0 &&
		    sscanf(line, "%*s %*s %*s %*s %4095s", mnt) == 1) {
			free(line);
			return xstrdup(mnt);
		}
		free(line);
		p = eol ? eol + 1 : NULL;
	}
	return NULL;
}

static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; p && (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' ' || p[n] == '\n'))
			return 1;
	return 0;
}

int cgroup_find(const char *mountinfo_path, char **parent, char **why)
{
	char *info = read_file_str(mountinfo_path, NULL), *mnt, *path, *ctl, *sub;
	*parent = *why = NULL;
	mnt = info ? cgroup_mount_of(info) : NULL;
	free(info);
	if (!mnt) {
		*why = xstrdup("no cgroup v2 hierarchy is mounted here");
		return -1;
	}
	path = xasprintf("%s/cgroup.controllers", mnt);
	ctl = read_line_str(path);
	free(path);
	path = xasprintf("%s/cgroup.subtree_control", mnt);
	sub = read_line_str(path);
	free(path);
	if (!has_word(ctl, "memory"))
		*why = xasprintf("the cgroup v2 hierarchy at %s has no memory controller "
				 "(cgroup.controllers: '%s'; a cgroup v1 hierarchy may hold it)",
				 mnt, ctl ? ctl : "unreadable");
	else if (!has_word(sub, "memory"))
		*why = xasprintf("%s does not hand the memory controller to its children "
				 "(cgroup.subtree_control: '%s'); mempath enables none itself",
				 mnt, sub ? sub : "unreadable");
	else if (access(mnt, W_OK) != 0)
		*why = xasprintf("cannot make cgroups under %s: %s", mnt, strerror(errno));
	free(ctl);
	free(sub);
	if (*why) {
		free(mnt);
		return -1;
	}
	*parent = mnt;
	return 0;
}

size_t cgroup_pids(const char *path, pid_t *pids, size_t max)
{
	char *f = xasprintf("%s/cgroup.procs", path), *text = read_file_str(f, NULL), *save = NULL;
	size_t n = 0;
	free(f);
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

int cgroup_remove(const char *path)
{
	char *kill_file = xasprintf("%s/cgroup.kill", path);
	int rc = -1;
	/* cgroup.kill (Linux 5.14) ends everything in it at once; before it,
	 * each pid listed */
	if (write_str(kill_file, "1") != 0) {
		pid_t pids[256];
		size_t n = cgroup_pids(path, pids, ARRAY_SIZE(pids));
		for (size_t i = 0; i < n; i++)
			kill(pids[i], SIGKILL);
	}
	free(kill_file);
	/* the killed leave the cgroup as they are reaped: up to 2 s */
	for (int i = 0; i < 200; i++) {
		struct timespec ts = {0, 10000000};
		if (rmdir(path) == 0 || errno == ENOENT) {
			rc = 0;
			break;
		}
		if (errno != EBUSY)
			break;
		nanosleep(&ts, NULL);
	}
	return rc;
}

int cgroup_clean_stale(const char *parent)
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
			n += cgroup_remove(path) == 0;
			free(path);
		}
	}
	closedir(d);
	return n;
}

char *cgroup_make(const char *parent, unsigned n, char **why)
{
	char *path = xasprintf("%s/mempath-%ld-%u", parent, (long)getpid(), n);
	*why = NULL;
	if (mkdir(path, 0755) != 0) {
		*why = xasprintf("cannot make cgroup %s: %s", path, strerror(errno));
		free(path);
		return NULL;
	}
	return path;
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

static json_t *read_stat(const char *dir, const char *file, const char *const *names)
{
	char *path = xasprintf("%s/%s", dir, file), *text = read_file_str(path, NULL);
	json_t *o = text ? cgroup_parse_stat(text, names) : NULL;
	free(text);
	free(path);
	return o;
}

json_t *cgroup_read_sizes(const char *path)
{
	static const char *const sizes[] = {"anon",	"file",	     "shmem", "anon_thp",
					    "file_thp", "shmem_thp", NULL};
	return read_stat(path, "memory.stat", sizes);
}

json_t *cgroup_read_end(const char *path)
{
	static const char *const events[] = {"pgfault", "pgmajfault", "thp_fault_alloc",
					     "thp_collapse_alloc", NULL};
	json_t *o = json_object(), *v;
	char *f, *text;
	if ((v = read_stat(path, "memory.stat", events)))
		json_object_set_new(o, "memory", v);
	if ((v = read_stat(path, "cpu.stat", NULL)))
		json_object_set_new(o, "cpu", v);
	f = xasprintf("%s/memory.peak", path);
	text = read_line_str(f);
	if (text && *text >= '0' && *text <= '9')
		json_object_set_new(o, "peak", json_integer(strtoll(text, NULL, 10)));
	free(text);
	free(f);
	f = xasprintf("%s/io.stat", path);
	text = read_file_str(f, NULL);
	if (text)
		json_object_set_new(o, "io", cgroup_parse_io(text));
	free(text);
	free(f);
	return o;
}
