/* fuzz_lt_attrs.c: libFuzzer harness for cuBLASLt's attribute setters and
 * getters (src/lib/cublasLt/lt_attrs.c), where an application hands the
 * library an attribute id, a buffer and a size it chose.
 *
 * The input is a list of operations, each
 *   {u8 op, u8 attr, u16 size, size bytes of payload}
 * op % 12 picks the object (matmul descriptor, layout, preference,
 * transform descriptor, algorithm configuration, algorithm capability) and
 * set / get. The payload sits in a heap buffer of exactly `size` bytes, so
 * ASan sees any read or write past it. Postconditions: a set that succeeds
 * round-trips through get with the same size; a size query reports the
 * size a set then accepts; no call touches the magic or the allocation
 * flag; every answer is SUCCESS or INVALID_VALUE. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cublasLt/lt_internal.h"

static void require(int cond)
{
    if (!cond)
        abort();
}

typedef cublasStatus_t (*setter)(void *state, int attr, const void *buf, size_t size);
typedef cublasStatus_t (*getter)(const void *state, int attr, void *buf, size_t size, size_t *written);

static void one(void *state, setter set, getter get, int is_set, int attr, const uint8_t *payload, size_t size)
{
    uint8_t *buf = size ? malloc(size) : NULL;
    if (size && !buf)
        return;
    if (size)
        memcpy(buf, payload, size);
    size_t written = 12345;
    if (is_set && set) {
        cublasStatus_t st = set(state, attr, buf, size);
        require(st == CUBLAS_STATUS_SUCCESS || st == CUBLAS_STATUS_INVALID_VALUE);
        if (st == CUBLAS_STATUS_SUCCESS) {
            uint8_t *back = malloc(size);
            require(back != NULL);
            require(get(state, attr, back, size, &written) == CUBLAS_STATUS_SUCCESS);
            require(written == size && memcmp(back, buf, size) == 0);
            free(back);
        }
    } else {
        cublasStatus_t st = get(state, attr, buf, size, &written);
        require(st == CUBLAS_STATUS_SUCCESS || st == CUBLAS_STATUS_INVALID_VALUE);
        if (st == CUBLAS_STATUS_SUCCESS && size == 0) {
            /* a size query: a buffer of that size is accepted */
            uint8_t *b2 = written ? malloc(written) : NULL;
            if (written && b2) {
                require(get(state, attr, b2, written, NULL) == CUBLAS_STATUS_SUCCESS);
                if (set)
                    require(set(state, attr, b2, written) == CUBLAS_STATUS_SUCCESS);
            }
            free(b2);
        }
        /* NULL buffer with a size is refused */
        if (size)
            require(get(state, attr, NULL, size, &written) == CUBLAS_STATUS_INVALID_VALUE);
    }
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lt_desc d;
    lt_layout l;
    lt_pref p;
    lt_transform t;
    lt_algo a;
    lt_desc_defaults(&d, CUBLAS_COMPUTE_32F, CUDA_R_32F);
    lt_layout_defaults(&l, CUDA_R_32F, 4, 4, 4);
    lt_pref_defaults(&p);
    lt_transform_defaults(&t, CUDA_R_32F);
    memset(&a, 0, sizeof a);
    a.magic = LT_MAGIC_ALGO;
    size_t at = 0;
    while (at + 4 <= size) {
        int op = data[at] % 12, attr = data[at + 1];
        size_t n = (size_t)data[at + 2] | (size_t)data[at + 3] << 8;
        at += 4;
        if (n > size - at)
            n = size - at;
        const uint8_t *payload = data + at;
        at += n;
        int is_set = op % 2 == 0;
        switch (op / 2) {
        case 0: one(&d, (setter)lt_desc_set, (getter)lt_desc_get, is_set, attr, payload, n); break;
        case 1: one(&l, (setter)lt_layout_set, (getter)lt_layout_get, is_set, attr, payload, n); break;
        case 2: one(&p, (setter)lt_pref_set, (getter)lt_pref_get, is_set, attr, payload, n); break;
        case 3: one(&t, (setter)lt_transform_set, (getter)lt_transform_get, is_set, attr, payload, n); break;
        case 4: one(&a, (setter)lt_algo_config_set, (getter)lt_algo_config_get, is_set, attr, payload, n); break;
        default: one(&a, NULL, (getter)lt_algo_cap_get, 0, attr, payload, n); break;
        }
        require(d.magic == LT_MAGIC_DESC && d.allocated == 0);
        require(l.magic == LT_MAGIC_LAYOUT && l.allocated == 0);
        require(p.magic == LT_MAGIC_PREF && p.allocated == 0);
        require(t.magic == LT_MAGIC_TRANSFORM && t.allocated == 0);
        require(a.magic == LT_MAGIC_ALGO);
    }
    return 0;
}
