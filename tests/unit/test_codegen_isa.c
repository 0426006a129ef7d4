/* test_codegen_isa: the hand-written ISA kernels of tests/data/ptx/isa
 * (one file per instruction family, made by gen_isa.py) run through the
 * translator on the CPU and are compared, word by word, with what an NVIDIA
 * GPU computed from the same inputs (isa_golden.bin, made by golden_gpu.c).
 * Exact results must match bit for bit; approximate ones (ex2.approx, tanh,
 * ...) within a few units in the last place (halves) or 2e-6 (f32).
 *
 * CB_ISA_DUMP=FILE writes the CPU results in the golden format, for diffing.
 */
#include "test_codegen_util.h"

#include "../data/ptx/isa/isa_inputs.h"

typedef struct isa_case {
    const char *file, *kernel, *checks, *fmt;
} isa_case;

static const isa_case cases[] = {
#define ISA_CASE(f, k, c, h) {f, k, c, h},
#include "../data/ptx/isa/isa_cases.h"
#undef ISA_CASE
};
enum { NCASES = sizeof cases / sizeof cases[0] };

typedef struct golden {
    unsigned char *data;
    size_t len;
    uint32_t ncases, threads;
} golden;

/* The golden words of file:kernel, or NULL. */
static const uint32_t *golden_find(const golden *g, const char *file, const char *kernel)
{
    char name[64] = {0};
    snprintf(name, sizeof name, "%s:%s", file, kernel);
    size_t rec = 64 + (size_t)g->threads * 32;
    for (uint32_t k = 0; k < g->ncases && 16 + (k + 1) * rec <= g->len; k++) {
        const unsigned char *r = g->data + 16 + k * rec;
        if (memcmp(r, name, 64) == 0)
            return (const uint32_t *)(r + 64);
    }
    return NULL;
}

static int golden_load(golden *g)
{
    memset(g, 0, sizeof *g);
    g->data = (unsigned char *)read_file(CB_TEST_DATA_DIR "/ptx/isa/isa_golden.bin", &g->len);
    if (!g->data || g->len < 16 || memcmp(g->data, "CBISAGLD", 8) != 0)
        return -1;
    memcpy(&g->ncases, g->data + 8, 4);
    memcpy(&g->threads, g->data + 12, 4);
    return g->threads == ISA_THREADS ? 0 : -1;
}

/* Distance in units in the last place between two sign-magnitude floats of width bits. */
static uint64_t ulp_dist(uint64_t a, uint64_t b, int bits)
{
    uint64_t sign = 1ull << (bits - 1);
    int64_t x = (a & sign) ? -(int64_t)(a & (sign - 1)) : (int64_t)a;
    int64_t y = (b & sign) ? -(int64_t)(b & (sign - 1)) : (int64_t)b;
    return x > y ? (uint64_t)(x - y) : (uint64_t)(y - x);
}

static int is_nan_bits(uint64_t v, int bits)
{
    if (bits == 32)
        return (v & 0x7fffffffu) > 0x7f800000u;
    return 0;
}

static int half_nan(uint32_t h, const char *fmt) { return (h & 0x7fffu) > (fmt[0] == 'b' ? 0x7f80u : 0x7c00u); }

/* Whether got matches want under check kind k. */
static int word_ok(char k, uint32_t got, uint32_t want, const char *fmt)
{
    if (k == 'x' || got == want)
        return got == want;
    if (k == 'f') {
        float g, w;
        memcpy(&g, &got, 4);
        memcpy(&w, &want, 4);
        return (is_nan_bits(got, 32) && is_nan_bits(want, 32)) || fabs((double)g - w) <= 2e-6 * fmax(1.0, fabs(w));
    }
    if (k == 'r') {   /* tanh.approx.f32: relative error 2^-11 */
        float g, w;
        memcpy(&g, &got, 4);
        memcpy(&w, &want, 4);
        return (is_nan_bits(got, 32) && is_nan_bits(want, 32)) || fabs((double)g - w) <= 1e-3 * fabs(w) + 1e-6;
    }
    for (int s = 0; s < 32; s += 16) {
        uint32_t g = (got >> s) & 0xffffu, w = (want >> s) & 0xffffu;
        if (!((half_nan(g, fmt) && half_nan(w, fmt)) || ulp_dist(g, w, 16) <= 2))
            return 0;
    }
    return 1;
}

