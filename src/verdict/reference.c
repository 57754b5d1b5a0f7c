/* reference.c - reference values (reference.h): reading data/, matching a
 * fingerprint, judging a run's paths. */
#include "verdict/reference.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/stats.h"
#include "base/util.h"
#include "machine/limits.h"
#include "machine/virt.h"
#include "results/json_read.h"
#include "results/results_json.h"
#include "verdict/ref_busy.h"

/* ---- matching and judging ---- */

int ref_matches(const struct ref_kind *k, json_t *host)
{
	if (k->fallback) /* only where no other kind matches (check.c) */
		return 0;
	json_t *cpu = json_object_get(host, "cpu"), *gpu = json_object_get(host, "gpu");
	json_t *devs = gpu ? json_object_get(gpu, "devices") : NULL, *d;
	size_t i, n_gpus = json_is_array(devs) ? json_array_size(devs) : 0;
	if (virt_is_emulated(host, NULL)) /* its timings are the emulator's */
		return 0;
	if (k->cpu_model &&
	    (!json_is_string(json_object_get(cpu, "model")) ||
	     strcmp(json_string_value(json_object_get(cpu, "model")), k->cpu_model) != 0))
		return 0;
	if (k->cpus && json_integer_value(json_object_get(cpu, "logical_cpus")) != k->cpus)
		return 0;
	if (k->gpus_min && n_gpus < k->gpus_min)
		return 0;
	if (k->gpu_model) {
		if (n_gpus == 0)
			return 0;
		json_array_foreach (devs, i, d) {
			json_t *name = json_object_get(d, "name");
			if (!json_is_string(name) || strcmp(json_string_value(name), k->gpu_model))
				return 0;
		}
	}
	return 1;
}

enum check_status ref_judge(double value, double reference, double tolerance, enum better better)
{
	double worse;
	if (!isfinite(value) || !(reference > 0))
		return CHECK_NA;
	worse = better == BETTER_LOWER ? value / reference - 1 : 1 - value / reference;
	return worse <= tolerance ? CHECK_PASS : worse <= 2 * tolerance ? CHECK_WARN : CHECK_FAIL;
}

static const char *label_of(const struct label *l, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(l[i].key, key) == 0)
			return l[i].value;
	return NULL;
}

static int metric_matches(const struct ref_value *v, const struct probe_result *p,
			  const struct metric *m)
{
	if (strcmp(m->name, v->metric) != 0 || m->unit != v->unit)
		return 0;
	for (size_t i = 0; i < v->n_labels; i++) {
		const char *x = label_of(m->labels, m->n_labels, v->labels[i].key);
		if (!x || strcmp(x, v->labels[i].value) != 0)
			return 0;
	}
	/* a metric with labels the path does not name is another path, but the
	 * pair of a matrix cell: each pair is checked */
	for (size_t i = 0; i < m->n_labels; i++)
		if (!label_of(v->labels, v->n_labels, m->labels[i].key) &&
		    strcmp(m->labels[i].key, "src") != 0 && strcmp(m->labels[i].key, "dst") != 0)
			return 0;
	for (size_t i = 0; i < v->n_params; i++) {
		const char *x = label_of(p->params, p->n_params, v->params[i].key);
		if (!x || strcmp(x, v->params[i].value) != 0)
			return 0;
	}
	return 1;
}

static struct fleet_check *add_check(const struct ref_kind *k, const struct ref_value *v,
				     const struct metric *m, struct fleet_check **vec, size_t *n)
{
	struct fleet_check *c;
	GROW_ONE(*vec, *n);
	c = &(*vec)[(*n)++];
	memset(c, 0, sizeof(*c));
	c->kind = xstrdup(k->kind);
	c->path = xstrdup(v->path);
	c->means = xstrdup(v->means);
	c->probe = xstrdup(v->probe);
	c->metric = xstrdup(v->metric);
	c->labels = fleet_labels_dup(m ? m->labels : v->labels, m ? m->n_labels : v->n_labels);
	c->n_labels = m ? m->n_labels : v->n_labels;
	c->unit = v->unit;
	c->better = m ? m->better : BETTER_HIGHER;
	c->value = NAN;
	c->reference = v->value;
	c->tolerance = v->tolerance;
	c->source = xstrdup(v->source);
	c->date = xstrdup(v->date);
	c->other = v->other ? xstrdup(v->other) : NULL;
	c->tool = v->tool ? xstrdup(v->tool) : NULL;
	c->status = CHECK_NA;
	return c;
}

/* The limit of a band value on host (its own limits, else derived from the
 * facts it records; *hold owns a derived copy), NULL where host lacks the
 * device; *key its name. */
