/* test_codegen_util.h: the pieces every test_codegen_* program shares: a
 * CHECK macro, a tiny single-threaded runtime (barriers with one thread,
 * printf into a buffer, assert/trap through longjmp), and load_module/launch,
 * which translate a PTX file of tests/data/ptx, compile it with the host
 * compiler, dlopen it and run kernels one thread after another.
 * Include it once per program: everything in it is static.
 */
#ifndef TEST_CODEGEN_UTIL_H
#define TEST_CODEGEN_UTIL_H

#pragma GCC diagnostic ignored "-Wunused-function"

#include "codegen/translate.h"
#include "codegen/c/kernel_abi.h"

#include <dlfcn.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;

#define CHECK(cond, ...)                                                             \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: [%s] CHECK failed: %s: ", __FILE__, __LINE__, g_variant, #cond); \
            fprintf(stderr, __VA_ARGS__);                                            \
            fprintf(stderr, "\n");                                                   \
            failures++;                                                              \
        }                                                                            \
    } while (0)

static const char *g_variant = "";
static char g_tmpdir[256];

/* ---- the test runtime ----------------------------------------------------------- */

static char g_printed[4096];
static size_t g_printed_len;
static jmp_buf g_abort;
static int g_asserted, g_trapped;
static char g_assert_msg[256];

static void rt_bar_sync(cb_thread *t, uint32_t b, uint32_t n)
{
    /* one thread per block in these tests: a barrier is already satisfied */
    (void)b;
    (void)n;
    if (t->blk->ntid.x * t->blk->ntid.y * t->blk->ntid.z != 1) {
        fprintf(stderr, "bar.sync with more than one thread in the test runtime\n");
        abort();
    }
}

static uint32_t rt_unsupported_u32(void)
{
    fprintf(stderr, "collective not supported by the test runtime\n");
    abort();
}

static void rt_bar_arrive(cb_thread *t, uint32_t b, uint32_t n) { (void)t; (void)b; (void)n; }
static uint32_t rt_bar_red(cb_thread *t, uint32_t b, uint32_t n, int op, uint32_t p)
{
    (void)t; (void)b; (void)n; (void)op; (void)p;
    return rt_unsupported_u32();
}
static void rt_warp_sync(cb_thread *t, uint32_t mask) { (void)t; (void)mask; }
static uint32_t rt_shfl(cb_thread *t, int mode, uint32_t a, uint32_t b, uint32_t c, uint32_t mask, uint32_t *p)
{
    (void)t; (void)mode; (void)a; (void)b; (void)c; (void)mask; (void)p;
    return rt_unsupported_u32();
}
static uint32_t rt_vote(cb_thread *t, int mode, uint32_t pred, uint32_t mask)
{
    (void)t; (void)mode; (void)pred; (void)mask;
    return rt_unsupported_u32();
}
static uint32_t rt_activemask(cb_thread *t) { (void)t; return 1; }

/* Formats nvcc's vprintf argument buffer: each argument at its natural
 * alignment, ints promoted to 4 bytes, doubles and pointers 8 bytes. */
