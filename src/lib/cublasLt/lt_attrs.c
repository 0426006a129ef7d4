/* lt_attrs.c: cuBLASLt's descriptor attributes, by table (lt_internal.h).
 *
 * Each attribute is (id, offset in the state struct, size): a setter copies
 * exactly that many bytes, a getter copies them out. Sizes come from
 * cublasLt.h's documentation of each attribute (int32_t, uint64_t, void *
 * ...). Nothing here trusts the caller's size: a buffer of another size is
 * refused before any copy (tests/fuzz/fuzz_lt_attrs.c).
 */
#include <string.h>

#include "lt_internal.h"

typedef struct lt_attr {
    int id;
    size_t offset, size;
} lt_attr;

#define A(id, type, field) {id, offsetof(type, field), sizeof(((type *)0)->field)}

static const lt_attr desc_attrs[] = {
    A(CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, lt_desc, compute),
    A(CUBLASLT_MATMUL_DESC_SCALE_TYPE, lt_desc, scale),
    A(CUBLASLT_MATMUL_DESC_POINTER_MODE, lt_desc, pointer_mode),
    A(CUBLASLT_MATMUL_DESC_TRANSA, lt_desc, transa),
    A(CUBLASLT_MATMUL_DESC_TRANSB, lt_desc, transb),
    A(CUBLASLT_MATMUL_DESC_TRANSC, lt_desc, transc),
    A(CUBLASLT_MATMUL_DESC_FILL_MODE, lt_desc, fill_mode),
    A(CUBLASLT_MATMUL_DESC_EPILOGUE, lt_desc, epilogue),
    A(CUBLASLT_MATMUL_DESC_BIAS_POINTER, lt_desc, bias),
    A(CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, lt_desc, bias_batch_stride),
    A(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, lt_desc, aux),
    A(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, lt_desc, aux_ld),
    A(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE, lt_desc, aux_batch_stride),
    A(CUBLASLT_MATMUL_DESC_ALPHA_VECTOR_BATCH_STRIDE, lt_desc, alpha_vector_batch_stride),
    A(CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET, lt_desc, sm_count_target),
    A(CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, lt_desc, a_scale),
    A(CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, lt_desc, b_scale),
    A(CUBLASLT_MATMUL_DESC_C_SCALE_POINTER, lt_desc, c_scale),
    A(CUBLASLT_MATMUL_DESC_D_SCALE_POINTER, lt_desc, d_scale),
    A(CUBLASLT_MATMUL_DESC_AMAX_D_POINTER, lt_desc, amax_d),
    A(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE, lt_desc, aux_type),
    A(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_POINTER, lt_desc, aux_scale),
    A(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_AMAX_POINTER, lt_desc, aux_amax),
    A(CUBLASLT_MATMUL_DESC_FAST_ACCUM, lt_desc, fast_accum),
    A(CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, lt_desc, bias_type),
    A(CUBLASLT_MATMUL_DESC_A_SCALE_MODE, lt_desc, a_scale_mode),
    A(CUBLASLT_MATMUL_DESC_B_SCALE_MODE, lt_desc, b_scale_mode),
    A(CUBLASLT_MATMUL_DESC_C_SCALE_MODE, lt_desc, c_scale_mode),
    A(CUBLASLT_MATMUL_DESC_D_SCALE_MODE, lt_desc, d_scale_mode),
    A(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_MODE, lt_desc, aux_scale_mode),
    A(CUBLASLT_MATMUL_DESC_D_OUT_SCALE_POINTER, lt_desc, d_out_scale),
    A(CUBLASLT_MATMUL_DESC_D_OUT_SCALE_MODE, lt_desc, d_out_scale_mode),
    A(CUBLASLT_MATMUL_DESC_EMULATION_DESCRIPTOR, lt_desc, emulation),
};

static const lt_attr layout_attrs[] = {
    A(CUBLASLT_MATRIX_LAYOUT_TYPE, lt_layout, type),
    A(CUBLASLT_MATRIX_LAYOUT_ORDER, lt_layout, order),
    A(CUBLASLT_MATRIX_LAYOUT_ROWS, lt_layout, rows),
    A(CUBLASLT_MATRIX_LAYOUT_COLS, lt_layout, cols),
    A(CUBLASLT_MATRIX_LAYOUT_LD, lt_layout, ld),
    A(CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, lt_layout, batch_count),
    A(CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, lt_layout, stride),
    A(CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET, lt_layout, plane_offset),
    A(CUBLASLT_MATRIX_LAYOUT_BATCH_MODE, lt_layout, batch_mode),
};

static const lt_attr pref_attrs[] = {
    A(CUBLASLT_MATMUL_PREF_SEARCH_MODE, lt_pref, search_mode),
    A(CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, lt_pref, max_workspace),
    A(CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, lt_pref, reduction_mask),
    {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, offsetof(lt_pref, align) + 0 * sizeof(uint32_t), sizeof(uint32_t)},
    {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, offsetof(lt_pref, align) + 1 * sizeof(uint32_t), sizeof(uint32_t)},
    {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, offsetof(lt_pref, align) + 2 * sizeof(uint32_t), sizeof(uint32_t)},
    {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, offsetof(lt_pref, align) + 3 * sizeof(uint32_t), sizeof(uint32_t)},
    A(CUBLASLT_MATMUL_PREF_MAX_WAVES_COUNT, lt_pref, max_waves),
    A(CUBLASLT_MATMUL_PREF_IMPL_MASK, lt_pref, impl_mask),
};

