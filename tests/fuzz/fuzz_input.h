/* fuzz_input.h: what the facade harnesses (fuzz_cudnn_desc.c,
 * fuzz_cusparse_desc.c) share: a reader over the fuzzer's bytes that gives
 * zeros once they run out, and require(), which names the broken
 * postcondition's line and aborts (the finding). Each harness decodes its
 * own numbers from these. */
#ifndef CUBRIDGE_FUZZ_INPUT_H
#define CUBRIDGE_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static void fuzz_fail(const char *file, int line)
{
    fprintf(stderr, "%s:%d: postcondition broken\n", file, line);
    abort();
}
#define require(cond) ((cond) ? (void)0 : fuzz_fail(__FILE__, __LINE__))

typedef struct rd {
    const uint8_t *p;
    size_t left;
} rd;

static uint8_t u8(rd *r)
{
    if (!r->left)
        return 0;
    r->left--;
    return *r->p++;
}

/* n little-endian bytes (n <= 8). */
static uint64_t raw_bytes(rd *r, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)u8(r) << (8 * i);
    return v;
}

#endif
