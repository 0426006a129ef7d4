/* Warp collectives and barriers on the CPU backend: shfl in all four modes
 * (clamp, segments, out-of-range sources), vote all/any/uni/ballot, partial
 * masks running side by side, activemask, partial warps, bar.red, named
 * barriers with counts, exited threads counting as arrived, exited lanes
 * named in a warp collective's mask counting as arrived (with the launch's
 * warning); and the errors: a caller outside its mask, a live lane that
 * never arrives (a deadlock). */
#include "test_cpu_util.h"

static const char *kernels =
    /* 0: d = shfl(mode, a = flat*10+7, b, c, full mask); out[2*flat] = d, out[2*flat+1] = pred */
    "void cbk_0(cb_thread *t) {\n"
    "  uint32_t *out = PARAM(uint32_t *, 0); int mode = PARAM(int, 8);\n"
    "  uint32_t b = PARAM(uint32_t, 12), c = PARAM(uint32_t, 16), p = 7;\n"
    "  uint32_t d = RT->shfl(t, mode, t->flat * 10 + 7, b, c, 0xffffffffu, &p);\n"
    "  out[2 * t->flat] = d; out[2 * t->flat + 1] = p;\n"
    "}\n"
    /* 1: votes; out[8*flat + k] */
    "void cbk_1(cb_thread *t) {\n"
    "  uint32_t *out = PARAM(uint32_t *, 0); uint32_t *o = out + 8 * t->flat;\n"
    "  uint32_t pred = t->flat % 3 == 0;\n"
    "  o[0] = RT->vote(t, CB_VOTE_ALL, pred, 0xffffffffu);\n"
    "  o[1] = RT->vote(t, CB_VOTE_ANY, pred, 0xffffffffu);\n"
    "  o[2] = RT->vote(t, CB_VOTE_UNI, pred, 0xffffffffu);\n"
    "  o[3] = RT->vote(t, CB_VOTE_BALLOT, pred, 0xffffffffu);\n"
    "  o[4] = RT->vote(t, CB_VOTE_ALL, 1, 0xffffffffu);\n"
    "  if (t->lane < 16) o[5] = RT->vote(t, CB_VOTE_BALLOT, t->lane & 1, 0x0000ffffu);\n"
    "  else { RT->warp_sync(t, 0xffff0000u); o[5] = RT->vote(t, CB_VOTE_BALLOT, t->lane % 4 == 0, 0xffff0000u); }\n"
    "  o[6] = RT->activemask(t);\n"
    "  o[7] = RT->vote(t, CB_VOTE_UNI, 1, 0xffffffffu);\n"
    "}\n"
    /* 2: lane `who` exits, the others shfl, vote, __syncwarp, match and redux with the full mask (who >= 32:
     * lanes < who-32 exit; who >= 64: lane who-64 exits after a first shfl, while the others wait at a second) */
    "void cbk_2(cb_thread *t) {\n"
    "  uint32_t who = PARAM(uint32_t, 0); uint32_t *out = PARAM(uint32_t *, 8);\n"
    "  if (who >= 64) {\n"
    "    uint32_t d = RT->shfl(t, CB_SHFL_DOWN, t->flat * 10 + 7, 1, 0x1f, 0xffffffffu, 0);\n"
    "    if (t->lane == who - 64) return;\n"
    "    out[t->flat] = RT->shfl(t, CB_SHFL_DOWN, d, 1, 0x1f, 0xffffffffu, 0);\n"
    "    return;\n"
    "  }\n"
    "  if (who < 32 ? t->lane == who : t->lane < who - 32) return;\n"
    "  uint32_t p = 7;\n"
    "  out[t->flat] = RT->shfl(t, CB_SHFL_DOWN, t->flat * 10 + 7, 1, 0x1f, 0xffffffffu, &p);\n"
    "  out[64 + t->flat] = RT->vote(t, CB_VOTE_BALLOT, 1, 0xffffffffu);\n"
    "  out[128 + t->flat] = RT->vote(t, CB_VOTE_ALL, 1, 0xffffffffu);\n"
    "  RT->warp_sync(t, 0xffffffffu);\n"
    "  out[192 + t->flat] = p;\n"
    "}\n"
    /* 3: deadlock: mode 0: warps wait at different block barriers; mode 1: half a warp waits at a shfl, the other half at a barrier */
    "void cbk_3(cb_thread *t) {\n"
    "  int mode = PARAM(int, 0);\n"
    "  if (mode == 0) RT->bar_sync(t, t->warp == 0 ? 0 : 1, 0);\n"
    "  else if (t->warp == 0 && t->lane < 16) RT->shfl(t, CB_SHFL_IDX, 1, 0, 0x1f, 0xffffffffu, 0);\n"
    "  else RT->bar_sync(t, 0, 0);\n"
    "}\n"
    /* 4: lane 1 calls shfl with a mask that leaves it out */
    "void cbk_4(cb_thread *t) {\n"
    "  if (t->lane == 1) RT->shfl(t, CB_SHFL_IDX, 1, 0, 0x1f, 0x1u, 0);\n"
    "}\n"
    /* 5: bar.red, exits counting as arrived, producer/consumer on a named barrier */
    "void cbk_5(cb_thread *t) {\n"
    "  uint32_t *out = PARAM(uint32_t *, 0); volatile uint32_t *sh = (volatile uint32_t *)t->blk->shared;\n"
    "  uint32_t pred = t->flat % 2;\n"
    "  uint32_t popc = RT->bar_red(t, 0, 0, CB_RED_POPC, pred);\n"
    "  uint32_t all = RT->bar_red(t, 2, 0, CB_RED_AND, pred);\n"
    "  uint32_t any = RT->bar_red(t, 3, 0, CB_RED_OR, pred);\n"
    "  out[4 * t->flat] = popc; out[4 * t->flat + 1] = all; out[4 * t->flat + 2] = any;\n"
    "  if (t->warp == 0) { sh[t->lane] = t->lane * 3 + 1; RT->bar_arrive(t, 1, 64); }\n"
    "  else if (t->warp == 1) { RT->bar_sync(t, 1, 64); out[4 * t->flat + 3] = sh[t->lane]; }\n"
    "  if (t->flat >= 40) return;\n"
    "  for (int i = 0; i < 3; i++) RT->bar_sync(t, 0, 0);\n"
    "  out[4 * t->flat + 3] += 1000;\n"
    "}\n"
    /* 6: a whole warp reduction with shfl.down inside a loop, per warp */
    "void cbk_6(cb_thread *t) {\n"
    "  uint32_t *out = PARAM(uint32_t *, 0); uint32_t v = t->flat + 1;\n"
    "  for (uint32_t off = 16; off > 0; off >>= 1) v += RT->shfl(t, CB_SHFL_DOWN, v, off, 0x1f, 0xffffffffu, 0);\n"
    "  if (t->lane == 0) out[t->warp] = v;\n"
    "}\n";

