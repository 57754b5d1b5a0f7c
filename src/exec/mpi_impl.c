/* mpi_impl.c - the MPI table (mpi.h) on the MPI library found at build time
 * (Open MPI or MPICH; built only with MPI=1). Ranks of one host are found
 * with MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) and take turns by a token
 * passed along that communicator; results travel once, point to point, to
 * rank 0. Every wait is MPI_Test or MPI_Iprobe with a nap between polls:
 * MPI's blocking calls spin, and a spinning rank would take the CPU from the
 * host-mate whose turn it is. */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"
#include "exec/mpi.h"

#define TAG_TURN   1
#define TAG_RESULT 2

static MPI_Comm local_comm = MPI_COMM_NULL;
static int world_rank, world_size, host_rank, host_size;
static char host_name[MPI_MAX_PROCESSOR_NAME + 1] = "?";
static char lib_name[128] = "MPI";

static int check(int rc, const char *what)
{
	char msg[MPI_MAX_ERROR_STRING + 1];
	int len = 0;
	if (rc == MPI_SUCCESS)
		return 0;
	if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS)
		len = 0;
	msg[len] = '\0';
	return error("%s failed: %s", what, len ? msg : "an MPI error");
}

/* 5 ms between polls: about nothing against a probe's 50 ms samples, and
 * a turn handed on is taken within a few ms. */
static void nap(void)
{
	struct timespec ts = {0, 5 * 1000 * 1000};
	nanosleep(&ts, NULL);
}

static int wait_request(MPI_Request *req, const char *what)
{
	int done = 0;
	while (!done) {
		if (check(MPI_Test(req, &done, MPI_STATUS_IGNORE), what) != 0)
			return -1;
		if (!done)
			nap();
	}
	return 0;
}

static int impl_init(void)
{
	int len = 0;
	char ver[MPI_MAX_LIBRARY_VERSION_STRING + 1];
	/* CUDA does not survive fork (docs/design.md §2.6) and the GPU probes run
	 * in children of this rank: a CUDA-aware MPI must not initialise CUDA
	 * here. The user's own settings win. */
	setenv("OMPI_MCA_opal_cuda_support", "0", 0);
	setenv("UCX_TLS", "^cuda_copy,cuda_ipc,gdr_copy", 0);
	if (MPI_Init(NULL, NULL) != MPI_SUCCESS)
		return error("MPI_Init failed");
	/* Errors come back as codes, so each says what failed in one line. */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	if (check(MPI_Comm_rank(MPI_COMM_WORLD, &world_rank), "MPI_Comm_rank") ||
	    check(MPI_Comm_size(MPI_COMM_WORLD, &world_size), "MPI_Comm_size") ||
	    check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world_rank,
				      MPI_INFO_NULL, &local_comm),
		  "MPI_Comm_split_type") ||
	    check(MPI_Comm_rank(local_comm, &host_rank), "MPI_Comm_rank") ||
	    check(MPI_Comm_size(local_comm, &host_size), "MPI_Comm_size"))
		return -1;
	if (MPI_Get_processor_name(host_name, &len) == MPI_SUCCESS)
		host_name[len] = '\0';
	if (MPI_Get_library_version(ver, &len) == MPI_SUCCESS) {
		ver[len] = '\0';
		ver[strcspn(ver, ",\n")] = '\0'; /* "Open MPI v4.1.4, package: ..." */
		snprintf(lib_name, sizeof(lib_name), "%s", str_trim(ver));
	}
	return 0;
}

static int impl_rank(void)
{
	return world_rank;
}

static int impl_size(void)
{
	return world_size;
}

static int impl_local_rank(void)
{
	return host_rank;
}

static int impl_local_size(void)
{
	return host_size;
}

static const char *impl_host(void)
{
	return host_name;
}

static int turn_token;

static int impl_turn_wait(void)
{
	MPI_Request req;
	if (host_rank == 0)
		return 0;
	if (check(MPI_Irecv(&turn_token, 1, MPI_INT, host_rank - 1, TAG_TURN, local_comm, &req),
		  "MPI_Irecv of the turn"))
		return -1;
	return wait_request(&req, "waiting for the turn");
}

static int impl_turn_pass(void)
{
	MPI_Request req;
	if (host_rank + 1 >= host_size)
		return 0;
	if (check(MPI_Isend(&turn_token, 1, MPI_INT, host_rank + 1, TAG_TURN, local_comm, &req),
		  "MPI_Isend of the turn"))
		return -1;
	return wait_request(&req, "handing the turn on");
}

static int impl_send_result(const char *text, size_t len)
{
	MPI_Request req;
	if (len > INT_MAX)
		return error("a node's results are too large to send (%zu bytes)", len);
	if (check(MPI_Isend(text, (int)len, MPI_CHAR, 0, TAG_RESULT, MPI_COMM_WORLD, &req),
		  "MPI_Isend of the results"))
		return -1;
	return wait_request(&req, "sending the results");
}

static int impl_recv_result(int *from, char **text, size_t *len)
{
	MPI_Status st;
	int flag = 0, n = 0;
	while (!flag) {
		if (check(MPI_Iprobe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &flag, &st),
			  "MPI_Iprobe"))
			return -1;
		if (!flag)
			nap();
	}
	if (check(MPI_Get_count(&st, MPI_CHAR, &n), "MPI_Get_count") || n < 0)
		return -1;
	*text = xmalloc((size_t)n + 1);
	if (check(MPI_Recv(*text, n, MPI_CHAR, st.MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD,
			   MPI_STATUS_IGNORE),
		  "MPI_Recv of the results")) {
		free(*text);
		*text = NULL;
		return -1;
	}
	(*text)[n] = '\0';
	*from = st.MPI_SOURCE;
	*len = (size_t)n;
	return 0;
}

static int released;

static int release_bcast(void)
{
	MPI_Request req;
	if (check(MPI_Ibcast(&released, 1, MPI_INT, 0, MPI_COMM_WORLD, &req), "MPI_Ibcast"))
		return -1;
	return wait_request(&req, "waiting for rank 0");
}

static void impl_finalize(void)
{
	if (local_comm != MPI_COMM_NULL)
		MPI_Comm_free(&local_comm);
	MPI_Finalize();
}

static void impl_abort(int code)
{
	MPI_Abort(MPI_COMM_WORLD, code);
}

const struct mpi_ops mpi_impl_ops = {
	.name = lib_name,
	.init = impl_init,
	.rank = impl_rank,
	.size = impl_size,
	.local_rank = impl_local_rank,
	.local_size = impl_local_size,
	.host = impl_host,
	.turn_wait = impl_turn_wait,
	.turn_pass = impl_turn_pass,
	.send_result = impl_send_result,
	.recv_result = impl_recv_result,
	.release = release_bcast,
	.wait_release = release_bcast,
	.finalize = impl_finalize,
	.abort = impl_abort,
};