static int32_t rt_vprintf(cb_thread *t, const char *fmt, const void *args)
{
    (void)t;
    const unsigned char *a = args;
    size_t off = 0;
    int total = 0;
    for (const char *p = fmt; *p; p++) {
        char out[512];
        int n;
        if (*p != '%') {
            out[0] = *p;
            n = 1;
        } else {
            char spec[32];
            size_t k = 0;
            spec[k++] = *p++;
            while (*p && strchr("0123456789.-+ #lhz", *p) && k < 28)
                spec[k++] = *p++;
            char conv = *p;
            spec[k++] = conv;
            spec[k] = 0;
            int is_long = strstr(spec, "ll") != NULL || strchr(spec, 'l') != NULL;
            if (conv == '%') {
                out[0] = '%';
                n = 1;
            } else if (strchr("fFeEgGaA", conv)) {
                off = (off + 7) & ~(size_t)7;
                double d;
                memcpy(&d, a + off, 8);
                off += 8;
                n = snprintf(out, sizeof out, spec, d);
            } else if (conv == 's' || conv == 'p') {
                off = (off + 7) & ~(size_t)7;
                uint64_t v;
                memcpy(&v, a + off, 8);
                off += 8;
                n = conv == 's' ? snprintf(out, sizeof out, spec, (const char *)(uintptr_t)v)
                                : snprintf(out, sizeof out, "%p", (void *)(uintptr_t)v);
            } else if (is_long) {
                off = (off + 7) & ~(size_t)7;
                long long v;
                memcpy(&v, a + off, 8);
                off += 8;
                n = snprintf(out, sizeof out, spec, v);
            } else {
                off = (off + 3) & ~(size_t)3;
                int v;
                memcpy(&v, a + off, 4);
                off += 4;
                n = snprintf(out, sizeof out, spec, v);
            }
        }
        if (n > 0 && g_printed_len + (size_t)n < sizeof g_printed) {
            memcpy(g_printed + g_printed_len, out, (size_t)n);
            g_printed_len += (size_t)n;
            g_printed[g_printed_len] = 0;
        }
        total += n;
    }
    return total;
}

static void rt_assert_fail(cb_thread *t, const char *msg, const char *file, uint32_t line, const char *fn,
                           uint64_t cs)
{
    (void)t; (void)file; (void)line; (void)fn; (void)cs;
    g_asserted++;
    snprintf(g_assert_msg, sizeof g_assert_msg, "%s", msg);
    longjmp(g_abort, 1);
}

static void rt_trap(cb_thread *t)
{
    (void)t;
    g_trapped++;
    longjmp(g_abort, 1);
}

static uint64_t rt_clock64(cb_thread *t) { (void)t; return 12345; }
static void *rt_malloc(cb_thread *t, uint64_t n) { (void)t; return malloc(n); }
static void rt_free(cb_thread *t, void *p) { (void)t; free(p); }
static void rt_unsupported(cb_thread *t, const char *what)
{
    (void)t;
    fprintf(stderr, "unsupported: %s\n", what);
    abort();
}

/* One thread at a time: a convergence point has nothing to wait for, and a
 * warp exchange involves the calling lane alone. */
static void rt_warp_converge(cb_thread *t) { (void)t; }
static void rt_warp_exchange(cb_thread *t, uint32_t mask, void *data, cb_warp_fn fn)
{
    (void)mask;
    void *d[32] = {0};
    d[t->lane] = data;
    fn(d, 1u << t->lane);
}
static uint32_t rt_converge(cb_thread *t, const cb_conv_frame *fr) { (void)fr; return 1u << t->lane; }
static void rt_yield(cb_thread *t) { (void)t; }
static void rt_spin(cb_thread *t, const void *addr) { (void)t; (void)addr; }
/* One thread at a time: an mbarrier phase that is incomplete stays so. */
static void rt_mbar_wait(cb_thread *t, const void *addr)
{
    (void)t; (void)addr;
    fprintf(stderr, "mbarrier wait that cannot complete with one thread at a time\n");
    abort();
}
static void rt_mbar_signal(cb_thread *t, const void *addr, uint32_t completed) { (void)t; (void)addr; (void)completed; }
static void rt_fail(cb_thread *t, const char *what)
{
    (void)t;
    g_trapped++;
    snprintf(g_assert_msg, sizeof g_assert_msg, "%s", what);
    longjmp(g_abort, 1);
}

