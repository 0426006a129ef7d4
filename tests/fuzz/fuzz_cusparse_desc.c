/* fuzz_cusparse_desc.c: libFuzzer harness for the cuSPARSE facade's generic
 * API descriptors (src/lib/cusparse/descr.c): sparse matrices (CSR, CSC,
 * COO, blocked ELL), sparse vectors, dense matrices and vectors, with the
 * sizes, index types, bases, value types, pointers, attributes and strided
 * batches an application chose. Called through the public names (the
 * facade's exports, linked in as objects); no GPU, no handle. The arrays a
 * descriptor names are device memory the facade never touches: the harness
 * passes made-up addresses and checks they come back.
 *
 * The input is a list of operations, each one byte (op % OPS) and its
 * arguments. A number is one byte b: b < 0xF0 gives b - 8 (-8..231); 0xF1
 * INT64_MAX, 0xF2 INT64_MIN, 0xF3 2^31, 0xF4 2^32, any other >= 0xF0 the
 * next 8 bytes (little-endian int64). Missing bytes are 0.
 *
 * Postconditions, else abort():
 *   - every status is one cuSPARSE defines, with a text;
 *   - a Create that succeeds had valid sizes (nnz within rows x cols,
 *     computed here in 128 bits; blocked ELL's rows x ELL columns an int64)
 *     and types, and reads back through its Get, GetSize, GetFormat,
 *     GetIndexBase and GetValues exactly;
 *   - an attribute set with a buffer of the input's size (a heap buffer of
 *     exactly that size) succeeds only for an int, and reads back;
 *   - a strided batch set reads back, a dense one only with a stride that
 *     covers a matrix (computed in 128 bits);
 *   - a descriptor of another kind (dense for sparse, sparse for dense, a
 *     format for another) is refused, without reading past it (ASan). */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DISABLE_CUSPARSE_DEPRECATED   /* cusparse.h warns of its deprecated types otherwise */
#include <cusparse.h>

#include "fuzz_input.h"


/* ---- the input ---------------------------------------------------------------- */

static int64_t raw64(rd *r) { return (int64_t)raw_bytes(r, 8); }

static int64_t num(rd *r)
{
    uint8_t b = u8(r);
    if (b < 0xF0)
        return (int64_t)b - 8;
    switch (b) {
    case 0xF1: return INT64_MAX;
    case 0xF2: return INT64_MIN;
    case 0xF3: return (int64_t)1 << 31;
    case 0xF4: return (int64_t)1 << 32;
    default: return raw64(r);
    }
}

/* A made-up device address (never dereferenced by the facade). */
static void *addr(rd *r) { return (void *)(uintptr_t)(uint64_t)num(r); }

/* ---- statuses ------------------------------------------------------------------- */

static cusparseStatus_t chk(cusparseStatus_t s)
{
    require((unsigned)s <= CUSPARSE_STATUS_INSUFFICIENT_RESOURCES);
    const char *text = cusparseGetErrorString(s);
    require(text != NULL && text[0] != 0);
    return s;
}

static int ok(cusparseStatus_t s) { return chk(s) == CUSPARSE_STATUS_SUCCESS; }

static int index_bytes(cusparseIndexType_t t)
{
    return t == CUSPARSE_INDEX_16U ? 2 : t == CUSPARSE_INDEX_32I ? 4 : t == CUSPARSE_INDEX_64I ? 8 : 0;
}

static int base_valid(cusparseIndexBase_t b) { return b == CUSPARSE_INDEX_BASE_ZERO || b == CUSPARSE_INDEX_BASE_ONE; }

/* ---- the objects -------------------------------------------------------------------- */

enum { NS = 3, ND = 2 };

/* What the harness made a slot with: sparse matrices and vectors, dense
 * matrices and vectors. */
typedef struct sp_slot {
    cusparseSpMatDescr_t d;   /* a vector's too (cusparseSpVecDescr_t cast) */
    int vector;
    cusparseFormat_t format;
    int64_t rows, cols, nnz;
    void *p0, *p1, *values;
    cusparseIndexType_t off_t, idx_t;
    cusparseIndexBase_t base;
    cudaDataType vt;
} sp_slot;

typedef struct dn_slot {
    cusparseDnMatDescr_t d;   /* a vector's too */
    int vector;
    int64_t rows, cols, ld;
    void *values;
    cudaDataType vt;
    cusparseOrder_t order;
} dn_slot;

