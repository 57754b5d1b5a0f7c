/* util.h - error reporting, checked allocation, small string and file helpers.
 *
 * Errors: functions return 0 on success or -1 after error("...") printed one
 * lowercase line naming the subject ("cannot open '%s': %s"). Only src/cmd/ and
 * src/main.c decide to exit. Allocation failure ends the process: there is nothing useful
 * a measurement tool can do without memory for its own bookkeeping: one error
 * line and exit 1.
 */
#ifndef MEMPATH_UTIL_H
#define MEMPATH_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* A macro's value as a string literal: STR(NOISE_BUSY_CPUS) is "0.25". */
#define STR_(x) #x
#define STR(x)	STR_(x)

/* The one rule for bytes from outside (files, argv, the environment, /proc,
 * sysfs, a child's output) on their way to any output (docs/design.md §9.3):
 * control characters as text (\x1b, \n, \t), C1 controls and bidi
 * controls as \uNNNN (\u009b, \u202e, \u2066), bytes that are not UTF-8
 * (binary) as \xNN; the rest as it is. A new string. */
char *util_escape_controls(const char *s);
/* (escape_into() of base/escape.h writes the same into a buffer.) */
/* Prints "mempath: error: <msg>" to stderr, its control characters as text
 * (util_escape_controls); always returns -1. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "<msg>" to stderr as one line, escaped as error lines are: the lines
 * that name what a run wrote ("results: PATH") or how a step ended. */
void notice(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Writes "<msg>\n" to f, escaped so: a line mempath writes into a log. */
void util_log_line(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints "mempath: warning: <msg>" to stderr. */
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Progress line on stderr unless quiet was set with util_set_quiet(); with a
 * sink set, the text goes to sink instead (a status line's step: a child
 * forked after the call keeps the sink). */
void progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void util_set_progress_sink(void (*sink)(const char *msg));
/* Called at every progress() call, quiet or not (a probe's child keeps
 * what it has measured so far there: exec/runner.c); NULL: none. */
void util_set_step_hook(void (*hook)(void));
void util_set_quiet(int quiet);
int util_quiet(void);

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* Room for one more element at the end of an array of n (git's ALLOC_GROW,
 * one element at a time): GROW_ONE(v, n) reallocates v to n + 1 elements of
 * its type, the new one, v[n], zeroed; counting it is the caller's (n++). */
void *xgrow_one(void *p, size_t n, size_t size);
#define GROW_ONE(v, n) ((v) = xgrow_one((v), (n), sizeof(*(v))))
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Reads a whole (small, /proc or /sys) file; NUL-terminated, caller frees.
 * Returns NULL without printing when the file cannot be read or is not a
 * regular file (opened O_NONBLOCK: a FIFO in its place is never waited on). */
char *read_file_str(const char *path, size_t *len_out);
/* The numbers listed in the file at path (a /proc TASK/children file: pids
 * apart by spaces) appended to out[n..cap); the new count (n when the file
 * cannot be read). */
size_t read_pids_append(const char *path, pid_t *out, size_t n, size_t cap);
/* First line of a file, trailing newline stripped; NULL if unreadable. */
char *read_line_str(const char *path);
/* Strips leading and trailing whitespace in place; returns s. */
char *str_trim(char *s);
int str_starts_with(const char *s, const char *prefix);
/* Whether name is one of the comma-separated words of list (NULL: none). */
int str_in_list(const char *list, const char *name);

/* mempath's folder under an XDG base directory: "$XDG_<KIND>_HOME/mempath",
 * else "$HOME/<fallback>/mempath" (kind "CACHE", fallback ".cache"; "DATA",
 * ".local/share"); NULL without either. Caller frees. */
char *xdg_mempath_dir(const char *kind, const char *fallback);
/* mkdir -p: 0, or -1 with errno set (nothing printed). */
int mkdir_parents(const char *dir, unsigned mode);
/* error() and warning() start with "\r\033[K" (clearing a status line that
 * is on screen) while on is set; children forked after keep it. */
void util_set_clear_line(int on);

/* Monotonic clock in nanoseconds. */
uint64_t time_now_ns(void);
/* Wall clock as ISO 8601 UTC "2026-11-30T03:28:12Z" into buf (>= 32 bytes). */
void time_iso8601(char *buf, size_t len);

/* Is path a place a file can be written (not empty, no trailing '/', not a
 * directory, not a dangling symlink or a loop of them)? 0, or -1 after an
 * error line. */
int output_path_check(const char *path);
/* Writes data to path atomically: a temporary file created with O_EXCL in the
 * same directory, fsync, rename; a new file gets 0666 less the umask, a file
 * replaced keeps its mode. Returns 0 or -1 (error printed). */
int write_file_atomic(const char *path, const char *data, size_t len);
/* The same with the file's mode fixed (fixed_mode >= 0: 0644 for a file
 * another user's collector reads), whatever the umask or the file it
 * replaces; -1 is write_file_atomic. A writer killed midway leaves at most
 * the temporary ".NAME.XXXXXX" beside it, never part of a file at path. */
int write_file_atomic_mode(const char *path, const char *data, size_t len, int fixed_mode);
/* Renders into memory first, then writes it all to path (atomically) or, when
 * path is NULL, to stdout: a render that fails leaves no half-written report.
 * A render function that fails prints why. Returns 0 or -1 (error printed). */
/* Is stdout a pipe or socket whose reader has gone (`| head` exited)? Its
 * write end then polls as POLLERR, whatever errno a failed write left. A
 * write that failed for that reason is exit 1 without an error line
 * (docs/design.md §2.1). */
int stdout_reader_gone(void);
int write_rendered(const char *path, int (*render)(const void *arg, FILE *f), const void *arg);

/* 1 when a and b name the same existing file (same device and inode). */
int same_file(const char *a, const char *b);

/* Products and sums of sizes a user gave: an overflow saturates at
 * UINT64_MAX instead of wrapping, so the cap check that follows refuses it
 * (a wrapped product is a small number that passes the check and then
 * overruns a buffer). */
uint64_t size_mul(uint64_t a, uint64_t b);
uint64_t size_add(uint64_t a, uint64_t b);

/* Deterministic, fast PRNG (splitmix64 seeding xoshiro256**). */
struct rng {
	uint64_t s[4];
};
void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, bound) without modulo bias. */
uint64_t rng_below(struct rng *r, uint64_t bound);

#endif
