/* test_cpu_ptx_warp: hand-written PTX through the real pipeline
 * (cb_translate_ptx -> C -> host compiler -> CPU backend) for
 *   - warp convergence points: legacy warp-synchronous code with volatile
 *     shared memory sees lockstep order, also with partial warps, lanes that
 *     exit early and lanes parked at a barrier;
 *   - match.any/all.sync (b32, b64), redux.sync (every operation), elect.sync,
 *     with full and partial masks;
 *   - nanosleep letting a spinning thread's block-mates run;
 *   - %envreg, %lanemask_*, %nwarpid.
 * Results are checked against host computations, exactly. */
#include "test_cpu_util.h"

#include "codegen/translate.h"

static cb_backend *be;

/* Translates ptx and loads it; NULL (test failed) on error. */
static void *load_ptx(const char *ptx, cb_translation **trp)
{
    char err[1024];
    cb_translation *tr = NULL;
    if (cb_translate_ptx(ptx, strlen(ptx), "ptx_warp.ptx", CB_DIALECT_C, &tr, err, sizeof err) != 0) {
        TU_CHECK(0, "translate: %s", err);
        return NULL;
    }
    *trp = tr;
    return tu_load(be, tr, NULL);
}

#define PTX_HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"

/* ---- legacy warp-synchronous reduction and scan -------------------------- */

static const char legacy_ptx[] = PTX_HEAD
    ".visible .entry wsum(.param .u64 out, .param .u32 nthreads)\n{\n"
    "  .reg .pred %p<4>; .reg .b32 %r<20>; .reg .b64 %rd<8>;\n"
    "  .shared .align 4 .b32 s[256];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.lo.u32 %r2, %r1, 3;\n"
    "  add.u32 %r2, %r2, 1;\n"                        /* value: 3*tid + 1 */
    "  shl.b32 %r3, %r1, 2;\n"
    "  mov.u32 %r4, s;\n"
    "  add.u32 %r5, %r4, %r3;\n"                      /* &s[tid] */
    "  st.volatile.shared.u32 [%r5+128], 0;\n"        /* s[tid+32] = 0 */
    "  st.volatile.shared.u32 [%r5+256], 0;\n"        /* s[tid+64] = 0 */
    "  bar.sync 0;\n"
    "  st.volatile.shared.u32 [%r5], %r2;\n"
    "  bar.sync 0;\n"
    "  setp.ge.u32 %p1, %r1, 32;\n"
    "  @%p1 bra DONE;\n"
    "  ld.volatile.shared.u32 %r6, [%r5+128];\n  ld.volatile.shared.u32 %r7, [%r5];\n"
    "  add.u32 %r7, %r7, %r6;\n  st.volatile.shared.u32 [%r5], %r7;\n"
    "  ld.volatile.shared.u32 %r6, [%r5+64];\n  ld.volatile.shared.u32 %r7, [%r5];\n"
    "  add.u32 %r7, %r7, %r6;\n  st.volatile.shared.u32 [%r5], %r7;\n"
    "  ld.volatile.shared.u32 %r6, [%r5+32];\n  ld.volatile.shared.u32 %r7, [%r5];\n"
    "  add.u32 %r7, %r7, %r6;\n  st.volatile.shared.u32 [%r5], %r7;\n"
    "  ld.volatile.shared.u32 %r6, [%r5+16];\n  ld.volatile.shared.u32 %r7, [%r5];\n"
    "  add.u32 %r7, %r7, %r6;\n  st.volatile.shared.u32 [%r5], %r7;\n"
    "  ld.volatile.shared.u32 %r6, [%r5+8];\n  ld.volatile.shared.u32 %r7, [%r5];\n"
    "  add.u32 %r7, %r7, %r6;\n  st.volatile.shared.u32 [%r5], %r7;\n"
    "  ld.volatile.shared.u32 %r6, [%r5+4];\n  ld.volatile.shared.u32 %r7, [%r5];\n"
    "  add.u32 %r7, %r7, %r6;\n  st.volatile.shared.u32 [%r5], %r7;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r7;\n"
    "DONE:\n  ret;\n}\n";

/* Lockstep model: s[t] = old s[t] + old s[t+k] for lanes t < 32, in steps
 * k = 32, 16, ..., 1; returns what lane t stored. */
static void legacy_model(uint32_t nthreads, uint32_t *want)
{
    uint32_t s[256] = {0}, old[256];
    for (uint32_t t = 0; t < nthreads; t++)
        s[t] = 3 * t + 1;
    for (uint32_t k = 32; k >= 1; k >>= 1) {
        memcpy(old, s, sizeof s);
        for (uint32_t t = 0; t < 32 && t < nthreads; t++)
            s[t] = old[t] + old[t + k];
    }
    for (uint32_t t = 0; t < 32; t++)
        want[t] = s[t];
}

