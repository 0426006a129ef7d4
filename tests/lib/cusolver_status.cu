/* cusolver_status.cu: the statuses and info outputs cuSOLVER's dense API
 * gives for bad and edge-case input, one line per call:
 *
 *     S getrf m=-1: INVALID_VALUE info=unset
 *
 * (info=unset: devInfo kept the sentinel the program wrote before the call;
 * info=N: what the call left there). The lines were recorded on the H200
 * with NVIDIA's libcusolver (cusolver_status.expected); under cubridge the
 * same program must print the same lines. Buffer sizes go to stderr (they
 * are NVIDIA's implementation details, not compared). A call that crashes
 * NVIDIA's library (a host fault) prints CRASH.
 *
 * Each case may leave the device broken (cuSOLVER's getrf with m = -1
 * makes the GPU fault, and cudaErrorIllegalAddress is sticky), so the
 * cases run in child processes: the parent never touches CUDA; it starts
 * `cusolver_status --from K`, which initialises CUDA and runs cases K, K+1,
 * ... (the ones before K are skipped, their set-up still done), announcing
 * each on a pipe before it runs it. When a child dies in a case (a signal,
 * a device fault, a hang past 60 s), the parent prints that case's line
 * (CRASH for SIGSEGV/SIGBUS, "FAULT signal N", or the child's own "then the
 * device failed" line) and starts the next child after it.
 *
 * Build: nvcc -I tests/lib tests/lib/cusolver_status.cu -o cusolver_status -lcusolver -lcublas */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "lib_check.h"
#include "solver_api.h"

static const char *status_name(cusolverStatus_t s) {
  switch (s) {
  case CUSOLVER_STATUS_SUCCESS: return "SUCCESS";
  case CUSOLVER_STATUS_NOT_INITIALIZED: return "NOT_INITIALIZED";
  case CUSOLVER_STATUS_ALLOC_FAILED: return "ALLOC_FAILED";
  case CUSOLVER_STATUS_INVALID_VALUE: return "INVALID_VALUE";
  case CUSOLVER_STATUS_ARCH_MISMATCH: return "ARCH_MISMATCH";
  case CUSOLVER_STATUS_EXECUTION_FAILED: return "EXECUTION_FAILED";
  case CUSOLVER_STATUS_INTERNAL_ERROR: return "INTERNAL_ERROR";
  case CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "MATRIX_TYPE_NOT_SUPPORTED";
  case CUSOLVER_STATUS_NOT_SUPPORTED: return "NOT_SUPPORTED";
  case CUSOLVER_STATUS_INVALID_WORKSPACE: return "INVALID_WORKSPACE";
  default: {
    static char buf[32];
    snprintf(buf, sizeof buf, "status %d", (int)s);
    return buf;
  }
  }
}

static const int SENTINEL = -7777;
static int *d_info;
static int lines = 0;
static int case_no = -1;     /* the current case's number */
static int from_case = 0;    /* the first case this child runs */
static int announce_fd = -1; /* the pipe to the parent */

static void set_sentinel() { CHECK(cudaMemcpy(d_info, &SENTINEL, sizeof(int), cudaMemcpyHostToDevice)); }

/* Tells the parent that case number case_no ("label") starts (or, with
 * label NULL, that every case is done). */
static void announce(const char *prefix, const char *fn, const char *what) {
  char buf[512];
  int n = what ? snprintf(buf, sizeof buf, "S %d %s%s %s\n", case_no, prefix, fn, what) : snprintf(buf, sizeof buf, "Z\n");
  fflush(stdout);
  if (announce_fd >= 0 && write(announce_fd, buf, (size_t)n) != n) exit(3);
  alarm(60);
}

/* Whether the next case runs in this process. */
static bool next_case() { return ++case_no >= from_case; }

static void report(const char *prefix, const char *fn, const char *what, cusolverStatus_t s, bool info) {
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("%s%s %s: %s, then the device failed: %s\n", prefix, fn, what, status_name(s), cudaGetErrorName(e));
    fflush(stdout);
    exit(4);
  }
  printf("%s%s %s: %s", prefix, fn, what, status_name(s));
  if (info) {
    int v;
    CHECK(cudaMemcpy(&v, d_info, sizeof v, cudaMemcpyDeviceToHost));
    if (v == SENTINEL)
      printf(" info=unset");
    else
      printf(" info=%d", v);
  }
  printf("\n");
  fflush(stdout);
  lines++;
}

/* One call: its status (and devInfo when info is true). */
#define CASE(prefix, fn, what, info, call)                                                        \
  do {                                                                                            \
    if (next_case()) {                                                                            \
      set_sentinel();                                                                             \
      announce(prefix, fn, what);                                                                 \
      cusolverStatus_t s_ = (call);                                                               \
      report(prefix, fn, what, s_, info);                                                         \
    }                                                                                             \
  } while (0)

/* Work sizes: stderr only. */
#define SIZE(prefix, fn, what, call, lw)                                                          \
  do {                                                                                            \
    cusolverStatus_t s_ = (call);                                                                 \
    if (case_no + 1 >= from_case) fprintf(stderr, "size %s%s %s: %s lwork=%lld\n", prefix, fn, what, status_name(s_), (long long)(lw)); \
  } while (0)

static cusolverDnHandle_t h;
static const cublasFillMode_t BAD_FILL = (cublasFillMode_t)7;
static const cublasOperation_t BAD_OP = (cublasOperation_t)9;
static const cublasSideMode_t BAD_SIDE = (cublasSideMode_t)5;
static const cusolverEigMode_t BAD_JOBZ = (cusolverEigMode_t)4;
static const cublasFillMode_t L = CUBLAS_FILL_MODE_LOWER, U = CUBLAS_FILL_MODE_UPPER;
static const cublasOperation_t N = CUBLAS_OP_N, TR = CUBLAS_OP_T, CT = CUBLAS_OP_C;
static const cublasSideMode_t LEFT = CUBLAS_SIDE_LEFT;
static const cusolverEigMode_t V = CUSOLVER_EIG_MODE_VECTOR, NOV = CUSOLVER_EIG_MODE_NOVECTOR;

/* A device matrix of n x n (ld 8) set from a host pattern. */
template <class T> struct mat {
  dbuf<T> b;
  mat() : b(8 * 8) {}
  void identity(double scale = 1) {
    for (size_t i = 0; i < b.h.size(); i++) b.h[i] = T_<T>::put(cd(0, 0));
    for (int i = 0; i < 8; i++) b.h[i + i * 8] = T_<T>::put(cd(scale, 0));
    b.up();
  }
  void set(int i, int j, double v) {
    b.h[i + j * 8] = T_<T>::put(cd(v, 0));
    b.up();
  }
  T *d() { return b.d; }
};

