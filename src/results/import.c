/* import.c - the reference tools' outputs as results (import.h). The
 * formats are the tools' own printing code: nvbandwidth's json_output.cpp
 * and output.cpp (v0.8), STREAM 5.10's stream.c, multichase's closing
 * printf("%6.*f\n") (and its -v header), gpu-benches' gpu-l2-cache,
 * gpu-stream and gpu-latency main.cu; tests/data/import/ holds real
 * outputs of each (where from: its README). */
#include "results/import.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

const char *const import_tools[] = {"nvbandwidth", "stream",	  "multichase", "gpu-l2-cache",
				    "gpu-stream",  "gpu-latency", NULL};

/* The next line of *p into buf (without its newline); 0 at the end. */
static int next_line(const char **p, char *buf, size_t len)
{
	const char *s = *p, *e;
	size_t n;
	if (!s || !*s)
		return 0;
	e = strchr(s, '\n');
	n = e ? (size_t)(e - s) : strlen(s);
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), s);
	if (n && buf[strlen(buf) - 1] == '\r')
		buf[strlen(buf) - 1] = '\0';
	*p = e ? e + 1 : s + n;
	return 1;
}

/* Every whitespace-separated number of line into v (at most max); how many
 * there were, or -1 where a word is not a number. */
static int numbers(const char *line, double *v, int max)
{
	int n = 0;
	const char *s = line;
	while (*s) {
		char *end;
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		double x = strtod(s, &end);
		if (end == s || (*end && !isspace((unsigned char)*end)) || n >= max || !isfinite(x))
			return -1;
		v[n++] = x;
		s = end;
	}
	return n;
}

static void sample(struct probe_result *out, const char *name, enum unit u, enum better b,
		   const char *desc, double v, const char *k1, const char *v1, const char *k2,
		   const char *v2, const char *k3, const char *v3)
{
	struct metric *m = probe_find_metric(out, name, k1, v1, k2, v2, k3, v3, NULL);
	if (!m)
		m = probe_add_metric(out, name, u, b, desc, k1, v1, k2, v2, k3, v3, NULL);
	metric_add_sample(m, v);
}

const char *import_detect(const char *text)
{
	double v[2];
	char line[512];
	const char *p = text;
	int lines = 0, lat = 0, one = 0;
	if (strstr(text, "\"nvbandwidth\"") || strstr(text, "nvbandwidth Version:"))
		return "nvbandwidth";
	if (strstr(text, "STREAM version"))
		return "stream";
	if (strstr(text, "blockSize") && strstr(text, "%occ") && strstr(text, "GB/s:"))
		return "gpu-stream";
	if (strstr(text, "data set") && strstr(text, "Eff. bw"))
		return "gpu-l2-cache";
	while (next_line(&p, line, sizeof(line))) {
		double w[6];
		int n = numbers(line, w, 6);
		lines += n != 0;
		lat += n == 5;
		one += n == 1 && numbers(line, v, 2) == 1;
	}
	if (lat >= 2 && lat + 2 >= lines)
		return "gpu-latency";
	if (one >= 1 && strstr(text, "chase = ") != NULL)
		return "multichase";
	if (lines == 1 && one == 1)
		return "multichase";
	return NULL;
}

/* ---- nvbandwidth ---- */

/* Its JSON: {"nvbandwidth": {"testcases": [{name, status, bandwidth_matrix
 * (rows of strings, "N/A"), bandwidth_description, sum}], version, ...}}. */
static int nvb_json(json_t *root, struct probe_result *out)
{
	json_t *top = json_object_get(root, "nvbandwidth"), *cases, *tc;
	size_t i, found = 0;
	const char *ver = json_string_value(json_object_get(top, "version"));
	cases = json_object_get(top, "testcases");
	if (ver)
		probe_result_add_param(out, "version", ver);
	json_array_foreach (cases, i, tc) {
		const char *name = json_string_value(json_object_get(tc, "name"));
		const char *st = json_string_value(json_object_get(tc, "status"));
		const char *desc = json_string_value(json_object_get(tc, "bandwidth_description"));
		json_t *rows = json_object_get(tc, "bandwidth_matrix"), *row, *cell;
		size_t r, c;
		int lat = desc && strstr(desc, "(ns)");
		if (!name || !st || strcmp(st, "Passed") != 0)
			continue;
		json_array_foreach (rows, r, row)
			json_array_foreach (row, c, cell) {
				const char *s = json_string_value(cell);
				char rs[24], cs[24], *end;
				double x = s ? strtod(s, &end) : NAN;
				if (!s || end == s || !(x > 0))
					continue;
				snprintf(rs, sizeof(rs), "%zu", r);
				snprintf(cs, sizeof(cs), "%zu", c);
				sample(out, lat ? "latency" : "bandwidth",
				       lat ? UNIT_NS : UNIT_GB_S,
				       lat ? BETTER_LOWER : BETTER_HIGHER, desc ? desc : name, x,
				       "test", name, "row", rs, "column", cs);
				found++;
			}
	}
	return found ? 0 : -1;
}

