/* audit_sdpa.c: the sdpa preset: scaled dot-product attention through
 * cuDNN's backend (graph) API, built from primitives the way PyTorch's and
 * cudnn-frontend's attention graphs are (Q K^T matmul, scale, mask,
 * max/sub/exp/sum/div softmax, P V matmul), plus the fused SDPA_FWD
 * operation. Each probes what silently broke elsewhere:
 *   sdpa.contiguous.P        packed [B,H,S,D] q, k, v; K^T by strides
 *   sdpa.noncontig-qkv.P     q, k, v as views into one packed [B,S,3,H,D]
 *                            projection (non-contiguous heads and rows)
 *   sdpa.mask-bcast-11ss.P   an additive [1,1,S,S] mask broadcast over batch
 *                            and heads (a distance bias, -inf far ahead)
 *   sdpa.mask-bcast-b11s.P   a [B,1,1,S] key-padding mask (-inf on padded keys)
 *   sdpa.causal.P            causal masking from GEN_INDEX + CMP_GE + BINARY_SELECT
 *   sdpa.fused-op.P          the fused SDPA_FWD operation (flash attention's
 *                            path) on the contiguous case's tensors: runs and
 *                            is checked, or is refused (NOT_SUPPORTED:
 *                            cubridge refuses it at the graph's Finalize)
 * q, k, v, o and the masks are of the precision (all three when --precision
 * is not given); the intermediate (virtual) tensors are FLOAT. Reference:
 * double over the rounded inputs, rounded once to o's type; tolerance x
 * sqrt(S * D). B = --batch (2), S = --seq (32), H = 2, D = 32. */
#include "audit.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cudnn.h>

typedef cudnnBackendDescriptor_t BD;

enum { MASK_NONE, MASK_11SS, MASK_B11S, MASK_CAUSAL };

typedef struct graph_build {
    BD keep[64];         /* every descriptor made, destroyed at the end */
    int nkeep;
    BD ops[24];
    int nops;
    cudnnStatus_t st;    /* the first failure */
    const char *call;    /* ... and the call that made it */
} graph_build;

static BD mk(graph_build *g, cudnnBackendDescriptorType_t t)
{
    BD d = NULL;
    if (g->st == CUDNN_STATUS_SUCCESS && g->nkeep < 64) {
        cudnnStatus_t s = cudnnBackendCreateDescriptor(t, &d);
        if (s != CUDNN_STATUS_SUCCESS)
            g->st = s, g->call = "cudnnBackendCreateDescriptor", d = NULL;
        else
            g->keep[g->nkeep++] = d;
    }
    return d;
}

static void set(graph_build *g, BD d, cudnnBackendAttributeName_t a, cudnnBackendAttributeType_t t, int64_t n,
                const void *v)
{
    if (g->st != CUDNN_STATUS_SUCCESS || !d)
        return;
    cudnnStatus_t s = cudnnBackendSetAttribute(d, a, t, n, v);
    if (s != CUDNN_STATUS_SUCCESS)
        g->st = s, g->call = "cudnnBackendSetAttribute";
}

static void set_desc(graph_build *g, BD d, cudnnBackendAttributeName_t a, BD v)
{
    set(g, d, a, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &v);
}

static void fin(graph_build *g, BD d)
{
    if (g->st != CUDNN_STATUS_SUCCESS || !d)
        return;
    cudnnStatus_t s = cudnnBackendFinalize(d);
    if (s != CUDNN_STATUS_SUCCESS)
        g->st = s, g->call = "cudnnBackendFinalize";
}

static BD tensor(graph_build *g, int64_t uid, cudnnDataType_t type, const int64_t *dim, const int64_t *stride,
                 bool virt, bool by_value)
{
    BD t = mk(g, CUDNN_BACKEND_TENSOR_DESCRIPTOR);
    int64_t align = 16;
    set(g, t, CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &type);
    set(g, t, CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, 4, dim);
    set(g, t, CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, 4, stride);
    set(g, t, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &uid);
    set(g, t, CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &align);
    if (virt)
        set(g, t, CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, 1, &virt);
    if (by_value)
        set(g, t, CUDNN_ATTR_TENSOR_IS_BY_VALUE, CUDNN_TYPE_BOOLEAN, 1, &by_value);
    fin(g, t);
    return t;
}

