/* fuzz_cufft_plan.c: libFuzzer harness for cuFFT's plan arguments (untrusted
 * sizes and layouts), the validation behind cufftPlanMany, cufftMakePlanMany(64)
 * and cufftXtMakePlanMany (src/lib/cufft/fft_layout.c).
 *
 * The input is read as a little-endian record: one byte each for the type (C2C,
 * R2C, C2R), the element type (f32, f64, f16, bf16), the rank and the flags
 * (bit 0: input layout basic, bit 1: output basic, bit 2: in place), then
 * int64 values: n[3], batch, inembed[3], istride, idist, onembed[3], ostride,
 * odist -- any values at all, negative and huge included. Missing bytes are 0.
 *
 * fftl_validate must return one of its codes, and always refuse a description
 * whose sizes overflow. A valid description small enough to run (at most 2^12
 * elements in all, extents up to 4 MiB) is planned, its extents computed, and
 * executed on heap buffers of exactly those extents, so that ASan sees any read
 * or write outside what the layout says; the verify reference is run too.
 * A crash, a sanitizer report or a broken postcondition (abort) is a finding. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cufft/fft_layout.h"

static void require(int cond)
{
    if (!cond)
        abort();
}

static long long take(const uint8_t **p, size_t *left)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) {
        uint8_t b = 0;
        if (*left) {
            b = **p;
            (*p)++;
            (*left)--;
        }
        v |= (uint64_t)b << (8 * i);
    }
    return (long long)v;
}

static uint8_t take8(const uint8_t **p, size_t *left)
{
    uint8_t b = 0;
    if (*left) {
        b = **p;
        (*p)++;
        (*left)--;
    }
    return b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *p = data;
    size_t left = size;
    fftl_desc d;
    memset(&d, 0, sizeof d);
    d.type = (fftl_type)(take8(&p, &left) % 3);
    d.elem = (fftl_elem)(take8(&p, &left) % 4);
    d.rank = (int)(int8_t)take8(&p, &left);
    uint8_t flags = take8(&p, &left);
    d.in.basic = flags & 1;
    d.out.basic = (flags >> 1) & 1;
    int inplace = (flags >> 2) & 1;
    for (int i = 0; i < FFTL_MAX_RANK; i++)
        d.n[i] = take(&p, &left);
    d.batch = take(&p, &left);
    for (int i = 0; i < FFTL_MAX_RANK; i++)
        d.in.embed[i] = take(&p, &left);
    d.in.stride = take(&p, &left);
    d.in.dist = take(&p, &left);
    for (int i = 0; i < FFTL_MAX_RANK; i++)
        d.out.embed[i] = take(&p, &left);
    d.out.stride = take(&p, &left);
    d.out.dist = take(&p, &left);

    char why[160];
    why[0] = 0;
    int v = fftl_validate(&d, why, sizeof why);
    require(v >= FFTL_OK && v <= FFTL_BAD_TYPE);
    if (v != FFTL_OK) {
        require(why[0] != 0);   /* a refusal says why */
        return 0;
    }
    require(d.rank >= 1 && d.rank <= FFTL_MAX_RANK && d.batch >= 1);
    long long total = d.batch;
    for (int i = 0; i < d.rank; i++) {
        require(d.n[i] >= 1);
        if (total > (1 << 12) / d.n[i])
            return 0;   /* valid, but too big to run here */
        total *= d.n[i];
    }
    fftl_plan *plan = fftl_plan_create(&d);
    require(plan != NULL);
    uint64_t inb = 0, outb = 0;
    fftl_extents(plan, inplace, &inb, &outb);
    require(inb > 0 && outb > 0);
    if (inb > (4u << 20) || outb > (4u << 20)) {
        fftl_plan_destroy(plan);
        return 0;
    }
    /* in place: one buffer holding both extents */
    size_t in_size = inplace ? (inb > outb ? inb : outb) : inb;
    unsigned char *in = malloc(in_size), *out = inplace ? in : malloc(outb);
    unsigned char *ref = malloc(outb), *work = malloc(fftl_work_bytes(plan));
    require(in && out && ref && work);
    for (size_t i = 0; i < in_size; i++)   /* small finite values of every element type */
        in[i] = (unsigned char)(i * 37 % 61) & 0x3b;
    if (!inplace)
        memset(out, 0, outb);
    memset(ref, 0, outb);
    unsigned char *in_copy = malloc(in_size);
    require(in_copy != NULL);
    memcpy(in_copy, in, in_size);
    fftl_execute(plan, in, out, inplace, -1, work);
    require(fftl_reference(&d, in_copy, ref, inplace, -1) == 0);
    free(in_copy);
    free(work);
    free(ref);
    if (!inplace)
        free(out);
    free(in);
    fftl_plan_destroy(plan);
    return 0;
}