static const lt_attr transform_attrs[] = {
    A(CUBLASLT_MATRIX_TRANSFORM_DESC_SCALE_TYPE, lt_transform, scale),
    A(CUBLASLT_MATRIX_TRANSFORM_DESC_POINTER_MODE, lt_transform, pointer_mode),
    A(CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA, lt_transform, transa),
    A(CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSB, lt_transform, transb),
};

static const lt_attr config_attrs[] = {
    A(CUBLASLT_ALGO_CONFIG_ID, lt_algo, id),
    A(CUBLASLT_ALGO_CONFIG_TILE_ID, lt_algo, tile),
    A(CUBLASLT_ALGO_CONFIG_SPLITK_NUM, lt_algo, splitk),
    A(CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME, lt_algo, reduction),
    A(CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, lt_algo, swizzle),
    A(CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION, lt_algo, custom),
    A(CUBLASLT_ALGO_CONFIG_STAGES_ID, lt_algo, stages),
    A(CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID, lt_algo, inner_shape),
    A(CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, lt_algo, cluster_shape),
};

#undef A

static const lt_attr *find(const lt_attr *t, size_t n, int id)
{
    for (size_t i = 0; i < n; i++)
        if (t[i].id == id)
            return &t[i];
    return NULL;
}

static cublasStatus_t attr_set(void *state, const lt_attr *t, size_t n, int id, const void *buf, size_t size)
{
    const lt_attr *a = find(t, n, id);
    if (!a || !buf || size != a->size)
        return CUBLAS_STATUS_INVALID_VALUE;
    memcpy((char *)state + a->offset, buf, size);
    return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t attr_get(const void *state, const lt_attr *t, size_t n, int id, void *buf, size_t size,
                               size_t *written)
{
    const lt_attr *a = find(t, n, id);
    if (!a)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (size == 0 && written) {   /* a size query */
        *written = a->size;
        return CUBLAS_STATUS_SUCCESS;
    }
    if (!buf || size != a->size)
        return CUBLAS_STATUS_INVALID_VALUE;
    memcpy(buf, (const char *)state + a->offset, a->size);
    if (written)
        *written = a->size;
    return CUBLAS_STATUS_SUCCESS;
}

#define N(t) (sizeof t / sizeof t[0])

void lt_desc_defaults(lt_desc *d, int compute, int scale)
{
    memset(d, 0, sizeof *d);
    d->magic = LT_MAGIC_DESC;
    d->compute = compute;
    d->scale = scale;
    d->pointer_mode = CUBLASLT_POINTER_MODE_HOST;
    d->transa = d->transb = d->transc = CUBLAS_OP_N;
    d->fill_mode = CUBLAS_FILL_MODE_FULL;
    d->epilogue = CUBLASLT_EPILOGUE_DEFAULT;
    d->aux_type = -1;
    d->bias_type = -1;
}
cublasStatus_t lt_desc_set(lt_desc *d, int attr, const void *buf, size_t size)
{
    return attr_set(d, desc_attrs, N(desc_attrs), attr, buf, size);
}
cublasStatus_t lt_desc_get(const lt_desc *d, int attr, void *buf, size_t size, size_t *written)
{
    return attr_get(d, desc_attrs, N(desc_attrs), attr, buf, size, written);
}

void lt_layout_defaults(lt_layout *l, uint32_t type, uint64_t rows, uint64_t cols, int64_t ld)
{
    memset(l, 0, sizeof *l);
    l->magic = LT_MAGIC_LAYOUT;
    l->type = type;
    l->order = CUBLASLT_ORDER_COL;
    l->batch_count = 1;
    l->rows = rows;
    l->cols = cols;
    l->ld = ld;
}
cublasStatus_t lt_layout_set(lt_layout *l, int attr, const void *buf, size_t size)
{
    return attr_set(l, layout_attrs, N(layout_attrs), attr, buf, size);
}
cublasStatus_t lt_layout_get(const lt_layout *l, int attr, void *buf, size_t size, size_t *written)
{
    return attr_get(l, layout_attrs, N(layout_attrs), attr, buf, size, written);
}

void lt_pref_defaults(lt_pref *p)
{
    memset(p, 0, sizeof *p);
    p->magic = LT_MAGIC_PREF;
    p->reduction_mask = CUBLASLT_REDUCTION_SCHEME_MASK;
    p->align[0] = p->align[1] = p->align[2] = p->align[3] = 256;
    p->impl_mask = ~0ull;   /* every implementation */
}
cublasStatus_t lt_pref_set(lt_pref *p, int attr, const void *buf, size_t size)
{
    return attr_set(p, pref_attrs, N(pref_attrs), attr, buf, size);
}
cublasStatus_t lt_pref_get(const lt_pref *p, int attr, void *buf, size_t size, size_t *written)
{
    return attr_get(p, pref_attrs, N(pref_attrs), attr, buf, size, written);
}

void lt_transform_defaults(lt_transform *t, int scale)
{
    memset(t, 0, sizeof *t);
    t->magic = LT_MAGIC_TRANSFORM;
    t->scale = scale;
    t->pointer_mode = CUBLASLT_POINTER_MODE_HOST;
    t->transa = t->transb = CUBLAS_OP_N;
}
cublasStatus_t lt_transform_set(lt_transform *t, int attr, const void *buf, size_t size)
{
    return attr_set(t, transform_attrs, N(transform_attrs), attr, buf, size);
}
cublasStatus_t lt_transform_get(const lt_transform *t, int attr, void *buf, size_t size, size_t *written)
{
    return attr_get(t, transform_attrs, N(transform_attrs), attr, buf, size, written);
}

cublasStatus_t lt_algo_config_set(lt_algo *a, int attr, const void *buf, size_t size)
{
    return attr_set(a, config_attrs, N(config_attrs), attr, buf, size);
}
cublasStatus_t lt_algo_config_get(const lt_algo *a, int attr, void *buf, size_t size, size_t *written)
{
    return attr_get(a, config_attrs, N(config_attrs), attr, buf, size, written);
}

/* What the one algorithm of the CPU backend can do. */
cublasStatus_t lt_algo_cap_get(const lt_algo *a, int attr, void *buf, size_t size, size_t *written)
{
    (void)a;
    union {
        int32_t i32;
        uint32_t u32;
        uint64_t u64;
    } v;
    size_t n;
    switch (attr) {
    case CUBLASLT_ALGO_CAP_SPLITK_SUPPORT:
    case CUBLASLT_ALGO_CAP_CTA_SWIZZLING_SUPPORT:
    case CUBLASLT_ALGO_CAP_UPLO_SUPPORT:
    case CUBLASLT_ALGO_CAP_CUSTOM_OPTION_MAX:
    case CUBLASLT_ALGO_CAP_CUSTOM_MEMORY_ORDER:
    case CUBLASLT_ALGO_CAP_LD_NEGATIVE:
    case CUBLASLT_ALGO_CAP_POINTER_ARRAY_BATCH_SUPPORT:
    case CUBLASLT_ALGO_CAP_FLOATING_POINT_EMULATION_SUPPORT: v.i32 = 0, n = 4; break;
    case CUBLASLT_ALGO_CAP_STRIDED_BATCH_SUPPORT:
    case CUBLASLT_ALGO_CAP_OUT_OF_PLACE_RESULT_SUPPORT: v.i32 = 1, n = 4; break;
    case CUBLASLT_ALGO_CAP_REDUCTION_SCHEME_MASK: v.u32 = CUBLASLT_REDUCTION_SCHEME_NONE, n = 4; break;
    case CUBLASLT_ALGO_CAP_POINTER_MODE_MASK: v.u32 = CUBLASLT_POINTER_MODE_MASK_HOST | CUBLASLT_POINTER_MODE_MASK_DEVICE, n = 4; break;
    case CUBLASLT_ALGO_CAP_EPILOGUE_MASK:
        v.u32 = CUBLASLT_EPILOGUE_DEFAULT | CUBLASLT_EPILOGUE_RELU_AUX_BIAS | CUBLASLT_EPILOGUE_GELU_AUX_BIAS |
                CUBLASLT_EPILOGUE_DRELU_BGRAD | CUBLASLT_EPILOGUE_DGELU_BGRAD | CUBLASLT_EPILOGUE_BGRADA |
                CUBLASLT_EPILOGUE_BGRADB;
        n = 4;
        break;
    case CUBLASLT_ALGO_CAP_NUMERICAL_IMPL_FLAGS: v.u64 = 0, n = 8; break;
    case CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_A_BYTES:
    case CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_B_BYTES:
    case CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_C_BYTES:
    case CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_D_BYTES: v.u32 = 1, n = 4; break;
    case CUBLASLT_ALGO_CAP_TILE_IDS:
    case CUBLASLT_ALGO_CAP_STAGES_IDS:
        /* arrays: none (the one tile is "undefined"), by the getters' rules */
        if (size == 0 && written) {
            *written = 0;
            return CUBLAS_STATUS_SUCCESS;
        }
        if (!buf)
            return CUBLAS_STATUS_INVALID_VALUE;
        if (written)
            *written = 0;
        return CUBLAS_STATUS_SUCCESS;
    default: return CUBLAS_STATUS_INVALID_VALUE;
    }
    if (size == 0 && written) {
        *written = n;
        return CUBLAS_STATUS_SUCCESS;
    }
    if (!buf || size != n)
        return CUBLAS_STATUS_INVALID_VALUE;
    memcpy(buf, &v, n);
    if (written)
        *written = n;
    return CUBLAS_STATUS_SUCCESS;
}