static const json_t *band_limit(const struct ref_value *v, const json_t *host, const char **key,
				json_t **hold)
{
	*hold = NULL;
	if (!host)
		return NULL;
	if (!json_object_get(host, "limits")) {
		*hold = json_copy((json_t *)host);
		json_object_set_new(*hold, "limits", limits_derive(host));
		host = *hold;
	}
	return limits_for(host, v->probe, v->metric, NULL, key);
}

int ref_probe_needed(const struct ref_kind *k, const char *probe, const json_t *host)
{
	int need = 0;
	for (size_t i = 0; i < k->n_values && !need; i++) {
		const struct ref_value *v = &k->values[i];
		json_t *hold;
		const json_t *l;
		if (strcmp(v->probe, probe) != 0)
			continue;
		if (!v->limit) {
			need = 1;
			continue;
		}
		l = band_limit(v, host, NULL, &hold);
		need = l && json_is_number(json_object_get(l, "gbps")) && v->pass > 0;
		json_decref(hold);
	}
	return need;
}

/* Label keys of m against v's: the same set, src and dst aside. */
static int same_keys(const struct ref_value *v, const struct metric *m)
{
	size_t n = 0;
	for (size_t i = 0; i < m->n_labels; i++) {
		if (strcmp(m->labels[i].key, "src") == 0 || strcmp(m->labels[i].key, "dst") == 0)
			continue;
		if (!label_of(v->labels, v->n_labels, m->labels[i].key))
			return 0;
		n++;
	}
	return n == v->n_labels;
}

/* Why v matched no metric of r: one line (new string). */
static char *why_missing(const struct ref_value *v, const struct run *r)
{
	const struct probe_result *pr = NULL;
	char labels[256];
	for (size_t p = 0; r && p < r->n_probes; p++)
		if (strcmp(r->probes[p].name, v->probe) == 0)
			pr = &r->probes[p];
	if (!pr)
		return xasprintf("%s was not run", v->probe);
	if (pr->status != STATUS_OK)
		return xasprintf("%s %s%s%s", v->probe, status_name(pr->status),
				 pr->reason ? ": " : "", pr->reason ? pr->reason : "");
	/* the metric of that name closest to the reference's labels: the most
	 * values in common, among those labelled by other keys */
	const struct metric *best = NULL;
	size_t best_n = 0;
	for (size_t j = 0; j < pr->n_metrics; j++) {
		const struct metric *m = &pr->metrics[j];
		size_t common = 1;
		if (strcmp(m->name, v->metric) != 0 || same_keys(v, m))
			continue;
		for (size_t i = 0; i < v->n_labels; i++) {
			const char *x = label_of(m->labels, m->n_labels, v->labels[i].key);
			common += x && strcmp(x, v->labels[i].value) == 0;
		}
		if (common > best_n) {
			best = m;
			best_n = common;
		}
	}
	if (best) {
		metric_labels_str(best, labels, sizeof(labels));
		return xasprintf(
			"%s's %s is labelled %s, not by the reference's labels: the reference "
			"and the probe that wrote the results label it differently (one of "
			"them changed)",
			v->probe, v->metric, labels);
	}
	for (size_t j = 0; j < pr->n_metrics; j++)
		if (strcmp(pr->metrics[j].name, v->metric) == 0)
			return xasprintf("%s measured no %s with these labels and parameters%s%s%s",
					 v->probe, v->metric,
					 label_of(pr->params, pr->n_params, "quick_suite")
						 ? " (it ran with the quick suite's options: "
						 : "",
					 label_of(pr->params, pr->n_params, "quick_suite") ?: "",
					 label_of(pr->params, pr->n_params, "quick_suite") ? ")"
											   : "");
	return xasprintf("%s has no metric %s", v->probe, v->metric);
}

/* A band's judgement of one metric against the limit l. */
static void judge_band(struct fleet_check *c, const struct ref_value *v, const json_t *l,
		       const char *key, const struct metric *m)
{
	double ways = limits_ways(metric_label(m, "dir"));
	double lim = ways * json_number_value(json_object_get(l, "gbps")), share = c->value / lim;
	c->reference = lim;
	c->reason = xasprintf("%s: %s%s; PASS at %.0f%% of it or more, WARN at %.0f%%", key,
			      json_string_value(json_object_get(l, "formula")) ?: "?",
			      ways > 1 ? ", both directions at once: twice that" : "",
			      100 * v->pass, 100 * v->warn);
	c->status = !isfinite(share)   ? CHECK_NA
		    : share >= v->pass ? CHECK_PASS
		    : share >= v->warn ? CHECK_WARN
				       : CHECK_FAIL;
}

