/* lib_clblast.c: BLAS levels 1 to 3 of the OpenCL backend's library
 * interface (opencl_lib.h), through CLBlast on the backend's own device,
 * queue and heap buffer.
 *
 * CLBlast (Debian's libclblast1) is opened with dlopen on first use, as the
 * backend opens the ICD loader: libcuda.so.1 links neither. Its C API takes
 * a cl_mem and an offset in elements, which is what a device address is
 * here (heap mode: the heap buffer and address - heap base). Each call
 * enqueues on the backend's queue and waits for CLBlast's event, so it runs
 * to completion on the calling stream worker, as backend_lib.h asks.
 *
 * What CLBlast does not do the way cuBLAS documents is done around it or
 * refused (CUDA_ERROR_NOT_SUPPORTED, which the facades answer as
 * CUBLAS_STATUS_NOT_SUPPORTED), never approximated:
 *   - beta == 0 must not read C: C is zeroed first by our kernel
 *     (lib_kernels.c), then CLBlast adds alpha op(A) op(B) to zeros;
 *   - alpha == 0 or k == 0 must not read A and B: C = beta C by our kernel;
 *   - zero sizes, which CLBlast rejects, return before it is called;
 *   - negative increments: two vectors both negative pair the same
 *     elements as both positive; any other negative increment, an operand
 *     not aligned to its element, the mixed-precision and low-precision types, TF32 rounding and
 *     cuBLASLt epilogues are refused.
 *
 * Process-wide state: the table of CLBlast's entry points, filled once.
 */
#include "backend/opencl/opencl_lib.h"

#ifdef CB_HAVE_CLBLAST

#include <clblast_c.h>
#include <stdlib.h>
#include <string.h>

#include "platform/dl.h"
#include "platform/log.h"
#include "platform/thread.h"

#define CLB_PREC4(X, f) X(S##f) X(D##f) X(C##f) X(Z##f)
#define CLB_FUNCS(X)                                                                                               \
    CLB_PREC4(X, swap) CLB_PREC4(X, scal) CLB_PREC4(X, copy) CLB_PREC4(X, axpy) X(Sdot) X(Ddot) X(Cdotu) X(Zdotu)  \
    X(Cdotc) X(Zdotc) X(Snrm2) X(Dnrm2) X(Scnrm2) X(Dznrm2) X(Sasum) X(Dasum) X(Scasum) X(Dzasum)                  \
    CLB_PREC4(X, gemv) CLB_PREC4(X, gbmv) X(Chemv) X(Zhemv) X(Chbmv) X(Zhbmv) X(Chpmv) X(Zhpmv) X(Ssymv)           \
    X(Dsymv) X(Ssbmv) X(Dsbmv) X(Sspmv) X(Dspmv) CLB_PREC4(X, trmv) CLB_PREC4(X, tbmv) CLB_PREC4(X, tpmv)          \
    CLB_PREC4(X, trsv) CLB_PREC4(X, tbsv) CLB_PREC4(X, tpsv) X(Sger) X(Dger) X(Cgeru) X(Zgeru) X(Cgerc) X(Zgerc)   \
    X(Cher) X(Zher) X(Chpr) X(Zhpr) X(Cher2) X(Zher2) X(Chpr2) X(Zhpr2) X(Ssyr) X(Dsyr) X(Sspr) X(Dspr) X(Ssyr2)   \
    X(Dsyr2) X(Sspr2) X(Dspr2) CLB_PREC4(X, gemm) CLB_PREC4(X, symm) X(Chemm) X(Zhemm) CLB_PREC4(X, syrk)          \
    X(Cherk) X(Zherk) CLB_PREC4(X, syr2k) X(Cher2k) X(Zher2k) CLB_PREC4(X, trmm) CLB_PREC4(X, trsm)                \
    CLB_PREC4(X, omatcopy) CLB_PREC4(X, gemmBatched) CLB_PREC4(X, gemmStridedBatched)

static struct {
#define CLB_FIELD(f) __typeof__(CLBlast##f) *f;
    CLB_FUNCS(CLB_FIELD)
#undef CLB_FIELD
} clb;
static cb_once clb_once = CB_ONCE_INIT;
static int clb_ok;

