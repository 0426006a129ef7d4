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
#include "isa_check.h"

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
    isa_compare(k, in, out, want, nthreads, verbose);
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
    isa_cases_init();
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
    int stale = load_known("known_failures.txt");
    CHECK(stale == 0, "known_failures.txt names %d cases the corpus does not have", stale);
    int regress = report("", have ? g.threads : 0);
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
