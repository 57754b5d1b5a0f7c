/* cpulat.c - the CPU latency request as a knob (cpulat.h). */
#include "machine/cpulat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

#define QOS_FILE "/dev/cpu_dma_latency"

static int held_fd = -1;

int cpulat_hold_env(void)
{
	const char *v = getenv("MEMPATH_CPU_DMA_LATENCY");
	char *end;
	long us;
	int32_t req;

	if (!v || !*v || held_fd >= 0)
		return 0;
	errno = 0;
	us = strtol(v, &end, 10);
	if (*end || end == v || us < 0 || us > 2000000000L || errno)
		return error("MEMPATH_CPU_DMA_LATENCY=%s: not a latency in microseconds "
			     "(0..2000000000)",
			     v);
	held_fd = open(QOS_FILE, O_WRONLY | O_CLOEXEC);
	req = (int32_t)us;
	if (held_fd < 0 || write(held_fd, &req, sizeof(req)) != (ssize_t)sizeof(req)) {
		int err = errno;
		if (held_fd >= 0)
			close(held_fd);
		held_fd = -1;
		return error("MEMPATH_CPU_DMA_LATENCY=%s: cannot hold a request on %s: %s", v,
			     QOS_FILE, strerror(err));
	}
	return 0; /* held until this process ends: the kernel drops it then */
}

long long cpulat_read(void)
{
	int fd = open(QOS_FILE, O_RDONLY | O_CLOEXEC);
	int32_t v;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, &v, sizeof(v));
	close(fd);
	return n == (ssize_t)sizeof(v) ? v : -1;
}

void cpulat_knobs(json_t *knobs)
{
	long long v = cpulat_read();

	if (v >= 0)
		json_object_set_new(knobs, "cpu_dma_latency_us", json_integer(v));
}

int cpulat_idle_states(char *buf, size_t len)
{
	size_t off = 0;
	int n = 0;
	char *drv = read_line_str("/sys/devices/system/cpu/cpuidle/current_driver");

	buf[0] = '\0';
	for (int i = 0; i < 16; i++) {
		char path[96], *name, *lat;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cpuidle/state%d/name",
			 i);
		name = read_line_str(path);
		if (!name)
			break;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cpuidle/state%d/latency",
			 i);
		lat = read_line_str(path);
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s (%s us)", n ? ", " : "",
						str_trim(name), lat ? str_trim(lat) : "?");
		n++;
		free(name);
		free(lat);
	}
	if (!n)
		snprintf(buf, len, "no cpuidle states (cpuidle driver: %s)",
			 drv ? str_trim(drv) : "none");
	free(drv);
	return n;
}

const char *cpulat_note(long long req, long long worst)
{
	static char buf[200];

	if (req >= 2000000000LL)
		snprintf(buf, sizeof(buf), "; no CPU latency request in force");
	else if (worst < 0)
		snprintf(buf, sizeof(buf), "; a request of %lld us is in force: it changes nothing",
			 req);
	else
		snprintf(buf, sizeof(buf),
			 "; a CPU latency request of %lld us is in force: states exiting slower "
			 "are not entered%s",
			 req, worst > req ? "" : " (none enabled is)");
	return buf;
}
