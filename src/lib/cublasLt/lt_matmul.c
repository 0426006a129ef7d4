/* lt_matmul.c: cublasLtMatmul and cublasLtMatrixTransform.
 *
 * lt_plan turns a matmul descriptor and four layouts into one column-major
 * cb_blas_gemm (backend_lib.h): a ROW-order A or B is its column-major
 * transpose with the operation flipped; a ROW-order C/D computes D^T =
 * op(B)^T op(A)^T + beta C^T instead (no epilogue then). Batches come from
 * the layouts' counts and strides. What the plan refuses is NOT_SUPPORTED
 * (other orders, fp8, vector pointer modes, scaling factors), and what
 * cuBLASLt calls malformed INVALID_VALUE (dimensions that do not fit, leading
 * dimensions below the rows, unequal batch counts).
 *
 * The call is one stream operation on the given stream: checked against
 * the shared C reference (lib/common/blas_ref.c) in verify mode, with the
 * bias and aux buffers as inputs or outputs as the epilogue says.
 */
#include "cublasLt_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend_lib.h"
#include "lib/common/blas_ref.h"
#include "lib/common/check.h"
#include "lib/common/facade.h"
#include "backend/blas_elem.h"
#include "lt_internal.h"

#define LT_LIB (&cbl_cublasLt_library)

/* The compute type's BLAS type and default scale type; -1 for unknown. */
static int compute_of(int ct, int complex, cb_blas_input_round *round)
{
    *round = CB_BLAS_ROUND_NONE;
    switch (ct) {
    case CUBLAS_COMPUTE_16F:
    case CUBLAS_COMPUTE_16F_PEDANTIC: return CB_BLAS_F16;
    case CUBLAS_COMPUTE_32F:
    case CUBLAS_COMPUTE_32F_PEDANTIC:
    case CUBLAS_COMPUTE_32F_EMULATED_16BFX9: return complex ? CB_BLAS_C32 : CB_BLAS_F32;
    case CUBLAS_COMPUTE_32F_FAST_16F: *round = CB_BLAS_ROUND_F16; return complex ? CB_BLAS_C32 : CB_BLAS_F32;
    case CUBLAS_COMPUTE_32F_FAST_16BF: *round = CB_BLAS_ROUND_BF16; return complex ? CB_BLAS_C32 : CB_BLAS_F32;
    case CUBLAS_COMPUTE_32F_FAST_TF32: *round = CB_BLAS_ROUND_TF32; return complex ? CB_BLAS_C32 : CB_BLAS_F32;
    case CUBLAS_COMPUTE_64F:
    case CUBLAS_COMPUTE_64F_PEDANTIC:
    case CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT: return complex ? CB_BLAS_C64 : CB_BLAS_F64;
    case CUBLAS_COMPUTE_32I:
    case CUBLAS_COMPUTE_32I_PEDANTIC: return CB_BLAS_I32;
    default: return -1;
    }
}

/* The column-major view of a layout and the operation on it that gives
 * op(X); -1 when it has none (conjugation without transposition). */
static int view_op(const lt_layout *l, int op)
{
    if (l->order == CUBLASLT_ORDER_COL)
        return op;
    if (op == CUBLAS_OP_C)
        return -1;
    return op == CUBLAS_OP_N ? CUBLAS_OP_T : CUBLAS_OP_N;
}

static int flip(int op) { return op == CUBLAS_OP_N ? CUBLAS_OP_T : op == CUBLAS_OP_T ? CUBLAS_OP_N : -1; }

/* Rows and columns as stored, in the column-major view. */
static void view_dims(const lt_layout *l, int64_t *rows, int64_t *cols)
{
    *rows = (int64_t)(l->order == CUBLASLT_ORDER_ROW ? l->cols : l->rows);
    *cols = (int64_t)(l->order == CUBLASLT_ORDER_ROW ? l->rows : l->cols);
}

#define REFUSE(status, text)                                                                                           \
    do {                                                                                                               \
        *why = text;                                                                                                   \
        return status;                                                                                                 \
    } while (0)