/* One thread per block and clusters of one block: the barrier is satisfied. */
static void rt_cluster_arrive(cb_thread *t) { (void)t; }
static void rt_cluster_wait(cb_thread *t) { rt_bar_sync(t, 0, 0); }
static void rt_warp_gone(cb_thread *t, uint32_t warp, uint32_t mask, uint32_t gone, int kind, int mode)
{
    (void)t; (void)warp; (void)mask; (void)gone; (void)kind; (void)mode;
    g_trapped++;
    snprintf(g_assert_msg, sizeof g_assert_msg, "exited lanes named in a warp collective");
    longjmp(g_abort, 1);
}
static void rt_warp_not_member(cb_thread *t, uint32_t mask, int kind, int mode)
{
    (void)t; (void)mask; (void)kind; (void)mode;
    g_trapped++;
    snprintf(g_assert_msg, sizeof g_assert_msg, "a lane outside its mask");
    longjmp(g_abort, 1);
}

static const cb_runtime g_rt = {
    rt_bar_sync, rt_bar_arrive, rt_bar_red, rt_warp_sync, rt_shfl, rt_vote, rt_activemask, rt_vprintf,
    rt_assert_fail, rt_trap, rt_clock64, rt_clock64, rt_malloc, rt_free, rt_unsupported,
    rt_warp_converge, rt_warp_exchange, rt_yield, rt_spin, rt_mbar_wait, rt_mbar_signal, rt_fail, rt_converge,
    rt_cluster_arrive, rt_cluster_wait,
    NULL,   /* check_access: the tests run on host memory, unchecked */
    rt_warp_gone, rt_warp_not_member,
};

/* ---- modules -------------------------------------------------------------------- */

typedef struct module {
    cb_translation *tr;
    void *so;
    unsigned char **globals;   /* the .so's cb_module_globals */
    void *storage[64];
} module;

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf)
        *len = (size_t)n;
    return buf;
}

static int load_module(const char *ptxname, module *m)
{
    memset(m, 0, sizeof *m);
    char path[512], cpath[512], sopath[512], cmd[2048], err[512];
    snprintf(path, sizeof path, "%s/ptx/%s", CB_TEST_DATA_DIR, ptxname);
    size_t len = 0;
    char *text = read_file(path, &len);
    CHECK(text != NULL, "read %s", path);
    if (!text)
        return -1;
    int rc = cb_translate_ptx(text, len, ptxname, CB_DIALECT_C, &m->tr, err, sizeof err);
    free(text);
    CHECK(rc == 0, "translate %s: %s", ptxname, err);
    if (rc)
        return -1;
    const char *base = strrchr(ptxname, '/') ? strrchr(ptxname, '/') + 1 : ptxname;
    snprintf(cpath, sizeof cpath, "%s/%s.c", g_tmpdir, base);
    snprintf(sopath, sizeof sopath, "%s/%s.so", g_tmpdir, base);
    FILE *f = fopen(cpath, "w");
    if (!f)
        return -1;
    fwrite(m->tr->source, 1, m->tr->source_len, f);
    fclose(f);
    const char *cc = getenv("CUBRIDGE_HOST_CC");
    snprintf(cmd, sizeof cmd,
             "%s -O2 -fPIC -shared -fno-strict-aliasing -ffp-contract=off -fwrapv -Wall -Werror "
             "-Wno-unused-variable -Wno-unused-label -Wno-unused-but-set-variable -o %s %s -lm",
             cc && *cc ? cc : "cc", sopath, cpath);
    rc = system(cmd);
    CHECK(rc == 0, "compile %s", cpath);
    if (rc)
        return -1;
    m->so = dlopen(sopath, RTLD_NOW | RTLD_LOCAL);
    CHECK(m->so != NULL, "dlopen %s: %s", sopath, dlerror());
    if (!m->so)
        return -1;
    m->globals = dlsym(m->so, "cb_module_globals");
    const uint32_t *abi = dlsym(m->so, "cb_module_abi_version");
    CHECK(m->globals && abi && *abi == CB_KERNEL_ABI_VERSION, "module symbols");
    if (!m->globals)
        return -1;
    for (uint32_t i = 0; i < m->tr->nglobals && i < 64; i++) {
        const cb_global_info *g = &m->tr->globals[i];
        size_t al = g->align < 16 ? 16 : g->align;
        void *p = aligned_alloc(al, (g->size + al - 1) / al * al + al);
        memset(p, 0, g->size + 1);
        if (g->init)
            memcpy(p, g->init, g->size);
        m->storage[i] = p;
        m->globals[i] = p;
    }
    void (*relocate)(void) = (void (*)(void))dlsym(m->so, "cb_module_relocate");
    CHECK(relocate != NULL, "cb_module_relocate");
    if (relocate)
        relocate();
    return 0;
}

