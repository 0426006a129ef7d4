/* fuzz_cudnn_desc.c: libFuzzer harness for the cuDNN facade's legacy
 * descriptors (src/lib/cudnn: cudnn_tensor.c, cudnn_conv.c, cudnn_pool.c,
 * cudnn_activation.c, the LRN, op-tensor and batch-norm descriptors), where
 * an application hands the library counts, dimension arrays and strides it
 * chose. Called through the public names (the facade's exports, linked in
 * as objects); no GPU, no backend, no handle.
 *
 * The input is a list of operations, each one byte (op % OPS) and its
 * arguments. A number is one byte b: b < 0xF0 gives b - 8 (-8..231); 0xF1
 * INT_MAX, 0xF2 INT_MIN, 0xF3 65536, any other >= 0xF0 the next 4 bytes
 * (little-endian int32). Missing bytes are 0. An array of n numbers sits in
 * a heap buffer of exactly n ints (n from the input, any value, not
 * CUDNN_DIM_MAX; at most 64 are allocated, 0 or less gives a buffer of
 * none), so ASan sees any read or write past what the caller gave.
 *
 * Postconditions, else abort():
 *   - every status is one cuDNN 9 defines, with a text (cudnnGetErrorString);
 *   - a Set that succeeds round-trips through its Get (dims, strides, types,
 *     modes, coefficients); Get on a descriptor never set fails;
 *   - cudnnGetTensorSizeInBytes / cudnnGetFilterSizeInBytes of a set
 *     descriptor is the exact byte extent of its dims and strides (computed
 *     here in 128 bits): a size that would not fit in size_t is refused at
 *     Set, never wrapped;
 *   - an output-dimension query that succeeds gives cuDNN's formula's
 *     values, each of them positive and an int;
 *   - queries that need a handle fail without one and leave their outputs
 *     untouched; a descriptor of another kind is refused. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cudnn.h>

#include "fuzz_input.h"

/* The buffers are short on purpose (none at all for a count of 0 or less):
 * gcc sees a 1-byte region passed as an int array and warns. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif


/* ---- the input ------------------------------------------------------------ */

static int32_t raw32(rd *r) { return (int32_t)raw_bytes(r, 4); }

static int num(rd *r)
{
    uint8_t b = u8(r);
    if (b < 0xF0)
        return (int)b - 8;
    switch (b) {
    case 0xF1: return INT_MAX;
    case 0xF2: return INT_MIN;
    case 0xF3: return 65536;
    default: return raw32(r);
    }
}

static double dbl(rd *r)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)u8(r) << (8 * i);
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

enum { MAX_ALLOC = 64 };

static int alloc_count(int n) { return n <= 0 ? 0 : n > MAX_ALLOC ? MAX_ALLOC : n; }

/* An array of n numbers from the input, exactly alloc_count(n) ints. */
static int *arr(rd *r, int n)
{
    int k = alloc_count(n);
    int *a = malloc(k ? (size_t)k * sizeof *a : 1);
    require(a != NULL);
    for (int i = 0; i < k; i++)
        a[i] = num(r);
    return a;
}

/* An output array of exactly alloc_count(n) ints, filled with a marker. */
static int *out_arr(int n)
{
    int k = alloc_count(n);
    int *a = malloc(k ? (size_t)k * sizeof *a : 1);
    require(a != NULL);
    for (int i = 0; i < k; i++)
        a[i] = 0x5a5a5a5a;
    return a;
}

/* ---- statuses --------------------------------------------------------------- */

static int known_status(cudnnStatus_t s)
{
    switch ((int)s) {
    case 0:
    case 1001: case 1002: case 1003: case 1004: case 1005: case 1006: case 1007: case 1008:
    case 2000: case 2001: case 2002: case 2003: case 2004: case 2005: case 2006: case 2007: case 2008:
    case 2009: case 2010: case 2011: case 2012:
    case 3000: case 3001: case 3002: case 3003: case 3004: case 3005: case 3006: case 3007: case 3008:
    case 3009: case 3010: case 3011: case 3012: case 3013: case 3014:
    case 4000: case 4001: case 4002: case 4003: case 4004: case 4005: case 4006:
    case 5000: case 5001: case 5002: case 5003: case 5004:
        return 1;
    default:
        return 0;
    }
}

static cudnnStatus_t chk(cudnnStatus_t s)
{
    require(known_status(s));
    const char *text = cudnnGetErrorString(s);
    require(text != NULL && text[0] != 0);
    return s;
}

static int ok(cudnnStatus_t s) { return chk(s) == CUDNN_STATUS_SUCCESS; }

/* ---- sizes --------------------------------------------------------------------- */

/* Bytes of one element of cuDNN's data types; 0: no byte size (sub-byte
 * types, FAST_FLOAT_FOR_FP8), -1: not a data type. */
