/* test_cpu_converge: warp convergence points through the real pipeline
 * (cb_translate_ptx -> C -> host compiler -> CPU backend), hand-written PTX:
 *   - activemask in nested divergent branches, in a loop with per-lane trip
 *     counts and after it, in a loop whose body branches (lanes of the next
 *     iteration wait for the branch's lanes), after a break, in a .func
 *     called from both sides of a branch, after lanes exited;
 *   - vote and shfl without .sync (their mask is the lanes on that path);
 *   - a volatile store on one side of a branch is seen by a volatile load
 *     after the join (the join waits for that side);
 *   - lanes spinning on a volatile flag that a lane on the other side of a
 *     branch sets make progress (the sides are not ordered);
 *   - an irreducible loop still runs (its sites are unordered).
 * Every mask is the one an IPDOM-reconverging GPU gives (docs/cpu-backend.md),
 * checked exactly, in full and partial warps. */
#include "test_cpu_util.h"

#include "codegen/translate.h"

static cb_backend *be;

#define PTX_HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"
#define SLOTS 8
#define FILL 0xdeadbeefu

/* Each kernel writes out[tid * 8 + slot]. */
#define PRO(name)                                                           \
    ".visible .entry " name "(.param .u64 out)\n{\n"                        \
    "  .reg .pred %p<10>; .reg .b32 %r<40>; .reg .b64 %rd<10>;\n"           \
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r0, %tid.x;\n  mov.u32 %r1, %laneid;\n"
#define ST(slot, reg)                                                      \
    "  mad.lo.u32 %r30, %r0, 8, " #slot ";\n  mul.wide.u32 %rd2, %r30, 4;\n" \
    "  add.u64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], " reg ";\n"
#define ST_R(slotreg, reg)                                                     \
    "  mad.lo.u32 %r30, %r0, 8, " slotreg ";\n  mul.wide.u32 %rd2, %r30, 4;\n" \
    "  add.u64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], " reg ";\n"

