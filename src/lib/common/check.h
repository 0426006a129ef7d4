/* check.h: checked library calls (CUBRIDGE_INSPECT=verify), for every facade.
 *
 * A call describes its operands: each device buffer it reads or writes
 * (address and extent) and each host-side scalar result. Around the
 * backend's run the machinery
 *   1. checks that every device operand lies in device memory (always: a
 *      stray pointer is CUDA_ERROR_ILLEGAL_ADDRESS, as the GPU would fault,
 *      never a crash of the worker);
 *   2. in verify mode, snapshots every operand before the run ("before");
 *   3. after the run, applies the test-only break switch
 *      (CUBRIDGE_TEST_BREAK_LIB) to the first output, reads every output
 *      ("result"), lets the facade's plain C reference (accumulating in
 *      double) compute on host copies of the "before" snapshots ("ref"),
 *      and hands result and reference to the inspector, which compares them
 *      with the per-type tolerances (docs/libraries.md, "Tolerances").
 */
#ifndef CBL_CHECK_H
#define CBL_CHECK_H

#include "lib/common/facade.h"

typedef struct cbl_operand {
    const char *name;        /* "A", "C", "result" */
    uint64_t addr;           /* device address; 0 with host set: a host-side value */
    void *host;              /* host memory of a host-side output (a scalar result), else NULL */
    size_t bytes;            /* extent; 0: nothing (an empty operand) */
    int out;                 /* written by the call */
    cb_inspect_elem cmp;     /* how outputs are compared */
    unsigned elem_bytes;     /* CB_ELEM_INT / CB_ELEM_BYTES width */
    double tol_scale;        /* tolerance multiplier (0: 1), e.g. sqrt(k) for sums of k terms */
    /* filled by the machinery (host copies, bytes each) */
    void *before;            /* contents before the run */
    void *ref;               /* the reference's view: before, then what the reference wrote */
    void *result;            /* what the run produced */
} cbl_operand;

/* The extent of an m x n column-major matrix with leading dimension ld, of
 * elements of w bytes; of a vector of n elements with increment inc. */
static inline size_t cbl_matrix_bytes(int64_t rows, int64_t cols, int64_t ld, size_t w)
{
    return rows <= 0 || cols <= 0 ? 0 : ((size_t)(cols - 1) * (size_t)ld + (size_t)rows) * w;
}
static inline size_t cbl_vector_bytes(int64_t n, int64_t inc, size_t w)
{
    int64_t a = inc < 0 ? -inc : inc;
    return n <= 0 ? 0 : (1 + (size_t)(n - 1) * (size_t)a) * w;
}

typedef struct cbl_checked {
    cbl_op *op;
    const char *library;     /* "cublas" */
    const char *function;    /* "cublasSgemm_v2" */
    cbl_operand *ops;
    int nops;
    int verify;              /* snapshots taken */
    char note[160];          /* what was checked, for the report */
} cbl_checked;

/* Step 1 and 2: CUDA_ERROR_ILLEGAL_ADDRESS (logged, naming the operand)
 * when an operand is not device memory; CUDA_ERROR_OUT_OF_MEMORY when the
 * snapshots cannot be made (the call then runs unchecked, noted FAIL). */
CUresult cbl_check_begin(cbl_checked *c);

/* Step 3. reference (may be NULL: unchecked) computes into the ops' ref
 * buffers. Returns 1 when the inspector found drift, else 0. Frees the
 * snapshots. Call it whenever cbl_check_begin succeeded. */
int cbl_check_end(cbl_checked *c, void (*reference)(void *ctx, cbl_operand *ops), void *ctx);

/* Frees the snapshots without checking (the run failed). */
void cbl_check_abandon(cbl_checked *c);

/* The break switch's corruption of an output, on a host copy: scales the
 * first element by 1 + 1e-2 and adds 1 (integers: +1), so any tolerance sees it. */
void cbl_break_result(void *data, size_t bytes, cb_inspect_elem cmp, unsigned elem_bytes);

#endif
