/* cpu_lib.h: the CPU backend's whole library interface (backend_lib.h):
 * the BLAS part on OpenBLAS (cpu_blas*.c), LAPACK on OpenBLAS's LAPACK
 * (cpu_lapack.c) and the sparse kernels, our own loops (cpu_sparse*.c),
 * put together once by cb_cpu_lib (cpu_lib.c). */
#ifndef CB_CPU_LIB_H
#define CB_CPU_LIB_H

#include "backend/backend_lib.h"

/* The table the CPU backend hands out (cb_backend.lib). */
const cb_backend_lib *cb_cpu_lib(void);

/* Each part fills its entries. */
void cb_cpu_lapack_fill(cb_backend_lib *lib);
void cb_cpu_sparse_fill(cb_backend_lib *lib);

#endif