static void test_legacy(void)
{
    cb_translation *tr = NULL;
    void *mod = load_ptx(legacy_ptx, &tr);
    if (!mod)
        return;
    TU_CHECK(tr->kernels[0].needs_fibers == 1, "volatile shared accesses need fibers");
    static const uint32_t sizes[] = {64, 32, 40, 128};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint32_t got[32], want[32];
        memset(got, 0xee, sizeof got);
        legacy_model(sizes[i], want);
        tu_params p = {0};
        TU_PARAM(&p, (uint64_t)(uintptr_t)got);
        TU_PARAM(&p, sizes[i]);
        cb_launch_error err;
        CUresult r = tu_launch(be, mod, 0, 3, sizes[i], p.buf, p.len, &err);
        TU_CHECK(r == CUDA_SUCCESS, "legacy launch (%u threads): %d %s", sizes[i], (int)r, err.message);
        uint32_t n = sizes[i] < 32 ? sizes[i] : 32;
        for (uint32_t t = 0; t < n; t++)
            TU_CHECK(got[t] == want[t], "legacy %u threads: lane %u got %u want %u", sizes[i], t, got[t], want[t]);
    }
    be->module_unload(be, mod);
    cb_translation_free(tr);
}

/* ---- match, redux, elect -------------------------------------------------- */

/* out[tid*8 + 0..7] = match.any b32, match.all b32 (and pred), match.any b64,
 * redux add/min.s32/max.u32/xor, elect id|pred. The first 20 lanes of each
 * warp take part through a mask (a partial group) in kernel 1. */
static const char coll_ptx[] = PTX_HEAD
    ".visible .entry coll(.param .u64 out, .param .u64 in, .param .u32 mask)\n{\n"
    "  .reg .pred %p<6>; .reg .b32 %r<30>; .reg .b64 %rd<10>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 31;\n"
    "  ld.param.u32 %r3, [mask];\n"
    "  shr.u32 %r4, %r3, %r2;\n  and.b32 %r4, %r4, 1;\n"
    "  setp.eq.u32 %p1, %r4, 0;\n  @%p1 bra DONE;\n"
    "  ld.param.u64 %rd1, [in];\n  mul.wide.u32 %rd2, %r1, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r5, [%rd3];\n"
    "  ld.param.u64 %rd4, [out];\n  mul.wide.u32 %rd5, %r1, 40;\n  add.u64 %rd6, %rd4, %rd5;\n"
    "  and.b32 %r6, %r5, 3;\n"
    "  match.any.sync.b32 %r7, %r6, %r3;\n  st.global.u32 [%rd6], %r7;\n"
    "  shr.u32 %r8, %r5, 30;\n"                           /* 0 in the uniform test, varied otherwise */
    "  match.all.sync.b32 %r9|%p2, %r8, %r3;\n  st.global.u32 [%rd6+4], %r9;\n"
    "  selp.u32 %r10, 1, 0, %p2;\n  st.global.u32 [%rd6+8], %r10;\n"
    "  cvt.u64.u32 %rd7, %r6;\n  shl.b64 %rd7, %rd7, 40;\n"
    "  match.any.sync.b64 %r11, %rd7, %r3;\n  st.global.u32 [%rd6+12], %r11;\n"
    "  redux.sync.add.u32 %r12, %r5, %r3;\n  st.global.u32 [%rd6+16], %r12;\n"
    "  redux.sync.min.s32 %r13, %r5, %r3;\n  st.global.u32 [%rd6+20], %r13;\n"
    "  redux.sync.max.u32 %r14, %r5, %r3;\n  st.global.u32 [%rd6+24], %r14;\n"
    "  redux.sync.xor.b32 %r15, %r5, %r3;\n  st.global.u32 [%rd6+28], %r15;\n"
    "  elect.sync %r16|%p3, %r3;\n  st.global.u32 [%rd6+32], %r16;\n"
    "  selp.u32 %r17, 1, 0, %p3;\n  st.global.u32 [%rd6+36], %r17;\n"
    "DONE:\n  ret;\n}\n";