static int type_bytes(cudnnDataType_t t)
{
    static const signed char bytes[] = {4, 8, 2, 1, 4, 4, 1, 4, 32, 2, 8, 1, 1, 1, 0, 1, 0, 0, 0, 4, 8, 16};
    return (unsigned)t < sizeof bytes ? bytes[t] : -1;
}

/* The exact byte extent of nd dims and strides (elements), or 0 when
 * something is not positive. */
static unsigned __int128 exact_extent(int nd, const int *dim, const int *stride, cudnnDataType_t t)
{
    unsigned __int128 last = 0;
    for (int d = 0; d < nd; d++) {
        if (dim[d] <= 0 || stride[d] <= 0)
            return 0;
        last += (unsigned __int128)(unsigned)(dim[d] - 1) * (unsigned)stride[d];
    }
    int b = type_bytes(t);
    return b > 0 ? (last + 1) * (unsigned)b : 0;
}

/* Packed strides of nd dims, NCHW (last fastest) or NHWC (C fastest, then
 * the spatial dims from the last). 0 when they do not fit in an int. */
static int packed(int nd, const int *dim, cudnnTensorFormat_t f, int *stride)
{
    long long s = 1;
    if (f == CUDNN_TENSOR_NHWC && nd >= 3) {
        stride[1] = 1;
        s = dim[1];
        for (int d = nd - 1; d >= 2; d--) {
            if (s > INT_MAX)
                return 0;
            stride[d] = (int)s;
            s *= dim[d];
        }
        if (s > INT_MAX)
            return 0;
        stride[0] = (int)s;
        return 1;
    }
    for (int d = nd - 1; d >= 0; d--) {
        if (s > INT_MAX)
            return 0;
        stride[d] = (int)s;
        s *= dim[d];
    }
    return 1;
}

/* ---- the objects ---------------------------------------------------------------- */

enum { NT = 3, NF = 2, NC = 2, NP = 2 };

typedef struct objs {
    cudnnTensorDescriptor_t t[NT];
    cudnnFilterDescriptor_t f[NF];
    cudnnConvolutionDescriptor_t c[NC];
    cudnnPoolingDescriptor_t p[NP];
    cudnnActivationDescriptor_t act;
    cudnnLRNDescriptor_t lrn;
    cudnnOpTensorDescriptor_t op;
} objs;

/* What a tensor descriptor holds, read back through GetNd: 1 when set. */
typedef struct tshape {
    cudnnDataType_t type;
    int nd, dim[CUDNN_DIM_MAX], stride[CUDNN_DIM_MAX];
} tshape;

static int tensor_shape(cudnnTensorDescriptor_t d, tshape *s)
{
    memset(s, 0, sizeof *s);
    if (!ok(cudnnGetTensorNdDescriptor(d, CUDNN_DIM_MAX, &s->type, &s->nd, s->dim, s->stride)))
        return 0;
    require(s->nd >= 1 && s->nd <= CUDNN_DIM_MAX);
    return 1;
}

static int filter_shape(cudnnFilterDescriptor_t d, tshape *s, cudnnTensorFormat_t *format)
{
    memset(s, 0, sizeof *s);
    if (!ok(cudnnGetFilterNdDescriptor(d, CUDNN_DIM_MAX, &s->type, format, &s->nd, s->dim)))
        return 0;
    require(s->nd >= 1 && s->nd <= CUDNN_DIM_MAX);
    return 1;
}

/* The size query agrees with the dims and strides read back. */
static void check_tensor_size(cudnnTensorDescriptor_t d)
{
    tshape s;
    size_t size = 12345;
    cudnnStatus_t st = chk(cudnnGetTensorSizeInBytes(d, &size));
    if (!tensor_shape(d, &s)) {
        require(st != CUDNN_STATUS_SUCCESS && size == 12345);
        return;
    }
    require(st == CUDNN_STATUS_SUCCESS);
    unsigned __int128 want = exact_extent(s.nd, s.dim, s.stride, s.type);
    require(want > 0 || type_bytes(s.type) == 0);
    require(want <= SIZE_MAX && size == (size_t)want);
    require(chk(cudnnGetTensorSizeInBytes(d, NULL)) != CUDNN_STATUS_SUCCESS);
}

/* A tensor that was set with dims (and strides, or a format) reads back so. */
static void check_tensor(cudnnTensorDescriptor_t d, cudnnDataType_t type, int nd, const int *dim,
                         const int *stride)
{
    tshape s;
    require(tensor_shape(d, &s));
    require(s.type == type && s.nd == nd);
    for (int i = 0; i < nd; i++)
        require(s.dim[i] == dim[i] && s.stride[i] == stride[i]);
    if (nd >= 4) {
        cudnnDataType_t t4;
        int v[8];
        require(ok(cudnnGetTensor4dDescriptor(d, &t4, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7])));
        require(t4 == type);
        for (int i = 0; i < 4; i++)
            require(v[i] == dim[i] && v[4 + i] == stride[i]);
    }
    check_tensor_size(d);
}

