/* cpu_lapack.c: the CPU backend's LAPACK calls (backend_lib.h, "LAPACK"),
 * on OpenBLAS's bundled LAPACK (Debian's libopenblas0-pthread), loaded
 * with dlopen on first use like the BLAS part (cpu_blas.c). What LAPACK
 * lacks is here as plain loops: LU without pivoting (cuSOLVER's getrf with
 * a NULL pivot array) and 64-bit pivot arrays (the generic API's ipiv).
 *
 * Process-wide state: the LAPACK table, filled once (lapack_once).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/backend_lib.h"
#include "backend/blas_elem.h"
#include "backend/cpu/cpu_internal.h"
#include "backend/cpu/cpu_lib.h"
#include "platform/dl.h"
#include "platform/thread.h"

/* LAPACK's Fortran interface (hidden string lengths last, as gfortran
 * passes them). Complex arguments are void *. */
typedef void getrf_fn(const int *m, const int *n, void *a, const int *lda, int *ipiv, int *info);
typedef void getrs_fn(const char *tr, const int *n, const int *nrhs, const void *a, const int *lda, const int *ipiv,
                      void *b, const int *ldb, int *info, size_t);
typedef void potrf_fn(const char *uplo, const int *n, void *a, const int *lda, int *info, size_t);
typedef void potrs_fn(const char *uplo, const int *n, const int *nrhs, const void *a, const int *lda, void *b,
                      const int *ldb, int *info, size_t);
typedef void geqrf_fn(const int *m, const int *n, void *a, const int *lda, void *tau, void *work, const int *lwork,
                      int *info);
typedef void orgqr_fn(const int *m, const int *n, const int *k, void *a, const int *lda, const void *tau, void *work,
                      const int *lwork, int *info);
typedef void ormqr_fn(const char *side, const char *tr, const int *m, const int *n, const int *k, const void *a,
                      const int *lda, const void *tau, void *c, const int *ldc, void *work, const int *lwork,
                      int *info, size_t, size_t);
typedef void gesvd_r_fn(const char *ju, const char *jv, const int *m, const int *n, void *a, const int *lda, void *s,
                        void *u, const int *ldu, void *vt, const int *ldvt, void *work, const int *lwork, int *info,
                        size_t, size_t);
typedef void gesvd_c_fn(const char *ju, const char *jv, const int *m, const int *n, void *a, const int *lda, void *s,
                        void *u, const int *ldu, void *vt, const int *ldvt, void *work, const int *lwork, void *rwork,
                        int *info, size_t, size_t);
typedef void syevd_fn(const char *jobz, const char *uplo, const int *n, void *a, const int *lda, void *w, void *work,
                      const int *lwork, int *iwork, const int *liwork, int *info, size_t, size_t);
typedef void heevd_fn(const char *jobz, const char *uplo, const int *n, void *a, const int *lda, void *w, void *work,
                      const int *lwork, void *rwork, const int *lrwork, int *iwork, const int *liwork, int *info,
                      size_t, size_t);

/* Per type S, D, C, Z. */
typedef struct lapack_fns {
    getrf_fn *getrf[4];
    getrs_fn *getrs[4];
    potrf_fn *potrf[4], *potri[4];
    potrs_fn *potrs[4];
    geqrf_fn *geqrf[4];
    orgqr_fn *orgqr[4];
    ormqr_fn *ormqr[4];
    gesvd_r_fn *gesvd_r[2];
    gesvd_c_fn *gesvd_c[2];
    syevd_fn *syevd[2];
    heevd_fn *heevd[2];
} lapack_fns;

static cb_once lapack_once = CB_ONCE_INIT;
static lapack_fns lp;
static int lapack_ok;

static const char *const lapack_libs[] = {"libopenblas.so.0", "libopenblas.so"};

static void *find(const char *lib, const char *name, int *missing)
{
    void *p = cb_dl_library_symbol(lib, name);
    if (!p) {
        cb_log(CB_LOG_ERROR, "OpenBLAS (%s) lacks the LAPACK routine %s", lib, name);
        *missing = 1;
    }
    return p;
}