static void coll_model(const uint32_t *in, uint32_t nthreads, uint32_t mask, uint32_t *want)
{
    for (uint32_t w = 0; w * 32 < nthreads; w++) {
        uint32_t lanes = 0;
        for (uint32_t l = 0; l < 32 && w * 32 + l < nthreads; l++)
            lanes |= (mask >> l & 1u) << l;
        uint32_t add = 0, xr = 0, umax = 0;
        int32_t smin = INT32_MAX;
        int same = 1;
        uint32_t first = (uint32_t)__builtin_ctz(lanes);
        for (uint32_t l = 0; l < 32; l++) {
            if (!(lanes >> l & 1))
                continue;
            uint32_t v = in[w * 32 + l];
            add += v;
            xr ^= v;
            umax = v > umax ? v : umax;
            smin = (int32_t)v < smin ? (int32_t)v : smin;
            same &= (v >> 30) == (in[w * 32 + first] >> 30);
        }
        for (uint32_t l = 0; l < 32; l++) {
            if (!(lanes >> l & 1))
                continue;
            uint32_t *o = &want[(w * 32 + l) * 10], v = in[w * 32 + l], any = 0;
            for (uint32_t k = 0; k < 32; k++)
                if ((lanes >> k & 1) && (in[w * 32 + k] & 3) == (v & 3))
                    any |= 1u << k;
            o[0] = any;
            o[1] = same ? lanes : 0;
            o[2] = (uint32_t)same;
            o[3] = any;
            o[4] = add;
            o[5] = (uint32_t)smin;
            o[6] = umax;
            o[7] = xr;
            o[8] = first;
            o[9] = l == first;
        }
    }
}

