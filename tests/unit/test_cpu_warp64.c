/* test_cpu_warp64: 64-lane warps (CUBRIDGE_WARP_SIZE=64, docs/cpu-backend.md
 * "64-lane warps"): hand-written PTX translated with warp_size 64 and run on a
 * CPU backend set to 64 lanes, checked exactly against the rules:
 *   - %warpsize 64, %laneid = flat % 64, %nwarpid, %lanemask_* the low 32
 *     bits of the 64-lane masks, in the fiber path and the block entry;
 *   - a b32 membermask bit i names lanes i and i + 32; ballot, activemask and
 *     match masks are the low 32 bits; vote.all/any span 64 lanes;
 *   - shfl: idx and down across 64 lanes, 0x1f the whole warp, width 16 (and
 *     the width from WARP_SZ) segments of 16, the clamp;
 *   - redux and elect over 64 lanes; exited lanes still count as arrived;
 *   - movmatrix (a 32-lane fragment) fails the launch NOT_SUPPORTED;
 *   - CUBRIDGE_WARP_SIZE parsing, the refusal of other widths (the cpu device
 *     does not start), of the OpenCL backend and dialect, and the generated C: different for 32 and 64 (the JIT
 *     cache keys on it) and without lanes entries at 64. */
#include "test_cpu_util.h"

#include "backend/cpu/cpu_backend.h"
#include "codegen/translate.h"

static cb_backend *be;

static cb_translation *translate(const char *ptx, int warp_size)
{
    char err[1024];
    cb_translation *tr = NULL;
    cb_translate_opts opts = {.lanes = 1, .warp_size = warp_size};
    if (cb_translate_ptx_opts(ptx, strlen(ptx), "warp64.ptx", CB_DIALECT_C, &opts, &tr, err, sizeof err) != 0) {
        TU_CHECK(0, "translate: %s", err);
        return NULL;
    }
    return tr;
}

#define PTX_HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"

/* out[tid*8 + k]: %laneid, %warpsize, %nwarpid, lanemask eq/lt/le/ge/gt.
 * Kernel 0 has no collective (a block entry), kernel 1 adds a bar.sync (fibers). */
#define SPECIALS_BODY(extra)                                                                   \
    "  .reg .b32 %r<20>; .reg .b64 %rd<8>;\n"                                                   \
    extra                                                                                       \
    "  mov.u32 %r1, %tid.x;\n"                                                                  \
    "  ld.param.u64 %rd1, [out];\n  mul.wide.u32 %rd2, %r1, 32;\n  add.u64 %rd3, %rd1, %rd2;\n" \
    "  mov.u32 %r2, %laneid;\n  st.global.u32 [%rd3], %r2;\n"                                   \
    "  mov.u32 %r3, WARP_SZ;\n  st.global.u32 [%rd3+4], %r3;\n"                                 \
    "  mov.u32 %r4, %nwarpid;\n  st.global.u32 [%rd3+8], %r4;\n"                                \
    "  mov.u32 %r5, %lanemask_eq;\n  st.global.u32 [%rd3+12], %r5;\n"                           \
    "  mov.u32 %r6, %lanemask_lt;\n  st.global.u32 [%rd3+16], %r6;\n"                           \
    "  mov.u32 %r7, %lanemask_le;\n  st.global.u32 [%rd3+20], %r7;\n"                           \
    "  mov.u32 %r8, %lanemask_ge;\n  st.global.u32 [%rd3+24], %r8;\n"                           \
    "  mov.u32 %r9, %lanemask_gt;\n  st.global.u32 [%rd3+28], %r9;\n"                           \
    "  ret;\n}\n"
static const char specials_ptx[] = PTX_HEAD
    ".visible .entry specials(.param .u64 out)\n{\n" SPECIALS_BODY("")
    ".visible .entry specials_fib(.param .u64 out)\n{\n" SPECIALS_BODY("  bar.sync 0;\n");

