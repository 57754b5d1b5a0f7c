/* mpi.h - everything `mempath fleet` asks of MPI, as one table (like the GPU
 * backend, docs/design.md §7): mpi_get() returns the one built in
 * (src/exec/mpi_impl.c, compiled only when the build found an MPI C wrapper)
 * or NULL, and mpi_unsupported_reason() says why. There are no stubs.
 *
 * The fleet's protocol on it, one rank per node:
 *   - ranks that share a host take turns in the order of their rank on that
 *     host: turn_wait() returns when the rank before has finished and
 *     turn_pass() hands the turn on, so no two ranks of a host measure at once;
 *   - every rank sends its results once to rank 0 (send_result); rank 0
 *     takes them in the order they come (recv_result), so nothing is sent
 *     all-to-all and rank 0 holds each node's results once;
 *   - rank 0 says when it has them all (release); the others wait for that
 *     (wait_release) before they finalize, so a rank that finished early never
 *     sits in a collective while its host-mates measure.
 * Every wait polls and sleeps between polls: MPI's blocking calls spin a CPU,
 * and a spinning rank would steal the CPU its host-mate is measuring on.
 */
#ifndef MEMPATH_EXEC_MPI_H
#define MEMPATH_EXEC_MPI_H

#include <stddef.h>

struct mpi_ops {
	const char *name; /* "Open MPI v4.1.4", from the library once init() ran */
	/* MPI_Init and the host's ranks. 0, or -1 after an error line. */
	int (*init)(void);
	int (*rank)(void);
	int (*size)(void);
	/* This rank's place among the ranks on its host (0-based) and their
	 * count. */
	int (*local_rank)(void);
	int (*local_size)(void);
	/* The host's name as MPI reports it (MPI_Get_processor_name). */
	const char *(*host)(void);
	/* Turns among the ranks of one host. 0, or -1 after an error line. */
	int (*turn_wait)(void);
	int (*turn_pass)(void);
	/* Ranks but 0: their result, once. Rank 0: the next result to arrive
	 * (*from its rank, *text its bytes, NUL-terminated, the caller frees).
	 * 0, or -1 after an error line. */
	int (*send_result)(const char *text, size_t len);
	int (*recv_result)(int *from, char **text, size_t *len);
	/* Rank 0: every result is in; the others: wait for that. */
	int (*release)(void);
	int (*wait_release)(void);
	void (*finalize)(void);
	/* Ends every rank (MPI_Abort) with status code. */
	void (*abort)(int code);
};

/* The MPI built in, or NULL. */
const struct mpi_ops *mpi_get(void);
/* Why there is none ("built without MPI ..."). */
const char *mpi_unsupported_reason(void);

#endif
