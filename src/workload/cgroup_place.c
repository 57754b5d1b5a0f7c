/* cgroup_place.c - where a wrap's runs get their cgroups: cgroup v2 or v1,
 * and inside a Slurm job the step's own group (cgroup.h, docs/design.md
 * §11.4, §11.7). Pure over the texts of /proc/self/mountinfo and
 * /proc/self/cgroup plus the files under a prefix, so recorded layouts
 * (tests/data/cgroup-*) read like this machine. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "workload/cgroup.h"

/* Each line of text, as a new string, to fn until it returns nonzero. */
static char *each_line(const char *text, char *(*fn)(char *line, const void *arg), const void *arg)
{
	for (const char *p = text; p && *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char *line = xasprintf("%.*s", (int)len, p), *r = fn(line, arg);
		free(line);
		if (r)
			return r;
		p = eol ? eol + 1 : NULL;
	}
	return NULL;
}

/* Is word one of list's items, split at any of seps? */
static int has_item(const char *list, const char *word, const char *seps)
{
	size_t n = strlen(word);
	for (const char *p = list; p && (p = strstr(p, word)); p += n)
		if ((p == list || strchr(seps, p[-1])) && (p[n] == '\0' || strchr(seps, p[n])))
			return 1;
	return 0;
}

struct want {
	const char *fstype, *controller;
	char **root;
};

/* mountinfo: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [TAGS] - FSTYPE SRC SUPEROPTS". */
static char *mount_line(char *line, const void *arg)
{
	const struct want *w = arg;
	char *dash = strstr(line, " - "), root[4096], mnt[4096], fs[64], super[1024];
	if (!dash || sscanf(dash + 3, "%63s %*s %1023s", fs, super) < 1 ||
	    strcmp(fs, w->fstype) != 0 || sscanf(line, "%*s %*s %*s %4095s %4095s", root, mnt) != 2)
		return NULL;
	if (w->controller && !has_item(super, w->controller, ","))
		return NULL;
	if (w->root)
		*w->root = xstrdup(root);
	return xstrdup(mnt);
}

char *cgroup_mount_of(const char *mountinfo)
{
	struct want w = {"cgroup2", NULL, NULL};
	return each_line(mountinfo, mount_line, &w);
}

char *cgroup_v1_mount_of(const char *mountinfo, const char *controller, char **root)
{
	struct want w = {"cgroup", controller, root};
	*root = NULL;
	return each_line(mountinfo, mount_line, &w);
}

/* /proc/self/cgroup: "ID:CONTROLLERS:PATH"; v2's is "0::PATH". */
static char *self_line(char *line, const void *arg)
{
	const char *controller = arg;
	char *a = strchr(line, ':'), *b = a ? strchr(a + 1, ':') : NULL;
	if (!b)
		return NULL;
	*b = '\0';
	if (controller ? has_item(a + 1, controller, ",") : a[1] == '\0')
		return xstrdup(b + 1);
	return NULL;
}

char *cgroup_self_path(const char *self, const char *controller)
{
	return each_line(self, self_line, controller);
}

void cgroup_place_free(struct cgroup_place *pl)
{
	for (int i = 0; i < CGROUP_N_CTL; i++)
		free(pl->dir[i]);
	free(pl->slurm);
	free(pl->how);
	memset(pl, 0, sizeof(*pl));
}

/* The Slurm job in a cgroup path (".../job_42/step_0/..."): the path up to
 * the step (or the job when no step follows) into *upto, "job 42, step 0"
 * returned; NULL when the path holds no job. */
static char *slurm_of(const char *path, char **upto)
{
	const char *j = path;
	*upto = NULL;
	while (path && (j = strstr(j, "/job_")) != NULL) {
		const char *id = j + 5, *e = id + strspn(id, "0123456789"), *s, *se;
		if (e == id || (*e && *e != '/')) {
			j = id;
			continue;
		}
		if (strncmp(e, "/step_", 6) == 0) {
			s = e + 6;
			se = s + strcspn(s, "/");
			*upto = xasprintf("%.*s", (int)(se - path), path);
			return xasprintf("job %.*s, step %.*s", (int)(e - id), id, (int)(se - s),
					 s);
		}
		*upto = xasprintf("%.*s", (int)(e - path), path);
		return xasprintf("job %.*s", (int)(e - id), id);
	}
	return NULL;
}

