/* cusparse_status.cu: the statuses cuSPARSE gives for bad and edge-case
 * input, one line per call ("cusparseCreateCsr rows=-1: INVALID_VALUE"),
 * plus the defaults and getters a program can observe. Recorded on the
 * H200 with NVIDIA's libcusparse (cusparse_status.expected); under cubridge
 * the same program must print the same lines. Buffer sizes go to stderr.
 * A call that crashes NVIDIA's library (a host fault) prints CRASH.
 *
 * Build: nvcc -I tests/lib tests/lib/cusparse_status.cu -o cusparse_status -lcusparse */
#define DISABLE_CUSPARSE_DEPRECATED
#include <cuComplex.h>
#include <cuda_runtime.h>
#include <cusparse.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      printf("FAIL %s:%d: %s returned %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_));     \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)
#define CHECK_SP(call)                                                                             \
  do {                                                                                             \
    cusparseStatus_t s_ = (call);                                                                  \
    if (s_ != CUSPARSE_STATUS_SUCCESS) {                                                           \
      printf("FAIL %s:%d: %s returned %d\n", __FILE__, __LINE__, #call, (int)s_);                   \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

static const char *status_name(cusparseStatus_t s) {
  switch (s) {
  case CUSPARSE_STATUS_SUCCESS: return "SUCCESS";
  case CUSPARSE_STATUS_NOT_INITIALIZED: return "NOT_INITIALIZED";
  case CUSPARSE_STATUS_ALLOC_FAILED: return "ALLOC_FAILED";
  case CUSPARSE_STATUS_INVALID_VALUE: return "INVALID_VALUE";
  case CUSPARSE_STATUS_ARCH_MISMATCH: return "ARCH_MISMATCH";
  case CUSPARSE_STATUS_EXECUTION_FAILED: return "EXECUTION_FAILED";
  case CUSPARSE_STATUS_INTERNAL_ERROR: return "INTERNAL_ERROR";
  case CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "MATRIX_TYPE_NOT_SUPPORTED";
  case CUSPARSE_STATUS_ZERO_PIVOT: return "ZERO_PIVOT";
  case CUSPARSE_STATUS_NOT_SUPPORTED: return "NOT_SUPPORTED";
  case CUSPARSE_STATUS_INSUFFICIENT_RESOURCES: return "INSUFFICIENT_RESOURCES";
  default: {
    static char buf[32];
    snprintf(buf, sizeof buf, "status %d", (int)s);
    return buf;
  }
  }
}

static sigjmp_buf crash_jump;
static void on_crash(int sig) { siglongjmp(crash_jump, sig); }
static int lines = 0;

static void report(const char *fn, const char *what, cusparseStatus_t s) {
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("%s %s: %s, then the device failed: %s\n", fn, what, status_name(s), cudaGetErrorName(e));
    exit(1);
  }
  printf("%s %s: %s\n", fn, what, status_name(s));
  lines++;
}

#define CASE(fn, what, call)                                                                       \
  do {                                                                                             \
    if (sigsetjmp(crash_jump, 1) == 0) {                                                           \
      cusparseStatus_t s_ = (call);                                                                \
      report(fn, what, s_);                                                                        \
    } else {                                                                                       \
      printf("%s %s: CRASH\n", fn, what);                                                          \
    }                                                                                              \
  } while (0)

static cusparseHandle_t h;
static const cusparseIndexType_t I32 = CUSPARSE_INDEX_32I, I64 = CUSPARSE_INDEX_64I, I16 = CUSPARSE_INDEX_16U;
static const cusparseIndexType_t BAD_IDX = (cusparseIndexType_t)9;
static const cusparseIndexBase_t B0 = CUSPARSE_INDEX_BASE_ZERO, BAD_BASE = (cusparseIndexBase_t)5;
static const cudaDataType F = CUDA_R_32F, D = CUDA_R_64F, BAD_T = (cudaDataType)99;
static const cusparseOperation_t NT = CUSPARSE_OPERATION_NON_TRANSPOSE, TR = CUSPARSE_OPERATION_TRANSPOSE,
                                 CT = CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE, BAD_OP = (cusparseOperation_t)9;
static const cusparseOrder_t COL = CUSPARSE_ORDER_COL, ROW = CUSPARSE_ORDER_ROW;

/* device memory for every descriptor: a 4 x 5 CSR matrix with 6 entries */
static int *d_rows, *d_cols, *d_perm;
static float *d_vals, *d_x, *d_y, *d_dense;
static void *d_buf;

static void handles() {
  cudaStream_t s = (cudaStream_t)1;
  int v = -1;
  CASE("cusparseCreate", "handle=NULL", cusparseCreate(NULL));
  CASE("cusparseDestroy", "handle=NULL", cusparseDestroy(NULL));
  CASE("cusparseSetStream", "handle=NULL", cusparseSetStream(NULL, 0));
  CASE("cusparseGetStream", "handle=NULL", cusparseGetStream(NULL, &s));
  CASE("cusparseGetStream", "stream=NULL", cusparseGetStream(h, NULL));
  CASE("cusparseGetVersion", "handle=NULL", cusparseGetVersion(NULL, &v));
  CASE("cusparseGetVersion", "version=NULL", cusparseGetVersion(h, NULL));
  CASE("cusparseGetProperty", "type=9", cusparseGetProperty((libraryPropertyType)9, &v));
  CASE("cusparseGetProperty", "value=NULL", cusparseGetProperty(MAJOR_VERSION, NULL));
  CASE("cusparseSetPointerMode", "mode=5", cusparseSetPointerMode(h, (cusparsePointerMode_t)5));
  CASE("cusparseSetPointerMode", "handle=NULL", cusparseSetPointerMode(NULL, CUSPARSE_POINTER_MODE_HOST));
  CASE("cusparseGetPointerMode", "mode=NULL", cusparseGetPointerMode(h, NULL));
  cusparsePointerMode_t pm = (cusparsePointerMode_t)7;
  CHECK_SP(cusparseGetPointerMode(h, &pm));
  printf("cusparseGetPointerMode new handle: %d\n", (int)pm);
  CHECK_SP(cusparseGetStream(h, &s));
  printf("cusparseGetStream new handle: %s\n", s == 0 ? "NULL" : "not NULL");
  for (int i = 0; i <= 12; i++)
    printf("cusparseGetErrorName %d: %s | %s\n", i, cusparseGetErrorName((cusparseStatus_t)i),
           cusparseGetErrorString((cusparseStatus_t)i));
  printf("cusparseGetErrorName 99: %s | %s\n", cusparseGetErrorName((cusparseStatus_t)99),
         cusparseGetErrorString((cusparseStatus_t)99));

  cusparseMatDescr_t md;
  CASE("cusparseCreateMatDescr", "descr=NULL", cusparseCreateMatDescr(NULL));
  CASE("cusparseDestroyMatDescr", "descr=NULL", cusparseDestroyMatDescr(NULL));
  CHECK_SP(cusparseCreateMatDescr(&md));
  printf("cusparseCreateMatDescr defaults: type %d base %d fill %d diag %d\n", (int)cusparseGetMatType(md),
         (int)cusparseGetMatIndexBase(md), (int)cusparseGetMatFillMode(md), (int)cusparseGetMatDiagType(md));
  CASE("cusparseSetMatType", "descr=NULL", cusparseSetMatType(NULL, CUSPARSE_MATRIX_TYPE_GENERAL));
  CASE("cusparseSetMatType", "type=9", cusparseSetMatType(md, (cusparseMatrixType_t)9));
  CASE("cusparseSetMatType", "symmetric", cusparseSetMatType(md, CUSPARSE_MATRIX_TYPE_SYMMETRIC));
  CASE("cusparseSetMatIndexBase", "base=5", cusparseSetMatIndexBase(md, BAD_BASE));
  CASE("cusparseSetMatIndexBase", "one", cusparseSetMatIndexBase(md, CUSPARSE_INDEX_BASE_ONE));
  CASE("cusparseSetMatFillMode", "fill=5", cusparseSetMatFillMode(md, (cusparseFillMode_t)5));
  CASE("cusparseSetMatFillMode", "upper", cusparseSetMatFillMode(md, CUSPARSE_FILL_MODE_UPPER));
  CASE("cusparseSetMatDiagType", "diag=5", cusparseSetMatDiagType(md, (cusparseDiagType_t)5));
  CASE("cusparseSetMatDiagType", "unit", cusparseSetMatDiagType(md, CUSPARSE_DIAG_TYPE_UNIT));
  printf("cusparseGetMat after sets: type %d base %d fill %d diag %d\n", (int)cusparseGetMatType(md),
         (int)cusparseGetMatIndexBase(md), (int)cusparseGetMatFillMode(md), (int)cusparseGetMatDiagType(md));
  CHECK_SP(cusparseDestroyMatDescr(md));
}

static void descriptors() {
  cusparseSpVecDescr_t sv;
  cusparseDnVecDescr_t dv;
  cusparseSpMatDescr_t sm;
  cusparseDnMatDescr_t dm;
  /* sparse vectors */
#define SPVEC(what, size, nnz, ind, val, it, b, t)                                                 \
  do {                                                                                             \
    sv = NULL;                                                                                     \
    CASE("cusparseCreateSpVec", what, cusparseCreateSpVec(&sv, size, nnz, ind, val, it, b, t));    \
    if (sv) cusparseDestroySpVec(sv);                                                              \
  } while (0)
  CASE("cusparseCreateSpVec", "descr=NULL", cusparseCreateSpVec(NULL, 10, 3, d_cols, d_vals, I32, B0, F));
  SPVEC("size=-1", -1, 3, d_cols, d_vals, I32, B0, F);
  SPVEC("nnz=-1", 10, -1, d_cols, d_vals, I32, B0, F);
  SPVEC("nnz=11>size=10", 10, 11, d_cols, d_vals, I32, B0, F);
  SPVEC("indices=NULL", 10, 3, NULL, d_vals, I32, B0, F);
  SPVEC("values=NULL", 10, 3, d_cols, NULL, I32, B0, F);
  SPVEC("nnz=0 NULL pointers", 10, 0, NULL, NULL, I32, B0, F);
  SPVEC("idx=16U", 10, 3, d_cols, d_vals, I16, B0, F);
  SPVEC("idx=9", 10, 3, d_cols, d_vals, BAD_IDX, B0, F);
  SPVEC("base=5", 10, 3, d_cols, d_vals, I32, BAD_BASE, F);
  SPVEC("type=99", 10, 3, d_cols, d_vals, I32, B0, BAD_T);
  SPVEC("size=0 nnz=0", 0, 0, d_cols, d_vals, I32, B0, F);
  CASE("cusparseDestroySpVec", "descr=NULL", cusparseDestroySpVec(NULL));
  /* dense vectors */
#define DNVEC(what, size, val, t)                                                                  \
  do {                                                                                             \
    dv = NULL;                                                                                     \
    CASE("cusparseCreateDnVec", what, cusparseCreateDnVec(&dv, size, val, t));                     \
    if (dv) cusparseDestroyDnVec(dv);                                                              \
  } while (0)
  CASE("cusparseCreateDnVec", "descr=NULL", cusparseCreateDnVec(NULL, 5, d_x, F));
  DNVEC("size=-1", -1, d_x, F);
  DNVEC("values=NULL", 5, NULL, F);
  DNVEC("size=0 values=NULL", 0, NULL, F);
  DNVEC("type=99", 5, d_x, BAD_T);
  DNVEC("type=R_16F", 5, d_x, CUDA_R_16F);
  DNVEC("type=R_8I", 5, d_x, CUDA_R_8I);
  CASE("cusparseDestroyDnVec", "descr=NULL", cusparseDestroyDnVec(NULL));
  /* CSR */
#define CSR(what, r, c, nnz, ro, ci, v, rt, ct, b, t)                                              \
  do {                                                                                             \
    sm = NULL;                                                                                     \
    CASE("cusparseCreateCsr", what, cusparseCreateCsr(&sm, r, c, nnz, ro, ci, v, rt, ct, b, t));   \
    if (sm) cusparseDestroySpMat(sm);                                                              \
  } while (0)
  CASE("cusparseCreateCsr", "descr=NULL", cusparseCreateCsr(NULL, 4, 5, 6, d_rows, d_cols, d_vals, I32, I32, B0, F));
  CSR("rows=-1", -1, 5, 6, d_rows, d_cols, d_vals, I32, I32, B0, F);
  CSR("cols=-1", 4, -1, 6, d_rows, d_cols, d_vals, I32, I32, B0, F);
  CSR("nnz=-1", 4, 5, -1, d_rows, d_cols, d_vals, I32, I32, B0, F);
  CSR("nnz=21>rows*cols", 4, 5, 21, d_rows, d_cols, d_vals, I32, I32, B0, F);
  CSR("offsets=NULL", 4, 5, 6, NULL, d_cols, d_vals, I32, I32, B0, F);
  CSR("columns=NULL", 4, 5, 6, d_rows, NULL, d_vals, I32, I32, B0, F);
  CSR("values=NULL", 4, 5, 6, d_rows, d_cols, NULL, I32, I32, B0, F);
  CSR("nnz=0 columns=values=NULL", 4, 5, 0, d_rows, NULL, NULL, I32, I32, B0, F);
  CSR("all NULL", 4, 5, 6, NULL, NULL, NULL, I32, I32, B0, F);
  CSR("rows=0 offsets=NULL", 0, 5, 0, NULL, NULL, NULL, I32, I32, B0, F);
  CSR("offsets=16U", 4, 5, 6, d_rows, d_cols, d_vals, I16, I32, B0, F);
  CSR("offsets=64I columns=32I", 4, 5, 6, d_rows, d_cols, d_vals, I64, I32, B0, F);
  CSR("offsets=32I columns=64I", 4, 5, 6, d_rows, d_cols, d_vals, I32, I64, B0, F);
  CSR("idx=9", 4, 5, 6, d_rows, d_cols, d_vals, BAD_IDX, BAD_IDX, B0, F);
  CSR("base=5", 4, 5, 6, d_rows, d_cols, d_vals, I32, I32, BAD_BASE, F);
  CSR("type=99", 4, 5, 6, d_rows, d_cols, d_vals, I32, I32, B0, BAD_T);
  CSR("type=R_16F", 4, 5, 6, d_rows, d_cols, d_vals, I32, I32, B0, CUDA_R_16F);
  CSR("type=R_8I", 4, 5, 6, d_rows, d_cols, d_vals, I32, I32, B0, CUDA_R_8I);
  CSR("type=C_64F", 4, 5, 6, d_rows, d_cols, d_vals, I32, I32, B0, CUDA_C_64F);
#define CSC(what, r, c, nnz, co, ri, v, ot, it, b, t)                                              \
  do {                                                                                             \
    sm = NULL;                                                                                     \
    CASE("cusparseCreateCsc", what, cusparseCreateCsc(&sm, r, c, nnz, co, ri, v, ot, it, b, t));   \
    if (sm) cusparseDestroySpMat(sm);                                                              \
  } while (0)
  CSC("rows=-1", -1, 5, 6, d_rows, d_cols, d_vals, I32, I32, B0, F);
  CSC("nnz=-1", 4, 5, -1, d_rows, d_cols, d_vals, I32, I32, B0, F);
  CSC("offsets=NULL", 4, 5, 6, NULL, d_cols, d_vals, I32, I32, B0, F);
  CSC("base=5", 4, 5, 6, d_rows, d_cols, d_vals, I32, I32, BAD_BASE, F);
  CSC("valid", 4, 5, 6, d_rows, d_cols, d_vals, I32, I32, B0, F);
#define COO(what, r, c, nnz, ri, ci, v, it, b, t)                                                  \
  do {                                                                                             \
    sm = NULL;                                                                                     \
    CASE("cusparseCreateCoo", what, cusparseCreateCoo(&sm, r, c, nnz, ri, ci, v, it, b, t));       \
    if (sm) cusparseDestroySpMat(sm);                                                              \
  } while (0)
  CASE("cusparseCreateCoo", "descr=NULL", cusparseCreateCoo(NULL, 4, 5, 6, d_rows, d_cols, d_vals, I32, B0, F));
  COO("rows=-1", -1, 5, 6, d_rows, d_cols, d_vals, I32, B0, F);
  COO("nnz=-1", 4, 5, -1, d_rows, d_cols, d_vals, I32, B0, F);
  COO("nnz=21>rows*cols", 4, 5, 21, d_rows, d_cols, d_vals, I32, B0, F);
  COO("rows=NULL", 4, 5, 6, NULL, d_cols, d_vals, I32, B0, F);
  COO("values=NULL", 4, 5, 6, d_rows, d_cols, NULL, I32, B0, F);
  COO("nnz=0 NULL pointers", 4, 5, 0, NULL, NULL, NULL, I32, B0, F);
  COO("idx=16U", 4, 5, 6, d_rows, d_cols, d_vals, I16, B0, F);
  COO("base=5", 4, 5, 6, d_rows, d_cols, d_vals, I32, BAD_BASE, F);
#define BELL(what, r, c, bs, ec, ci, v, it, b, t)                                                  \
  do {                                                                                             \
    sm = NULL;                                                                                     \
    CASE("cusparseCreateBlockedEll", what, cusparseCreateBlockedEll(&sm, r, c, bs, ec, ci, v, it, b, t)); \
    if (sm) cusparseDestroySpMat(sm);                                                              \
  } while (0)
  BELL("valid 4x8 block 2 ellCols 4", 4, 8, 2, 4, d_cols, d_vals, I32, B0, F);
  BELL("rows=-1", -1, 8, 2, 4, d_cols, d_vals, I32, B0, F);
  BELL("blocksize=0", 4, 8, 0, 4, d_cols, d_vals, I32, B0, F);
  BELL("ellCols=3 not a multiple", 4, 8, 2, 3, d_cols, d_vals, I32, B0, F);
  BELL("ellCols=10>cols", 4, 8, 2, 10, d_cols, d_vals, I32, B0, F);
  BELL("rows=5 not a multiple", 5, 8, 2, 4, d_cols, d_vals, I32, B0, F);
  BELL("columns=NULL", 4, 8, 2, 4, NULL, d_vals, I32, B0, F);
  BELL("idx=16U", 4, 8, 2, 4, d_cols, d_vals, I16, B0, F);
  CASE("cusparseDestroySpMat", "descr=NULL", cusparseDestroySpMat(NULL));
  /* dense matrices */
#define DNMAT(what, r, c, ld, v, t, o)                                                             \
  do {                                                                                             \
    dm = NULL;                                                                                     \
    CASE("cusparseCreateDnMat", what, cusparseCreateDnMat(&dm, r, c, ld, v, t, o));                \
    if (dm) cusparseDestroyDnMat(dm);                                                              \
  } while (0)
  CASE("cusparseCreateDnMat", "descr=NULL", cusparseCreateDnMat(NULL, 4, 5, 4, d_dense, F, COL));
  DNMAT("rows=-1", -1, 5, 4, d_dense, F, COL);
  DNMAT("cols=-1", 4, -1, 4, d_dense, F, COL);
  DNMAT("col ld=3<rows=4", 4, 5, 3, d_dense, F, COL);
  DNMAT("col ld=4 rows=4", 4, 5, 4, d_dense, F, COL);
  DNMAT("row ld=4<cols=5", 4, 5, 4, d_dense, F, ROW);
  DNMAT("row ld=5", 4, 5, 5, d_dense, F, ROW);
  DNMAT("order=5", 4, 5, 4, d_dense, F, (cusparseOrder_t)5);
  DNMAT("values=NULL", 4, 5, 4, NULL, F, COL);
  DNMAT("rows=0 ld=0", 0, 5, 0, d_dense, F, COL);
  DNMAT("rows=0 ld=1", 0, 5, 1, d_dense, F, COL);
  DNMAT("type=99", 4, 5, 4, d_dense, BAD_T, COL);
  CASE("cusparseDestroyDnMat", "descr=NULL", cusparseDestroyDnMat(NULL));

  /* getters and setters */
  CHECK_SP(cusparseCreateCsr(&sm, 4, 5, 6, d_rows, d_cols, d_vals, I32, I32, B0, F));
  int64_t r = -1, c = -1, nz = -1;
  CASE("cusparseSpMatGetSize", "descr=NULL", cusparseSpMatGetSize(NULL, &r, &c, &nz));
  CASE("cusparseSpMatGetSize", "rows=NULL", cusparseSpMatGetSize(sm, NULL, &c, &nz));
  CASE("cusparseSpMatGetSize", "csr", cusparseSpMatGetSize(sm, &r, &c, &nz));
  printf("  size %lld x %lld nnz %lld\n", (long long)r, (long long)c, (long long)nz);
  cusparseFormat_t fmt;
  CASE("cusparseSpMatGetFormat", "csr", cusparseSpMatGetFormat(sm, &fmt));
  printf("  format %d\n", (int)fmt);
  cusparseIndexBase_t base;
  CASE("cusparseSpMatGetIndexBase", "csr", cusparseSpMatGetIndexBase(sm, &base));
  int batches = -1;
  CASE("cusparseSpMatGetStridedBatch", "csr", cusparseSpMatGetStridedBatch(sm, &batches));
  printf("  batches %d\n", batches);
  cusparseFillMode_t fill = CUSPARSE_FILL_MODE_UPPER;
  cusparseDiagType_t diag = CUSPARSE_DIAG_TYPE_UNIT;
  CASE("cusparseSpMatGetAttribute", "fill", cusparseSpMatGetAttribute(sm, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill));
  CASE("cusparseSpMatGetAttribute", "diag", cusparseSpMatGetAttribute(sm, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag));
  printf("  default fill %d diag %d\n", (int)fill, (int)diag);
  CASE("cusparseSpMatGetAttribute", "size=1", cusparseSpMatGetAttribute(sm, CUSPARSE_SPMAT_FILL_MODE, &fill, 1));
  CASE("cusparseSpMatGetAttribute", "attribute=7", cusparseSpMatGetAttribute(sm, (cusparseSpMatAttribute_t)7, &fill, sizeof fill));
  CASE("cusparseSpMatGetAttribute", "data=NULL", cusparseSpMatGetAttribute(sm, CUSPARSE_SPMAT_FILL_MODE, NULL, sizeof fill));
  fill = (cusparseFillMode_t)5;
  CASE("cusparseSpMatSetAttribute", "fill=5", cusparseSpMatSetAttribute(sm, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill));
  fill = CUSPARSE_FILL_MODE_UPPER;
  CASE("cusparseSpMatSetAttribute", "fill=upper", cusparseSpMatSetAttribute(sm, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill));
  CASE("cusparseSpMatSetAttribute", "size=2", cusparseSpMatSetAttribute(sm, CUSPARSE_SPMAT_FILL_MODE, &fill, 2));
  diag = (cusparseDiagType_t)3;
  CASE("cusparseSpMatSetAttribute", "diag=3", cusparseSpMatSetAttribute(sm, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag));
  CASE("cusparseCsrSetPointers", "offsets=NULL", cusparseCsrSetPointers(sm, NULL, d_cols, d_vals));
  CASE("cusparseCsrSetPointers", "values=NULL", cusparseCsrSetPointers(sm, d_rows, d_cols, NULL));
  CASE("cusparseCsrSetPointers", "valid", cusparseCsrSetPointers(sm, d_rows, d_cols, d_vals));
  CASE("cusparseSpMatSetValues", "values=NULL", cusparseSpMatSetValues(sm, NULL));
  CASE("cusparseCsrSetStridedBatch", "batch=0", cusparseCsrSetStridedBatch(sm, 0, 5, 6));
  CASE("cusparseCsrSetStridedBatch", "batch=2", cusparseCsrSetStridedBatch(sm, 2, 5, 6));
  void *p1, *p2, *p3;
  cusparseIndexType_t it1, it2;
  cudaDataType vt;
  CASE("cusparseCooGet", "csr descriptor", cusparseCooGet(sm, &r, &c, &nz, &p1, &p2, &p3, &it1, &base, &vt));
  CASE("cusparseCscGet", "csr descriptor", cusparseCscGet(sm, &r, &c, &nz, &p1, &p2, &p3, &it1, &it2, &base, &vt));
  CASE("cusparseCsrGet", "csr", cusparseCsrGet(sm, &r, &c, &nz, &p1, &p2, &p3, &it1, &it2, &base, &vt));
  CASE("cusparseCsrGet", "descr=NULL", cusparseCsrGet(NULL, &r, &c, &nz, &p1, &p2, &p3, &it1, &it2, &base, &vt));
  CASE("cusparseCsrGet", "rows=NULL", cusparseCsrGet(sm, NULL, &c, &nz, &p1, &p2, &p3, &it1, &it2, &base, &vt));
  CHECK_SP(cusparseDestroySpMat(sm));
  CHECK_SP(cusparseCreateDnMat(&dm, 4, 5, 4, d_dense, F, COL));
  int64_t stride = -1;
  CASE("cusparseDnMatGetStridedBatch", "default", cusparseDnMatGetStridedBatch(dm, &batches, &stride));
  printf("  batches %d stride %lld\n", batches, (long long)stride);
  CASE("cusparseDnMatSetStridedBatch", "batch=0", cusparseDnMatSetStridedBatch(dm, 0, 20));
  CASE("cusparseDnMatSetStridedBatch", "stride=10<ld*cols", cusparseDnMatSetStridedBatch(dm, 2, 10));
  CASE("cusparseDnMatSetStridedBatch", "stride=20", cusparseDnMatSetStridedBatch(dm, 2, 20));
  CASE("cusparseDnMatSetValues", "values=NULL", cusparseDnMatSetValues(dm, NULL));
  CASE("cusparseDnMatGet", "descr=NULL", cusparseDnMatGet(NULL, &r, &c, &nz, &p1, &vt, (cusparseOrder_t *)&it1));
  CHECK_SP(cusparseDestroyDnMat(dm));
  CHECK_SP(cusparseCreateDnVec(&dv, 5, d_x, F));
  CASE("cusparseDnVecSetValues", "values=NULL", cusparseDnVecSetValues(dv, NULL));
  CASE("cusparseDnVecGet", "descr=NULL", cusparseDnVecGet(NULL, &r, &p1, &vt));
  CHECK_SP(cusparseDestroyDnVec(dv));
}

static void operations() {
  /* A: 4 x 5 CSR, x: 5, y: 4 */
  cusparseSpMatDescr_t A, A64, Acoo, Bsp, Csp;
  cusparseDnVecDescr_t x, y, x4, yD;
  cusparseDnMatDescr_t Bm, Cm, Bbad, Crow, Brow;
  cusparseSpVecDescr_t sx;
  CHECK_SP(cusparseCreateCsr(&A, 4, 5, 6, d_rows, d_cols, d_vals, I32, I32, B0, F));
  CHECK_SP(cusparseCreateCsr(&A64, 4, 5, 6, d_rows, d_cols, d_vals, I32, I32, B0, D));
  CHECK_SP(cusparseCreateCoo(&Acoo, 4, 5, 6, d_rows, d_cols, d_vals, I32, B0, F));
  CHECK_SP(cusparseCreateDnVec(&x, 5, d_x, F));
  CHECK_SP(cusparseCreateDnVec(&y, 4, d_y, F));
  CHECK_SP(cusparseCreateDnVec(&x4, 4, d_x, F));
  CHECK_SP(cusparseCreateDnVec(&yD, 4, d_y, D));
  float one = 1, zero = 0;
  size_t bs = 0;
  const cudaDataType CT32 = F;
#define MV_BS(what, hh, op, al, mA, vx, be, vy, ct, alg, out) \
  CASE("cusparseSpMV_bufferSize", what, cusparseSpMV_bufferSize(hh, op, al, mA, vx, be, vy, ct, alg, out))
  MV_BS("valid", h, NT, &one, A, x, &zero, y, CT32, CUSPARSE_SPMV_ALG_DEFAULT, &bs);
  fprintf(stderr, "size SpMV 4x5 csr: %zu\n", bs);
  MV_BS("handle=NULL", NULL, NT, &one, A, x, &zero, y, CT32, CUSPARSE_SPMV_ALG_DEFAULT, &bs);
  MV_BS("alpha=NULL", h, NT, NULL, A, x, &zero, y, CT32, CUSPARSE_SPMV_ALG_DEFAULT, &bs);
  MV_BS("matA=NULL", h, NT, &one, NULL, x, &zero, y, CT32, CUSPARSE_SPMV_ALG_DEFAULT, &bs);
  MV_BS("vecX=NULL", h, NT, &one, A, NULL, &zero, y, CT32, CUSPARSE_SPMV_ALG_DEFAULT, &bs);
  MV_BS("bufferSize=NULL", h, NT, &one, A, x, &zero, y, CT32, CUSPARSE_SPMV_ALG_DEFAULT, NULL);
  MV_BS("op=9", h, BAD_OP, &one, A, x, &zero, y, CT32, CUSPARSE_SPMV_ALG_DEFAULT, &bs);
  MV_BS("x size 4 != cols 5", h, NT, &one, A, x4, &zero, y, CT32, CUSPARSE_SPMV_ALG_DEFAULT, &bs);
  MV_BS("op=T sizes not swapped", h, TR, &one, A, x, &zero, y, CT32, CUSPARSE_SPMV_ALG_DEFAULT, &bs);
  MV_BS("op=T", h, TR, &one, A, y, &zero, x, CT32, CUSPARSE_SPMV_ALG_DEFAULT, &bs);
  MV_BS("op=C real", h, CT, &one, A, y, &zero, x, CT32, CUSPARSE_SPMV_ALG_DEFAULT, &bs);
  MV_BS("compute=R_64F data R_32F", h, NT, &one, A, x, &zero, y, D, CUSPARSE_SPMV_ALG_DEFAULT, &bs);
  MV_BS("y=R_64F", h, NT, &one, A, x, &zero, yD, CT32, CUSPARSE_SPMV_ALG_DEFAULT, &bs);
  MV_BS("A=R_64F x,y=R_32F", h, NT, &one, A64, x, &zero, y, D, CUSPARSE_SPMV_ALG_DEFAULT, &bs);
  MV_BS("alg=99", h, NT, &one, A, x, &zero, y, CT32, (cusparseSpMVAlg_t)99, &bs);
  MV_BS("csr alg=COO_ALG1", h, NT, &one, A, x, &zero, y, CT32, CUSPARSE_SPMV_COO_ALG1, &bs);
  MV_BS("coo alg=CSR_ALG1", h, NT, &one, Acoo, x, &zero, y, CT32, CUSPARSE_SPMV_CSR_ALG1, &bs);
  MV_BS("csr alg=CSR_ALG2", h, NT, &one, A, x, &zero, y, CT32, CUSPARSE_SPMV_CSR_ALG2, &bs);
#define MV(what, hh, op, al, mA, vx, be, vy, ct, alg, buf) \
  CASE("cusparseSpMV", what, cusparseSpMV(hh, op, al, mA, vx, be, vy, ct, alg, buf))
  MV("handle=NULL", NULL, NT, &one, A, x, &zero, y, CT32, CUSPARSE_SPMV_ALG_DEFAULT, d_buf);
  MV("beta=NULL", h, NT, &one, A, x, NULL, y, CT32, CUSPARSE_SPMV_ALG_DEFAULT, d_buf);
  MV("vecY=NULL", h, NT, &one, A, x, &zero, NULL, CT32, CUSPARSE_SPMV_ALG_DEFAULT, d_buf);
  MV("x size 4 != cols 5", h, NT, &one, A, x4, &zero, y, CT32, CUSPARSE_SPMV_ALG_DEFAULT, d_buf);
  MV("compute=R_64F data R_32F", h, NT, &one, A, x, &zero, y, D, CUSPARSE_SPMV_ALG_DEFAULT, d_buf);
  MV("valid", h, NT, &one, A, x, &zero, y, CT32, CUSPARSE_SPMV_ALG_DEFAULT, d_buf);
  MV("coo valid", h, NT, &one, Acoo, x, &zero, y, CT32, CUSPARSE_SPMV_ALG_DEFAULT, d_buf);
  CASE("cusparseSpMV_preprocess", "valid", cusparseSpMV_preprocess(h, NT, &one, A, x, &zero, y, CT32, CUSPARSE_SPMV_ALG_DEFAULT, d_buf));
  CASE("cusparseSpMV_preprocess", "handle=NULL", cusparseSpMV_preprocess(NULL, NT, &one, A, x, &zero, y, CT32, CUSPARSE_SPMV_ALG_DEFAULT, d_buf));

  /* SpMM: A 4x5, B 5x3, C 4x3 */
  CHECK_SP(cusparseCreateDnMat(&Bm, 5, 3, 5, d_dense, F, COL));
  CHECK_SP(cusparseCreateDnMat(&Cm, 4, 3, 4, d_dense + 64, F, COL));
  CHECK_SP(cusparseCreateDnMat(&Bbad, 4, 3, 4, d_dense, F, COL));
  CHECK_SP(cusparseCreateDnMat(&Crow, 4, 3, 3, d_dense + 64, F, ROW));
  CHECK_SP(cusparseCreateDnMat(&Brow, 5, 3, 3, d_dense, F, ROW));
#define MM_BS(what, hh, oa, ob, mA, mB, mC, ct, alg) \
  CASE("cusparseSpMM_bufferSize", what, cusparseSpMM_bufferSize(hh, oa, ob, &one, mA, mB, &zero, mC, ct, alg, &bs))
  MM_BS("valid", h, NT, NT, A, Bm, Cm, F, CUSPARSE_SPMM_ALG_DEFAULT);
  fprintf(stderr, "size SpMM 4x5x3 csr: %zu\n", bs);
  MM_BS("handle=NULL", NULL, NT, NT, A, Bm, Cm, F, CUSPARSE_SPMM_ALG_DEFAULT);
  MM_BS("B rows 4 != 5", h, NT, NT, A, Bbad, Cm, F, CUSPARSE_SPMM_ALG_DEFAULT);
  MM_BS("opA=9", h, BAD_OP, NT, A, Bm, Cm, F, CUSPARSE_SPMM_ALG_DEFAULT);
  MM_BS("opB=T B 5x3", h, NT, TR, A, Bm, Cm, F, CUSPARSE_SPMM_ALG_DEFAULT);
  MM_BS("C row-major B col-major", h, NT, NT, A, Bm, Crow, F, CUSPARSE_SPMM_ALG_DEFAULT);
  MM_BS("B,C row-major", h, NT, NT, A, Brow, Crow, F, CUSPARSE_SPMM_ALG_DEFAULT);
  MM_BS("compute=R_64F", h, NT, NT, A, Bm, Cm, D, CUSPARSE_SPMM_ALG_DEFAULT);
  MM_BS("alg=99", h, NT, NT, A, Bm, Cm, F, (cusparseSpMMAlg_t)99);
  MM_BS("csr alg=COO_ALG1", h, NT, NT, A, Bm, Cm, F, CUSPARSE_SPMM_COO_ALG1);
  MM_BS("coo", h, NT, NT, Acoo, Bm, Cm, F, CUSPARSE_SPMM_ALG_DEFAULT);
  MM_BS("csr alg=CSR_ALG2", h, NT, NT, A, Bm, Cm, F, CUSPARSE_SPMM_CSR_ALG2);
  MM_BS("csr alg=CSR_ALG3", h, NT, NT, A, Bm, Cm, F, CUSPARSE_SPMM_CSR_ALG3);
#define MM(what, hh, oa, ob, al, mA, mB, be, mC, ct, alg) \
  CASE("cusparseSpMM", what, cusparseSpMM(hh, oa, ob, al, mA, mB, be, mC, ct, alg, d_buf))
  MM("valid", h, NT, NT, &one, A, Bm, &zero, Cm, F, CUSPARSE_SPMM_ALG_DEFAULT);
  MM("handle=NULL", NULL, NT, NT, &one, A, Bm, &zero, Cm, F, CUSPARSE_SPMM_ALG_DEFAULT);
  MM("alpha=NULL", h, NT, NT, NULL, A, Bm, &zero, Cm, F, CUSPARSE_SPMM_ALG_DEFAULT);
  MM("B rows 4 != 5", h, NT, NT, &one, A, Bbad, &zero, Cm, F, CUSPARSE_SPMM_ALG_DEFAULT);
  MM("opA=T", h, TR, NT, &one, A, Bbad, &zero, Cm, F, CUSPARSE_SPMM_ALG_DEFAULT);
  CASE("cusparseSpMM_preprocess", "valid", cusparseSpMM_preprocess(h, NT, NT, &one, A, Bm, &zero, Cm, F, CUSPARSE_SPMM_ALG_DEFAULT, d_buf));

  /* SpGEMM: C = A (4x5) * B (5x4) */
  CHECK_SP(cusparseCreateCsr(&Bsp, 5, 4, 6, d_rows + 16, d_cols + 16, d_vals + 16, I32, I32, B0, F));
  CHECK_SP(cusparseCreateCsr(&Csp, 4, 4, 0, d_rows + 32, NULL, NULL, I32, I32, B0, F));
  cusparseSpGEMMDescr_t g;
  CASE("cusparseSpGEMM_createDescr", "descr=NULL", cusparseSpGEMM_createDescr(NULL));
  CASE("cusparseSpGEMM_destroyDescr", "descr=NULL", cusparseSpGEMM_destroyDescr(NULL));
  CHECK_SP(cusparseSpGEMM_createDescr(&g));
#define GW(what, hh, oa, ob, mA, mB, mC, ct, alg, gg) \
  CASE("cusparseSpGEMM_workEstimation", what, cusparseSpGEMM_workEstimation(hh, oa, ob, &one, mA, mB, &zero, mC, ct, alg, gg, &bs, NULL))
  GW("handle=NULL", NULL, NT, NT, A, Bsp, Csp, F, CUSPARSE_SPGEMM_DEFAULT, g);
  GW("descr=NULL", h, NT, NT, A, Bsp, Csp, F, CUSPARSE_SPGEMM_DEFAULT, NULL);
  GW("opA=T", h, TR, NT, A, Bsp, Csp, F, CUSPARSE_SPGEMM_DEFAULT, g);
  GW("opB=T", h, NT, TR, A, Bsp, Csp, F, CUSPARSE_SPGEMM_DEFAULT, g);
  GW("A*A cols 5 != rows 4", h, NT, NT, A, A, Csp, F, CUSPARSE_SPGEMM_DEFAULT, g);
  GW("compute=R_64F", h, NT, NT, A, Bsp, Csp, D, CUSPARSE_SPGEMM_DEFAULT, g);
  GW("alg=99", h, NT, NT, A, Bsp, Csp, F, (cusparseSpGEMMAlg_t)99, g);
  GW("coo A", h, NT, NT, Acoo, Bsp, Csp, F, CUSPARSE_SPGEMM_DEFAULT, g);
  GW("valid", h, NT, NT, A, Bsp, Csp, F, CUSPARSE_SPGEMM_DEFAULT, g);
  fprintf(stderr, "size SpGEMM work 1: %zu\n", bs);
  int64_t prods = -1;
  CASE("cusparseSpGEMM_getNumProducts", "descr=NULL", cusparseSpGEMM_getNumProducts(NULL, &prods));
  CHECK_SP(cusparseSpGEMM_destroyDescr(g));

  /* vector-vector */
  CHECK_SP(cusparseCreateSpVec(&sx, 5, 3, d_cols, d_vals, I32, B0, F));
  CASE("cusparseAxpby", "handle=NULL", cusparseAxpby(NULL, &one, sx, &one, x));
  CASE("cusparseAxpby", "alpha=NULL", cusparseAxpby(h, NULL, sx, &one, x));
  CASE("cusparseAxpby", "size 5 != 4", cusparseAxpby(h, &one, sx, &one, x4));
  CASE("cusparseAxpby", "y=R_64F", cusparseAxpby(h, &one, sx, &one, yD));
  CASE("cusparseGather", "handle=NULL", cusparseGather(NULL, x, sx));
  CASE("cusparseGather", "size 4 != 5", cusparseGather(h, x4, sx));
  CASE("cusparseGather", "vecY=NULL", cusparseGather(h, NULL, sx));
  CASE("cusparseScatter", "handle=NULL", cusparseScatter(NULL, sx, x));
  CASE("cusparseScatter", "size 5 != 4", cusparseScatter(h, sx, x4));
  CASE("cusparseScatter", "vecX=NULL", cusparseScatter(h, NULL, x));
  CASE("cusparseSpVV_bufferSize", "op=9", cusparseSpVV_bufferSize(h, BAD_OP, sx, x, &one, F, &bs));
  CASE("cusparseSpVV_bufferSize", "size 5 != 4", cusparseSpVV_bufferSize(h, NT, sx, x4, &one, F, &bs));
  CASE("cusparseSpVV_bufferSize", "valid", cusparseSpVV_bufferSize(h, NT, sx, x, &one, F, &bs));
  CASE("cusparseSpVV", "handle=NULL", cusparseSpVV(NULL, NT, sx, x, &one, F, d_buf));
  CASE("cusparseSpVV", "result=NULL", cusparseSpVV(h, NT, sx, x, NULL, F, d_buf));

  /* sparse <-> dense */
  CASE("cusparseSparseToDense_bufferSize", "handle=NULL", cusparseSparseToDense_bufferSize(NULL, A, Cm, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, &bs));
  CASE("cusparseSparseToDense_bufferSize", "size 4x5 != 4x3", cusparseSparseToDense_bufferSize(h, A, Cm, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, &bs));
  CASE("cusparseSparseToDense_bufferSize", "alg=5", cusparseSparseToDense_bufferSize(h, A, Cm, (cusparseSparseToDenseAlg_t)5, &bs));
  CASE("cusparseSparseToDense", "size 4x5 != 4x3", cusparseSparseToDense(h, A, Cm, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, d_buf));
  CASE("cusparseDenseToSparse_bufferSize", "handle=NULL", cusparseDenseToSparse_bufferSize(NULL, Cm, A, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, &bs));
  CASE("cusparseDenseToSparse_bufferSize", "size 4x3 != 4x5", cusparseDenseToSparse_bufferSize(h, Cm, A, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, &bs));
  CASE("cusparseDenseToSparse_analysis", "size 4x3 != 4x5", cusparseDenseToSparse_analysis(h, Cm, A, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, d_buf));
  CASE("cusparseDenseToSparse_convert", "handle=NULL", cusparseDenseToSparse_convert(NULL, Cm, A, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, d_buf));

  cusparseDestroySpVec(sx);
  cusparseDestroySpMat(A);
  cusparseDestroySpMat(A64);
  cusparseDestroySpMat(Acoo);
  cusparseDestroySpMat(Bsp);
  cusparseDestroySpMat(Csp);
  cusparseDestroyDnVec(x);
  cusparseDestroyDnVec(y);
  cusparseDestroyDnVec(x4);
  cusparseDestroyDnVec(yD);
  cusparseDestroyDnMat(Bm);
  cusparseDestroyDnMat(Cm);
  cusparseDestroyDnMat(Bbad);
  cusparseDestroyDnMat(Crow);
  cusparseDestroyDnMat(Brow);
}

static void conversions() {
  size_t bs = 0;
  const cusparseAction_t NUM = CUSPARSE_ACTION_NUMERIC;
  const cusparseCsr2CscAlg_t ALG1 = CUSPARSE_CSR2CSC_ALG1;
  int *cp = d_rows + 32, *ri = d_cols + 32;
  float *cv = d_vals + 32;
#define C2C_BS(what, hh, m, n, nnz, t, act, b, alg) \
  CASE("cusparseCsr2cscEx2_bufferSize", what, cusparseCsr2cscEx2_bufferSize(hh, m, n, nnz, d_vals, d_rows, d_cols, cv, cp, ri, t, act, b, alg, &bs))
  C2C_BS("valid", h, 4, 5, 6, F, NUM, B0, ALG1);
  fprintf(stderr, "size csr2cscEx2 4x5 nnz 6: %zu\n", bs);
  C2C_BS("handle=NULL", NULL, 4, 5, 6, F, NUM, B0, ALG1);
  C2C_BS("m=-1", h, -1, 5, 6, F, NUM, B0, ALG1);
  C2C_BS("n=-1", h, 4, -1, 6, F, NUM, B0, ALG1);
  C2C_BS("nnz=-1", h, 4, 5, -1, F, NUM, B0, ALG1);
  C2C_BS("type=99", h, 4, 5, 6, BAD_T, NUM, B0, ALG1);
  C2C_BS("action=5", h, 4, 5, 6, F, (cusparseAction_t)5, B0, ALG1);
  C2C_BS("base=5", h, 4, 5, 6, F, NUM, BAD_BASE, ALG1);
  C2C_BS("alg=9", h, 4, 5, 6, F, NUM, B0, (cusparseCsr2CscAlg_t)9);
  C2C_BS("m=0", h, 0, 5, 0, F, NUM, B0, ALG1);
  CASE("cusparseCsr2cscEx2_bufferSize", "bufferSize=NULL",
       cusparseCsr2cscEx2_bufferSize(h, 4, 5, 6, d_vals, d_rows, d_cols, cv, cp, ri, F, NUM, B0, ALG1, NULL));
#define C2C(what, hh, m, n, nnz, t, act, b, alg, buf) \
  CASE("cusparseCsr2cscEx2", what, cusparseCsr2cscEx2(hh, m, n, nnz, d_vals, d_rows, d_cols, cv, cp, ri, t, act, b, alg, buf))
  C2C("handle=NULL", NULL, 4, 5, 6, F, NUM, B0, ALG1, d_buf);
  C2C("m=-1", h, -1, 5, 6, F, NUM, B0, ALG1, d_buf);
  C2C("nnz=-1", h, 4, 5, -1, F, NUM, B0, ALG1, d_buf);
  C2C("type=99", h, 4, 5, 6, BAD_T, NUM, B0, ALG1, d_buf);
  C2C("base=5", h, 4, 5, 6, F, NUM, BAD_BASE, ALG1, d_buf);
  C2C("valid", h, 4, 5, 6, F, NUM, B0, ALG1, d_buf);
  C2C("symbolic", h, 4, 5, 6, F, CUSPARSE_ACTION_SYMBOLIC, B0, ALG1, d_buf);
  C2C("m=0", h, 0, 5, 0, F, NUM, B0, ALG1, d_buf);
  C2C("nnz=0", h, 4, 5, 0, F, NUM, B0, ALG1, d_buf);

  cusparseMatDescr_t md;
  CHECK_SP(cusparseCreateMatDescr(&md));
  CASE("cusparseXcsrsort_bufferSizeExt", "valid", cusparseXcsrsort_bufferSizeExt(h, 4, 5, 6, d_rows, d_cols, &bs));
  fprintf(stderr, "size csrsort 4x5 nnz 6: %zu\n", bs);
  CASE("cusparseXcsrsort_bufferSizeExt", "handle=NULL", cusparseXcsrsort_bufferSizeExt(NULL, 4, 5, 6, d_rows, d_cols, &bs));
  CASE("cusparseXcsrsort_bufferSizeExt", "m=-1", cusparseXcsrsort_bufferSizeExt(h, -1, 5, 6, d_rows, d_cols, &bs));
  CASE("cusparseXcsrsort_bufferSizeExt", "nnz=-1", cusparseXcsrsort_bufferSizeExt(h, 4, 5, -1, d_rows, d_cols, &bs));
  CASE("cusparseXcsrsort_bufferSizeExt", "size=NULL", cusparseXcsrsort_bufferSizeExt(h, 4, 5, 6, d_rows, d_cols, NULL));
  CASE("cusparseXcsrsort", "handle=NULL", cusparseXcsrsort(NULL, 4, 5, 6, md, d_rows, d_cols, d_perm, d_buf));
  CASE("cusparseXcsrsort", "descr=NULL", cusparseXcsrsort(h, 4, 5, 6, NULL, d_rows, d_cols, d_perm, d_buf));
  CASE("cusparseXcsrsort", "m=-1", cusparseXcsrsort(h, -1, 5, 6, md, d_rows, d_cols, d_perm, d_buf));
  CASE("cusparseXcsrsort", "nnz=0", cusparseXcsrsort(h, 4, 5, 0, md, d_rows + 48, d_cols, d_perm, d_buf));
  CASE("cusparseXcscsort_bufferSizeExt", "m=-1", cusparseXcscsort_bufferSizeExt(h, -1, 5, 6, d_rows, d_cols, &bs));
  CASE("cusparseXcscsort", "descr=NULL", cusparseXcscsort(h, 5, 4, 6, NULL, d_rows, d_cols, d_perm, d_buf));
  CASE("cusparseXcoosort_bufferSizeExt", "valid", cusparseXcoosort_bufferSizeExt(h, 4, 5, 6, d_rows, d_cols, &bs));
  fprintf(stderr, "size coosort 4x5 nnz 6: %zu\n", bs);
  CASE("cusparseXcoosort_bufferSizeExt", "m=-1", cusparseXcoosort_bufferSizeExt(h, -1, 5, 6, d_rows, d_cols, &bs));
  CASE("cusparseXcoosort_bufferSizeExt", "nnz=-1", cusparseXcoosort_bufferSizeExt(h, 4, 5, -1, d_rows, d_cols, &bs));
  CASE("cusparseXcoosortByRow", "handle=NULL", cusparseXcoosortByRow(NULL, 4, 5, 6, d_rows, d_cols, d_perm, d_buf));
  CASE("cusparseXcoosortByRow", "nnz=-1", cusparseXcoosortByRow(h, 4, 5, -1, d_rows, d_cols, d_perm, d_buf));
  CASE("cusparseXcoosortByColumn", "m=-1", cusparseXcoosortByColumn(h, -1, 5, 6, d_rows, d_cols, d_perm, d_buf));
  CASE("cusparseXcoo2csr", "handle=NULL", cusparseXcoo2csr(NULL, d_rows, 6, 4, d_perm, B0));
  CASE("cusparseXcoo2csr", "nnz=-1", cusparseXcoo2csr(h, d_rows, -1, 4, d_perm, B0));
  CASE("cusparseXcoo2csr", "m=-1", cusparseXcoo2csr(h, d_rows, 6, -1, d_perm, B0));
  CASE("cusparseXcoo2csr", "base=5", cusparseXcoo2csr(h, d_rows, 6, 4, d_perm, BAD_BASE));
  CASE("cusparseXcoo2csr", "m=0", cusparseXcoo2csr(h, d_rows, 0, 0, d_perm, B0));
  CASE("cusparseXcsr2coo", "handle=NULL", cusparseXcsr2coo(NULL, d_rows, 6, 4, d_perm, B0));
  CASE("cusparseXcsr2coo", "nnz=-1", cusparseXcsr2coo(h, d_rows, -1, 4, d_perm, B0));
  CASE("cusparseXcsr2coo", "m=-1", cusparseXcsr2coo(h, d_rows, 6, -1, d_perm, B0));
  CASE("cusparseXcsr2coo", "base=5", cusparseXcsr2coo(h, d_rows, 6, 4, d_perm, BAD_BASE));
  CASE("cusparseCreateIdentityPermutation", "handle=NULL", cusparseCreateIdentityPermutation(NULL, 6, d_perm));
  CASE("cusparseCreateIdentityPermutation", "n=-1", cusparseCreateIdentityPermutation(h, -1, d_perm));
  CASE("cusparseCreateIdentityPermutation", "n=0", cusparseCreateIdentityPermutation(h, 0, d_perm));
  CASE("cusparseCreateIdentityPermutation", "valid", cusparseCreateIdentityPermutation(h, 6, d_perm));
  int perm[6];
  CHECK(cudaMemcpy(perm, d_perm, sizeof perm, cudaMemcpyDeviceToHost));
  printf("  identity %d %d %d %d %d %d\n", perm[0], perm[1], perm[2], perm[3], perm[4], perm[5]);
  CHECK_SP(cusparseDestroyMatDescr(md));
}

/* Last, since NVIDIA's library may fault on the device for these (which
 * ends the program): a NULL external buffer where one was asked for. */
static void risky() {
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t x, y;
  CHECK_SP(cusparseCreateCsr(&A, 4, 5, 6, d_rows, d_cols, d_vals, I32, I32, B0, F));
  CHECK_SP(cusparseCreateDnVec(&x, 5, d_x, F));
  CHECK_SP(cusparseCreateDnVec(&y, 4, d_y, F));
  float one = 1, zero = 0;
  CASE("cusparseSpMV", "valid buffer=NULL", cusparseSpMV(h, NT, &one, A, x, &zero, y, F, CUSPARSE_SPMV_ALG_DEFAULT, NULL));
  CASE("cusparseCsr2cscEx2", "buffer=NULL",
       cusparseCsr2cscEx2(h, 4, 5, 6, d_vals, d_rows, d_cols, d_vals + 32, d_rows + 32, d_cols + 32, F,
                          CUSPARSE_ACTION_NUMERIC, B0, CUSPARSE_CSR2CSC_ALG1, NULL));
  int *r2, *c2;
  CHECK(cudaMalloc((void **)&r2, 64 * sizeof(int)));
  CHECK(cudaMalloc((void **)&c2, 64 * sizeof(int)));
  CHECK(cudaMemcpy(r2, d_rows, 64 * sizeof(int), cudaMemcpyDeviceToDevice));
  CHECK(cudaMemcpy(c2, d_cols, 64 * sizeof(int), cudaMemcpyDeviceToDevice));
  cusparseMatDescr_t md;
  CHECK_SP(cusparseCreateMatDescr(&md));
  CASE("cusparseXcsrsort", "buffer=NULL", cusparseXcsrsort(h, 4, 5, 6, md, r2, c2, d_perm, NULL));
  CASE("cusparseXcoosortByRow", "buffer=NULL", cusparseXcoosortByRow(h, 4, 5, 6, r2, c2, d_perm, NULL));
  CHECK_SP(cusparseDestroyMatDescr(md));
  cudaFree(r2);
  cudaFree(c2);
  cusparseDestroySpMat(A);
  cusparseDestroyDnVec(x);
  cusparseDestroyDnVec(y);
}

int main() {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_crash;
  sa.sa_flags = SA_NODEFER;
  sigaction(SIGSEGV, &sa, NULL);
  sigaction(SIGBUS, &sa, NULL);
  /* 4 x 5: row 0: (0,0) (0,3); row 1: (1,1); row 2: -; row 3: (3,0) (3,2) (3,4) */
  int rows[64] = {0, 2, 3, 3, 6}, cols[64] = {0, 3, 1, 0, 2, 4};
  float vals[64] = {1, 2, 3, 4, 5, 6};
  /* B (5 x 4) at +16 */
  int brows[6] = {0, 1, 2, 4, 5, 6}, bcols[6] = {0, 2, 1, 3, 0, 2};
  memcpy(rows + 16, brows, sizeof brows);
  memcpy(cols + 16, bcols, sizeof bcols);
  for (int i = 0; i < 6; i++) vals[16 + i] = (float)(i + 1);
  rows[48] = rows[49] = rows[50] = rows[51] = rows[52] = 0;
  CHECK(cudaMalloc((void **)&d_rows, sizeof rows));
  CHECK(cudaMalloc((void **)&d_cols, sizeof cols));
  CHECK(cudaMalloc((void **)&d_perm, sizeof cols));
  CHECK(cudaMalloc((void **)&d_vals, sizeof vals));
  CHECK(cudaMalloc((void **)&d_x, 64 * sizeof(double)));
  CHECK(cudaMalloc((void **)&d_y, 64 * sizeof(double)));
  CHECK(cudaMalloc((void **)&d_dense, 256 * sizeof(double)));
  CHECK(cudaMalloc(&d_buf, 1 << 20));
  CHECK(cudaMemcpy(d_rows, rows, sizeof rows, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_cols, cols, sizeof cols, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_vals, vals, sizeof vals, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_x, 0, 64 * sizeof(double)));
  CHECK(cudaMemset(d_y, 0, 64 * sizeof(double)));
  CHECK(cudaMemset(d_dense, 0, 256 * sizeof(double)));
  CHECK_SP(cusparseCreate(&h));
  handles();
  descriptors();
  operations();
  conversions();
  risky();
  CHECK_SP(cusparseDestroy(h));
  fprintf(stderr, "%d calls\n", lines);
  printf("PASS cusparse_status\n");
  return 0;
}