cublasStatus_t lt_plan(const lt_desc *d, const lt_layout *a, const lt_layout *b, const lt_layout *c,
                       const lt_layout *dl, cb_blas_gemm *g, int *swap_ab, const char **why)
{
    *why = NULL;
    *swap_ab = 0;
    if (!d || !a || !b || !c || !dl)
        REFUSE(CUBLAS_STATUS_INVALID_VALUE, "a descriptor is missing");
    const lt_layout *ls[4] = {a, b, c, dl};
    for (int i = 0; i < 4; i++) {
        if (ls[i]->order != CUBLASLT_ORDER_COL && ls[i]->order != CUBLASLT_ORDER_ROW)
            REFUSE(CUBLAS_STATUS_NOT_SUPPORTED, "only COL and ROW orders");
        if (ls[i]->plane_offset != 0 || ls[i]->batch_mode != 0)
            REFUSE(CUBLAS_STATUS_NOT_SUPPORTED, "planar complex or pointer-array batches");
        int64_t r, cc;
        view_dims(ls[i], &r, &cc);
        if (ls[i]->ld < (r > 1 ? r : 1) || ls[i]->batch_count < 1 || (int64_t)ls[i]->rows < 0 || (int64_t)ls[i]->cols < 0)
            REFUSE(CUBLAS_STATUS_INVALID_VALUE, "a leading dimension below the rows, or a batch count below 1");
    }
    int at = cbl_blas_type_of(a->type), bt = cbl_blas_type_of(b->type), ct = cbl_blas_type_of(c->type);
    int dt = cbl_blas_type_of(dl->type);
    if (at < 0 || bt < 0 || ct < 0 || dt < 0 || at == CB_BLAS_E4M3 || at == CB_BLAS_E5M2 || bt == CB_BLAS_E4M3 ||
        bt == CB_BLAS_E5M2 || dt == CB_BLAS_E4M3 || dt == CB_BLAS_E5M2)
        REFUSE(CUBLAS_STATUS_NOT_SUPPORTED, "these element types (fp8 included)");
    if (at != bt || ct != dt)
        REFUSE(CUBLAS_STATUS_NOT_SUPPORTED, "A and B, and C and D, of different types");
    int complex = cb_blas_type_complex((cb_blas_type)at) || cb_blas_type_complex((cb_blas_type)dt);
    cb_blas_input_round round;
    int comp = compute_of(d->compute, complex, &round);
    if (comp < 0)
        REFUSE(CUBLAS_STATUS_INVALID_VALUE, "an unknown compute type");
    int scale = cbl_blas_type_of(d->scale);
    if (scale < 0)
        REFUSE(CUBLAS_STATUS_NOT_SUPPORTED, "this scale type");
    /* the type combinations the backend computes */
    int ok = 0;
    switch (comp) {
    case CB_BLAS_F16: ok = at == CB_BLAS_F16 && dt == CB_BLAS_F16 && (scale == CB_BLAS_F16 || scale == CB_BLAS_F32); break;
    case CB_BLAS_F32:
        ok = (at == CB_BLAS_F16 || at == CB_BLAS_BF16 || at == CB_BLAS_F32 || at == CB_BLAS_I8) &&
             (dt == at || dt == CB_BLAS_F32) && scale == CB_BLAS_F32 && (at != CB_BLAS_I8 || dt == CB_BLAS_F32);
        break;
    case CB_BLAS_C32: ok = (at == CB_BLAS_C32 || at == CB_BLAS_CI8) && dt == CB_BLAS_C32 && scale == CB_BLAS_C32; break;
    case CB_BLAS_F64: ok = at == CB_BLAS_F64 && dt == CB_BLAS_F64 && scale == CB_BLAS_F64; break;
    case CB_BLAS_C64: ok = at == CB_BLAS_C64 && dt == CB_BLAS_C64 && scale == CB_BLAS_C64; break;
    case CB_BLAS_I32:
        ok = at == CB_BLAS_I8 && ((dt == CB_BLAS_I32 && (scale == CB_BLAS_I32 || scale == CB_BLAS_F32)) ||
                                  (dt == CB_BLAS_I8 && scale == CB_BLAS_F32));
        break;
    }
    if (!ok)
        REFUSE(CUBLAS_STATUS_NOT_SUPPORTED, "this combination of compute, scale and element types");
    if (d->pointer_mode != CUBLASLT_POINTER_MODE_HOST && d->pointer_mode != CUBLASLT_POINTER_MODE_DEVICE)
        REFUSE(CUBLAS_STATUS_NOT_SUPPORTED, "vector pointer modes");
    if (d->a_scale || d->b_scale || d->c_scale || d->d_scale || d->amax_d || d->aux_scale || d->aux_amax ||
        d->d_out_scale)
        REFUSE(CUBLAS_STATUS_NOT_SUPPORTED, "scaling factors and amax (fp8 recipes)");
    if (d->transc != CUBLAS_OP_N || d->fill_mode != CUBLAS_FILL_MODE_FULL)
        REFUSE(CUBLAS_STATUS_NOT_SUPPORTED, "a transposed C or a triangular fill");
    unsigned epi = d->epilogue;
    const unsigned known = CB_BLAS_EPI_RELU | CB_BLAS_EPI_BIAS | CB_BLAS_EPI_DRELU | CB_BLAS_EPI_BGRAD |
                           CB_BLAS_EPI_GELU | CB_BLAS_EPI_DGELU | CB_BLAS_EPI_AUX | CB_BLAS_EPI_BGRADA |
                           CB_BLAS_EPI_BGRADB | 1u;
    if (epi & ~known)
        REFUSE(CUBLAS_STATUS_NOT_SUPPORTED, "this epilogue");
    epi &= ~1u;
    if (epi && complex)
        REFUSE(CUBLAS_STATUS_NOT_SUPPORTED, "epilogues on complex products");

    /* op(A) and op(B) in the column-major views */
    int oa = view_op(a, d->transa), ob = view_op(b, d->transb);
    if (oa < 0 || ob < 0)
        REFUSE(CUBLAS_STATUS_NOT_SUPPORTED, "a conjugated ROW-order operand");
    int64_t ar, ac, br, bc, cr, cc, dr, dc;
    view_dims(a, &ar, &ac);
    view_dims(b, &br, &bc);
    int64_t m = (int64_t)dl->rows, n = (int64_t)dl->cols;
    int64_t am = oa == CUBLAS_OP_N ? ar : ac, ak = oa == CUBLAS_OP_N ? ac : ar;
    int64_t bk = ob == CUBLAS_OP_N ? br : bc, bn = ob == CUBLAS_OP_N ? bc : br;
    if (am != m || bn != n || ak != bk || c->rows != dl->rows || c->cols != dl->cols || c->order != dl->order)
        REFUSE(CUBLAS_STATUS_INVALID_VALUE, "the layouts' dimensions do not make a product");
    int64_t batch = dl->batch_count;
    for (int i = 0; i < 3; i++)
        if (ls[i]->batch_count != batch)
            REFUSE(CUBLAS_STATUS_INVALID_VALUE, "unequal batch counts");
    memset(g, 0, sizeof *g);
    g->a_type = (cb_blas_type)at, g->b_type = (cb_blas_type)bt, g->c_type = (cb_blas_type)ct, g->d_type = (cb_blas_type)dt;
    g->compute = (cb_blas_type)comp;
    g->scale = (cb_blas_type)scale;
    g->round = round;
    g->batch = batch;
    g->epilogue = epi;
    view_dims(c, &cr, &cc);
    view_dims(dl, &dr, &dc);
    (void)cr, (void)cc, (void)dr, (void)dc;
    if (dl->order == CUBLASLT_ORDER_ROW) {
        /* D^T = op(B)^T op(A)^T + beta C^T, all column-major */
        if (epi)
            REFUSE(CUBLAS_STATUS_NOT_SUPPORTED, "epilogues with a ROW-order D");
        int fa = flip(ob), fb = flip(oa);
        if (fa < 0 || fb < 0)
            REFUSE(CUBLAS_STATUS_NOT_SUPPORTED, "a conjugated operand with a ROW-order D");
        g->m = n, g->n = m, g->k = ak;
        g->trans_a = fa, g->trans_b = fb;
        g->a_type = (cb_blas_type)bt, g->b_type = (cb_blas_type)at;
        g->lda = b->ld, g->ldb = a->ld, g->stride_a = b->stride, g->stride_b = a->stride;
        *swap_ab = 1;
    } else {
        g->m = m, g->n = n, g->k = ak;
        g->trans_a = oa, g->trans_b = ob;
        g->lda = a->ld, g->ldb = b->ld, g->stride_a = a->stride, g->stride_b = b->stride;
    }
    g->ldc = c->ld, g->ldd = dl->ld, g->stride_c = c->stride, g->stride_d = dl->stride;
    /* epilogue operands */
    g->bias_type = d->bias_type >= 0 ? (cb_blas_type)cbl_blas_type_of(d->bias_type)
                                     : (dt == CB_BLAS_I8 ? (cb_blas_type)scale : (cb_blas_type)dt);
    g->aux_type = d->aux_type >= 0 ? (cb_blas_type)cbl_blas_type_of(d->aux_type) : (cb_blas_type)dt;
    if ((int)g->bias_type < 0 || (int)g->aux_type < 0)
        REFUSE(CUBLAS_STATUS_NOT_SUPPORTED, "this bias or aux type");
    g->bias = d->bias;
    g->stride_bias = d->bias_batch_stride;
    g->aux = d->aux;
    g->ldaux = d->aux_ld;
    g->stride_aux = d->aux_batch_stride;
    int needs_bias = (epi & (CB_BLAS_EPI_BIAS | CB_BLAS_EPI_BGRAD | CB_BLAS_EPI_BGRADA | CB_BLAS_EPI_BGRADB)) != 0;
    int needs_aux = (epi & (CB_BLAS_EPI_AUX | CB_BLAS_EPI_DRELU | CB_BLAS_EPI_DGELU)) != 0;
    /* a bias pointer exactly when the epilogue has a bias (or its gradient):
     * the H200 answers INVALID_VALUE for a bias set on RELU, GELU, DEFAULT ... */
    if (needs_bias != (d->bias != 0) || (needs_aux && (!d->aux || d->aux_ld < m)))
        REFUSE(CUBLAS_STATUS_INVALID_VALUE, "the epilogue's bias or aux pointer (or aux leading dimension)");
    return CUBLAS_STATUS_SUCCESS;
}

