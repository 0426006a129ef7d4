/* level1.c: cuBLAS level 1 in S/D/C/Z (and the 64-bit entry points):
 * axpy, scal, copy, swap, dot/dotu/dotc, nrm2, asum, iamax/iamin, rot,
 * rotg, rotm, rotmg. References: ref_level1.c.
 *
 * Bad input, as the cuBLAS documentation gives it (docs/libraries.md lists
 * which statuses the H200 confirmed): a NULL or destroyed handle is
 * CUBLAS_STATUS_NOT_INITIALIZED; a NULL result pointer
 * CUBLAS_STATUS_INVALID_VALUE (dot's: MAPPING_ERROR, the H200's); n <= 0 returns at once (result 0 for the
 * reductions, 0 for iamax/iamin); so does incx <= 0 for nrm2, asum, iamax
 * and iamin.
 */
#include "cublas_internal.h"

/* ---- routines: backend calls and operands -------------------------------------- */

static size_t vec(const cublas_op *o, int64_t inc) { return cbl_vector_bytes(o->n, inc, cublas_elem(o->t)); }

static CUresult run_axpy(cublas_op *o, cb_backend *b)
{
    return b->lib->axpy(b, o->t, o->n, o->sval[0], o->x, o->incx, o->y, o->incy);
}
static int ops_xy_out_y(cublas_op *o, cbl_operand *ops)
{
    ops[0] = cublas_operand("x", o->x, vec(o, o->incx), 0, o->t);
    ops[1] = cublas_operand("y", o->y, vec(o, o->incy), 1, o->t);
    return 2;
}
static const cublas_routine r_axpy = {run_axpy, ops_xy_out_y, cublas_ref_axpy};

static CUresult run_scal(cublas_op *o, cb_backend *b)
{
    return b->lib->scal(b, o->t, o->n, o->sval[0], o->alpha_real, o->x, o->incx);
}
static int ops_x_out(cublas_op *o, cbl_operand *ops)
{
    ops[0] = cublas_operand("x", o->x, vec(o, o->incx), 1, o->t);
    return 1;
}
static const cublas_routine r_scal = {run_scal, ops_x_out, cublas_ref_scal};

static CUresult run_copy(cublas_op *o, cb_backend *b) { return b->lib->copy(b, o->t, o->n, o->x, o->incx, o->y, o->incy); }
static const cublas_routine r_copy = {run_copy, ops_xy_out_y, cublas_ref_copy};

static CUresult run_swap(cublas_op *o, cb_backend *b) { return b->lib->swap(b, o->t, o->n, o->x, o->incx, o->y, o->incy); }
static int ops_xy_out_both(cublas_op *o, cbl_operand *ops)
{
    ops[0] = cublas_operand("x", o->x, vec(o, o->incx), 1, o->t);
    ops[1] = cublas_operand("y", o->y, vec(o, o->incy), 1, o->t);
    return 2;
}
static const cublas_routine r_swap = {run_swap, ops_xy_out_both, cublas_ref_swap};

/* The scalar result as a host operand (o->out[0]). */
static cbl_operand result_operand(cublas_op *o, cb_blas_type t, size_t bytes)
{
    cbl_operand r = cublas_operand("result", 0, bytes, 1, t);
    r.host = o->out[0];
    return r;
}

static CUresult run_dot(cublas_op *o, cb_backend *b)
{
    if (!cublas_lowp(o->t))
        return b->lib->dot(b, o->t, o->conj, o->n, o->x, o->incx, o->y, o->incy, o->out[0]);
    float r = 0;   /* f16/bf16: computed in f32, delivered in the result's type */
    CUresult e = b->lib->dot(b, o->t, 0, o->n, o->x, o->incx, o->y, o->incy, &r);
    cb_blas_store(o->t, o->out[0], 0, (cb_cplx){r, 0});
    return e;
}
static int ops_dot(cublas_op *o, cbl_operand *ops)
{
    ops[0] = cublas_operand("x", o->x, vec(o, o->incx), 0, o->t);
    ops[1] = cublas_operand("y", o->y, vec(o, o->incy), 0, o->t);
    ops[2] = result_operand(o, o->t, cublas_elem(o->t));
    ops[2].tol_scale = cublas_sum_scale(o->n);
    return 3;
}
static const cublas_routine r_dot = {run_dot, ops_dot, cublas_ref_dot};