template <class T> static void legacy() {
  typedef typename sv_type<T>::R R;
  char p[8];
  snprintf(p, sizeof p, "%s ", sv_type<T>::name());
  mat<T> A, B;
  dbuf<T> work(1 << 16), tau(8);
  dbuf<R> S(8), Wr(8), rw(8);
  dbuf<T> Um(64), VTm(64);
  int *ipiv;
  CHECK(cudaMalloc((void **)&ipiv, 16 * sizeof(int)));
  const int LW = 1 << 16;
  int lw = -1;

  /* ---- getrf / getrs */
  A.identity(2);
  SIZE(p, "getrf_bufferSize", "4x4", getrf_bs(h, 4, 4, A.d(), 8, &lw), lw);
  SIZE(p, "getrf_bufferSize", "64x64", getrf_bs(h, 64, 64, A.d(), 64, &lw), lw);
  CASE(p, "getrf_bufferSize", "handle=NULL", false, getrf_bs(NULL, 4, 4, A.d(), 8, &lw));
  CASE(p, "getrf_bufferSize", "m=-1", false, getrf_bs(h, -1, 4, A.d(), 8, &lw));
  CASE(p, "getrf_bufferSize", "n=-1", false, getrf_bs(h, 4, -1, A.d(), 8, &lw));
  CASE(p, "getrf_bufferSize", "lda=3<m=4", false, getrf_bs(h, 4, 4, A.d(), 3, &lw));
  CASE(p, "getrf_bufferSize", "m=0 n=0 lda=1", false, getrf_bs(h, 0, 0, A.d(), 1, &lw));
  CASE(p, "getrf_bufferSize", "m=0 lda=0", false, getrf_bs(h, 0, 4, A.d(), 0, &lw));
  CASE(p, "getrf", "handle=NULL", true, getrf(NULL, 4, 4, A.d(), 8, work.d, ipiv, d_info));
  CASE(p, "getrf", "m=-1", true, getrf(h, -1, 4, A.d(), 8, work.d, ipiv, d_info));
  CASE(p, "getrf", "n=-1", true, getrf(h, 4, -1, A.d(), 8, work.d, ipiv, d_info));
  CASE(p, "getrf", "lda=3<m=4", true, getrf(h, 4, 4, A.d(), 3, work.d, ipiv, d_info));
  CASE(p, "getrf", "m=0", true, getrf(h, 0, 4, A.d(), 1, work.d, ipiv, d_info));
  CASE(p, "getrf", "n=0", true, getrf(h, 4, 0, A.d(), 8, work.d, ipiv, d_info));
  A.identity(2);
  CASE(p, "getrf", "identity", true, getrf(h, 4, 4, A.d(), 8, work.d, ipiv, d_info));
  A.identity(2);
  CASE(p, "getrf", "identity ipiv=NULL", true, getrf(h, 4, 4, A.d(), 8, work.d, NULL, d_info));
  A.identity(2);
  A.set(1, 1, 0);
  CASE(p, "getrf", "4x4 column 2 zero", true, getrf(h, 4, 4, A.d(), 8, work.d, ipiv, d_info));
  A.identity(2);
  A.set(1, 1, 0);
  A.set(3, 3, 0);
  CASE(p, "getrf", "4x4 columns 2,4 zero", true, getrf(h, 4, 4, A.d(), 8, work.d, ipiv, d_info));
  A.identity(0);
  CASE(p, "getrf", "4x4 zero", true, getrf(h, 4, 4, A.d(), 8, work.d, ipiv, d_info));
  A.identity(2);
  A.set(2, 2, 0);
  CASE(p, "getrf", "6x4 column 3 zero", true, getrf(h, 6, 4, A.d(), 8, work.d, ipiv, d_info));
  A.identity(2);
  A.set(1, 1, 0);
  CASE(p, "getrf", "4x4 column 2 zero ipiv=NULL", true, getrf(h, 4, 4, A.d(), 8, work.d, NULL, d_info));
  A.identity(2);
  A.set(0, 0, 0);
  A.set(1, 0, 1);
  CASE(p, "getrf", "a11=0 ipiv=NULL", true, getrf(h, 4, 4, A.d(), 8, work.d, NULL, d_info));
  A.identity(2);
  getrf(h, 4, 4, A.d(), 8, work.d, ipiv, d_info);
  B.identity(1);
  CASE(p, "getrs", "handle=NULL", true, getrs(NULL, N, 4, 2, A.d(), 8, ipiv, B.d(), 8, d_info));
  CASE(p, "getrs", "trans=9", true, getrs(h, BAD_OP, 4, 2, A.d(), 8, ipiv, B.d(), 8, d_info));
  CASE(p, "getrs", "n=-1", true, getrs(h, N, -1, 2, A.d(), 8, ipiv, B.d(), 8, d_info));
  CASE(p, "getrs", "nrhs=-1", true, getrs(h, N, 4, -1, A.d(), 8, ipiv, B.d(), 8, d_info));
  CASE(p, "getrs", "lda=3<n=4", true, getrs(h, N, 4, 2, A.d(), 3, ipiv, B.d(), 8, d_info));
  CASE(p, "getrs", "ldb=3<n=4", true, getrs(h, N, 4, 2, A.d(), 8, ipiv, B.d(), 3, d_info));
  CASE(p, "getrs", "n=0", true, getrs(h, N, 0, 2, A.d(), 1, ipiv, B.d(), 1, d_info));
  CASE(p, "getrs", "nrhs=0", true, getrs(h, N, 4, 0, A.d(), 8, ipiv, B.d(), 8, d_info));
  CASE(p, "getrs", "trans=T", true, getrs(h, TR, 4, 2, A.d(), 8, ipiv, B.d(), 8, d_info));
  CASE(p, "getrs", "trans=C", true, getrs(h, CT, 4, 2, A.d(), 8, ipiv, B.d(), 8, d_info));
  CASE(p, "getrs", "ipiv=NULL", true, getrs(h, N, 4, 2, A.d(), 8, NULL, B.d(), 8, d_info));

  /* ---- potrf / potrs / potri */
  A.identity(2);
  SIZE(p, "potrf_bufferSize", "4", potrf_bs(h, L, 4, A.d(), 8, &lw), lw);
  SIZE(p, "potrf_bufferSize", "64", potrf_bs(h, L, 64, A.d(), 64, &lw), lw);
  CASE(p, "potrf_bufferSize", "handle=NULL", false, potrf_bs(NULL, L, 4, A.d(), 8, &lw));
  CASE(p, "potrf_bufferSize", "uplo=7", false, potrf_bs(h, BAD_FILL, 4, A.d(), 8, &lw));
  CASE(p, "potrf_bufferSize", "n=-1", false, potrf_bs(h, L, -1, A.d(), 8, &lw));
  CASE(p, "potrf_bufferSize", "lda=3<n=4", false, potrf_bs(h, L, 4, A.d(), 3, &lw));
  CASE(p, "potrf", "handle=NULL", true, potrf(NULL, L, 4, A.d(), 8, work.d, LW, d_info));
  CASE(p, "potrf", "uplo=7", true, potrf(h, BAD_FILL, 4, A.d(), 8, work.d, LW, d_info));
  CASE(p, "potrf", "n=-1", true, potrf(h, L, -1, A.d(), 8, work.d, LW, d_info));
  CASE(p, "potrf", "lda=3<n=4", true, potrf(h, L, 4, A.d(), 3, work.d, LW, d_info));
  CASE(p, "potrf", "n=0", true, potrf(h, L, 0, A.d(), 1, work.d, LW, d_info));
  A.identity(2);
  CASE(p, "potrf", "lwork=0", true, potrf(h, L, 4, A.d(), 8, work.d, 0, d_info));
  A.identity(2);
  CASE(p, "potrf", "lwork=-1", true, potrf(h, L, 4, A.d(), 8, work.d, -1, d_info));
  A.identity(2);
  CASE(p, "potrf", "identity lower", true, potrf(h, L, 4, A.d(), 8, work.d, LW, d_info));
  A.identity(2);
  A.set(2, 2, -1);
  CASE(p, "potrf", "a33=-1 lower", true, potrf(h, L, 4, A.d(), 8, work.d, LW, d_info));
  A.identity(2);
  A.set(2, 2, -1);
  CASE(p, "potrf", "a33=-1 upper", true, potrf(h, U, 4, A.d(), 8, work.d, LW, d_info));
  A.identity(2);
  A.set(1, 1, 0);
  CASE(p, "potrf", "a22=0 lower", true, potrf(h, L, 4, A.d(), 8, work.d, LW, d_info));
  A.identity(2);
  A.set(3, 3, NAN);
  CASE(p, "potrf", "a44=NaN lower", true, potrf(h, L, 4, A.d(), 8, work.d, LW, d_info));
  A.identity(2);
  A.set(1, 0, 3);   /* [[2,3],[3,2]]: leading minor 2 is -5 */
  A.set(0, 1, 3);
  CASE(p, "potrf", "minor 2 negative lower", true, potrf(h, L, 4, A.d(), 8, work.d, LW, d_info));
  A.identity(2);
  A.set(1, 0, 3);
  A.set(0, 1, 3);
  CASE(p, "potrf", "minor 2 negative upper", true, potrf(h, U, 4, A.d(), 8, work.d, LW, d_info));
  A.identity(2);
  potrf(h, L, 4, A.d(), 8, work.d, LW, d_info);
  B.identity(1);
  CASE(p, "potrs", "handle=NULL", true, potrs(NULL, L, 4, 2, A.d(), 8, B.d(), 8, d_info));
  CASE(p, "potrs", "uplo=7", true, potrs(h, BAD_FILL, 4, 2, A.d(), 8, B.d(), 8, d_info));
  CASE(p, "potrs", "n=-1", true, potrs(h, L, -1, 2, A.d(), 8, B.d(), 8, d_info));
  CASE(p, "potrs", "nrhs=-1", true, potrs(h, L, 4, -1, A.d(), 8, B.d(), 8, d_info));
  CASE(p, "potrs", "lda=3<n=4", true, potrs(h, L, 4, 2, A.d(), 3, B.d(), 8, d_info));
  CASE(p, "potrs", "ldb=3<n=4", true, potrs(h, L, 4, 2, A.d(), 8, B.d(), 3, d_info));
  CASE(p, "potrs", "n=0", true, potrs(h, L, 0, 2, A.d(), 1, B.d(), 1, d_info));
  CASE(p, "potrs", "nrhs=0", true, potrs(h, L, 4, 0, A.d(), 8, B.d(), 8, d_info));
  CASE(p, "potrs", "valid", true, potrs(h, L, 4, 2, A.d(), 8, B.d(), 8, d_info));
  SIZE(p, "potri_bufferSize", "4", potri_bs(h, L, 4, A.d(), 8, &lw), lw);
  CASE(p, "potri_bufferSize", "handle=NULL", false, potri_bs(NULL, L, 4, A.d(), 8, &lw));
  CASE(p, "potri_bufferSize", "uplo=7", false, potri_bs(h, BAD_FILL, 4, A.d(), 8, &lw));
  CASE(p, "potri_bufferSize", "n=-1", false, potri_bs(h, L, -1, A.d(), 8, &lw));
  CASE(p, "potri_bufferSize", "lda=3<n=4", false, potri_bs(h, L, 4, A.d(), 3, &lw));
  CASE(p, "potri", "handle=NULL", true, potri(NULL, L, 4, A.d(), 8, work.d, LW, d_info));
  CASE(p, "potri", "uplo=7", true, potri(h, BAD_FILL, 4, A.d(), 8, work.d, LW, d_info));
  CASE(p, "potri", "n=-1", true, potri(h, L, -1, A.d(), 8, work.d, LW, d_info));
  CASE(p, "potri", "lda=3<n=4", true, potri(h, L, 4, A.d(), 3, work.d, LW, d_info));
  CASE(p, "potri", "n=0", true, potri(h, L, 0, A.d(), 1, work.d, LW, d_info));
  A.identity(2);
  CASE(p, "potri", "lwork=0", true, potri(h, L, 4, A.d(), 8, work.d, 0, d_info));
  A.identity(2);
  CASE(p, "potri", "identity", true, potri(h, L, 4, A.d(), 8, work.d, LW, d_info));
  A.identity(2);
  A.set(1, 1, 0);
  CASE(p, "potri", "factor l22=0", true, potri(h, L, 4, A.d(), 8, work.d, LW, d_info));
  A.identity(2);
  A.set(3, 3, 0);
  CASE(p, "potri", "factor u44=0 upper", true, potri(h, U, 4, A.d(), 8, work.d, LW, d_info));

  /* ---- geqrf / orgqr / ormqr */
  A.identity(2);
  SIZE(p, "geqrf_bufferSize", "4x4", geqrf_bs(h, 4, 4, A.d(), 8, &lw), lw);
  SIZE(p, "geqrf_bufferSize", "64x32", geqrf_bs(h, 64, 32, A.d(), 64, &lw), lw);
  CASE(p, "geqrf_bufferSize", "handle=NULL", false, geqrf_bs(NULL, 4, 4, A.d(), 8, &lw));
  CASE(p, "geqrf_bufferSize", "m=-1", false, geqrf_bs(h, -1, 4, A.d(), 8, &lw));
  CASE(p, "geqrf_bufferSize", "n=-1", false, geqrf_bs(h, 4, -1, A.d(), 8, &lw));
  CASE(p, "geqrf_bufferSize", "lda=3<m=4", false, geqrf_bs(h, 4, 4, A.d(), 3, &lw));
  CASE(p, "geqrf", "handle=NULL", true, geqrf(NULL, 4, 4, A.d(), 8, tau.d, work.d, LW, d_info));
  CASE(p, "geqrf", "m=-1", true, geqrf(h, -1, 4, A.d(), 8, tau.d, work.d, LW, d_info));
  CASE(p, "geqrf", "n=-1", true, geqrf(h, 4, -1, A.d(), 8, tau.d, work.d, LW, d_info));
  CASE(p, "geqrf", "lda=3<m=4", true, geqrf(h, 4, 4, A.d(), 3, tau.d, work.d, LW, d_info));
  CASE(p, "geqrf", "m=0", true, geqrf(h, 0, 4, A.d(), 1, tau.d, work.d, LW, d_info));
  CASE(p, "geqrf", "n=0", true, geqrf(h, 4, 0, A.d(), 8, tau.d, work.d, LW, d_info));
  A.identity(2);
  CASE(p, "geqrf", "lwork=0", true, geqrf(h, 4, 4, A.d(), 8, tau.d, work.d, 0, d_info));
  A.identity(2);
  CASE(p, "geqrf", "3x5", true, geqrf(h, 3, 5, A.d(), 8, tau.d, work.d, LW, d_info));
  A.identity(2);
  CASE(p, "geqrf", "6x4", true, geqrf(h, 6, 4, A.d(), 8, tau.d, work.d, LW, d_info));
  SIZE(p, "orgqr_bufferSize", "6x4 k=4", orgqr_bs(h, 6, 4, 4, A.d(), 8, tau.d, &lw), lw);
  CASE(p, "orgqr_bufferSize", "handle=NULL", false, orgqr_bs(NULL, 6, 4, 4, A.d(), 8, tau.d, &lw));
  CASE(p, "orgqr_bufferSize", "m=-1", false, orgqr_bs(h, -1, 4, 4, A.d(), 8, tau.d, &lw));
  CASE(p, "orgqr_bufferSize", "n=5>m=4", false, orgqr_bs(h, 4, 5, 4, A.d(), 8, tau.d, &lw));
  CASE(p, "orgqr_bufferSize", "k=5>n=4", false, orgqr_bs(h, 6, 4, 5, A.d(), 8, tau.d, &lw));
  CASE(p, "orgqr_bufferSize", "k=-1", false, orgqr_bs(h, 6, 4, -1, A.d(), 8, tau.d, &lw));
  CASE(p, "orgqr_bufferSize", "lda=5<m=6", false, orgqr_bs(h, 6, 4, 4, A.d(), 5, tau.d, &lw));
  CASE(p, "orgqr", "handle=NULL", true, orgqr(NULL, 6, 4, 4, A.d(), 8, tau.d, work.d, LW, d_info));
  CASE(p, "orgqr", "m=-1", true, orgqr(h, -1, 4, 4, A.d(), 8, tau.d, work.d, LW, d_info));
  CASE(p, "orgqr", "n=5>m=4", true, orgqr(h, 4, 5, 4, A.d(), 8, tau.d, work.d, LW, d_info));
  CASE(p, "orgqr", "k=5>n=4", true, orgqr(h, 6, 4, 5, A.d(), 8, tau.d, work.d, LW, d_info));
  CASE(p, "orgqr", "k=-1", true, orgqr(h, 6, 4, -1, A.d(), 8, tau.d, work.d, LW, d_info));
  CASE(p, "orgqr", "lda=5<m=6", true, orgqr(h, 6, 4, 4, A.d(), 5, tau.d, work.d, LW, d_info));
  CASE(p, "orgqr", "lwork=0", true, orgqr(h, 6, 4, 4, A.d(), 8, tau.d, work.d, 0, d_info));
  CASE(p, "orgqr", "n=0 k=0", true, orgqr(h, 6, 0, 0, A.d(), 8, tau.d, work.d, LW, d_info));
  CASE(p, "orgqr", "k=0", true, orgqr(h, 6, 4, 0, A.d(), 8, tau.d, work.d, LW, d_info));
  A.identity(2);
  geqrf(h, 6, 4, A.d(), 8, tau.d, work.d, LW, d_info);
  B.identity(1);
  cublasOperation_t Q_T = T_<T>::cplx ? CT : TR, Q_WRONG = T_<T>::cplx ? TR : CT;
  SIZE(p, "ormqr_bufferSize", "left 6x3 k=4", ormqr_bs(h, LEFT, Q_T, 6, 3, 4, A.d(), 8, tau.d, B.d(), 8, &lw), lw);
  CASE(p, "ormqr_bufferSize", "handle=NULL", false, ormqr_bs(NULL, LEFT, Q_T, 6, 3, 4, A.d(), 8, tau.d, B.d(), 8, &lw));
  CASE(p, "ormqr_bufferSize", "side=5", false, ormqr_bs(h, BAD_SIDE, Q_T, 6, 3, 4, A.d(), 8, tau.d, B.d(), 8, &lw));
  CASE(p, "ormqr_bufferSize", "trans=9", false, ormqr_bs(h, LEFT, BAD_OP, 6, 3, 4, A.d(), 8, tau.d, B.d(), 8, &lw));
  CASE(p, "ormqr_bufferSize", "trans=other", false, ormqr_bs(h, LEFT, Q_WRONG, 6, 3, 4, A.d(), 8, tau.d, B.d(), 8, &lw));
  CASE(p, "ormqr_bufferSize", "m=-1", false, ormqr_bs(h, LEFT, Q_T, -1, 3, 4, A.d(), 8, tau.d, B.d(), 8, &lw));
  CASE(p, "ormqr_bufferSize", "k=7>m=6", false, ormqr_bs(h, LEFT, Q_T, 6, 3, 7, A.d(), 8, tau.d, B.d(), 8, &lw));
  CASE(p, "ormqr_bufferSize", "ldc=5<m=6", false, ormqr_bs(h, LEFT, Q_T, 6, 3, 4, A.d(), 8, tau.d, B.d(), 5, &lw));
  CASE(p, "ormqr", "handle=NULL", true, ormqr(NULL, LEFT, Q_T, 6, 3, 4, A.d(), 8, tau.d, B.d(), 8, work.d, LW, d_info));
  CASE(p, "ormqr", "side=5", true, ormqr(h, BAD_SIDE, Q_T, 6, 3, 4, A.d(), 8, tau.d, B.d(), 8, work.d, LW, d_info));
  CASE(p, "ormqr", "trans=9", true, ormqr(h, LEFT, BAD_OP, 6, 3, 4, A.d(), 8, tau.d, B.d(), 8, work.d, LW, d_info));
  CASE(p, "ormqr", "trans=other", true, ormqr(h, LEFT, Q_WRONG, 6, 3, 4, A.d(), 8, tau.d, B.d(), 8, work.d, LW, d_info));
  CASE(p, "ormqr", "m=-1", true, ormqr(h, LEFT, Q_T, -1, 3, 4, A.d(), 8, tau.d, B.d(), 8, work.d, LW, d_info));
  CASE(p, "ormqr", "n=-1", true, ormqr(h, LEFT, Q_T, 6, -1, 4, A.d(), 8, tau.d, B.d(), 8, work.d, LW, d_info));
  CASE(p, "ormqr", "k=7>m=6", true, ormqr(h, LEFT, Q_T, 6, 3, 7, A.d(), 8, tau.d, B.d(), 8, work.d, LW, d_info));
  CASE(p, "ormqr", "lda=5<m=6", true, ormqr(h, LEFT, Q_T, 6, 3, 4, A.d(), 5, tau.d, B.d(), 8, work.d, LW, d_info));
  CASE(p, "ormqr", "ldc=5<m=6", true, ormqr(h, LEFT, Q_T, 6, 3, 4, A.d(), 8, tau.d, B.d(), 5, work.d, LW, d_info));
  CASE(p, "ormqr", "lwork=0", true, ormqr(h, LEFT, Q_T, 6, 3, 4, A.d(), 8, tau.d, B.d(), 8, work.d, 0, d_info));
  CASE(p, "ormqr", "right k=3 n=3", true, ormqr(h, CUBLAS_SIDE_RIGHT, N, 6, 3, 3, A.d(), 8, tau.d, B.d(), 8, work.d, LW, d_info));
  CASE(p, "ormqr", "n=0", true, ormqr(h, LEFT, N, 6, 0, 4, A.d(), 8, tau.d, B.d(), 8, work.d, LW, d_info));

  /* ---- gesvd */
  SIZE(p, "gesvd_bufferSize", "6x4", gesvd_bs(h, 6, 4, (T *)0, &lw), lw);
  SIZE(p, "gesvd_bufferSize", "64x64", gesvd_bs(h, 64, 64, (T *)0, &lw), lw);
  CASE(p, "gesvd_bufferSize", "handle=NULL", false, gesvd_bs(NULL, 6, 4, (T *)0, &lw));
  CASE(p, "gesvd_bufferSize", "m=-1", false, gesvd_bs(h, -1, 4, (T *)0, &lw));
  CASE(p, "gesvd_bufferSize", "n=-1", false, gesvd_bs(h, 6, -1, (T *)0, &lw));
  CASE(p, "gesvd_bufferSize", "m=3<n=5", false, gesvd_bs(h, 3, 5, (T *)0, &lw));
  A.identity(2);
#define SVD(what, ju, jv, m, n, lda, ldu, ldvt, lwk) \
  CASE(p, "gesvd", what, true, gesvd(h, ju, jv, m, n, A.d(), lda, S.d, Um.d, ldu, VTm.d, ldvt, work.d, lwk, rw.d, d_info))
  CASE(p, "gesvd", "handle=NULL", true, gesvd(NULL, 'A', 'A', 6, 4, A.d(), 8, S.d, Um.d, 8, VTm.d, 8, work.d, LW, rw.d, d_info));
  SVD("jobu=X", 'X', 'A', 6, 4, 8, 8, 8, LW);
  SVD("jobvt=X", 'A', 'X', 6, 4, 8, 8, 8, LW);
  SVD("jobu=O jobvt=O", 'O', 'O', 6, 4, 8, 8, 8, LW);
  SVD("m=-1", 'A', 'A', -1, 4, 8, 8, 8, LW);
  SVD("n=-1", 'A', 'A', 6, -1, 8, 8, 8, LW);
  SVD("m=3<n=5", 'A', 'A', 3, 5, 8, 8, 8, LW);
  SVD("lda=5<m=6", 'A', 'A', 6, 4, 5, 8, 8, LW);
  SVD("ldu=5<m=6 jobu=A", 'A', 'A', 6, 4, 8, 5, 8, LW);
  SVD("ldu=1 jobu=N", 'N', 'A', 6, 4, 8, 1, 8, LW);
  SVD("ldvt=3<n=4 jobvt=A", 'A', 'A', 6, 4, 8, 8, 3, LW);
  SVD("ldvt=1 jobvt=N", 'A', 'N', 6, 4, 8, 8, 1, LW);
  SVD("lwork=0", 'A', 'A', 6, 4, 8, 8, 8, 0);
  SVD("m=0 n=0", 'A', 'A', 0, 0, 1, 1, 1, LW);
  A.identity(2);
  SVD("jobu=N jobvt=N", 'N', 'N', 6, 4, 8, 1, 1, LW);
  A.identity(2);
  SVD("jobu=S jobvt=S", 'S', 'S', 6, 4, 8, 8, 8, LW);
  A.identity(2);
  SVD("jobu=O jobvt=A", 'O', 'A', 6, 4, 8, 1, 8, LW);

  /* ---- syevd / heevd */
  A.identity(2);
  SIZE(p, "syevd_bufferSize", "4 V", syevd_bs(h, V, L, 4, A.d(), 8, Wr.d, &lw), lw);
  SIZE(p, "syevd_bufferSize", "64 V", syevd_bs(h, V, L, 64, A.d(), 64, Wr.d, &lw), lw);
  SIZE(p, "syevd_bufferSize", "64 N", syevd_bs(h, NOV, L, 64, A.d(), 64, Wr.d, &lw), lw);
  CASE(p, "syevd_bufferSize", "handle=NULL", false, syevd_bs(NULL, V, L, 4, A.d(), 8, Wr.d, &lw));
  CASE(p, "syevd_bufferSize", "jobz=4", false, syevd_bs(h, BAD_JOBZ, L, 4, A.d(), 8, Wr.d, &lw));
  CASE(p, "syevd_bufferSize", "uplo=7", false, syevd_bs(h, V, BAD_FILL, 4, A.d(), 8, Wr.d, &lw));
  CASE(p, "syevd_bufferSize", "n=-1", false, syevd_bs(h, V, L, -1, A.d(), 8, Wr.d, &lw));
  CASE(p, "syevd_bufferSize", "lda=3<n=4", false, syevd_bs(h, V, L, 4, A.d(), 3, Wr.d, &lw));
  CASE(p, "syevd", "handle=NULL", true, syevd(NULL, V, L, 4, A.d(), 8, Wr.d, work.d, LW, d_info));
  CASE(p, "syevd", "jobz=4", true, syevd(h, BAD_JOBZ, L, 4, A.d(), 8, Wr.d, work.d, LW, d_info));
  CASE(p, "syevd", "uplo=7", true, syevd(h, V, BAD_FILL, 4, A.d(), 8, Wr.d, work.d, LW, d_info));
  CASE(p, "syevd", "n=-1", true, syevd(h, V, L, -1, A.d(), 8, Wr.d, work.d, LW, d_info));
  CASE(p, "syevd", "lda=3<n=4", true, syevd(h, V, L, 4, A.d(), 3, Wr.d, work.d, LW, d_info));
  CASE(p, "syevd", "lwork=0", true, syevd(h, V, L, 4, A.d(), 8, Wr.d, work.d, 0, d_info));
  CASE(p, "syevd", "n=0", true, syevd(h, V, L, 0, A.d(), 1, Wr.d, work.d, LW, d_info));
  A.identity(2);
  CASE(p, "syevd", "identity upper", true, syevd(h, V, U, 4, A.d(), 8, Wr.d, work.d, LW, d_info));
  A.identity(2);
  CASE(p, "syevd", "identity N", true, syevd(h, NOV, L, 4, A.d(), 8, Wr.d, work.d, LW, d_info));
  cudaFree(ipiv);
}

