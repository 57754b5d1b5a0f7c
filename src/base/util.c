/* util.c - error reporting, allocation, small file helpers, PRNG. */
#include "base/util.h"

#include "base/escape.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int quiet_flag;

void util_set_quiet(int quiet)
{
	quiet_flag = quiet;
}

int util_quiet(void)
{
	return quiet_flag;
}

static int clear_line;

void util_set_clear_line(int on)
{
	clear_line = on;
}

/* Control characters as text: an ANSI escape or a newline from a file
 * name or a file's text must not act on the terminal nor break the one
 * line (docs/design.md §9). */
char *util_escape_controls(const char *s)
{
	/* at most 4 bytes out for each byte in (\xNN), and room for the last
	 * one's 7 */
	size_t cap = strlen(s) * 4 + 8;
	char *out = xmalloc(cap);
	escape_into(out, cap, s);
	return out;
}

static void say(const char *kind, const char *fmt, va_list ap)
{
	char *msg = NULL, *safe;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	safe = util_escape_controls(msg ? msg : fmt);
	fprintf(stderr, "%smempath: %s: %s\n", clear_line ? "\r\033[K" : "", kind, safe);
	free(safe);
	free(msg);
}

int error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say("error", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say("warning", fmt, ap);
	va_end(ap);
}

static void put_line(FILE *f, const char *fmt, va_list ap)
{
	char *msg = NULL, *safe;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	safe = util_escape_controls(msg ? msg : fmt);
	fprintf(f, "%s\n", safe);
	free(safe);
	free(msg);
}

void notice(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	put_line(stderr, fmt, ap);
	va_end(ap);
}

void util_log_line(FILE *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	put_line(f, fmt, ap);
	va_end(ap);
}

static void (*progress_sink)(const char *msg);

void util_set_progress_sink(void (*sink)(const char *msg))
{
	progress_sink = sink;
}

static void (*step_hook)(void);

void util_set_step_hook(void (*hook)(void))
{
	step_hook = hook;
}

void progress(const char *fmt, ...)
{
	va_list ap;
	if (step_hook)
		step_hook();
	if (quiet_flag)
		return;
	va_start(ap, fmt);
	{
		/* a label, a step or a command a user gave is in the line:
		 * escaped as error lines are (§9.3) */
		char *msg = NULL, *safe;

		if (vasprintf(&msg, fmt, ap) < 0)
			msg = NULL;
		safe = util_escape_controls(msg ? msg : fmt);
		if (progress_sink)
			progress_sink(safe);
		else
			fprintf(stderr, "%s\n", safe);
		free(safe);
		free(msg);
	}
	va_end(ap);
}

char *xdg_mempath_dir(const char *kind, const char *fallback)
{
	char var[32];
	const char *xdg, *home = getenv("HOME");

	snprintf(var, sizeof(var), "XDG_%s_HOME", kind);
	xdg = getenv(var);
	/* the XDG spec: a relative path is invalid and is ignored */
	if (xdg && xdg[0] == '/')
		return xasprintf("%s/mempath", xdg);
	if (home && *home)
		return xasprintf("%s/%s/mempath", home, fallback);
	return NULL;
}

int mkdir_parents(const char *dir, unsigned mode)
{
	char *d = xstrdup(dir);
	int rc = 0;

	for (char *p = d + 1; *p && rc == 0; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(d, mode) != 0 && errno != EEXIST)
				rc = -1;
			*p = '/';
		}
	if (rc == 0 && mkdir(d, mode) != 0 && errno != EEXIST)
		rc = -1;
	free(d);
	return rc;
}

/* Out of memory is its own error: one line, exit 1 (no core dump). Nothing
 * useful can go on without memory for mempath's own bookkeeping, and every
 * results file on disk is whole (written atomically). */
static void *oom(size_t n)
{
	fprintf(stderr, "mempath: error: out of memory allocating %zu bytes\n", n);
	exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	return p ? p : oom(n);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	return p ? p : oom(n * size);
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	return q ? q : oom(n);
}