static CUresult run_nrm2(cublas_op *o, cb_backend *b)
{
    if (!cublas_lowp(o->t))
        return b->lib->nrm2(b, o->t, o->n, o->x, o->incx, o->out[0]);
    float r = 0;
    CUresult e = b->lib->nrm2(b, o->t, o->n, o->x, o->incx, &r);
    cb_blas_store(o->t, o->out[0], 0, (cb_cplx){r, 0});
    return e;
}
static CUresult run_asum(cublas_op *o, cb_backend *b) { return b->lib->asum(b, o->t, o->n, o->x, o->incx, o->out[0]); }
static int ops_reduce(cublas_op *o, cbl_operand *ops)
{
    ops[0] = cublas_operand("x", o->x, vec(o, o->incx), 0, o->t);
    ops[1] = result_operand(o, cublas_real(o->t), cublas_elem(cublas_real(o->t)));
    ops[1].tol_scale = cublas_sum_scale(o->n);
    return 2;
}
static const cublas_routine r_nrm2 = {run_nrm2, ops_reduce, cublas_ref_nrm2};
static const cublas_routine r_asum = {run_asum, ops_reduce, cublas_ref_asum};

/* iamax's result is an int (int64_t for the _64 entry points): out_bytes[0]. */
static CUresult run_iamax(cublas_op *o, cb_backend *b)
{
    int64_t r = 0;
    CUresult e = b->lib->iamax(b, o->t, o->min, o->n, o->x, o->incx, &r);
    if (o->out_bytes[0] == 8) {
        memcpy(o->out[0], &r, 8);
    } else {
        int v = (int)r;
        memcpy(o->out[0], &v, 4);
    }
    return e;
}
static int ops_iamax(cublas_op *o, cbl_operand *ops)
{
    ops[0] = cublas_operand("x", o->x, vec(o, o->incx), 0, o->t);
    ops[1] = result_operand(o, o->out_bytes[0] == 8 ? CB_BLAS_F64 : CB_BLAS_I32, o->out_bytes[0]);
    ops[1].cmp = CB_ELEM_INT;
    ops[1].elem_bytes = (unsigned)o->out_bytes[0];
    return 2;
}
static const cublas_routine r_iamax = {run_iamax, ops_iamax, cublas_ref_iamax};

static CUresult run_rot(cublas_op *o, cb_backend *b)
{
    return b->lib->rot(b, o->t, o->n, o->x, o->incx, o->y, o->incy, o->sval[0], o->sval[1], o->s_real);
}
static const cublas_routine r_rot = {run_rot, ops_xy_out_both, cublas_ref_rot};

static CUresult run_rotm(cublas_op *o, cb_backend *b)
{
    return b->lib->rotm(b, o->t, o->n, o->x, o->incx, o->y, o->incy, o->sval[0]);
}
static const cublas_routine r_rotm = {run_rotm, ops_xy_out_both, cublas_ref_rotm};

/* rotg and rotmg work on scalars only: the inputs are sval (read from the
 * device in device pointer mode), the outputs go to out[]. */
static CUresult run_rotg(cublas_op *o, cb_backend *b)
{
    memcpy(o->out[0], o->sval[0], 16);
    memcpy(o->out[1], o->sval[1], 16);
    return b->lib->rotg(b, o->t, o->out[0], o->out[1], o->out[2], o->out[3]);
}
static int ops_rotg(cublas_op *o, cbl_operand *ops)
{
    const char *names[4] = {"a", "b", "c", "s"};
    for (int i = 0; i < 4; i++) {
        cb_blas_type t = i == 2 ? cublas_real(o->t) : o->t;
        ops[i] = cublas_operand(names[i], 0, cublas_elem(t), 1, t);
        ops[i].host = o->out[i];
    }
    return 4;
}
static const cublas_routine r_rotg = {run_rotg, ops_rotg, cublas_ref_rotg};

static CUresult run_rotmg(cublas_op *o, cb_backend *b)
{
    size_t w = cublas_elem(o->t);
    memcpy(o->out[0], o->sval[0], w);   /* d1 */
    memcpy(o->out[1], o->sval[1], w);   /* d2 */
    memcpy(o->out[2], o->sval[2], w);   /* x1 */
    return b->lib->rotmg(b, o->t, o->out[0], o->out[1], o->out[2], o->sval[3], o->out[3]);
}
static int ops_rotmg(cublas_op *o, cbl_operand *ops)
{
    const char *names[4] = {"d1", "d2", "x1", "param"};
    size_t w = cublas_elem(o->t);
    for (int i = 0; i < 4; i++) {
        ops[i] = cublas_operand(names[i], 0, i == 3 ? 5 * w : w, 1, o->t);
        ops[i].host = o->out[i];
    }
    return 4;
}
static const cublas_routine r_rotmg = {run_rotmg, ops_rotmg, cublas_ref_rotmg};

