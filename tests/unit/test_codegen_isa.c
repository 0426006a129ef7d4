/* test_codegen_isa: the PTX conformance corpus of tests/data/ptx/isa (one
 * file per instruction family, made by gen_isa.py) run through the
 * translator on the CPU and compared, word by word, with what an NVIDIA GPU
 * computed from the same inputs (isa_golden.bin, made by golden_gpu.c).
 * Exact results must match bit for bit; approximate ones (.approx) within
 * the error the ISA states (the check kinds of gen_isa.py).
 *
 * A case is one instruction form: the output words that carry its name.
 * Prints "isa conformance: P/N cases pass", each failing case with its
 * first failing input, expected and actual word, and the cases that have
 * no golden data yet (skipped, loudly). Fails when a case fails that is not
 * in known_failures.txt (a regression).
 *
 * CB_ISA_DUMP=FILE writes the CPU results in the golden format, for diffing;
 * CB_ISA_INPUTS=FILE the input words (4 a thread), for model/check.py.
 * CB_ISA_VERBOSE=1 lists every failing word (the first 6 of each case).
 */
#include "test_codegen_util.h"

#include "../data/ptx/isa/isa_inputs.h"

typedef struct isa_kernel {
    const char *file, *kernel, *checks, *fmt, *names;
} isa_kernel;

static const isa_kernel kernels[] = {
#define ISA_CASE(f, k, c, h, n) {f, k, c, h, n},
#include "../data/ptx/isa/isa_cases.h"
#undef ISA_CASE
};
enum { NKERNELS = sizeof kernels / sizeof kernels[0], MAXCASES = NKERNELS * 8 };

enum { CASE_PASS, CASE_FAIL, CASE_NO_GOLDEN };

/* One instruction form and what became of it. */
typedef struct isa_result {
    char name[96];
    int state, known;
    char detail[256];   /* the first failure: kernel, thread, input, words */
} isa_result;

static isa_result results[MAXCASES];
static int nresults;

typedef struct golden {
    unsigned char *data;
    size_t len;
    uint32_t nkernels, threads;
} golden;

/* The golden words of file:kernel, or NULL. */
static const uint32_t *golden_find(const golden *g, const char *file, const char *kernel)
{
    char name[64] = {0};
    snprintf(name, sizeof name, "%s:%s", file, kernel);
    size_t rec = 64 + (size_t)g->threads * 32;
    for (uint32_t k = 0; k < g->nkernels && 16 + (k + 1) * rec <= g->len; k++) {
        const unsigned char *r = g->data + 16 + k * rec;
        if (memcmp(r, name, 64) == 0)
            return (const uint32_t *)(r + 64);
    }
    return NULL;
}

/* Loads isa_golden.bin; a file made with fewer threads (an older input set,
 * whose threads are a prefix of ours) is compared on the threads it has. */
static int golden_load(golden *g)
{
    memset(g, 0, sizeof *g);
    g->data = (unsigned char *)read_file(CB_TEST_DATA_DIR "/ptx/isa/isa_golden.bin", &g->len);
    if (!g->data || g->len < 16 || memcmp(g->data, "CBISAGLD", 8) != 0)
        return -1;
    memcpy(&g->nkernels, g->data + 8, 4);
    memcpy(&g->threads, g->data + 12, 4);
    return g->threads >= ISA_THREADS_V1 && g->threads <= ISA_THREADS ? 0 : -1;
}

/* The result slot of case name, made on first use. */
static isa_result *result_for(const char *name, size_t len)
{
    for (int i = 0; i < nresults; i++)
        if (strlen(results[i].name) == len && memcmp(results[i].name, name, len) == 0)
            return &results[i];
    isa_result *r = &results[nresults++];
    snprintf(r->name, sizeof r->name, "%.*s", (int)len, name);
    return r;
}

/* Word w's case of kernel k (NULL for an unused word). */
static isa_result *word_case(const isa_kernel *k, int w)
{
    const char *p = k->names;
    for (int i = 0; i < w && p; i++) {
        p = strchr(p, '|');
        p = p ? p + 1 : NULL;
    }
    if (!p)
        return NULL;
    const char *e = strchr(p, '|');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    return len ? result_for(p, len) : NULL;
}

/* Distance in units in the last place between two sign-magnitude floats of width bits. */
static uint64_t ulp_dist(uint64_t a, uint64_t b, int bits)
{
    uint64_t sign = 1ull << (bits - 1);
    int64_t x = (a & sign) ? -(int64_t)(a & (sign - 1)) : (int64_t)a;
    int64_t y = (b & sign) ? -(int64_t)(b & (sign - 1)) : (int64_t)b;
    return x > y ? (uint64_t)(x - y) : (uint64_t)(y - x);
}