static void run_case(const isa_case *ic, module *m, const uint32_t *in, uint32_t *out, const golden *g)
{
    memset(out, 0xee, ISA_THREADS * 32);
    const void *args[] = {&in, &out};
    launch(m, ic->kernel, DIM(ISA_THREADS / ISA_BLOCK, 1, 1), DIM(ISA_BLOCK, 1, 1), 0, args);
    const uint32_t *want = g ? golden_find(g, ic->file, ic->kernel) : NULL;
    CHECK(want != NULL, "no golden data for %s:%s (run tests/data/ptx/isa/regen_golden.sh on a GPU)", ic->file,
          ic->kernel);
    if (!want)
        return;
    int bad = 0;
    for (uint32_t i = 0; i < ISA_THREADS; i++)
        for (int w = 0; w < 8; w++) {
            uint32_t gw;
            memcpy(&gw, &want[i * 8 + w], 4);
            if (word_ok(ic->checks[w], out[i * 8 + w], gw, ic->fmt))
                continue;
            if (bad++ < 6)
                fprintf(stderr, "  %s:%s thread %u out[%d]: got 0x%08x want 0x%08x (in %08x %08x %08x %08x)\n",
                        ic->file, ic->kernel, i, w, out[i * 8 + w], gw, in[i * 4], in[i * 4 + 1], in[i * 4 + 2],
                        in[i * 4 + 3]);
        }
    CHECK(bad == 0, "%s:%s: %d words differ from the GPU", ic->file, ic->kernel, bad);
}

int main(void)
{
    snprintf(g_tmpdir, sizeof g_tmpdir, "/tmp/cb_codegen_isa.XXXXXX");
    if (!mkdtemp(g_tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    g_variant = "isa";
    uint32_t *in = malloc(ISA_THREADS * 16), *out = malloc(ISA_THREADS * 32);
    for (uint32_t i = 0; i < ISA_THREADS; i++)
        for (uint32_t w = 0; w < 4; w++)
            in[i * 4 + w] = isa_word(i, w);
    golden g;
    int have = golden_load(&g) == 0;
    CHECK(have, "tests/data/ptx/isa/isa_golden.bin missing or stale");
    const char *dump = getenv("CB_ISA_DUMP");
    FILE *df = dump ? fopen(dump, "wb") : NULL;
    if (df) {
        uint32_t n = NCASES, t = ISA_THREADS;
        fwrite("CBISAGLD", 1, 8, df);
        fwrite(&n, 4, 1, df);
        fwrite(&t, 4, 1, df);
    }
    module m;
    const char *loaded = NULL;
    int ok = 0;
    for (int k = 0; k < NCASES; k++) {
        if (!loaded || strcmp(loaded, cases[k].file) != 0) {
            if (loaded && ok)
                unload_module(&m);
            loaded = cases[k].file;
            char path[128];
            snprintf(path, sizeof path, "isa/%s", cases[k].file);
            ok = load_module(path, &m) == 0;
        }
        if (!ok)
            continue;
        run_case(&cases[k], &m, in, out, have ? &g : NULL);
        if (df) {
            char name[64] = {0};
            snprintf(name, sizeof name, "%s:%s", cases[k].file, cases[k].kernel);
            fwrite(name, 1, 64, df);
            fwrite(out, 4, ISA_THREADS * 8, df);
        }
    }
    if (loaded && ok)
        unload_module(&m);
    if (df)
        fclose(df);
    free(g.data);
    free(in);
    free(out);
    if (!getenv("CB_TEST_KEEP")) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "rm -rf %s", g_tmpdir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", g_tmpdir);
    }
    if (failures)
        fprintf(stderr, "test_codegen_isa: %d failures\n", failures);
    else
        printf("test_codegen_isa: ok\n");
    return failures != 0;
}