/* ---- the entry points ------------------------------------------------------------ */

#define BEGIN(r, t)                                                                                                    \
    cublasStatus_t st_ = cublas_handle_check(h);                                                                       \
    if (st_ != CUBLAS_STATUS_SUCCESS)                                                                                  \
        return st_;                                                                                                    \
    cublas_op *o = cublas_op_new((r), fn, (t));                                                                       \
    if (!o)                                                                                                            \
        return CUBLAS_STATUS_ALLOC_FAILED

static cublasStatus_t axpy(cublasHandle_t h, const char *fn, cb_blas_type t, int64_t n, const void *alpha,
                           const void *x, int64_t incx, void *y, int64_t incy)
{
    if (!cublas_handle_check(h) && n <= 0)
        return CUBLAS_STATUS_SUCCESS;
    BEGIN(&r_axpy, t);
    o->n = n;
    o->x = (uintptr_t)x;
    o->incx = incx;
    o->y = (uintptr_t)y;
    o->incy = incy;
    cublas_op_scalar(o, h, 0, alpha, cublas_elem(cublas_alpha_type(o)));
    return cublas_op_submit(h, o);
}

static cublasStatus_t scal(cublasHandle_t h, const char *fn, cb_blas_type t, int alpha_real, int64_t n,
                           const void *alpha, void *x, int64_t incx)
{
    if (!cublas_handle_check(h) && (n <= 0 || incx <= 0))
        return CUBLAS_STATUS_SUCCESS;
    BEGIN(&r_scal, t);
    o->n = n;
    o->x = (uintptr_t)x;
    o->incx = incx;
    o->alpha_real = alpha_real;
    cublas_op_scalar(o, h, 0, alpha, cublas_elem(cublas_alpha_type(o)));
    return cublas_op_submit(h, o);
}

static cublasStatus_t copy_swap(cublasHandle_t h, const char *fn, int swap, cb_blas_type t, int64_t n, const void *x,
                                int64_t incx, const void *y, int64_t incy)
{
    if (!cublas_handle_check(h) && n <= 0)
        return CUBLAS_STATUS_SUCCESS;
    BEGIN(swap ? &r_swap : &r_copy, t);
    o->n = n;
    o->x = (uintptr_t)x;
    o->incx = incx;
    o->y = (uintptr_t)y;
    o->incy = incy;
    return cublas_op_submit(h, o);
}

static cublasStatus_t dot(cublasHandle_t h, const char *fn, cb_blas_type t, int conj, int64_t n, const void *x,
                          int64_t incx, const void *y, int64_t incy, void *result)
{
    BEGIN(&r_dot, t);
    if (!result) {   /* the H200: MAPPING_ERROR (the result's copy fails) */
        free(o);
        return CUBLAS_STATUS_MAPPING_ERROR;
    }
    o->n = n < 0 ? 0 : n;
    o->conj = conj;
    o->x = (uintptr_t)x;
    o->incx = incx;
    o->y = (uintptr_t)y;
    o->incy = incy;
    cublas_op_result(o, h, 0, result, cublas_elem(t));
    return cublas_op_submit(h, o);
}