static void test_collectives(void)
{
    cb_translation *tr = NULL;
    void *mod = load_ptx(coll_ptx, &tr);
    if (!mod)
        return;
    TU_CHECK(tr->kernels[0].needs_fibers == 1, "match/redux/elect need fibers");
    static const struct { uint32_t nthreads, mask; int uniform_hi; } cases[] = {
        {96, 0xffffffffu, 1}, {96, 0xffffffffu, 0}, {80, 0x000fffffu, 0}, {50, 0xf0f0f0f0u, 0}, {64, 0x00000100u, 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint32_t n = cases[c].nthreads;
        uint32_t in[128], got[1280], want[1280];
        uint32_t seed = 12345 + (uint32_t)c;
        for (uint32_t i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            in[i] = seed ^ (seed >> 7);
            if (cases[c].uniform_hi)
                in[i] &= 0x3fffffffu;
        }
        memset(got, 0, sizeof got);
        memset(want, 0, sizeof want);
        coll_model(in, n, cases[c].mask, want);
        tu_params p = {0};
        TU_PARAM(&p, (uint64_t)(uintptr_t)got);
        TU_PARAM(&p, (uint64_t)(uintptr_t)in);
        TU_PARAM(&p, cases[c].mask);
        cb_launch_error err;
        CUresult r = tu_launch(be, mod, 0, 2, n, p.buf, p.len, &err);
        TU_CHECK(r == CUDA_SUCCESS, "collectives case %zu: %d %s", c, (int)r, err.message);
        for (uint32_t i = 0; i < n * 10; i++)
            if (got[i] != want[i]) {
                TU_CHECK(0, "collectives case %zu: thread %u word %u: got 0x%08x want 0x%08x", c, i / 10, i % 10,
                         got[i], want[i]);
                break;
            }
    }
    be->module_unload(be, mod);
    cb_translation_free(tr);
}

/* ---- nanosleep, special registers ---------------------------------------- */

/* Thread 0 spins on a shared flag with nanosleep until the last thread of
 * the block sets it; then writes %envreg3, %lanemask_lt/ge of lane 5 and
 * %nwarpid. */
static const char sleep_ptx[] = PTX_HEAD
    ".visible .entry spin(.param .u64 out)\n{\n"
    "  .reg .pred %p<4>; .reg .b32 %r<20>; .reg .b64 %rd<8>;\n"
    "  .shared .align 4 .b32 flag;\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ntid.x;\n  sub.u32 %r2, %r2, 1;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n"
    "  @%p1 st.relaxed.cta.shared.u32 [flag], 0;\n"
    "  bar.sync 0;\n"
    "  setp.eq.u32 %p1, %r1, %r2;\n"
    "  @%p1 st.relaxed.cta.shared.u32 [flag], 1;\n"
    "  setp.ne.u32 %p2, %r1, 0;\n  @%p2 bra DONE;\n"
    "LOOP:\n  nanosleep.u32 100;\n  ld.relaxed.cta.shared.u32 %r3, [flag];\n"
    "  setp.eq.u32 %p3, %r3, 0;\n  @%p3 bra LOOP;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r4, %envreg3;\n  st.global.u32 [%rd1], %r4;\n"
    "  mov.u32 %r5, %nwarpid;\n  st.global.u32 [%rd1+4], %r5;\n"
    "  mov.u32 %r6, %lanemask_lt;\n  st.global.u32 [%rd1+8], %r6;\n"
    "  st.global.u32 [%rd1+12], %r3;\n"
    "DONE:\n  ret;\n}\n";

static void test_nanosleep(void)
{
    cb_translation *tr = NULL;
    void *mod = load_ptx(sleep_ptx, &tr);
    if (!mod)
        return;
    uint32_t got[4] = {9, 9, 9, 9};
    tu_params p = {0};
    TU_PARAM(&p, (uint64_t)(uintptr_t)got);
    cb_launch_error err;
    /* flag is not cleared between blocks: one block. */
    CUresult r = tu_launch(be, mod, 0, 1, 100, p.buf, p.len, &err);
    TU_CHECK(r == CUDA_SUCCESS, "nanosleep spin: %d %s", (int)r, err.message);
    TU_CHECK(got[0] == 0 && got[1] == 4 && got[2] == 0 && got[3] == 1, "spin results %u %u %u %u", got[0], got[1],
             got[2], got[3]);
    be->module_unload(be, mod);
    cb_translation_free(tr);
}

/* Thread 0 spins with ld.volatile.shared on a flag that thread 32 (another
 * warp) sets once warp 0 has arrived at named barrier 1: a lone lane at a
 * convergence point yields, so the spin ends. */
static const char vspin_ptx[] = PTX_HEAD
    ".visible .entry vspin(.param .u64 out)\n{\n"
    "  .reg .pred %p<4>; .reg .b32 %r<10>; .reg .b64 %rd<4>;\n"
    "  .shared .align 4 .b32 flag;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n  @%p1 st.volatile.shared.u32 [flag], 0;\n  bar.sync 0;\n"
    "  setp.ge.u32 %p2, %r1, 32;\n  @%p2 bra WARP1;\n"
    "  bar.arrive 1, 64;\n  @!%p1 bra DONE;\n"
    "SPIN:\n  ld.volatile.shared.u32 %r2, [flag];\n  setp.eq.u32 %p3, %r2, 0;\n  @%p3 bra SPIN;\n"
    "  ld.param.u64 %rd1, [out];\n  st.global.u32 [%rd1], %r2;\n  bra DONE;\n"
    "WARP1:\n  bar.sync 1, 64;\n  setp.ne.u32 %p3, %r1, 32;\n  @%p3 bra DONE;\n"
    "  st.volatile.shared.u32 [flag], 7;\n"
    "DONE:\n  ret;\n}\n";

static void test_volatile_spin(void)
{
    cb_translation *tr = NULL;
    void *mod = load_ptx(vspin_ptx, &tr);
    if (!mod)
        return;
    for (int rep = 0; rep < 5; rep++) {
        uint32_t got = 0;
        tu_params p = {0};
        TU_PARAM(&p, (uint64_t)(uintptr_t)&got);
        cb_launch_error err;
        CUresult r = tu_launch(be, mod, 0, 4, 64, p.buf, p.len, &err);
        TU_CHECK(r == CUDA_SUCCESS && got == 7, "volatile spin: %d %s, got %u", (int)r, err.message, got);
    }
    be->module_unload(be, mod);
    cb_translation_free(tr);
}

/* ---- translation errors --------------------------------------------------- */

static void expect_translate_error(const char *body, const char *what)
{
    char ptx[2048], err[512];
    snprintf(ptx, sizeof ptx, PTX_HEAD ".visible .entry k()\n{\n .reg .b32 %%r<4>; .reg .pred %%p<2>;\n%s\n ret;\n}\n",
             body);
    cb_translation *tr = NULL;
    int rc = cb_translate_ptx(ptx, strlen(ptx), "bad.ptx", CB_DIALECT_C, &tr, err, sizeof err);
    TU_CHECK(rc != 0, "%s: translated", body);
    if (rc == 0)
        cb_translation_free(tr);
    else
        TU_CHECK(strstr(err, what) != NULL, "%s: error '%s' lacks '%s'", body, err, what);
}

int main(void)
{
    char dir[256];
    tu_fresh_cache(dir, sizeof dir);
    be = cb_backend_cpu_create();
    if (!be) {
        fprintf(stderr, "no CPU backend\n");
        return 1;
    }
    test_legacy();
    test_collectives();
    test_nanosleep();
    test_volatile_spin();
    expect_translate_error("redux.sync.add.b32 %r1, %r2, -1;", "redux");
    expect_translate_error("redux.sync.and.u32 %r1, %r2, -1;", "redux");
    expect_translate_error("match.any.sync.b32 %r1|%p1, %r2, -1;", "predicate");
    expect_translate_error("elect.sync %r1, -1;", "elect");
    be->shutdown(be);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    if (tu_failures)
        fprintf(stderr, "%d failure(s)\n", tu_failures);
    return tu_failures ? 1 : 0;
}
