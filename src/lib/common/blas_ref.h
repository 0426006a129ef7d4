/* blas_ref.h: C references that several facades share (cuBLAS's GemmEx
 * family and cuBLASLt's matmul), and the cudaDataType mapping. */
#ifndef CBL_BLAS_REF_H
#define CBL_BLAS_REF_H

#include <library_types.h>

#include "backend/backend_lib.h"
#include "lib/common/check.h"

/* cudaDataType -> cb_blas_type; -1 for a type no backend handles. */
int cbl_blas_type_of(cudaDataType t);

/* The comparison type of elements of t (complex: its parts). */
cb_inspect_elem cbl_cmp_of(cb_blas_type t);

/* One operand of elements of t. */
cbl_operand cbl_blas_operand(const char *name, uint64_t addr, size_t bytes, int out, cb_blas_type t);

/* One batch entry of g on host copies, accumulating in (complex) double
 * with the inputs rounded as g->round says: d = alpha op(a) op(b) + beta c,
 * then g's epilogue (bias, aux read and written as for the backend,
 * backend_lib.h). c and d may be the same buffer; c is read before d is
 * written. */
void cbl_ref_gemm_entry(const cb_blas_gemm *g, const void *a, const void *b, const void *c, void *d, void *bias,
                        void *aux);

#endif
