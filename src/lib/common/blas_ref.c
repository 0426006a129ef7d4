/* blas_ref.c: the shared C references (blas_ref.h). */
#include "lib/common/blas_ref.h"

#include <stdlib.h>

#include "backend/blas_elem.h"

int cbl_blas_type_of(cudaDataType t)
{
    switch (t) {
    case CUDA_R_32F: return CB_BLAS_F32;
    case CUDA_R_64F: return CB_BLAS_F64;
    case CUDA_C_32F: return CB_BLAS_C32;
    case CUDA_C_64F: return CB_BLAS_C64;
    case CUDA_R_16F: return CB_BLAS_F16;
    case CUDA_R_16BF: return CB_BLAS_BF16;
    case CUDA_R_8I: return CB_BLAS_I8;
    case CUDA_R_8U: return CB_BLAS_U8;
    case CUDA_R_32I: return CB_BLAS_I32;
    case CUDA_R_32U: return CB_BLAS_U32;
    case CUDA_C_16F: return CB_BLAS_C16F;
    case CUDA_C_16BF: return CB_BLAS_C16BF;
    case CUDA_C_8I: return CB_BLAS_CI8;
    case CUDA_C_8U: return CB_BLAS_CU8;
    case CUDA_C_32I: return CB_BLAS_CI32;
    case CUDA_R_8F_E4M3: return CB_BLAS_E4M3;
    case CUDA_R_8F_E5M2: return CB_BLAS_E5M2;
    default: return -1;
    }
}

cb_inspect_elem cbl_cmp_of(cb_blas_type t)
{
    switch (t) {
    case CB_BLAS_F32:
    case CB_BLAS_C32: return CB_ELEM_F32;
    case CB_BLAS_F64:
    case CB_BLAS_C64: return CB_ELEM_F64;
    case CB_BLAS_F16:
    case CB_BLAS_C16F: return CB_ELEM_F16;
    case CB_BLAS_BF16:
    case CB_BLAS_C16BF: return CB_ELEM_BF16;
    case CB_BLAS_E4M3:
    case CB_BLAS_E5M2: return CB_ELEM_BYTES;
    default: return CB_ELEM_INT;
    }
}

cbl_operand cbl_blas_operand(const char *name, uint64_t addr, size_t bytes, int out, cb_blas_type t)
{
    return (cbl_operand){.name = name, .addr = addr, .bytes = bytes, .out = out, .cmp = cbl_cmp_of(t),
                         .elem_bytes = (unsigned)(cb_blas_type_size(t) / (cb_blas_type_complex(t) ? 2 : 1))};
}