/* ---- cublasLtMatmul --------------------------------------------------------------------- */

typedef struct lt_op {
    cbl_op base;
    cb_blas_gemm g;
    int swap;                        /* the plan exchanged A and B (ROW-order D) */
    uint64_t a, b, c, d;             /* the caller's pointers */
    lt_layout la, lb, lc, ld;        /* copies: the caller may destroy its layouts */
    int dev;                         /* alpha/beta in device memory */
    uint64_t alpha_dev, beta_dev;
    size_t scale_bytes;
    _Alignas(16) unsigned char alpha[16], beta[16];
    int in_graph;
    cbl_operand ops[6];
} lt_op;

static size_t layout_bytes(const lt_layout *l)
{
    int64_t r, c;
    view_dims(l, &r, &c);
    size_t w = cb_blas_type_size((cb_blas_type)cbl_blas_type_of(l->type));
    return cbl_matrix_bytes(r, c, l->ld, w) + (size_t)((int64_t)(l->batch_count - 1) * l->stride) * w;
}

static int lt_operands(lt_op *o)
{
    const cb_blas_gemm *g = &o->g;
    int n = 0;
    o->ops[n++] = cbl_blas_operand("A", o->a, layout_bytes(&o->la), 0, (cb_blas_type)cbl_blas_type_of(o->la.type));
    o->ops[n++] = cbl_blas_operand("B", o->b, layout_bytes(&o->lb), 0, (cb_blas_type)cbl_blas_type_of(o->lb.type));
    o->ops[n++] = cbl_blas_operand("C", o->c, layout_bytes(&o->lc), 0, g->c_type);
    o->ops[n] = cbl_blas_operand("D", o->d, layout_bytes(&o->ld), 1, g->d_type);
    o->ops[n++].tol_scale = g->k > 1 ? sqrt((double)g->k) : 1;
    unsigned epi = g->epilogue;
    if (g->bias && (epi & (CB_BLAS_EPI_BIAS | CB_BLAS_EPI_BGRAD | CB_BLAS_EPI_BGRADA | CB_BLAS_EPI_BGRADB))) {
        int64_t len = (epi & CB_BLAS_EPI_BGRADB) ? g->n : g->m;
        int out = (epi & (CB_BLAS_EPI_BGRAD | CB_BLAS_EPI_BGRADA | CB_BLAS_EPI_BGRADB)) != 0;
        size_t w = cb_blas_type_size(g->bias_type);
        o->ops[n] = cbl_blas_operand("bias", g->bias, (size_t)len * w + (size_t)((g->batch - 1) * g->stride_bias) * w,
                                     out, g->bias_type);
        o->ops[n++].tol_scale = (epi & CB_BLAS_EPI_BGRAD) ? sqrt((double)(g->n > 1 ? g->n : 1)) * 4
                                                          : sqrt((double)(g->k > 1 ? g->k : 1));
    }
    if (g->aux && (epi & (CB_BLAS_EPI_AUX | CB_BLAS_EPI_DRELU | CB_BLAS_EPI_DGELU))) {
        int mask = (epi & (CB_BLAS_EPI_RELU | CB_BLAS_EPI_DRELU)) != 0;
        size_t bytes = mask ? (size_t)((g->ldaux * g->n + 7) / 8 + (g->batch - 1) * g->stride_aux / 8)
                            : (size_t)(g->ldaux * g->n + (g->batch - 1) * g->stride_aux) * cb_blas_type_size(g->aux_type);
        int out = (epi & CB_BLAS_EPI_AUX) && !(epi & (CB_BLAS_EPI_DRELU | CB_BLAS_EPI_DGELU));
        o->ops[n] = cbl_blas_operand("aux", g->aux, bytes, out, mask ? CB_BLAS_U8 : g->aux_type);
        if (mask)
            o->ops[n].cmp = CB_ELEM_BYTES, o->ops[n].elem_bytes = 1;
        n++;
    }
    if (o->c == o->d)   /* in place: C is D's "before" */
        o->ops[2].bytes = 0;
    return n;
}

