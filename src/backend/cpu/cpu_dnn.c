/* cpu_dnn.c: the CPU backend's convolutions (backend_dnn.h, cpu_dnn.h).
 *
 * Each convolution runs on oneDNN when it can (an f32 accumulation over
 * f32, f16 or bf16 operands), else on the direct loops in double. Operands
 * are staged only where needed:
 *   - an f32 input without rounding, of positive strides, goes to oneDNN as
 *     it lies (any layout: oneDNN takes plain strided memory);
 *   - other inputs are packed into f32 (oneDNN) or f64 (direct loops),
 *     converting f16/bf16 exactly and rounding to TF32 where asked (the
 *     GPU's tensor cores read TF32: 10 mantissa bits, cvt.rna);
 *   - a mirrored filter (CUDNN_CONVOLUTION) is read through a view with
 *     negated spatial strides, so it is packed too;
 *   - the output is written in place when alpha = 1, beta = 0 and it is f32
 *     of positive strides; otherwise into a packed buffer, then blended:
 *     out = alpha * result + beta * out (out not read when beta = 0),
 *     computed in double and rounded once to the output's type.
 */
#include "backend/cpu/cpu_dnn.h"

#include <stdlib.h>
#include <string.h>

#include "platform/log.h"
#include "platform/thread.h"

#include "backend/blas_elem.h"
#include "backend/cpu/cpu_internal.h"

#define DNN_PTR(addr) ((char *)(uintptr_t)(addr))

static size_t tensor_count(const cb_dnn_tensor *t)
{
    size_t n = 1;
    for (int d = 0; d < t->nd; d++)
        n *= (size_t)t->dim[d];
    return n;
}

static int strides_positive(const cb_dnn_tensor *t)
{
    for (int d = 0; d < t->nd; d++)
        if (t->stride[d] <= 0)
            return 0;
    return 1;
}

/* The filter read mirrored in every spatial dimension. */
static void view_flip(cb_dnn_tensor *t)
{
    size_t es = cb_blas_type_size((cb_blas_type)t->type);
    for (int d = 2; d < t->nd; d++) {
        t->addr += (uint64_t)((t->dim[d] - 1) * t->stride[d] * (int64_t)es);
        t->stride[d] = -t->stride[d];
    }
}

static void plain_of(cpu_dnn_plain *p, const cb_dnn_tensor *t, void *data)
{
    p->nd = t->nd;
    int64_t s = 1;
    for (int d = t->nd - 1; d >= 0; d--) {
        p->dim[d] = t->dim[d];
        p->stride[d] = s;
        s *= t->dim[d];
    }
    p->data = data;
}

static void plain_in_place(cpu_dnn_plain *p, const cb_dnn_tensor *t)
{
    p->nd = t->nd;
    for (int d = 0; d < t->nd; d++) {
        p->dim[d] = t->dim[d];
        p->stride[d] = t->stride[d];
    }
    p->data = DNN_PTR(t->addr);
}

/* Calls row(p, n, stride, k, ctx) for each run of the last dimension: p
 * the address of its first element, k its index among the runs (in
 * row-major order). */
static void for_each_row(const cb_dnn_tensor *t, void (*row)(const char *p, int64_t n, int64_t stride, size_t k, void *ctx),
                         void *ctx)
{
    size_t es = cb_blas_type_size((cb_blas_type)t->type);
    int last = t->nd - 1;
    int64_t idx[CB_DNN_MAX_DIMS] = {0};
    size_t rows = tensor_count(t) / (size_t)t->dim[last];
    for (size_t k = 0; k < rows; k++) {
        int64_t off = 0;
        for (int d = 0; d < last; d++)
            off += idx[d] * t->stride[d];
        row(DNN_PTR(t->addr) + off * (int64_t)es, t->dim[last], t->stride[last], k, ctx);
        for (int d = last - 1; d >= 0; d--) {
            if (++idx[d] < t->dim[d])
                break;
            idx[d] = 0;
        }
    }
}

typedef struct stage_ctx {
    int type;          /* the tensor's */
    int to_f64;        /* else f32 */
    int round;         /* cb_blas_input_round */
    void *dst;
    int64_t row_len;
    /* blend */
    double alpha, beta;
    const void *src;
    int src_f64;
} stage_ctx;