static const tu_kernel infos[] = {
    {"shfl", 1, 0, 20}, {"vote", 1, 0, 8},   {"exit_in_mask", 1, 0, 16}, {"deadlock", 1, 0, 4},
    {"not_in_mask", 1, 0, 0}, {"bar_red", 1, 256, 8}, {"warp_reduce", 1, 0, 8},
};

static cb_backend *be;
static void *mod;

/* The CUDA-level meaning of a shfl with a width (independent of the PTX
 * c-operand encoding that the backend decodes). */
static void expect_shfl(int mode, uint32_t lane, uint32_t arg, uint32_t width, uint32_t *src, uint32_t *valid)
{
    uint32_t seg = lane & ~(width - 1);
    *valid = 1;
    switch (mode) {
    case CB_SHFL_UP: *src = lane - arg; *valid = lane >= seg + arg; break;
    case CB_SHFL_DOWN: *src = lane + arg; *valid = lane + arg < seg + width; break;
    case CB_SHFL_BFLY: *src = lane ^ arg; *valid = (lane ^ arg) < seg + width; break;
    default: *src = seg + arg % width; break;
    }
    if (!*valid)
        *src = lane;
}

static void run_shfl(int mode, uint32_t b, uint32_t c, uint32_t nthreads, uint32_t *out)
{
    tu_params p = {0};
    TU_PARAM(&p, out);
    TU_PARAM(&p, mode);
    TU_PARAM(&p, b);
    TU_PARAM(&p, c);
    cb_launch_error err;
    CUresult r = tu_launch(be, mod, 0, 2, nthreads, p.buf, p.len, &err);
    TU_CHECK(r == CUDA_SUCCESS, "shfl launch mode %d: %d %s", mode, (int)r, err.message);
}