static BD packed(graph_build *g, int64_t uid, cudnnDataType_t type, const int64_t *dim, bool virt)
{
    int64_t st[4], s = 1;
    for (int i = 3; i >= 0; i--)
        st[i] = s, s *= dim[i];
    return tensor(g, uid, type, dim, st, virt, false);
}

static BD pw_desc(graph_build *g, cudnnPointwiseMode_t mode, int64_t axis)
{
    BD p = mk(g, CUDNN_BACKEND_POINTWISE_DESCRIPTOR);
    cudnnDataType_t f = CUDNN_DATA_FLOAT;
    set(g, p, CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, 1, &mode);
    set(g, p, CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, 1, &f);
    if (axis >= 0)
        set(g, p, CUDNN_ATTR_POINTWISE_AXIS, CUDNN_TYPE_INT64, 1, &axis);
    fin(g, p);
    return p;
}

/* y = mode(x [, b] [, t]) */
static void pw(graph_build *g, cudnnPointwiseMode_t mode, int64_t axis, BD x, BD b, BD y, BD t)
{
    BD desc = pw_desc(g, mode, axis), o = mk(g, CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
    set_desc(g, o, CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, desc);
    set_desc(g, o, CUDNN_ATTR_OPERATION_POINTWISE_XDESC, x);
    if (b)
        set_desc(g, o, CUDNN_ATTR_OPERATION_POINTWISE_BDESC, b);
    set_desc(g, o, CUDNN_ATTR_OPERATION_POINTWISE_YDESC, y);
    if (t)
        set_desc(g, o, CUDNN_ATTR_OPERATION_POINTWISE_TDESC, t);
    fin(g, o);
    if (g->nops < 24)
        g->ops[g->nops++] = o;
}

static void matmul(graph_build *g, BD a, BD b, BD c)
{
    BD md = mk(g, CUDNN_BACKEND_MATMUL_DESCRIPTOR), o = mk(g, CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR);
    cudnnDataType_t f = CUDNN_DATA_FLOAT;
    set(g, md, CUDNN_ATTR_MATMUL_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &f);
    fin(g, md);
    set_desc(g, o, CUDNN_ATTR_OPERATION_MATMUL_ADESC, a);
    set_desc(g, o, CUDNN_ATTR_OPERATION_MATMUL_BDESC, b);
    set_desc(g, o, CUDNN_ATTR_OPERATION_MATMUL_CDESC, c);
    set_desc(g, o, CUDNN_ATTR_OPERATION_MATMUL_DESC, md);
    fin(g, o);
    if (g->nops < 24)
        g->ops[g->nops++] = o;
}

static void reduce(graph_build *g, cudnnReduceTensorOp_t op, BD x, BD y)
{
    BD rd = mk(g, CUDNN_BACKEND_REDUCTION_DESCRIPTOR), o = mk(g, CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR);
    cudnnDataType_t f = CUDNN_DATA_FLOAT;
    set(g, rd, CUDNN_ATTR_REDUCTION_OPERATOR, CUDNN_TYPE_REDUCTION_OPERATOR_TYPE, 1, &op);
    set(g, rd, CUDNN_ATTR_REDUCTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &f);
    fin(g, rd);
    set_desc(g, o, CUDNN_ATTR_OPERATION_REDUCTION_XDESC, x);
    set_desc(g, o, CUDNN_ATTR_OPERATION_REDUCTION_YDESC, y);
    set_desc(g, o, CUDNN_ATTR_OPERATION_REDUCTION_DESC, rd);
    fin(g, o);
    if (g->nops < 24)
        g->ops[g->nops++] = o;
}

static void destroy_all(graph_build *g)
{
    for (int i = g->nkeep - 1; i >= 0; i--)
        cudnnBackendDestroyDescriptor(g->keep[i]);
    g->nkeep = 0;
}

/* The operation graph of g's ops, heuristics, a plan and Execute with the
 * variant pack. CUDNN_STATUS_SUCCESS, or the first failure (g->call). */
static cudnnStatus_t execute(graph_build *g, cudnnHandle_t h, int n, const int64_t *uids, void *const *ptrs)
{
    BD graph = mk(g, CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
    set(g, graph, CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &h);
    set(g, graph, CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, g->nops, g->ops);
    fin(g, graph);
    BD heur = mk(g, CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
    cudnnBackendHeurMode_t mode = CUDNN_HEUR_MODE_INSTANT;
    set_desc(g, heur, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, graph);
    set(g, heur, CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &mode);
    fin(g, heur);
    BD cfg = mk(g, CUDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    int64_t got = 0;
    if (g->st == CUDNN_STATUS_SUCCESS) {
        cudnnStatus_t s =
            cudnnBackendGetAttribute(heur, CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &got, &cfg);
        if (s != CUDNN_STATUS_SUCCESS)
            g->st = s, g->call = "cudnnBackendGetAttribute(ENGINEHEUR_RESULTS)";
        else if (got < 1)
            g->st = CUDNN_STATUS_NOT_SUPPORTED, g->call = "the heuristics (no engine configuration)";
    }
    BD plan = mk(g, CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
    set(g, plan, CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &h);
    set_desc(g, plan, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, cfg);
    fin(g, plan);
    int64_t ws = 0, count = 0;
    if (g->st == CUDNN_STATUS_SUCCESS) {
        cudnnStatus_t s = cudnnBackendGetAttribute(plan, CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64,
                                                   1, &count, &ws);
        if (s != CUDNN_STATUS_SUCCESS)
            g->st = s, g->call = "cudnnBackendGetAttribute(WORKSPACE_SIZE)";
    }
    CUdeviceptr work = 0;
    if (g->st == CUDNN_STATUS_SUCCESS && ws > 0 && !(work = audit_upload(NULL, (size_t)ws)))
        g->st = CUDNN_STATUS_ALLOC_FAILED, g->call = "the workspace's cuMemAlloc";
    void *pwork = (void *)(uintptr_t)work;
    BD vp = mk(g, CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
    set(g, vp, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, n, uids);
    set(g, vp, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, n, ptrs);
    set(g, vp, CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &pwork);
    fin(g, vp);
    if (g->st == CUDNN_STATUS_SUCCESS) {
        cudnnStatus_t s = cudnnBackendExecute(h, plan, vp);
        if (s != CUDNN_STATUS_SUCCESS)
            g->st = s, g->call = "cudnnBackendExecute";
        else if (cuCtxSynchronize() != CUDA_SUCCESS)
            g->st = CUDNN_STATUS_EXECUTION_FAILED, g->call = "cuCtxSynchronize after cudnnBackendExecute";
    }
    audit_free(work);
    return g->st;
}

static cudnnDataType_t dnn_type(audit_precision p)
{
    return p == AUDIT_FP16 ? CUDNN_DATA_HALF : p == AUDIT_BF16 ? CUDNN_DATA_BFLOAT16 : CUDNN_DATA_FLOAT;
}

/* The verdict of a failed graph: UNSUPPORTED for NOT_SUPPORTED, else FAIL. */
static void refused(audit_run *r, const char *name, const graph_build *g, uint64_t t0)
{
    char why[200];
    snprintf(why, sizeof why, "%s: %s", g->call ? g->call : "?", cudnnGetErrorString(g->st));
    if (g->st / 1000 * 1000 == CUDNN_STATUS_NOT_SUPPORTED)
        audit_unsupported(r, name, why, t0);
    else
        audit_fail(r, name, why, t0);
}

/* Attention from primitives into g: Q K^T (tk is K^T by strides), scale,
 * the mask, softmax, P V. Device tensors: uids 1-5 (q k v o scale), 6 (-inf,
 * by value), 7 (the mask). */
static void primitive_graph(graph_build *g, cudnnDataType_t t, int mask, BD tq, BD tk, BD tv, BD to, BD tscale,
                            int64_t B, int64_t H, int64_t S)
{
    cudnnDataType_t f = CUDNN_DATA_FLOAT;
    int64_t sd[4] = {B, H, S, S}, rd[4] = {B, H, S, 1}, one[4] = {1, 1, 1, 1};
    int64_t md11[4] = {1, 1, S, S}, mdb[4] = {B, 1, 1, S};
    int64_t uid = 100;
    BD tninf = tensor(g, 6, f, one, one, false, true);
    BD tmask = mask == MASK_11SS ? packed(g, 7, t, md11, false) : mask == MASK_B11S ? packed(g, 7, t, mdb, false)
                                                                                     : NULL;
    BD s1 = packed(g, uid++, f, sd, true), s2 = packed(g, uid++, f, sd, true);
    BD s3 = mask != MASK_NONE ? packed(g, uid++, f, sd, true) : s2;
    BD mx = packed(g, uid++, f, rd, true), s4 = packed(g, uid++, f, sd, true), s5 = packed(g, uid++, f, sd, true);
    BD sum = packed(g, uid++, f, rd, true), pr = packed(g, uid++, f, sd, true);
    matmul(g, tq, tk, s1);
    pw(g, CUDNN_POINTWISE_MUL, -1, s1, tscale, s2, NULL);
    if (mask == MASK_11SS || mask == MASK_B11S)
        pw(g, CUDNN_POINTWISE_ADD, -1, s2, tmask, s3, NULL);
    else if (mask == MASK_CAUSAL) {
        BD row = packed(g, uid++, CUDNN_DATA_INT32, sd, true), col = packed(g, uid++, CUDNN_DATA_INT32, sd, true),
           keep = packed(g, uid++, CUDNN_DATA_BOOLEAN, sd, true);
        pw(g, CUDNN_POINTWISE_GEN_INDEX, 2, s2, NULL, row, NULL);
        pw(g, CUDNN_POINTWISE_GEN_INDEX, 3, s2, NULL, col, NULL);
        pw(g, CUDNN_POINTWISE_CMP_GE, -1, row, col, keep, NULL);
        pw(g, CUDNN_POINTWISE_BINARY_SELECT, -1, s2, tninf, s3, keep);
    }
    reduce(g, CUDNN_REDUCE_TENSOR_MAX, s3, mx);
    pw(g, CUDNN_POINTWISE_SUB, -1, s3, mx, s4, NULL);
    pw(g, CUDNN_POINTWISE_EXP, -1, s4, NULL, s5, NULL);
    reduce(g, CUDNN_REDUCE_TENSOR_ADD, s5, sum);
    pw(g, CUDNN_POINTWISE_DIV, -1, s5, sum, pr, NULL);
    matmul(g, pr, tv, to);
}

static double mask_value(int kind, int b, int i, int j, int S)
{
    if (kind == MASK_11SS)
        return j > i + S / 2 ? -INFINITY : -0.125 * abs(i - j);
    if (kind == MASK_B11S)   /* batch b pads its last 1 + 3b keys (mod S - 1: key 0 stays) */
        return j >= S - 1 - (3 * b) % (S > 1 ? S - 1 : 1) ? -INFINITY : 0.0;
    if (kind == MASK_CAUSAL)
        return j > i ? -INFINITY : 0.0;
    return 0.0;
}

static void sdpa_case(audit_run *r, cudnnHandle_t h, audit_precision p, const char *label, int noncontig, int mask,
                      int fused)
{
    const int64_t B = r->batch ? r->batch : 2, H = 2, S = r->seq ? r->seq : 32, D = 32;
    char name[64], note[200];
    snprintf(name, sizeof name, "sdpa.%s.%s", label, audit_precision_name(p));
    snprintf(note, sizeof note, "B%lld H%lld S%lld D%lld, %s q/k/v%s", (long long)B, (long long)H, (long long)S,
             (long long)D, noncontig ? "strided [B,S,3,H,D]" : "packed [B,H,S,D]",
             fused               ? ", the fused SDPA_FWD operation"
             : mask == MASK_11SS   ? ", [1,1,S,S] additive mask"
             : mask == MASK_B11S   ? ", [B,1,1,S] padding mask"
             : mask == MASK_CAUSAL ? ", causal"
                                   : "");
    uint64_t t0 = audit_now(r);
    const size_t w = audit_elem_bytes(p), nqkv = (size_t)(B * S * 3 * H * D), no = (size_t)(B * H * S * D);
    const size_t nmask = mask == MASK_11SS ? (size_t)(S * S) : mask == MASK_B11S ? (size_t)(B * S) : 0;
    void *hqkv = malloc(nqkv * w), *got = malloc(no * w), *ref = malloc(no * w), *hmask = malloc((nmask + 1) * w);
    double *vqkv = malloc(nqkv * sizeof(double)), *sc = malloc((size_t)S * sizeof(double));
    CUdeviceptr dqkv = 0, dout = 0, dmask = 0;
    graph_build g = {.st = CUDNN_STATUS_SUCCESS};
    if (!hqkv || !got || !ref || !hmask || !vqkv || !sc) {
        audit_fail(r, name, "out of host memory", t0);
        goto out;
    }
    /* q, k, v in one buffer; contiguous: three packed [B,H,S,D] blocks */
    audit_fill(p, hqkv, vqkv, nqkv, 31);
    int64_t qd[4] = {B, H, S, D}, ktd[4] = {B, H, D, S}, qs[4], kts[4];
    size_t off_k, off_v;
    if (noncontig) {   /* element (b,s,t,h,d) at (((b*S + s)*3 + t)*H + h)*D + d */
        int64_t row = 3 * H * D;
        int64_t s4[4] = {S * row, D, row, 1}, t4[4] = {S * row, D, 1, row};
        memcpy(qs, s4, sizeof qs), memcpy(kts, t4, sizeof kts);
        off_k = (size_t)(H * D), off_v = (size_t)(2 * H * D);
    } else {
        int64_t s4[4] = {H * S * D, S * D, D, 1}, t4[4] = {H * S * D, S * D, 1, D};
        memcpy(qs, s4, sizeof qs), memcpy(kts, t4, sizeof kts);
        off_k = no, off_v = 2 * no;
    }
    for (size_t e = 0; e < nmask; e++) {
        int i = mask == MASK_11SS ? (int)(e / (size_t)S) : 0, j = (int)(e % (size_t)S);
        int b = mask == MASK_B11S ? (int)(e / (size_t)S) : 0;
        audit_store(p, hmask, e, mask_value(mask, b, i, j, (int)S));
    }
    dqkv = audit_upload(hqkv, nqkv * w);
    dout = audit_upload(NULL, no * w);
    dmask = nmask ? audit_upload(hmask, nmask * w) : 0;
    if (!dqkv || !dout || (nmask && !dmask)) {
        audit_fail(r, name, "device memory (cuMemAlloc/cuMemcpyHtoD)", t0);
        goto out;
    }
    cudnnDataType_t t = dnn_type(p), f = CUDNN_DATA_FLOAT;
    int64_t one[4] = {1, 1, 1, 1};
    BD tq = tensor(&g, 1, t, qd, qs, false, false), tv = tensor(&g, 3, t, qd, qs, false, false),
       to = packed(&g, 4, t, qd, false);
    BD tscale = tensor(&g, 5, f, one, one, false, true);
    if (fused) {   /* one SDPA_FWD operation: K as [B,H,S,D], as flash attention takes it */
        BD tk = tensor(&g, 2, t, qd, qs, false, false), op = mk(&g, CUDNN_BACKEND_OPERATION_SDPA_FWD_DESCRIPTOR);
        set_desc(&g, op, CUDNN_ATTR_OPERATION_SDPA_FWD_QDESC, tq);
        set_desc(&g, op, CUDNN_ATTR_OPERATION_SDPA_FWD_KDESC, tk);
        set_desc(&g, op, CUDNN_ATTR_OPERATION_SDPA_FWD_VDESC, tv);
        set_desc(&g, op, CUDNN_ATTR_OPERATION_SDPA_FWD_ODESC, to);
        set_desc(&g, op, CUDNN_ATTR_OPERATION_SDPA_FWD_SCALEDESC, tscale);
        fin(&g, op);
        if (op && g.nops < 24)
            g.ops[g.nops++] = op;
    } else
        primitive_graph(&g, t, mask, tq, tensor(&g, 2, t, ktd, kts, false, false), tv, to, tscale, B, H, S);
    float scale = (float)(1.0 / sqrt((double)D)), neg_inf = -INFINITY;
    int64_t uids[7] = {1, 2, 3, 4, 5, 6, 7};
    char *base = (char *)(uintptr_t)dqkv;
    void *ptrs[7] = {base, base + off_k * w, base + off_v * w, (void *)(uintptr_t)dout, &scale, &neg_inf,
                     (void *)(uintptr_t)dmask};
    if (execute(&g, h, fused ? 5 : nmask ? 7 : 6, uids, ptrs) != CUDNN_STATUS_SUCCESS) {
        refused(r, name, &g, t0);
        goto out;
    }
    if (audit_download(got, dout, no * w) != 0) {
        audit_fail(r, name, "cuMemcpyDtoH after cudnnBackendExecute", t0);
        goto out;
    }
    for (int64_t b = 0; b < B; b++)
        for (int64_t hh = 0; hh < H; hh++)
            for (int64_t i = 0; i < S; i++) {
                double m = -INFINITY, tot = 0;
                for (int64_t j = 0; j < S; j++) {
                    double s = 0;
                    for (int64_t d = 0; d < D; d++) {
                        size_t qi, ki;
                        if (noncontig)
                            qi = (size_t)((((b * S + i) * 3 + 0) * H + hh) * D + d),
                            ki = (size_t)((((b * S + j) * 3 + 1) * H + hh) * D + d);
                        else
                            qi = (size_t)(((b * H + hh) * S + i) * D + d),
                            ki = off_k + (size_t)(((b * H + hh) * S + j) * D + d);
                        s += vqkv[qi] * vqkv[ki];
                    }
                    double mv = 0;
                    if (mask == MASK_11SS)
                        mv = audit_load(p, hmask, (size_t)(i * S + j));
                    else if (mask == MASK_B11S)
                        mv = audit_load(p, hmask, (size_t)(b * S + j));
                    else if (mask == MASK_CAUSAL)
                        mv = j > i ? -INFINITY : 0;
                    sc[j] = s * (double)scale + mv;
                    if (sc[j] > m)
                        m = sc[j];
                }
                for (int64_t j = 0; j < S; j++)
                    tot += (sc[j] = exp(sc[j] - m));
                for (int64_t d = 0; d < D; d++) {
                    double acc = 0;
                    for (int64_t j = 0; j < S; j++) {
                        size_t vi = noncontig ? (size_t)((((b * S + j) * 3 + 2) * H + hh) * D + d)
                                              : off_v + (size_t)(((b * H + hh) * S + j) * D + d);
                        acc += sc[j] / tot * vqkv[vi];
                    }
                    audit_store(p, ref, (size_t)(((b * H + hh) * S + i) * D + d), acc);
                }
            }
    audit_check(r, name, got, ref, no, p, sqrt((double)(S * D)), note, t0);
out:
    destroy_all(&g);
    audit_free(dqkv), audit_free(dout), audit_free(dmask);
    free(hqkv), free(got), free(ref), free(hmask), free(vqkv), free(sc);
}

int audit_sdpa(audit_run *r)
{
    cudnnHandle_t h;
    cudnnStatus_t st = cudnnCreate(&h);
    if (st != CUDNN_STATUS_SUCCESS) {
        char why[96];
        snprintf(why, sizeof why, "cudnnCreate: %s", cudnnGetErrorString(st));
        audit_fail(r, "sdpa.handle", why, audit_now(r));
        return -1;
    }
    audit_precision all[3] = {AUDIT_FP32, AUDIT_FP16, AUDIT_BF16};
    int from = r->prec_given ? (int)r->prec : 0, to = r->prec_given ? (int)r->prec : 2;
    for (int i = from; i <= to; i++) {
        audit_precision p = all[i];
        sdpa_case(r, h, p, "contiguous", 0, MASK_NONE, 0);
        sdpa_case(r, h, p, "noncontig-qkv", 1, MASK_NONE, 0);
        sdpa_case(r, h, p, "mask-bcast-11ss", 0, MASK_11SS, 0);
        sdpa_case(r, h, p, "mask-bcast-b11s", 0, MASK_B11S, 0);
        sdpa_case(r, h, p, "causal", 0, MASK_CAUSAL, 0);
        sdpa_case(r, h, p, "fused-op", 0, MASK_NONE, 1);
    }
    cudnnDestroy(h);
    return 0;
}