static int f32_nan(uint32_t v) { return (v & 0x7fffffffu) > 0x7f800000u; }
static int half_nan(uint32_t h, int bf) { return (h & 0x7fffu) > (bf ? 0x7f80u : 0x7c00u); }

/* Whether got matches want under check kind k ('h' halves by fmt). */
static int word_ok(char k, uint32_t got, uint32_t want, const char *fmt)
{
    if (k == '-' || got == want)
        return 1;
    if (k == 'x')
        return 0;
    if (k == 'f' || k == 'r') {   /* absolute 2e-6 (relative above 1); tanh.approx: relative 2^-10 */
        float g, w;
        memcpy(&g, &got, 4);
        memcpy(&w, &want, 4);
        if (f32_nan(got) || f32_nan(want))
            return f32_nan(got) && f32_nan(want);
        if (k == 'f')
            return fabs((double)g - w) <= 2e-6 * fmax(1.0, fabs(w));
        return fabs((double)g - w) <= 1e-3 * fabs(w) + 1e-6;
    }
    if (k == 'u') {   /* 4 ulp; also the high word of an f64 */
        if (f32_nan(got) || f32_nan(want))
            return f32_nan(got) && f32_nan(want);
        return ulp_dist(got, want, 32) <= 4;
    }
    int bf = k == 'b' || fmt[0] == 'b';
    for (int s = 0; s < 32; s += 16) {
        uint32_t g = (got >> s) & 0xffffu, w = (want >> s) & 0xffffu;
        if (!((half_nan(g, bf) && half_nan(w, bf)) || ulp_dist(g, w, 16) <= 2))
            return 0;
    }
    return 1;
}

/* Marks every case of kernel k with state (a failure keeps its first detail). */
static void mark_kernel(const isa_kernel *k, int state, const char *why)
{
    for (int w = 0; w < 8; w++) {
        isa_result *r = word_case(k, w);
        if (!r || r->state == CASE_FAIL)
            continue;
        if (state == CASE_FAIL || r->state == CASE_PASS) {
            r->state = state;
            snprintf(r->detail, sizeof r->detail, "%s:%s: %s", k->file, k->kernel, why);
        }
    }
}

/* Runs kernel k and compares its words with the golden ones on the first nthreads threads. */
static void run_kernel(const isa_kernel *k, module *m, const uint32_t *in, uint32_t *out, const uint32_t *want,
                       uint32_t nthreads, int verbose)
{
    memset(out, 0xee, ISA_THREADS * 32);
    const void *args[] = {&in, &out};
    if (launch(m, k->kernel, DIM(ISA_THREADS / ISA_BLOCK, 1, 1), DIM(ISA_BLOCK, 1, 1), 0, args) != 0) {
        mark_kernel(k, CASE_FAIL, "the launch aborted");
        return;
    }
    if (!want) {
        mark_kernel(k, CASE_NO_GOLDEN, "no golden data");
        return;
    }
    for (int w = 0; w < 8; w++) {
        isa_result *r = word_case(k, w);
        if (!r)
            continue;
        int bad = 0;
        for (uint32_t i = 0; i < nthreads; i++) {
            uint32_t gw, got = out[i * 8 + w];
            memcpy(&gw, &want[i * 8 + w], 4);
            if (word_ok(k->checks[w], got, gw, k->fmt))
                continue;
            if (r->state != CASE_FAIL)
                snprintf(r->detail, sizeof r->detail,
                         "%s out[%d] thread %u: in %08x %08x %08x %08x: want 0x%08x got 0x%08x", k->kernel, w, i,
                         in[i * 4], in[i * 4 + 1], in[i * 4 + 2], in[i * 4 + 3], gw, got);
            r->state = CASE_FAIL;
            if (verbose && bad < 6)
                fprintf(stderr, "  %s: %s out[%d] thread %u: in %08x %08x %08x %08x: want 0x%08x got 0x%08x\n",
                        r->name, k->kernel, w, i, in[i * 4], in[i * 4 + 1], in[i * 4 + 2], in[i * 4 + 3], gw, got);
            bad++;
        }
    }
}