/* The 64-bit generic API: the same rules plus the data types. */
static void generic() {
  const char *p = "";
  mat<float> A;
  mat<double> Ad;
  dbuf<float> W(8), tau(8), S(8), Um(64), VTm(64);
  struct raw {
    void *d;
    raw() { CHECK(cudaMalloc(&d, 1 << 20)); }
    ~raw() { cudaFree(d); }
  } work;
  int64_t *ipiv;
  CHECK(cudaMalloc((void **)&ipiv, 16 * sizeof(int64_t)));
  std::vector<char> hwork(1 << 20);
  size_t dw = 0, hw = 0, DW = 1 << 20, HW = 1 << 20;
  cusolverDnParams_t prm;
  CASE(p, "cusolverDnCreateParams", "params=NULL", false, cusolverDnCreateParams(NULL));
  CASE(p, "cusolverDnDestroyParams", "params=NULL", false, cusolverDnDestroyParams(NULL));
  CHECK_SOLVER(cusolverDnCreateParams(&prm));
  CASE(p, "cusolverDnSetAdvOptions", "GETRF ALG_0", false, cusolverDnSetAdvOptions(prm, CUSOLVERDN_GETRF, CUSOLVER_ALG_0));
  CASE(p, "cusolverDnSetAdvOptions", "GETRF ALG_1", false, cusolverDnSetAdvOptions(prm, CUSOLVERDN_GETRF, CUSOLVER_ALG_1));
  CASE(p, "cusolverDnSetAdvOptions", "POTRF ALG_1", false, cusolverDnSetAdvOptions(prm, CUSOLVERDN_POTRF, CUSOLVER_ALG_1));
  CASE(p, "cusolverDnSetAdvOptions", "GETRF ALG_2", false, cusolverDnSetAdvOptions(prm, CUSOLVERDN_GETRF, CUSOLVER_ALG_2));
  CASE(p, "cusolverDnSetAdvOptions", "function=9", false, cusolverDnSetAdvOptions(prm, (cusolverDnFunction_t)9, CUSOLVER_ALG_0));
  CASE(p, "cusolverDnSetAdvOptions", "params=NULL", false, cusolverDnSetAdvOptions(NULL, CUSOLVERDN_GETRF, CUSOLVER_ALG_0));
  CHECK_SOLVER(cusolverDnSetAdvOptions(prm, CUSOLVERDN_GETRF, CUSOLVER_ALG_0));
  const cudaDataType F = CUDA_R_32F, D = CUDA_R_64F, Hf = CUDA_R_16F, CF = CUDA_C_32F;

  A.identity(2);
  SIZE(p, "cusolverDnXgetrf_bufferSize", "4x4", cusolverDnXgetrf_bufferSize(h, prm, 4, 4, F, A.d(), 8, F, &dw, &hw), dw);
  fprintf(stderr, "  host bytes %zu\n", hw);
#define XGETRF_BS(what, hh, pp, m, n, ta, lda, tc) \
  CASE(p, "cusolverDnXgetrf_bufferSize", what, false, cusolverDnXgetrf_bufferSize(hh, pp, m, n, ta, A.d(), lda, tc, &dw, &hw))
  XGETRF_BS("handle=NULL", NULL, prm, 4, 4, F, 8, F);
  XGETRF_BS("params=NULL", h, NULL, 4, 4, F, 8, F);
  XGETRF_BS("m=-1", h, prm, -1, 4, F, 8, F);
  XGETRF_BS("lda=3<m=4", h, prm, 4, 4, F, 3, F);
  XGETRF_BS("A=R_32F compute=R_64F", h, prm, 4, 4, F, 8, D);
  XGETRF_BS("A=R_64F compute=R_32F", h, prm, 4, 4, D, 8, F);
  XGETRF_BS("A=R_16F compute=R_16F", h, prm, 4, 4, Hf, 8, Hf);
  XGETRF_BS("A=C_32F compute=R_32F", h, prm, 4, 4, CF, 8, F);
#define XGETRF(what, hh, pp, m, n, ta, lda, piv, tc, dwk, hwk) \
  CASE(p, "cusolverDnXgetrf", what, true, cusolverDnXgetrf(hh, pp, m, n, ta, A.d(), lda, piv, tc, work.d, dwk, hwork.data(), hwk, d_info))
  XGETRF("handle=NULL", NULL, prm, 4, 4, F, 8, ipiv, F, DW, HW);
  XGETRF("params=NULL", h, NULL, 4, 4, F, 8, ipiv, F, DW, HW);
  XGETRF("m=-1", h, prm, -1, 4, F, 8, ipiv, F, DW, HW);
  XGETRF("lda=3<m=4", h, prm, 4, 4, F, 3, ipiv, F, DW, HW);
  XGETRF("A=R_32F compute=R_64F", h, prm, 4, 4, F, 8, ipiv, D, DW, HW);
  XGETRF("device bytes=0", h, prm, 4, 4, F, 8, ipiv, F, 0, HW);
  XGETRF("m=0", h, prm, 0, 4, F, 1, ipiv, F, DW, HW);
  A.identity(2);
  A.set(1, 1, 0);
  XGETRF("4x4 column 2 zero", h, prm, 4, 4, F, 8, ipiv, F, DW, HW);
  A.identity(2);
  XGETRF("ipiv=NULL", h, prm, 4, 4, F, 8, (int64_t *)NULL, F, DW, HW);
  A.identity(2);
  cusolverDnXgetrf(h, prm, 4, 4, F, A.d(), 8, ipiv, F, work.d, DW, hwork.data(), HW, d_info);
  mat<float> B;
  B.identity(1);
#define XGETRS(what, hh, pp, tr, n, r, ta, lda, tb, ldb) \
  CASE(p, "cusolverDnXgetrs", what, true, cusolverDnXgetrs(hh, pp, tr, n, r, ta, A.d(), lda, ipiv, tb, B.d(), ldb, d_info))
  XGETRS("handle=NULL", NULL, prm, N, 4, 2, F, 8, F, 8);
  XGETRS("params=NULL", h, NULL, N, 4, 2, F, 8, F, 8);
  XGETRS("trans=9", h, prm, BAD_OP, 4, 2, F, 8, F, 8);
  XGETRS("n=-1", h, prm, N, -1, 2, F, 8, F, 8);
  XGETRS("nrhs=-1", h, prm, N, 4, -1, F, 8, F, 8);
  XGETRS("lda=3<n=4", h, prm, N, 4, 2, F, 3, F, 8);
  XGETRS("ldb=3<n=4", h, prm, N, 4, 2, F, 8, F, 3);
  XGETRS("A=R_32F B=R_64F", h, prm, N, 4, 2, F, 8, D, 8);
  XGETRS("valid", h, prm, N, 4, 2, F, 8, F, 8);

  A.identity(2);
  SIZE(p, "cusolverDnXpotrf_bufferSize", "4", cusolverDnXpotrf_bufferSize(h, prm, L, 4, F, A.d(), 8, F, &dw, &hw), dw);
#define XPOTRF_BS(what, hh, pp, u, n, ta, lda, tc) \
  CASE(p, "cusolverDnXpotrf_bufferSize", what, false, cusolverDnXpotrf_bufferSize(hh, pp, u, n, ta, A.d(), lda, tc, &dw, &hw))
  XPOTRF_BS("handle=NULL", NULL, prm, L, 4, F, 8, F);
  XPOTRF_BS("params=NULL", h, NULL, L, 4, F, 8, F);
  XPOTRF_BS("uplo=7", h, prm, BAD_FILL, 4, F, 8, F);
  XPOTRF_BS("n=-1", h, prm, L, -1, F, 8, F);
  XPOTRF_BS("lda=3<n=4", h, prm, L, 4, F, 3, F);
  XPOTRF_BS("A=R_32F compute=R_64F", h, prm, L, 4, F, 8, D);
#define XPOTRF(what, hh, pp, u, n, ta, lda, tc, dwk) \
  CASE(p, "cusolverDnXpotrf", what, true, cusolverDnXpotrf(hh, pp, u, n, ta, A.d(), lda, tc, work.d, dwk, hwork.data(), HW, d_info))
  XPOTRF("handle=NULL", NULL, prm, L, 4, F, 8, F, DW);
  XPOTRF("params=NULL", h, NULL, L, 4, F, 8, F, DW);
  XPOTRF("uplo=7", h, prm, BAD_FILL, 4, F, 8, F, DW);
  XPOTRF("n=-1", h, prm, L, -1, F, 8, F, DW);
  XPOTRF("lda=3<n=4", h, prm, L, 4, F, 3, F, DW);
  XPOTRF("A=R_32F compute=R_64F", h, prm, L, 4, F, 8, D, DW);
  XPOTRF("device bytes=0", h, prm, L, 4, F, 8, F, 0);
  A.identity(2);
  A.set(2, 2, -1);
  XPOTRF("a33=-1", h, prm, L, 4, F, 8, F, DW);
  A.identity(2);
  cusolverDnXpotrf(h, prm, L, 4, F, A.d(), 8, F, work.d, DW, hwork.data(), HW, d_info);
#define XPOTRS(what, hh, pp, u, n, r, ta, lda, tb, ldb) \
  CASE(p, "cusolverDnXpotrs", what, true, cusolverDnXpotrs(hh, pp, u, n, r, ta, A.d(), lda, tb, B.d(), ldb, d_info))
  XPOTRS("handle=NULL", NULL, prm, L, 4, 2, F, 8, F, 8);
  XPOTRS("uplo=7", h, prm, BAD_FILL, 4, 2, F, 8, F, 8);
  XPOTRS("n=-1", h, prm, L, -1, 2, F, 8, F, 8);
  XPOTRS("nrhs=-1", h, prm, L, 4, -1, F, 8, F, 8);
  XPOTRS("ldb=3<n=4", h, prm, L, 4, 2, F, 8, F, 3);
  XPOTRS("A=R_32F B=R_64F", h, prm, L, 4, 2, F, 8, D, 8);
  XPOTRS("valid", h, prm, L, 4, 2, F, 8, F, 8);

  A.identity(2);
  SIZE(p, "cusolverDnXgeqrf_bufferSize", "6x4", cusolverDnXgeqrf_bufferSize(h, prm, 6, 4, F, A.d(), 8, F, tau.d, F, &dw, &hw), dw);
#define XGEQRF_BS(what, hh, pp, m, n, ta, lda, tt, tc) \
  CASE(p, "cusolverDnXgeqrf_bufferSize", what, false, cusolverDnXgeqrf_bufferSize(hh, pp, m, n, ta, A.d(), lda, tt, tau.d, tc, &dw, &hw))
  XGEQRF_BS("handle=NULL", NULL, prm, 6, 4, F, 8, F, F);
  XGEQRF_BS("m=-1", h, prm, -1, 4, F, 8, F, F);
  XGEQRF_BS("lda=5<m=6", h, prm, 6, 4, F, 5, F, F);
  XGEQRF_BS("tau=R_64F", h, prm, 6, 4, F, 8, D, F);
#define XGEQRF(what, hh, pp, m, n, ta, lda, tt, tc, dwk) \
  CASE(p, "cusolverDnXgeqrf", what, true, cusolverDnXgeqrf(hh, pp, m, n, ta, A.d(), lda, tt, tau.d, tc, work.d, dwk, hwork.data(), HW, d_info))
  XGEQRF("handle=NULL", NULL, prm, 6, 4, F, 8, F, F, DW);
  XGEQRF("m=-1", h, prm, -1, 4, F, 8, F, F, DW);
  XGEQRF("n=-1", h, prm, 6, -1, F, 8, F, F, DW);
  XGEQRF("lda=5<m=6", h, prm, 6, 4, F, 5, F, F, DW);
  XGEQRF("tau=R_64F", h, prm, 6, 4, F, 8, D, F, DW);
  XGEQRF("device bytes=0", h, prm, 6, 4, F, 8, F, F, 0);
  A.identity(2);
  XGEQRF("valid", h, prm, 6, 4, F, 8, F, F, DW);

  A.identity(2);
  SIZE(p, "cusolverDnXsyevd_bufferSize", "4", cusolverDnXsyevd_bufferSize(h, prm, V, L, 4, F, A.d(), 8, F, W.d, F, &dw, &hw), dw);
#define XSYEVD_BS(what, hh, pp, j, u, n, ta, lda, tw, tc) \
  CASE(p, "cusolverDnXsyevd_bufferSize", what, false, cusolverDnXsyevd_bufferSize(hh, pp, j, u, n, ta, A.d(), lda, tw, W.d, tc, &dw, &hw))
  XSYEVD_BS("handle=NULL", NULL, prm, V, L, 4, F, 8, F, F);
  XSYEVD_BS("jobz=4", h, prm, BAD_JOBZ, L, 4, F, 8, F, F);
  XSYEVD_BS("uplo=7", h, prm, V, BAD_FILL, 4, F, 8, F, F);
  XSYEVD_BS("n=-1", h, prm, V, L, -1, F, 8, F, F);
  XSYEVD_BS("lda=3<n=4", h, prm, V, L, 4, F, 3, F, F);
  XSYEVD_BS("W=C_32F", h, prm, V, L, 4, F, 8, CF, F);
  XSYEVD_BS("A=C_32F W=R_32F compute=C_32F", h, prm, V, L, 4, CF, 8, F, CF);
#define XSYEVD(what, hh, pp, j, u, n, ta, lda, tw, tc, dwk) \
  CASE(p, "cusolverDnXsyevd", what, true, cusolverDnXsyevd(hh, pp, j, u, n, ta, A.d(), lda, tw, W.d, tc, work.d, dwk, hwork.data(), HW, d_info))
  XSYEVD("handle=NULL", NULL, prm, V, L, 4, F, 8, F, F, DW);
  XSYEVD("jobz=4", h, prm, BAD_JOBZ, L, 4, F, 8, F, F, DW);
  XSYEVD("n=-1", h, prm, V, L, -1, F, 8, F, F, DW);
  XSYEVD("lda=3<n=4", h, prm, V, L, 4, F, 3, F, F, DW);
  XSYEVD("W=C_32F", h, prm, V, L, 4, F, 8, CF, F, DW);
  XSYEVD("device bytes=0", h, prm, V, L, 4, F, 8, F, F, 0);
  A.identity(2);
  XSYEVD("valid", h, prm, V, L, 4, F, 8, F, F, DW);

  A.identity(2);
  SIZE(p, "cusolverDnXgesvd_bufferSize", "6x4", cusolverDnXgesvd_bufferSize(h, prm, 'A', 'A', 6, 4, F, A.d(), 8, F, S.d, F, Um.d, 8, F, VTm.d, 8, F, &dw, &hw), dw);
#define XGESVD_BS(what, hh, ju, jv, m, n, lda, ts, tc) \
  CASE(p, "cusolverDnXgesvd_bufferSize", what, false, cusolverDnXgesvd_bufferSize(hh, prm, ju, jv, m, n, F, A.d(), lda, ts, S.d, F, Um.d, 8, F, VTm.d, 8, tc, &dw, &hw))
  XGESVD_BS("handle=NULL", NULL, 'A', 'A', 6, 4, 8, F, F);
  XGESVD_BS("jobu=X", h, 'X', 'A', 6, 4, 8, F, F);
  XGESVD_BS("m=3<n=5", h, 'A', 'A', 3, 5, 8, F, F);
  XGESVD_BS("lda=5<m=6", h, 'A', 'A', 6, 4, 5, F, F);
  XGESVD_BS("S=R_64F", h, 'A', 'A', 6, 4, 8, D, F);
#define XGESVD(what, hh, ju, jv, m, n, lda, ts, dwk) \
  CASE(p, "cusolverDnXgesvd", what, true, cusolverDnXgesvd(hh, prm, ju, jv, m, n, F, A.d(), lda, ts, S.d, F, Um.d, 8, F, VTm.d, 8, F, work.d, dwk, hwork.data(), HW, d_info))
  XGESVD("handle=NULL", NULL, 'A', 'A', 6, 4, 8, F, DW);
  XGESVD("jobu=X", h, 'X', 'A', 6, 4, 8, F, DW);
  XGESVD("m=3<n=5", h, 'A', 'A', 3, 5, 8, F, DW);
  XGESVD("lda=5<m=6", h, 'A', 'A', 6, 4, 5, F, DW);
  XGESVD("S=R_64F", h, 'A', 'A', 6, 4, 8, D, DW);
  XGESVD("device bytes=0", h, 'A', 'A', 6, 4, 8, F, 0);
  A.identity(2);
  XGESVD("valid", h, 'A', 'A', 6, 4, 8, F, DW);
  (void)Ad;
  CHECK_SOLVER(cusolverDnDestroyParams(prm));
  cudaFree(ipiv);
}

