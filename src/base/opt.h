/* opt.h - option tables for probes: typed rows, size suffixes, generated help.
 *
 * A probe declares its options as rows pointing into its own options struct:
 *   OPT_SIZE("size", struct x_opts, size_bytes, "1G", "bytes per array")
 * Defaults go through the same parser as user input, so a bad default is caught
 * by the registry test, and `mempath help PROBE` is printed from the rows.
 * OPT_LIST options take a comma-separated subset of fixed choices ("4k,thp");
 * the parsed value is a bitmask with bit i set for choices[i]; "all" sets all.
 */
#ifndef MEMPATH_OPT_H
#define MEMPATH_OPT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum opt_type {
	OPT_T_END = 0,
	OPT_T_SIZE,   /* uint64_t bytes: 4096, 4k, 512M, 1G, 1.5G (binary units) */
	OPT_T_UINT,   /* uint64_t plain count */
	OPT_T_DOUBLE, /* double */
	OPT_T_LIST,   /* uint32_t bitmask over '|'-separated choices */
	OPT_T_STR,    /* char[OPT_STR_MAX] */
	OPT_T_CPUS,   /* char[OPT_STR_MAX]: thread counts (list.h), none above the CPUs here */
};

#define OPT_STR_MAX	128
#define OPT_MAX_CHOICES 16

struct opt {
	const char *name;
	enum opt_type type;
	size_t offset;
	const char *def; /* default, parsed like user input */
	const char *help;
	const char *choices; /* OPT_T_LIST: "4k|thp"; OPT_T_STR: completion words, or NULL */
	/* OPT_T_CPUS, OPT_T_STR (NULL: none): NULL when the value is good, else
	 * why not, written into why (list_check_threads, list_check_sizes,
	 * pagesize_check) */
	const char *(*check)(const char *v, char *why, size_t len);
};

#define OPT_SIZE(n, st, f, d, h)                                 \
	{                                                        \
		n, OPT_T_SIZE, offsetof(st, f), d, h, NULL, NULL \
	}
#define OPT_UINT(n, st, f, d, h)                                 \
	{                                                        \
		n, OPT_T_UINT, offsetof(st, f), d, h, NULL, NULL \
	}
#define OPT_DOUBLE(n, st, f, d, h)                                 \
	{                                                          \
		n, OPT_T_DOUBLE, offsetof(st, f), d, h, NULL, NULL \
	}
#define OPT_LIST(n, st, f, c, d, h)                           \
	{                                                     \
		n, OPT_T_LIST, offsetof(st, f), d, h, c, NULL \
	}
#define OPT_STR(n, st, f, d, h)                                 \
	{                                                       \
		n, OPT_T_STR, offsetof(st, f), d, h, NULL, NULL \
	}
/* A string that check (NULL: good, else why not, written into why) must
 * take when it is set: a bad value is a usage error (exit 2), not a skip when
 * the probe runs (list.h's list_check_sizes, ...; a page-size list,
 * machine/pagesize.h, is known only at run time). hint: '|'-separated words
 * the shell completion offers (not a limit), or NULL. */
#define OPT_STR_CHECK(n, st, f, d, h, chk, hint)               \
	{                                                      \
		n, OPT_T_STR, offsetof(st, f), d, h, hint, chk \
	}
/* Pinned thread counts: "1,2,8", max or all. Setting it fails when every count
 * is above the CPUs this process may use (nothing would be measured: a usage
 * error, docs/design.md §6.5); counts above them in a list with others are
 * dropped, and the probe records how many (threads_dropped). */
#define OPT_CPUS(n, st, f, d, h)                                               \
	{                                                                      \
		n, OPT_T_CPUS, offsetof(st, f), d, h, NULL, list_check_threads \
	}
#define OPT_END                                            \
	{                                                  \
		NULL, OPT_T_END, 0, NULL, NULL, NULL, NULL \
	}

/* "4k" -> 4096. Accepts k/K, m/M, g/G, t/T (binary), optional "iB"/"B", and a
 * decimal fraction ("1.5G"). Rejects empty, negative, trailing junk, overflow.
 * Returns 0 or -1 without printing. */
int opt_parse_size(const char *s, uint64_t *out);
/* Formats bytes compactly ("4K", "512M", "1.5G", "123") into buf. */
void opt_format_size(uint64_t bytes, char *buf, size_t len);

/* Applies every row's default to dst. Returns 0 or -1 (error printed). */
int opt_defaults(const struct opt *opts, void *dst);
/* Applies one "name=value" to dst. Returns 0 or -1 (error printed, naming the
 * option and, for unknown names, the probe name ctx). */
int opt_set(const struct opt *opts, void *dst, const char *kv, const char *ctx);
/* Applies a space-separated "a=1 b=2" string (e.g. a probe's quick options). */
int opt_set_all(const struct opt *opts, void *dst, const char *kvs, const char *ctx);
/* Canonical text of an option's current value ("256M", "4k,thp") into buf. */
void opt_format_value(const struct opt *o, const void *src, char *buf, size_t len);
/* Index of `choice` in the row's choices, or -1. */
int opt_choice_index(const struct opt *o, const char *choice);
/* Name of choice i of a list row into buf; returns buf. */
const char *opt_choice_name(const struct opt *o, int i, char *buf, size_t len);
/* Help text: one line per option with type, default and choices. */
/* "size", "count", ... as help and the man page name an option's type. */
const char *opt_type_name(enum opt_type t);
void opt_print_help(const struct opt *opts, FILE *f);

#endif