static void test_shfl_widths(void)
{
    static const char *names[] = {"up", "down", "bfly", "idx"};
    uint32_t out[2 * 64];
    for (int mode = 0; mode < 4; mode++)
        for (uint32_t width = 1; width <= 32; width *= 2)
            for (uint32_t arg = 0; arg < 33; arg += (arg < 5 ? 1 : 7)) {
                uint32_t shfl_arg = mode == CB_SHFL_IDX || mode == CB_SHFL_BFLY ? arg & 31 : arg;
                if (shfl_arg >= 32)
                    continue;
                /* CUDA's encoding: up puts 0 in the clamp, the others width-1. */
                uint32_t c = ((32 - width) << 8) | (mode == CB_SHFL_UP ? 0 : 0x1f);
                run_shfl(mode, shfl_arg, c, 64, out);
                for (uint32_t flat = 0; flat < 64; flat++) {
                    uint32_t lane = flat % 32, src, valid;
                    expect_shfl(mode, lane, shfl_arg, width, &src, &valid);
                    uint32_t want = (flat - lane + src) * 10 + 7;
                    if (out[2 * flat] != want || out[2 * flat + 1] != valid) {
                        TU_CHECK(0, "shfl.%s width %u arg %u lane %u: got %u/%u, want %u/%u", names[mode], width,
                                 shfl_arg, lane, out[2 * flat], out[2 * flat + 1], want, valid);
                        return;
                    }
                }
            }
}

static void test_shfl_specials(void)
{
    uint32_t out[2 * 64];
    /* A clamp below the warp end, no segments: down by 4 with c = 15: lanes 0..11 read lane+4,
     * lanes 12..31 keep their own value with the predicate false. */
    run_shfl(CB_SHFL_DOWN, 4, 15, 64, out);
    for (uint32_t lane = 0; lane < 32; lane++) {
        uint32_t valid = lane + 4 <= 15, src = valid ? lane + 4 : lane;
        TU_CHECK(out[2 * lane] == src * 10 + 7 && out[2 * lane + 1] == valid, "clamped down lane %u: %u/%u", lane,
                 out[2 * lane], out[2 * lane + 1]);
    }
    /* idx beyond the clamp: source lane 20 with c = 15 is out of range. */
    run_shfl(CB_SHFL_IDX, 20, 15, 64, out);
    TU_CHECK(out[2 * 3] == 37 && out[2 * 3 + 1] == 0, "idx out of range: %u/%u", out[6], out[7]);
    /* A partial warp (48 threads): lane 10 of warp 1 shfl.down 8 names lane 18, which does not exist: own value. */
    run_shfl(CB_SHFL_DOWN, 8, 0x1f, 48, out);
    TU_CHECK(out[2 * 42] == 427 && out[2 * 41] == 417 + 0 * 80 && out[2 * 33] == 417, "partial warp: %u %u %u",
             out[2 * 42], out[2 * 41], out[2 * 33]);
}