static void handles() {
  const char *p = "";
  cudaStream_t s = (cudaStream_t)1;
  int v = -1;
  CASE(p, "cusolverDnCreate", "handle=NULL", false, cusolverDnCreate(NULL));
  CASE(p, "cusolverDnDestroy", "handle=NULL", false, cusolverDnDestroy(NULL));
  CASE(p, "cusolverDnSetStream", "handle=NULL", false, cusolverDnSetStream(NULL, 0));
  CASE(p, "cusolverDnGetStream", "handle=NULL", false, cusolverDnGetStream(NULL, &s));
  CASE(p, "cusolverDnGetStream", "stream=NULL", false, cusolverDnGetStream(h, NULL));
  CASE(p, "cusolverGetProperty", "type=9", false, cusolverGetProperty((libraryPropertyType)9, &v));
  CASE(p, "cusolverGetProperty", "value=NULL", false, cusolverGetProperty(MAJOR_VERSION, NULL));
  CASE(p, "cusolverGetVersion", "version=NULL", false, cusolverGetVersion(NULL));
  CASE(p, "cusolverDnSetDeterministicMode", "mode=7", false, cusolverDnSetDeterministicMode(h, (cusolverDeterministicMode_t)7));
  CASE(p, "cusolverDnGetDeterministicMode", "mode=NULL", false, cusolverDnGetDeterministicMode(h, NULL));
  cusolverDnHandle_t h2;
  CHECK_SOLVER(cusolverDnCreate(&h2));
  CHECK_SOLVER(cusolverDnGetStream(h2, &s));
  if (next_case()) {
    printf("cusolverDnGetStream new handle: stream %s\n", s == 0 ? "NULL" : "not NULL");
    fflush(stdout);
  }
  CHECK_SOLVER(cusolverDnDestroy(h2));
}