static void test_specials(void)
{
    cb_translation *tr = translate(specials_ptx, 64);
    if (!tr)
        return;
    TU_CHECK(strstr(tr->source, "64-lane warps") != NULL, "the unit does not say 64-lane warps");
    TU_CHECK(strstr(tr->source, CB_C_LANES_MARK) == NULL, "a 64-lane unit has lanes entries");
    void *mod = tu_load(be, tr, NULL);
    if (!mod)
        goto out;
    for (uint32_t k = 0; k < 2; k++) {
        static uint32_t got[160 * 8];
        memset(got, 0xee, sizeof got);
        tu_params p = {0};
        TU_PARAM(&p, (uint64_t)(uintptr_t)got);
        cb_launch_error err;
        CUresult r = tu_launch(be, mod, k, 1, 160, p.buf, p.len, &err);
        TU_CHECK(r == CUDA_SUCCESS, "specials %u: %d %s", k, (int)r, err.message);
        for (uint32_t t = 0; t < 160; t++) {
            uint32_t l = t % 64;
            uint64_t eq = 1ull << l;
            uint32_t want[8] = {l, 64, 3, (uint32_t)eq, (uint32_t)(eq - 1), (uint32_t)(eq - 1 + eq), (uint32_t)~(eq - 1),
                                (uint32_t)~(eq - 1 + eq)};
            for (int i = 0; i < 8; i++)
                if (got[t * 8 + i] != want[i]) {
                    TU_CHECK(0, "specials kernel %u thread %u value %d: %08x, want %08x", k, t, i, got[t * 8 + i],
                             want[i]);
                    t = 160;
                    break;
                }
        }
    }
    be->module_unload(be, mod);
out:
    cb_translation_free(tr);
}

/* out[tid*12 + k]: 0 shfl.idx 0 (full mask), 1 shfl.down 32 (+pred at 2),
 * 3 shfl.idx lane 3 of width 16 (nvcc's c 0x101f), 4 the same with c from
 * WARP_SZ ((64-16)<<8 | 0x1f), 5 shfl.bfly 32, 6 ballot(tid % 3 == 0),
 * 7 vote.any(tid == 40), 8 vote.all(tid != 70), 9 activemask in a branch of
 * lanes >= 32 (else ~0 from the other side), 10 redux.add of tid, 11 elect. */
static const char coll_ptx[] = PTX_HEAD
    ".visible .entry coll(.param .u64 out)\n{\n"
    "  .reg .pred %p<8>; .reg .b32 %r<40>; .reg .b64 %rd<8>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  ld.param.u64 %rd1, [out];\n  mul.wide.u32 %rd2, %r1, 48;\n  add.u64 %rd3, %rd1, %rd2;\n"
    "  mul.lo.u32 %r2, %r1, 10;\n  add.u32 %r2, %r2, 7;\n"     /* value: 10*tid + 7 */
    "  shfl.sync.idx.b32 %r3, %r2, 0, 31, -1;\n  st.global.u32 [%rd3], %r3;\n"
    "  shfl.sync.down.b32 %r4|%p1, %r2, 32, 31, -1;\n  st.global.u32 [%rd3+4], %r4;\n"
    "  selp.u32 %r5, 1, 0, %p1;\n  st.global.u32 [%rd3+8], %r5;\n"
    "  shfl.sync.idx.b32 %r6, %r2, 3, 4127, -1;\n  st.global.u32 [%rd3+12], %r6;\n"
    "  mov.u32 %r7, WARP_SZ;\n  sub.u32 %r7, %r7, 16;\n  shl.b32 %r7, %r7, 8;\n  or.b32 %r7, %r7, 31;\n"
    "  shfl.sync.idx.b32 %r8, %r2, 3, %r7, -1;\n  st.global.u32 [%rd3+16], %r8;\n"
    "  shfl.sync.bfly.b32 %r9, %r2, 32, 31, -1;\n  st.global.u32 [%rd3+20], %r9;\n"
    "  rem.u32 %r10, %r1, 3;\n  setp.eq.u32 %p2, %r10, 0;\n"
    "  vote.sync.ballot.b32 %r11, %p2, -1;\n  st.global.u32 [%rd3+24], %r11;\n"
    "  setp.eq.u32 %p3, %r1, 40;\n  vote.sync.any.pred %p4, %p3, -1;\n"
    "  selp.u32 %r12, 1, 0, %p4;\n  st.global.u32 [%rd3+28], %r12;\n"
    "  setp.ne.u32 %p5, %r1, 70;\n  vote.sync.all.pred %p6, %p5, -1;\n"
    "  selp.u32 %r13, 1, 0, %p6;\n  st.global.u32 [%rd3+32], %r13;\n"
    "  and.b32 %r14, %r1, 63;\n  setp.lt.u32 %p7, %r14, 32;\n  mov.u32 %r15, -1;\n"
    "  @%p7 bra SKIP;\n  activemask.b32 %r15;\nSKIP:\n  st.global.u32 [%rd3+36], %r15;\n"
    "  redux.sync.add.u32 %r16, %r1, -1;\n  st.global.u32 [%rd3+40], %r16;\n"
    "  elect.sync %r17|%p1, -1;\n  st.global.u32 [%rd3+44], %r17;\n"
    "  ret;\n}\n";

