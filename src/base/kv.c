/* kv.c - /proc/vmstat and /proc/meminfo parsed by name. */
#include "base/kv.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static void kv_push(struct kv_list *l, const char *name, size_t name_len, int64_t v)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->items = xrealloc(l->items, l->cap * sizeof(*l->items));
	}
	l->items[l->n].name = xmalloc(name_len + 1);
	memcpy(l->items[l->n].name, name, name_len);
	l->items[l->n].name[name_len] = '\0';
	l->items[l->n].value = v;
	l->n++;
}

static int parse_lines(const char *text, struct kv_list *out, int meminfo)
{
	const char *p = text;
	memset(out, 0, sizeof(*out));
	if (!text)
		return -1;
	while (*p) {
		const char *eol = strchr(p, '\n'), *name = p, *q;
		size_t name_len;
		char *end;
		long long v;
		if (!eol)
			eol = p + strlen(p);
		q = p;
		while (q < eol && *q != ' ' && *q != '\t' && *q != ':')
			q++;
		name_len = (size_t)(q - name);
		if (q < eol && *q == ':')
			q++;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		errno = 0;
		v = strtoll(q, &end, 10);
		/* a value that does not fit (in bytes, for kB) is left out, as
		 * unreadable, never wrapped or clamped into a plausible one */
		if (name_len > 0 && end != q && end <= eol && errno != ERANGE) {
			int fits = 1;
			while (end < eol && *end == ' ')
				end++;
			if (meminfo && eol - end >= 2 && strncmp(end, "kB", 2) == 0) {
				fits = v <= LLONG_MAX / 1024 && v >= LLONG_MIN / 1024;
				v *= fits ? 1024 : 1;
			}
			if (fits)
				kv_push(out, name, name_len, v);
		}
		p = *eol ? eol + 1 : eol;
	}
	return 0;
}

void kv_add(struct kv_list *l, const char *name, int64_t v)
{
	kv_push(l, name, strlen(name), v);
}

int kv_parse_vmstat(const char *text, struct kv_list *out)
{
	return parse_lines(text, out, 0);
}

int kv_parse_meminfo(const char *text, struct kv_list *out)
{
	return parse_lines(text, out, 1);
}

static int read_and_parse(const char *path, struct kv_list *out, int meminfo)
{
	char *text = read_file_str(path, NULL);
	int rc;
	if (!text) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	rc = parse_lines(text, out, meminfo);
	free(text);
	return rc;
}

int vmstat_read(struct kv_list *out)
{
	return read_and_parse("/proc/vmstat", out, 0);
}

int meminfo_read(struct kv_list *out)
{
	return read_and_parse("/proc/meminfo", out, 1);
}

int64_t kv_get(const struct kv_list *l, const char *name, int *found)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->items[i].name, name) == 0) {
			if (found)
				*found = 1;
			return l->items[i].value;
		}
	if (found)
		*found = 0;
	return 0;
}

void kv_free(struct kv_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->items[i].name);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

int vmstat_is_recorded(const char *name)
{
	static const char *const prefixes[] = {
		"pgfault",    "pgmajfault", "thp_",	"compact_", "numa_",	"pgmigrate_",
		"pgpromote_", "pgdemote_",  "pswp",	"swap_",    "pghot_",	"hwhint_",
		"pgalloc_",   "pgfree",	    "pgsteal_", "pgscan_",  "oom_kill", "drop_",
	};
	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (str_starts_with(name, prefixes[i]))
			return 1;
	return 0;
}

void vmstat_delta(const struct kv_list *before, const struct kv_list *after, struct kv_list *delta)
{
	memset(delta, 0, sizeof(*delta));
	for (size_t i = 0; i < after->n; i++) {
		int found;
		int64_t b;
		if (!vmstat_is_recorded(after->items[i].name))
			continue;
		b = kv_get(before, after->items[i].name, &found);
		if (found) /* absent before or after: absent, never zero */
			kv_push(delta, after->items[i].name, strlen(after->items[i].name),
				after->items[i].value - b);
	}
}