/* Its text: "Running NAME." then a header line (the description), a line
 * of column numbers, rows "R v v ..." ("N/A" where a pair is not
 * measured), "SUM NAME total". */
static int nvb_text(const char *text, struct probe_result *out)
{
	char line[1024], name[128] = "", desc[256] = "";
	const char *p = text;
	int state = 0; /* 1: after Running, 2: after the description, 3: in the rows */
	size_t found = 0;
	while (next_line(&p, line, sizeof(line))) {
		if (strncmp(line, "nvbandwidth Version: ", 21) == 0) {
			int seen = 0; /* one version of the outputs put together */
			for (size_t i = 0; i < out->n_params; i++)
				seen |= strcmp(out->params[i].key, "version") == 0;
			if (!seen)
				probe_result_add_param(out, "version", line + 21);
			continue;
		}
		if (sscanf(line, "Running %127[^.].", name) == 1) {
			state = 1;
			continue;
		}
		if (state == 1 && line[0]) {
			snprintf(desc, sizeof(desc), "%.255s", line);
			state = 2;
			continue;
		}
		if (state == 2) { /* the columns' numbers */
			state = 3;
			continue;
		}
		if (state == 3) {
			char *s = line, *end;
			long r = strtol(s, &end, 10);
			int lat = strstr(desc, "(ns)") != NULL;
			if (end == s || !line[0]) {
				state = 0;
				continue;
			}
			for (long c = 0; *end; c++) {
				char rs[24], cs[24], *e2;
				double x;
				s = end;
				while (isspace((unsigned char)*s))
					s++;
				if (!*s)
					break;
				x = strtod(s, &e2);
				if (e2 == s) { /* N/A */
					while (*s && !isspace((unsigned char)*s))
						s++;
					end = s;
					continue;
				}
				end = e2;
				if (!(x > 0))
					continue;
				snprintf(rs, sizeof(rs), "%ld", r);
				snprintf(cs, sizeof(cs), "%ld", c);
				sample(out, lat ? "latency" : "bandwidth",
				       lat ? UNIT_NS : UNIT_GB_S,
				       lat ? BETTER_LOWER : BETTER_HIGHER, desc, x, "test", name,
				       "row", rs, "column", cs);
				found++;
			}
		}
	}
	return found ? 0 : -1;
}

/* ---- STREAM: "Copy:  103442.5  0.032712  0.030935  0.034603" (MB/s) ---- */

static int stream_text(const char *text, struct probe_result *out)
{
	char line[512], kern[16];
	const char *p = text;
	double rate, t[3];
	size_t found = 0;
	while (next_line(&p, line, sizeof(line))) {
		unsigned long long n;
		int th;
		if (sscanf(line, "Array size = %llu", &n) == 1) {
			char b[32];
			snprintf(b, sizeof(b), "%llu", n);
			probe_result_add_param(out, "array_elements", b);
		} else if (sscanf(line, "Number of Threads counted = %d", &th) == 1) {
			char b[16];
			snprintf(b, sizeof(b), "%d", th);
			probe_result_add_param(out, "threads", b);
		} else if (sscanf(line, "STREAM version $Revision: %15s", kern) == 1) {
			probe_result_add_param(out, "version", kern);
		} else if (sscanf(line, "%15[A-Za-z]: %lf %lf %lf %lf", kern, &rate, &t[0], &t[1],
				  &t[2]) == 5 &&
			   rate > 0) {
			for (char *c = kern; *c; c++)
				*c = (char)tolower((unsigned char)*c);
			sample(out, "bandwidth", UNIT_GB_S, BETTER_HIGHER,
			       "STREAM's best rate (its byte counting: copy and scale 16 B an "
			       "element, add and triad 24 B; MB/s / 1000)",
			       rate / 1000, "kernel", kern, NULL, NULL, NULL, NULL);
			found++;
		}
	}
	return found ? 0 : -1;
}

/* ---- multichase: its result line "%6.*f" ns (-v: "name = value" first) ---- */

static int multichase_text(const char *text, struct probe_result *out)
{
	char line[512], key[64], val[256];
	const char *p = text;
	double v[2];
	size_t found = 0;
	while (next_line(&p, line, sizeof(line))) {
		if (sscanf(line, "%63[a-z_] = %255[^\n]", key, val) == 2) {
			probe_result_add_param(out, key, val);
		} else if (numbers(line, v, 2) == 1 && v[0] > 0) {
			sample(out, "latency", UNIT_NS, BETTER_LOWER,
			       "multichase's result: ns per dependent load, the best sample", v[0],
			       NULL, NULL, NULL, NULL, NULL, NULL);
			found++;
		}
	}
	return found ? 0 : -1;
}

/* ---- gpu-benches ---- */