static cb_cplx mul(cb_cplx a, cb_cplx b) { return (cb_cplx){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }

static cb_cplx op_elem(cb_blas_type t, const void *x, int64_t ld, int trans, int64_t i, int64_t j,
                       cb_blas_input_round r)
{
    cb_cplx v = trans == CB_BLAS_OP_N ? cb_blas_load(t, x, (size_t)(i + j * ld)) : cb_blas_load(t, x, (size_t)(j + i * ld));
    if (trans == CB_BLAS_OP_C)
        v.im = -v.im;
    v.re = cb_blas_round_input(r, v.re);
    v.im = cb_blas_round_input(r, v.im);
    return v;
}

void cbl_ref_gemm_entry(const cb_blas_gemm *g, const void *a, const void *b, const void *c, void *d, void *bias,
                        void *aux)
{
    cb_cplx alpha = cb_blas_load(g->scale, g->alpha, 0), beta = cb_blas_load(g->scale, g->beta, 0);
    int use_c = beta.re != 0 || beta.im != 0, use_ab = alpha.re != 0 || alpha.im != 0;
    unsigned epi = g->epilogue;
    int backward = (epi & (CB_BLAS_EPI_DRELU | CB_BLAS_EPI_DGELU)) != 0;
    double *rowsum = (epi & CB_BLAS_EPI_BGRAD) && bias ? calloc((size_t)(g->m ? g->m : 1), sizeof(double)) : NULL;
    /* the whole result first: d may be c */
    cb_cplx *t = malloc((size_t)(g->m ? g->m : 1) * (size_t)(g->n ? g->n : 1) * sizeof *t);
    if (!t) {
        free(rowsum);
        return;
    }
    for (int64_t j = 0; j < g->n; j++)
        for (int64_t i = 0; i < g->m; i++) {
            cb_cplx s = {0, 0};
            for (int64_t l = 0; l < g->k && use_ab; l++) {
                cb_cplx p = mul(op_elem(g->a_type, a, g->lda, g->trans_a, i, l, g->round),
                                op_elem(g->b_type, b, g->ldb, g->trans_b, l, j, g->round));
                s.re += p.re;
                s.im += p.im;
            }
            cb_cplx v = use_ab ? mul(alpha, s) : (cb_cplx){0, 0};
            if (use_c) {
                cb_cplx cv = mul(beta, cb_blas_load(g->c_type, c, (size_t)(i + j * g->ldc)));
                v.re += cv.re;
                v.im += cv.im;
            }
            if ((epi & CB_BLAS_EPI_BIAS) && bias && !backward)
                v.re += cb_blas_load(g->bias_type, bias, (size_t)i).re;
            if ((epi & CB_BLAS_EPI_AUX) && aux && !backward) {
                size_t at = (size_t)(i + j * g->ldaux);
                if (epi & CB_BLAS_EPI_RELU) {
                    unsigned char *mask = aux;
                    if (v.re > 0)
                        mask[at / 8] |= (unsigned char)(1u << (at % 8));
                    else
                        mask[at / 8] &= (unsigned char)~(1u << (at % 8));
                } else {
                    cb_blas_store(g->aux_type, aux, at, v);
                }
            }
            if (epi & CB_BLAS_EPI_DRELU) {
                size_t at = (size_t)(i + j * g->ldaux);
                if (!aux || !(((const unsigned char *)aux)[at / 8] >> (at % 8) & 1))
                    v.re = 0;
            } else if (epi & CB_BLAS_EPI_DGELU) {
                v.re *= cb_blas_gelu_grad(aux ? cb_blas_load(g->aux_type, aux, (size_t)(i + j * g->ldaux)).re : 0);
            } else if (epi & CB_BLAS_EPI_RELU) {
                v.re = v.re > 0 ? v.re : 0;
            } else if (epi & CB_BLAS_EPI_GELU) {
                v.re = cb_blas_gelu(v.re);
            }
            if (rowsum)
                rowsum[i] += v.re;
            t[i + j * g->m] = v;
        }
    for (int64_t j = 0; j < g->n; j++)
        for (int64_t i = 0; i < g->m; i++)
            cb_blas_store(g->d_type, d, (size_t)(i + j * g->ldd), t[i + j * g->m]);
    if (rowsum)
        for (int64_t i = 0; i < g->m; i++)
            cb_blas_store(g->bias_type, bias, (size_t)i, (cb_cplx){rowsum[i], 0});
    if ((epi & (CB_BLAS_EPI_BGRADA | CB_BLAS_EPI_BGRADB)) && bias) {
        int of_a = (epi & CB_BLAS_EPI_BGRADA) != 0;
        for (int64_t i = 0; i < (of_a ? g->m : g->n); i++) {
            double s = 0;
            for (int64_t l = 0; l < g->k; l++)
                s += of_a ? op_elem(g->a_type, a, g->lda, g->trans_a, i, l, g->round).re
                          : op_elem(g->b_type, b, g->ldb, g->trans_b, l, i, g->round).re;
            cb_blas_store(g->bias_type, bias, (size_t)i, (cb_cplx){s, 0});
        }
    }
    free(rowsum);
    free(t);
}
