/* audit_conv.c: the conv2d-fwd and conv2d-bwd presets, through cuDNN's
 * legacy API (NCHW tensors of the precision, FLOAT compute type):
 *   conv2d-fwd.xcorr.P            cudnnConvolutionForward, cross-correlation, 3x3, pad 1
 *   conv2d-fwd.conv-s2d2g2-ab.P   true convolution (flipped filter), pad 2, stride 2,
 *                                 dilation 2, 2 groups, alpha 0.5, beta 0.25
 *   conv2d-bwd.data.P             cudnnConvolutionBackwardData, cross-correlation
 *   conv2d-bwd.data-conv-g2-ab.P  ... true convolution, 2 groups, alpha 0.5, beta 0.25
 *   conv2d-bwd.filter.P           cudnnConvolutionBackwardFilter, cross-correlation
 *   conv2d-bwd.filter-conv-s2-ab.P  ... true convolution, stride 2, alpha/beta
 *   conv2d-bwd.bias.P             cudnnConvolutionBackwardBias
 * The traps these probe: true convolution treated as cross-correlation,
 * alpha != 1 or beta != 0 refused or ignored, groups and dilation. Batch N
 * = --batch (2), image --seq x --seq (16), 8 channels in, 8 out. Reference:
 * the definition's loops in double over the rounded inputs; tolerance x
 * sqrt(terms summed). */
#include "audit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cudnn.h>

enum { DIR_FWD, DIR_DATA, DIR_FILTER };

typedef struct conv_spec {
    const char *label;
    int dir, conv_mode, pad, stride, dil, groups;
    double alpha, beta;
} conv_spec;

static cudnnDataType_t dnn_type(audit_precision p)
{
    return p == AUDIT_FP16 ? CUDNN_DATA_HALF : p == AUDIT_BF16 ? CUDNN_DATA_BFLOAT16 : CUDNN_DATA_FLOAT;
}

typedef struct buf {
    size_t n;
    void *h, *got, *ref;
    double *v;
    CUdeviceptr d;
} buf;

static int buf_make(buf *b, audit_precision p, size_t n, uint32_t seed)
{
    size_t w = audit_elem_bytes(p);
    b->n = n;
    b->h = malloc(n * w), b->got = malloc(n * w), b->ref = malloc(n * w), b->v = malloc(n * sizeof(double));
    if (!b->h || !b->got || !b->ref || !b->v)
        return -1;
    audit_fill(p, b->h, b->v, n, seed);
    b->d = audit_upload(b->h, n * w);
    return b->d ? 0 : -1;
}

static void buf_free(buf *b)
{
    free(b->h), free(b->got), free(b->ref), free(b->v);
    audit_free(b->d);
}

/* The status of a cuDNN call as the verdict: 0 success; else filed. */
static int dnn_status(audit_run *r, const char *name, const char *call, cudnnStatus_t st, uint64_t t0)
{
    if (st == CUDNN_STATUS_SUCCESS)
        return 0;
    char why[160];
    snprintf(why, sizeof why, "%s: %s", call, cudnnGetErrorString(st));
    if (st / 1000 * 1000 == CUDNN_STATUS_NOT_SUPPORTED)
        audit_unsupported(r, name, why, t0);
    else
        audit_fail(r, name, why, t0);
    return -1;
}

