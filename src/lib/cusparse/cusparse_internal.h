/* cusparse_internal.h: what the files of the cuSPARSE facade share.
 *
 *   handle.c    handles, streams, pointer mode, versions, error names, the
 *               legacy matrix descriptor (cusparseMatDescr_t)
 *   descr.c     the generic API's descriptors: sparse vectors and
 *               matrices (CSR, CSC, COO, blocked ELL), dense vectors and
 *               matrices, their getters and setters
 *   exec.c      the stream operation every computing call becomes, and the
 *               checked run around the backend's sparse kernels
 *   generic.c   SpMV, SpMM, SpVV, Axpby, Gather, Scatter, sparse <-> dense
 *   spgemm.c    SpGEMM (work estimation, compute, copy)
 *   legacy.c    csr2cscEx2, csrsort/cscsort/coosort, coo2csr/csr2coo,
 *               the identity permutation
 *   geam.c      csrgeam2, C = alpha A + beta B of CSR matrices (buffer
 *               size, the nnz step, the compute step)
 *   ref.c       C references in double (SpMV, SpMM, conversions, SpGEMM,
 *               geam)
 *
 * Bad input follows NVIDIA's library as recorded on the H200
 * (tests/lib/cusparse_status.expected): the generic API answers
 * INVALID_VALUE for a NULL handle, the legacy API NOT_INITIALIZED.
 */
#ifndef CBL_CUSPARSE_INTERNAL_H
#define CBL_CUSPARSE_INTERNAL_H

#include "cusparse_impl.h"

#include "backend/backend_lib.h"
#include "backend/blas_elem.h"
#include "lib/common/check.h"
#include "lib/common/facade.h"

#define CUSPARSE_HANDLE_MAGIC 0x63625350u   /* "cbSP" */
#define CUSPARSE_DESCR_MAGIC 0x63625344u    /* "cbSD": sparse matrices and vectors */
#define CUSPARSE_DENSE_MAGIC 0x6362534eu    /* "cbSN": dense ones (a dense one is smaller) */

struct cusparseContext {
    uint32_t magic;
    cb_context *ctx;
    cudaStream_t stream;
    cusparsePointerMode_t pointer_mode;
};

struct cusparseMatDescr {
    cusparseMatrixType_t type;
    cusparseFillMode_t fill;
    cusparseDiagType_t diag;
    cusparseIndexBase_t base;
};

/* A sparse matrix or vector (cusparseSpMatDescr, cusparseSpVecDescr). */
struct cusparseSpMatDescr {
    uint32_t magic;
    cb_sparse s;                     /* format CB_SP_VEC: a vector */
    cudaDataType vtype;
    cusparseIndexType_t off_type, idx_type;
    cusparseFillMode_t fill;
    cusparseDiagType_t diag;
};
struct cusparseSpVecDescr {
    struct cusparseSpMatDescr m;
};

/* A dense matrix or vector. */
struct cusparseDnMatDescr {
    uint32_t magic;
    cb_dense d;
    cudaDataType vtype;
    cusparseOrder_t order;
    int vector;
};
struct cusparseDnVecDescr {
    struct cusparseDnMatDescr m;
};

struct cusparseSpGEMMDescr {
    uint32_t magic;
    int64_t products;                /* -1: not estimated */
    int64_t nnz;                     /* C's, after compute; -1 before */
    uint64_t scratch;                /* externalBuffer2 of compute */
    size_t scratch_bytes;
};

#define CUSPARSE_LIB (&cbl_cusparse_library)

/* INVALID_VALUE (generic API) for NULL or a handle that is not one. */
cusparseStatus_t sp_handle(cusparseHandle_t h);
/* NOT_INITIALIZED (legacy API) likewise. */
cusparseStatus_t sp_handle_legacy(cusparseHandle_t h);

/* cudaDataType -> cb_blas_type, or -1 for a type no descriptor takes. */
int sp_value_type(cudaDataType t);
/* Whether the backend computes in t (S/D/C/Z). */
static inline int sp_computable(int t) { return t >= CB_BLAS_F32 && t <= CB_BLAS_C64; }
/* Bytes of a cusparseIndexType_t, 0 when not one. */
int sp_index_bytes(cusparseIndexType_t t);

