/* test_cpu_ptx_async: cp.async through the real pipeline: 4/8/16-byte
 * copies (.ca, .cg), the src-size zero-fill form (register and constant),
 * the ignore-src predicate form, an .L2::cache_hint policy operand and
 * .L2::128B, commit_group/wait_group/wait_all; and the translation errors
 * for sizes the ISA does not have. */
#include "test_cpu_util.h"

#include "codegen/translate.h"

static cb_backend *be;

#define PTX_HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"

/* Thread 0 stages 64 bytes of src into shared memory with several cp.async
 * forms, waits, and copies the 64 shared bytes to dst. The shared window is
 * first filled with 0xaa so that zero-fill is visible. */
static const char ptx[] = PTX_HEAD
    ".visible .entry k(.param .u64 src, .param .u64 dst, .param .u32 n)\n{\n"
    "  .reg .b32 %r<20>; .reg .b64 %rd<20>; .reg .pred %p<4>;\n"
    "  .shared .align 16 .b8 s[64];\n"
    "  mov.u32 %r1, s;\n"
    "  mov.u32 %r2, 0xaaaaaaaa;\n"
    "  st.shared.v4.u32 [%r1], {%r2, %r2, %r2, %r2};\n  st.shared.v4.u32 [%r1+16], {%r2, %r2, %r2, %r2};\n"
    "  st.shared.v4.u32 [%r1+32], {%r2, %r2, %r2, %r2};\n  st.shared.v4.u32 [%r1+48], {%r2, %r2, %r2, %r2};\n"
    "  ld.param.u64 %rd1, [src];\n  ld.param.u32 %r3, [n];\n"
    "  createpolicy.fractional.L2::evict_last.b64 %rd5, 1.0;\n"
    "  cp.async.ca.shared.global [%r1], [%rd1], 4;\n"                       /* bytes 0..3 */
    "  cp.async.ca.shared.global [%r1+4], [%rd1+4], 4, 2;\n"                /* 4..5, 6..7 zero */
    "  cp.async.ca.shared.global [%r1+8], [%rd1+8], 8, %r3;\n"              /* n of 8 */
    "  cp.async.commit_group;\n"
    "  cp.async.cg.shared.global.L2::128B [%r1+16], [%rd1+16], 16;\n"      /* 16..31 */
    "  setp.ne.u32 %p1, %r3, 3;\n"
    "  cp.async.ca.shared.global [%r1+32], [%rd1+32], 16, %p1;\n"          /* ignore-src: n != 3 */
    "  cp.async.cg.shared.global.L2::cache_hint [%r1+48], [%rd1+48], 16, 12, %rd5;\n" /* 12 of 16 */
    "  cp.async.commit_group;\n"
    "  cp.async.wait_group 1;\n  cp.async.wait_all;\n"
    "  ld.param.u64 %rd2, [dst];\n"
    "  ld.shared.v4.u32 {%r4, %r5, %r6, %r7}, [%r1];\n  st.global.v4.u32 [%rd2], {%r4, %r5, %r6, %r7};\n"
    "  ld.shared.v4.u32 {%r4, %r5, %r6, %r7}, [%r1+16];\n  st.global.v4.u32 [%rd2+16], {%r4, %r5, %r6, %r7};\n"
    "  ld.shared.v4.u32 {%r4, %r5, %r6, %r7}, [%r1+32];\n  st.global.v4.u32 [%rd2+32], {%r4, %r5, %r6, %r7};\n"
    "  ld.shared.v4.u32 {%r4, %r5, %r6, %r7}, [%r1+48];\n  st.global.v4.u32 [%rd2+48], {%r4, %r5, %r6, %r7};\n"
    "  ret;\n}\n";

static void run_case(void *mod, uint32_t n)
{
    _Alignas(16) unsigned char src[64], dst[64], want[64];
    for (int i = 0; i < 64; i++)
        src[i] = (unsigned char)(i * 7 + 1);
    memset(dst, 0x55, sizeof dst);
    memcpy(want, src, 64);
    memset(want + 6, 0, 2);
    uint32_t k = n < 8 ? n : 8;
    memset(want + 8 + k, 0, 8 - k);
    if (n != 3)
        memset(want + 32, 0, 16);
    memset(want + 60, 0, 4);
    tu_params p = {0};
    TU_PARAM(&p, (uint64_t)(uintptr_t)src);
    TU_PARAM(&p, (uint64_t)(uintptr_t)dst);
    TU_PARAM(&p, n);
    cb_launch_error err;
    CUresult r = tu_launch(be, mod, 0, 1, 1, p.buf, p.len, &err);
    TU_CHECK(r == CUDA_SUCCESS, "cp.async n=%u: %d %s", n, (int)r, err.message);
    for (int i = 0; i < 64; i++)
        if (dst[i] != want[i]) {
            TU_CHECK(0, "cp.async n=%u: byte %d = 0x%02x, want 0x%02x", n, i, dst[i], want[i]);
            break;
        }
}

static void expect_error(const char *body, const char *what)
{
    char text[2048], err[512];
    snprintf(text, sizeof text,
             PTX_HEAD ".visible .entry k()\n{\n .reg .b32 %%r<4>; .reg .b64 %%rd<4>;\n%s\n ret;\n}\n", body);
    cb_translation *tr = NULL;
    int rc = cb_translate_ptx(text, strlen(text), "bad.ptx", CB_DIALECT_C, &tr, err, sizeof err);
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
    char err[1024];
    cb_translation *tr = NULL;
    if (cb_translate_ptx(ptx, strlen(ptx), "async.ptx", CB_DIALECT_C, &tr, err, sizeof err) != 0) {
        TU_CHECK(0, "translate: %s", err);
    } else {
        TU_CHECK(tr->kernels[0].needs_fibers == 0, "cp.async alone needs no fibers");
        void *mod = tu_load(be, tr, NULL);
        if (mod) {
            for (uint32_t n = 0; n <= 9; n++)
                run_case(mod, n);
            be->module_unload(be, mod);
        }
        cb_translation_free(tr);
    }
    expect_error("cp.async.ca.shared.global [%r1], [%rd1], 12;", "4, 8 or 16");
    expect_error("cp.async.cg.shared.global [%r1], [%rd1], 8;", "16 bytes");
    expect_error("cp.async.ca.shared.global [%r1], [%rd1], %r2;", "constant");
    expect_error("cp.async.ca.local.global [%r1], [%rd1], 4;", ".shared.global");
    be->shutdown(be);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    if (tu_failures)
        fprintf(stderr, "%d failure(s)\n", tu_failures);
    return tu_failures ? 1 : 0;
}