static void test_collectives(void)
{
    cb_translation *tr = translate(coll_ptx, 64);
    if (!tr)
        return;
    void *mod = tu_load(be, tr, NULL);
    if (!mod)
        goto out;
    static uint32_t got[128 * 12];
    memset(got, 0xee, sizeof got);
    tu_params p = {0};
    TU_PARAM(&p, (uint64_t)(uintptr_t)got);
    cb_launch_error err;
    CUresult r = tu_launch(be, mod, 0, 1, 128, p.buf, p.len, &err);
    TU_CHECK(r == CUDA_SUCCESS, "collectives: %d %s", (int)r, err.message);
    for (uint32_t t = 0; t < 128 && r == CUDA_SUCCESS; t++) {
        uint32_t l = t % 64, w0 = t - l, *o = got + t * 12;
#define V(lane) ((w0 + (lane)) * 10 + 7)
        uint32_t ballot = 0, sum = 0;
        for (uint32_t k = 0; k < 32; k++)   /* the low 32 lanes of the 64-lane ballot */
            ballot |= (uint32_t)((w0 + k) % 3 == 0) << k;
        for (uint32_t k = 0; k < 64; k++)
            sum += w0 + k;
        uint32_t want[12] = {V(0), l < 32 ? V(l + 32) : V(l), l < 32, V((l & ~15u) + 3), V((l & ~15u) + 3),
                             V(l ^ 32), ballot, w0 == 0, w0 == 0, l < 32 ? 0xffffffffu : 0, sum, 0};
#undef V
        for (int i = 0; i < 12; i++)
            if (o[i] != want[i]) {
                TU_CHECK(0, "collectives thread %u value %d: %08x, want %08x", t, i, o[i], want[i]);
                t = 128;
                break;
            }
    }
    be->module_unload(be, mod);
out:
    cb_translation_free(tr);
}

/* A partial mask: 0x0000ffff names lanes 0..15 and 32..47; those lanes shfl.down by 1
 * within it and ballot; the others exit (lanes 48..63 are outside the mask anyway). */
static const char partial_ptx[] = PTX_HEAD
    ".visible .entry partial(.param .u64 out)\n{\n"
    "  .reg .pred %p<4>; .reg .b32 %r<20>; .reg .b64 %rd<8>;\n"
    "  mov.u32 %r1, %tid.x;\n  and.b32 %r2, %r1, 16;\n  setp.ne.u32 %p1, %r2, 0;\n  @%p1 bra DONE;\n"
    "  ld.param.u64 %rd1, [out];\n  mul.wide.u32 %rd2, %r1, 8;\n  add.u64 %rd3, %rd1, %rd2;\n"
    "  shfl.sync.down.b32 %r3, %r1, 1, 31, 65535;\n  st.global.u32 [%rd3], %r3;\n"
    "  and.b32 %r4, %r1, 1;\n  setp.eq.u32 %p2, %r4, 1;\n"
    "  vote.sync.ballot.b32 %r5, %p2, 65535;\n  st.global.u32 [%rd3+4], %r5;\n"
    "DONE:\n  ret;\n}\n";

static void test_partial_mask(void)
{
    cb_translation *tr = translate(partial_ptx, 64);
    if (!tr)
        return;
    void *mod = tu_load(be, tr, NULL);
    if (!mod)
        goto out;
    static uint32_t got[64 * 2];
    memset(got, 0xee, sizeof got);
    tu_params p = {0};
    TU_PARAM(&p, (uint64_t)(uintptr_t)got);
    cb_launch_error err;
    CUresult r = tu_launch(be, mod, 0, 1, 64, p.buf, p.len, &err);
    TU_CHECK(r == CUDA_SUCCESS, "partial mask: %d %s", (int)r, err.message);
    for (uint32_t t = 0; t < 64 && r == CUDA_SUCCESS; t++) {
        if (t & 16)
            continue;
        /* down 1: lane 15 reads lane 16, which is not in the mask: its own value (lane 47 likewise) */
        uint32_t down = (t & 15) == 15 ? t : t + 1;
        TU_CHECK(got[2 * t] == down && got[2 * t + 1] == 0xaaaau, "partial mask thread %u: %u %08x", t, got[2 * t],
                 got[2 * t + 1]);
    }
    be->module_unload(be, mod);
out:
    cb_translation_free(tr);
}

/* movmatrix: its fragment is defined over 32 lanes: NOT_SUPPORTED at 64. */
static const char movmatrix_ptx[] = PTX_HEAD
    ".visible .entry mov(.param .u64 out)\n{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  movmatrix.sync.aligned.m8n8.trans.b16 %r2, %r1;\n"
    "  ld.param.u64 %rd1, [out];\n  st.global.u32 [%rd1], %r2;\n"
    "  ret;\n}\n";