typedef struct objs {
    sp_slot s[NS];
    dn_slot n[ND];
} objs;

static void sp_drop(sp_slot *s)
{
    if (s->d)
        require(ok(s->vector ? cusparseDestroySpVec((cusparseSpVecDescr_t)s->d) : cusparseDestroySpMat(s->d)));
    memset(s, 0, sizeof *s);
}

static void dn_drop(dn_slot *n)
{
    if (n->d)
        require(ok(n->vector ? cusparseDestroyDnVec((cusparseDnVecDescr_t)n->d) : cusparseDestroyDnMat(n->d)));
    memset(n, 0, sizeof *n);
}

/* The slot's descriptor reads back as it was made. */
static void sp_check(const sp_slot *s)
{
    if (s->vector) {
        int64_t size, nnz;
        void *ind, *val;
        cusparseIndexType_t it;
        cusparseIndexBase_t b;
        cudaDataType vt;
        require(ok(cusparseSpVecGet((cusparseSpVecDescr_t)s->d, &size, &nnz, &ind, &val, &it, &b, &vt)));
        require(size == s->rows && nnz == s->nnz && ind == s->p0 && val == s->values && it == s->idx_t &&
                b == s->base && vt == s->vt);
        require(ok(cusparseSpVecGetIndexBase((cusparseSpVecDescr_t)s->d, &b)) && b == s->base);
        require(ok(cusparseSpVecGetValues((cusparseSpVecDescr_t)s->d, &val)) && val == s->values);
        return;
    }
    int64_t rows, cols, nnz;
    require(ok(cusparseSpMatGetSize(s->d, &rows, &cols, &nnz)));
    require(rows == s->rows && cols == s->cols && nnz == s->nnz);
    cusparseFormat_t f;
    require(ok(cusparseSpMatGetFormat(s->d, &f)) && f == s->format);
    cusparseIndexBase_t b;
    require(ok(cusparseSpMatGetIndexBase(s->d, &b)) && b == s->base);
    void *val;
    require(ok(cusparseSpMatGetValues(s->d, &val)) && val == s->values);
    void *a0, *a1;
    cusparseIndexType_t t0, t1;
    cudaDataType vt;
    cusparseStatus_t csr = chk(cusparseCsrGet(s->d, &rows, &cols, &nnz, &a0, &a1, &val, &t0, &t1, &b, &vt));
    if (s->format == CUSPARSE_FORMAT_CSR) {
        require(csr == CUSPARSE_STATUS_SUCCESS && rows == s->rows && cols == s->cols && nnz == s->nnz);
        require(a0 == s->p0 && a1 == s->p1 && val == s->values && t0 == s->off_t && t1 == s->idx_t && b == s->base &&
                vt == s->vt);
    } else {
        require(csr != CUSPARSE_STATUS_SUCCESS);
    }
    cusparseStatus_t csc = chk(cusparseCscGet(s->d, &rows, &cols, &nnz, &a0, &a1, &val, &t0, &t1, &b, &vt));
    if (s->format == CUSPARSE_FORMAT_CSC) {
        require(csc == CUSPARSE_STATUS_SUCCESS && rows == s->rows && cols == s->cols && nnz == s->nnz);
        require(a0 == s->p0 && a1 == s->p1 && val == s->values && t0 == s->off_t && t1 == s->idx_t && b == s->base &&
                vt == s->vt);
    } else {
        require(csc != CUSPARSE_STATUS_SUCCESS);
    }
    cusparseStatus_t coo = chk(cusparseCooGet(s->d, &rows, &cols, &nnz, &a0, &a1, &val, &t1, &b, &vt));
    if (s->format == CUSPARSE_FORMAT_COO) {
        require(coo == CUSPARSE_STATUS_SUCCESS && rows == s->rows && cols == s->cols && nnz == s->nnz);
        require(a0 == s->p0 && a1 == s->p1 && val == s->values && t1 == s->idx_t && b == s->base && vt == s->vt);
    } else {
        require(coo != CUSPARSE_STATUS_SUCCESS);
    }
}

