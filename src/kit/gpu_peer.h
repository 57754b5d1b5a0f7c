/* gpu_peer.h - the devices of a peer-to-peer measurement (gpu.p2p), over the
 * backend table: each device's buffers, pattern, chase chains and SM copy
 * grid (gpu_peer.c), and the calls that poison and check a copy between two
 * of them. Every call makes the device it works on current and leaves it so.
 */
#ifndef MEMPATH_GPU_PEER_H
#define MEMPATH_GPU_PEER_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/backend.h"
#include "results/results.h"

/* Chase chains: one node per cache line; page-local order within groups. */
#define GPU_PEER_NODE_BYTES  128ull
#define GPU_PEER_GROUP_BYTES (256ull << 10)
/* The pattern seed of device d's source: a copy from the wrong source fails
 * the check. */
#define GPU_PEER_SEED(d) (0x9e3700ull + (uint64_t)(d))

struct gpu_peer_dev {
	int id;
	char name[16]; /* the id as a label */
	struct gpu_props props;
	void *src, *dst;	 /* size bytes: src holds GPU_PEER_SEED(id) pattern words */
	uint64_t *chain[3];	 /* random, page-local, stride */
	unsigned long long *pos; /* this device's scratch word: where a chase ended */
	struct gpu_grid grid;	 /* SM copy kernels issued here */
};

/* What gpu_peer_setup() gives every device. */
struct gpu_peer_layout {
	size_t size;	       /* bytes of src and of dst */
	uint64_t nodes;	       /* nodes of the random and local chains; 0: no chains */
	int local;	       /* a page-local chain besides the random one */
	uint64_t stride_nodes; /* nodes of the fixed-stride chain (nvbandwidth's); 0: none */
	uint64_t sm_blocks;    /* 512-thread blocks per SM of the SM copy grid; 0: as many as fit */
	uint64_t sm_unroll;    /* 16 B accesses each SM copy thread keeps in flight */
};

/* Makes d current and gives it the layout's buffers, pattern, chains and SM
 * grid (d->id set, the rest zero), and appends its facts to the array
 * res->extra.devices. 0; -1 GPU error (recorded); -2 the buffers do not fit
 * in free device memory with a margin: res set SKIP. */
int gpu_peer_setup(struct gpu_peer_dev *d, const struct gpu_peer_layout *l,
		   struct probe_result *res);
/* Frees what gpu_peer_setup() allocated (d current). */
void gpu_peer_free(struct gpu_peer_dev *d);
/* Zeroes bytes of d's memory at p (on d). */
int gpu_peer_poison(struct gpu_peer_dev *d, void *p, size_t bytes);
/* The copy in to->dst must hold from's pattern words (checked on to). */
int gpu_peer_verify(struct gpu_peer_dev *from, struct gpu_peer_dev *to, size_t bytes);

/* Appends the driver's can-access-peer answer for a->b to the knob
 * gpu.peer_access of res->extra.knobs, which the session keeps among the
 * run's knobs at both ends. */
void gpu_peer_access_knob(struct probe_result *res, const struct gpu_peer_dev *a,
			  const struct gpu_peer_dev *b, int can);

#endif