void ref_check_run(const struct ref_kind *k, const struct run *r, struct fleet_check **vec,
		   size_t *n)
{
	for (size_t i = 0; i < k->n_values; i++) {
		const struct ref_value *v = &k->values[i];
		const char *key = NULL;
		json_t *hold = NULL;
		const json_t *l = NULL;
		size_t found = 0;
		if (v->limit) {
			l = band_limit(v, r ? r->host : NULL, &key, &hold);
			if (!l) { /* no such device here: not a path of this machine */
				json_decref(hold);
				continue;
			}
			if (!json_is_number(json_object_get(l, "gbps")) || v->pass == 0) {
				struct fleet_check *c = add_check(k, v, NULL, vec, n);
				c->reference = json_number_value(json_object_get(l, "gbps"));
				if (!json_is_number(json_object_get(l, "gbps")))
					c->reason = xasprintf(
						"the limit (%s) is unknown: %s", key,
						json_string_value(json_object_get(l, "unknown"))
							?: "?");
				else
					c->reason = xasprintf("no efficiency band for the %s limit "
							      "in %s yet (its source says why)",
							      key, k->file);
				json_decref(hold);
				continue;
			}
		}
		for (size_t p = 0; r && p < r->n_probes; p++) {
			const struct probe_result *pr = &r->probes[p];
			if (strcmp(pr->name, v->probe) != 0 || pr->status != STATUS_OK)
				continue;
			for (size_t j = 0; j < pr->n_metrics; j++) {
				const struct metric *m = &pr->metrics[j];
				struct fleet_check *c;
				if (!metric_matches(v, pr, m) || m->n_samples == 0)
					continue;
				c = add_check(k, v, m, vec, n);
				c->value = stats_median(m->samples, m->n_samples);
				if (l)
					judge_band(c, v, l, key, m);
				else
					c->status = ref_judge(c->value, c->reference, c->tolerance,
							      c->better);
				if (!l) /* measured under load: named, or not judged */
					ref_judge_busy(c, pr->noise);
				/* another measurement than the reference's: said, and
				 * a WARN or FAIL between them is no verdict */
				if ((c->note = ref_options_differ(k, pr)) &&
				    (c->status == CHECK_WARN || c->status == CHECK_FAIL)) {
					c->status = CHECK_NA;
					free(c->reason);
					c->reason = xasprintf("%s: a figure measured another way "
							      "than the reference is no verdict on "
							      "the machine",
							      c->note);
				}
				if (metric_receipt_failed(m)) { /* not the figure it claims */
					c->status = CHECK_NA;
					free(c->reason);
					c->reason = xasprintf("receipt failed: %s",
							      metric_receipt_failed(m));
				}
				found++;
			}
		}
		if (!found) {
			struct fleet_check *c = add_check(k, v, NULL, vec, n);
			c->reason = why_missing(v, r);
			if (l)
				c->reference = json_number_value(json_object_get(l, "gbps"));
		}
		json_decref(hold);
	}
}

size_t ref_drift(const struct ref_kind *k, const struct run *r, char ***msgs, size_t *n)
{
	size_t drifted = 0;
	for (size_t i = 0; i < k->n_values; i++) {
		const struct ref_value *v = &k->values[i];
		const struct probe_result *pr = NULL;
		int same = 0;
		for (size_t p = 0; p < r->n_probes; p++)
			if (strcmp(r->probes[p].name, v->probe) == 0 &&
			    r->probes[p].status == STATUS_OK)
				pr = &r->probes[p];
		if (!pr)
			continue;
		for (size_t j = 0; j < pr->n_metrics && !same; j++)
			same = strcmp(pr->metrics[j].name, v->metric) == 0 &&
			       pr->metrics[j].unit == v->unit && same_keys(v, &pr->metrics[j]);
		if (same)
			continue;
		char *why = why_missing(v, r);
		GROW_ONE(*msgs, *n);
		(*msgs)[(*n)++] = xasprintf("%s: \"%s\": %s", k->file, v->path, why);
		free(why);
		drifted++;
	}
	return drifted;
}

char *ref_options_differ(const struct ref_kind *k, const struct probe_result *pr)
{
	const char *quick = label_of(pr->params, pr->n_params, "quick_suite");
	/* the options that pick what to measure (kernels, sizes as labels)
	 * change no figure; the quick suite's sizes and shapes do */
	for (size_t i = 0; quick && i < k->n_runs; i++)
		if (strcmp(k->runs[i].probe, pr->name) == 0 && !k->runs[i].quick)
			return xasprintf("measured with the quick suite's options (%s); the "
					 "reference is of the probe's defaults%s",
					 quick,
					 k->runs[i].n_opts ? " and the kind's run options" : "");
	return NULL;
}