static void dn_check(const dn_slot *n)
{
    void *val;
    cudaDataType vt;
    if (n->vector) {
        int64_t size;
        require(ok(cusparseDnVecGet((cusparseDnVecDescr_t)n->d, &size, &val, &vt)));
        require(size == n->rows && val == n->values && vt == n->vt);
        require(ok(cusparseDnVecGetValues((cusparseDnVecDescr_t)n->d, &val)) && val == n->values);
        return;
    }
    int64_t rows, cols, ld;
    cusparseOrder_t order;
    require(ok(cusparseDnMatGet(n->d, &rows, &cols, &ld, &val, &vt, &order)));
    require(rows == n->rows && cols == n->cols && ld == n->ld && val == n->values && vt == n->vt &&
            order == n->order);
    require(ok(cusparseDnMatGetValues(n->d, &val)) && val == n->values);
}

/* Whether a Create's sizes were valid: 0 <= nnz <= rows x cols. */
static int sizes_valid(int64_t rows, int64_t cols, int64_t nnz)
{
    return rows >= 0 && cols >= 0 && nnz >= 0 && (__int128)nnz <= (__int128)rows * cols;
}

/* ---- the operations --------------------------------------------------------------------- */

enum {
    OP_CSR, OP_CSC, OP_COO, OP_BELL, OP_SPVEC, OP_DNMAT, OP_DNVEC, OP_ATTR, OP_SPBATCH, OP_DNBATCH, OP_POINTERS,
    OP_CONFUSE, OPS
};