static void test_vote(void)
{
    uint32_t out[8 * 64];
    tu_params p = {0};
    TU_PARAM(&p, &out[0]);
    cb_launch_error err;
    CUresult r = tu_launch(be, mod, 1, 3, 64, p.buf, p.len, &err);
    TU_CHECK(r == CUDA_SUCCESS, "vote launch: %d %s", (int)r, err.message);
    for (uint32_t flat = 0; flat < 64; flat++) {
        uint32_t *o = out + 8 * flat, lane = flat % 32, w = flat / 32;
        uint32_t ballot = 0;
        for (uint32_t l = 0; l < 32; l++)
            ballot |= (uint32_t)((w * 32 + l) % 3 == 0) << l;
        TU_CHECK(o[0] == 0 && o[1] == 1 && o[2] == 0 && o[3] == ballot && o[4] == 1 && o[7] == 1,
                 "vote flat %u: %u %u %u %08x %u %u", flat, o[0], o[1], o[2], o[3], o[4], o[7]);
        TU_CHECK(o[5] == (lane < 16 ? 0xaaaau : 0x11110000u), "partial-mask ballot lane %u: %08x", lane, o[5]);
        TU_CHECK(o[6] == 0xffffffffu, "activemask %08x", o[6]);
    }
    /* A partial warp: 40 threads; warp 1 has 8 lanes. */
    r = tu_launch(be, mod, 1, 1, 40, p.buf, p.len, &err);
    TU_CHECK(r == CUDA_SUCCESS, "vote launch (40): %d %s", (int)r, err.message);
    TU_CHECK(out[8 * 35 + 6] == 0xffu && out[8 * 35 + 3] == ((1u << 1) | (1u << 4) | (1u << 7)),
             "partial warp activemask %08x ballot %08x", out[8 * 35 + 6], out[8 * 35 + 3]);
}

static void expect_failure(uint32_t k, uint32_t nthreads, const void *params, uint32_t len, CUresult want,
                           const char *needle, const char *what)
{
    cb_launch_error err;
    CUresult r = tu_launch(be, mod, k, 4, nthreads, params, len, &err);
    TU_CHECK(r == want && err.result == want, "%s: result %d, want %d (%s)", what, (int)r, (int)want, err.message);
    TU_CHECK(strstr(err.message, needle) != NULL, "%s: message lacks \"%s\": %s", what, needle, err.message);
    if (getenv("TEST_VERBOSE"))
        fprintf(stderr, "%s -> %s\n", what, err.message);
}

/* Lanes that exited before (or while) the others meet at a full-mask
 * collective count as arrived: a shfl from them reads the reader's own
 * value, their ballot bit is 0, vote.all is over the others, and the launch
 * succeeds with a warning naming the block, the warp, the lanes and the
 * instruction (the launch names the kernel). */
static void test_exited_lanes(uint32_t who, const char *what)
{
    uint32_t out[256];
    memset(out, 0xee, sizeof out);
    tu_params p = {0};
    TU_PARAM(&p, who);
    TU_PARAM(&p, &out[0]);
    cb_launch_error err;
    CUresult r = tu_launch(be, mod, 2, 4, 64, p.buf, p.len, &err);
    TU_CHECK(r == CUDA_SUCCESS, "%s: launch %d %s", what, (int)r, err.message);
    uint32_t gone = who >= 64 ? 1u << (who - 64) : who >= 32 ? (1u << (who - 32)) - 1 : 1u << who;
    TU_CHECK(err.warnings >= 1 && strncmp(err.warning, "block (", 7) == 0 && strstr(err.warning, "warp ") != NULL,
             "%s: warnings %u \"%s\"", what, err.warnings, err.warning);
    char lanes[32];
    snprintf(lanes, sizeof lanes, "lanes 0x%08x", gone);
    TU_CHECK(strstr(err.warning, lanes) != NULL && strstr(err.warning, "shfl.sync.down") != NULL,
             "%s: warning lacks \"%s\" or the instruction: %s", what, lanes, err.warning);
    for (uint32_t f = 0; f < 64; f++) {
        uint32_t lane = f % 32;
        if (gone >> lane & 1)
            continue;
        int from_next = lane < 31 && !(gone >> (lane + 1) & 1);   /* else the reader's own value */
        uint32_t want = (from_next ? f + 1 : f) * 10 + 7;
        if (who >= 64) {   /* the second shfl reads the first's result d: d(f) = value of f+1 (lane 31: its own) */
#define D_OF(x) ((x) % 32 < 31 ? ((x) + 1) * 10 + 7 : (x) * 10 + 7)
            want = from_next ? D_OF(f + 1) : D_OF(f);
#undef D_OF
        }
        TU_CHECK(out[f] == want, "%s: shfl thread %u: %u, want %u", what, f, out[f], want);
        if (who >= 64)
            continue;
        TU_CHECK(out[64 + f] == ~gone && out[128 + f] == 1 && out[192 + f] == (lane < 31),
                 "%s: thread %u ballot %08x all %u pred %u", what, f, out[64 + f], out[128 + f], out[192 + f]);
    }
}