static void gather_row(const char *p, int64_t n, int64_t stride, size_t k, void *vctx)
{
    stage_ctx *s = vctx;
    size_t es = cb_blas_type_size((cb_blas_type)s->type);
    if (s->to_f64) {
        double *d = (double *)s->dst + k * (size_t)s->row_len;
        for (int64_t j = 0; j < n; j++)
            d[j] = cb_blas_round_input((cb_blas_input_round)s->round,
                                       cb_blas_load((cb_blas_type)s->type, p + j * stride * (int64_t)es, 0).re);
        return;
    }
    float *d = (float *)s->dst + k * (size_t)s->row_len;
    if (s->type == CB_BLAS_F32 && s->round == CB_BLAS_ROUND_NONE) {
        for (int64_t j = 0; j < n; j++)
            d[j] = *(const float *)(p + j * stride * 4);
    } else if (s->type == CB_BLAS_F32 && s->round == CB_BLAS_ROUND_TF32) {
        for (int64_t j = 0; j < n; j++)
            d[j] = cb_blas_round_tf32(*(const float *)(p + j * stride * 4));
    } else if (s->type == CB_BLAS_F16) {
        for (int64_t j = 0; j < n; j++)
            d[j] = cb_half_to_float(*(const uint16_t *)(p + j * stride * 2));
    } else if (s->type == CB_BLAS_BF16) {
        for (int64_t j = 0; j < n; j++)
            d[j] = cb_bf16_to_float(*(const uint16_t *)(p + j * stride * 2));
    } else {
        for (int64_t j = 0; j < n; j++)
            d[j] = (float)cb_blas_round_input((cb_blas_input_round)s->round,
                                              cb_blas_load((cb_blas_type)s->type, p + j * stride * (int64_t)es, 0).re);
    }
}

/* A packed f32 (to_f64 0) or f64 copy of t, rounded as asked; NULL when out of memory. */
static void *gather(const cb_dnn_tensor *t, int to_f64, int round)
{
    size_t n = tensor_count(t);
    void *dst = malloc(n * (to_f64 ? 8 : 4));
    if (!dst)
        return NULL;
    stage_ctx s = {.type = t->type, .to_f64 = to_f64, .round = round, .dst = dst, .row_len = t->dim[t->nd - 1]};
    for_each_row(t, gather_row, &s);
    return dst;
}

static void blend_row(const char *p, int64_t n, int64_t stride, size_t k, void *vctx)
{
    stage_ctx *s = vctx;
    size_t es = cb_blas_type_size((cb_blas_type)s->type);
    size_t base = k * (size_t)s->row_len;
    char *q = (char *)(uintptr_t)p;
    if (s->type == CB_BLAS_F32 && !s->src_f64 && s->alpha == 1 && s->beta == 0) {
        const float *src = (const float *)s->src + base;
        for (int64_t j = 0; j < n; j++)
            *(float *)(q + j * stride * 4) = src[j];
        return;
    }
    for (int64_t j = 0; j < n; j++) {
        double v = s->src_f64 ? ((const double *)s->src)[base + (size_t)j] : ((const float *)s->src)[base + (size_t)j];
        char *e = q + j * stride * (int64_t)es;
        v *= s->alpha;
        if (s->beta != 0)
            v += s->beta * cb_blas_load((cb_blas_type)s->type, e, 0).re;
        cb_blas_store((cb_blas_type)s->type, e, 0, (cb_cplx){v, 0});
    }
}

/* out = alpha * src + beta * out, src packed (f32 or f64). */
static void blend(const cb_dnn_tensor *t, const void *src, int src_f64, double alpha, double beta)
{
    stage_ctx s = {.type = t->type, .src = src, .src_f64 = src_f64, .alpha = alpha, .beta = beta,
                   .row_len = t->dim[t->nd - 1]};
    for_each_row(t, blend_row, &s);
}

static int onednn_type(int t) { return t == CB_BLAS_F32 || t == CB_BLAS_F16 || t == CB_BLAS_BF16; }

/* The operands in the order x, w, y; which one the direction writes. */
static int output_index(int direction)
{
    return direction == CB_DNN_CONV_FWD ? 2 : direction == CB_DNN_CONV_BWD_DATA ? 0 : 1;
}

