/* sampler.c - a wrapped command's memory backing and cgroup sizes, sampled
 * while it runs (sampler.h, docs/design.md §11.4). */
#include "workload/sampler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/kv.h"
#include "base/util.h"
#include "workload/cgroup.h"

#define SAMPLER_MAX_PIDS 256

static const char *const smaps_fields[] = {"Rss",	    "Pss",	     "Anonymous",
					   "AnonHugePages", "FilePmdMapped", "ShmemPmdMapped"};

void sampler_add_smaps(const char *text, json_t *sum)
{
	struct kv_list l;
	if (!text || kv_parse_meminfo(text, &l) != 0)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(smaps_fields); i++) {
		int found;
		int64_t v = kv_get(&l, smaps_fields[i], &found);
		json_t *old = json_object_get(sum, smaps_fields[i]);
		if (found) /* a kernel without the field leaves it absent */
			json_object_set_new(sum, smaps_fields[i],
					    json_integer(json_integer_value(old) + v));
	}
	kv_free(&l);
}

/* pid and its descendants, through /proc/PID/task/PID/children. */
static size_t family(pid_t pid, pid_t *pids, size_t max)
{
	size_t n = 0;
	pids[n++] = pid;
	for (size_t i = 0; i < n && n < max; i++) {
		char *path = xasprintf("/proc/%d/task/%d/children", (int)pids[i], (int)pids[i]);
		char *text = read_file_str(path, NULL), *save = NULL;
		free(path);
		for (char *t = text ? strtok_r(text, " \n", &save) : NULL; t && n < max;
		     t = strtok_r(NULL, " \n", &save))
			if (atoi(t) > 0)
				pids[n++] = (pid_t)atoi(t);
		free(text);
	}
	return n;
}

static void keep_max(json_t **max, json_t *now)
{
	const char *k;
	json_t *v;
	if (!*max)
		*max = json_object();
	json_object_foreach (now, k, v) {
		json_t *old = json_object_get(*max, k);
		if (!old || json_integer_value(v) > json_integer_value(old))
			json_object_set(*max, k, v);
	}
}

void sampler_take(struct sampler *s, pid_t pid)
{
	pid_t pids[SAMPLER_MAX_PIDS];
	size_t n = s->cgroup && !s->cgroup->shared ? cgroup_pids(s->cgroup, pids, SAMPLER_MAX_PIDS)
						   : family(pid, pids, SAMPLER_MAX_PIDS);
	json_t *sum = json_object();
	int any = 0;
	for (size_t i = 0; i < n; i++) {
		char *path = xasprintf("/proc/%d/smaps_rollup", (int)pids[i]);
		char *text = read_file_str(path, NULL);
		free(path);
		if (text && *text) {
			sampler_add_smaps(text, sum);
			any = 1;
		}
		free(text);
	}
	if (any)
		keep_max(&s->smaps, sum);
	json_decref(sum);
	if (s->cgroup) {
		json_t *sizes = cgroup_read_sizes(s->cgroup);
		if (sizes && json_object_size(sizes))
			keep_max(&s->sizes, sizes);
		if (sizes)
			json_decref(sizes);
	}
	s->n++;
}

void sampler_free(struct sampler *s)
{
	if (s->smaps)
		json_decref(s->smaps);
	if (s->sizes)
		json_decref(s->sizes);
	s->smaps = s->sizes = NULL;
}