/* Our group (or the part of its path kept) in a v1 hierarchy, under prefix;
 * NULL when that hierarchy is not mounted or holds us nowhere. */
static char *v1_dir(const char *prefix, const char *mountinfo, const char *self,
		    const char *controller, int step)
{
	char *root, *mnt = cgroup_v1_mount_of(mountinfo, controller, &root);
	char *path = mnt ? cgroup_self_path(self, controller) : NULL, *upto = NULL, *s, *dir;
	const char *rel;
	if (!path) {
		free(mnt);
		free(root);
		return NULL;
	}
	if (step && (s = slurm_of(path, &upto)) != NULL) {
		free(s);
		free(path);
		path = upto;
	}
	/* a hierarchy mounted from inside (a container's): the path is below
	 * the mount's root */
	rel = path;
	if (strcmp(root, "/") != 0 && strncmp(path, root, strlen(root)) == 0)
		rel = path + strlen(root);
	dir = xasprintf("%s%s%s", prefix, mnt, strcmp(rel, "/") == 0 ? "" : rel);
	free(mnt);
	free(root);
	free(path);
	return dir;
}

static char *words_of(const char *prefix, const char *mnt, const char *file)
{
	char *path = xasprintf("%s%s/%s", prefix, mnt, file), *s = read_line_str(path);
	free(path);
	return s;
}

/* cgroup v2 with the memory controller at mnt: 0 with pl filled, -1 with
 * *why. */
static int locate_v2(const char *prefix, const char *mnt, const char *self, struct cgroup_place *pl,
		     char **why)
{
	char *path = cgroup_self_path(self, NULL), *upto = NULL, *sub, *root;
	pl->version = 2;
	if ((pl->slurm = slurm_of(path, &upto)) != NULL) {
		char *stat;
		pl->step = 1;
		pl->dir[CGROUP_MEM] = xasprintf("%s%s%s", prefix, mnt, upto);
		stat = xasprintf("%s/memory.stat", pl->dir[CGROUP_MEM]);
		if (access(stat, R_OK) != 0)
			*why = xasprintf("inside Slurm %s, its cgroup %s has no memory controller",
					 pl->slurm, pl->dir[CGROUP_MEM]);
		else
			pl->how = xasprintf(
				"inside Slurm %s: the step's cgroup %s is read around each run "
				"(cgroup v2: our own group holds processes, so it cannot hand "
				"the memory controller to a group of ours)",
				pl->slurm, pl->dir[CGROUP_MEM]);
		free(stat);
		free(upto);
		free(path);
		return *why ? -1 : 0;
	}
	free(path);
	root = xasprintf("%s%s", prefix, mnt);
	sub = words_of(prefix, mnt, "cgroup.subtree_control");
	if (!has_item(sub, "memory", " \n"))
		*why = xasprintf("%s does not hand the memory controller to its children "
				 "(cgroup.subtree_control: '%s'); mempath enables none itself",
				 mnt, sub ? sub : "unreadable");
	else if (access(root, W_OK) != 0)
		*why = xasprintf("cannot make cgroups under %s: %s", mnt, strerror(errno));
	free(sub);
	if (*why) {
		free(root);
		return -1;
	}
	pl->dir[CGROUP_MEM] = root;
	pl->how = xasprintf("one per run under %s (cgroup v2)", mnt);
	return 0;
}

/* cgroup v1: runs' groups under ours in each hierarchy, or inside a Slurm
 * job whose groups we may not write, the step's group read. */
