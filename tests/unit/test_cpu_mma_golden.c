/* test_cpu_mma_golden: the tensor-core probe kernels of tests/data/ptx/mma
 * (mma.ptx, made by gen_mma.py: m8n8k4 .f16 quad pairs, fp8, sparse mma.sp
 * with every selector, tf32 inputs with low bits set, integer/binary, f64
 * m16n8; and warp and cluster probes: movmatrix, stmatrix/ldmatrix, elect.sync,
 * redux/match, the cluster registers, distributed shared memory and
 * st.async in clusters of 2 and 4) run through the translator on the CPU backend and are compared
 * word by word with what a GPU computed from the same inputs
 * (mma_golden.bin, recorded by regen_golden.sh on an H100/H200).
 *
 * Kernels marked 'x' have inputs whose products and partial sums are exact,
 * so they must match bit for bit: a difference points at a fragment layout,
 * the sparse metadata mapping, the tf32 input conversion or the result
 * rounding. Kernels marked 'f' take full-precision inputs; they must agree
 * within 1e-3 of the largest output (the tensor cores' accumulation order
 * and precision are not specified), and the largest difference is printed.
 *
 * Without mma_golden.bin the kernels still translate and run (so every
 * form is exercised), and the comparison is skipped with a message.
 * CB_MMA_DUMP=FILE writes the CPU results in the golden format. */
#include "test_cpu_util.h"

#include <math.h>

#include "codegen/translate.h"

#include "../data/ptx/mma/mma_inputs.h"

typedef struct mma_case {
    const char *kernel, *classes;
    char check;
    unsigned blocks, cluster;   /* blocks of 32 threads; the cluster size (0: no cluster launch) */
} mma_case;

static const mma_case cases[] = {
#define MMA_CASE(k, c, x, b, cl) {k, c, x, b, cl},
#include "../data/ptx/mma/mma_cases.h"
#undef MMA_CASE
};
enum { NCASES = sizeof cases / sizeof cases[0] };

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (len)
        *len = (size_t)n;
    return b;
}

/* The golden words of kernel, or NULL. */
static const uint32_t *golden_find(const unsigned char *g, size_t len, const char *kernel)
{
    uint32_t n, words;
    if (!g || len < 16 || memcmp(g, "CBMMAGLD", 8) != 0)
        return NULL;
    memcpy(&n, g + 8, 4);
    memcpy(&words, g + 12, 4);
    if (words != MMA_WORDS)
        return NULL;
    size_t rec = 64 + 32 * (size_t)MMA_WORDS * 4;
    for (uint32_t k = 0; k < n && 16 + (k + 1) * rec <= len; k++) {
        const unsigned char *r = g + 16 + k * rec;
        if (strncmp((const char *)r, kernel, 64) == 0)
            return (const uint32_t *)(const void *)(r + 64);
    }
    return NULL;
}

/* Whether f32 words agree within 1e-3 of scale (the largest magnitude in the GPU's output); *worst tracks the
 * largest difference relative to scale. */
static int f32_close(uint32_t got, uint32_t want, double scale, double *worst)
{
    float g, w;
    memcpy(&g, &got, 4);
    memcpy(&w, &want, 4);
    if (isnan(g) && isnan(w))
        return 1;
    if (isinf(w) || isinf(g))
        return g == w;
    double d = fabs((double)g - w) / scale;
    if (d > *worst)
        *worst = d;
    return d <= 1e-3;
}