static const char conv_ptx[] = PTX_HEAD
    /* a .func whose activemask is stored at [addr] */
    ".func fsite(.param .b64 fsite_addr)\n{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [fsite_addr];\n  activemask.b32 %r1;\n  st.global.u32 [%rd1], %r1;\n  ret;\n}\n"
    /* 0: nested branches: slot 0 lane%4==3, 1 lane%4==1, 2 odd, 3 even, 4 after */
    PRO("nested")
    "  and.b32 %r2, %r1, 1;\n  setp.eq.u32 %p1, %r2, 0;\n  @%p1 bra EVEN;\n"
    "  and.b32 %r3, %r1, 2;\n  setp.eq.u32 %p2, %r3, 0;\n  @%p2 bra ODD_B;\n"
    "  activemask.b32 %r4;\n" ST(0, "%r4") "  bra ODD_END;\n"
    "ODD_B:\n  activemask.b32 %r4;\n" ST(1, "%r4")
    "ODD_END:\n  activemask.b32 %r4;\n" ST(2, "%r4") "  bra END;\n"
    "EVEN:\n  activemask.b32 %r4;\n" ST(3, "%r4")
    "END:\n  activemask.b32 %r4;\n" ST(4, "%r4") "  ret;\n}\n"
    /* 1: lane%4+1 trips: slot i in iteration i, slot 7 after the loop */
    PRO("trips")
    "  and.b32 %r2, %r1, 3;\n  add.u32 %r2, %r2, 1;\n  mov.u32 %r20, 0;\n"
    "LOOP:\n  activemask.b32 %r4;\n" ST_R("%r20", "%r4")
    "  add.u32 %r20, %r20, 1;\n  setp.lt.u32 %p1, %r20, %r2;\n  @%p1 bra LOOP;\n"
    "  activemask.b32 %r4;\n" ST(7, "%r4") "  ret;\n}\n"
    /* 2: three iterations; at the top slot i, odd lanes also slot 3+i */
    PRO("loopbranch")
    "  mov.u32 %r20, 0;\n"
    "LOOP:\n  activemask.b32 %r4;\n" ST_R("%r20", "%r4")
    "  and.b32 %r2, %r1, 1;\n  setp.eq.u32 %p1, %r2, 0;\n  @%p1 bra SKIP;\n"
    "  activemask.b32 %r5;\n  add.u32 %r21, %r20, 3;\n" ST_R("%r21", "%r5")
    "SKIP:\n  add.u32 %r20, %r20, 1;\n  setp.lt.u32 %p2, %r20, 3;\n  @%p2 bra LOOP;\n  ret;\n}\n"
    /* 3: if/else (lanes < 16 write s[tid] volatile), a volatile load of s[tid & ~16] after the join:
     * slot 0 high side, 1 low side, 2 the value read, 3 after the join */
    ".visible .entry sides(.param .u64 out)\n{\n"
    "  .reg .pred %p<10>; .reg .b32 %r<40>; .reg .b64 %rd<10>;\n  .shared .align 4 .b32 s[256];\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r0, %tid.x;\n  mov.u32 %r1, %laneid;\n"
    "  mov.u32 %r10, s;\n  shl.b32 %r11, %r0, 2;\n  add.u32 %r12, %r10, %r11;\n"
    "  st.shared.u32 [%r12], 7;\n  bar.sync 0;\n"
    "  setp.lt.u32 %p1, %r1, 16;\n  @%p1 bra LO;\n"
    "  activemask.b32 %r4;\n" ST(0, "%r4") "  bra JOIN;\n"
    "LO:\n  activemask.b32 %r4;\n" ST(1, "%r4")
    "  add.u32 %r13, %r0, 100;\n  st.volatile.shared.u32 [%r12], %r13;\n"
    "JOIN:\n  and.b32 %r14, %r0, 0xFFFFFFEF;\n  shl.b32 %r15, %r14, 2;\n  add.u32 %r16, %r10, %r15;\n"
    "  ld.volatile.shared.u32 %r17, [%r16];\n" ST(2, "%r17")
    "  activemask.b32 %r4;\n" ST(3, "%r4") "  ret;\n}\n"
    /* 4: fsite from both sides of a branch (slot 0 lanes < 8, slot 1 the rest) and after it (slot 2) */
    PRO("calls")
    "  setp.lt.u32 %p1, %r1, 8;\n  @%p1 bra A;\n"
    "  mad.lo.u32 %r30, %r0, 8, 1;\n  mul.wide.u32 %rd2, %r30, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
    "  { .param .b64 param0; st.param.b64 [param0+0], %rd3; call.uni fsite, (param0); }\n  bra J;\n"
    "A:\n  mad.lo.u32 %r30, %r0, 8, 0;\n  mul.wide.u32 %rd2, %r30, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
    "  { .param .b64 param0; st.param.b64 [param0+0], %rd3; call.uni fsite, (param0); }\n"
    "J:\n  mad.lo.u32 %r30, %r0, 8, 2;\n  mul.wide.u32 %rd2, %r30, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
    "  { .param .b64 param0; st.param.b64 [param0+0], %rd3; call.uni fsite, (param0); }\n  ret;\n}\n"
    /* 5: i = 0, 1, ...: break when i == lane % 3, else slot i; slot 6 after the loop; lanes >= 24 return
     * first, then slot 7 (after their exit) */
    PRO("breaks")
    "  setp.ge.u32 %p3, %r1, 24;\n  @%p3 bra OUT;\n"
    "  mul.hi.u32 %r2, %r1, 0xAAAAAAAB;\n  shr.u32 %r2, %r2, 1;\n  mul.lo.u32 %r2, %r2, 3;\n"
    "  sub.u32 %r2, %r1, %r2;\n  mov.u32 %r20, 0;\n"                  /* r2 = lane % 3 */
    "LOOP:\n  setp.eq.u32 %p1, %r20, %r2;\n  @%p1 bra DONE;\n"
    "  activemask.b32 %r4;\n" ST_R("%r20", "%r4")
    "  add.u32 %r20, %r20, 1;\n  bra LOOP;\n"
    "DONE:\n  activemask.b32 %r4;\n" ST(6, "%r4")
    "  activemask.b32 %r4;\n" ST(7, "%r4")
    "OUT:\n  ret;\n}\n"
    /* 6: vote.ballot and shfl.idx without .sync on lanes < 20: slot 0 ballot of odd lanes, slot 1 shfl from
     * lane 4 (in range), slot 2 shfl from lane 25 (not on the path: the reader's own value) */
    PRO("legacy")
    "  setp.ge.u32 %p1, %r1, 20;\n  @%p1 bra OUT;\n"
    "  and.b32 %r2, %r1, 1;\n  setp.ne.u32 %p2, %r2, 0;\n"
    "  vote.ballot.b32 %r4, %p2;\n" ST(0, "%r4")
    "  add.u32 %r5, %r0, 1000;\n"
    "  shfl.idx.b32 %r6, %r5, 4, 31;\n" ST(1, "%r6")
    "  shfl.idx.b32 %r7, %r5, 25, 31;\n" ST(2, "%r7")
    "OUT:\n  ret;\n}\n"
    /* 7: lane 0 spins until lane 1 (the other side) sets a volatile flag; slot 0: the flag it saw */
    ".visible .entry spin(.param .u64 out)\n{\n"
    "  .reg .pred %p<10>; .reg .b32 %r<40>; .reg .b64 %rd<10>;\n  .shared .align 4 .b32 flag[8];\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r0, %tid.x;\n  mov.u32 %r1, %laneid;\n"
    "  mov.u32 %r10, flag;\n  shr.u32 %r11, %r0, 5;\n  shl.b32 %r11, %r11, 2;\n  add.u32 %r12, %r10, %r11;\n"
    "  setp.ne.u32 %p9, %r1, 0;\n  @%p9 bra NOINIT;\n  st.shared.u32 [%r12], 0;\nNOINIT:\n  bar.sync 0;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n  @%p1 bra WAIT;\n"
    "  setp.ne.u32 %p2, %r1, 1;\n  @%p2 bra END;\n"
    "  st.volatile.shared.u32 [%r12], 42;\n  bra END;\n"
    "WAIT:\n  ld.volatile.shared.u32 %r4, [%r12];\n  setp.eq.u32 %p3, %r4, 0;\n  @%p3 bra WAIT;\n"
    ST(0, "%r4")
    "END:\n  ret;\n}\n"
    /* 8: an irreducible loop (entered at its top or its middle); every lane takes the same path
     * (two trips entered in the middle): slots 0, 1 in the loop, 2 after */
    PRO("irreducible")
    "  mov.u32 %r20, 0;\n  setp.ge.u32 %p1, %r0, 0;\n  @%p1 bra MID;\n"
    "TOP:\n  add.u32 %r20, %r20, 1;\n"
    "MID:\n  activemask.b32 %r4;\n" ST_R("%r20", "%r4")
    "  setp.lt.u32 %p2, %r20, 1;\n  @%p2 bra TOP;\n"
    "  activemask.b32 %r4;\n" ST(2, "%r4") "  ret;\n}\n";

