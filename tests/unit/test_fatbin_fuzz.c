/* test_fatbin_fuzz.c: every truncation and many byte mutations of valid
 * containers give an error code or a valid result, never a crash or a
 * read out of bounds (run it under ASan: -DCUBRIDGE_SANITIZE=ON). Each
 * input sits in a buffer of exactly its size. */
#include <stdint.h>

#include "fatbin/fatbin.h"
#include "test_fatbin_util.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

/* xorshift64: a fixed sequence, so that a failure can be replayed. */
static uint64_t next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static unsigned long runs, oks;

/* Runs both entry points on a private copy of img[0..size). */
static void try_image(const unsigned char *img, size_t size)
{
    unsigned char *copy = malloc(size ? size : 1);
    memcpy(copy, img, size);
    char *ptx = NULL, err[128];
    size_t len = 0;
    cb_fatbin_summary sum;
    cb_fatbin_status st = cb_fatbin_extract_ptx(copy, size, 86, &ptx, &len, &sum, err, sizeof err);
    CHECK(st >= CB_FATBIN_OK && st <= CB_FATBIN_ERR_NOMEM);
    if (st == CB_FATBIN_OK) {
        CHECK(ptx && strlen(ptx) == len && len > 0);
        oks++;
    } else {
        CHECK(ptx == NULL);
    }
    free(ptx);
    cb_fatbin_module *mods = NULL;
    size_t n = 0;
    st = cb_fatbin_extract_modules(copy, size, 86, &mods, &n, &sum, err, sizeof err);
    CHECK((st == CB_FATBIN_OK) == (n > 0));
    for (size_t i = 0; i < n; i++)
        CHECK(strlen(mods[i].ptx) == mods[i].len);
    cb_fatbin_modules_free(mods, n);
    free(copy);
    runs++;
}

static void fuzz_file(const char *name, unsigned random_rounds)
{
    size_t size;
    unsigned char *img = load_data(name, &size);
    unsigned char *m = malloc(size);
    /* Every truncation (0 would mean "size unknown": not a truncation). */
    for (size_t cut = 1; cut < size; cut++)
        try_image(img, cut);
    /* Every byte set to a few telling values. */
    static const unsigned char values[] = {0x00, 0xff, 0x01, 0x80, 0x7f};
    for (size_t i = 0; i < size; i++) {
        for (size_t v = 0; v < sizeof values; v++) {
            memcpy(m, img, size);
            m[i] = values[v];
            try_image(m, size);
        }
        memcpy(m, img, size);
        m[i] ^= 0x20;
        try_image(m, size);
    }
    /* Random bursts: a few bytes changed, sometimes also truncated. */
    for (unsigned r = 0; r < random_rounds; r++) {
        memcpy(m, img, size);
        unsigned changes = 1 + (unsigned)(next_random() % 8);
        for (unsigned c = 0; c < changes; c++)
            m[next_random() % size] = (unsigned char)next_random();
        size_t cut = (next_random() % 4 == 0) ? 1 + next_random() % size : size;
        try_image(m, cut);
    }
    free(m);
    free(img);
}

int main(void)
{
    const char *files[] = {"add_zstd.fatbin", "add_lz4.fatbin",  "add_none.fatbin", "add_multi.fatbin",
                           "add_sass.fatbin", "scale_zstd.fatbin", "add86.cubin",    "prog.nv_fatbin",
                           "add75.ptx"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        fuzz_file(files[i], 3000);
    printf("test_fatbin_fuzz: %lu runs, %lu gave PTX\n", runs, oks);
    if (test_failures)
        fprintf(stderr, "test_fatbin_fuzz: %d failures\n", test_failures);
    return test_failures != 0;
}