static void unload_module(module *m)
{
    if (m->tr)
        for (uint32_t i = 0; i < m->tr->nglobals && i < 64; i++)
            free(m->storage[i]);
    if (m->so)
        dlclose(m->so);
    cb_translation_free(m->tr);
    memset(m, 0, sizeof *m);
}

static void *global_ptr(module *m, const char *name)
{
    int i = cb_translation_find_global(m->tr, name);
    CHECK(i >= 0, "global %s", name);
    return i >= 0 ? m->storage[i] : NULL;
}

/* Runs kernel name over grid x block, one thread after another. args[i]
 * points at the value of parameter i. Returns 0, or 1 if the launch aborted
 * (assert/trap). */
static int launch(module *m, const char *name, cb_dim3 grid, cb_dim3 block, uint32_t dyn, const void *const *args)
{
    int k = cb_translation_find_kernel(m->tr, name);
    CHECK(k >= 0, "kernel %s", name);
    if (k < 0)
        return -1;
    const cb_kernel_info *ki = &m->tr->kernels[k];
    cb_kernel_entry entry = (cb_kernel_entry)dlsym(m->so, ki->symbol);
    CHECK(entry != NULL, "symbol %s", ki->symbol);
    if (!entry)
        return -1;
    CHECK(ki->needs_fibers == 0 || block.x * block.y * block.z == 1, "%s needs fibers", name);
    unsigned char *params = calloc(1, ki->param_bytes + 16);
    for (uint32_t i = 0; i < ki->nparams; i++)
        memcpy(params + ki->params[i].offset, args[i], ki->params[i].size);
    uint32_t smem = ((ki->static_smem + 15u) & ~15u) + dyn;
    unsigned char *shared = calloc(1, smem + 16);
    cb_block b;
    memset(&b, 0, sizeof b);
    b.ntid = block;
    b.nctaid = grid;
    b.shared = shared;
    b.static_smem = ki->static_smem;
    b.dynamic_smem = dyn;
    b.params = params;
    b.rt = &g_rt;
    b.nsmid = 1;
    b.cluster_dim = (cb_dim3){1, 1, 1};   /* every block its own cluster of one */
    b.cluster_shared = &b.shared;
    int aborted = 0;
    for (uint32_t bz = 0; bz < grid.z; bz++)
        for (uint32_t by = 0; by < grid.y; by++)
            for (uint32_t bx = 0; bx < grid.x; bx++) {
                b.ctaid = (cb_dim3){bx, by, bz};
                memset(shared, 0, smem);
                for (uint32_t tz = 0; tz < block.z; tz++)
                    for (uint32_t ty = 0; ty < block.y; ty++)
                        for (uint32_t tx = 0; tx < block.x; tx++) {
                            cb_thread t;
                            memset(&t, 0, sizeof t);
                            t.tid = (cb_dim3){tx, ty, tz};
                            t.flat = tx + ty * block.x + tz * block.x * block.y;
                            t.lane = t.flat % 32;
                            t.warp = t.flat / 32;
                            t.blk = &b;
                            if (setjmp(g_abort)) {
                                aborted = 1;
                                goto out;
                            }
                            entry(&t);
                        }
            }
out:
    free(shared);
    free(params);
    return aborted;
}

#define DIM(x, y, z) ((cb_dim3){x, y, z})

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

static int close_rel(double a, double b, double tol)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return fabs(a - b) <= tol * fmax(1.0, fabs(b));
}

#endif
