/* load.c - the steps of a loaded-latency sweep (load.h). */
#include "kit/load.h"

#include <stdlib.h>
#include <string.h>

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Appends v unless present; -1 when full. */
static int add_step(uint32_t *out, size_t *n, uint32_t v)
{
	for (size_t i = 0; i < *n; i++)
		if (out[i] == v)
			return 0;
	if (*n >= LOAD_MAX_STEPS)
		return -1;
	out[(*n)++] = v;
	return 0;
}

/* One comma-separated token as a number <= max: 0, or -1. */
static int parse_count(const char *tok, unsigned long max, uint32_t *v)
{
	char *end;
	unsigned long x = strtoul(tok, &end, 10);

	if (*tok < '0' || *tok > '9' || *end || x > max)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

int load_parse_delays(const char *spec, uint32_t *out, size_t *n_out)
{
	char buf[256], *save = NULL, *tok;
	size_t n = 0;

	if (!spec || !*spec || strlen(spec) >= sizeof(buf))
		return -1;
	strcpy(buf, spec);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint32_t v;

		if (strcmp(tok, "auto") == 0) {
			/* Full speed, then delays doubling until a thread injects
			 * a few percent of what it does at full speed. */
			if (add_step(out, &n, 0))
				return -1;
			for (v = 25; v <= 3200; v *= 2)
				if (add_step(out, &n, v))
					return -1;
			v = LOAD_IDLE;
		} else if (strcmp(tok, "idle") == 0) {
			v = LOAD_IDLE;
		} else if (parse_count(tok, 10000000ul, &v)) {
			return -1;
		}
		if (add_step(out, &n, v))
			return -1;
	}
	if (n == 0)
		return -1;
	qsort(out, n, sizeof(*out), cmp_u32); /* LOAD_IDLE is the largest */
	*n_out = n;
	return 0;
}

int load_parse_sms(const char *spec, unsigned n_sms, unsigned *out, size_t *n_out,
		   unsigned *n_dropped)
{
	char buf[256], *save = NULL, *tok;
	uint32_t steps[LOAD_MAX_STEPS];
	size_t n = 0;
	unsigned dropped = 0, max = n_sms - 1;

	if (!spec || !*spec || strlen(spec) >= sizeof(buf) || n_sms < 2)
		return -1;
	strcpy(buf, spec);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint32_t v;

		if (strcmp(tok, "auto") == 0) {
			static const unsigned eighths[] = {0, 1, 2, 4, 6};

			for (size_t i = 0; i < sizeof(eighths) / sizeof(eighths[0]); i++)
				if (add_step(steps, &n, (uint32_t)(n_sms * eighths[i] / 8)))
					return -1;
			v = max;
		} else if (strcmp(tok, "max") == 0) {
			v = max;
		} else if (parse_count(tok, 1ul << 20, &v)) {
			return -1;
		} else if (v > max) {
			dropped++;
			continue;
		}
		if (add_step(steps, &n, v))
			return -1;
	}
	if (n == 0)
		return -1;
	qsort(steps, n, sizeof(*steps), cmp_u32);
	for (size_t i = 0; i < n; i++)
		out[i] = steps[i];
	*n_out = n;
	if (n_dropped)
		*n_dropped = dropped;
	return 0;
}
