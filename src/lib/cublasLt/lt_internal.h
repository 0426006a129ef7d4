/* lt_internal.h: what the files of the cuBLASLt facade share.
 *
 *   lt_attrs.c    the descriptors' state and their attribute tables (no
 *                 other dependency: the fuzzer tests/fuzz/fuzz_lt_attrs.c
 *                 drives it directly)
 *   lt_api.c      handles, descriptors, preferences, algorithms and the
 *                 heuristic query, versions, the logger
 *   lt_matmul.c   cublasLtMatmul and cublasLtMatrixTransform as stream
 *                 operations, checked against the shared C reference
 *
 * Every descriptor keeps its whole state inside NVIDIA's public opaque
 * struct (cublasLtMatmulDescOpaque_t holds 32 uint64_t, the others 8), so
 * that the *Init_internal forms work on memory the caller owns, as with
 * NVIDIA's library.
 */
#ifndef CBL_LT_INTERNAL_H
#define CBL_LT_INTERNAL_H

#include <cublasLt.h>
#include <stddef.h>
#include <stdint.h>

#define LT_MAGIC_DESC 0x4c74444du     /* "LtDM" */
#define LT_MAGIC_LAYOUT 0x4c744c61u   /* "LtLa" */
#define LT_MAGIC_PREF 0x4c745072u     /* "LtPr" */
#define LT_MAGIC_TRANSFORM 0x4c745478u
#define LT_MAGIC_ALGO 0x4c74416cu

typedef struct lt_desc {
    uint32_t magic;
    uint32_t allocated;            /* by cublasLtMatmulDescCreate (freed by Destroy) */
    int32_t compute, scale, pointer_mode, transa, transb, transc, fill_mode;
    uint32_t epilogue;
    uint64_t bias, aux, a_scale, b_scale, c_scale, d_scale, amax_d, aux_scale, aux_amax, d_out_scale, emulation;
    int64_t bias_batch_stride, aux_ld, aux_batch_stride, alpha_vector_batch_stride;
    int32_t sm_count_target, aux_type, bias_type;
    int32_t a_scale_mode, b_scale_mode, c_scale_mode, d_scale_mode, aux_scale_mode, d_out_scale_mode;
    int8_t fast_accum;
} lt_desc;

typedef struct lt_layout {
    uint32_t magic;
    uint32_t type;                 /* cudaDataType */
    int32_t order;                 /* cublasLtOrder_t */
    int32_t batch_count;
    uint64_t rows, cols;
    int64_t ld;
    int64_t stride;                /* STRIDED_BATCH_OFFSET, elements */
    int64_t plane_offset;
    uint32_t batch_mode;
    uint32_t allocated;
} lt_layout;

typedef struct lt_pref {
    uint32_t magic;
    uint32_t search_mode;
    uint64_t max_workspace;
    uint32_t reduction_mask;
    uint32_t align[4];             /* MIN_ALIGNMENT_A/B/C/D_BYTES */
    float max_waves;
    uint64_t impl_mask;
    uint32_t allocated;
} lt_pref;

typedef struct lt_transform {
    uint32_t magic;
    uint32_t allocated;
    int32_t scale, pointer_mode, transa, transb;
} lt_transform;

/* The algorithm's configuration inside cublasLtMatmulAlgo_t. */
typedef struct lt_algo {
    uint32_t magic;
    int32_t id;
    uint32_t tile, reduction, swizzle, custom, stages;
    int32_t splitk;
    uint16_t inner_shape, cluster_shape;
    int32_t compute, scale;        /* what it was made for (AlgoInit) */
} lt_algo;

_Static_assert(sizeof(lt_desc) <= sizeof(cublasLtMatmulDescOpaque_t), "matmul descriptor state too big");
_Static_assert(sizeof(lt_layout) <= sizeof(cublasLtMatrixLayoutOpaque_t), "layout state too big");
_Static_assert(sizeof(lt_pref) <= sizeof(cublasLtMatmulPreferenceOpaque_t), "preference state too big");
_Static_assert(sizeof(lt_transform) <= sizeof(cublasLtMatrixTransformDescOpaque_t), "transform state too big");
_Static_assert(sizeof(lt_algo) <= sizeof(cublasLtMatmulAlgo_t), "algo state too big");

/* ---- attributes (lt_attrs.c) -----------------------------------------------
 * set: buf of exactly the attribute's size (CUBLAS_STATUS_INVALID_VALUE
 * otherwise, or for an unknown attribute or a NULL buf). get: with size 0
 * and sizeWritten set, reports the size; else buf must be non-NULL and size
 * exactly the attribute's; sizeWritten (may be NULL) gets the size. The
 * values are not checked here; cublasLtMatmul refuses what it cannot do. */
void lt_desc_defaults(lt_desc *d, int compute, int scale);
cublasStatus_t lt_desc_set(lt_desc *d, int attr, const void *buf, size_t size);
cublasStatus_t lt_desc_get(const lt_desc *d, int attr, void *buf, size_t size, size_t *written);

void lt_layout_defaults(lt_layout *l, uint32_t type, uint64_t rows, uint64_t cols, int64_t ld);
cublasStatus_t lt_layout_set(lt_layout *l, int attr, const void *buf, size_t size);
cublasStatus_t lt_layout_get(const lt_layout *l, int attr, void *buf, size_t size, size_t *written);

void lt_pref_defaults(lt_pref *p);
cublasStatus_t lt_pref_set(lt_pref *p, int attr, const void *buf, size_t size);
cublasStatus_t lt_pref_get(const lt_pref *p, int attr, void *buf, size_t size, size_t *written);

void lt_transform_defaults(lt_transform *t, int scale);
cublasStatus_t lt_transform_set(lt_transform *t, int attr, const void *buf, size_t size);
cublasStatus_t lt_transform_get(const lt_transform *t, int attr, void *buf, size_t size, size_t *written);

cublasStatus_t lt_algo_config_set(lt_algo *a, int attr, const void *buf, size_t size);
cublasStatus_t lt_algo_config_get(const lt_algo *a, int attr, void *buf, size_t size, size_t *written);
cublasStatus_t lt_algo_cap_get(const lt_algo *a, int attr, void *buf, size_t size, size_t *written);

/* ---- the facade (lt_api.c, lt_matmul.c) -------------------------------------- */

struct cublasLtContext {
    uint32_t magic;
    void *ctx;                     /* cb_context * of the creating thread */
};
#define LT_MAGIC_HANDLE 0x4c74486eu

/* The state behind a descriptor handle, or NULL when it is not one. */
lt_desc *lt_desc_of(cublasLtMatmulDesc_t d);
lt_layout *lt_layout_of(cublasLtMatrixLayout_t l);
lt_pref *lt_pref_of(cublasLtMatmulPreference_t p);
lt_transform *lt_transform_of(cublasLtMatrixTransformDesc_t t);

/* The product a matmul describes, checked: CUBLAS_STATUS_SUCCESS with
 * everything filled into a cb_blas_gemm plan (*swap_ab: the plan's A is
 * the caller's B and its B the caller's A, for a ROW-order D), or the status
 * cublasLtMatmul (and the heuristic query) returns. */
struct cb_blas_gemm;
cublasStatus_t lt_plan(const lt_desc *d, const lt_layout *a, const lt_layout *b, const lt_layout *c,
                       const lt_layout *dl, struct cb_blas_gemm *g, int *swap_ab, const char **why);

/* One line per call in the cuBLASLt API log, when on. */
void lt_log_call(const char *function);

#endif