/* Host copies of entry i: the plan's A and B (swapped for a ROW-order D). */
static void lt_reference(void *p, cbl_operand *ops)
{
    lt_op *o = p;
    cb_blas_gemm g = o->g;
    g.alpha = o->alpha;
    g.beta = o->beta;
    cbl_operand *A = &ops[o->swap ? 1 : 0], *B = &ops[o->swap ? 0 : 1];
    const unsigned char *cbase = o->c == o->d ? ops[3].before : ops[2].before;
    int n = 4, bias_at = -1, aux_at = -1;
    if (n < 6 && ops[n].name && strcmp(ops[n].name, "bias") == 0)
        bias_at = n++;
    if (n < 6 && ops[n].name && strcmp(ops[n].name, "aux") == 0)
        aux_at = n++;
    size_t wa = cb_blas_type_size(g.a_type), wb = cb_blas_type_size(g.b_type), wc = cb_blas_type_size(g.c_type);
    size_t wd = cb_blas_type_size(g.d_type);
    for (int64_t i = 0; i < g.batch; i++) {
        unsigned char *bias = bias_at >= 0 ? (unsigned char *)ops[bias_at].ref + (size_t)(i * g.stride_bias) * cb_blas_type_size(g.bias_type) : NULL;
        unsigned char *aux = NULL;
        if (aux_at >= 0) {
            int mask = (g.epilogue & (CB_BLAS_EPI_RELU | CB_BLAS_EPI_DRELU)) != 0;
            aux = (unsigned char *)ops[aux_at].ref + (mask ? (size_t)(i * g.stride_aux / 8) : (size_t)(i * g.stride_aux) * cb_blas_type_size(g.aux_type));
        }
        cbl_ref_gemm_entry(&g, (const unsigned char *)A->ref + (size_t)(i * g.stride_a) * wa,
                           (const unsigned char *)B->ref + (size_t)(i * g.stride_b) * wb, cbase + (size_t)(i * g.stride_c) * wc,
                           (unsigned char *)ops[3].ref + (size_t)(i * g.stride_d) * wd, bias, aux);
    }
}