/* Reads known_failures.txt ("name<TAB>reason" lines) and flags those cases. */
static void load_known(void)
{
    size_t len = 0;
    char *raw = read_file(CB_TEST_DATA_DIR "/ptx/isa/known_failures.txt", &len);
    char *text = raw ? calloc(1, len + 1) : NULL;   /* read_file does not terminate */
    if (text)
        memcpy(text, raw, len);
    free(raw);
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        char *tab = strchr(line, '\t');
        if (line[0] != '#' && tab)
            for (int i = 0; i < nresults; i++)
                if ((size_t)(tab - line) == strlen(results[i].name) &&
                    memcmp(results[i].name, line, (size_t)(tab - line)) == 0)
                    results[i].known = 1;
        line = nl ? nl + 1 : line + strlen(line);
    }
    free(text);
}

/* Prints the summary and the failures; returns the number of unexpected failures. */
static int report(uint32_t golden_threads)
{
    int pass = 0, fail = 0, none = 0, regress = 0, fixed = 0;
    for (int i = 0; i < nresults; i++) {
        const isa_result *r = &results[i];
        pass += r->state == CASE_PASS;
        fail += r->state == CASE_FAIL;
        none += r->state == CASE_NO_GOLDEN;
        if (r->state == CASE_FAIL)
            fprintf(stderr, "isa FAIL%s %s: %s\n", r->known ? " (known)" : "", r->name, r->detail);
        regress += r->state == CASE_FAIL && !r->known;
        fixed += r->state == CASE_PASS && r->known;
        if (r->state == CASE_PASS && r->known)
            fprintf(stderr, "isa now passes (remove from known_failures.txt): %s\n", r->name);
    }
    if (none) {
        fprintf(stderr, "isa WARNING: %d of %d cases have NO GOLDEN DATA and were not checked:\n", none, nresults);
        for (int i = 0; i < nresults; i++)
            if (results[i].state == CASE_NO_GOLDEN)
                fprintf(stderr, "  no golden: %s (%s)\n", results[i].name, results[i].detail);
        fprintf(stderr, "isa WARNING: regenerate on a GPU: sh tests/data/ptx/isa/regen_golden.sh\n");
    }
    if (golden_threads < ISA_THREADS)
        fprintf(stderr, "isa WARNING: the golden file covers %u of %u input threads (older inputs); "
                "regenerate on a GPU\n", golden_threads, ISA_THREADS);
    printf("isa conformance: %d/%d cases pass (%d fail, %d known; %d without golden data)\n", pass, nresults, fail,
           fail - regress, none);
    (void)fixed;
    return regress;
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
    CHECK(have, "tests/data/ptx/isa/isa_golden.bin missing or not readable");
    const char *dump = getenv("CB_ISA_DUMP");
    int verbose = getenv("CB_ISA_VERBOSE") != NULL;
    const char *inpath = getenv("CB_ISA_INPUTS");
    FILE *inf = inpath ? fopen(inpath, "wb") : NULL;
    if (inf) {
        fwrite(in, 16, ISA_THREADS, inf);
        fclose(inf);
    }
    FILE *df = dump ? fopen(dump, "wb") : NULL;
    if (df) {
        uint32_t n = NKERNELS, t = ISA_THREADS;
        fwrite("CBISAGLD", 1, 8, df);
        fwrite(&n, 4, 1, df);
        fwrite(&t, 4, 1, df);
    }
    for (int k = 0; k < NKERNELS; k++)
        for (int w = 0; w < 8; w++)
            word_case(&kernels[k], w);
    module m;
    const char *loaded = NULL;
    int ok = 0;
    for (int k = 0; k < NKERNELS; k++) {
        if (!loaded || strcmp(loaded, kernels[k].file) != 0) {
            if (loaded && ok)
                unload_module(&m);
            loaded = kernels[k].file;
            char path[128];
            snprintf(path, sizeof path, "isa/%s", kernels[k].file);
            int before = failures;
            ok = load_module(path, &m) == 0;
            failures = before;   /* a file that does not translate fails its cases, below */
        }
        if (!ok) {
            mark_kernel(&kernels[k], CASE_FAIL, "the file does not translate or compile");
            continue;
        }
        const uint32_t *want = have ? golden_find(&g, kernels[k].file, kernels[k].kernel) : NULL;
        run_kernel(&kernels[k], &m, in, out, want, have ? g.threads : 0, verbose);
        if (df) {
            char name[64] = {0};
            snprintf(name, sizeof name, "%s:%s", kernels[k].file, kernels[k].kernel);
            fwrite(name, 1, 64, df);
            fwrite(out, 4, ISA_THREADS * 8, df);
        }
    }
    if (loaded && ok)
        unload_module(&m);
    if (df)
        fclose(df);
    load_known();
    int regress = report(have ? g.threads : 0);
    CHECK(regress == 0, "%d cases fail that known_failures.txt does not list", regress);
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
