/* check_again.c - `check --again-quiet S` (check_again.h). */
#include "cmd/check_again.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/proc.h"
#include "base/util.h"
#include "cmd/groups.h"
#include "exec/session.h"
#include "machine/noise.h"
#include "probes/registry.h"
#include "results/results_json.h"

/* The other CPUs busy over a 1 s look; MEMPATH_TEST_LOOKS ("1.5,0.1": the
 * readings in turn, the last one kept) stands in for the machine in the
 * tests, which cannot make a shared machine quiet on demand. */
static double look_other(unsigned nth)
{
	const char *t = getenv("MEMPATH_TEST_LOOKS");
	json_t *l;
	double x;
	if (t && *t) {
		for (unsigned i = 0; i < nth && strchr(t, ','); i++)
			t = strchr(t, ',') + 1;
		sleep(1);
		return strtod(t, NULL);
	}
	l = noise_look(1.0);
	if (!l)
		return NAN;
	x = json_number_value(json_object_get(l, "other_cpus")) +
	    json_number_value(json_object_get(l, "steal_cpus"));
	json_decref(l);
	return x;
}

/* The probes of r with a figure INCONCLUSIVE for its load, each once. */
static size_t busy_probes(const struct run *r, const struct ref_set *refs, const int *match,
			  const char **names, size_t cap)
{
	struct fleet_check *c = NULL;
	size_t n_c = 0, n = 0;
	for (size_t k = 0; k < refs->n; k++)
		if (match[k])
			ref_check_run(&refs->kinds[k], r, &c, &n_c);
	for (size_t i = 0; i < n_c; i++) {
		int dup = 0;
		if (c[i].status != CHECK_NA || !c[i].reason || strncmp(c[i].reason, "busy:", 5) ||
		    !c[i].probe)
			continue;
		for (size_t j = 0; j < n; j++)
			dup |= strcmp(names[j], c[i].probe) == 0;
		for (size_t p = 0; !dup && n < cap && p < r->n_probes; p++)
			if (strcmp(r->probes[p].name, c[i].probe) == 0) {
				names[n++] = r->probes[p].name; /* r's own string: outlives c */
				break;
			}
	}
	for (size_t i = 0; i < n_c; i++)
		fleet_check_clear(&c[i]);
	free(c);
	return n;
}

/* Waits for a quiet machine, at most max_s: 1 quiet, 0 not (other: the last reading). */
static int wait_quiet(double max_s, double *other, double *waited)
{
	uint64_t t0 = time_now_ns();
	for (unsigned i = 0;; i++) {
		*other = look_other(i);
		*waited = (double)(time_now_ns() - t0) / 1e9;
		if (*other < NOISE_BUSY_CPUS)
			return 1;
		if (*waited >= max_s || proc_signal_received())
			return 0;
		progress(
			"check: %.2f other CPUs busy; waiting for a quiet machine (%.0f of %.0f s)",
			*other, *waited, max_s);
	}
}

/* The reference run that names probe: its options and size. */
static const struct ref_run *ref_run_of(const struct ref_set *refs, const int *match,
					const char *probe)
{
	for (size_t k = 0; k < refs->n; k++)
		for (size_t i = 0; match[k] && i < refs->kinds[k].n_runs; i++)
			if (strcmp(refs->kinds[k].runs[i].probe, probe) == 0)
				return &refs->kinds[k].runs[i];
	return NULL;
}

/* The new result of a probe in place of r's old one. */
static void replace_probe(struct run *r, struct probe_result *res)
{
	for (size_t p = 0; p < r->n_probes; p++)
		if (strcmp(r->probes[p].name, res->name) == 0) {
			probe_result_clear(&r->probes[p]);
			r->probes[p] = *res;
			memset(res, 0, sizeof(*res));
			return;
		}
}

int check_again_quiet(struct run *r, const struct ref_set *refs, const int *match, double max_s,
		      const char *out, const struct sampling_args *sa, int argc, char **argv)
{
	const char *names[64];
	char *list;
	size_t n = busy_probes(r, refs, match, names, sizeof(names) / sizeof(names[0]));
	double other, waited;
	struct session s;
	int rc = 0;
	if (n == 0) {
		progress("check: no figure was INCONCLUSIVE for the machine's load: nothing to "
			 "measure again");
		return 0;
	}
	list = xstrdup(names[0]);
	for (size_t i = 1; i < n; i++) {
		char *t = xasprintf("%s, %s", list, names[i]);
		free(list);
		list = t;
	}
	progress("check: busy while they ran: %s; measuring again once the machine is quiet "
		 "(at most %.0f s)",
		 list, max_s);
	if (!wait_quiet(max_s, &other, &waited)) {
		progress("check: still %.2f other CPUs busy after %.0f s: %s not measured again, "
			 "their figures stay INCONCLUSIVE",
			 other, waited, list);
		free(list);
		return out && run_write_file(r, out) != 0 ? -1 : 0;
	}
	progress("check: quiet (%.2f other CPUs) after %.0f s: measuring %s again", other, waited,
		 list);
	memset(&s, 0, sizeof(s));
	sampling_args_runner(sa, &s.ropts);
	if (session_begin(&s, argc, argv, NULL, "check") != 0) {
		free(list);
		return -1;
	}
	s.total = (unsigned)n;
	for (size_t i = 0; i < n && rc == 0 && !proc_signal_received(); i++) {
		const struct ref_run *rr = ref_run_of(refs, match, names[i]);
		const struct probe *p = probe_find(names[i]);
		if (!rr || !p)
			continue;
		s.ropts.quick = rr->quick;
		rc = session_run_probe(&s, p, rr->opts, rr->n_opts);
	}
	session_abandon(&s);
	for (size_t i = 0; rc == 0 && i < s.run->n_probes; i++)
		replace_probe(r, &s.run->probes[i]);
	run_free(s.run);
	if (rc == 0 && out && run_write_file(r, out) != 0)
		rc = -1;
	if (rc == 0)
		progress("check: %s measured again%s%s", list, out ? "; saved in " : "",
			 out ? out : "");
	free(list);
	return rc;
}
