/* test_passes_shared: pass_shared gives each kernel a static shared layout
 * of only what it and its callees can name (src/passes/shared.c).
 *
 *   - the layouts of tests/data/ptx/shared_per_kernel.ptx, read from the IR
 *     after the passes: offsets, static_smem, dynamic use, the func_slots of
 *     the variables that .func code names;
 *   - the same module translated, compiled and run: a .func writes a
 *     module-scope variable at the offset of whichever kernel called it, also
 *     through a function pointer;
 *   - 1,500 kernels with 1 KiB each: every one has 1,024 bytes (they were
 *     stacked: kernel i had 1,024 * (i + 1));
 *   - two kernels of 3 GiB each translate, one kernel with both does not.
 */
#include "test_codegen_util.h"
#include "passes/passes.h"

#define HEADER ".version 8.0\n.target sm_80\n.address_size 64\n"

/* Parses, verifies and runs the passes; NULL with the message in err. */
static ptx_module *passes_of(const char *text, size_t len, char *err, size_t errlen)
{
    ptx_module *m = ptx_parse(text, len, "test.ptx", err, errlen);
    if (m && (ptx_verify(m, err, errlen) < 0 || cb_passes_run(m, err, errlen) < 0)) {
        ptx_module_free(m);
        return NULL;
    }
    return m;
}

static const ptx_kernel *kernel_named(const ptx_module *m, const char *name)
{
    for (uint32_t k = 0; k < m->nkernels; k++)
        if (!strcmp(m->funcs[m->kernels[k]->func].name, name))
            return m->kernels[k];
    CHECK(0, "no kernel %s", name);
    return NULL;
}

static const ptx_var *module_var(const ptx_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nvars; i++)
        if (!strcmp(m->vars[i].name, name))
            return &m->vars[i];
    CHECK(0, "no variable %s", name);
    return NULL;
}

static const ptx_var *func_var(const ptx_module *m, const char *func, const char *name)
{
    for (uint32_t f = 0; f < m->nfuncs; f++)
        for (uint32_t i = 0; !strcmp(m->funcs[f].name, func) && i < m->funcs[f].nvars; i++)
            if (!strcmp(m->funcs[f].vars[i].name, name))
                return &m->funcs[f].vars[i];
    CHECK(0, "no variable %s in %s", name, func);
    return NULL;
}

/* The offset of v in kernel name's layout, or -1 when it is not there. */
static long offset_in(const ptx_module *m, const char *name, const ptx_var *v)
{
    const ptx_kernel *k = kernel_named(m, name);
    uint32_t off;
    if (!k || !v)
        return -2;
    return pass_shared_offset(k, v, &off) < 0 ? -1 : (long)off;
}

