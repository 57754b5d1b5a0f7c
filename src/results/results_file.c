/* results_file.c - results files on disk: written atomically, read whole
 * (a file or a pipe, never a device) within the size bound, then parsed by
 * results_json.c. */
#include "results/results_json.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

int run_write_file(const struct run *r, const char *path)
{
	json_t *j = run_to_json(r);
	char *text = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	int rc;
	json_decref(j);
	if (!text)
		return error("cannot serialise results for '%s'", path);
	rc = write_file_atomic(path, text, strlen(text));
	free(text);
	return rc;
}

json_t *results_load_file(const char *path)
{
	return results_load_file_text(path, NULL, NULL);
}

/* All of fd (a file or a pipe; size_hint: its size when known),
 * NUL-terminated; NULL with errno set. Stops past the size limit, which the
 * caller then refuses. */
static char *read_fd(int fd, size_t size_hint, size_t *len)
{
	size_t cap = size_hint + 1 > 4096 ? size_hint + 1 : 4096; /* a file: one read */
	char *buf = xmalloc(cap);

	*len = 0;
	for (;;) {
		ssize_t n;

		if (*len + 1 >= cap)
			buf = xrealloc(buf, cap *= 2);
		n = read(fd, buf + *len, cap - *len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			free(buf);
			errno = e;
			return NULL;
		}
		if (n == 0)
			break;
		*len += (size_t)n;
		if (*len >= RESULTS_MAX_FILE_BYTES)
			break;
	}
	buf[*len] = '\0';
	return buf;
}

json_t *results_load_file_text(const char *path, char **text, size_t *text_len)
{
	json_error_t err;
	json_t *j;
	struct stat st;
	char *buf;
	size_t len;
	/* without blocking: a FIFO no process writes would wait forever in
	 * open(); read blocking once open */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), fl;

	if (text)
		*text = NULL;
	if (fd < 0) {
		error("cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0) {
		error("cannot read '%s': %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		error("'%s' is a directory, not a results file", path);
		return NULL;
	}
	/* a pipe is read to its end (<(ssh host cat run.json)); a device such
	 * as /dev/zero has none */
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISSOCK(st.st_mode)) {
		close(fd);
		error("'%s' is a device, not a results file", path);
		return NULL;
	}
	if ((fl = fcntl(fd, F_GETFL)) >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	/* A file comes from elsewhere: what it may ask of this process is
	 * bounded before it is parsed (parsed JSON takes several times its size). */
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > RESULTS_MAX_FILE_BYTES) {
		close(fd);
		error("'%s' is %.0f MiB; results files over %.0f MiB are refused", path,
		      (double)st.st_size / (1 << 20), (double)RESULTS_MAX_FILE_BYTES / (1 << 20));
		return NULL;
	}
	/* read whole, then parsed from memory: jansson reads a FILE a
	 * character at a time, which was a tenth of adding a run to the history */
	buf = read_fd(fd, S_ISREG(st.st_mode) ? (size_t)st.st_size : 0, &len);
	close(fd);
	if (!buf) {
		error("cannot read '%s': %s", path, strerror(errno ? errno : EIO));
		return NULL;
	}
	if (len == 0 && S_ISFIFO(st.st_mode)) {
		free(buf);
		error("'%s' is a FIFO that no process writes (nothing to read)", path);
		return NULL;
	}
	if (len >= RESULTS_MAX_FILE_BYTES) { /* it grew since the check: a pipe, a growing file */
		free(buf);
		error("'%s' is over %.0f MiB; results files that large are refused", path,
		      (double)RESULTS_MAX_FILE_BYTES / (1 << 20));
		return NULL;
	}
	j = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &err);
	/* the bytes kept when asked: fleet merge writes each node's run as its
	 * file had it */
	if (text && j) {
		*text = buf;
		if (text_len)
			*text_len = len;
	} else {
		free(buf);
	}
	/* jansson reports some allocation failures with no position and no text */
	if (!j &&
	    (json_error_code(&err) == json_error_out_of_memory || (err.line < 0 && !err.text[0])))
		error("out of memory reading '%s' (a smaller file, or more memory or ulimit -v)",
		      path);
	else if (!j)
		error("'%s' is not valid JSON (line %d, column %d): %s", path, err.line, err.column,
		      err.text);
	return j;
}

struct run *run_read_file(const char *path)
{
	json_t *j = results_load_file(path);
	struct run *r;
	if (!j)
		return NULL;
	r = run_from_json(j, path);
	json_decref(j);
	return r;
}