static void conv_case(audit_run *r, cudnnHandle_t h, const char *preset, const conv_spec *cs)
{
    const audit_precision p = r->prec;
    const int N = r->batch ? r->batch : 2, C = 8, K = 8, H = r->seq ? r->seq : 16, W = H, R = 3, S = 3;
    const int G = cs->groups, Cg = C / G, Kg = K / G;
    const int OH = (H + 2 * cs->pad - ((R - 1) * cs->dil + 1)) / cs->stride + 1;
    const int OW = (W + 2 * cs->pad - ((S - 1) * cs->dil + 1)) / cs->stride + 1;
    char name[64], note[200];
    snprintf(name, sizeof name, "%s.%s.%s", preset, cs->label, audit_precision_name(p));
    snprintf(note, sizeof note, "N%d C%d H%d W%d K%d %dx%d, %s, pad %d stride %d dil %d groups %d, alpha %g beta %g", N,
             C, H, W, K, R, S, cs->conv_mode ? "convolution" : "cross-correlation", cs->pad, cs->stride, cs->dil, G,
             cs->alpha, cs->beta);
    uint64_t t0 = audit_now(r);
    buf x = {0}, w = {0}, y = {0};
    cudnnTensorDescriptor_t xd = NULL, yd = NULL;
    cudnnFilterDescriptor_t wd = NULL;
    cudnnConvolutionDescriptor_t cd = NULL;
    CUdeviceptr ws = 0;
    double *acc = NULL;
    if (buf_make(&x, p, (size_t)N * C * H * W, 11) || buf_make(&w, p, (size_t)K * Cg * R * S, 12) ||
        buf_make(&y, p, (size_t)N * K * OH * OW, 13)) {
        audit_fail(r, name, "out of memory", t0);
        goto out;
    }
    cudnnDataType_t t = dnn_type(p);
    if (dnn_status(r, name, "cudnnCreateTensorDescriptor", cudnnCreateTensorDescriptor(&xd), t0) ||
        dnn_status(r, name, "cudnnCreateTensorDescriptor", cudnnCreateTensorDescriptor(&yd), t0) ||
        dnn_status(r, name, "cudnnCreateFilterDescriptor", cudnnCreateFilterDescriptor(&wd), t0) ||
        dnn_status(r, name, "cudnnCreateConvolutionDescriptor", cudnnCreateConvolutionDescriptor(&cd), t0) ||
        dnn_status(r, name, "cudnnSetTensor4dDescriptor",
                   cudnnSetTensor4dDescriptor(xd, CUDNN_TENSOR_NCHW, t, N, C, H, W), t0) ||
        dnn_status(r, name, "cudnnSetTensor4dDescriptor",
                   cudnnSetTensor4dDescriptor(yd, CUDNN_TENSOR_NCHW, t, N, K, OH, OW), t0) ||
        dnn_status(r, name, "cudnnSetFilter4dDescriptor",
                   cudnnSetFilter4dDescriptor(wd, t, CUDNN_TENSOR_NCHW, K, Cg, R, S), t0) ||
        dnn_status(r, name, "cudnnSetConvolution2dDescriptor",
                   cudnnSetConvolution2dDescriptor(cd, cs->pad, cs->pad, cs->stride, cs->stride, cs->dil, cs->dil,
                                                   cs->conv_mode ? CUDNN_CONVOLUTION : CUDNN_CROSS_CORRELATION,
                                                   CUDNN_DATA_FLOAT),
                   t0) ||
        dnn_status(r, name, "cudnnSetConvolutionGroupCount", cudnnSetConvolutionGroupCount(cd, G), t0))
        goto out;
    size_t wsize = 0;
    cudnnStatus_t st;
    const char *call;
    if (cs->dir == DIR_FWD) {
        call = "cudnnGetConvolutionForwardWorkspaceSize";
        st = cudnnGetConvolutionForwardWorkspaceSize(h, xd, wd, cd, yd, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM,
                                                     &wsize);
    } else if (cs->dir == DIR_DATA) {
        call = "cudnnGetConvolutionBackwardDataWorkspaceSize";
        st = cudnnGetConvolutionBackwardDataWorkspaceSize(h, wd, yd, cd, xd, CUDNN_CONVOLUTION_BWD_DATA_ALGO_1, &wsize);
    } else {
        call = "cudnnGetConvolutionBackwardFilterWorkspaceSize";
        st = cudnnGetConvolutionBackwardFilterWorkspaceSize(h, xd, yd, cd, wd, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1,
                                                            &wsize);
    }
    if (dnn_status(r, name, call, st, t0))
        goto out;
    if (wsize && !(ws = audit_upload(NULL, wsize))) {
        audit_fail(r, name, "workspace allocation", t0);
        goto out;
    }
    float alpha = (float)cs->alpha, beta = (float)cs->beta;
    void *pws = (void *)(uintptr_t)ws;
    buf *out = cs->dir == DIR_FWD ? &y : cs->dir == DIR_DATA ? &x : &w;
    if (cs->dir == DIR_FWD) {
        call = "cudnnConvolutionForward";
        st = cudnnConvolutionForward(h, &alpha, xd, (void *)(uintptr_t)x.d, wd, (void *)(uintptr_t)w.d, cd,
                                     CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, pws, wsize, &beta, yd,
                                     (void *)(uintptr_t)y.d);
    } else if (cs->dir == DIR_DATA) {
        call = "cudnnConvolutionBackwardData";
        st = cudnnConvolutionBackwardData(h, &alpha, wd, (void *)(uintptr_t)w.d, yd, (void *)(uintptr_t)y.d, cd,
                                          CUDNN_CONVOLUTION_BWD_DATA_ALGO_1, pws, wsize, &beta, xd,
                                          (void *)(uintptr_t)x.d);
    } else {
        call = "cudnnConvolutionBackwardFilter";
        st = cudnnConvolutionBackwardFilter(h, &alpha, xd, (void *)(uintptr_t)x.d, yd, (void *)(uintptr_t)y.d, cd,
                                            CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1, pws, wsize, &beta, wd,
                                            (void *)(uintptr_t)w.d);
    }
    if (dnn_status(r, name, call, st, t0))
        goto out;
    size_t eb = audit_elem_bytes(p);
    if (audit_download(out->got, out->d, out->n * eb) != 0) {
        audit_fail(r, name, "cuMemcpyDtoH after the call", t0);
        goto out;
    }
    /* the definition: one loop nest, each direction accumulating its output */
    acc = calloc(out->n, sizeof(double));
    if (!acc) {
        audit_fail(r, name, "out of host memory", t0);
        goto out;
    }
    for (int n = 0; n < N; n++)
        for (int k = 0; k < K; k++)
            for (int oh = 0; oh < OH; oh++)
                for (int ow = 0; ow < OW; ow++)
                    for (int c = 0; c < Cg; c++)
                        for (int i = 0; i < R; i++)
                            for (int j = 0; j < S; j++) {
                                int ih = oh * cs->stride - cs->pad + i * cs->dil;
                                int iw = ow * cs->stride - cs->pad + j * cs->dil;
                                if (ih < 0 || ih >= H || iw < 0 || iw >= W)
                                    continue;
                                int fi = cs->conv_mode ? R - 1 - i : i, fj = cs->conv_mode ? S - 1 - j : j;
                                size_t xi = (((size_t)n * C + (k / Kg) * Cg + c) * H + ih) * W + iw;
                                size_t wi = (((size_t)k * Cg + c) * R + fi) * S + fj;
                                size_t yi = (((size_t)n * K + k) * OH + oh) * OW + ow;
                                if (cs->dir == DIR_FWD)
                                    acc[yi] += x.v[xi] * w.v[wi];
                                else if (cs->dir == DIR_DATA)
                                    acc[xi] += y.v[yi] * w.v[wi];
                                else
                                    acc[wi] += y.v[yi] * x.v[xi];
                            }
    for (size_t e = 0; e < out->n; e++)
        audit_store(p, out->ref, e, cs->alpha * acc[e] + cs->beta * out->v[e]);
    double terms = cs->dir == DIR_FWD ? Cg * R * S : cs->dir == DIR_DATA ? Kg * R * S : (double)N * OH * OW;
    audit_check(r, name, out->got, out->ref, out->n, p, sqrt(terms), note, t0);
out:
    free(acc);
    audit_free(ws);
    if (cd)
        cudnnDestroyConvolutionDescriptor(cd);
    if (wd)
        cudnnDestroyFilterDescriptor(wd);
    if (xd)
        cudnnDestroyTensorDescriptor(xd);
    if (yd)
        cudnnDestroyTensorDescriptor(yd);
    buf_free(&x), buf_free(&w), buf_free(&y);
}