enum { K_NESTED, K_TRIPS, K_LOOPBRANCH, K_SIDES, K_CALLS, K_BREAKS, K_LEGACY, K_SPIN, K_IRREDUCIBLE, K_COUNT };
static const char *const names[K_COUNT] = {"nested", "trips", "loopbranch", "sides", "calls",
                                           "breaks", "legacy", "spin", "irreducible"};

/* The lanes of warp w of an n-thread block that exist. */
static uint32_t present(uint32_t n, uint32_t w)
{
    uint32_t k = n - w * 32 < 32 ? n - w * 32 : 32;
    return k == 32 ? 0xffffffffu : (1u << k) - 1;
}

/* Lanes l of `lanes` with pred(l). */
#define LANES_WHERE(lanes, cond)                          \
    ({                                                    \
        uint32_t m_ = 0;                                  \
        for (uint32_t l = 0; l < 32; l++)                 \
            if (((lanes) >> l & 1) && (cond))             \
                m_ |= 1u << l;                            \
        m_;                                               \
    })

static void expect(uint32_t k, uint32_t n, uint32_t *want)
{
    for (uint32_t i = 0; i < n * SLOTS; i++)
        want[i] = FILL;
    for (uint32_t t = 0; t < n; t++) {
        uint32_t lane = t % 32, all = present(n, t / 32), *o = &want[t * SLOTS];
        switch (k) {
        case K_NESTED:
            if (lane & 1) {
                o[(lane & 2) ? 0 : 1] = LANES_WHERE(all, (l & 3) == (lane & 3));
                o[2] = LANES_WHERE(all, l & 1);
            } else {
                o[3] = LANES_WHERE(all, !(l & 1));
            }
            o[4] = all;
            break;
        case K_TRIPS:
            for (uint32_t i = 0; i < lane % 4 + 1; i++)
                o[i] = LANES_WHERE(all, l % 4 + 1 > i);
            o[7] = all;
            break;
        case K_LOOPBRANCH:
            for (uint32_t i = 0; i < 3; i++) {
                o[i] = all;
                if (lane & 1)
                    o[3 + i] = LANES_WHERE(all, l & 1);
            }
            break;
        case K_SIDES:
            o[lane < 16 ? 1 : 0] = LANES_WHERE(all, (l < 16) == (lane < 16));
            o[2] = (t & ~16u) + 100;
            o[3] = all;
            break;
        case K_CALLS:
            o[lane < 8 ? 0 : 1] = LANES_WHERE(all, (l < 8) == (lane < 8));
            o[2] = all;
            break;
        case K_BREAKS: {
            if (lane >= 24)
                break;
            uint32_t live = LANES_WHERE(all, l < 24);
            for (uint32_t i = 0; i < lane % 3; i++)
                o[i] = LANES_WHERE(live, l % 3 > i);
            o[6] = o[7] = live;
            break;
        }
        case K_LEGACY: {
            if (lane >= 20)
                break;
            uint32_t path = LANES_WHERE(all, l < 20);
            o[0] = LANES_WHERE(path, l & 1);
            o[1] = (path >> 4 & 1) ? t - lane + 4 + 1000 : t + 1000;
            o[2] = t + 1000;
            break;
        }
        case K_SPIN:
            if (lane == 0)
                o[0] = (all >> 1 & 1) ? 42 : FILL;
            break;
        case K_IRREDUCIBLE:
            o[0] = o[1] = o[2] = all;
            break;
        }
    }
}

