/* mpis.c - the MPI built in: mpi_get() and why there is none (mpi.h). With
 * MPI (make MPI=1, the default where an MPI C wrapper was found) the table of
 * mpi_impl.c; without it this file alone. Not mpi.c: mpi_impl.c includes
 * mpi.h and this file names its table, so one module would reach the other
 * both ways (make check-layers). */
#include <stddef.h>

#include "exec/mpi.h"

#ifdef MEMPATH_MPI
extern const struct mpi_ops mpi_impl_ops;
#endif

const struct mpi_ops *mpi_get(void)
{
#ifdef MEMPATH_MPI
	return &mpi_impl_ops;
#else
	return NULL;
#endif
}

const char *mpi_unsupported_reason(void)
{
#ifdef MEMPATH_NO_MPI_WHY
	return "built without MPI: " MEMPATH_NO_MPI_WHY;
#else
	return "built without MPI";
#endif
}