static void test_errors(void)
{
    test_exited_lanes(5, "lane 5 exits while others wait");
    test_exited_lanes(31, "lane 31 exits");
    test_exited_lanes(32 + 5, "lanes 0..4 exit first");
    test_exited_lanes(64 + 9, "lane 9 exits while the others wait at a second shfl");
    int mode = 0;
    expect_failure(3, 64, &mode, 4, CUDA_ERROR_LAUNCH_FAILED, "deadlock", "barrier deadlock");
    mode = 1;
    expect_failure(3, 64, &mode, 4, CUDA_ERROR_LAUNCH_FAILED, "waits for lanes 0xffff0000", "warp deadlock");
    expect_failure(4, 32, NULL, 0, CUDA_ERROR_LAUNCH_FAILED, "not in its mask", "caller outside its mask");
}

static void test_barriers(void)
{
    uint32_t out[4 * 96];
    memset(out, 0, sizeof out);
    tu_params p = {0};
    TU_PARAM(&p, &out[0]);
    cb_launch_error err;
    CUresult r = tu_launch(be, mod, 5, 1, 96, p.buf, p.len, &err);
    TU_CHECK(r == CUDA_SUCCESS, "bar_red launch: %d %s", (int)r, err.message);
    for (uint32_t f = 0; f < 96; f++) {
        TU_CHECK(out[4 * f] == 48 && out[4 * f + 1] == 0 && out[4 * f + 2] == 1, "bar.red thread %u: %u %u %u", f,
                 out[4 * f], out[4 * f + 1], out[4 * f + 2]);
        uint32_t want = f >= 32 && f < 64 ? (f - 32) * 3 + 1 : 0;
        if (f < 40)
            want += 1000;
        TU_CHECK(out[4 * f + 3] == want, "named barrier / exits thread %u: %u, want %u", f, out[4 * f + 3], want);
    }
}

static void test_warp_reduce(void)
{
    uint32_t out[8] = {0};
    tu_params p = {0};
    TU_PARAM(&p, &out[0]);
    cb_launch_error err;
    CUresult r = tu_launch(be, mod, 6, 5, 256, p.buf, p.len, &err);
    TU_CHECK(r == CUDA_SUCCESS, "warp_reduce launch: %d %s", (int)r, err.message);
    for (uint32_t w = 0; w < 8; w++) {
        uint32_t want = 0;
        for (uint32_t l = 0; l < 32; l++)
            want += w * 32 + l + 1;
        TU_CHECK(out[w] == want, "warp %u sum %u, want %u", w, out[w], want);
    }
}

int main(void)
{
    char dir[512];
    tu_fresh_cache(dir, sizeof dir);
    be = cb_backend_cpu_create();
    if (!be)
        return 1;
    cb_translation *tr = tu_make(kernels, 7, infos, 0);
    mod = tu_load(be, tr, NULL);
    if (mod) {
        test_shfl_widths();
        test_shfl_specials();
        test_vote();
        test_errors();
        /* The backend still runs launches after failed ones. */
        test_barriers();
        test_warp_reduce();
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