static void test_fragment_refused(void)
{
    cb_translation *tr = translate(movmatrix_ptx, 64);
    if (!tr)
        return;
    void *mod = tu_load(be, tr, NULL);
    if (!mod)
        goto out;
    uint32_t sink = 0;
    tu_params p = {0};
    TU_PARAM(&p, (uint64_t)(uintptr_t)&sink);
    cb_launch_error err;
    CUresult r = tu_launch(be, mod, 0, 1, 64, p.buf, p.len, &err);
    TU_CHECK(r == CUDA_ERROR_NOT_SUPPORTED, "movmatrix at 64 lanes: %d, want NOT_SUPPORTED (%s)", (int)r, err.message);
    TU_CHECK(strstr(err.message, "movmatrix under 64-lane warps") != NULL, "movmatrix message: %s", err.message);
    be->module_unload(be, mod);
out:
    cb_translation_free(tr);
}

/* The settings: CUBRIDGE_WARP_SIZE, widths the backend and translator refuse,
 * and the C text that the JIT cache keys on. */
static void test_settings(void)
{
    char err[256] = "";
    unsetenv("CUBRIDGE_WARP_SIZE");
    TU_CHECK(cb_backend_env_warp_size(err, sizeof err) == 32, "unset: not 32");
    setenv("CUBRIDGE_WARP_SIZE", "64", 1);
    TU_CHECK(cb_backend_env_warp_size(err, sizeof err) == 64, "64: not 64");
    setenv("CUBRIDGE_WARP_SIZE", "48", 1);
    TU_CHECK(cb_backend_env_warp_size(err, sizeof err) == -1 && strstr(err, "must be 32 or 64"), "48: %s", err);
    /* the registry's cpu device does not start under a bad width, and names it */
    cb_backend *bad = cb_backend_create("cpu", err, sizeof err);
    TU_CHECK(!bad && strstr(err, "CUBRIDGE_WARP_SIZE=48"), "cpu under 48 lanes: %p %s", (void *)bad, err);
    if (cb_backend_find("opencl")) {   /* never 32 in place of 64 */
        setenv("CUBRIDGE_WARP_SIZE", "64", 1);
        bad = cb_backend_create("opencl", err, sizeof err);
        TU_CHECK(!bad && strstr(err, "not supported by the opencl backend"), "opencl under 64 lanes: %s", err);
    }
    setenv("CUBRIDGE_WARP_SIZE", "64", 1);
    cb_backend *b64 = cb_backend_create("cpu", err, sizeof err);
    TU_CHECK(b64 && b64->warp_size == 64, "the registry's cpu device under 64: %s", err);
    if (b64)
        b64->shutdown(b64);
    unsetenv("CUBRIDGE_WARP_SIZE");
    TU_CHECK(cb_cpu_set_warp_size(be, 48) == -1, "the backend took 48 lanes");
    cb_device_info info;
    be->device_info(be, &info);
    TU_CHECK(info.warp_size == 64 && be->warp_size == 64 && be->lanes == CB_LANES_NONE, "device info %d/%d/%d",
             info.warp_size, be->warp_size, be->lanes);
    cb_translation *tr = NULL;
    cb_translate_opts opts = {.warp_size = 48};
    int rc = cb_translate_ptx_opts(specials_ptx, strlen(specials_ptx), "w.ptx", CB_DIALECT_C, &opts, &tr, err, sizeof err);
    TU_CHECK(rc == -2 && !tr, "warp size 48 translated: %d", rc);
    opts.warp_size = 64;
    rc = cb_translate_ptx_opts(specials_ptx, strlen(specials_ptx), "w.ptx", CB_DIALECT_OPENCL, &opts, &tr, err, sizeof err);
    TU_CHECK(rc == -2 && !tr, "OpenCL took 64-lane warps: %d", rc);
    cb_translation *t32 = translate(specials_ptx, 32), *t64 = translate(specials_ptx, 64);
    if (t32 && t64) {
        TU_CHECK(strcmp(t32->source, t64->source) != 0, "the same C for 32 and 64 lanes");
        TU_CHECK(strstr(t32->source, "64-lane") == NULL && strstr(t64->source, "(cbB_flat & 63u)"),
                 "the C does not follow the width");
    }
    cb_translation_free(t32);
    cb_translation_free(t64);
}

int main(void)
{
    char dir[512];
    tu_fresh_cache(dir, sizeof dir);
    be = cb_backend_cpu_create();
    if (!be)
        return 1;
    TU_CHECK(cb_cpu_set_warp_size(be, 64) == 0, "cannot set 64 lanes");
    test_specials();
    test_collectives();
    test_partial_mask();
    test_fragment_refused();
    test_settings();
    be->shutdown(be);
    cb_fs_remove_flat_dir(dir);
    if (tu_failures)
        return 1;
    printf("ok\n");
    return 0;
}