/* dy of N x K x H x W -> db of 1 x K x 1 x 1 (sums over n, h, w). */
static void bias_case(audit_run *r, cudnnHandle_t h)
{
    const audit_precision p = r->prec;
    const int N = r->batch ? r->batch : 2, K = 8, H = r->seq ? r->seq : 16, W = H;
    char name[64], note[96];
    snprintf(name, sizeof name, "conv2d-bwd.bias.%s", audit_precision_name(p));
    snprintf(note, sizeof note, "N%d K%d H%d W%d, alpha 1 beta 0", N, K, H, W);
    uint64_t t0 = audit_now(r);
    buf dy = {0}, db = {0};
    cudnnTensorDescriptor_t yd = NULL, bd = NULL;
    if (buf_make(&dy, p, (size_t)N * K * H * W, 21) || buf_make(&db, p, K, 22)) {
        audit_fail(r, name, "out of memory", t0);
        goto out;
    }
    cudnnDataType_t t = dnn_type(p);
    float alpha = 1, beta = 0;
    if (dnn_status(r, name, "cudnnCreateTensorDescriptor", cudnnCreateTensorDescriptor(&yd), t0) ||
        dnn_status(r, name, "cudnnCreateTensorDescriptor", cudnnCreateTensorDescriptor(&bd), t0) ||
        dnn_status(r, name, "cudnnSetTensor4dDescriptor",
                   cudnnSetTensor4dDescriptor(yd, CUDNN_TENSOR_NCHW, t, N, K, H, W), t0) ||
        dnn_status(r, name, "cudnnSetTensor4dDescriptor",
                   cudnnSetTensor4dDescriptor(bd, CUDNN_TENSOR_NCHW, t, 1, K, 1, 1), t0) ||
        dnn_status(r, name, "cudnnConvolutionBackwardBias",
                   cudnnConvolutionBackwardBias(h, &alpha, yd, (void *)(uintptr_t)dy.d, &beta, bd,
                                                (void *)(uintptr_t)db.d),
                   t0))
        goto out;
    if (audit_download(db.got, db.d, (size_t)K * audit_elem_bytes(p)) != 0) {
        audit_fail(r, name, "cuMemcpyDtoH after the call", t0);
        goto out;
    }
    for (int k = 0; k < K; k++) {
        double s = 0;
        for (int n = 0; n < N; n++)
            for (int e = 0; e < H * W; e++)
                s += dy.v[((size_t)n * K + k) * H * W + e];
        audit_store(p, db.ref, k, s);
    }
    audit_check(r, name, db.got, db.ref, K, p, sqrt((double)N * H * W), note, t0);
out:
    if (yd)
        cudnnDestroyTensorDescriptor(yd);
    if (bd)
        cudnnDestroyTensorDescriptor(bd);
    buf_free(&dy), buf_free(&db);
}

