/* list.c - comma-separated thread-count, size and device lists (see list.h). */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/list.h"
#include "base/opt.h"

unsigned list_cpus_here(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 1;
	return (unsigned)CPU_COUNT(&set);
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* Appends v unless present; -1 when full. */
static int add_unique(unsigned *out, size_t *n, unsigned v)
{
	for (size_t i = 0; i < *n; i++)
		if (out[i] == v)
			return 0;
	if (*n >= LIST_MAX)
		return -1;
	out[(*n)++] = v;
	return 0;
}

int list_parse_threads(const char *spec, unsigned max_cpus, unsigned *out, size_t *n_out,
		       unsigned *n_dropped)
{
	char buf[256], *save = NULL, *tok;
	size_t n = 0;
	unsigned dropped = 0;

	if (!spec || !*spec || strlen(spec) >= sizeof(buf) || max_cpus == 0)
		return -1;
	strcpy(buf, spec);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "max") == 0) {
			if (add_unique(out, &n, max_cpus))
				return -1;
		} else if (strcmp(tok, "all") == 0) {
			/* Powers of two keep a 128-CPU sweep to 8 points. */
			for (unsigned t = 1; t < max_cpus; t *= 2)
				if (add_unique(out, &n, t))
					return -1;
			if (add_unique(out, &n, max_cpus))
				return -1;
		} else {
			char *end;
			unsigned long v = strtoul(tok, &end, 10);

			if (*end || end == tok || v == 0 || v > 1u << 20)
				return -1;
			if (v > max_cpus) {
				dropped++;
				continue;
			}
			if (add_unique(out, &n, (unsigned)v))
				return -1;
		}
	}
	if (n == 0 && dropped == 0)
		return -1;
	qsort(out, n, sizeof(*out), cmp_unsigned);
	*n_out = n;
	if (n_dropped)
		*n_dropped = dropped;
	return 0;
}

const char *list_check_threads(const char *spec, char *why, size_t len)
{
	unsigned counts[LIST_MAX], cpus = list_cpus_here(), dropped = 0;
	size_t n = 0;

	if (list_parse_threads(spec, cpus, counts, &n, &dropped) != 0)
		snprintf(why, len, "not a list of thread counts (examples: 1,2,8, max, all)");
	else if (n == 0)
		snprintf(why, len,
			 "more threads than the %u CPUs this process may use (each thread is "
			 "pinned to one; threads=max uses all %u)",
			 cpus, cpus);
	else
		return NULL;
	return why;
}

int list_parse_sizes(const char *spec, uint64_t *out, size_t *n_out)
{
	char buf[512], *save = NULL, *tok;
	size_t n = 0;

	if (!spec || !*spec || strlen(spec) >= sizeof(buf))
		return -1;
	strcpy(buf, spec);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;
		int dup = 0;

		if (opt_parse_size(tok, &v) || v == 0)
			return -1;
		for (size_t i = 0; i < n; i++)
			dup |= out[i] == v;
		if (dup)
			continue;
		if (n >= LIST_MAX)
			return -1;
		out[n++] = v;
	}
	if (n == 0)
		return -1;
	*n_out = n;
	return 0;
}

/* A list_parse_sizes list, or why not: `what` names the values, e.g. "sizes
 * (e.g. 256M,1G". */
static const char *check_list(const char *spec, const char *what, char *why, size_t len)
{
	uint64_t v[LIST_MAX];
	size_t n;

	if (list_parse_sizes(spec, v, &n) == 0)
		return NULL;
	snprintf(why, len, "not a list of %s: each above 0, at most %d)", what, LIST_MAX);
	return why;
}

const char *list_check_sizes(const char *spec, char *why, size_t len)
{
	return check_list(spec, "sizes (e.g. 256M,1G", why, len);
}

const char *list_check_numbers(const char *spec, char *why, size_t len)
{
	return check_list(spec, "numbers (e.g. 512,1024", why, len);
}

const char *list_check_cpu_pair(const char *spec, char *why, size_t len)
{
	const char *comma = strchr(spec, ',');
	size_t n = strlen(spec);

	if (strcmp(spec, "auto") == 0)
		return NULL;
	/* digits, one comma between two numbers of at most 9 digits, apart */
	if (comma && comma > spec && comma[1] && strspn(spec, "0123456789,") == n &&
	    !strchr(comma + 1, ',') && (size_t)(comma - spec) <= 9 && strlen(comma + 1) <= 9 &&
	    atoi(spec) != atoi(comma + 1))
		return NULL;
	snprintf(why, len, "need two different CPU numbers A,B (e.g. 0,1) or auto");
	return why;
}

int list_parse_devices(const char *spec, int count, int *out, size_t *n_out)
{
	const char *s = spec;
	size_t n = 0;

	if (!spec || !*spec)
		return -1;
	if (strcmp(spec, "all") == 0) {
		for (int d = 0; d < count && n < LIST_MAX; d++)
			out[n++] = d;
		*n_out = n;
		return n ? 0 : -1;
	}
	while (*s) {
		char *end;
		long v = strtol(s, &end, 10);

		if (end == s || *s == '-' || *s == '+' || v >= count || n >= LIST_MAX)
			return -1;
		for (size_t i = 0; i < n; i++)
			if (out[i] == v)
				return -1;
		out[n++] = (int)v;
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	*n_out = n;
	return 0;
}

size_t list_sweep_sizes(uint64_t min, uint64_t max, unsigned steps, uint64_t *out, size_t cap)
{
	size_t n = 0;
	uint64_t base = 4096;

	while (base * 2 <= min)
		base *= 2;
	for (; base <= max && n < cap - 1; base *= 2) {
		for (unsigned s = 0; s < steps && n < cap - 1; s++) {
			uint64_t v = (base + base * s / steps) / 64 * 64;

			if (v >= min && v <= max && (n == 0 || v > out[n - 1]))
				out[n++] = v;
		}
	}
	if (n == 0 || out[n - 1] < max)
		out[n++] = max / 64 * 64;
	return n;
}