int main(void)
{
    char dir[256];
    tu_fresh_cache(dir, sizeof dir);
    cb_backend *be = cb_backend_cpu_create();
    if (!be) {
        fprintf(stderr, "no CPU backend\n");
        return 1;
    }
    size_t plen = 0, glen = 0;
    char *ptx = slurp(CB_TEST_DATA_DIR "/ptx/mma/mma.ptx", &plen);
    unsigned char *golden = (unsigned char *)slurp(CB_TEST_DATA_DIR "/ptx/mma/mma_golden.bin", &glen);
    TU_CHECK(ptx != NULL, "cannot read tests/data/ptx/mma/mma.ptx");
    char err[1024];
    cb_translation *tr = NULL;
    void *mod = NULL;
    if (ptx && cb_translate_ptx(ptx, plen, "mma.ptx", CB_DIALECT_C, &tr, err, sizeof err) != 0)
        TU_CHECK(0, "mma.ptx: %s", err);
    else if (ptx)
        mod = tu_load(be, tr, NULL);
    TU_CHECK(!ptx || !tr || mod, "mma.ptx: load failed");
    if (!golden)
        printf("test_cpu_mma_golden: no tests/data/ptx/mma/mma_golden.bin: running the kernels without comparing "
               "(record it on an sm_90 GPU with tests/data/ptx/mma/regen_golden.sh)\n");
    const char *dump = getenv("CB_MMA_DUMP");
    FILE *df = dump ? fopen(dump, "wb") : NULL;
    if (df) {
        uint32_t n = NCASES, words = MMA_WORDS;
        fwrite("CBMMAGLD", 1, 8, df);
        fwrite(&n, 4, 1, df);
        fwrite(&words, 4, 1, df);
    }
    static uint32_t in[32 * MMA_WORDS], out[32 * MMA_WORDS];
    for (uint32_t k = 0; mod && k < NCASES; k++) {
        const mma_case *mc = &cases[k];
        int idx = cb_translation_find_kernel(tr, mc->kernel);
        TU_CHECK(idx >= 0, "%s: no such kernel", mc->kernel);
        if (idx < 0)
            continue;
        for (uint32_t l = 0; l < 32; l++)
            for (uint32_t w = 0; w < MMA_WORDS; w++)
                in[l * MMA_WORDS + w] = mma_word(k, l, w, mc->classes[w]);
        memset(out, 0xee, sizeof out);
        tu_params p = {0};
        TU_PARAM(&p, (uint64_t)(uintptr_t)in);
        TU_PARAM(&p, (uint64_t)(uintptr_t)out);
        cb_launch_error lerr;
        cb_launch_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.grid[0] = mc->blocks;
        cfg.grid[1] = cfg.grid[2] = 1;
        cfg.block[0] = 32;
        cfg.block[1] = cfg.block[2] = 1;
        cfg.cluster[0] = mc->cluster;
        cfg.cluster[1] = cfg.cluster[2] = mc->cluster ? 1 : 0;
        cfg.params = p.buf;
        cfg.param_bytes = p.len;
        memset(&lerr, 0, sizeof lerr);
        CUresult r = be->launch(be, mod, (uint32_t)idx, &cfg, &lerr);
        TU_CHECK(r == CUDA_SUCCESS, "%s: launch %d %s", mc->kernel, (int)r, lerr.message);
        if (df) {
            char name[64] = {0};
            snprintf(name, sizeof name, "%s", mc->kernel);
            fwrite(name, 1, 64, df);
            fwrite(out, 4, 32 * MMA_WORDS, df);
        }
        const uint32_t *want = golden_find(golden, glen, mc->kernel);
        if (golden && !want) {   /* a probe newer than the recording: loudly skipped, as test_codegen_isa does */
            printf("test_cpu_mma_golden: %s: no golden data yet (rerun regen_golden.sh on an sm_90 GPU)\n", mc->kernel);
            continue;
        }
        if (!want)
            continue;
        int bad = 0;
        double worst = 0, scale = 1e-30;
        for (uint32_t i = 0; i < 32 * MMA_WORDS; i++) {
            float f;
            memcpy(&f, &want[i], 4);
            if (want[i] != 0xeeeeeeeeu && isfinite(f) && fabs((double)f) > scale)
                scale = fabs((double)f);
        }
        for (uint32_t i = 0; i < 32 * MMA_WORDS; i++) {
            uint32_t gw;
            memcpy(&gw, &want[i], 4);
            int ok = mc->check == 'x' || out[i] == 0xeeeeeeeeu ? out[i] == gw : f32_close(out[i], gw, scale, &worst);
            if (ok)
                continue;
            if (bad++ < 6)
                fprintf(stderr, "  %s lane %u out[%u]: cpu 0x%08x gpu 0x%08x\n", mc->kernel, i / MMA_WORDS,
                        i % MMA_WORDS, out[i], gw);
        }
        if (mc->check == 'f')
            printf("test_cpu_mma_golden: %s: largest difference from the GPU, relative to its largest output, %.3g\n", mc->kernel, worst);
        TU_CHECK(bad == 0, "%s: %d words differ from the GPU", mc->kernel, bad);
    }
    if (df)
        fclose(df);
    if (mod)
        be->module_unload(be, mod);
    cb_translation_free(tr);
    free(ptx);
    free(golden);
    be->shutdown(be);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    if (tu_failures)
        fprintf(stderr, "%d failure(s)\n", tu_failures);
    return tu_failures ? 1 : 0;
}