static int with_handle(audit_run *r, const char *preset, cudnnHandle_t *h)
{
    char name[64];
    snprintf(name, sizeof name, "%s.handle", preset);
    return dnn_status(r, name, "cudnnCreate", cudnnCreate(h), audit_now(r));
}

int audit_conv2d_fwd(audit_run *r)
{
    static const conv_spec specs[] = {
        {"xcorr", DIR_FWD, 0, 1, 1, 1, 1, 1.0, 0.0},
        {"conv-s2d2g2-ab", DIR_FWD, 1, 2, 2, 2, 2, 0.5, 0.25},
    };
    cudnnHandle_t h;
    if (with_handle(r, "conv2d-fwd", &h))
        return -1;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        conv_case(r, h, "conv2d-fwd", &specs[i]);
    cudnnDestroy(h);
    return 0;
}

int audit_conv2d_bwd(audit_run *r)
{
    static const conv_spec specs[] = {
        {"data", DIR_DATA, 0, 1, 1, 1, 1, 1.0, 0.0},
        {"data-conv-g2-ab", DIR_DATA, 1, 1, 1, 1, 2, 0.5, 0.25},
        {"filter", DIR_FILTER, 0, 1, 1, 1, 1, 1.0, 0.0},
        {"filter-conv-s2-ab", DIR_FILTER, 1, 1, 2, 1, 1, 0.5, 0.25},
    };
    cudnnHandle_t h;
    if (with_handle(r, "conv2d-bwd", &h))
        return -1;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        conv_case(r, h, "conv2d-bwd", &specs[i]);
    bias_case(r, h);
    cudnnDestroy(h);
    return 0;
}