static void clb_load(void)
{
    const char *lib = "libclblast.so.1";
    if (!cb_dl_library_symbol(lib, "CLBlastSgemm"))
        lib = "libclblast.so";
    if (!cb_dl_library_symbol(lib, "CLBlastSgemm")) {
        cb_log(CB_LOG_ERROR, "cannot load CLBlast (libclblast.so.1; Debian: apt-get install libclblast1): "
                             "library calls on the OpenCL device answer NOT_SUPPORTED");
        return;
    }
#define CLB_RESOLVE(f)                                                                                             \
    if (!(clb.f = (__typeof__(CLBlast##f) *)cb_dl_library_symbol(lib, "CLBlast" #f))) {                            \
        cb_log(CB_LOG_ERROR, "CLBlast (%s) lacks CLBlast%s", lib, #f);                                             \
        return;                                                                                                    \
    }
    CLB_FUNCS(CLB_RESOLVE)
#undef CLB_RESOLVE
    clb_ok = 1;
}

/* A device view and CLBlast, or NOT_SUPPORTED. */
#define CLB_BEGIN(b, v)                                                                                            \
    cb_run_once(&clb_once, clb_load);                                                                              \
    if (!clb_ok)                                                                                                   \
        return CUDA_ERROR_NOT_SUPPORTED;                                                                           \
    ocl_device_view v;                                                                                             \
    ocl_view(b, &v)

static CUresult clb_status(CLBlastStatusCode st)
{
    switch (st) {
    case CLBlastSuccess: return CUDA_SUCCESS;
    case CLBlastTempBufferAllocFailure:
    case CLBlastOpenCLOutOfHostMemory: return CUDA_ERROR_OUT_OF_MEMORY;
    case CLBlastOpenCLOutOfResources: return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
    default:
        /* a mode or size CLBlast refuses (the facade validated the arguments), no half or double
         * precision on the device, a kernel it could not build */
        cb_log(CB_LOG_INFO, "opencl: CLBlast refused a call (status %d): NOT_SUPPORTED", (int)st);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
}

static CUresult clb_done(CLBlastStatusCode st, cl_event ev)
{
    if (st != CLBlastSuccess) {
        if (ev)
            clReleaseEvent(ev);
        return clb_status(st);
    }
    return ev ? ocl_wait(ev) : CUDA_SUCCESS;
}

/* Runs one CLBlast call (its queue and event arguments: QE) into r. */
#define CLB(call)                                                                                                  \
    do {                                                                                                           \
        cl_event ev_ = NULL;                                                                                       \
        cl_command_queue q_ = v.q;                                                                                 \
        CLBlastStatusCode st_ = call;                                                                              \
        r = clb_done(st_, ev_);                                                                                    \
    } while (0)
#define QE &q_, &ev_

/* The element offset of device address a in the heap, for elements of t;
 * -1 when it is outside the heap or not aligned to its element. */
static int elem_off(const ocl_device_view *v, cb_blas_type t, uint64_t a, size_t *off)
{
    uint64_t o = a - v->heap_base, es = cb_blas_type_size(t);
    if (o >= v->heap_size || !es || o % es)
        return -1;
    *off = (size_t)(o / es);
    return 0;
}

#define OFF(var, addr)                                                                                             \
    size_t var;                                                                                                    \
    if (elem_off(&v, t, addr, &var) < 0)                                                                           \
    return CUDA_ERROR_NOT_SUPPORTED

static float F(const void *p) { float f; memcpy(&f, p, 4); return f; }
static double D(const void *p) { double d; memcpy(&d, p, 8); return d; }
static cl_float2 C(const void *p) { cl_float2 c; memcpy(&c, p, 8); return c; }
static cl_double2 Z(const void *p) { cl_double2 z; memcpy(&z, p, 16); return z; }

/* 1 when the host scalar p of type t is re (+ 0i). */
static int scalar_is(cb_blas_type t, const void *p, double re)
{
    switch (t) {
    case CB_BLAS_F32: return F(p) == re;
    case CB_BLAS_F64: return D(p) == re;
    case CB_BLAS_C32: return C(p).s[0] == re && C(p).s[1] == 0;
    case CB_BLAS_C64: return Z(p).s[0] == re && Z(p).s[1] == 0;
    default: return 0;
    }
}


static const unsigned char zero16[16];

static int plain(cb_blas_type t) { return t == CB_BLAS_F32 || t == CB_BLAS_F64 || t == CB_BLAS_C32 || t == CB_BLAS_C64; }

#define PLAIN_OR_REFUSE(t)                                                                                         \
    if (!plain(t))                                                                                                 \
    return CUDA_ERROR_NOT_SUPPORTED

static CLBlastTranspose tr_of(cb_blas_type t, int op)
{
    if (op == CB_BLAS_OP_N)
        return CLBlastTransposeNo;
    return op == CB_BLAS_OP_C && cb_blas_type_complex(t) ? CLBlastTransposeConjugate : CLBlastTransposeYes;
}
static CLBlastTriangle up_of(int uplo) { return uplo == CB_BLAS_UPPER ? CLBlastTriangleUpper : CLBlastTriangleLower; }
static CLBlastDiagonal dg_of(int diag) { return diag == CB_BLAS_UNIT ? CLBlastDiagonalUnit : CLBlastDiagonalNonUnit; }
static CLBlastSide sd_of(int side) { return side == CB_BLAS_RIGHT ? CLBlastSideRight : CLBlastSideLeft; }
#define COL CLBlastLayoutColMajor

/* Two increments for a pairwise level 1 operation: both negative pair the
 * same elements as both positive; 0 when refused. */
static int pair_incs(int64_t *incx, int64_t *incy)
{
    if (*incx < 0 && *incy < 0) {
        *incx = -*incx;
        *incy = -*incy;
    }
    return *incx > 0 && *incy > 0;
}

/* A device scratch of bytes for a reduction's result. */
static CUresult scratch_get(cb_backend *b, size_t bytes, cb_device_mem *m)
{
    return b->mem_alloc(b, bytes, 0, m);
}

/* A vector with a negative increment, staged: its elements in BLAS's order
 * (element i at (n - 1 - i) |inc|) copied to a contiguous scratch, which
 * CLBlast then reads (and writes) with increment 1; stage_out copies a
 * written one back and frees the scratch. */
typedef struct staged {
    cb_device_mem mem;
    int used;
    uint64_t addr;
    int64_t inc, n;
} staged;

static CUresult stage_any(cb_backend *b, cb_blas_type t, int64_t n, uint64_t *addr, int64_t *inc, staged *s, int unit)
{
    s->used = 0;
    if ((unit ? *inc == 1 : *inc > 0) || n <= 0)   /* increment 0 (gemv's x): n copies of x[0] */
        return CUDA_SUCCESS;
    CUresult r = b->mem_alloc(b, (size_t)n * cb_blas_type_size(t), 0, &s->mem);
    if (r != CUDA_SUCCESS)
        return r;
    r = ocl_k_vec(b, t, OCL_VEC_COPY, n, NULL, *addr, *inc, s->mem.addr, 1);
    if (r != CUDA_SUCCESS) {
        b->mem_free(b, &s->mem);
        return r;
    }
    s->used = 1;
    s->addr = *addr;
    s->inc = *inc;
    s->n = n;
    *addr = s->mem.addr;
    *inc = 1;
    return CUDA_SUCCESS;
}

static CUresult stage_in(cb_backend *b, cb_blas_type t, int64_t n, uint64_t *addr, int64_t *inc, staged *s)
{
    return stage_any(b, t, n, addr, inc, s, 0);
}

/* The same for any increment but 1: CLBlast 1.5's reductions (nrm2, asum,
 * amax) give wrong answers for increments other than 1 (its issue #454 for
 * amax), so they read a contiguous copy. */
static CUresult stage_unit(cb_backend *b, cb_blas_type t, int64_t n, uint64_t *addr, int64_t *inc, staged *s)
{
    return stage_any(b, t, n, addr, inc, s, 1);
}

/* Frees a staged vector; written: copies it back first when r is success. */
static CUresult stage_out(cb_backend *b, cb_blas_type t, staged *s, int written, CUresult r)
{
    if (!s->used)
        return r;
    if (written && r == CUDA_SUCCESS)
        r = ocl_k_vec(b, t, OCL_VEC_COPY, s->n, NULL, s->mem.addr, 1, s->addr, s->inc);
    b->mem_free(b, &s->mem);
    s->used = 0;
    return r;
}

/* ---- level 1 ------------------------------------------------------------------------------------------------ */

static CUresult clb_axpy(cb_backend *b, cb_blas_type t, int64_t n, const void *alpha, uint64_t x, int64_t incx,
                         uint64_t y, int64_t incy)
{
    PLAIN_OR_REFUSE(t);
    if (n <= 0 || scalar_is(t, alpha, 0))
        return CUDA_SUCCESS;
    if (!pair_incs(&incx, &incy))   /* one increment negative: our kernel */
        return ocl_k_vec(b, t, OCL_VEC_AXPY, n, alpha, x, incx, y, incy);
    CLB_BEGIN(b, v);
    OFF(xo, x);
    OFF(yo, y);
    CUresult r = CUDA_ERROR_NOT_SUPPORTED;
    switch (t) {
    case CB_BLAS_F32: CLB(clb.Saxpy(n, F(alpha), v.heap, xo, incx, v.heap, yo, incy, QE)); break;
    case CB_BLAS_F64: CLB(clb.Daxpy(n, D(alpha), v.heap, xo, incx, v.heap, yo, incy, QE)); break;
    case CB_BLAS_C32: CLB(clb.Caxpy(n, C(alpha), v.heap, xo, incx, v.heap, yo, incy, QE)); break;
    case CB_BLAS_C64: CLB(clb.Zaxpy(n, Z(alpha), v.heap, xo, incx, v.heap, yo, incy, QE)); break;
    default: break;
    }
    return r;
}

static CUresult clb_scal(cb_backend *b, cb_blas_type t, int64_t n, const void *alpha, int alpha_real, uint64_t x,
                         int64_t incx)
{
    PLAIN_OR_REFUSE(t);
    if (n <= 0 || incx <= 0)
        return CUDA_SUCCESS;   /* as BLAS: a negative increment does nothing */
    CLB_BEGIN(b, v);
    OFF(xo, x);
    CUresult r = CUDA_ERROR_NOT_SUPPORTED;
    /* Csscal / Zdscal: the real scal over both parts when contiguous (exactly
     * what a real scale does); else the complex scal by (alpha, 0) */
    unsigned char ca[16] = {0};
    if (alpha_real && cb_blas_type_complex(t)) {
        if (incx == 1) {
            if (t == CB_BLAS_C32)
                CLB(clb.Sscal(2 * n, F(alpha), v.heap, 2 * xo, 1, QE));
            else
                CLB(clb.Dscal(2 * n, D(alpha), v.heap, 2 * xo, 1, QE));
            return r;
        }
        memcpy(ca, alpha, cb_blas_type_size(cb_blas_type_real(t)));
        alpha = ca;
    }
    switch (t) {
    case CB_BLAS_F32: CLB(clb.Sscal(n, F(alpha), v.heap, xo, incx, QE)); break;
    case CB_BLAS_F64: CLB(clb.Dscal(n, D(alpha), v.heap, xo, incx, QE)); break;
    case CB_BLAS_C32: CLB(clb.Cscal(n, C(alpha), v.heap, xo, incx, QE)); break;
    case CB_BLAS_C64: CLB(clb.Zscal(n, Z(alpha), v.heap, xo, incx, QE)); break;
    default: break;
    }
    return r;
}

static CUresult clb_copy_swap(cb_backend *b, int swap, cb_blas_type t, int64_t n, uint64_t x, int64_t incx,
                              uint64_t y, int64_t incy)
{
    PLAIN_OR_REFUSE(t);
    if (n <= 0)
        return CUDA_SUCCESS;
    if (!pair_incs(&incx, &incy))
        return ocl_k_vec(b, t, swap ? OCL_VEC_SWAP : OCL_VEC_COPY, n, NULL, x, incx, y, incy);
    CLB_BEGIN(b, v);
    OFF(xo, x);
    OFF(yo, y);
    CUresult r = CUDA_ERROR_NOT_SUPPORTED;
#define CS(P) swap ? clb.P##swap(n, v.heap, xo, incx, v.heap, yo, incy, QE) : clb.P##copy(n, v.heap, xo, incx, v.heap, yo, incy, QE)
    switch (t) {
    case CB_BLAS_F32: CLB(CS(S)); break;
    case CB_BLAS_F64: CLB(CS(D)); break;
    case CB_BLAS_C32: CLB(CS(C)); break;
    case CB_BLAS_C64: CLB(CS(Z)); break;
    default: break;
    }
#undef CS
    return r;
}

static CUresult clb_copy(cb_backend *b, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, uint64_t y, int64_t incy)
{
    return clb_copy_swap(b, 0, t, n, x, incx, y, incy);
}

static CUresult clb_swap(cb_backend *b, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, uint64_t y, int64_t incy)
{
    return clb_copy_swap(b, 1, t, n, x, incx, y, incy);
}

/* Reads the reduction's result (bytes) from the scratch and frees it. */
static CUresult scratch_result(cb_backend *b, CUresult r, cb_device_mem *m, void *out, size_t bytes)
{
    if (r == CUDA_SUCCESS)
        r = b->copy_dtoh(b, out, m->addr, bytes);
    b->mem_free(b, m);
    return r;
}

static CUresult clb_dot_pos(cb_backend *b, cb_blas_type t, int conj, int64_t n, uint64_t x, int64_t incx, uint64_t y,
                            int64_t incy, void *result);

static CUresult clb_dot(cb_backend *b, cb_blas_type t, int conj, int64_t n, uint64_t x, int64_t incx, uint64_t y,
                        int64_t incy, void *result)
{
    PLAIN_OR_REFUSE(t);
    size_t es = cb_blas_type_size(t);
    memset(result, 0, es);
    if (n <= 0)
        return CUDA_SUCCESS;
    staged sx = {.used = 0}, sy = {.used = 0};
    (void)pair_incs(&incx, &incy);   /* both negative: both positive; one negative: staged in BLAS's order */
    CUresult r = stage_unit(b, t, n, &x, &incx, &sx);   /* and any increment but 1 (stage_unit) */
    if (r == CUDA_SUCCESS)
        r = stage_unit(b, t, n, &y, &incy, &sy);
    if (r != CUDA_SUCCESS)
        return stage_out(b, t, &sx, 0, r);
    r = clb_dot_pos(b, t, conj, n, x, incx, y, incy, result);
    r = stage_out(b, t, &sy, 0, r);
    return stage_out(b, t, &sx, 0, r);
}

static CUresult clb_dot_pos(cb_backend *b, cb_blas_type t, int conj, int64_t n, uint64_t x, int64_t incx, uint64_t y,
                            int64_t incy, void *result)
{
    size_t es = cb_blas_type_size(t);
    CLB_BEGIN(b, v);
    OFF(xo, x);
    OFF(yo, y);
    cb_device_mem m;
    CUresult r = scratch_get(b, 16, &m);
    if (r != CUDA_SUCCESS)
        return r;
    size_t ro = (size_t)((m.addr - v.heap_base) / es);
    switch (t) {
    case CB_BLAS_F32: CLB(clb.Sdot(n, v.heap, ro, v.heap, xo, incx, v.heap, yo, incy, QE)); break;
    case CB_BLAS_F64: CLB(clb.Ddot(n, v.heap, ro, v.heap, xo, incx, v.heap, yo, incy, QE)); break;
    case CB_BLAS_C32:
        if (conj)
            CLB(clb.Cdotc(n, v.heap, ro, v.heap, xo, incx, v.heap, yo, incy, QE));
        else
            CLB(clb.Cdotu(n, v.heap, ro, v.heap, xo, incx, v.heap, yo, incy, QE));
        break;
    case CB_BLAS_C64:
        if (conj)
            CLB(clb.Zdotc(n, v.heap, ro, v.heap, xo, incx, v.heap, yo, incy, QE));
        else
            CLB(clb.Zdotu(n, v.heap, ro, v.heap, xo, incx, v.heap, yo, incy, QE));
        break;
    default: r = CUDA_ERROR_NOT_SUPPORTED; break;
    }
    return scratch_result(b, r, &m, result, es);
}

/* nrm2 (which 0) and asum (1): a real result. */
static CUresult clb_norm(cb_backend *b, int which, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, void *result)
{
    PLAIN_OR_REFUSE(t);
    cb_blas_type rt = cb_blas_type_real(t);
    size_t rs = cb_blas_type_size(rt);
    memset(result, 0, rs);
    if (n <= 0 || incx <= 0)
        return CUDA_SUCCESS;   /* BLAS's answer: 0 */
    if (incx != 1) {
        staged sx;
        CUresult r = stage_unit(b, t, n, &x, &incx, &sx);
        if (r != CUDA_SUCCESS)
            return r;
        return stage_out(b, t, &sx, 0, clb_norm(b, which, t, n, x, incx, result));
    }
    CLB_BEGIN(b, v);
    OFF(xo, x);
    cb_device_mem m;
    CUresult r = scratch_get(b, 16, &m);
    if (r != CUDA_SUCCESS)
        return r;
    /* Scnrm2/Scasum store their real result as an element of the complex type: the offset counts those */
    size_t ro = (size_t)((m.addr - v.heap_base) / cb_blas_type_size(t));
    switch (t) {
    case CB_BLAS_F32:
        CLB(which ? clb.Sasum(n, v.heap, ro, v.heap, xo, incx, QE) : clb.Snrm2(n, v.heap, ro, v.heap, xo, incx, QE));
        break;
    case CB_BLAS_F64:
        CLB(which ? clb.Dasum(n, v.heap, ro, v.heap, xo, incx, QE) : clb.Dnrm2(n, v.heap, ro, v.heap, xo, incx, QE));
        break;
    case CB_BLAS_C32:
        CLB(which ? clb.Scasum(n, v.heap, ro, v.heap, xo, incx, QE)
                  : clb.Scnrm2(n, v.heap, ro, v.heap, xo, incx, QE));
        break;
    case CB_BLAS_C64:
        CLB(which ? clb.Dzasum(n, v.heap, ro, v.heap, xo, incx, QE)
                  : clb.Dznrm2(n, v.heap, ro, v.heap, xo, incx, QE));
        break;
    default: r = CUDA_ERROR_NOT_SUPPORTED; break;
    }
    return scratch_result(b, r, &m, result, rs);
}

static CUresult clb_nrm2(cb_backend *b, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, void *result)
{
    return clb_norm(b, 0, t, n, x, incx, result);
}

static CUresult clb_asum(cb_backend *b, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, void *result)
{
    return clb_norm(b, 1, t, n, x, incx, result);
}

/* iamax/iamin: our kernel (cuBLAS's first extreme of |re| + |im|, 1-based). */
static CUresult clb_iamax(cb_backend *b, cb_blas_type t, int min, int64_t n, uint64_t x, int64_t incx,
                          int64_t *result)
{
    PLAIN_OR_REFUSE(t);
    *result = 0;
    if (n <= 0 || incx <= 0)
        return CUDA_SUCCESS;   /* BLAS's answer: 0 */
    cb_device_mem m;
    CUresult r = scratch_get(b, 16, &m);
    if (r != CUDA_SUCCESS)
        return r;
    r = ocl_k_iamax(b, t, min, n, x, incx, m.addr);
    return scratch_result(b, r, &m, result, 8);
}

/* ---- level 2 ------------------------------------------------------------------------------------------------ */

/* Before a routine that computes y = alpha op(A) x + beta y over len
 * elements of y: alpha == 0 leaves beta y (*done), beta == 0 zeroes y so
 * that it is not read. */
static CUresult beta_vector(cb_backend *b, cb_blas_type t, const void *alpha, const void *beta, int64_t len,
                            uint64_t y, int64_t incy, int *done)
{
    *done = 0;
    if (scalar_is(t, alpha, 0)) {
        *done = 1;
        return scalar_is(t, beta, 1) ? CUDA_SUCCESS : ocl_k_scale(b, t, 1, len, y, incy, beta, 0);
    }
    return scalar_is(t, beta, 0) ? ocl_k_scale(b, t, 1, len, y, incy, zero16, 0) : CUDA_SUCCESS;
}

static CUresult pos_gemv(cb_backend *b, cb_blas_type t, int trans, int64_t m, int64_t n, const void *alpha, uint64_t a,
                         int64_t lda, uint64_t x, int64_t incx, const void *beta, uint64_t y, int64_t incy)
{
    PLAIN_OR_REFUSE(t);
    if (m <= 0 || n <= 0)
        return CUDA_SUCCESS;
    int done;
    CUresult r = beta_vector(b, t, alpha, beta, trans == CB_BLAS_OP_N ? m : n, y, incy, &done);
    if (r != CUDA_SUCCESS || done)
        return r;
    CLB_BEGIN(b, v);
    OFF(ao, a);
    OFF(xo, x);
    OFF(yo, y);
    CLBlastTranspose ta = tr_of(t, trans);
    switch (t) {
    case CB_BLAS_F32: CLB(clb.Sgemv(COL, ta, m, n, F(alpha), v.heap, ao, lda, v.heap, xo, incx, F(beta), v.heap, yo, incy, QE)); break;
    case CB_BLAS_F64: CLB(clb.Dgemv(COL, ta, m, n, D(alpha), v.heap, ao, lda, v.heap, xo, incx, D(beta), v.heap, yo, incy, QE)); break;
    case CB_BLAS_C32: CLB(clb.Cgemv(COL, ta, m, n, C(alpha), v.heap, ao, lda, v.heap, xo, incx, C(beta), v.heap, yo, incy, QE)); break;
    case CB_BLAS_C64: CLB(clb.Zgemv(COL, ta, m, n, Z(alpha), v.heap, ao, lda, v.heap, xo, incx, Z(beta), v.heap, yo, incy, QE)); break;
    default: r = CUDA_ERROR_NOT_SUPPORTED; break;
    }
    return r;
}

/* Level 2 with negative increments: the vectors staged (stage_in). */
#define STAGE2(nx, ny, wy, call)                                                                                   \
    staged sx_, sy_;                                                                                               \
    CUresult r_ = stage_in(b, t, nx, &x, &incx, &sx_);                                                             \
    if (r_ != CUDA_SUCCESS)                                                                                        \
        return r_;                                                                                                 \
    r_ = stage_in(b, t, ny, &y, &incy, &sy_);                                                                      \
    if (r_ == CUDA_SUCCESS) {                                                                                      \
        r_ = call;                                                                                                 \
        r_ = stage_out(b, t, &sy_, wy, r_);                                                                        \
    }                                                                                                              \
    return stage_out(b, t, &sx_, 0, r_)

static CUresult clb_gemv(cb_backend *b, cb_blas_type t, int trans, int64_t m, int64_t n, const void *alpha, uint64_t a,
                         int64_t lda, uint64_t x, int64_t incx, const void *beta, uint64_t y, int64_t incy)
{
    if (m <= 0 || n <= 0)
        return CUDA_SUCCESS;
    int64_t lx = trans == CB_BLAS_OP_N ? n : m, ly = trans == CB_BLAS_OP_N ? m : n;
    STAGE2(lx, ly, 1, pos_gemv(b, t, trans, m, n, alpha, a, lda, x, incx, beta, y, incy));
}

static CUresult pos_gbmv(cb_backend *b, cb_blas_type t, int trans, int64_t m, int64_t n, int64_t kl, int64_t ku,
                         const void *alpha, uint64_t a, int64_t lda, uint64_t x, int64_t incx, const void *beta,
                         uint64_t y, int64_t incy)
{
    PLAIN_OR_REFUSE(t);
    if (m <= 0 || n <= 0)
        return CUDA_SUCCESS;
    int done;
    CUresult r = beta_vector(b, t, alpha, beta, trans == CB_BLAS_OP_N ? m : n, y, incy, &done);
    if (r != CUDA_SUCCESS || done)
        return r;
    CLB_BEGIN(b, v);
    OFF(ao, a);
    OFF(xo, x);
    OFF(yo, y);
    CLBlastTranspose ta = tr_of(t, trans);
    switch (t) {
    case CB_BLAS_F32: CLB(clb.Sgbmv(COL, ta, m, n, kl, ku, F(alpha), v.heap, ao, lda, v.heap, xo, incx, F(beta), v.heap, yo, incy, QE)); break;
    case CB_BLAS_F64: CLB(clb.Dgbmv(COL, ta, m, n, kl, ku, D(alpha), v.heap, ao, lda, v.heap, xo, incx, D(beta), v.heap, yo, incy, QE)); break;
    case CB_BLAS_C32: CLB(clb.Cgbmv(COL, ta, m, n, kl, ku, C(alpha), v.heap, ao, lda, v.heap, xo, incx, C(beta), v.heap, yo, incy, QE)); break;
    case CB_BLAS_C64: CLB(clb.Zgbmv(COL, ta, m, n, kl, ku, Z(alpha), v.heap, ao, lda, v.heap, xo, incx, Z(beta), v.heap, yo, incy, QE)); break;
    default: r = CUDA_ERROR_NOT_SUPPORTED; break;
    }
    return r;
}

static CUresult clb_gbmv(cb_backend *b, cb_blas_type t, int trans, int64_t m, int64_t n, int64_t kl, int64_t ku,
                         const void *alpha, uint64_t a, int64_t lda, uint64_t x, int64_t incx, const void *beta,
                         uint64_t y, int64_t incy)
{
    if (m <= 0 || n <= 0)
        return CUDA_SUCCESS;
    int64_t lx = trans == CB_BLAS_OP_N ? n : m, ly = trans == CB_BLAS_OP_N ? m : n;
    STAGE2(lx, ly, 1, pos_gbmv(b, t, trans, m, n, kl, ku, alpha, a, lda, x, incx, beta, y, incy));
}

/* symv/hemv (form 0), sbmv/hbmv (1, k), spmv/hpmv (2, packed ap). */
static CUresult pos_symv_any(cb_backend *b, int form, cb_blas_type t, int herm, int uplo, int64_t n, int64_t k,
                             const void *alpha, uint64_t a, int64_t lda, uint64_t x, int64_t incx, const void *beta,
                             uint64_t y, int64_t incy)
{
    PLAIN_OR_REFUSE(t);
    if (cb_blas_type_complex(t) && !herm && form != 0)
        return CUDA_ERROR_NOT_SUPPORTED;   /* complex symmetric banded/packed: no such cuBLAS routine */
    if (n <= 0)
        return CUDA_SUCCESS;
    int done;
    CUresult r = beta_vector(b, t, alpha, beta, n, y, incy, &done);
    if (r != CUDA_SUCCESS || done)
        return r;
    if (cb_blas_type_complex(t) && !herm)   /* Csymv/Zsymv: CLBlast has none; our kernel */
        return ocl_k_symv(b, t, uplo, n, alpha, a, lda, x, incx, beta, y, incy);
    CLB_BEGIN(b, v);
    OFF(ao, a);
    OFF(xo, x);
    OFF(yo, y);
    CLBlastTriangle u = up_of(uplo);
    switch (t) {
    case CB_BLAS_F32: CLB(form == 0   ? clb.Ssymv(COL, u, n, F(alpha), v.heap, ao, lda, v.heap, xo, incx, F(beta), v.heap, yo, incy, QE)
                          : form == 1 ? clb.Ssbmv(COL, u, n, k, F(alpha), v.heap, ao, lda, v.heap, xo, incx, F(beta), v.heap, yo, incy, QE)
                                      : clb.Sspmv(COL, u, n, F(alpha), v.heap, ao, v.heap, xo, incx, F(beta), v.heap, yo, incy, QE)); break;
    case CB_BLAS_F64: CLB(form == 0   ? clb.Dsymv(COL, u, n, D(alpha), v.heap, ao, lda, v.heap, xo, incx, D(beta), v.heap, yo, incy, QE)
                          : form == 1 ? clb.Dsbmv(COL, u, n, k, D(alpha), v.heap, ao, lda, v.heap, xo, incx, D(beta), v.heap, yo, incy, QE)
                                      : clb.Dspmv(COL, u, n, D(alpha), v.heap, ao, v.heap, xo, incx, D(beta), v.heap, yo, incy, QE)); break;
    case CB_BLAS_C32: CLB(form == 0   ? clb.Chemv(COL, u, n, C(alpha), v.heap, ao, lda, v.heap, xo, incx, C(beta), v.heap, yo, incy, QE)
                          : form == 1 ? clb.Chbmv(COL, u, n, k, C(alpha), v.heap, ao, lda, v.heap, xo, incx, C(beta), v.heap, yo, incy, QE)
                                      : clb.Chpmv(COL, u, n, C(alpha), v.heap, ao, v.heap, xo, incx, C(beta), v.heap, yo, incy, QE)); break;
    case CB_BLAS_C64: CLB(form == 0   ? clb.Zhemv(COL, u, n, Z(alpha), v.heap, ao, lda, v.heap, xo, incx, Z(beta), v.heap, yo, incy, QE)
                          : form == 1 ? clb.Zhbmv(COL, u, n, k, Z(alpha), v.heap, ao, lda, v.heap, xo, incx, Z(beta), v.heap, yo, incy, QE)
                                      : clb.Zhpmv(COL, u, n, Z(alpha), v.heap, ao, v.heap, xo, incx, Z(beta), v.heap, yo, incy, QE)); break;
    default: r = CUDA_ERROR_NOT_SUPPORTED; break;
    }
    return r;
}

static CUresult clb_symv_any(cb_backend *b, int form, cb_blas_type t, int herm, int uplo, int64_t n, int64_t k,
                             const void *alpha, uint64_t a, int64_t lda, uint64_t x, int64_t incx, const void *beta,
                             uint64_t y, int64_t incy)
{
    STAGE2(n, n, 1, pos_symv_any(b, form, t, herm, uplo, n, k, alpha, a, lda, x, incx, beta, y, incy));
}

static CUresult clb_symv(cb_backend *b, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha, uint64_t a,
                         int64_t lda, uint64_t x, int64_t incx, const void *beta, uint64_t y, int64_t incy)
{
    return clb_symv_any(b, 0, t, herm, uplo, n, 0, alpha, a, lda, x, incx, beta, y, incy);
}

static CUresult clb_sbmv(cb_backend *b, cb_blas_type t, int herm, int uplo, int64_t n, int64_t k, const void *alpha,
                         uint64_t a, int64_t lda, uint64_t x, int64_t incx, const void *beta, uint64_t y, int64_t incy)
{
    return clb_symv_any(b, 1, t, herm, uplo, n, k, alpha, a, lda, x, incx, beta, y, incy);
}

static CUresult clb_spmv(cb_backend *b, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha, uint64_t ap,
                         uint64_t x, int64_t incx, const void *beta, uint64_t y, int64_t incy)
{
    return clb_symv_any(b, 2, t, herm, uplo, n, 0, alpha, ap, 1, x, incx, beta, y, incy);
}

static CUresult pos_ger(cb_backend *b, cb_blas_type t, int conj, int64_t m, int64_t n, const void *alpha, uint64_t x,
                        int64_t incx, uint64_t y, int64_t incy, uint64_t a, int64_t lda)
{
    PLAIN_OR_REFUSE(t);
    if (m <= 0 || n <= 0 || scalar_is(t, alpha, 0))
        return CUDA_SUCCESS;
    CLB_BEGIN(b, v);
    OFF(xo, x);
    OFF(yo, y);
    OFF(ao, a);
    CUresult r = CUDA_ERROR_NOT_SUPPORTED;
    switch (t) {
    case CB_BLAS_F32: CLB(clb.Sger(COL, m, n, F(alpha), v.heap, xo, incx, v.heap, yo, incy, v.heap, ao, lda, QE)); break;
    case CB_BLAS_F64: CLB(clb.Dger(COL, m, n, D(alpha), v.heap, xo, incx, v.heap, yo, incy, v.heap, ao, lda, QE)); break;
    case CB_BLAS_C32:
        CLB(conj ? clb.Cgerc(COL, m, n, C(alpha), v.heap, xo, incx, v.heap, yo, incy, v.heap, ao, lda, QE)
                 : clb.Cgeru(COL, m, n, C(alpha), v.heap, xo, incx, v.heap, yo, incy, v.heap, ao, lda, QE));
        break;
    case CB_BLAS_C64:
        CLB(conj ? clb.Zgerc(COL, m, n, Z(alpha), v.heap, xo, incx, v.heap, yo, incy, v.heap, ao, lda, QE)
                 : clb.Zgeru(COL, m, n, Z(alpha), v.heap, xo, incx, v.heap, yo, incy, v.heap, ao, lda, QE));
        break;
    default: break;
    }
    return r;
}

static CUresult clb_ger(cb_backend *b, cb_blas_type t, int conj, int64_t m, int64_t n, const void *alpha, uint64_t x,
                        int64_t incx, uint64_t y, int64_t incy, uint64_t a, int64_t lda)
{
    STAGE2(m, n, 0, pos_ger(b, t, conj, m, n, alpha, x, incx, y, incy, a, lda));
}

/* syr/her (two 0) and spr/hpr (packed): A += alpha x x^T (x^H, alpha real). */
static CUresult pos_syr_any(cb_backend *b, int packed, cb_blas_type t, int herm, int uplo, int64_t n,
                            const void *alpha, uint64_t x, int64_t incx, uint64_t a, int64_t lda)
{
    PLAIN_OR_REFUSE(t);
    int csym = cb_blas_type_complex(t) && !herm;
    if (csym && packed)
        return CUDA_ERROR_NOT_SUPPORTED;
    if (n <= 0 || scalar_is(csym ? t : cb_blas_type_real(t), alpha, 0))
        return CUDA_SUCCESS;
    if (csym)   /* Csyr/Zsyr: our kernel */
        return ocl_k_syr2(b, t, uplo, 0, n, alpha, x, incx, x, incx, a, lda);
    CLB_BEGIN(b, v);
    OFF(xo, x);
    OFF(ao, a);
    CLBlastTriangle u = up_of(uplo);
    CUresult r = CUDA_ERROR_NOT_SUPPORTED;
    switch (t) {
    case CB_BLAS_F32: CLB(packed ? clb.Sspr(COL, u, n, F(alpha), v.heap, xo, incx, v.heap, ao, QE) : clb.Ssyr(COL, u, n, F(alpha), v.heap, xo, incx, v.heap, ao, lda, QE)); break;
    case CB_BLAS_F64: CLB(packed ? clb.Dspr(COL, u, n, D(alpha), v.heap, xo, incx, v.heap, ao, QE) : clb.Dsyr(COL, u, n, D(alpha), v.heap, xo, incx, v.heap, ao, lda, QE)); break;
    case CB_BLAS_C32: CLB(packed ? clb.Chpr(COL, u, n, F(alpha), v.heap, xo, incx, v.heap, ao, QE) : clb.Cher(COL, u, n, F(alpha), v.heap, xo, incx, v.heap, ao, lda, QE)); break;
    case CB_BLAS_C64: CLB(packed ? clb.Zhpr(COL, u, n, D(alpha), v.heap, xo, incx, v.heap, ao, QE) : clb.Zher(COL, u, n, D(alpha), v.heap, xo, incx, v.heap, ao, lda, QE)); break;
    default: break;
    }
    return r;
}

static CUresult clb_syr_any(cb_backend *b, int packed, cb_blas_type t, int herm, int uplo, int64_t n,
                            const void *alpha, uint64_t x, int64_t incx, uint64_t a, int64_t lda)
{
    staged sx;
    CUresult r = stage_in(b, t, n, &x, &incx, &sx);
    if (r != CUDA_SUCCESS)
        return r;
    return stage_out(b, t, &sx, 0, pos_syr_any(b, packed, t, herm, uplo, n, alpha, x, incx, a, lda));
}

static CUresult clb_syr(cb_backend *b, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha, uint64_t x,
                        int64_t incx, uint64_t a, int64_t lda)
{
    return clb_syr_any(b, 0, t, herm, uplo, n, alpha, x, incx, a, lda);
}

static CUresult clb_spr(cb_backend *b, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha, uint64_t x,
                        int64_t incx, uint64_t ap)
{
    return clb_syr_any(b, 1, t, herm, uplo, n, alpha, x, incx, ap, 1);
}

static CUresult pos_syr2_any(cb_backend *b, int packed, cb_blas_type t, int herm, int uplo, int64_t n,
                             const void *alpha, uint64_t x, int64_t incx, uint64_t y, int64_t incy, uint64_t a,
                             int64_t lda)
{
    PLAIN_OR_REFUSE(t);
    int csym = cb_blas_type_complex(t) && !herm;
    if (csym && packed)
        return CUDA_ERROR_NOT_SUPPORTED;
    if (n <= 0 || scalar_is(t, alpha, 0))
        return CUDA_SUCCESS;
    if (csym)   /* Csyr2/Zsyr2: our kernel */
        return ocl_k_syr2(b, t, uplo, 1, n, alpha, x, incx, y, incy, a, lda);
    CLB_BEGIN(b, v);
    OFF(xo, x);
    OFF(yo, y);
    OFF(ao, a);
    CLBlastTriangle u = up_of(uplo);
    CUresult r = CUDA_ERROR_NOT_SUPPORTED;
    switch (t) {
    case CB_BLAS_F32: CLB(packed ? clb.Sspr2(COL, u, n, F(alpha), v.heap, xo, incx, v.heap, yo, incy, v.heap, ao, QE) : clb.Ssyr2(COL, u, n, F(alpha), v.heap, xo, incx, v.heap, yo, incy, v.heap, ao, lda, QE)); break;
    case CB_BLAS_F64: CLB(packed ? clb.Dspr2(COL, u, n, D(alpha), v.heap, xo, incx, v.heap, yo, incy, v.heap, ao, QE) : clb.Dsyr2(COL, u, n, D(alpha), v.heap, xo, incx, v.heap, yo, incy, v.heap, ao, lda, QE)); break;
    case CB_BLAS_C32: CLB(packed ? clb.Chpr2(COL, u, n, C(alpha), v.heap, xo, incx, v.heap, yo, incy, v.heap, ao, QE) : clb.Cher2(COL, u, n, C(alpha), v.heap, xo, incx, v.heap, yo, incy, v.heap, ao, lda, QE)); break;
    case CB_BLAS_C64: CLB(packed ? clb.Zhpr2(COL, u, n, Z(alpha), v.heap, xo, incx, v.heap, yo, incy, v.heap, ao, QE) : clb.Zher2(COL, u, n, Z(alpha), v.heap, xo, incx, v.heap, yo, incy, v.heap, ao, lda, QE)); break;
    default: break;
    }
    return r;
}

static CUresult clb_syr2_any(cb_backend *b, int packed, cb_blas_type t, int herm, int uplo, int64_t n,
                             const void *alpha, uint64_t x, int64_t incx, uint64_t y, int64_t incy, uint64_t a,
                             int64_t lda)
{
    STAGE2(n, n, 0, pos_syr2_any(b, packed, t, herm, uplo, n, alpha, x, incx, y, incy, a, lda));
}

static CUresult clb_syr2(cb_backend *b, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha, uint64_t x,
                         int64_t incx, uint64_t y, int64_t incy, uint64_t a, int64_t lda)
{
    return clb_syr2_any(b, 0, t, herm, uplo, n, alpha, x, incx, y, incy, a, lda);
}

static CUresult clb_spr2(cb_backend *b, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha, uint64_t x,
                         int64_t incx, uint64_t y, int64_t incy, uint64_t ap)
{
    return clb_syr2_any(b, 1, t, herm, uplo, n, alpha, x, incx, y, incy, ap, 1);
}

static CUresult pos_trmv(cb_backend *b, cb_blas_type t, int solve, int form, int uplo, int trans, int diag, int64_t n,
                         int64_t k, uint64_t a, int64_t lda, uint64_t x, int64_t incx)
{
    PLAIN_OR_REFUSE(t);
    if (n <= 0)
        return CUDA_SUCCESS;
    CLB_BEGIN(b, v);
    OFF(ao, a);
    OFF(xo, x);
    if (solve && form != 0)   /* tbsv, tpsv: CLBlast does not implement them */
        return ocl_k_tsolve(b, t, form, uplo, trans, diag, n, k, a, lda, x, incx);
    CLBlastTriangle u = up_of(uplo);
    CLBlastTranspose ta = tr_of(t, trans);
    CLBlastDiagonal dg = dg_of(diag);
    CUresult r = CUDA_ERROR_NOT_SUPPORTED;
#define TV(P)                                                                                                      \
    CLB(form == 0   ? (solve ? clb.P##trsv(COL, u, ta, dg, n, v.heap, ao, lda, v.heap, xo, incx, QE)               \
                             : clb.P##trmv(COL, u, ta, dg, n, v.heap, ao, lda, v.heap, xo, incx, QE))              \
        : form == 1 ? (solve ? clb.P##tbsv(COL, u, ta, dg, n, k, v.heap, ao, lda, v.heap, xo, incx, QE)            \
                             : clb.P##tbmv(COL, u, ta, dg, n, k, v.heap, ao, lda, v.heap, xo, incx, QE))           \
                    : (solve ? clb.P##tpsv(COL, u, ta, dg, n, v.heap, ao, v.heap, xo, incx, QE)                    \
                             : clb.P##tpmv(COL, u, ta, dg, n, v.heap, ao, v.heap, xo, incx, QE)))
    switch (t) {
    case CB_BLAS_F32: TV(S); break;
    case CB_BLAS_F64: TV(D); break;
    case CB_BLAS_C32: TV(C); break;
    case CB_BLAS_C64: TV(Z); break;
    default: break;
    }
#undef TV
    return r;
}

static CUresult clb_trmv(cb_backend *b, cb_blas_type t, int solve, int form, int uplo, int trans, int diag, int64_t n,
                         int64_t k, uint64_t a, int64_t lda, uint64_t x, int64_t incx)
{
    staged sx;
    CUresult r = stage_in(b, t, n, &x, &incx, &sx);
    if (r != CUDA_SUCCESS)
        return r;
    return stage_out(b, t, &sx, 1, pos_trmv(b, t, solve, form, uplo, trans, diag, n, k, a, lda, x, incx));
}

/* ---- level 3 ------------------------------------------------------------------------------------------------ */

/* Before C = alpha (product) + beta C over a rows x cols C (part: 0 whole,
 * uplo + 1 one triangle): no product (alpha == 0 or k == 0) leaves beta C
 * (*done); beta == 0 zeroes C so that it is not read. ts: the scalars'
 * type of beta (real for herk and her2k). */
static CUresult beta_matrix(cb_backend *b, cb_blas_type t, cb_blas_type ts, int no_product, const void *beta,
                            int64_t rows, int64_t cols, uint64_t c, int64_t ldc, int part, int *done)
{
    *done = 0;
    unsigned char bt[16] = {0};
    memcpy(bt, beta, cb_blas_type_size(ts));   /* a real beta as (beta, 0) */
    if (no_product) {
        *done = 1;
        return scalar_is(ts, beta, 1) ? CUDA_SUCCESS : ocl_k_scale(b, t, rows, cols, c, ldc, bt, part);
    }
    return scalar_is(ts, beta, 0) ? ocl_k_scale(b, t, rows, cols, c, ldc, zero16, part) : CUDA_SUCCESS;
}

static CUresult clb_gemm(cb_backend *b, cb_blas_type t, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
                         const void *alpha, uint64_t a, int64_t lda, uint64_t bb, int64_t ldb, const void *beta,
                         uint64_t c, int64_t ldc)
{
    PLAIN_OR_REFUSE(t);
    if (m <= 0 || n <= 0)
        return CUDA_SUCCESS;
    int done;
    CUresult r = beta_matrix(b, t, t, k <= 0 || scalar_is(t, alpha, 0), beta, m, n, c, ldc, 0, &done);
    if (r != CUDA_SUCCESS || done)
        return r;
    CLB_BEGIN(b, v);
    OFF(ao, a);
    OFF(bo, bb);
    OFF(co, c);
    CLBlastTranspose ta = tr_of(t, trans_a), tb = tr_of(t, trans_b);
    switch (t) {
    case CB_BLAS_F32: CLB(clb.Sgemm(COL, ta, tb, m, n, k, F(alpha), v.heap, ao, lda, v.heap, bo, ldb, F(beta), v.heap, co, ldc, QE)); break;
    case CB_BLAS_F64: CLB(clb.Dgemm(COL, ta, tb, m, n, k, D(alpha), v.heap, ao, lda, v.heap, bo, ldb, D(beta), v.heap, co, ldc, QE)); break;
    case CB_BLAS_C32: CLB(clb.Cgemm(COL, ta, tb, m, n, k, C(alpha), v.heap, ao, lda, v.heap, bo, ldb, C(beta), v.heap, co, ldc, QE)); break;
    case CB_BLAS_C64: CLB(clb.Zgemm(COL, ta, tb, m, n, k, Z(alpha), v.heap, ao, lda, v.heap, bo, ldb, Z(beta), v.heap, co, ldc, QE)); break;
    default: r = CUDA_ERROR_NOT_SUPPORTED; break;
    }
    return r;
}

static CUresult clb_symm(cb_backend *b, cb_blas_type t, int herm, int side, int uplo, int64_t m, int64_t n,
                         const void *alpha, uint64_t a, int64_t lda, uint64_t bb, int64_t ldb, const void *beta,
                         uint64_t c, int64_t ldc)
{
    PLAIN_OR_REFUSE(t);
    if (m <= 0 || n <= 0)
        return CUDA_SUCCESS;
    int done;
    CUresult r = beta_matrix(b, t, t, scalar_is(t, alpha, 0), beta, m, n, c, ldc, 0, &done);
    if (r != CUDA_SUCCESS || done)
        return r;
    CLB_BEGIN(b, v);
    OFF(ao, a);
    OFF(bo, bb);
    OFF(co, c);
    CLBlastSide sd = sd_of(side);
    CLBlastTriangle u = up_of(uplo);
    switch (t) {
    case CB_BLAS_F32: CLB(clb.Ssymm(COL, sd, u, m, n, F(alpha), v.heap, ao, lda, v.heap, bo, ldb, F(beta), v.heap, co, ldc, QE)); break;
    case CB_BLAS_F64: CLB(clb.Dsymm(COL, sd, u, m, n, D(alpha), v.heap, ao, lda, v.heap, bo, ldb, D(beta), v.heap, co, ldc, QE)); break;
    case CB_BLAS_C32:
        CLB(herm ? clb.Chemm(COL, sd, u, m, n, C(alpha), v.heap, ao, lda, v.heap, bo, ldb, C(beta), v.heap, co, ldc, QE)
                 : clb.Csymm(COL, sd, u, m, n, C(alpha), v.heap, ao, lda, v.heap, bo, ldb, C(beta), v.heap, co, ldc, QE));
        break;
    case CB_BLAS_C64:
        CLB(herm ? clb.Zhemm(COL, sd, u, m, n, Z(alpha), v.heap, ao, lda, v.heap, bo, ldb, Z(beta), v.heap, co, ldc, QE)
                 : clb.Zsymm(COL, sd, u, m, n, Z(alpha), v.heap, ao, lda, v.heap, bo, ldb, Z(beta), v.heap, co, ldc, QE));
        break;
    default: r = CUDA_ERROR_NOT_SUPPORTED; break;
    }
    return r;
}

static CUresult clb_syrk(cb_backend *b, cb_blas_type t, int herm, int uplo, int trans, int64_t n, int64_t k,
                         const void *alpha, uint64_t a, int64_t lda, const void *beta, uint64_t c, int64_t ldc)
{
    PLAIN_OR_REFUSE(t);
    if (n <= 0)
        return CUDA_SUCCESS;
    herm = herm && cb_blas_type_complex(t);
    cb_blas_type ts = herm ? cb_blas_type_real(t) : t;
    int no_product = k <= 0 || scalar_is(ts, alpha, 0);
    if (herm && no_product && !scalar_is(ts, beta, 1))
        return CUDA_ERROR_NOT_SUPPORTED;   /* herk then also clears the diagonal's imaginary parts: not here */
    int done;
    CUresult r = beta_matrix(b, t, ts, no_product, beta, n, n, c, ldc, uplo + 1, &done);
    if (r != CUDA_SUCCESS || done)
        return r;
    CLB_BEGIN(b, v);
    OFF(ao, a);
    OFF(co, c);
    CLBlastTriangle u = up_of(uplo);
    CLBlastTranspose ta = tr_of(t, trans);
    switch (t) {
    case CB_BLAS_F32: CLB(clb.Ssyrk(COL, u, ta, n, k, F(alpha), v.heap, ao, lda, F(beta), v.heap, co, ldc, QE)); break;
    case CB_BLAS_F64: CLB(clb.Dsyrk(COL, u, ta, n, k, D(alpha), v.heap, ao, lda, D(beta), v.heap, co, ldc, QE)); break;
    case CB_BLAS_C32:
        CLB(herm ? clb.Cherk(COL, u, ta, n, k, F(alpha), v.heap, ao, lda, F(beta), v.heap, co, ldc, QE)
                 : clb.Csyrk(COL, u, ta, n, k, C(alpha), v.heap, ao, lda, C(beta), v.heap, co, ldc, QE));
        break;
    case CB_BLAS_C64:
        CLB(herm ? clb.Zherk(COL, u, ta, n, k, D(alpha), v.heap, ao, lda, D(beta), v.heap, co, ldc, QE)
                 : clb.Zsyrk(COL, u, ta, n, k, Z(alpha), v.heap, ao, lda, Z(beta), v.heap, co, ldc, QE));
        break;
    default: r = CUDA_ERROR_NOT_SUPPORTED; break;
    }
    return r;
}

static CUresult clb_syr2k(cb_backend *b, cb_blas_type t, int herm, int x, int uplo, int trans, int64_t n, int64_t k,
                          const void *alpha, uint64_t a, int64_t lda, uint64_t bb, int64_t ldb, const void *beta,
                          uint64_t c, int64_t ldc)
{
    PLAIN_OR_REFUSE(t);
    if (n <= 0)
        return CUDA_SUCCESS;
    herm = herm && cb_blas_type_complex(t);
    cb_blas_type tb = herm ? cb_blas_type_real(t) : t;
    int no_product = k <= 0 || scalar_is(t, alpha, 0);
    if (herm && no_product && !scalar_is(tb, beta, 1))
        return CUDA_ERROR_NOT_SUPPORTED;
    int done;
    CUresult r = beta_matrix(b, t, tb, no_product, beta, n, n, c, ldc, uplo + 1, &done);
    if (r != CUDA_SUCCESS || done)
        return r;
    if (x) {   /* syrkx/herkx: CLBlast has no such routine; our kernel, op(A) op(B)^T (^H) on one triangle */
        unsigned char bt[16] = {0};
        memcpy(bt, beta, cb_blas_type_size(tb));
        int ta = trans == CB_BLAS_OP_N ? CB_BLAS_OP_N : trans;
        int tbb = trans == CB_BLAS_OP_N ? (herm ? CB_BLAS_OP_C : CB_BLAS_OP_T) : CB_BLAS_OP_N;
        return ocl_k_gemmt(b, t, uplo, herm, ta, tbb, n, k, alpha, a, lda, bb, ldb, bt, c, ldc);
    }
    CLB_BEGIN(b, v);
    OFF(ao, a);
    OFF(bo, bb);
    OFF(co, c);
    CLBlastTriangle u = up_of(uplo);
    CLBlastTranspose ta = tr_of(t, trans);
    switch (t) {
    case CB_BLAS_F32: CLB(clb.Ssyr2k(COL, u, ta, n, k, F(alpha), v.heap, ao, lda, v.heap, bo, ldb, F(beta), v.heap, co, ldc, QE)); break;
    case CB_BLAS_F64: CLB(clb.Dsyr2k(COL, u, ta, n, k, D(alpha), v.heap, ao, lda, v.heap, bo, ldb, D(beta), v.heap, co, ldc, QE)); break;
    case CB_BLAS_C32:
        CLB(herm ? clb.Cher2k(COL, u, ta, n, k, C(alpha), v.heap, ao, lda, v.heap, bo, ldb, F(beta), v.heap, co, ldc, QE)
                 : clb.Csyr2k(COL, u, ta, n, k, C(alpha), v.heap, ao, lda, v.heap, bo, ldb, C(beta), v.heap, co, ldc, QE));
        break;
    case CB_BLAS_C64:
        CLB(herm ? clb.Zher2k(COL, u, ta, n, k, Z(alpha), v.heap, ao, lda, v.heap, bo, ldb, D(beta), v.heap, co, ldc, QE)
                 : clb.Zsyr2k(COL, u, ta, n, k, Z(alpha), v.heap, ao, lda, v.heap, bo, ldb, Z(beta), v.heap, co, ldc, QE));
        break;
    default: r = CUDA_ERROR_NOT_SUPPORTED; break;
    }
    return r;
}

/* C = B (m x n, column-major, own leading dimensions) by CLBlast's omatcopy with alpha 1. */
static CUresult copy_matrix(ocl_device_view *vp, cb_blas_type t, int64_t m, int64_t n, size_t bo, int64_t ldb,
                            size_t co, int64_t ldc)
{
    ocl_device_view v = *vp;
    static const float one_f = 1;
    static const double one_d = 1;
    static const float one_c[2] = {1, 0};
    static const double one_z[2] = {1, 0};
    CUresult r = CUDA_ERROR_NOT_SUPPORTED;
    switch (t) {
    case CB_BLAS_F32: CLB(clb.Somatcopy(COL, CLBlastTransposeNo, m, n, one_f, v.heap, bo, ldb, v.heap, co, ldc, QE)); break;
    case CB_BLAS_F64: CLB(clb.Domatcopy(COL, CLBlastTransposeNo, m, n, one_d, v.heap, bo, ldb, v.heap, co, ldc, QE)); break;
    case CB_BLAS_C32: CLB(clb.Comatcopy(COL, CLBlastTransposeNo, m, n, C(one_c), v.heap, bo, ldb, v.heap, co, ldc, QE)); break;
    case CB_BLAS_C64: CLB(clb.Zomatcopy(COL, CLBlastTransposeNo, m, n, Z(one_z), v.heap, bo, ldb, v.heap, co, ldc, QE)); break;
    default: break;
    }
    return r;
}

/* trmm (solve 0, C = alpha op(A) B, out of place: B copied into C, then
 * CLBlast's in-place trmm on C) and trsm (solve 1, in place on B). */
static CUresult clb_trxm(cb_backend *b, int solve, cb_blas_type t, int side, int uplo, int trans, int diag, int64_t m,
                         int64_t n, const void *alpha, uint64_t a, int64_t lda, uint64_t bb, int64_t ldb, uint64_t c,
                         int64_t ldc)
{
    PLAIN_OR_REFUSE(t);
    if (m <= 0 || n <= 0)
        return CUDA_SUCCESS;
    if (scalar_is(t, alpha, 0))   /* the result is zero; A and B are not read */
        return ocl_k_scale(b, t, m, n, c, ldc, zero16, 0);
    CLB_BEGIN(b, v);
    OFF(ao, a);
    OFF(bo, bb);
    OFF(co, c);
    CUresult r = CUDA_SUCCESS;
    if (!solve && (co != bo || ldc != ldb)) {
        r = copy_matrix(&v, t, m, n, bo, ldb, co, ldc);
        if (r != CUDA_SUCCESS)
            return r;
    }
    CLBlastSide sd = sd_of(side);
    CLBlastTriangle u = up_of(uplo);
    CLBlastTranspose ta = tr_of(t, trans);
    CLBlastDiagonal dg = dg_of(diag);
#define TM(P, cv)                                                                                                  \
    CLB(solve ? clb.P##trsm(COL, sd, u, ta, dg, m, n, cv(alpha), v.heap, ao, lda, v.heap, co, ldc, QE)             \
              : clb.P##trmm(COL, sd, u, ta, dg, m, n, cv(alpha), v.heap, ao, lda, v.heap, co, ldc, QE))
    switch (t) {
    case CB_BLAS_F32: TM(S, F); break;
    case CB_BLAS_F64: TM(D, D); break;
    case CB_BLAS_C32: TM(C, C); break;
    case CB_BLAS_C64: TM(Z, Z); break;
    default: r = CUDA_ERROR_NOT_SUPPORTED; break;
    }
#undef TM
    return r;
}

static CUresult clb_trmm(cb_backend *b, cb_blas_type t, int side, int uplo, int trans, int diag, int64_t m, int64_t n,
                         const void *alpha, uint64_t a, int64_t lda, uint64_t bb, int64_t ldb, uint64_t c, int64_t ldc)
{
    return clb_trxm(b, 0, t, side, uplo, trans, diag, m, n, alpha, a, lda, bb, ldb, c, ldc);
}

static CUresult clb_trsm(cb_backend *b, cb_blas_type t, int side, int uplo, int trans, int diag, int64_t m, int64_t n,
                         const void *alpha, uint64_t a, int64_t lda, uint64_t bb, int64_t ldb)
{
    return clb_trxm(b, 1, t, side, uplo, trans, diag, m, n, alpha, a, lda, bb, ldb, bb, ldb);
}

static CUresult clb_gemm_ex(cb_backend *b, const cb_blas_gemm *g);

/* D = alpha op(A) op(B) + beta C with D apart from C (cuBLASLt): C copied
 * into D (unless beta == 0: C is not read), then the product in place on D. */
static CUresult gemm_ex_into_d(cb_backend *b, const cb_blas_gemm *g)
{
    cb_blas_type t = g->c_type;
    if (g->m > 0 && g->n > 0 && !scalar_is(t, g->beta, 0)) {
        CLB_BEGIN(b, v);
        size_t es = cb_blas_type_size(t);
        for (int64_t i = 0; i < g->batch; i++) {
            uint64_t c = g->c_array ? g->c_array[i] : g->c + (uint64_t)(i * g->stride_c) * es;
            uint64_t d = g->d_array ? g->d_array[i] : g->d + (uint64_t)(i * g->stride_d) * es;
            OFF(co, c);
            OFF(dof, d);
            CUresult r = copy_matrix(&v, t, g->m, g->n, co, g->ldc, dof, g->ldd);
            if (r != CUDA_SUCCESS)
                return r;
        }
    }
    cb_blas_gemm in_d = *g;
    in_d.c = g->d;
    in_d.ldc = g->ldd;
    in_d.stride_c = g->stride_d;
    in_d.c_array = g->d_array;
    return clb_gemm_ex(b, &in_d);
}

/* ---- gemm_ex: the plain types (A, B, C, D, compute and scale all t), no input rounding, no
 * epilogue, through CLBlast; batches by stride or by arrays. Mixed types, input rounding and
 * epilogues: our own kernel (ocl_k_gemm_mixed). */
static CUresult clb_gemm_ex(cb_backend *b, const cb_blas_gemm *g)
{
    cb_blas_type t = g->c_type;
    if (g->a_type != t || g->b_type != t || g->d_type != t || g->compute != t || g->scale != t ||
        g->round != CB_BLAS_ROUND_NONE || g->epilogue > 1)
        return ocl_k_gemm_mixed(b, g);   /* our own kernel (lib_kernels.c), or NOT_SUPPORTED */
    PLAIN_OR_REFUSE(t);
    if (g->d_array ? g->d_array != g->c_array : (g->d != g->c || g->ldd != g->ldc || g->stride_d != g->stride_c))
        return gemm_ex_into_d(b, g);
    if (g->batch == 1 && !g->a_array)
        return clb_gemm(b, t, g->trans_a, g->trans_b, g->m, g->n, g->k, g->alpha, g->a, g->lda, g->b, g->ldb, g->beta,
                        g->c, g->ldc);
    if (g->m <= 0 || g->n <= 0 || g->batch <= 0)
        return CUDA_SUCCESS;
    int no_product = g->k <= 0 || scalar_is(t, g->alpha, 0), beta0 = scalar_is(t, g->beta, 0);
    size_t es = cb_blas_type_size(t);
    int apart = !g->a_array && g->stride_c >= g->ldc * g->n;   /* the C of each entry set apart */
    if ((no_product || beta0) && apart) {   /* C = beta C, or zeros first, over every entry in one kernel */
        if (no_product && scalar_is(t, g->beta, 1))
            return CUDA_SUCCESS;
        CUresult r = ocl_k_scale_batch(b, t, g->m, g->n, g->c, g->ldc, no_product ? g->beta : zero16, 0, g->batch,
                                       g->stride_c);
        if (r != CUDA_SUCCESS || no_product)
            return r;
    } else if (no_product || beta0 || g->a_array) {   /* one call per entry */
        for (int64_t i = 0; i < g->batch; i++) {
            uint64_t a = g->a_array ? g->a_array[i] : g->a + (uint64_t)(i * g->stride_a) * es;
            uint64_t bb = g->a_array ? g->b_array[i] : g->b + (uint64_t)(i * g->stride_b) * es;
            uint64_t c = g->a_array ? g->c_array[i] : g->c + (uint64_t)(i * g->stride_c) * es;
            CUresult r = clb_gemm(b, t, g->trans_a, g->trans_b, g->m, g->n, g->k, g->alpha, a, g->lda, bb, g->ldb,
                                  g->beta, c, g->ldc);
            if (r != CUDA_SUCCESS)
                return r;
        }
        return CUDA_SUCCESS;
    }
    if (g->stride_a < 0 || g->stride_b < 0 || g->stride_c < 0)
        return CUDA_ERROR_NOT_SUPPORTED;
    CLB_BEGIN(b, v);
    OFF(ao, g->a);
    OFF(bo, g->b);
    OFF(co, g->c);
    CLBlastTranspose ta = tr_of(t, g->trans_a), tb = tr_of(t, g->trans_b);
    CUresult r = CUDA_ERROR_NOT_SUPPORTED;
    size_t sa = (size_t)g->stride_a, sb = (size_t)g->stride_b, sc = (size_t)g->stride_c, nb = (size_t)g->batch;
    switch (t) {
    case CB_BLAS_F32: CLB(clb.SgemmStridedBatched(COL, ta, tb, g->m, g->n, g->k, F(g->alpha), v.heap, ao, g->lda, sa, v.heap, bo, g->ldb, sb, F(g->beta), v.heap, co, g->ldc, sc, nb, QE)); break;
    case CB_BLAS_F64: CLB(clb.DgemmStridedBatched(COL, ta, tb, g->m, g->n, g->k, D(g->alpha), v.heap, ao, g->lda, sa, v.heap, bo, g->ldb, sb, D(g->beta), v.heap, co, g->ldc, sc, nb, QE)); break;
    case CB_BLAS_C32: CLB(clb.CgemmStridedBatched(COL, ta, tb, g->m, g->n, g->k, C(g->alpha), v.heap, ao, g->lda, sa, v.heap, bo, g->ldb, sb, C(g->beta), v.heap, co, g->ldc, sc, nb, QE)); break;
    case CB_BLAS_C64: CLB(clb.ZgemmStridedBatched(COL, ta, tb, g->m, g->n, g->k, Z(g->alpha), v.heap, ao, g->lda, sa, v.heap, bo, g->ldb, sb, Z(g->beta), v.heap, co, g->ldc, sc, nb, QE)); break;
    default: break;
    }
    return r;
}

void ocl_clblast_fill(cb_backend_lib *lib)
{
    lib->axpy = clb_axpy;
    lib->scal = clb_scal;
    lib->copy = clb_copy;
    lib->swap = clb_swap;
    lib->dot = clb_dot;
    lib->nrm2 = clb_nrm2;
    lib->asum = clb_asum;
    lib->iamax = clb_iamax;
    lib->gemv = clb_gemv;
    lib->gbmv = clb_gbmv;
    lib->ger = clb_ger;
    lib->symv = clb_symv;
    lib->sbmv = clb_sbmv;
    lib->spmv = clb_spmv;
    lib->syr = clb_syr;
    lib->spr = clb_spr;
    lib->syr2 = clb_syr2;
    lib->spr2 = clb_spr2;
    lib->trmv = clb_trmv;
    lib->gemm = clb_gemm;
    lib->symm = clb_symm;
    lib->syrk = clb_syrk;
    lib->syr2k = clb_syr2k;
    lib->trmm = clb_trmm;
    lib->trsm = clb_trsm;
    lib->gemm_ex = clb_gemm_ex;
}

#else

void ocl_clblast_fill(cb_backend_lib *lib) { (void)lib; }

#endif
