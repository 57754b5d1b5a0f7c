/* nvml_link.c - the bytes on each GPU's PCIe link, each way, from NVML's
 * throughput counter (nvmlDeviceGetPcieThroughput: KB/s over a 20 ms window,
 * TLP headers and framing included), integrated by a thread a device and
 * direction from the first read on. NVML's byte counters (field values
 * PCIE_COUNT_TX/RX_BYTES) stood still over windows of copies on the H200
 * machine (docs/results/receipts-h200-2026-12-01.md); this counter moved with
 * every copy there (docs/results/receipts-h200-2026-12-01/link.md). NVML is
 * initialised by nvml.c before the first read; this file only reads. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gpu/cuda/cuda_impl.h"

struct nvml_device_st;
enum { LINK_DEVS = 16, TPUT_TX = 0, TPUT_RX = 1 }; /* nvmlPcieUtilCounter_t */

static struct {
	int (*by_index)(unsigned, struct nvml_device_st **);
	int (*tput)(struct nvml_device_st *, int, unsigned *);
	pthread_mutex_t lock;
	pid_t pid; /* the process whose threads integrate (a child forked later starts anew) */
	int started[LINK_DEVS][2];
	double bytes[LINK_DEVS][2];
} lk = {.lock = PTHREAD_MUTEX_INITIALIZER};

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

struct link_arg {
	struct nvml_device_st *dev;
	unsigned index;
	int dir;
};

/* Each reading's rate counts for the time since the one before; a call that
 * returned at once (a driver that keeps the last window) waits out 20 ms. */
static void *integrate(void *p)
{
	struct link_arg a = *(struct link_arg *)p;
	double t0 = now_s();

	free(p);
	for (;;) {
		unsigned kbps = 0;
		int rc = lk.tput(a.dev, a.dir, &kbps);
		double t1 = now_s();

		if (rc == 0) {
			pthread_mutex_lock(&lk.lock);
			lk.bytes[a.index][a.dir] += (double)kbps * 1e3 * (t1 - t0);
			pthread_mutex_unlock(&lk.lock);
		}
		if (t1 - t0 < 0.015)
			usleep((useconds_t)((0.02 - (t1 - t0)) * 1e6));
		t0 = t1;
	}
	return NULL;
}

static int start(unsigned index, int dir)
{
	struct nvml_device_st *d;
	struct link_arg *a;
	pthread_t t;

	if (lk.by_index(index, &d) != 0 || !(a = malloc(sizeof(*a))))
		return -1;
	*a = (struct link_arg){d, index, dir};
	if (pthread_create(&t, NULL, integrate, a) != 0) {
		free(a);
		return -1;
	}
	pthread_detach(t);
	return 0;
}

int nvml_link_bytes(unsigned dev, int64_t *tx, int64_t *rx)
{
	int ok = 1;

	*tx = *rx = -1;
	if (dev >= LINK_DEVS)
		return -1;
	pthread_mutex_lock(&lk.lock);
	if (!lk.tput) {
		void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
		lk.by_index = h ? dlsym(h, "nvmlDeviceGetHandleByIndex_v2") : NULL;
		lk.tput = lk.by_index ? dlsym(h, "nvmlDeviceGetPcieThroughput") : NULL;
	}
	if (lk.pid != getpid()) {
		lk.pid = getpid();
		memset(lk.started, 0, sizeof(lk.started));
		memset(lk.bytes, 0, sizeof(lk.bytes));
	}
	for (int k = 0; lk.tput && k < 2; k++)
		if (!lk.started[dev][k])
			lk.started[dev][k] = start(dev, k) == 0 ? 1 : -1;
	ok = lk.tput && lk.started[dev][0] > 0 && lk.started[dev][1] > 0;
	if (ok) {
		*tx = (int64_t)lk.bytes[dev][TPUT_TX];
		*rx = (int64_t)lk.bytes[dev][TPUT_RX];
	}
	pthread_mutex_unlock(&lk.lock);
	return ok ? 0 : -1;
}