static int locate_v1(const char *prefix, const char *mountinfo, const char *self,
		     struct cgroup_place *pl, char **why)
{
	static const char *const ctl[CGROUP_N_CTL] = {"memory", "cpuacct", "pids"};
	char *mpath = cgroup_self_path(self, "memory"), *upto = NULL, *mine;
	int e;
	pl->version = 1;
	pl->slurm = slurm_of(mpath, &upto);
	free(mpath);
	free(upto);
	for (int i = 0; i < CGROUP_N_CTL; i++)
		pl->dir[i] = v1_dir(prefix, mountinfo, self, ctl[i], 0);
	if (!pl->dir[CGROUP_MEM]) {
		*why = xstrdup("this process is in no group of the cgroup v1 memory hierarchy");
		return -1;
	}
	if (access(pl->dir[CGROUP_MEM], W_OK) == 0) {
		/* a hierarchy we may not write is left out, the rest still ours */
		for (int i = 1; i < CGROUP_N_CTL; i++)
			if (pl->dir[i] && access(pl->dir[i], W_OK) != 0) {
				free(pl->dir[i]);
				pl->dir[i] = NULL;
			}
		pl->how = xasprintf("one per run under %s%s%s (cgroup v1: memory%s%s)",
				    pl->dir[CGROUP_MEM], pl->slurm ? ", inside Slurm " : "",
				    pl->slurm ? pl->slurm : "",
				    pl->dir[CGROUP_CPU] ? ", cpuacct" : "",
				    pl->dir[CGROUP_PIDS] ? ", pids" : "");
		return 0;
	}
	e = errno;
	if (!pl->slurm) {
		*why = xasprintf("cannot make cgroups under %s: %s", pl->dir[CGROUP_MEM],
				 strerror(e));
		return -1;
	}
	mine = pl->dir[CGROUP_MEM];
	pl->dir[CGROUP_MEM] = NULL;
	for (int i = 0; i < CGROUP_N_CTL; i++) {
		free(pl->dir[i]);
		pl->dir[i] = i == CGROUP_PIDS ? NULL : v1_dir(prefix, mountinfo, self, ctl[i], 1);
	}
	pl->step = 1;
	pl->how = xasprintf("inside Slurm %s: the step's cgroup %s is read around each run "
			    "(cgroup v1: no group of ours can be made under %s: %s)",
			    pl->slurm, pl->dir[CGROUP_MEM], mine, strerror(e));
	free(mine);
	return 0;
}

int cgroup_locate(const char *prefix, const char *mountinfo, const char *self, const char *job,
		  struct cgroup_place *pl, char **why)
{
	char *mnt = cgroup_mount_of(mountinfo), *ctl = NULL, *v2why = NULL, *root = NULL;
	char *v1 = cgroup_v1_mount_of(mountinfo, "memory", &root);
	int rc;
	memset(pl, 0, sizeof(*pl));
	*why = NULL;
	if (mnt)
		ctl = words_of(prefix, mnt, "cgroup.controllers");
	if (mnt && has_item(ctl, "memory", " \n"))
		rc = locate_v2(prefix, mnt, self, pl, why);
	else if (v1)
		rc = locate_v1(prefix, mountinfo, self, pl, why);
	else {
		v2why = mnt ? xasprintf("the cgroup v2 hierarchy at %s has no memory controller "
					"(cgroup.controllers: '%s')",
					mnt, ctl ? ctl : "unreadable")
			    : xstrdup("no cgroup v2 hierarchy is mounted here");
		*why = xasprintf("%s, and no cgroup v1 memory hierarchy either", v2why);
		rc = -1;
	}
	if (rc == 0 && job && *job && !pl->slurm) {
		char *h = xasprintf("%s; SLURM_JOB_ID=%s but this process is in no job cgroup "
				    "(Slurm without its cgroup plugins?)",
				    pl->how, job);
		free(pl->how);
		pl->how = h;
	}
	if (rc != 0)
		cgroup_place_free(pl);
	free(v2why);
	free(ctl);
	free(mnt);
	free(v1);
	free(root);
	return rc;
}

int cgroup_find(struct cgroup_place *pl, char **why)
{
	char *info = read_file_str("/proc/self/mountinfo", NULL);
	char *self = read_file_str("/proc/self/cgroup", NULL);
	int rc = cgroup_locate("", info ? info : "", self ? self : "", getenv("SLURM_JOB_ID"), pl,
			       why);
	free(info);
	free(self);
	return rc;
}