static void one(rd *r, objs *o)
{
    int kind = u8(r) % OPS;
    switch (kind) {
    case OP_CSR:
    case OP_CSC:
    case OP_COO: {
        sp_slot *s = &o->s[u8(r) % NS];
        sp_slot t;
        memset(&t, 0, sizeof t);
        t.rows = num(r), t.cols = num(r), t.nnz = num(r);
        t.p0 = addr(r), t.p1 = addr(r), t.values = addr(r);
        t.off_t = (cusparseIndexType_t)num(r);
        t.idx_t = (cusparseIndexType_t)num(r);
        t.base = (cusparseIndexBase_t)num(r);
        t.vt = (cudaDataType)num(r);
        cusparseStatus_t st;
        if (kind == OP_CSR) {
            t.format = CUSPARSE_FORMAT_CSR;
            st = chk(cusparseCreateCsr(&t.d, t.rows, t.cols, t.nnz, t.p0, t.p1, t.values, t.off_t, t.idx_t, t.base,
                                       t.vt));
        } else if (kind == OP_CSC) {
            t.format = CUSPARSE_FORMAT_CSC;
            st = chk(cusparseCreateCsc(&t.d, t.rows, t.cols, t.nnz, t.p0, t.p1, t.values, t.off_t, t.idx_t, t.base,
                                       t.vt));
        } else {
            t.format = CUSPARSE_FORMAT_COO;
            t.off_t = (cusparseIndexType_t)0;
            st = chk(cusparseCreateCoo(&t.d, t.rows, t.cols, t.nnz, t.p0, t.p1, t.values, t.idx_t, t.base, t.vt));
        }
        if (st == CUSPARSE_STATUS_SUCCESS) {
            require(sizes_valid(t.rows, t.cols, t.nnz) && index_bytes(t.idx_t) && base_valid(t.base));
            if (kind != OP_COO)
                require(t.off_t == t.idx_t && t.off_t != CUSPARSE_INDEX_16U);
            sp_drop(s);
            *s = t;
            sp_check(s);
        }
        break;
    }
    case OP_BELL: {
        sp_slot *s = &o->s[u8(r) % NS];
        sp_slot t;
        memset(&t, 0, sizeof t);
        int64_t block, ell;
        t.format = CUSPARSE_FORMAT_BLOCKED_ELL;
        t.rows = num(r), t.cols = num(r), block = num(r), ell = num(r);
        t.p1 = addr(r), t.values = addr(r);
        t.idx_t = (cusparseIndexType_t)num(r);
        t.base = (cusparseIndexBase_t)num(r);
        t.vt = (cudaDataType)num(r);
        if (ok(cusparseCreateBlockedEll(&t.d, t.rows, t.cols, block, ell, t.p1, t.values, t.idx_t, t.base, t.vt))) {
            require(t.rows >= 0 && t.cols >= 0 && block > 0 && ell >= 0 && ell <= t.cols && ell % block == 0 &&
                    t.rows % block == 0 && index_bytes(t.idx_t) && base_valid(t.base));
            __int128 nnz = (__int128)t.rows * ell;
            require(nnz <= INT64_MAX);   /* the element count is an int64, not a wrapped one */
            t.nnz = (int64_t)nnz;
            sp_drop(s);
            *s = t;
            sp_check(s);
        }
        break;
    }
    case OP_SPVEC: {
        sp_slot *s = &o->s[u8(r) % NS];
        sp_slot t;
        memset(&t, 0, sizeof t);
        t.vector = 1;
        t.rows = num(r), t.cols = 1, t.nnz = num(r);
        t.p0 = addr(r), t.values = addr(r);
        t.idx_t = (cusparseIndexType_t)num(r);
        t.base = (cusparseIndexBase_t)num(r);
        t.vt = (cudaDataType)num(r);
        cusparseSpVecDescr_t v = NULL;
        if (ok(cusparseCreateSpVec(&v, t.rows, t.nnz, t.p0, t.values, t.idx_t, t.base, t.vt))) {
            require(t.rows >= 0 && t.nnz >= 0 && t.nnz <= t.rows && index_bytes(t.idx_t) && base_valid(t.base));
            t.d = (cusparseSpMatDescr_t)v;
            sp_drop(s);
            *s = t;
            sp_check(s);
        }
        break;
    }
    case OP_DNMAT: {
        dn_slot *n = &o->n[u8(r) % ND];
        dn_slot t;
        memset(&t, 0, sizeof t);
        t.rows = num(r), t.cols = num(r), t.ld = num(r);
        t.values = addr(r);
        t.vt = (cudaDataType)num(r);
        t.order = (cusparseOrder_t)num(r);
        if (ok(cusparseCreateDnMat(&t.d, t.rows, t.cols, t.ld, t.values, t.vt, t.order))) {
            require(t.rows >= 0 && t.cols >= 0);
            require(t.order == CUSPARSE_ORDER_COL ? t.ld >= t.rows : t.order == CUSPARSE_ORDER_ROW && t.ld >= t.cols);
            dn_drop(n);
            *n = t;
            dn_check(n);
        }
        break;
    }
    case OP_DNVEC: {
        dn_slot *n = &o->n[u8(r) % ND];
        dn_slot t;
        memset(&t, 0, sizeof t);
        t.vector = 1;
        t.rows = num(r);
        t.values = addr(r);
        t.vt = (cudaDataType)num(r);
        cusparseDnVecDescr_t v = NULL;
        if (ok(cusparseCreateDnVec(&v, t.rows, t.values, t.vt))) {
            require(t.rows >= 0);
            t.d = (cusparseDnMatDescr_t)v;
            dn_drop(n);
            *n = t;
            dn_check(n);
        }
        break;
    }
    case OP_ATTR: {
        sp_slot *s = &o->s[u8(r) % NS];
        cusparseSpMatAttribute_t attr = (cusparseSpMatAttribute_t)num(r);
        size_t size = (size_t)(u8(r) % 17);
        int value = (int)num(r);
        unsigned char *buf = malloc(size ? size : 1);
        require(buf != NULL);
        memset(buf, 0xa5, size ? size : 1);
        memcpy(buf, &value, size < sizeof value ? size : sizeof value);
        if (s->d && !s->vector) {
            if (ok(cusparseSpMatSetAttribute(s->d, attr, buf, size))) {
                require(size == sizeof(int));
                int back = -7;
                require(ok(cusparseSpMatGetAttribute(s->d, attr, &back, sizeof back)) && back == value);
            }
            if (ok(cusparseSpMatGetAttribute(s->d, attr, buf, size)))
                require(size == sizeof(int));
            require(!ok(cusparseSpMatSetAttribute(s->d, attr, NULL, size)));
        } else if (!s->d) {
            require(!ok(cusparseSpMatSetAttribute(NULL, attr, buf, size)));
        }
        free(buf);
        if (s->d)
            sp_check(s);
        break;
    }
    case OP_SPBATCH: {
        sp_slot *s = &o->s[u8(r) % NS];
        int batch = (int)num(r);
        int64_t s0 = num(r), s1 = num(r);
        int coo = u8(r) & 1;
        if (!s->d)
            break;
        cusparseStatus_t st = chk(coo ? cusparseCooSetStridedBatch(s->d, batch, s0)
                                      : cusparseCsrSetStridedBatch(s->d, batch, s0, s1));
        if (st == CUSPARSE_STATUS_SUCCESS) {
            require(!s->vector && s->format == (coo ? CUSPARSE_FORMAT_COO : CUSPARSE_FORMAT_CSR));
            require(batch >= 1 && s0 >= 0 && (coo || s1 >= 0));
            int got = -7;
            require(ok(cusparseSpMatGetStridedBatch(s->d, &got)) && got == batch);
        }
        sp_check(s);
        break;
    }
    case OP_DNBATCH: {
        dn_slot *n = &o->n[u8(r) % ND];
        int batch = (int)num(r);
        int64_t stride = num(r);
        if (!n->d)
            break;
        if (ok(cusparseDnMatSetStridedBatch(n->d, batch, stride))) {
            __int128 need = (__int128)n->ld * (n->order == CUSPARSE_ORDER_ROW ? n->rows : n->cols);
            require(batch >= 1 && (batch == 1 || stride >= need));
            int got = -7;
            int64_t gs = -7;
            require(ok(cusparseDnMatGetStridedBatch(n->d, &got, &gs)) && got == batch && gs == stride);
        }
        dn_check(n);
        break;
    }
    case OP_POINTERS: {
        sp_slot *s = &o->s[u8(r) % NS];
        void *a = addr(r), *b = addr(r), *c = addr(r);
        int which = u8(r) % 4;
        if (!s->d)
            break;
        cusparseStatus_t st;
        cusparseFormat_t f = s->vector ? (cusparseFormat_t)-1 : s->format;
        if (which == 0) {
            st = chk(cusparseCsrSetPointers(s->d, a, b, c));
            require((st == CUSPARSE_STATUS_SUCCESS) == (f == CUSPARSE_FORMAT_CSR));
        } else if (which == 1) {
            st = chk(cusparseCscSetPointers(s->d, a, b, c));
            require((st == CUSPARSE_STATUS_SUCCESS) == (f == CUSPARSE_FORMAT_CSC));
        } else if (which == 2) {
            st = chk(cusparseCooSetPointers(s->d, a, b, c));
            require((st == CUSPARSE_STATUS_SUCCESS) == (f == CUSPARSE_FORMAT_COO));
        } else {
            st = chk(s->vector ? cusparseSpVecSetValues((cusparseSpVecDescr_t)s->d, c)
                               : cusparseSpMatSetValues(s->d, c));
            require(st == CUSPARSE_STATUS_SUCCESS);
            s->values = c;
        }
        if (which < 3 && st == CUSPARSE_STATUS_SUCCESS)
            s->p0 = a, s->p1 = b, s->values = c;
        sp_check(s);
        break;
    }
    case OP_CONFUSE: {
        /* a dense descriptor where a sparse one is expected, and back */
        dn_slot *n = &o->n[u8(r) % ND];
        sp_slot *s = &o->s[u8(r) % NS];
        int v = 1;
        if (n->d) {
            cusparseSpMatDescr_t as_sp = (cusparseSpMatDescr_t)(void *)n->d;
            int64_t a, b, c;
            int batch;
            require(!ok(cusparseSpMatGetSize(as_sp, &a, &b, &c)));
            require(!ok(cusparseSpMatGetStridedBatch(as_sp, &batch)));
            require(!ok(cusparseSpMatSetAttribute(as_sp, CUSPARSE_SPMAT_FILL_MODE, &v, sizeof v)));
            require(!ok(cusparseCsrSetStridedBatch(as_sp, 2, 1, 1)));
            require(!ok(cusparseSpVecSetValues((cusparseSpVecDescr_t)(void *)n->d, NULL)));
            dn_check(n);
        }
        if (s->d) {
            cusparseDnMatDescr_t as_dn = (cusparseDnMatDescr_t)(void *)s->d;
            int64_t a, b, c;
            void *p;
            cudaDataType vt;
            cusparseOrder_t order;
            require(!ok(cusparseDnMatGet(as_dn, &a, &b, &c, &p, &vt, &order)));
            require(!ok(cusparseDnMatSetStridedBatch(as_dn, 1, 0)));
            require(!ok(cusparseDnMatSetValues(as_dn, NULL)));
            require(!ok(cusparseDnVecGet((cusparseDnVecDescr_t)(void *)s->d, &a, &p, &vt)));
            sp_check(s);
        }
        break;
    }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    objs o;
    memset(&o, 0, sizeof o);
    rd r = {data, size};
    while (r.left)
        one(&r, &o);
    for (int i = 0; i < NS; i++)
        sp_drop(&o.s[i]);
    for (int i = 0; i < ND; i++)
        dn_drop(&o.n[i]);
    return 0;
}
