/* isa_check.h: what the two runs of the PTX conformance corpus share: the
 * kernels of tests/data/ptx/isa (isa_cases.h, made by gen_isa.py), the
 * GPU's words (isa_golden.bin), the check kinds, a case's state, the
 * known-failure lists and the summary.
 *
 * test_codegen_isa runs the corpus through the translator and the C
 * compiler directly (one thread at a time, the CPU dialect);
 * test_driver_isa loads the same PTX through the driver API
 * (cuModuleLoadData, cuLaunchKernel) on whatever backend CUBRIDGE_BACKEND
 * names, which is how the OpenCL dialect is held to the same golden words.
 * Include it once per program: everything in it is static.
 */
#ifndef ISA_CHECK_H
#define ISA_CHECK_H

#include "../data/ptx/isa/isa_inputs.h"
#include "platform/fs.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct isa_kernel {
    const char *file, *kernel, *checks, *fmt, *names;
} isa_kernel;

static const isa_kernel kernels[] = {
#define ISA_CASE(f, k, c, h, n) {f, k, c, h, n},
#include "../data/ptx/isa/isa_cases.h"
#undef ISA_CASE
};
enum { NKERNELS = sizeof kernels / sizeof kernels[0], MAXCASES = NKERNELS * 8 };

/* A case's state; CASE_REFUSED: the backend answered NOT_SUPPORTED for its kernel. */
enum { CASE_PASS, CASE_FAIL, CASE_NO_GOLDEN, CASE_REFUSED };

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

/* tests/data, where the corpus lies: CB_ISA_DATA overrides the build's path (a copy of the tree
 * on another machine, such as the GPU host of docs/opencl.md). */
static const char *isa_data_dir(void)
{
    const char *e = getenv("CB_ISA_DATA");
    return e && *e ? e : CB_TEST_DATA_DIR;
}

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
    char path[512];
    snprintf(path, sizeof path, "%s/ptx/isa/isa_golden.bin", isa_data_dir());
    if (cb_fs_read_file(path, &g->data, &g->len) != 0)
        return -1;
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

/* Makes every case's slot, in the corpus's order. */
static void isa_cases_init(void)
{
    for (int k = 0; k < NKERNELS; k++)
        for (int w = 0; w < 8; w++)
            word_case(&kernels[k], w);
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

/* Marks every case of kernel k with state (a failure keeps its first detail;
 * a refusal replaces a pass, never a failure). */
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

/* Compares kernel k's words out with the golden ones want on the first nthreads threads. */
static void isa_compare(const isa_kernel *k, const uint32_t *in, const uint32_t *out, const uint32_t *want,
                        uint32_t nthreads, int verbose)
{
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

/* Reads a known-failures file ("name<TAB>reason" lines, '#' comments) of
 * tests/data/ptx/isa and flags those cases; returns the number of lines
 * that name no case of the corpus (a stale entry). */
static int load_known(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/ptx/isa/%s", isa_data_dir(), name);
    size_t len = 0;
    unsigned char *data = NULL;
    char *text = cb_fs_read_file(path, &data, &len) == 0 ? (char *)data : NULL;   /* NUL-terminated */
    int stale = 0;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        char *tab = strchr(line, '\t');
        if (line[0] != '#' && tab) {
            int found = 0;
            for (int i = 0; i < nresults; i++)
                if ((size_t)(tab - line) == strlen(results[i].name) &&
                    memcmp(results[i].name, line, (size_t)(tab - line)) == 0) {
                    results[i].known = 1;
                    found = 1;
                }
            if (!found) {
                fprintf(stderr, "isa: %s names no case of the corpus: %.*s\n", name, (int)(tab - line), line);
                stale++;
            }
        }
        line = nl ? nl + 1 : line + strlen(line);
    }
    free(text);
    return stale;
}

/* Prints the summary (under label) and the failures; returns the number of
 * unexpected ones: a failure or refusal that no known-failures file lists. */
static int report(const char *label, uint32_t golden_threads)
{
    int pass = 0, fail = 0, refused = 0, none = 0, regress = 0;
    for (int i = 0; i < nresults; i++) {
        const isa_result *r = &results[i];
        pass += r->state == CASE_PASS;
        fail += r->state == CASE_FAIL;
        refused += r->state == CASE_REFUSED;
        none += r->state == CASE_NO_GOLDEN;
        if (r->state == CASE_FAIL || r->state == CASE_REFUSED)
            fprintf(stderr, "isa %s%s %s: %s\n", r->state == CASE_FAIL ? "FAIL" : "REFUSED",
                    r->known ? " (known)" : "", r->name, r->detail);
        regress += (r->state == CASE_FAIL || r->state == CASE_REFUSED) && !r->known;
        if (r->state == CASE_PASS && r->known)
            fprintf(stderr, "isa now passes (remove it from the known failures): %s\n", r->name);
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
    printf("isa conformance%s%s: %d/%d cases pass (%d fail, %d refused, %d of them known; %d without golden data)\n",
           *label ? " on " : "", label, pass, nresults, fail, refused, fail + refused - regress, none);
    return regress;
}

#endif