static void lapack_load(void)
{
    const char *lib = NULL;
    for (size_t i = 0; i < sizeof lapack_libs / sizeof lapack_libs[0] && !lib; i++)
        if (cb_dl_library_symbol(lapack_libs[i], "dgetrf_"))
            lib = lapack_libs[i];
    if (!lib) {
        cb_log(CB_LOG_ERROR, "cannot load OpenBLAS's LAPACK (libopenblas.so.0; Debian: apt-get install "
                                  "libopenblas0-pthread): cuSOLVER calls answer NOT_SUPPORTED");
        return;
    }
    static const char pre[4] = {'s', 'd', 'c', 'z'};
    int missing = 0;
    char name[16];
    for (int i = 0; i < 4; i++) {
        int cx = i >= 2;
#define GET(field, base) (snprintf(name, sizeof name, "%c%s_", pre[i], base), find(lib, name, &missing))
        lp.getrf[i] = (getrf_fn *)GET(getrf, "getrf");
        lp.getrs[i] = (getrs_fn *)GET(getrs, "getrs");
        lp.potrf[i] = (potrf_fn *)GET(potrf, "potrf");
        lp.potri[i] = (potrf_fn *)GET(potri, "potri");
        lp.potrs[i] = (potrs_fn *)GET(potrs, "potrs");
        lp.geqrf[i] = (geqrf_fn *)GET(geqrf, "geqrf");
        lp.orgqr[i] = (orgqr_fn *)GET(orgqr, cx ? "ungqr" : "orgqr");
        lp.ormqr[i] = (ormqr_fn *)GET(ormqr, cx ? "unmqr" : "ormqr");
        if (cx) {
            lp.gesvd_c[i - 2] = (gesvd_c_fn *)GET(gesvd, "gesvd");
            lp.heevd[i - 2] = (heevd_fn *)GET(heevd, "heevd");
        } else {
            lp.gesvd_r[i] = (gesvd_r_fn *)GET(gesvd, "gesvd");
            lp.syevd[i] = (syevd_fn *)GET(syevd, "syevd");
        }
#undef GET
    }
    lapack_ok = !missing;
}

static const lapack_fns *lapack(void)
{
    cb_run_once(&lapack_once, lapack_load);
    return lapack_ok ? &lp : NULL;
}

#define PTR(a) ((void *)(uintptr_t)(a))
#define IDX(i, j, ld) ((size_t)(i) + (size_t)(j) * (size_t)(ld))

/* Sizes fit LAPACK's 32-bit integers; the type is S, D, C or Z. */
static int fits(cb_blas_type t, int64_t a, int64_t b, int64_t c, int64_t d)
{
    const int64_t lim = 0x7fffffff;
    return (unsigned)t <= CB_BLAS_C64 && a <= lim && b <= lim && c <= lim && d <= lim;
}

#define LAPACK_OR_FAIL(L, t, a, b, c, d)                                                                               \
    const lapack_fns *L = lapack();                                                                                    \
    if (!L || !fits(t, a, b, c, d))                                                                                    \
    return CUDA_ERROR_NOT_SUPPORTED

static size_t esize(cb_blas_type t) { return cb_blas_type_size(t); }
static int is_cplx(cb_blas_type t) { return t == CB_BLAS_C32 || t == CB_BLAS_C64; }
static int is_single(cb_blas_type t) { return t == CB_BLAS_F32 || t == CB_BLAS_C32; }

/* The optimal workspace a query (lwork = -1) answered, in elements. */
static int work_of(cb_blas_type t, const void *q)
{
    double v = is_single(t) ? (double)*(const float *)q : *(const double *)q;
    return v < 1 ? 1 : (int)v + 1;
}

static char uplo_ch(int uplo) { return uplo == CB_BLAS_UPPER ? 'U' : 'L'; }
static char trans_ch(int tr) { return tr == CB_BLAS_OP_N ? 'N' : tr == CB_BLAS_OP_T ? 'T' : 'C'; }

/* ---- LU -------------------------------------------------------------------- */