static void run(void *mod, uint32_t k, uint32_t n)
{
    if (k == K_SPIN && n % 32 == 1)
        return;   /* a lone lane 0 would spin forever (as on a GPU) */
    uint32_t *got = malloc(sizeof(uint32_t) * n * SLOTS), *want = malloc(sizeof(uint32_t) * n * SLOTS);
    for (uint32_t i = 0; i < n * SLOTS; i++)
        got[i] = FILL;
    expect(k, n, want);
    tu_params p = {0};
    TU_PARAM(&p, (uint64_t)(uintptr_t)got);
    cb_launch_error err;
    CUresult r = tu_launch(be, mod, k, 2, n, p.buf, p.len, &err);
    TU_CHECK(r == CUDA_SUCCESS, "%s (%u threads): launch %d %s", names[k], n, (int)r, err.message);
    TU_CHECK(err.warnings == 0, "%s (%u threads): unexpected warning %s", names[k], n, err.warning);
    int bad = 0;
    for (uint32_t i = 0; i < n * SLOTS && bad < 4; i++)
        if (got[i] != want[i]) {
            TU_CHECK(0, "%s (%u threads): thread %u slot %u: 0x%08x, want 0x%08x", names[k], n, i / SLOTS, i % SLOTS,
                     got[i], want[i]);
            bad++;
        }
    free(got);
    free(want);
}

int main(void)
{
    char dir[512];
    tu_fresh_cache(dir, sizeof dir);
    be = cb_backend_cpu_create();
    if (!be)
        return 1;
    char err[1024];
    cb_translation *tr = NULL;
    if (cb_translate_ptx(conv_ptx, strlen(conv_ptx), "converge.ptx", CB_DIALECT_C, &tr, err, sizeof err) != 0) {
        TU_CHECK(0, "translate: %s", err);
    } else {
        void *mod = tu_load(be, tr, NULL);
        TU_CHECK(mod != NULL, "load");
        static const uint32_t sizes[] = {32, 64, 48, 7, 100};
        for (uint32_t k = 0; mod && k < K_COUNT; k++) {
            TU_CHECK(tr->kernels[k].needs_fibers == 1, "%s needs fibers", names[k]);
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
                run(mod, k, sizes[s]);
        }
        if (mod)
            be->module_unload(be, mod);
        cb_translation_free(tr);
    }
    be->shutdown(be);
    cb_fs_remove_flat_dir(dir);
    if (tu_failures)
        return 1;
    printf("ok\n");
    return 0;
}