static cublasStatus_t reduce(cublasHandle_t h, const char *fn, const cublas_routine *r, cb_blas_type t, int64_t n,
                             const void *x, int64_t incx, void *result, size_t result_bytes, int min)
{
    BEGIN(r, t);
    if (!result) {
        free(o);
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    o->n = n <= 0 || incx <= 0 ? 0 : n;
    o->x = (uintptr_t)x;
    o->incx = incx <= 0 ? 1 : incx;
    o->min = min;
    cublas_op_result(o, h, 0, result, result_bytes);
    return cublas_op_submit(h, o);
}

static cublasStatus_t rot(cublasHandle_t h, const char *fn, cb_blas_type t, int s_real, int64_t n, void *x,
                          int64_t incx, void *y, int64_t incy, const void *c, const void *s)
{
    if (!cublas_handle_check(h) && n <= 0)
        return CUBLAS_STATUS_SUCCESS;
    BEGIN(&r_rot, t);
    o->n = n;
    o->x = (uintptr_t)x;
    o->incx = incx;
    o->y = (uintptr_t)y;
    o->incy = incy;
    o->s_real = s_real;
    cublas_op_scalar(o, h, 0, c, cublas_elem(cublas_real(t)));
    cublas_op_scalar(o, h, 1, s, cublas_elem(s_real ? cublas_real(t) : t));
    return cublas_op_submit(h, o);
}

static cublasStatus_t rotm(cublasHandle_t h, const char *fn, cb_blas_type t, int64_t n, void *x, int64_t incx, void *y,
                           int64_t incy, const void *param)
{
    if (!cublas_handle_check(h) && n <= 0)
        return CUBLAS_STATUS_SUCCESS;
    BEGIN(&r_rotm, t);
    o->n = n;
    o->x = (uintptr_t)x;
    o->incx = incx;
    o->y = (uintptr_t)y;
    o->incy = incy;
    cublas_op_scalar(o, h, 0, param, 5 * cublas_elem(t));
    return cublas_op_submit(h, o);
}

/* rotg: a, b in and out; c and s out. */
static cublasStatus_t rotg(cublasHandle_t h, const char *fn, cb_blas_type t, void *a, void *b, void *c, void *s)
{
    BEGIN(&r_rotg, t);
    if (!a || !b || !c || !s) {
        free(o);
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    size_t w = cublas_elem(t), wr = cublas_elem(cublas_real(t));
    cublas_op_scalar(o, h, 0, a, w);
    cublas_op_scalar(o, h, 1, b, w);
    cublas_op_result(o, h, 0, a, w);
    cublas_op_result(o, h, 1, b, w);
    cublas_op_result(o, h, 2, c, wr);
    cublas_op_result(o, h, 3, s, w);
    return cublas_op_submit(h, o);
}

static cublasStatus_t rotmg(cublasHandle_t h, const char *fn, cb_blas_type t, void *d1, void *d2, void *x1,
                            const void *y1, void *param)
{
    BEGIN(&r_rotmg, t);
    if (!d1 || !d2 || !x1 || !y1 || !param) {
        free(o);
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    size_t w = cublas_elem(t);
    cublas_op_scalar(o, h, 0, d1, w);
    cublas_op_scalar(o, h, 1, d2, w);
    cublas_op_scalar(o, h, 2, x1, w);
    cublas_op_scalar(o, h, 3, y1, w);
    cublas_op_result(o, h, 0, d1, w);
    cublas_op_result(o, h, 1, d2, w);
    cublas_op_result(o, h, 2, x1, w);
    cublas_op_result(o, h, 3, param, 5 * w);
    return cublas_op_submit(h, o);
}

/* Each family once per type and integer width; N is the name's tail. */
#define L1(T, S, s, BT)                                                                                                \
    cublasStatus_t cublas##S##axpy_v2(cublasHandle_t h, int n, const T *alpha, const T *x, int incx, T *y, int incy)  \
    {                                                                                                                  \
        return axpy(h, "cublas" #S "axpy_v2", BT, n, alpha, x, incx, y, incy);                                         \
    }                                                                                                                  \
    cublasStatus_t cublas##S##axpy_v2_64(cublasHandle_t h, int64_t n, const T *alpha, const T *x, int64_t incx, T *y, \
                                         int64_t incy)                                                                 \
    {                                                                                                                  \
        return axpy(h, "cublas" #S "axpy_v2_64", BT, n, alpha, x, incx, y, incy);                                      \
    }                                                                                                                  \
    cublasStatus_t cublas##S##scal_v2(cublasHandle_t h, int n, const T *alpha, T *x, int incx)                        \
    {                                                                                                                  \
        return scal(h, "cublas" #S "scal_v2", BT, 0, n, alpha, x, incx);                                               \
    }                                                                                                                  \
    cublasStatus_t cublas##S##scal_v2_64(cublasHandle_t h, int64_t n, const T *alpha, T *x, int64_t incx)             \
    {                                                                                                                  \
        return scal(h, "cublas" #S "scal_v2_64", BT, 0, n, alpha, x, incx);                                            \
    }                                                                                                                  \
    cublasStatus_t cublas##S##copy_v2(cublasHandle_t h, int n, const T *x, int incx, T *y, int incy)                  \
    {                                                                                                                  \
        return copy_swap(h, "cublas" #S "copy_v2", 0, BT, n, x, incx, y, incy);                                        \
    }                                                                                                                  \
    cublasStatus_t cublas##S##copy_v2_64(cublasHandle_t h, int64_t n, const T *x, int64_t incx, T *y, int64_t incy)   \
    {                                                                                                                  \
        return copy_swap(h, "cublas" #S "copy_v2_64", 0, BT, n, x, incx, y, incy);                                     \
    }                                                                                                                  \
    cublasStatus_t cublas##S##swap_v2(cublasHandle_t h, int n, T *x, int incx, T *y, int incy)                        \
    {                                                                                                                  \
        return copy_swap(h, "cublas" #S "swap_v2", 1, BT, n, x, incx, y, incy);                                        \
    }                                                                                                                  \
    cublasStatus_t cublas##S##swap_v2_64(cublasHandle_t h, int64_t n, T *x, int64_t incx, T *y, int64_t incy)         \
    {                                                                                                                  \
        return copy_swap(h, "cublas" #S "swap_v2_64", 1, BT, n, x, incx, y, incy);                                     \
    }                                                                                                                  \
    cublasStatus_t cublasI##s##amax_v2(cublasHandle_t h, int n, const T *x, int incx, int *result)                    \
    {                                                                                                                  \
        return reduce(h, "cublasI" #s "amax_v2", &r_iamax, BT, n, x, incx, result, sizeof(int), 0);                    \
    }                                                                                                                  \
    cublasStatus_t cublasI##s##amax_v2_64(cublasHandle_t h, int64_t n, const T *x, int64_t incx, int64_t *result)     \
    {                                                                                                                  \
        return reduce(h, "cublasI" #s "amax_v2_64", &r_iamax, BT, n, x, incx, result, sizeof(int64_t), 0);             \
    }                                                                                                                  \
    cublasStatus_t cublasI##s##amin_v2(cublasHandle_t h, int n, const T *x, int incx, int *result)                    \
    {                                                                                                                  \
        return reduce(h, "cublasI" #s "amin_v2", &r_iamax, BT, n, x, incx, result, sizeof(int), 1);                    \
    }                                                                                                                  \
    cublasStatus_t cublasI##s##amin_v2_64(cublasHandle_t h, int64_t n, const T *x, int64_t incx, int64_t *result)     \
    {                                                                                                                  \
        return reduce(h, "cublasI" #s "amin_v2_64", &r_iamax, BT, n, x, incx, result, sizeof(int64_t), 1);             \
    }

L1(float, S, s, CB_BLAS_F32)
L1(double, D, d, CB_BLAS_F64)
L1(cuComplex, C, c, CB_BLAS_C32)
L1(cuDoubleComplex, Z, z, CB_BLAS_C64)

/* Reductions: the result's type and name differ per type (Snrm2, Scnrm2 ...). */
#define RED(NAME, T, R, r, BT)                                                                                         \
    cublasStatus_t cublas##NAME##_v2(cublasHandle_t h, int n, const T *x, int incx, R *result)                        \
    {                                                                                                                  \
        return reduce(h, "cublas" #NAME "_v2", &r, BT, n, x, incx, result, sizeof(R), 0);                              \
    }                                                                                                                  \
    cublasStatus_t cublas##NAME##_v2_64(cublasHandle_t h, int64_t n, const T *x, int64_t incx, R *result)             \
    {                                                                                                                  \
        return reduce(h, "cublas" #NAME "_v2_64", &r, BT, n, x, incx, result, sizeof(R), 0);                           \
    }
RED(Snrm2, float, float, r_nrm2, CB_BLAS_F32)
RED(Dnrm2, double, double, r_nrm2, CB_BLAS_F64)
RED(Scnrm2, cuComplex, float, r_nrm2, CB_BLAS_C32)
RED(Dznrm2, cuDoubleComplex, double, r_nrm2, CB_BLAS_C64)
RED(Sasum, float, float, r_asum, CB_BLAS_F32)
RED(Dasum, double, double, r_asum, CB_BLAS_F64)
RED(Scasum, cuComplex, float, r_asum, CB_BLAS_C32)
RED(Dzasum, cuDoubleComplex, double, r_asum, CB_BLAS_C64)

#define DOT(NAME, T, BT, CONJ)                                                                                         \
    cublasStatus_t cublas##NAME##_v2(cublasHandle_t h, int n, const T *x, int incx, const T *y, int incy, T *result)  \
    {                                                                                                                  \
        return dot(h, "cublas" #NAME "_v2", BT, CONJ, n, x, incx, y, incy, result);                                    \
    }                                                                                                                  \
    cublasStatus_t cublas##NAME##_v2_64(cublasHandle_t h, int64_t n, const T *x, int64_t incx, const T *y,            \
                                        int64_t incy, T *result)                                                       \
    {                                                                                                                  \
        return dot(h, "cublas" #NAME "_v2_64", BT, CONJ, n, x, incx, y, incy, result);                                 \
    }
DOT(Sdot, float, CB_BLAS_F32, 0)
DOT(Ddot, double, CB_BLAS_F64, 0)
DOT(Cdotu, cuComplex, CB_BLAS_C32, 0)
DOT(Cdotc, cuComplex, CB_BLAS_C32, 1)
DOT(Zdotu, cuDoubleComplex, CB_BLAS_C64, 0)
DOT(Zdotc, cuDoubleComplex, CB_BLAS_C64, 1)

/* scal with a real alpha on a complex vector. */
cublasStatus_t cublasCsscal_v2(cublasHandle_t h, int n, const float *alpha, cuComplex *x, int incx)
{
    return scal(h, "cublasCsscal_v2", CB_BLAS_C32, 1, n, alpha, x, incx);
}
cublasStatus_t cublasCsscal_v2_64(cublasHandle_t h, int64_t n, const float *alpha, cuComplex *x, int64_t incx)
{
    return scal(h, "cublasCsscal_v2_64", CB_BLAS_C32, 1, n, alpha, x, incx);
}
cublasStatus_t cublasZdscal_v2(cublasHandle_t h, int n, const double *alpha, cuDoubleComplex *x, int incx)
{
    return scal(h, "cublasZdscal_v2", CB_BLAS_C64, 1, n, alpha, x, incx);
}
cublasStatus_t cublasZdscal_v2_64(cublasHandle_t h, int64_t n, const double *alpha, cuDoubleComplex *x, int64_t incx)
{
    return scal(h, "cublasZdscal_v2_64", CB_BLAS_C64, 1, n, alpha, x, incx);
}

#define ROT(NAME, T, C, S, BT, SREAL)                                                                                  \
    cublasStatus_t cublas##NAME##_v2(cublasHandle_t h, int n, T *x, int incx, T *y, int incy, const C *c, const S *s) \
    {                                                                                                                  \
        return rot(h, "cublas" #NAME "_v2", BT, SREAL, n, x, incx, y, incy, c, s);                                     \
    }                                                                                                                  \
    cublasStatus_t cublas##NAME##_v2_64(cublasHandle_t h, int64_t n, T *x, int64_t incx, T *y, int64_t incy,          \
                                        const C *c, const S *s)                                                        \
    {                                                                                                                  \
        return rot(h, "cublas" #NAME "_v2_64", BT, SREAL, n, x, incx, y, incy, c, s);                                  \
    }
ROT(Srot, float, float, float, CB_BLAS_F32, 1)
ROT(Drot, double, double, double, CB_BLAS_F64, 1)
ROT(Crot, cuComplex, float, cuComplex, CB_BLAS_C32, 0)
ROT(Csrot, cuComplex, float, float, CB_BLAS_C32, 1)
ROT(Zrot, cuDoubleComplex, double, cuDoubleComplex, CB_BLAS_C64, 0)
ROT(Zdrot, cuDoubleComplex, double, double, CB_BLAS_C64, 1)

cublasStatus_t cublasSrotm_v2(cublasHandle_t h, int n, float *x, int incx, float *y, int incy, const float *param)
{
    return rotm(h, "cublasSrotm_v2", CB_BLAS_F32, n, x, incx, y, incy, param);
}
cublasStatus_t cublasSrotm_v2_64(cublasHandle_t h, int64_t n, float *x, int64_t incx, float *y, int64_t incy,
                                 const float *param)
{
    return rotm(h, "cublasSrotm_v2_64", CB_BLAS_F32, n, x, incx, y, incy, param);
}
cublasStatus_t cublasDrotm_v2(cublasHandle_t h, int n, double *x, int incx, double *y, int incy, const double *param)
{
    return rotm(h, "cublasDrotm_v2", CB_BLAS_F64, n, x, incx, y, incy, param);
}
cublasStatus_t cublasDrotm_v2_64(cublasHandle_t h, int64_t n, double *x, int64_t incx, double *y, int64_t incy,
                                 const double *param)
{
    return rotm(h, "cublasDrotm_v2_64", CB_BLAS_F64, n, x, incx, y, incy, param);
}

cublasStatus_t cublasSrotg_v2(cublasHandle_t h, float *a, float *b, float *c, float *s)
{
    return rotg(h, "cublasSrotg_v2", CB_BLAS_F32, a, b, c, s);
}
cublasStatus_t cublasDrotg_v2(cublasHandle_t h, double *a, double *b, double *c, double *s)
{
    return rotg(h, "cublasDrotg_v2", CB_BLAS_F64, a, b, c, s);
}
cublasStatus_t cublasCrotg_v2(cublasHandle_t h, cuComplex *a, cuComplex *b, float *c, cuComplex *s)
{
    return rotg(h, "cublasCrotg_v2", CB_BLAS_C32, a, b, c, s);
}
cublasStatus_t cublasZrotg_v2(cublasHandle_t h, cuDoubleComplex *a, cuDoubleComplex *b, double *c, cuDoubleComplex *s)
{
    return rotg(h, "cublasZrotg_v2", CB_BLAS_C64, a, b, c, s);
}
cublasStatus_t cublasSrotmg_v2(cublasHandle_t h, float *d1, float *d2, float *x1, const float *y1, float *param)
{
    return rotmg(h, "cublasSrotmg_v2", CB_BLAS_F32, d1, d2, x1, y1, param);
}
cublasStatus_t cublasDrotmg_v2(cublasHandle_t h, double *d1, double *d2, double *x1, const double *y1, double *param)
{
    return rotmg(h, "cublasDrotmg_v2", CB_BLAS_F64, d1, d2, x1, y1, param);
}

/* ---- the *Ex forms: types by cudaDataType --------------------------------------------
 * The combinations the cuBLAS documentation lists: x, y and the result of
 * one type (f16, bf16, f32, f64, c32, c64); f16/bf16 execute in f32 with an
 * f32 alpha; the others execute in their own type, alpha too (a real alpha
 * for complex x is NOT_SUPPORTED in ScalEx, as the H200 answers; Csscal
 * is the way). Anything else: NOT_SUPPORTED. */

#include "lib/common/blas_ref.h"

static int ex_type(cudaDataType v, cudaDataType exec, cudaDataType scalar, int scalar_may_be_real, int *alpha_real)
{
    int t = cbl_blas_type_of(v);
    *alpha_real = 0;
    if (t == CB_BLAS_F16 || t == CB_BLAS_BF16)
        return exec == CUDA_R_32F && (scalar == CUDA_R_32F || (int)scalar < 0) ? t : -1;
    if (t != CB_BLAS_F32 && t != CB_BLAS_F64 && t != CB_BLAS_C32 && t != CB_BLAS_C64)
        return -1;
    if (exec != v)
        return -1;
    if ((int)scalar >= 0 && scalar != v) {
        if (!scalar_may_be_real || cbl_blas_type_of(scalar) != (int)cublas_real((cb_blas_type)t))
            return -1;
        *alpha_real = 1;
    }
    return t;
}

static cublasStatus_t ex_refused(const char *fn)
{
    return (cublasStatus_t)cbl_unsupported_mode(CUBLAS_LIB, fn, "this combination of types");
}

#define NO_SCALAR ((cudaDataType)-1)

static cublasStatus_t axpy_ex(cublasHandle_t h, const char *fn, int64_t n, const void *alpha, cudaDataType at,
                              const void *x, cudaDataType xt, int64_t incx, void *y, cudaDataType yt, int64_t incy,
                              cudaDataType exec)
{
    int ar, t = xt == yt ? ex_type(xt, exec, at, 0, &ar) : -1;
    if (cublas_handle_check(h) == CUBLAS_STATUS_SUCCESS && t < 0)
        return ex_refused(fn);
    return axpy(h, fn, (cb_blas_type)(t < 0 ? 0 : t), n, alpha, x, incx, y, incy);
}

static cublasStatus_t scal_ex(cublasHandle_t h, const char *fn, int64_t n, const void *alpha, cudaDataType at, void *x,
                              cudaDataType xt, int64_t incx, cudaDataType exec)
{
    int ar, t = ex_type(xt, exec, at, 0, &ar);
    if (cublas_handle_check(h) == CUBLAS_STATUS_SUCCESS && t < 0)
        return ex_refused(fn);
    return scal(h, fn, (cb_blas_type)(t < 0 ? 0 : t), ar, n, alpha, x, incx);
}

static cublasStatus_t dot_ex(cublasHandle_t h, const char *fn, int conj, int64_t n, const void *x, cudaDataType xt,
                             int64_t incx, const void *y, cudaDataType yt, int64_t incy, void *result,
                             cudaDataType rt, cudaDataType exec)
{
    int ar, t = xt == yt && xt == rt ? ex_type(xt, exec, NO_SCALAR, 0, &ar) : -1;
    if (cublas_handle_check(h) == CUBLAS_STATUS_SUCCESS && (t < 0 || (conj && !cb_blas_type_complex((cb_blas_type)t))))
        return ex_refused(fn);
    return dot(h, fn, (cb_blas_type)(t < 0 ? 0 : t), conj, n, x, incx, y, incy, result);
}

static cublasStatus_t nrm2_ex(cublasHandle_t h, const char *fn, int64_t n, const void *x, cudaDataType xt,
                              int64_t incx, void *result, cudaDataType rt, cudaDataType exec)
{
    int ar, t = ex_type(xt, cb_blas_type_complex((cb_blas_type)cbl_blas_type_of(xt)) ? xt : exec, NO_SCALAR, 0, &ar);
    if (t >= 0 && cbl_blas_type_of(rt) != (int)cublas_real((cb_blas_type)t))
        t = -1;
    if (t >= 0 && !cublas_lowp((cb_blas_type)t) && exec != rt)
        t = -1;
    if (cublas_handle_check(h) == CUBLAS_STATUS_SUCCESS && t < 0)
        return ex_refused(fn);
    size_t rbytes = cublas_elem(cublas_real((cb_blas_type)(t < 0 ? 0 : t)));
    return reduce(h, fn, &r_nrm2, (cb_blas_type)(t < 0 ? 0 : t), n, x, incx, result, rbytes, 0);
}

#define EX(I, SUF)                                                                                                     \
    cublasStatus_t cublasAxpyEx##SUF(cublasHandle_t h, I n, const void *alpha, cudaDataType alphaType, const void *x, \
                                     cudaDataType xType, I incx, void *y, cudaDataType yType, I incy,                  \
                                     cudaDataType executiontype)                                                       \
    {                                                                                                                  \
        return axpy_ex(h, "cublasAxpyEx" #SUF, n, alpha, alphaType, x, xType, incx, y, yType, incy, executiontype);   \
    }                                                                                                                  \
    cublasStatus_t cublasScalEx##SUF(cublasHandle_t h, I n, const void *alpha, cudaDataType alphaType, void *x,       \
                                     cudaDataType xType, I incx, cudaDataType executionType)                           \
    {                                                                                                                  \
        return scal_ex(h, "cublasScalEx" #SUF, n, alpha, alphaType, x, xType, incx, executionType);                    \
    }                                                                                                                  \
    cublasStatus_t cublasDotEx##SUF(cublasHandle_t h, I n, const void *x, cudaDataType xType, I incx, const void *y,  \
                                    cudaDataType yType, I incy, void *result, cudaDataType resultType,                 \
                                    cudaDataType executionType)                                                        \
    {                                                                                                                  \
        return dot_ex(h, "cublasDotEx" #SUF, 0, n, x, xType, incx, y, yType, incy, result, resultType, executionType); \
    }                                                                                                                  \
    cublasStatus_t cublasDotcEx##SUF(cublasHandle_t h, I n, const void *x, cudaDataType xType, I incx, const void *y, \
                                     cudaDataType yType, I incy, void *result, cudaDataType resultType,                \
                                     cudaDataType executionType)                                                       \
    {                                                                                                                  \
        return dot_ex(h, "cublasDotcEx" #SUF, 1, n, x, xType, incx, y, yType, incy, result, resultType, executionType);\
    }                                                                                                                  \
    cublasStatus_t cublasNrm2Ex##SUF(cublasHandle_t h, I n, const void *x, cudaDataType xType, I incx, void *result,  \
                                     cudaDataType resultType, cudaDataType executionType)                              \
    {                                                                                                                  \
        return nrm2_ex(h, "cublasNrm2Ex" #SUF, n, x, xType, incx, result, resultType, executionType);                  \
    }
EX(int, )
EX(int64_t, _64)