static cb_cplx cmul(cb_cplx a, cb_cplx b) { return (cb_cplx){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }

/* Right-looking LU without row exchanges, in the element type's precision
 * for each operation (as the GPU computes it). */
static int64_t lu_nopivot(cb_blas_type t, int64_t m, int64_t n, void *a, int64_t lda)
{
    int64_t info = 0, mn = m < n ? m : n;
    for (int64_t k = 0; k < mn; k++) {
        cb_cplx p = cb_blas_load(t, a, IDX(k, k, lda));
        double den = p.re * p.re + p.im * p.im;
        if (den == 0) {
            if (!info)
                info = k + 1;
            continue;
        }
        cb_cplx inv = {p.re / den, -p.im / den};
        for (int64_t i = k + 1; i < m; i++)
            cb_blas_store(t, a, IDX(i, k, lda), cmul(cb_blas_load(t, a, IDX(i, k, lda)), inv));
        for (int64_t j = k + 1; j < n; j++) {
            cb_cplx ukj = cb_blas_load(t, a, IDX(k, j, lda));
            if (ukj.re == 0 && ukj.im == 0)
                continue;
            for (int64_t i = k + 1; i < m; i++) {
                cb_cplx l = cmul(cb_blas_load(t, a, IDX(i, k, lda)), ukj), v = cb_blas_load(t, a, IDX(i, j, lda));
                cb_blas_store(t, a, IDX(i, j, lda), (cb_cplx){v.re - l.re, v.im - l.im});
            }
        }
    }
    return info;
}

static CUresult cpu_getrf(struct cb_backend *be, cb_blas_type t, int64_t m, int64_t n, uint64_t a, int64_t lda,
                          uint64_t pivots, int piv_bytes, int64_t *info)
{
    (void)be;
    LAPACK_OR_FAIL(L, t, m, n, lda, 0);
    *info = 0;
    if (m == 0 || n == 0)
        return CUDA_SUCCESS;
    if (!pivots) {
        *info = lu_nopivot(t, m, n, PTR(a), lda);
        return CUDA_SUCCESS;
    }
    int M = (int)m, N = (int)n, LDA = (int)lda, inf = 0, mn = M < N ? M : N;
    int *piv = piv_bytes == 4 ? (int *)PTR(pivots) : malloc((size_t)mn * sizeof(int));
    if (!piv)
        return CUDA_ERROR_OUT_OF_MEMORY;
    L->getrf[t](&M, &N, PTR(a), &LDA, piv, &inf);
    if (piv_bytes != 4) {
        int64_t *out = PTR(pivots);
        for (int i = 0; i < mn; i++)
            out[i] = piv[i];
        free(piv);
    }
    *info = inf;
    return CUDA_SUCCESS;
}

static CUresult cpu_getrs(struct cb_backend *be, cb_blas_type t, int trans, int64_t n, int64_t nrhs, uint64_t a,
                          int64_t lda, uint64_t pivots, int piv_bytes, uint64_t b, int64_t ldb)
{
    LAPACK_OR_FAIL(L, t, n, nrhs, lda, ldb);
    if (n == 0 || nrhs == 0)
        return CUDA_SUCCESS;
    if (!pivots) {
        /* the factors of an unpivoted LU: two triangular solves */
        static const double one[2] = {1, 0};
        static const float one_f[2] = {1, 0};
        const void *alpha = is_single(t) ? (const void *)one_f : (const void *)one;
        int first = trans == CB_BLAS_OP_N;
        CUresult r = be->lib->trsm(be, t, CB_BLAS_LEFT, first ? CB_BLAS_LOWER : CB_BLAS_UPPER, trans,
                                   first ? CB_BLAS_UNIT : CB_BLAS_NON_UNIT, n, nrhs, alpha, a, lda, b, ldb);
        if (r == CUDA_SUCCESS)
            r = be->lib->trsm(be, t, CB_BLAS_LEFT, first ? CB_BLAS_UPPER : CB_BLAS_LOWER, trans,
                              first ? CB_BLAS_NON_UNIT : CB_BLAS_UNIT, n, nrhs, alpha, a, lda, b, ldb);
        return r;
    }
    int N = (int)n, R = (int)nrhs, LDA = (int)lda, LDB = (int)ldb, inf = 0;
    int *piv = piv_bytes == 4 ? (int *)PTR(pivots) : malloc((size_t)N * sizeof(int));
    if (!piv)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if (piv_bytes != 4) {
        const int64_t *in = PTR(pivots);
        for (int i = 0; i < N; i++)
            piv[i] = (int)in[i];
    }
    char tr = trans_ch(trans);
    L->getrs[t](&tr, &N, &R, PTR(a), &LDA, piv, PTR(b), &LDB, &inf, 1);
    if (piv_bytes != 4)
        free(piv);
    return CUDA_SUCCESS;
}

/* ---- Cholesky ------------------------------------------------------------------ */

static CUresult cpu_potrf(struct cb_backend *be, cb_blas_type t, int uplo, int64_t n, uint64_t a, int64_t lda,
                          int64_t *info)
{
    (void)be;
    LAPACK_OR_FAIL(L, t, n, lda, 0, 0);
    *info = 0;
    if (n == 0)
        return CUDA_SUCCESS;
    int N = (int)n, LDA = (int)lda, inf = 0;
    char u = uplo_ch(uplo);
    L->potrf[t](&u, &N, PTR(a), &LDA, &inf, 1);
    *info = inf;
    return CUDA_SUCCESS;
}

static CUresult cpu_potrs(struct cb_backend *be, cb_blas_type t, int uplo, int64_t n, int64_t nrhs, uint64_t a,
                          int64_t lda, uint64_t b, int64_t ldb)
{
    (void)be;
    LAPACK_OR_FAIL(L, t, n, nrhs, lda, ldb);
    if (n == 0 || nrhs == 0)
        return CUDA_SUCCESS;
    int N = (int)n, R = (int)nrhs, LDA = (int)lda, LDB = (int)ldb, inf = 0;
    char u = uplo_ch(uplo);
    L->potrs[t](&u, &N, &R, PTR(a), &LDA, PTR(b), &LDB, &inf, 1);
    return CUDA_SUCCESS;
}

static CUresult cpu_potri(struct cb_backend *be, cb_blas_type t, int uplo, int64_t n, uint64_t a, int64_t lda,
                          int64_t *info)
{
    (void)be;
    LAPACK_OR_FAIL(L, t, n, lda, 0, 0);
    *info = 0;
    if (n == 0)
        return CUDA_SUCCESS;
    /* On a packed copy: OpenBLAS 0.3.21's cpotri (its clauum) faulted in
     * place on a 7 x 7 matrix with lda 9 in device memory, though not on
     * the same matrix on the stack. */
    size_t es = esize(t), col = (size_t)n * es;
    unsigned char *w = calloc((size_t)n * (size_t)n + 64, es);
    if (!w)
        return CUDA_ERROR_OUT_OF_MEMORY;
    for (int64_t j = 0; j < n; j++)
        memcpy(w + (size_t)j * col, (const unsigned char *)PTR(a) + IDX(0, j, lda) * es, col);
    int N = (int)n, LDN = (int)n, inf = 0;
    char u = uplo_ch(uplo);
    L->potri[t](&u, &N, w, &LDN, &inf, 1);
    if (inf == 0)
        for (int64_t j = 0; j < n; j++)
            memcpy((unsigned char *)PTR(a) + IDX(0, j, lda) * es, w + (size_t)j * col, col);
    free(w);
    *info = inf;
    return CUDA_SUCCESS;
}

/* ---- QR ---------------------------------------------------------------------------- */

static CUresult cpu_geqrf(struct cb_backend *be, cb_blas_type t, int64_t m, int64_t n, uint64_t a, int64_t lda,
                          uint64_t tau)
{
    (void)be;
    LAPACK_OR_FAIL(L, t, m, n, lda, 0);
    if (m == 0 || n == 0)
        return CUDA_SUCCESS;
    int M = (int)m, N = (int)n, LDA = (int)lda, inf = 0, q = -1;
    double query[2];
    L->geqrf[t](&M, &N, PTR(a), &LDA, PTR(tau), query, &q, &inf);
    int lw = work_of(t, query);
    void *work = malloc((size_t)lw * esize(t));
    if (!work)
        return CUDA_ERROR_OUT_OF_MEMORY;
    L->geqrf[t](&M, &N, PTR(a), &LDA, PTR(tau), work, &lw, &inf);
    free(work);
    return CUDA_SUCCESS;
}

static CUresult cpu_orgqr(struct cb_backend *be, cb_blas_type t, int64_t m, int64_t n, int64_t k, uint64_t a,
                          int64_t lda, uint64_t tau)
{
    (void)be;
    LAPACK_OR_FAIL(L, t, m, n, k, lda);
    if (m == 0 || n == 0)
        return CUDA_SUCCESS;
    int M = (int)m, N = (int)n, K = (int)k, LDA = (int)lda, inf = 0, q = -1;
    double query[2];
    L->orgqr[t](&M, &N, &K, PTR(a), &LDA, PTR(tau), query, &q, &inf);
    int lw = work_of(t, query);
    void *work = malloc((size_t)lw * esize(t));
    if (!work)
        return CUDA_ERROR_OUT_OF_MEMORY;
    L->orgqr[t](&M, &N, &K, PTR(a), &LDA, PTR(tau), work, &lw, &inf);
    free(work);
    return CUDA_SUCCESS;
}

static CUresult cpu_ormqr(struct cb_backend *be, cb_blas_type t, int side, int trans, int64_t m, int64_t n, int64_t k,
                          uint64_t a, int64_t lda, uint64_t tau, uint64_t c, int64_t ldc)
{
    (void)be;
    LAPACK_OR_FAIL(L, t, m, n, k, lda > ldc ? lda : ldc);
    if (m == 0 || n == 0 || k == 0)
        return CUDA_SUCCESS;
    int M = (int)m, N = (int)n, K = (int)k, LDA = (int)lda, LDC = (int)ldc, inf = 0, q = -1;
    char sd = side == CB_BLAS_RIGHT ? 'R' : 'L';
    /* LAPACK's real ormqr takes 'T', its complex unmqr 'C': the same operation Q^H */
    char tr = trans == CB_BLAS_OP_N ? 'N' : is_cplx(t) ? 'C' : 'T';
    double query[2];
    L->ormqr[t](&sd, &tr, &M, &N, &K, PTR(a), &LDA, PTR(tau), PTR(c), &LDC, query, &q, &inf, 1, 1);
    int lw = work_of(t, query);
    void *work = malloc((size_t)lw * esize(t));
    if (!work)
        return CUDA_ERROR_OUT_OF_MEMORY;
    L->ormqr[t](&sd, &tr, &M, &N, &K, PTR(a), &LDA, PTR(tau), PTR(c), &LDC, work, &lw, &inf, 1, 1);
    free(work);
    return CUDA_SUCCESS;
}

/* ---- SVD and eigenvalues -------------------------------------------------------------- */

static CUresult cpu_gesvd(struct cb_backend *be, cb_blas_type t, char jobu, char jobvt, int64_t m, int64_t n,
                          uint64_t a, int64_t lda, uint64_t s, uint64_t u, int64_t ldu, uint64_t vt, int64_t ldvt,
                          uint64_t superb, int64_t *info)
{
    (void)be;
    LAPACK_OR_FAIL(L, t, m, n, lda, ldu > ldvt ? ldu : ldvt);
    *info = 0;
    if (m == 0 || n == 0)
        return CUDA_SUCCESS;
    int M = (int)m, N = (int)n, LDA = (int)lda, LDU = (int)(ldu ? ldu : 1), LDVT = (int)(ldvt ? ldvt : 1), inf = 0;
    int q = -1, mn = M < N ? M : N;
    size_t rsize = is_single(t) ? 4 : 8;
    double query[2];
    void *rwork = NULL;
    if (is_cplx(t)) {
        rwork = malloc((size_t)(5 * mn + 1) * rsize);
        if (!rwork)
            return CUDA_ERROR_OUT_OF_MEMORY;
        L->gesvd_c[t - 2](&jobu, &jobvt, &M, &N, PTR(a), &LDA, PTR(s), PTR(u), &LDU, PTR(vt), &LDVT, query, &q, rwork,
                          &inf, 1, 1);
    } else {
        L->gesvd_r[t](&jobu, &jobvt, &M, &N, PTR(a), &LDA, PTR(s), PTR(u), &LDU, PTR(vt), &LDVT, query, &q, &inf, 1, 1);
    }
    int lw = work_of(t, query);
    void *work = malloc((size_t)lw * esize(t));
    if (!work) {
        free(rwork);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (is_cplx(t))
        L->gesvd_c[t - 2](&jobu, &jobvt, &M, &N, PTR(a), &LDA, PTR(s), PTR(u), &LDU, PTR(vt), &LDVT, work, &lw, rwork,
                          &inf, 1, 1);
    else
        L->gesvd_r[t](&jobu, &jobvt, &M, &N, PTR(a), &LDA, PTR(s), PTR(u), &LDU, PTR(vt), &LDVT, work, &lw, &inf, 1, 1);
    *info = inf;
    /* the unconverged superdiagonal: real work(2 : mn), complex rwork(1 : mn - 1) */
    if (superb && inf > 0 && mn > 1)
        memcpy(PTR(superb), is_cplx(t) ? rwork : (char *)work + rsize, (size_t)(mn - 1) * rsize);
    free(work);
    free(rwork);
    return CUDA_SUCCESS;
}

static CUresult cpu_syevd(struct cb_backend *be, cb_blas_type t, int vectors, int uplo, int64_t n, uint64_t a,
                          int64_t lda, uint64_t w, int64_t *info)
{
    (void)be;
    LAPACK_OR_FAIL(L, t, n, lda, 0, 0);
    *info = 0;
    if (n == 0)
        return CUDA_SUCCESS;
    int N = (int)n, LDA = (int)lda, inf = 0, q = -1, iq = 0, rq_n = -1;
    char jz = vectors ? 'V' : 'N', u = uplo_ch(uplo);
    double query[2], rquery[2];
    if (is_cplx(t))
        L->heevd[t - 2](&jz, &u, &N, PTR(a), &LDA, PTR(w), query, &q, rquery, &rq_n, &iq, &q, &inf, 1, 1);
    else
        L->syevd[t](&jz, &u, &N, PTR(a), &LDA, PTR(w), query, &q, &iq, &q, &inf, 1, 1);
    int lw = work_of(t, query), liw = iq < 1 ? 1 : iq;
    int lrw = is_cplx(t) ? work_of(t == CB_BLAS_C32 ? CB_BLAS_F32 : CB_BLAS_F64, rquery) : 0;
    void *work = malloc((size_t)lw * esize(t));
    int *iwork = malloc((size_t)liw * sizeof(int));
    void *rwork = lrw ? malloc((size_t)lrw * (is_single(t) ? 4 : 8)) : NULL;
    if (!work || !iwork || (lrw && !rwork)) {
        free(work);
        free(iwork);
        free(rwork);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (is_cplx(t))
        L->heevd[t - 2](&jz, &u, &N, PTR(a), &LDA, PTR(w), work, &lw, rwork, &lrw, iwork, &liw, &inf, 1, 1);
    else
        L->syevd[t](&jz, &u, &N, PTR(a), &LDA, PTR(w), work, &lw, iwork, &liw, &inf, 1, 1);
    *info = inf;
    free(work);
    free(iwork);
    free(rwork);
    return CUDA_SUCCESS;
}

void cb_cpu_lapack_fill(cb_backend_lib *lib)
{
    lib->lapack_getrf = cpu_getrf;
    lib->lapack_getrs = cpu_getrs;
    lib->lapack_potrf = cpu_potrf;
    lib->lapack_potrs = cpu_potrs;
    lib->lapack_potri = cpu_potri;
    lib->lapack_geqrf = cpu_geqrf;
    lib->lapack_orgqr = cpu_orgqr;
    lib->lapack_ormqr = cpu_ormqr;
    lib->lapack_gesvd = cpu_gesvd;
    lib->lapack_syevd = cpu_syevd;
}
