/* sampler.c - a wrapped command's memory backing and cgroup sizes, sampled
 * while it runs (sampler.h, docs/design.md §11.4). */
#include "workload/sampler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/kv.h"
#include "base/util.h"
#include "gpu/backend.h"
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

/* The largest of key in d into field of the sampler's device. */
static void gpu_keep(struct sampler *s, const char *dev, json_t *d, const char *key,
		     const char *field)
{
	json_t *now = json_object_get(d, key), *mine, *old;
	if (!json_is_integer(now))
		return;
	if (!(mine = json_object_get(s->gpu, dev))) {
		json_object_set_new(s->gpu, dev, mine = json_object());
		if (json_object_get(d, "name"))
			json_object_set(mine, "name", json_object_get(d, "name"));
		json_object_set(mine, "total_bytes", json_object_get(d, "total_bytes"));
	}
	old = json_object_get(mine, field);
	if (!old || json_integer_value(now) > json_integer_value(old))
		json_object_set(mine, field, now);
}

/* NVML's reading now: NULL (and gpu_why) when it cannot say. */
static json_t *gpu_read(struct sampler *s, const pid_t *pids, size_t n)
{
	const struct gpu_backend *g = gpu_backend();
	int ipids[SAMPLER_MAX_PIDS];
	json_t *d;
	if (s->gpu_why)
		return NULL; /* said once: not asked again this run */
	if (!g || !g->mem) {
		s->gpu_why =
			"this mempath was built without a GPU backend (no nvcc, or make GPU=0)";
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		ipids[i] = (int)pids[i];
	if (!(d = g->mem(ipids, n, &s->gpu_why)) && !s->gpu_why)
		s->gpu_why = "NVML gave no reading";
	if (d && !s->gpu)
		s->gpu = json_object();
	return d;
}

void sampler_gpu_edge(struct sampler *s, int after)
{
	const struct gpu_backend *g = gpu_backend();
	json_t *d = gpu_read(s, NULL, 0), *v;
	const char *dev;
	json_object_foreach (d, dev, v)
		gpu_keep(s, dev, v, "used_bytes", after ? "used_after_bytes" : "used_before_bytes");
	if (d)
		json_decref(d);
	if (g && g->other_procs_end)
		g->other_procs_end();
}

static void gpu_sample(struct sampler *s, const pid_t *pids, size_t n)
{
	json_t *d = gpu_read(s, pids, n), *v;
	const char *dev;
	if (!d)
		return;
	json_object_foreach (d, dev, v) {
		gpu_keep(s, dev, v, "used_bytes", "used_peak_bytes");
		gpu_keep(s, dev, v, "procs_bytes", "procs_peak_bytes");
	}
	json_decref(d);
	s->gpu_n++;
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
	gpu_sample(s, pids, n);
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
	if (s->gpu)
		json_decref(s->gpu);
	s->smaps = s->sizes = s->gpu = NULL;
}