static void test_layouts(void)
{
    char path[512], err[512];
    size_t len = 0;
    snprintf(path, sizeof path, "%s/ptx/shared_per_kernel.ptx", CB_TEST_DATA_DIR);
    char *text = read_file(path, &len);
    CHECK(text != NULL, "read %s", path);
    if (!text)
        return;
    ptx_module *m = passes_of(text, len, err, sizeof err);
    free(text);
    CHECK(m != NULL, "%s", err);
    if (!m)
        return;
    const ptx_var *sz = module_var(m, "sz"), *sa = module_var(m, "sa"), *sb = module_var(m, "sb");
    const ptx_var *own = func_var(m, "k_own", "own"), *ta = func_var(m, "k_a", "ta");
    const ptx_var *fs = func_var(m, "scratch", "fs");
    static const struct {
        const char *kernel;
        uint64_t static_smem;
        int dynamic;
        uint32_t nshared;
    } want[] = {
        {"k_own", 1024, 0, 1}, {"k_a", 320, 0, 2}, {"k_b", 832, 0, 3},
        {"k_ind", 384, 0, 2},  {"k_none", 0, 0, 0}, {"k_dyn", 256, 1, 1},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const ptx_kernel *k = kernel_named(m, want[i].kernel);
        if (!k)
            continue;
        CHECK(k->static_smem == want[i].static_smem, "%s: static_smem %llu, want %llu", want[i].kernel,
              (unsigned long long)k->static_smem, (unsigned long long)want[i].static_smem);
        CHECK(k->dynamic_smem == want[i].dynamic, "%s: dynamic %d", want[i].kernel, k->dynamic_smem);
        CHECK(k->nshared == want[i].nshared, "%s: %u variables, want %u", want[i].kernel, k->nshared,
              want[i].nshared);
    }
    CHECK(offset_in(m, "k_own", own) == 0, "own");
    CHECK(offset_in(m, "k_own", sa) == -1, "k_own has no sa");
    CHECK(offset_in(m, "k_a", sa) == 0 && offset_in(m, "k_a", ta) == 256, "k_a: sa %ld ta %ld",
          offset_in(m, "k_a", sa), offset_in(m, "k_a", ta));
    CHECK(offset_in(m, "k_a", sz) == -1 && offset_in(m, "k_a", sb) == -1, "k_a names neither sz nor sb");
    CHECK(offset_in(m, "k_b", sz) == 0 && offset_in(m, "k_b", sa) == 64 && offset_in(m, "k_b", sb) == 320,
          "k_b: sz %ld sa %ld sb %ld", offset_in(m, "k_b", sz), offset_in(m, "k_b", sa), offset_in(m, "k_b", sb));
    CHECK(offset_in(m, "k_ind", sa) == 0 && offset_in(m, "k_ind", fs) == 256, "k_ind: sa %ld fs %ld (through pointers)",
          offset_in(m, "k_ind", sa), offset_in(m, "k_ind", fs));
    CHECK(offset_in(m, "k_b", fs) == -1, "k_b does not reach scratch");
    CHECK(offset_in(m, "k_dyn", sa) == 0, "k_dyn");
    /* bump names sa and scratch declares fs: the two slots of the offset tables */
    CHECK(m->nfunc_slots == 2, "func slots %u", m->nfunc_slots);
    CHECK(sa && fs && sa->func_slot == 0 && fs->func_slot == 1, "slots: sa %u fs %u", sa ? sa->func_slot : 9,
          fs ? fs->func_slot : 9);
    CHECK(sz && sb && sz->func_slot == PTX_NO_SLOT && sb->func_slot == PTX_NO_SLOT, "sz and sb are named by kernels only");
    ptx_module_free(m);
}

static void test_run(void)
{
    module m;
    if (load_module("shared_per_kernel.ptx", &m))
        return;
    uint32_t out[8];
    uint32_t *po = out;
    const void *args[] = {&po};
    static const struct {
        const char *kernel;
        uint32_t n, want[5];
    } runs[] = {
        {"k_own", 1, {77}},
        {"k_a", 3, {42, 42, 7}},               /* bump's ++sa[1] lands on the kernel's sa+4 */
        {"k_b", 5, {11, 11, 100, 200, 320}},   /* ... at 64 in k_b's layout; sz and sb untouched; sb at 320 */
        {"k_ind", 2, {6, 1003}},               /* through pointers */
        {"k_none", 1, {9}},
        {"k_dyn", 3, {1, 2, 256}},             /* dynamic after the 256 static bytes */
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        memset(out, 0xee, sizeof out);
        CHECK(launch(&m, runs[i].kernel, DIM(1, 1, 1), DIM(1, 1, 1), 16, args) == 0, "%s ran", runs[i].kernel);
        for (uint32_t j = 0; j < runs[i].n; j++)
            CHECK(out[j] == runs[i].want[j], "%s: out[%u] = %u, want %u", runs[i].kernel, j, out[j], runs[i].want[j]);
    }
    CHECK(strstr(m.tr->source, "const uint32_t *cb_so") != NULL, "the .funcs take the kernel's offsets");
    unload_module(&m);
}

/* 1,500 kernels, each with a function-scope 1 KiB array, and two kernels
 * sharing two module-scope arrays. */