static void check_filter(cudnnFilterDescriptor_t d, cudnnDataType_t type, cudnnTensorFormat_t format, int nd,
                         const int *dim)
{
    tshape s;
    cudnnTensorFormat_t f;
    require(filter_shape(d, &s, &f));
    require(s.type == type && f == format && s.nd == nd);
    for (int i = 0; i < nd; i++)
        require(s.dim[i] == dim[i]);
    if (nd == 4) {
        cudnnDataType_t t4;
        cudnnTensorFormat_t f4;
        int v[4];
        require(ok(cudnnGetFilter4dDescriptor(d, &t4, &f4, &v[0], &v[1], &v[2], &v[3])));
        require(t4 == type && f4 == format);
        for (int i = 0; i < 4; i++)
            require(v[i] == dim[i]);
    }
    size_t size = 12345;
    require(ok(cudnnGetFilterSizeInBytes(d, &size)));
    int stride[CUDNN_DIM_MAX];
    require(packed(nd, dim, format, stride));   /* the element limit keeps them ints */
    unsigned __int128 want = exact_extent(nd, dim, stride, type);
    require(want <= SIZE_MAX && size == (size_t)want);
}

/* A Get of a descriptor's Nd form with a requested count from the input and
 * arrays of exactly that size. */
static void get_tensor_nd(rd *r, cudnnTensorDescriptor_t d)
{
    int req = num(r);
    int *dim = out_arr(req), *stride = out_arr(req);
    cudnnDataType_t t = (cudnnDataType_t)-7;
    int nb = -7;
    cudnnStatus_t st = chk(cudnnGetTensorNdDescriptor(d, req, &t, &nb, dim, stride));
    if (st == CUDNN_STATUS_SUCCESS) {
        require(req >= 0 && nb >= 1 && nb <= CUDNN_DIM_MAX && type_bytes(t) >= 0);
        for (int i = alloc_count(req) < nb ? alloc_count(req) : nb; i < alloc_count(req); i++)
            require(dim[i] == 0x5a5a5a5a && stride[i] == 0x5a5a5a5a);   /* nothing past nbDims */
    }
    free(dim);
    free(stride);
}

static void get_filter_nd(rd *r, cudnnFilterDescriptor_t d)
{
    int req = num(r);
    int *dim = out_arr(req);
    cudnnDataType_t t;
    cudnnTensorFormat_t f;
    int nb = -7;
    if (ok(cudnnGetFilterNdDescriptor(d, req, &t, &f, &nb, dim))) {
        require(req >= 0 && nb >= 3 && nb <= CUDNN_DIM_MAX);
        for (int i = alloc_count(req) < nb ? alloc_count(req) : nb; i < alloc_count(req); i++)
            require(dim[i] == 0x5a5a5a5a);
    }
    free(dim);
}

/* ---- convolution and pooling geometry --------------------------------------------- */

typedef struct cshape {
    int n, pad[CUDNN_DIM_MAX], stride[CUDNN_DIM_MAX], dil[CUDNN_DIM_MAX], groups;
    cudnnConvolutionMode_t mode;
    cudnnDataType_t compute;
} cshape;

static int conv_shape(cudnnConvolutionDescriptor_t c, cshape *s)
{
    memset(s, 0, sizeof *s);
    if (!ok(cudnnGetConvolutionNdDescriptor(c, CUDNN_DIM_MAX, &s->n, s->pad, s->stride, s->dil, &s->mode,
                                            &s->compute)))
        return 0;
    require(s->n >= 1 && s->n <= CUDNN_DIM_MAX - 2);
    require(ok(cudnnGetConvolutionGroupCount(c, &s->groups)) && s->groups >= 1);
    return 1;
}

/* Output dims by cuDNN's formula; 0 when there is none (then the query
 * must have failed). */
static int conv_expected(const cshape *c, const tshape *x, const tshape *w, long long *out)
{
    if (x->nd != w->nd || x->nd != c->n + 2)
        return 0;
    if ((long long)w->dim[1] * c->groups != x->dim[1] || w->dim[0] % c->groups)
        return 0;
    out[0] = x->dim[0];
    out[1] = w->dim[0];
    for (int d = 0; d < c->n; d++) {
        long long span = (long long)(w->dim[d + 2] - 1) * c->dil[d] + 1;
        long long in = (long long)x->dim[d + 2] + 2LL * c->pad[d];
        if (in < span)
            return 0;
        out[d + 2] = 1 + (in - span) / c->stride[d];
    }
    return 1;
}

