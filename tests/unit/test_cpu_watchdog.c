/* The kernel watchdog (CUBRIDGE_KERNEL_TIMEOUT): a hung kernel fails with
 * CUDA_ERROR_LAUNCH_TIMEOUT and the process lives on. Hangs of three kinds:
 * a tight loop in a plain kernel (no switch ever: the interrupt signal ends
 * it), a fiber kernel looping over a barrier (stopped at a fiber switch),
 * and a fiber kernel whose thread 0 spins while the others wait at a
 * barrier (interrupt inside a fiber). After each, a good kernel runs and
 * gives the right answer. No timing is asserted beyond "it came back".
 * Under ThreadSanitizer only the barrier case runs: TSan holds asynchronous
 * signals until the thread reaches an intercepted call, which an
 * uninstrumented tight loop never does. */
#include "test_cpu_util.h"

#if defined(__SANITIZE_THREAD__)
#define TU_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TU_TSAN 1
#endif
#endif
#ifndef TU_TSAN
#define TU_TSAN 0
#endif

static const char *kernels =
    /* 0: plain, every thread spins forever */
    "void cbk_0(cb_thread *t) { (void)t; for (;;) __asm__ __volatile__(\"\" ::: \"memory\"); }\n"
    /* 1: fibers, barriers forever */
    "void cbk_1(cb_thread *t) { for (;;) RT->bar_sync(t, 0, 0); }\n"
    /* 2: fibers, thread 0 spins, the others wait at the barrier */
    "void cbk_2(cb_thread *t) {\n"
    "  if (t->flat == 0) for (;;) __asm__ __volatile__(\"\" ::: \"memory\");\n"
    "  RT->bar_sync(t, 0, 0);\n"
    "}\n"
    /* 3: out[GTID] = GTID */
    "void cbk_3(cb_thread *t) { uint32_t *out = PARAM(uint32_t *, 0); out[GTID] = GTID; }\n";

static const tu_kernel infos[] = {
    {"spin_plain", 0, 0, 8},
    {"bar_forever", 1, 0, 8},
    {"spin_fiber", 1, 0, 8},
    {"good", 0, 0, 8},
};

static cb_backend *be;
static void *mod;

static void expect_good(const char *after)
{
    enum { N = 64 * 128 };
    static uint32_t out[N];
    memset(out, 0xff, sizeof out);
    tu_params p = {0};
    TU_PARAM(&p, (uint32_t *)out);
    cb_launch_error err;
    CUresult r = tu_launch(be, mod, 3, 64, 128, p.buf, p.len, &err);
    TU_CHECK(r == CUDA_SUCCESS, "good kernel after %s: %d: %s", after, (int)r, err.message);
    int bad = 0;
    for (uint32_t i = 0; i < N; i++)
        bad += out[i] != i;
    TU_CHECK(bad == 0, "good kernel after %s: %d wrong elements", after, bad);
}

static void expect_timeout(uint32_t k, uint32_t grid, uint32_t block)
{
    tu_params p = {0};
    TU_PARAM(&p, (uint64_t)0);
    cb_launch_error err;
    CUresult r = tu_launch(be, mod, k, grid, block, p.buf, p.len, &err);
    TU_CHECK(r == CUDA_ERROR_LAUNCH_TIMEOUT, "%s: got %d (%s), wanted CUDA_ERROR_LAUNCH_TIMEOUT", infos[k].name, (int)r,
             err.message);
    TU_CHECK(strstr(err.message, infos[k].name) && strstr(err.message, "CUBRIDGE_KERNEL_TIMEOUT"),
             "%s: message: %s", infos[k].name, err.message);
    expect_good(infos[k].name);
}

int main(void)
{
    char dir[512];
    tu_fresh_cache(dir, sizeof dir);
    setenv("CUBRIDGE_KERNEL_TIMEOUT", "0.3", 1);
    setenv("CUBRIDGE_THREADS", "2", 1);
    be = cb_backend_cpu_create();
    if (!be)
        return 1;
    cb_translation *tr = tu_make(kernels, 4, infos, 0);
    mod = tu_load(be, tr, NULL);
    if (mod) {
        expect_good("start");
        expect_timeout(1, 4, 64);
        if (!TU_TSAN) {
            expect_timeout(0, 8, 32);
            expect_timeout(2, 4, 64);
            expect_timeout(0, 1, 1);
        }
        be->module_unload(be, mod);
    }
    tu_free(tr);
    be->shutdown(be);
    cb_fs_remove_flat_dir(dir);
    if (tu_failures)
        return 1;
    printf("ok\n");
    return 0;
}