static void test_many_kernels(void)
{
    enum { N = 1500 };
    size_t cap = 600 * N + 4096, len = 0;
    char *src = malloc(cap), err[512];
    len += (size_t)snprintf(src + len, cap - len, HEADER ".shared .align 4 .b8 both1[2048];\n"
                                                  ".shared .align 16 .b8 both2[96];\n");
    for (int i = 0; i < N; i++)
        len += (size_t)snprintf(src + len, cap - len,
                                ".visible .entry k%d(.param .u64 out)\n{\n"
                                "\t.shared .align 4 .b8 s%d[1024];\n\t.reg .b32 %%r<2>;\n"
                                "\tst.shared.u32 [s%d+1020], %d;\n\tld.shared.u32 %%r1, [s%d];\n\tret;\n}\n",
                                i, i, i, i, i);
    len += (size_t)snprintf(src + len, cap - len,
                            ".visible .entry pair1()\n{\n\tst.shared.u32 [both1], 1;\n\tst.shared.u32 [both2], 1;\n\tret;\n}\n"
                            ".visible .entry pair2()\n{\n\tst.shared.u32 [both2+4], 2;\n\tst.shared.u32 [both1+8], 2;\n\tret;\n}\n");
    ptx_module *m = passes_of(src, len, err, sizeof err);
    CHECK(m != NULL, "%s", err);
    if (m) {
        CHECK(m->nkernels == N + 2, "kernels %u", m->nkernels);
        int bad = 0;
        for (int i = 0; i < N; i++)
            bad += m->kernels[i]->static_smem != 1024 || m->kernels[i]->nshared != 1;
        CHECK(bad == 0, "%d kernels of %d do not have exactly their 1024 bytes", bad, N);
        CHECK(m->kernels[N]->static_smem == 2048 + 96 && m->kernels[N + 1]->static_smem == 2048 + 96, "pairs: %llu %llu",
              (unsigned long long)m->kernels[N]->static_smem, (unsigned long long)m->kernels[N + 1]->static_smem);
        CHECK(m->nfunc_slots == 0, "no .func names shared memory");
        ptx_module_free(m);
    }
    /* the translation says the same to the runtime */
    cb_translation *tr = NULL;
    CHECK(cb_translate_ptx(src, len, "many.ptx", CB_DIALECT_C, &tr, err, sizeof err) == 0, "%s", err);
    if (tr) {
        int i = cb_translation_find_kernel(tr, "k1499");
        CHECK(i >= 0 && tr->kernels[i].static_smem == 1024, "k1499: %u", i >= 0 ? tr->kernels[i].static_smem : 0);
        cb_translation_free(tr);
    }
    free(src);
}

/* 3 GiB in each of two kernels is fine; both in one kernel exceed 4 GiB. */
static void test_limits(void)
{
    const char *two = HEADER ".shared .align 4 .b8 big1[3221225472];\n.shared .align 4 .b8 big2[3221225472];\n"
                             ".visible .entry k1()\n{\n\tst.shared.u32 [big1], 1;\n\tret;\n}\n"
                             ".visible .entry k2()\n{\n\tst.shared.u32 [big2], 1;\n\tret;\n}\n";
    char err[512];
    ptx_module *m = passes_of(two, strlen(two), err, sizeof err);
    CHECK(m != NULL, "two kernels of 3 GiB: %s", err);
    if (m) {
        CHECK(m->kernels[0]->static_smem == 3221225472ull && m->kernels[1]->static_smem == 3221225472ull, "3 GiB each");
        ptx_module_free(m);
    }
    const char *one = HEADER ".shared .align 4 .b8 big1[3221225472];\n.shared .align 4 .b8 big2[3221225472];\n"
                             ".visible .entry k1()\n{\n\tst.shared.u32 [big1], 1;\n\tst.shared.u32 [big2], 1;\n\tret;\n}\n";
    m = passes_of(one, strlen(one), err, sizeof err);
    CHECK(m == NULL, "one kernel of 6 GiB must fail");
    CHECK(strstr(err, "test.ptx:6: near 'k1': static shared memory exceeds 4 GiB") != NULL, "got \"%s\"", err);
    if (m)
        ptx_module_free(m);
}

int main(void)
{
    snprintf(g_tmpdir, sizeof g_tmpdir, "/tmp/cb_passes_shared.XXXXXX");
    if (!mkdtemp(g_tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_layouts();
    test_run();
    test_many_kernels();
    test_limits();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", g_tmpdir);
    if (failures)
        fprintf(stderr, "test_passes_shared: %d failures\n", failures);
    else
        printf("test_passes_shared: ok\n");
    return failures != 0;
}