/* A child: cases from from_case on. */
static int child_main() {
  CHECK(cudaMalloc((void **)&d_info, sizeof(int)));
  CHECK_SOLVER(cusolverDnCreate(&h));
  handles();
  legacy<float>();
  legacy<double>();
  legacy<cuComplex>();
  legacy<cuDoubleComplex>();
  generic();
  CHECK_SOLVER(cusolverDnDestroy(h));
  cudaFree(d_info);
  fprintf(stderr, "%d calls\n", lines);
  announce("", "", NULL);
  return 0;
}

/* The parent: one child after another until one announces the end. */
static int parent_main(const char *self) {
  int from = 0;
  for (int children = 0; children < 1000; children++) {
    int fds[2];
    if (pipe(fds) != 0) return 2;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) return 2;
    if (pid == 0) {
      close(fds[0]);
      char a[16], fd[16];
      snprintf(a, sizeof a, "%d", from);
      snprintf(fd, sizeof fd, "%d", fds[1]);
      execl(self, self, "--from", a, "--fd", fd, (char *)NULL);
      _exit(127);
    }
    close(fds[1]);
    /* The announcements: the last case started, whether all were done. */
    std::string got, last;
    char buf[4096];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) > 0) got.append(buf, (size_t)n);
    close(fds[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    bool done = false;
    int last_no = -1;
    size_t pos = 0;
    while (pos < got.size()) {
      size_t e = got.find('\n', pos);
      if (e == std::string::npos) break;
      std::string l = got.substr(pos, e - pos);
      pos = e + 1;
      if (l == "Z") done = true;
      else if (l.size() > 2 && l[0] == 'S') {
        size_t sp = l.find(' ', 2);
        last_no = atoi(l.c_str() + 2);
        last = l.substr(sp + 1);
      }
    }
    if (done && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
      printf("PASS cusolver_status\n");
      return 0;
    }
    if (last_no < from) {
      fprintf(stderr, "cusolver_status: the child from case %d died before its first case (status %d)\n", from, st);
      return 1;
    }
    if (WIFSIGNALED(st)) {
      int sig = WTERMSIG(st);
      if (sig == SIGSEGV || sig == SIGBUS) printf("%s: CRASH\n", last.c_str());
      else printf("%s: FAULT signal %d\n", last.c_str(), sig);
    } else if (!(WIFEXITED(st) && WEXITSTATUS(st) == 4)) {
      /* exit 4: the child printed the device failure itself */
      printf("%s: FAULT exit %d\n", last.c_str(), WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    }
    fflush(stdout);
    from = last_no + 1;
  }
  return 1;
}

int main(int argc, char **argv) {
  if (argc == 5 && strcmp(argv[1], "--from") == 0 && strcmp(argv[3], "--fd") == 0) {
    from_case = atoi(argv[2]);
    announce_fd = atoi(argv[4]);
    return child_main();
  }
  return parent_main("/proc/self/exe");
}