static void conv_output(rd *r, objs *o)
{
    cudnnConvolutionDescriptor_t c = o->c[u8(r) % NC];
    cudnnTensorDescriptor_t x = o->t[u8(r) % NT];
    cudnnFilterDescriptor_t w = o->f[u8(r) % NF];
    int nb = num(r);
    int *out = out_arr(nb);
    cudnnStatus_t st = chk(cudnnGetConvolutionNdForwardOutputDim(c, x, w, nb, out));
    int v[4] = {-7, -7, -7, -7};
    cudnnStatus_t st2 = chk(cudnnGetConvolution2dForwardOutputDim(c, x, w, &v[0], &v[1], &v[2], &v[3]));
    cshape cs;
    tshape xs, ws;
    cudnnTensorFormat_t wf;
    long long want[CUDNN_DIM_MAX];
    int have = conv_shape(c, &cs) && tensor_shape(x, &xs) && filter_shape(w, &ws, &wf) &&
               conv_expected(&cs, &xs, &ws, want);
    if (st == CUDNN_STATUS_SUCCESS) {
        require(have && nb == xs.nd);
        for (int d = 0; d < nb; d++)
            require(want[d] >= 1 && want[d] <= INT_MAX && out[d] == want[d]);
    }
    if (st2 == CUDNN_STATUS_SUCCESS) {
        require(have && xs.nd == 4);
        for (int d = 0; d < 4; d++)
            require(want[d] >= 1 && want[d] <= INT_MAX && v[d] == want[d]);
    } else {
        for (int d = 0; d < 4; d++)
            require(v[d] == -7);
    }
    free(out);
}

/* The queries that need a handle: without one they fail, writing nothing,
 * whatever the descriptors hold. */
static void handle_queries(rd *r, objs *o)
{
    cudnnConvolutionDescriptor_t c = o->c[u8(r) % NC];
    cudnnTensorDescriptor_t x = o->t[u8(r) % NT], y = o->t[u8(r) % NT];
    cudnnFilterDescriptor_t w = o->f[u8(r) % NF];
    int algo = num(r), req = num(r);
    size_t size = 12345;
    require(!ok(cudnnGetConvolutionForwardWorkspaceSize(NULL, x, w, c, y, (cudnnConvolutionFwdAlgo_t)algo, &size)));
    require(!ok(cudnnGetConvolutionBackwardDataWorkspaceSize(NULL, w, y, c, x, (cudnnConvolutionBwdDataAlgo_t)algo,
                                                             &size)));
    require(!ok(cudnnGetConvolutionBackwardFilterWorkspaceSize(NULL, x, y, c, w,
                                                               (cudnnConvolutionBwdFilterAlgo_t)algo, &size)));
    require(!ok(cudnnGetBatchNormalizationTrainingExReserveSpaceSize(NULL, CUDNN_BATCHNORM_SPATIAL,
                                                                     CUDNN_BATCHNORM_OPS_BN, o->act, x, &size)));
    require(size == 12345);
    int k = alloc_count(req);
    cudnnConvolutionFwdAlgoPerf_t *perf = malloc(k ? (size_t)k * sizeof *perf : 1);
    require(perf != NULL);
    int returned = -7;
    require(!ok(cudnnGetConvolutionForwardAlgorithm_v7(NULL, x, w, c, y, req, &returned, perf)));
    require(returned == -7);
    free(perf);
    int count = -7;
    require(!ok(cudnnGetConvolutionForwardAlgorithmMaxCount(NULL, &count)) && count == -7);
}

typedef struct pshape {
    cudnnPoolingMode_t mode;
    cudnnNanPropagation_t nan;
    int n, win[CUDNN_DIM_MAX], pad[CUDNN_DIM_MAX], stride[CUDNN_DIM_MAX];
} pshape;

static int pool_shape(cudnnPoolingDescriptor_t p, pshape *s)
{
    memset(s, 0, sizeof *s);
    if (!ok(cudnnGetPoolingNdDescriptor(p, CUDNN_DIM_MAX, &s->mode, &s->nan, &s->n, s->win, s->pad, s->stride)))
        return 0;
    require(s->n >= 1 && s->n <= CUDNN_DIM_MAX - 2);
    return 1;
}

static void pool_output(rd *r, objs *o)
{
    cudnnPoolingDescriptor_t p = o->p[u8(r) % NP];
    cudnnTensorDescriptor_t x = o->t[u8(r) % NT];
    int nb = num(r);
    int *out = out_arr(nb);
    cudnnStatus_t st = chk(cudnnGetPoolingNdForwardOutputDim(p, x, nb, out));
    int v[4] = {-7, -7, -7, -7};
    cudnnStatus_t st2 = chk(cudnnGetPooling2dForwardOutputDim(p, x, &v[0], &v[1], &v[2], &v[3]));
    pshape ps;
    tshape xs;
    long long want[CUDNN_DIM_MAX];
    int have = pool_shape(p, &ps) && tensor_shape(x, &xs) && xs.nd == ps.n + 2;
    if (have) {
        want[0] = xs.dim[0], want[1] = xs.dim[1];
        for (int d = 0; d < ps.n && have; d++) {
            long long span = (long long)xs.dim[d + 2] + 2LL * ps.pad[d] - ps.win[d];
            have = span >= 0;
            want[d + 2] = 1 + span / ps.stride[d];
        }
    }
    if (st == CUDNN_STATUS_SUCCESS) {
        require(have && nb == xs.nd);
        for (int d = 0; d < nb; d++)
            require(want[d] >= 1 && want[d] <= INT_MAX && out[d] == want[d]);
    }
    if (st2 == CUDNN_STATUS_SUCCESS) {
        require(have && xs.nd == 4);
        for (int d = 0; d < 4; d++)
            require(want[d] >= 1 && want[d] <= INT_MAX && v[d] == want[d]);
    } else {
        for (int d = 0; d < 4; d++)
            require(v[d] == -7);
    }
    free(out);
}