/* The descriptors behind the const handles (NULL when not one). */
const struct cusparseSpMatDescr *sp_mat(const void *d);
const struct cusparseDnMatDescr *sp_dn(const void *d);

/* ---- one computing call (exec.c) ---------------------------------------------- */

enum { SP_MAX_OPS = 10 };

typedef struct sp_op sp_op;
struct sp_op {
    cbl_op base;
    const char *function;
    CUresult (*run)(sp_op *o, cb_backend *b);
    /* NULL, or called first at run time (in stream order): operands whose
     * extent is in device memory (csrgeam2's C: its row offsets) are added
     * here; not CUDA_SUCCESS: the call fails with an illegal address. */
    CUresult (*prepare)(sp_op *o);
    void (*reference)(void *o, cbl_operand *ops);
    cbl_operand ops[SP_MAX_OPS];
    int nops;
    int kind, trans_a, trans_b, count_only, in_graph;
    cb_sparse a, b, c;
    cb_dense x, y;
    cb_blas_type compute;
    /* scalars: host values, or device addresses read at run time */
    unsigned char alpha[16], beta[16];
    uint64_t alpha_dev, beta_dev;
    void *result_host;               /* SpVV into host memory */
    uint64_t result_dev;
    unsigned char result[16];
    int64_t m, n, nnz, out_nnz;
    uint64_t p0, p1, p2, p3, p4, p5, p6;
    int base_ix, values;
    struct cusparseSpGEMMDescr *g;
    struct cusparseSpMatDescr *target;   /* DenseToSparse_analysis: gets nnz */
};

sp_op *sp_op_new(const char *function, CUresult (*run)(sp_op *, cb_backend *));
/* Scalars alpha/beta of the compute type by h's pointer mode. */
void sp_scalars(cusparseHandle_t h, sp_op *o, const void *alpha, const void *beta);
/* Operands: the extents a sparse matrix's arrays take, a dense's. */
void sp_add_sparse(sp_op *o, const char *name, const cb_sparse *s, int out);
void sp_add_dense(sp_op *o, const char *name, const cb_dense *d, int out);
void sp_add_ints(sp_op *o, const char *name, uint64_t addr, int64_t n, int out);
void sp_add_host(sp_op *o, const char *name, void *host, size_t bytes, cb_inspect_elem cmp, unsigned elem_bytes);
void sp_add_bytes(sp_op *o, const char *name, uint64_t addr, size_t bytes, int out);
void sp_add_idx(sp_op *o, const char *name, uint64_t addr, int64_t n, int bytes, int out);
void sp_add_values(sp_op *o, const char *name, uint64_t addr, int64_t n, cb_blas_type t, int out);
/* Submits o on h's stream (o is owned by the stream from here on); wait:
 * return once it ran (the caller needs its host-side results). */
cusparseStatus_t sp_submit(cusparseHandle_t h, sp_op *o, int wait);
/* The backend's library table when it has the sparse entries, else NULL. */
const cb_backend_lib *sp_backend_lib(cusparseHandle_t h, const char *function);

/* ---- references (ref.c) ---------------------------------------------------------- */

/* On the host copies in o->ops (the layout sp_add_sparse/dense made). */
void sp_ref_mm(void *o, cbl_operand *ops);
void sp_ref_vec(void *o, cbl_operand *ops);
void sp_ref_to_dense(void *o, cbl_operand *ops);
void sp_ref_from_dense(void *o, cbl_operand *ops);
void sp_ref_c2c(void *o, cbl_operand *ops);
void sp_ref_sort(void *o, cbl_operand *ops);
void sp_ref_compress(void *o, cbl_operand *ops);
void sp_ref_identity(void *o, cbl_operand *ops);
/* SpGEMM: the host-side counts ("products", "nnz"), C's arrays. */
void sp_ref_spgemm_count(void *o, cbl_operand *ops);
void sp_ref_spgemm_copy(void *o, cbl_operand *ops);
/* csrgeam2: C's offsets and nnz ("nnzTotal"), or C's columns and values. */
void sp_ref_geam(void *o, cbl_operand *ops);

#endif
