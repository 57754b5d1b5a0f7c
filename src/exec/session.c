/* session.c - drives a run: fingerprint, probes in children, atomic saves. */
#include "exec/session.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/proc.h"
#include "base/util.h"
#include "machine/sysinfo.h"
#include "results/results_json.h"

static const char *const suites[] = {"quick", "full", "cpu", "gpu", "p2p"};

int session_suite_valid(const char *suite)
{
	for (size_t i = 0; i < ARRAY_SIZE(suites); i++)
		if (strcmp(suite, suites[i]) == 0)
			return 1;
	return 0;
}

int session_suite_has(const char *suite, const struct probe *p, int gpu_present)
{
	int gpu_ok = !(p->flags & (PROBE_GPU | PROBE_P2P)) || gpu_present;
	if (strcmp(suite, "quick") == 0)
		return (p->flags & PROBE_QUICK) && gpu_ok;
	if (strcmp(suite, "full") == 0)
		return gpu_ok;
	if (strcmp(suite, "cpu") == 0)
		return (p->flags & PROBE_CPU) != 0;
	if (strcmp(suite, "gpu") == 0)
		return (p->flags & PROBE_GPU) != 0;
	if (strcmp(suite, "p2p") == 0)
		return (p->flags & PROBE_P2P) != 0;
	return 0;
}

char *session_default_path(const char *label)
{
	char ts[32];
	time_t t = time(NULL);
	struct tm tm;
	char *path, *c;
	localtime_r(&t, &tm);
	strftime(ts, sizeof(ts), "%Y%m%d-%H%M%S", &tm);
	path = xasprintf("mempath-%s-%s.json", label ? label : "run", ts);
	for (c = path; *c; c++)
		if (*c == '/' || *c == ' ')
			*c = '_';
	return path;
}

static int save(struct session *s)
{
	if (!s->out_path)
		return 0;
	return run_write_file(s->run, s->out_path);
}

int session_begin(struct session *s, int argc, char **argv, const char *label, const char *suite)
{
	char now[32];
	json_t *gpu, *devices;
	struct run *r = run_new();
	s->run = r;
	r->tool_version = xstrdup(MEMPATH_VERSION);
	r->git_hash = xstrdup(MEMPATH_GIT);
	r->argv = xcalloc((size_t)argc + 1, sizeof(char *));
	for (int i = 0; i < argc; i++)
		r->argv[r->argc++] = xstrdup(argv[i]);
	r->label = label ? xstrdup(label) : NULL;
	r->suite = suite ? xstrdup(suite) : NULL;
	time_iso8601(now, sizeof(now));
	r->start_time = xstrdup(now);
	r->complete = 0; /* until session_end */
	r->host = sysinfo_collect();
	r->knobs_start = json_incref(json_object_get(r->host, "knobs"));
	/* A leg of `ab`: what made it this variant (its setup, its environment),
	 * handed down by ab, kept in the file that the comparison reads. */
	if (getenv("MEMPATH_AB_LEG")) {
		r->leg = json_loads(getenv("MEMPATH_AB_LEG"), 0, NULL);
		if (r->leg && !json_is_object(r->leg)) {
			json_decref(r->leg);
			r->leg = NULL;
		}
	}
	r->noise = json_object();
	json_object_set_new(r->noise, "start", sysinfo_noise());
	gpu = json_object_get(r->host, "gpu");
	devices = gpu ? json_object_get(gpu, "devices") : NULL;
	s->gpu_present = devices && json_is_array(devices) && json_array_size(devices) > 0;
	return save(s);
}

int session_run_probe(struct session *s, const struct probe *p, char *const *kvs, size_t n_kvs)
{
	struct probe_result res;
	s->done++;
	progress("[%u/%u] %s ...", s->done, s->total ? s->total : s->done, p->name);
	if (runner_run_probe(p, kvs, n_kvs, &s->ropts, &res) != 0)
		return -1;
	progress("[%u/%u] %s %s%s%s (%.1f s)", s->done, s->total ? s->total : s->done, p->name,
		 status_name(res.status), res.reason ? ": " : "", res.reason ? res.reason : "",
		 res.wall_s);
	run_take_probe(s->run, &res);
	return save(s);
}

size_t session_failed(const struct session *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->run->n_probes; i++)
		n += s->run->probes[i].status == STATUS_FAIL ||
		     s->run->probes[i].status == STATUS_TIMEOUT;
	return n;
}

int session_end(struct session *s)
{
	char now[32];
	time_iso8601(now, sizeof(now));
	free(s->run->end_time);
	s->run->end_time = xstrdup(now);
	s->run->knobs_end = sysinfo_knobs();
	if (s->knobs_extra) { /* the wrapped workload's settings, at both ends */
		json_t *start =
			s->run->knobs_start ? json_deep_copy(s->run->knobs_start) : json_object();
		json_object_update(start, s->knobs_extra);
		if (s->run->knobs_start)
			json_decref(s->run->knobs_start);
		s->run->knobs_start = start;
		if (s->run->knobs_end)
			json_object_update(s->run->knobs_end, s->knobs_extra);
	}
	json_object_set_new(s->run->noise, "end", sysinfo_noise());
	s->run->interrupted = proc_signal_received() != 0;
	s->run->complete = 1;
	return save(s);
}