static void lt_release(cb_lib_op *lop) { free(lop); }

static CUresult lt_run(cb_lib_op *lop)
{
    lt_op *o = (lt_op *)lop;
    o->base.ran = 1;
    o->base.status = CUBLAS_STATUS_SUCCESS;
    if (!o->base.backend->lib) {   /* a backend without the library interface (backend_lib.h) */
        o->base.status = CUBLAS_STATUS_NOT_SUPPORTED;
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if (o->dev && (cbl_read(&o->base, o->alpha, o->alpha_dev, o->scale_bytes) != CUDA_SUCCESS ||
                   cbl_read(&o->base, o->beta, o->beta_dev, o->scale_bytes) != CUDA_SUCCESS)) {
        o->base.status = CUBLAS_STATUS_EXECUTION_FAILED;
        return CUDA_ERROR_ILLEGAL_ADDRESS;
    }
    memset(o->ops, 0, sizeof o->ops);
    int nops = lt_operands(o);
    cbl_checked c = {.op = &o->base, .library = "cublasLt", .function = "cublasLtMatmul", .ops = o->ops, .nops = nops};
    snprintf(c.note, sizeof c.note, "%s x %s -> %s, m %lld n %lld k %lld, batch %lld, epilogue %u",
             cb_blas_type_name(o->g.a_type), cb_blas_type_name(o->g.b_type), cb_blas_type_name(o->g.d_type),
             (long long)o->g.m, (long long)o->g.n, (long long)o->g.k, (long long)o->g.batch, o->g.epilogue);
    CUresult r = cbl_check_begin(&c);
    if (r != CUDA_SUCCESS) {
        o->base.status = CUBLAS_STATUS_EXECUTION_FAILED;
        return r;
    }
    cb_blas_gemm g = o->g;
    g.alpha = o->alpha;
    g.beta = o->beta;
    g.a = o->swap ? o->b : o->a;
    g.b = o->swap ? o->a : o->b;
    g.c = o->c;
    g.d = o->d;
    r = o->base.backend->lib->gemm_ex(o->base.backend, &g);
    if (r != CUDA_SUCCESS) {
        cbl_check_abandon(&c);
        o->base.status = r == CUDA_ERROR_NOT_SUPPORTED ? CUBLAS_STATUS_NOT_SUPPORTED : CUBLAS_STATUS_EXECUTION_FAILED;
        /* an asynchronous call has returned SUCCESS already: counted and traced as unsupported, as cuBLAS's
         * are, and the context's sticky error (cbl_refused) */
        if (r == CUDA_ERROR_NOT_SUPPORTED)
            return cbl_refused(&o->base, LT_LIB, "cublasLtMatmul",
                               "the backend's library interface refused this product");
        return CUDA_SUCCESS;
    }
    int drift = cbl_check_end(&c, lt_reference, o);
    if (drift && (o->base.sv->inspect_flags() & CB_INSPECT_STRICT)) {
        cbl_log(CB_LOG_ERROR, "strict: DRIFT in cublasLt cublasLtMatmul: the call fails with CUBLAS_STATUS_EXECUTION_FAILED");
        o->base.status = CUBLAS_STATUS_EXECUTION_FAILED;
        return o->in_graph ? CUDA_ERROR_LAUNCH_FAILED : CUDA_SUCCESS;
    }
    return CUDA_SUCCESS;
}

cublasStatus_t cublasLtMatmul(cublasLtHandle_t h, cublasLtMatmulDesc_t computeDesc, const void *alpha, const void *A,
                              cublasLtMatrixLayout_t Adesc, const void *B, cublasLtMatrixLayout_t Bdesc,
                              const void *beta, const void *C, cublasLtMatrixLayout_t Cdesc, void *D,
                              cublasLtMatrixLayout_t Ddesc, const cublasLtMatmulAlgo_t *algo, void *workspace,
                              size_t workspaceSizeInBytes, cudaStream_t stream)
{
    (void)workspace, (void)workspaceSizeInBytes;
    if (!h || h->magic != LT_MAGIC_HANDLE)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    lt_desc *d = lt_desc_of(computeDesc);
    lt_layout *la = lt_layout_of(Adesc), *lb = lt_layout_of(Bdesc), *lc = lt_layout_of(Cdesc), *ld = lt_layout_of(Ddesc);
    if (!d || !alpha || !beta || !la || !lb || !lc || !ld)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (algo && ((const lt_algo *)algo)->magic != LT_MAGIC_ALGO)
        return CUBLAS_STATUS_INVALID_VALUE;
    lt_log_call("cublasLtMatmul");
    const cb_lib_services *s = cbl_services();
    if (!s)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    lt_op *o = calloc(1, sizeof *o);
    if (!o)
        return CUBLAS_STATUS_ALLOC_FAILED;
    const char *why = NULL;
    cublasStatus_t st = lt_plan(d, la, lb, lc, ld, &o->g, &o->swap, &why);
    if (st != CUBLAS_STATUS_SUCCESS) {
        free(o);
        if (st == CUBLAS_STATUS_NOT_SUPPORTED)
            return (cublasStatus_t)cbl_unsupported_mode(LT_LIB, "cublasLtMatmul", why);
        cbl_log(CB_LOG_INFO, "cublasLt: cublasLtMatmul: %s", why ? why : "invalid arguments");
        return st;
    }
    if (o->g.m == 0 || o->g.n == 0 || o->g.batch == 0) {
        free(o);
        return CUBLAS_STATUS_SUCCESS;
    }
    o->la = *la, o->lb = *lb, o->lc = *lc, o->ld = *ld;
    o->a = (uintptr_t)A, o->b = (uintptr_t)B, o->d = (uintptr_t)D;
    o->c = C ? (uintptr_t)C : (uintptr_t)D;
    o->scale_bytes = cb_blas_type_size(o->g.scale);
    o->dev = d->pointer_mode == CUBLASLT_POINTER_MODE_DEVICE;
    if (o->dev) {
        o->alpha_dev = (uintptr_t)alpha;
        o->beta_dev = (uintptr_t)beta;
    } else {
        memcpy(o->alpha, alpha, o->scale_bytes);
        memcpy(o->beta, beta, o->scale_bytes);
    }
    o->base.base.run = lt_run;
    o->base.base.release = lt_release;
    o->base.base.name = "cublasLtMatmul";
    cb_stream *st_;
    cb_context *ctx = h->ctx;
    if (s->stream(ctx, (CUstream)stream, &st_) == CUDA_SUCCESS && s->capturing(st_))
        o->in_graph = 1;
    int wait = (cbl_trace_flags & CB_INSPECT_VERIFY) != 0, captured = 0, status = 0;
    CUresult r = cbl_submit(ctx, (CUstream)stream, &o->base, wait, &captured, &status);
    if (r != CUDA_SUCCESS)
        return r == CUDA_ERROR_INVALID_HANDLE ? CUBLAS_STATUS_INVALID_VALUE : CUBLAS_STATUS_EXECUTION_FAILED;
    if (!wait || captured)
        return CUBLAS_STATUS_SUCCESS;
    return status < 0 ? CUBLAS_STATUS_EXECUTION_FAILED : (cublasStatus_t)status;
}

/* ---- cublasLtMatrixTransform: C = alpha op(A) + beta op(B) ------------------------------------
 * As a product with the backend's geam, for one BLAS type throughout and
 * COL order; other forms answer NOT_SUPPORTED. */

typedef struct lt_tr_op {
    cbl_op base;
    cb_blas_type t;
    int ta, tb;
    int64_t m, n, lda, ldb, ldc;
    uint64_t a, b, c;
    _Alignas(16) unsigned char alpha[16], beta[16];
    cbl_operand ops[3];
} lt_tr_op;

static void tr_reference(void *p, cbl_operand *ops)
{
    lt_tr_op *o = p;
    cb_cplx alpha = cb_blas_load(o->t, o->alpha, 0), beta = cb_blas_load(o->t, o->beta, 0);
    for (int64_t j = 0; j < o->n; j++)
        for (int64_t i = 0; i < o->m; i++) {
            cb_cplx v = {0, 0};
            for (int side = 0; side < 2; side++) {
                cb_cplx s = side ? beta : alpha;
                if (s.re == 0 && s.im == 0)
                    continue;
                int t = side ? o->tb : o->ta;
                int64_t ld = side ? o->ldb : o->lda;
                cb_cplx x = t == CUBLAS_OP_N ? cb_blas_load(o->t, ops[side].before, (size_t)(i + j * ld))
                                             : cb_blas_load(o->t, ops[side].before, (size_t)(j + i * ld));
                if (t == CUBLAS_OP_C)
                    x.im = -x.im;
                v.re += s.re * x.re - s.im * x.im;
                v.im += s.re * x.im + s.im * x.re;
            }
            cb_blas_store(o->t, ops[2].ref, (size_t)(i + j * o->ldc), v);
        }
}

static CUresult tr_run(cb_lib_op *lop)
{
    lt_tr_op *o = (lt_tr_op *)lop;
    o->base.ran = 1;
    o->base.status = CUBLAS_STATUS_SUCCESS;
    if (!o->base.backend->lib) {   /* a backend without the library interface (backend_lib.h) */
        o->base.status = CUBLAS_STATUS_NOT_SUPPORTED;
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    size_t w = cb_blas_type_size(o->t);
    int zero_a = cb_blas_load(o->t, o->alpha, 0).re == 0 && cb_blas_load(o->t, o->alpha, 0).im == 0;
    int zero_b = cb_blas_load(o->t, o->beta, 0).re == 0 && cb_blas_load(o->t, o->beta, 0).im == 0;
    o->ops[0] = cbl_blas_operand("A", o->a, zero_a ? 0 : (o->ta == CUBLAS_OP_N ? cbl_matrix_bytes(o->m, o->n, o->lda, w)
                                                                          : cbl_matrix_bytes(o->n, o->m, o->lda, w)), 0, o->t);
    o->ops[1] = cbl_blas_operand("B", o->b, zero_b ? 0 : (o->tb == CUBLAS_OP_N ? cbl_matrix_bytes(o->m, o->n, o->ldb, w)
                                                                          : cbl_matrix_bytes(o->n, o->m, o->ldb, w)), 0, o->t);
    o->ops[2] = cbl_blas_operand("C", o->c, cbl_matrix_bytes(o->m, o->n, o->ldc, w), 1, o->t);
    cbl_checked c = {.op = &o->base, .library = "cublasLt", .function = "cublasLtMatrixTransform", .ops = o->ops, .nops = 3};
    CUresult r = cbl_check_begin(&c);
    if (r != CUDA_SUCCESS) {
        o->base.status = CUBLAS_STATUS_EXECUTION_FAILED;
        return r;
    }
    r = o->base.backend->lib->geam(o->base.backend, o->t, o->ta, o->tb, o->m, o->n, o->alpha, o->a, o->lda, o->beta,
                                   o->b, o->ldb, o->c, o->ldc);
    if (r != CUDA_SUCCESS) {
        cbl_check_abandon(&c);
        o->base.status = CUBLAS_STATUS_NOT_SUPPORTED;
        return CUDA_SUCCESS;
    }
    if (cbl_check_end(&c, tr_reference, o) && (o->base.sv->inspect_flags() & CB_INSPECT_STRICT))
        o->base.status = CUBLAS_STATUS_EXECUTION_FAILED;
    return CUDA_SUCCESS;
}

static void tr_release(cb_lib_op *lop) { free(lop); }

cublasStatus_t cublasLtMatrixTransform(cublasLtHandle_t h, cublasLtMatrixTransformDesc_t transformDesc,
                                       const void *alpha, const void *A, cublasLtMatrixLayout_t Adesc,
                                       const void *beta, const void *B, cublasLtMatrixLayout_t Bdesc, void *C,
                                       cublasLtMatrixLayout_t Cdesc, cudaStream_t stream)
{
    if (!h || h->magic != LT_MAGIC_HANDLE)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    lt_transform *t = lt_transform_of(transformDesc);
    lt_layout *lc = lt_layout_of(Cdesc), *la = lt_layout_of(Adesc), *lb = lt_layout_of(Bdesc);
    if (!t || !alpha || !beta || !lc)
        return CUBLAS_STATUS_INVALID_VALUE;
    lt_log_call("cublasLtMatrixTransform");
    int ct = cbl_blas_type_of(lc->type);
    int ok = (ct == CB_BLAS_F32 || ct == CB_BLAS_F64 || ct == CB_BLAS_C32 || ct == CB_BLAS_C64) &&
             cbl_blas_type_of(t->scale) == ct && lc->order == CUBLASLT_ORDER_COL && lc->batch_count == 1 &&
             t->pointer_mode == CUBLASLT_POINTER_MODE_HOST;
    for (int i = 0; i < 2 && ok; i++) {
        lt_layout *l = i ? lb : la;
        if (l)
            ok = (int)l->type == (int)lc->type && l->order == CUBLASLT_ORDER_COL && l->batch_count == 1;
    }
    if (!ok)
        return (cublasStatus_t)cbl_unsupported_mode(LT_LIB, "cublasLtMatrixTransform",
                                                    "other than one BLAS type, COL order, one matrix, host scalars");
    const cb_lib_services *s = cbl_services();
    lt_tr_op *o = calloc(1, sizeof *o);
    if (!o || !s) {
        free(o);
        return CUBLAS_STATUS_ALLOC_FAILED;
    }
    o->t = (cb_blas_type)ct, o->ta = t->transa, o->tb = t->transb;
    o->m = (int64_t)lc->rows, o->n = (int64_t)lc->cols, o->ldc = lc->ld;
    o->lda = la ? la->ld : 1, o->ldb = lb ? lb->ld : 1;
    o->a = (uintptr_t)A, o->b = (uintptr_t)B, o->c = (uintptr_t)C;
    memcpy(o->alpha, alpha, cb_blas_type_size(o->t));
    memcpy(o->beta, beta, cb_blas_type_size(o->t));
    o->base.base.run = tr_run;
    o->base.base.release = tr_release;
    o->base.base.name = "cublasLtMatrixTransform";
    int wait = (cbl_trace_flags & CB_INSPECT_VERIFY) != 0, captured = 0, status = 0;
    CUresult r = cbl_submit(h->ctx, (CUstream)stream, &o->base, wait, &captured, &status);
    if (r != CUDA_SUCCESS)
        return CUBLAS_STATUS_EXECUTION_FAILED;
    return !wait || captured ? CUBLAS_STATUS_SUCCESS : status < 0 ? CUBLAS_STATUS_EXECUTION_FAILED : (cublasStatus_t)status;
}
