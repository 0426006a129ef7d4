/* fuzz_fatbin.c: libFuzzer harness for the container parser (src/fatbin).
 *
 * The input is copied into a heap buffer of exactly its size, so that ASan
 * catches a read one byte past the end, and handed to both entry points:
 * cb_fatbin_extract_ptx and cb_fatbin_extract_modules. Any result is fine;
 * a crash, a sanitizer report or a broken postcondition is a finding.
 *
 * A wrapper holds pointers, which fuzzed bytes cannot make valid. An input
 * that starts with the wrapper magic 0x466243B1 is taken as
 *   {u32 magic, u32 version, u64 a, u64 b, bytes...}
 * and the harness stores real pointers in place of a and b: data points
 * a % n bytes into the n bytes that follow, and for version 2 the
 * prelinked array (outside the image) points there and b % n bytes in,
 * then ends with NULL. So every pointer stays inside the image. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin/fatbin.h"

/* Aborts (a finding) when a postcondition of fatbin.h does not hold. */
static void require(int cond)
{
    if (!cond)
        abort();
}

static void check_extract_ptx(const unsigned char *img, size_t size, uint32_t sm)
{
    char *ptx = NULL, err[160];
    size_t len = 0;
    cb_fatbin_summary sum;
    cb_fatbin_status st = cb_fatbin_extract_ptx(img, size, sm, &ptx, &len, &sum, err, sizeof err);
    require(st >= CB_FATBIN_OK && st <= CB_FATBIN_ERR_NOMEM);
    if (st == CB_FATBIN_OK)
        require(ptx != NULL && strlen(ptx) == len);
    else
        require(ptx == NULL);
    free(ptx);
}

static void check_extract_modules(const unsigned char *img, size_t size, uint32_t sm)
{
    cb_fatbin_module *mods = NULL;
    size_t n = 0;
    char err[160];
    cb_fatbin_status st = cb_fatbin_extract_modules(img, size, sm, &mods, &n, NULL, err, sizeof err);
    require((st == CB_FATBIN_OK) == (n > 0));
    for (size_t i = 0; i < n; i++)
        require(mods[i].ptx != NULL && strlen(mods[i].ptx) == mods[i].len);
    cb_fatbin_modules_free(mods, n);
}

enum { WRAPPER_HEADER = 8 + 2 * sizeof(void *) };

static uint64_t load_u64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Replaces a wrapper's pointer fields by pointers into img (see above).
 * Returns 0 when the input is too short to hold a wrapper and its data. */
static int fix_wrapper(unsigned char *img, size_t size, const void *prelinked[3])
{
    if (size <= WRAPPER_HEADER)
        return 0;
    size_t n = size - WRAPPER_HEADER;
    unsigned char *data = img + WRAPPER_HEADER + load_u64(img + 8) % n;
    prelinked[0] = data;
    prelinked[1] = img + WRAPPER_HEADER + load_u64(img + 16) % n;
    prelinked[2] = NULL;
    const void *second = prelinked;
    memcpy(img + 8, &data, sizeof data);
    memcpy(img + 8 + sizeof(void *), &second, sizeof second);
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* size 0 means "unknown" to the parser: an empty input is no container. */
    if (size == 0)
        return 0;
    unsigned char *img = malloc(size);
    if (!img)
        return 0;
    memcpy(img, data, size);
    const void *prelinked[3];
    uint32_t magic = 0;
    memcpy(&magic, img, size < 4 ? size : 4);
    if (magic == 0x466243B1u && !fix_wrapper(img, size, prelinked)) {
        free(img);
        return -1;
    }
    check_extract_ptx(img, size, 86);
    check_extract_modules(img, size, 86);
    check_extract_ptx(img, size, 52);
    free(img);
    return 0;
}