/* gpu-l2-cache: "  512 kB   8192 kB   5ms   0.4%   10251.9 GB/s ..." (a
 * block's data, the whole data set, time, spread, bandwidth). */
static int l2cache_text(const char *text, struct probe_result *out)
{
	char line[512];
	const char *p = text;
	size_t found = 0;
	while (next_line(&p, line, sizeof(line))) {
		double blk, set, ms, spread, bw;
		char set_s[32];
		if (sscanf(line, " %lf kB %lf kB %lfms %lf%% %lf GB/s", &blk, &set, &ms, &spread,
			   &bw) != 5 ||
		    !(bw > 0))
			continue;
		snprintf(set_s, sizeof(set_s), "%.0fkB", set);
		sample(out, "bandwidth", UNIT_GB_S, BETTER_HIGHER,
		       "gpu-l2-cache's effective bandwidth: the data set read by every block, the "
		       "fastest of its runs (GB = 1e9)",
		       bw, "data_set", set_s, NULL, NULL, NULL, NULL);
		found++;
	}
	return found ? 0 : -1;
}

/* gpu-stream: "blockSize threads %occ | init read scale triad 3pt 5pt" then
 * "   1024   135168  100.0 %  |  GB/s:   3884   2756 ..." per block size. */
static int gstream_text(const char *text, struct probe_result *out)
{
	static const char *const kern[] = {"init", "read", "scale", "triad", "3pt", "5pt"};
	char line[512];
	const char *p = text;
	size_t found = 0;
	while (next_line(&p, line, sizeof(line))) {
		double bs, th, occ, v[6];
		const char *g = strstr(line, "GB/s:");
		char bs_s[16];
		int n;
		if (!g || sscanf(line, " %lf %lf %lf %%", &bs, &th, &occ) != 3)
			continue;
		n = numbers(g + 5, v, 6);
		snprintf(bs_s, sizeof(bs_s), "%.0f", bs);
		for (int k = 0; k < n; k++)
			if (v[k] > 0) {
				sample(out, "bandwidth", UNIT_GB_S, BETTER_HIGHER,
				       "gpu-stream's bandwidth at one block size (init: a store "
				       "stream; GB = 1e9)",
				       v[k], "kernel", kern[k], "block_size", bs_s, NULL, NULL);
				found++;
			}
	}
	return found ? 0 : -1;
}

/* gpu-latency: "iters clock(MHz) size(kB) time(ms) cycles" a line. */
static int glat_text(const char *text, struct probe_result *out)
{
	char line[512];
	const char *p = text;
	size_t found = 0;
	while (next_line(&p, line, sizeof(line))) {
		double v[6];
		char kb[32];
		if (numbers(line, v, 6) != 5 || !(v[0] > 0) || !(v[3] > 0))
			continue;
		snprintf(kb, sizeof(kb), "%.0fkB", v[2]);
		sample(out, "latency", UNIT_NS, BETTER_LOWER,
		       "gpu-latency: its chase's time / iterations (64 threads of one block over "
		       "one chain), ns per dependent load",
		       v[3] * 1e6 / v[0], "size", kb, NULL, NULL, NULL, NULL);
		sample(out, "latency_cycles", UNIT_NONE, BETTER_LOWER,
		       "gpu-latency's own column: cycles per load at the clock it read", v[4],
		       "size", kb, NULL, NULL, NULL, NULL);
		found++;
	}
	return found ? 0 : -1;
}

int import_read(const char *tool, const char *text, struct probe_result *out, char *why, size_t len)
{
	char name[64];
	int rc = -1;
	snprintf(name, sizeof(name), "ref.%s", tool);
	probe_result_init(out, name);
	probe_result_add_param(out, "tool", tool);
	if (strcmp(tool, "nvbandwidth") == 0) {
		json_t *j = text[strspn(text, " \t\r\n")] == '{' ? json_loads(text, 0, NULL) : NULL;
		rc = j ? nvb_json(j, out) : nvb_text(text, out);
		json_decref(j);
	} else if (strcmp(tool, "stream") == 0) {
		rc = stream_text(text, out);
	} else if (strcmp(tool, "multichase") == 0) {
		rc = multichase_text(text, out);
	} else if (strcmp(tool, "gpu-l2-cache") == 0) {
		rc = l2cache_text(text, out);
	} else if (strcmp(tool, "gpu-stream") == 0) {
		rc = gstream_text(text, out);
	} else if (strcmp(tool, "gpu-latency") == 0) {
		rc = glat_text(text, out);
	} else {
		snprintf(why, len, "'%s' is not a tool mempath reads", tool);
		return -1;
	}
	if (rc != 0) {
		snprintf(why, len, "no %s figures in it (not that tool's output?)", tool);
		return -1;
	}
	for (size_t i = 0; i < out->n_metrics; i++)
		metric_summarize(&out->metrics[i]);
	out->status = STATUS_OK;
	return 0;
}