void *xgrow_one(void *p, size_t n, size_t size)
{
	char *q;

	if (size && n + 1 > SIZE_MAX / size)
		oom(SIZE_MAX);
	q = xrealloc(p, (n + 1) * size);
	memset(q + n * size, 0, size);
	return q;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");
	return p ? p : oom(strlen(s));
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		oom(0);
	va_end(ap);
	return s;
}

size_t read_pids_append(const char *path, pid_t *out, size_t n, size_t cap)
{
	char *text = read_file_str(path, NULL), *p, *end;
	if (!text)
		return n;
	for (p = text; n < cap; p = end) {
		long v = strtol(p, &end, 10);
		if (end == p)
			break;
		out[n++] = (pid_t)v;
	}
	free(text);
	return n;
}

char *read_file_str(const char *path, size_t *len_out)
{
	/* never a wait: a FIFO or a device in the place of a file (a --root tree
	 * someone made) would block in open or read; regular files only */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	size_t cap = 4096, len = 0;
	struct stat st;
	char *buf;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	buf = xmalloc(cap);
	for (;;) {
		ssize_t n;
		if (len + 1 >= cap) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			close(fd);
			return NULL;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	if (len_out)
		*len_out = len;
	return buf;
}

char *read_line_str(const char *path)
{
	char *s = read_file_str(path, NULL);
	char *nl;
	if (!s)
		return NULL;
	nl = strchr(s, '\n');
	if (nl)
		*nl = '\0';
	return s;
}

char *str_trim(char *s)
{
	char *end;
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		memmove(s, s + 1, strlen(s));
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

int str_starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

int str_in_list(const char *list, const char *name)
{
	size_t len = strlen(name);
	for (const char *p = list; p; p = strchr(p, ',')) {
		if (*p == ',')
			p++;
		if (strncmp(p, name, len) == 0 && (p[len] == ',' || p[len] == '\0'))
			return 1;
	}
	return 0;
}

uint64_t time_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void time_iso8601(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int write_all(int fd, const char *data, size_t len, const char *name)
{
	size_t off = 0;
	while (off < len) {
		ssize_t n = write(fd, data + off, len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return error("cannot write '%s': %s", name, strerror(errno));
		}
		off += (size_t)n;
	}
	return 0;
}

/* Not a file to replace (/dev/null, /dev/stdout, a FIFO): written through.
 * A rename over it would put a regular file where the device was. Opened
 * without blocking, so a FIFO nobody reads is an error, never a wait
 * forever (docs/design.md §6.4); then written blocking, as to a pipe. */
static int write_through(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK), rc, fl;
	if (fd < 0 && errno == ENXIO)
		return error("cannot write '%s': a FIFO that no process reads", path);
	if (fd < 0)
		return error("cannot open '%s': %s", path, strerror(errno));
	if ((fl = fcntl(fd, F_GETFL)) >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	rc = write_all(fd, data, len, path);
	if (close(fd) != 0 && rc == 0)
		rc = error("cannot write '%s': %s", path, strerror(errno));
	return rc;
}

/* The mode a new file gets: 0666 less the umask (read without changing it
 * where the kernel says it, else set back at once). */
static mode_t new_file_mode(void)
{
	char *status = read_file_str("/proc/self/status", NULL), *u;
	unsigned long mask;
	mode_t m;
	if (status && (u = strstr(status, "\nUmask:")) && sscanf(u + 8, "%lo", &mask) == 1) {
		free(status);
		return 0666 & ~(mode_t)mask;
	}
	free(status);
	m = umask(022);
	umask(m);
	return 0666 & ~m;
}

int output_path_check(const char *path)
{
	struct stat st;
	size_t n = strlen(path);
	if (n == 0)
		return error("an empty output path");
	if (path[n - 1] == '/')
		return error("'%s' ends in '/': give a file name (the folder's files are not "
			     "chosen for you)",
			     path);
	if (stat(path, &st) == 0)
		return S_ISDIR(st.st_mode) ? error("'%s' is a directory", path) : 0;
	if (errno == ELOOP)
		return error("cannot write '%s': a loop of symbolic links", path);
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		return error("cannot write '%s': a symbolic link to a file that does not exist "
			     "(remove the link, or name its target)",
			     path);
	return 0;
}

int write_file_atomic(const char *path, const char *data, size_t len)
{
	return write_file_atomic_mode(path, data, len, -1);
}

/* MEMPATH_TEST_STOP_MID_WRITE set: half the data in the temporary file, then
 * SIGSTOP, so a test can kill the writer there (t7010). */
static int write_stalling(int fd, const char *data, size_t len, const char *tmp)
{
	if (!getenv("MEMPATH_TEST_STOP_MID_WRITE") || len < 2)
		return write_all(fd, data, len, tmp);
	if (write_all(fd, data, len / 2, tmp) != 0)
		return -1;
	raise(SIGSTOP);
	return write_all(fd, data + len / 2, len - len / 2, tmp);
}

int write_file_atomic_mode(const char *path, const char *data, size_t len, int fixed_mode)
{
	struct stat st;
	char *real = NULL, *dup, *tmp;
	mode_t mode;
	int fd, made;
	if (output_path_check(path) != 0)
		return -1;
	if (stat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode))
			return write_through(path, data, len);
		/* a symlink to a file: the file is replaced, the link kept */
		real = realpath(path, NULL);
		mode = st.st_mode & 07777; /* a file replaced keeps its mode */
	} else {
		mode = new_file_mode();
	}
	if (fixed_mode >= 0)
		mode = (mode_t)fixed_mode;
	if (real)
		path = real;
	dup = xstrdup(path);
	tmp = xasprintf("%s/.%s.XXXXXX", dirname(dup), basename((char *)path));
	fd = mkstemp(tmp);
	made = fd >= 0;
	free(dup);
	if (fd < 0) {
		error("cannot create a temporary file for '%s': %s", path, strerror(errno));
		goto fail;
	}
	if (write_stalling(fd, data, len, tmp) != 0)
		goto fail;
	if (fsync(fd) != 0 && errno != EINVAL) {
		error("cannot sync '%s': %s", tmp, strerror(errno));
		goto fail;
	}
	fchmod(fd, mode);
	close(fd);
	fd = -1;
	if (rename(tmp, path) != 0) {
		error("cannot rename '%s' to '%s': %s", tmp, path, strerror(errno));
		goto fail;
	}
	free(tmp);
	free(real);
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	if (made)
		unlink(tmp);
	free(tmp);
	free(real);
	return -1;
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t rng_below(struct rng *r, uint64_t bound)
{
	/* Lemire's multiply-shift with rejection: unbiased. */
	unsigned __int128 m;
	uint64_t l;
	if (bound == 0)
		return 0;
	m = (unsigned __int128)rng_next(r) * bound;
	l = (uint64_t)m;
	if (l < bound) {
		uint64_t t = -bound % bound;
		while (l < t) {
			m = (unsigned __int128)rng_next(r) * bound;
			l = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

int stdout_reader_gone(void)
{
	struct pollfd p = {.fd = STDOUT_FILENO, .events = POLLOUT};

	return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

int write_rendered(const char *path, int (*render)(const void *arg, FILE *f), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc;

	if (!m)
		return error("cannot allocate the report");
	rc = render(arg, m);
	if (fclose(m) != 0 && rc == 0)
		rc = error("cannot render the report");
	else if (rc != 0)
		rc = -1; /* the writer said why */
	else if (path)
		rc = write_file_atomic(path, buf, len);
	else if (fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0)
		rc = stdout_reader_gone() ? -1 : error("cannot write the report to stdout");
	free(buf);
	return rc;
}

int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return a && b && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

uint64_t size_mul(uint64_t a, uint64_t b)
{
	uint64_t r;
	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

uint64_t size_add(uint64_t a, uint64_t b)
{
	uint64_t r;
	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}