/* ---- the operations ------------------------------------------------------------------ */

enum {
    OP_T4, OP_T4EX, OP_TND, OP_TNDEX, OP_TGET, OP_F4, OP_FND, OP_FGET, OP_C2, OP_CND, OP_CATTR, OP_COUT,
    OP_HANDLE, OP_P2, OP_PND, OP_POUT, OP_ACT, OP_LRN, OP_OPT, OP_BN, OP_RECREATE, OP_CONFUSE, OP_LASTERR, OPS
};

static void one(rd *r, objs *o)
{
    switch (u8(r) % OPS) {
    case OP_T4: {
        cudnnTensorDescriptor_t d = o->t[u8(r) % NT];
        cudnnTensorFormat_t f = (cudnnTensorFormat_t)num(r);
        cudnnDataType_t t = (cudnnDataType_t)num(r);
        int dim[4], stride[4];
        for (int i = 0; i < 4; i++)
            dim[i] = num(r);
        if (ok(cudnnSetTensor4dDescriptor(d, f, t, dim[0], dim[1], dim[2], dim[3]))) {
            require(f == CUDNN_TENSOR_NCHW || f == CUDNN_TENSOR_NHWC);
            require(packed(4, dim, f, stride));
            check_tensor(d, t, 4, dim, stride);
        }
        break;
    }
    case OP_T4EX: {
        cudnnTensorDescriptor_t d = o->t[u8(r) % NT];
        cudnnDataType_t t = (cudnnDataType_t)num(r);
        int v[8];
        for (int i = 0; i < 8; i++)
            v[i] = num(r);
        if (ok(cudnnSetTensor4dDescriptorEx(d, t, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7])))
            check_tensor(d, t, 4, v, v + 4);
        break;
    }
    case OP_TND: {
        cudnnTensorDescriptor_t d = o->t[u8(r) % NT];
        cudnnDataType_t t = (cudnnDataType_t)num(r);
        int nb = num(r), nulls = u8(r);
        int *dim = arr(r, nb), *stride = arr(r, nb);
        if (ok(cudnnSetTensorNdDescriptor(d, t, nb, nulls & 1 ? NULL : dim, nulls & 2 ? NULL : stride))) {
            require(!(nulls & 3) && nb <= MAX_ALLOC);
            check_tensor(d, t, nb, dim, stride);
        }
        free(dim);
        free(stride);
        break;
    }
    case OP_TNDEX: {
        cudnnTensorDescriptor_t d = o->t[u8(r) % NT];
        cudnnTensorFormat_t f = (cudnnTensorFormat_t)num(r);
        cudnnDataType_t t = (cudnnDataType_t)num(r);
        int nb = num(r), nulls = u8(r);
        int *dim = arr(r, nb);
        if (ok(cudnnSetTensorNdDescriptorEx(d, f, t, nb, nulls & 1 ? NULL : dim))) {
            int stride[CUDNN_DIM_MAX];
            require(!(nulls & 1) && nb >= 1 && nb <= CUDNN_DIM_MAX);
            require(f == CUDNN_TENSOR_NCHW || f == CUDNN_TENSOR_NHWC);
            require(packed(nb, dim, f, stride));
            check_tensor(d, t, nb, dim, stride);
        }
        free(dim);
        break;
    }
    case OP_TGET: {
        cudnnTensorDescriptor_t d = o->t[u8(r) % NT];
        get_tensor_nd(r, d);
        check_tensor_size(d);
        break;
    }
    case OP_F4: {
        cudnnFilterDescriptor_t d = o->f[u8(r) % NF];
        cudnnDataType_t t = (cudnnDataType_t)num(r);
        cudnnTensorFormat_t f = (cudnnTensorFormat_t)num(r);
        int dim[4];
        for (int i = 0; i < 4; i++)
            dim[i] = num(r);
        if (ok(cudnnSetFilter4dDescriptor(d, t, f, dim[0], dim[1], dim[2], dim[3])))
            check_filter(d, t, f, 4, dim);
        break;
    }
    case OP_FND: {
        cudnnFilterDescriptor_t d = o->f[u8(r) % NF];
        cudnnDataType_t t = (cudnnDataType_t)num(r);
        cudnnTensorFormat_t f = (cudnnTensorFormat_t)num(r);
        int nb = num(r), nulls = u8(r);
        int *dim = arr(r, nb);
        if (ok(cudnnSetFilterNdDescriptor(d, t, f, nb, nulls & 1 ? NULL : dim))) {
            require(!(nulls & 1) && nb >= 1 && nb <= CUDNN_DIM_MAX);
            check_filter(d, t, f, nb, dim);
        }
        free(dim);
        break;
    }
    case OP_FGET: {
        cudnnFilterDescriptor_t d = o->f[u8(r) % NF];
        get_filter_nd(r, d);
        size_t size = 12345;
        tshape s;
        cudnnTensorFormat_t f;
        if (!ok(cudnnGetFilterSizeInBytes(d, &size)))
            require(size == 12345 && !filter_shape(d, &s, &f));
        break;
    }
    case OP_C2: {
        cudnnConvolutionDescriptor_t c = o->c[u8(r) % NC];
        int v[6];
        for (int i = 0; i < 6; i++)
            v[i] = num(r);
        cudnnConvolutionMode_t m = (cudnnConvolutionMode_t)num(r);
        cudnnDataType_t t = (cudnnDataType_t)num(r);
        if (ok(cudnnSetConvolution2dDescriptor(c, v[0], v[1], v[2], v[3], v[4], v[5], m, t))) {
            int g[6];
            cudnnConvolutionMode_t gm;
            cudnnDataType_t gt;
            require(ok(cudnnGetConvolution2dDescriptor(c, &g[0], &g[1], &g[2], &g[3], &g[4], &g[5], &gm, &gt)));
            require(memcmp(g, v, sizeof g) == 0 && gm == m && gt == t);
            cshape s;
            require(conv_shape(c, &s) && s.n == 2 && s.pad[1] == v[1] && s.stride[1] == v[3] && s.dil[1] == v[5]);
        }
        break;
    }
    case OP_CND: {
        cudnnConvolutionDescriptor_t c = o->c[u8(r) % NC];
        int n = num(r), nulls = u8(r);
        int *pad = arr(r, n), *stride = arr(r, n), *dil = arr(r, n);
        cudnnConvolutionMode_t m = (cudnnConvolutionMode_t)num(r);
        cudnnDataType_t t = (cudnnDataType_t)num(r);
        if (ok(cudnnSetConvolutionNdDescriptor(c, n, nulls & 1 ? NULL : pad, nulls & 2 ? NULL : stride,
                                               nulls & 4 ? NULL : dil, m, t))) {
            require(!(nulls & 7) && n >= 1 && n <= MAX_ALLOC);
            cshape s;
            require(conv_shape(c, &s) && s.n == n && s.mode == m && s.compute == t);
            for (int i = 0; i < n; i++)
                require(s.pad[i] == pad[i] && s.stride[i] == stride[i] && s.dil[i] == dil[i]);
        }
        /* a Get with a requested count of the input's, arrays of exactly that size */
        int req = num(r), got = -7;
        int *gp = out_arr(req), *gs = out_arr(req), *gd = out_arr(req);
        cudnnConvolutionMode_t gm;
        cudnnDataType_t gt;
        if (ok(cudnnGetConvolutionNdDescriptor(c, req, &got, gp, gs, gd, &gm, &gt)))
            require(req >= 0 && got >= 1 && got <= CUDNN_DIM_MAX);
        free(gp), free(gs), free(gd);
        free(pad), free(stride), free(dil);
        break;
    }
    case OP_CATTR: {
        cudnnConvolutionDescriptor_t c = o->c[u8(r) % NC];
        int which = u8(r) % 3, v = num(r), back = -7;
        if (which == 0 && ok(cudnnSetConvolutionMathType(c, (cudnnMathType_t)v))) {
            cudnnMathType_t m;
            require(ok(cudnnGetConvolutionMathType(c, &m)));
            back = (int)m;
        } else if (which == 1 && ok(cudnnSetConvolutionGroupCount(c, v))) {
            require(v >= 1 && ok(cudnnGetConvolutionGroupCount(c, &back)));
        } else if (which == 2 && ok(cudnnSetConvolutionReorderType(c, (cudnnReorderType_t)v))) {
            cudnnReorderType_t t;
            require(ok(cudnnGetConvolutionReorderType(c, &t)));
            back = (int)t;
        } else {
            break;
        }
        require(back == v);
        break;
    }
    case OP_COUT: conv_output(r, o); break;
    case OP_HANDLE: handle_queries(r, o); break;
    case OP_P2: {
        cudnnPoolingDescriptor_t p = o->p[u8(r) % NP];
        cudnnPoolingMode_t m = (cudnnPoolingMode_t)num(r);
        cudnnNanPropagation_t nan = (cudnnNanPropagation_t)num(r);
        int v[6];
        for (int i = 0; i < 6; i++)
            v[i] = num(r);
        if (ok(cudnnSetPooling2dDescriptor(p, m, nan, v[0], v[1], v[2], v[3], v[4], v[5]))) {
            cudnnPoolingMode_t gm;
            cudnnNanPropagation_t gn;
            int g[6];
            require(ok(cudnnGetPooling2dDescriptor(p, &gm, &gn, &g[0], &g[1], &g[2], &g[3], &g[4], &g[5])));
            require(gm == m && gn == nan && memcmp(g, v, sizeof g) == 0);
        }
        break;
    }
    case OP_PND: {
        cudnnPoolingDescriptor_t p = o->p[u8(r) % NP];
        cudnnPoolingMode_t m = (cudnnPoolingMode_t)num(r);
        cudnnNanPropagation_t nan = (cudnnNanPropagation_t)num(r);
        int n = num(r), nulls = u8(r);
        int *win = arr(r, n), *pad = arr(r, n), *stride = arr(r, n);
        if (ok(cudnnSetPoolingNdDescriptor(p, m, nan, n, nulls & 1 ? NULL : win, nulls & 2 ? NULL : pad,
                                           nulls & 4 ? NULL : stride))) {
            require(!(nulls & 7) && n >= 1 && n <= MAX_ALLOC);
            pshape s;
            require(pool_shape(p, &s) && s.n == n && s.mode == m && s.nan == nan);
            for (int i = 0; i < n; i++)
                require(s.win[i] == win[i] && s.pad[i] == pad[i] && s.stride[i] == stride[i]);
        }
        int req = num(r), got = -7;
        int *gw = out_arr(req), *gp = out_arr(req), *gs = out_arr(req);
        cudnnPoolingMode_t gm;
        cudnnNanPropagation_t gn;
        if (ok(cudnnGetPoolingNdDescriptor(p, req, &gm, &gn, &got, gw, gp, gs)))
            require(req >= 0 && got >= 1 && got <= CUDNN_DIM_MAX);
        free(gw), free(gp), free(gs);
        free(win), free(pad), free(stride);
        break;
    }
    case OP_POUT: pool_output(r, o); break;
    case OP_ACT: {
        cudnnActivationMode_t m = (cudnnActivationMode_t)num(r);
        cudnnNanPropagation_t nan = (cudnnNanPropagation_t)num(r);
        double coef = dbl(r), beta = dbl(r);
        if (ok(cudnnSetActivationDescriptor(o->act, m, nan, coef))) {
            cudnnActivationMode_t gm;
            cudnnNanPropagation_t gn;
            double gc;
            require(ok(cudnnGetActivationDescriptor(o->act, &gm, &gn, &gc)));
            require(gm == m && gn == nan && memcmp(&gc, &coef, sizeof gc) == 0);
        }
        if (ok(cudnnSetActivationDescriptorSwishBeta(o->act, beta))) {
            double gb;
            require(ok(cudnnGetActivationDescriptorSwishBeta(o->act, &gb)) && memcmp(&gb, &beta, sizeof gb) == 0);
        }
        break;
    }
    case OP_LRN: {
        unsigned n = (unsigned)num(r);
        double a = dbl(r), b = dbl(r), k = dbl(r);
        if (ok(cudnnSetLRNDescriptor(o->lrn, n, a, b, k))) {
            unsigned gn;
            double ga, gb, gk;
            require(n >= CUDNN_LRN_MIN_N && n <= CUDNN_LRN_MAX_N && k >= CUDNN_LRN_MIN_K && b >= CUDNN_LRN_MIN_BETA);
            require(ok(cudnnGetLRNDescriptor(o->lrn, &gn, &ga, &gb, &gk)));
            require(gn == n && memcmp(&ga, &a, sizeof a) == 0 && gb == b && gk == k);
        }
        break;
    }
    case OP_OPT: {
        cudnnOpTensorOp_t op = (cudnnOpTensorOp_t)num(r);
        cudnnDataType_t t = (cudnnDataType_t)num(r);
        cudnnNanPropagation_t nan = (cudnnNanPropagation_t)num(r);
        if (ok(cudnnSetOpTensorDescriptor(o->op, op, t, nan))) {
            cudnnOpTensorOp_t gop;
            cudnnDataType_t gt;
            cudnnNanPropagation_t gn;
            require(ok(cudnnGetOpTensorDescriptor(o->op, &gop, &gt, &gn)) && gop == op && gt == t && gn == nan);
        }
        break;
    }
    case OP_BN: {
        cudnnTensorDescriptor_t dst = o->t[u8(r) % NT], src = o->t[u8(r) % NT];
        cudnnBatchNormMode_t m = (cudnnBatchNormMode_t)num(r);
        tshape xs, bs;
        int have = tensor_shape(src, &xs);
        if (ok(cudnnDeriveBNTensorDescriptor(dst, src, m))) {
            require(have && tensor_shape(dst, &bs) && bs.nd == xs.nd);
            require(bs.dim[0] == 1 && bs.dim[1] == xs.dim[1]);
            for (int d = 2; d < bs.nd; d++)
                require(bs.dim[d] == (m == CUDNN_BATCHNORM_PER_ACTIVATION ? xs.dim[d] : 1));
            check_tensor_size(dst);
        }
        break;
    }
    case OP_RECREATE: {
        int which = u8(r) % 3, i = u8(r);
        if (which == 0) {
            require(ok(cudnnDestroyTensorDescriptor(o->t[i % NT])) && ok(cudnnCreateTensorDescriptor(&o->t[i % NT])));
            tshape s;
            require(!tensor_shape(o->t[i % NT], &s));
            check_tensor_size(o->t[i % NT]);
        } else if (which == 1) {
            require(ok(cudnnDestroyFilterDescriptor(o->f[i % NF])) && ok(cudnnCreateFilterDescriptor(&o->f[i % NF])));
        } else {
            require(ok(cudnnDestroyConvolutionDescriptor(o->c[i % NC])) &&
                    ok(cudnnCreateConvolutionDescriptor(&o->c[i % NC])));
            cshape s;
            require(!conv_shape(o->c[i % NC], &s));
        }
        break;
    }
    case OP_CONFUSE: {
        /* a descriptor of another kind, or NULL, where one kind is expected */
        int which = u8(r) % 4;
        void *other = which == 0 ? (void *)o->f[0] : which == 1 ? (void *)o->c[0] : which == 2 ? (void *)o->p[0] : NULL;
        cudnnTensorDescriptor_t t = (cudnnTensorDescriptor_t)other;
        size_t size = 12345;
        require(!ok(cudnnSetTensor4dDescriptor(t, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 1, 1, 1)));
        require(!ok(cudnnGetTensorSizeInBytes(t, &size)) && size == 12345);
        require(!ok(cudnnSetFilter4dDescriptor((cudnnFilterDescriptor_t)(which == 0 ? (void *)o->t[0] : other),
                                               CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 1, 1, 1, 1)));
        require(!ok(cudnnSetConvolutionGroupCount((cudnnConvolutionDescriptor_t)(which == 1 ? (void *)o->t[0] : other),
                                                  2)));
        require(!ok(cudnnSetPooling2dDescriptor((cudnnPoolingDescriptor_t)(which == 2 ? (void *)o->t[0] : other),
                                                CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 1, 1, 0, 0, 1, 1)));
        require(!ok(cudnnSetActivationDescriptor((cudnnActivationDescriptor_t)(which == 3 ? (void *)o->t[0] : other),
                                                 CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0)));
        if (which == 3) {   /* NULL outputs */
            require(!ok(cudnnCreateTensorDescriptor(NULL)));
            require(!ok(cudnnGetTensorNdDescriptor(o->t[0], 1, NULL, NULL, NULL, NULL)));
            require(!ok(cudnnGetConvolutionNdDescriptor(o->c[0], 1, NULL, NULL, NULL, NULL, NULL, NULL)));
        }
        break;
    }
    case OP_LASTERR: {
        /* the last error's text into a buffer of the input's size */
        size_t n = (size_t)(u8(r) | (unsigned)u8(r) << 8) % 1024;
        char *buf = malloc(n ? n : 1);
        require(buf != NULL);
        memset(buf, 'x', n ? n : 1);
        cudnnGetLastErrorString(n ? buf : NULL, n);
        if (n)
            require(memchr(buf, 0, n) != NULL);
        free(buf);
        break;
    }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    objs o;
    memset(&o, 0, sizeof o);
    for (int i = 0; i < NT; i++)
        require(ok(cudnnCreateTensorDescriptor(&o.t[i])));
    for (int i = 0; i < NF; i++)
        require(ok(cudnnCreateFilterDescriptor(&o.f[i])));
    for (int i = 0; i < NC; i++)
        require(ok(cudnnCreateConvolutionDescriptor(&o.c[i])));
    for (int i = 0; i < NP; i++)
        require(ok(cudnnCreatePoolingDescriptor(&o.p[i])));
    require(ok(cudnnCreateActivationDescriptor(&o.act)));
    require(ok(cudnnCreateLRNDescriptor(&o.lrn)));
    require(ok(cudnnCreateOpTensorDescriptor(&o.op)));
    rd r = {data, size};
    while (r.left)
        one(&r, &o);
    for (int i = 0; i < NT; i++)
        require(ok(cudnnDestroyTensorDescriptor(o.t[i])));
    for (int i = 0; i < NF; i++)
        require(ok(cudnnDestroyFilterDescriptor(o.f[i])));
    for (int i = 0; i < NC; i++)
        require(ok(cudnnDestroyConvolutionDescriptor(o.c[i])));
    for (int i = 0; i < NP; i++)
        require(ok(cudnnDestroyPoolingDescriptor(o.p[i])));
    require(ok(cudnnDestroyActivationDescriptor(o.act)));
    require(ok(cudnnDestroyLRNDescriptor(o.lrn)));
    require(ok(cudnnDestroyOpTensorDescriptor(o.op)));
    return 0;
}