static CUresult conv_onednn(const cb_dnn_conv *c, const cb_dnn_tensor *t[3])
{
    int out = output_index(c->direction);
    cpu_dnn_plain p[3];
    void *temp[3] = {NULL, NULL, NULL};
    CUresult r = CUDA_SUCCESS;
    for (int i = 0; i < 3 && r == CUDA_SUCCESS; i++) {
        int direct = t[i]->type == CB_BLAS_F32 && strides_positive(t[i]);
        if (i == out) {
            if (direct && c->alpha == 1 && c->beta == 0) {
                plain_in_place(&p[i], t[i]);
            } else if (!(temp[i] = malloc(tensor_count(t[i]) * 4))) {
                r = CUDA_ERROR_OUT_OF_MEMORY;
            } else {
                plain_of(&p[i], t[i], temp[i]);
            }
        } else if (direct && c->round == CB_BLAS_ROUND_NONE) {
            plain_in_place(&p[i], t[i]);
        } else if (!(temp[i] = gather(t[i], 0, c->round))) {
            r = CUDA_ERROR_OUT_OF_MEMORY;
        } else {
            plain_of(&p[i], t[i], temp[i]);
        }
    }
    if (r == CUDA_SUCCESS)
        r = cpu_dnn_onednn_conv(c, &p[0], &p[1], &p[2]);
    if (r == CUDA_SUCCESS && temp[out])
        blend(t[out], temp[out], 0, c->alpha, c->beta);
    for (int i = 0; i < 3; i++)
        free(temp[i]);
    return r;
}

static CUresult conv_direct(const cb_dnn_conv *c, const cb_dnn_tensor *t[3])
{
    int out = output_index(c->direction);
    double *d[3] = {NULL, NULL, NULL};
    CUresult r = CUDA_SUCCESS;
    for (int i = 0; i < 3 && r == CUDA_SUCCESS; i++) {
        d[i] = i == out ? calloc(tensor_count(t[i]), sizeof(double)) : gather(t[i], 1, c->round);
        if (!d[i])
            r = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (r == CUDA_SUCCESS)
        r = cpu_dnn_direct_conv(c, d[0], d[1], d[2]);
    if (r == CUDA_SUCCESS)
        blend(t[out], d[out], 1, c->alpha, c->beta);
    for (int i = 0; i < 3; i++)
        free(d[i]);
    return r;
}

/* CUBRIDGE_DNN_DIRECT=1: the direct loops only (tests of that path). */
static cb_once direct_once = CB_ONCE_INIT;
static int direct_only;
static void direct_read(void)
{
    const char *e = getenv("CUBRIDGE_DNN_DIRECT");
    direct_only = e && e[0] == '1';
}

CUresult cpu_dnn_conv(cb_backend *b, const cb_dnn_conv *c)
{
    (void)b;
    if (c->x.nd < 3 || c->x.nd > CB_DNN_MAX_DIMS || c->w.nd != c->x.nd || c->y.nd != c->x.nd ||
        c->nsp != c->x.nd - 2 || c->groups < 1 || c->direction < CB_DNN_CONV_FWD ||
        c->direction > CB_DNN_CONV_BWD_FILTER)
        return CUDA_ERROR_INVALID_VALUE;
    const cb_dnn_tensor *ts[3] = {&c->x, &c->w, &c->y};
    for (int i = 0; i < 3; i++)
        if (!cb_blas_elem_supported((cb_blas_type)ts[i]->type) || cb_blas_type_complex((cb_blas_type)ts[i]->type))
            return CUDA_ERROR_NOT_SUPPORTED;
    cb_dnn_tensor w = c->w;
    if (c->flip)
        view_flip(&w);
    const cb_dnn_tensor *t[3] = {&c->x, &w, &c->y};
    cb_run_once(&direct_once, direct_read);
    if (!direct_only && c->accumulate == CB_BLAS_F32 && onednn_type(c->x.type) && onednn_type(c->w.type) &&
        onednn_type(c->y.type) && cpu_dnn_onednn_available()) {
        CUresult r = conv_onednn(c, t);
        if (r != CUDA_ERROR_NOT_SUPPORTED)
            return r;
        cb_log(CB_LOG_DEBUG, "dnn: oneDNN has no kernel for this convolution (direction %d, %d-D): direct loops",
                   c->direction, c->nsp);
    }
    return conv_direct(c, t);
}
