/* test_ptx_parse: every committed .ptx under tests/data/ptx parses and
 * translates; bad inputs fail with the right "file:line: near 'tok': reason"
 * and never crash (truncations of every file at many points, unknown
 * opcodes, bad operands, garbage). */
#include "codegen/translate.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                              \
    do {                                                              \
        if (!(cond)) {                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                             \
            fprintf(stderr, "\n");                                    \
            failures++;                                               \
        }                                                             \
    } while (0)

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
    if (buf) {
        buf[n] = 0;
        *len = (size_t)n;
    }
    return buf;
}

/* Translates text; returns the translation or NULL with the message in err. */
static cb_translation *translate(const char *text, size_t len, const char *name, char *err, size_t errlen)
{
    cb_translation *t = NULL;
    if (cb_translate_ptx(text, len, name, CB_DIALECT_C, &t, err, errlen) < 0) {
        CHECK(t == NULL, "failed translation must leave *out NULL");
        CHECK(err[0] != 0, "failed translation must say why");
        return NULL;
    }
    return t;
}

static void expect_error(const char *text, const char *want)
{
    char err[512];
    cb_translation *t = translate(text, strlen(text), "prog.ptx", err, sizeof err);
    CHECK(t == NULL, "expected failure with \"%s\"", want);
    if (t) {
        cb_translation_free(t);
        return;
    }
    CHECK(strstr(err, want) != NULL, "got \"%s\", want \"%s\"", err, want);
}

#define HEADER ".version 8.0\n.target sm_75\n.address_size 64\n"

static void test_errors(void)
{
    expect_error(HEADER ".visible .entry k()\n{\n\tfoo.bar %r1;\n}\n", "prog.ptx:6: near 'foo.bar': unknown instruction");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b32 %r<2>;\n\tadd.s32 %r1, %r9, 1;\n}\n",
                 "prog.ptx:7: near '%r9': unknown register");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b32 %r<2>;\n\tadd.zz.s32 %r1, %r1, 1;\n}\n",
                 "prog.ptx:7: near 'add.zz.s32': unknown modifier '.zz'");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b32 %r<2>;\n\tadd.s32 %r1, %r1;\n}\n",
                 "prog.ptx:7: near 'add.s32': wrong number of operands");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b32 %r<2>;\n\tbra $L_nowhere;\n}\n",
                 "prog.ptx:7: near 'bra': unknown label");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b32 %r<2>;\n\tadd.s32 %r1, [%r1], 1;\n}\n",
                 "prog.ptx:7: near 'add.s32': a memory operand is not allowed here");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b32 %r<2>;\n\tld.global.u32 %r1, %r1;\n}\n",
                 "prog.ptx:7: near 'ld.global.u32': expected a memory operand");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b32 %r<2>;\n\tmov.u32 %r1, 0fXYZ;\n}\n",
                 "prog.ptx:7: near '0f': bad float literal");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b32 %r<2>;\n\tmov.u32 %r1, %r0\n}\n",
                 "prog.ptx:8: near '}': expected ';'");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b32 %r<2>;\n\tmov.u32 %r1, %r0;\n",
                 "unexpected end of input");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b32 %r<2>;\n\tpopc.xyz.b32 %r1, %r0;\n}\n",
                 "prog.ptx:7: near 'popc.xyz.b32': unknown modifier '.xyz'");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b32 %r<2>;\n\tfrobnicate.shared.b64 [%r0], %r1;\n}\n",
                 "prog.ptx:7: near 'frobnicate.shared.b64': unknown instruction");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b32 %r<2>;\n\twgmma.fence.sync.aligned;\n}\n",
                 "prog.ptx:7: near 'wgmma.fence.sync.aligned': warpgroup matrix multiply-accumulate (wgmma, sm_90a): "
                 "not supported by cubridge's CPU backend");
    expect_error(HEADER ".visible .entry k()\n{\n\ttcgen05.fence::before_thread_sync;\n}\n",
                 "prog.ptx:6: near 'tcgen05.fence::before_thread_sync': tensor-memory instructions (tcgen05, sm_100a)");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b64 %r<2>;\n"
                        "\tcp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r0], [%r1, {%r0}], [%r1];\n}\n",
                 "tensor bulk copies (cp.async.bulk.tensor, TMA: they read tensor maps)");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b32 %r<2>;\n\tmultimem.st.relaxed.sys.global.u32 [%r0], %r1;\n}\n",
                 "near 'multimem.st.relaxed.sys.global.u32': multimem operations");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b64 %r<2>;\n\tmov.u64 %r1, %current_graph_exec;\n}\n",
                 "near '%current_graph_exec': %current_graph_exec (device-side graph launch) is not supported");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b32 %r<2>;\n\tmov.u32 %r1, %reserved_smem_offset_begin;\n}\n",
                 "the reserved shared memory registers (%reserved_smem_*) are not supported");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b32 %r<2>;\n\tmov.u32 %r1, %clusterid.w;\n}\n",
                 "near '%clusterid.w': unknown register");
    /* the forms of the sm_90/sm_100 additions that are refused, and misuse of the new instructions */
#define BODY(x) HEADER ".visible .entry k()\n{\n.reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .b16 %h<2>; .reg .pred %p<2>;\n" x "\n}\n"
    expect_error(BODY("\tfma.rn.oob.relu.f16x2 %r1, %r2, %r3, %r0;"), "unknown modifier '.oob'");
    expect_error(BODY("\tcvt.rs.f16x2.f32 %r1, %r2, %r3, %r0;"), "unknown modifier '.rs'");
    expect_error(BODY("\tldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r0, %r1}, [%r2];"),
                 "unknown modifier '.m16n16'");
    expect_error(BODY("\tclusterlaunchcontrol.query_cancel.is_canceled.pred.b128 %p1, %r0;"),
                 "cluster launch control (clusterlaunchcontrol, sm_100)");
    expect_error(BODY("\tmovmatrix.sync.aligned.m8n8.b16 %r1, %r0;"), "movmatrix needs .sync.aligned.m8n8.trans.b16");
    expect_error(BODY("\tgriddepcontrol.wait.launch_dependents;"), "exactly one of .wait and .launch_dependents");
    expect_error(BODY("\tsetmaxnreg.inc.sync.aligned.u32 20;"), "a count of 24..256, a multiple of 8");
    expect_error(BODY("\tsub.u16x2 %r1, %r2, %r3;"), "sub has no packed 16-bit form");
    expect_error(BODY("\talloca.u64 %rd1, %rd2, 3;"), "alignment is a constant power of two");
    expect_error(BODY("\tvadd2.u32.u32.u32.sat.add %r1, %r2, %r3, %r0;"), ".sat or .add (not both)");
    expect_error(BODY("\tvadd.u32.u32.f32 %r1, %r2, %r3;"), "types are .u32 or .s32");
    expect_error(BODY("\tredux.sync.add.f32 %r1, %r2, 0xffffffff;"), "redux.sync.f32 takes .min or .max");
    expect_error(BODY("\tmapa.shared.u32 %r1, %r2, 0;"), "mapa takes a .shared::cluster or a generic address");
    expect_error(BODY("\tbarrier.cluster.wait.release;"), "barrier.cluster takes .arrive");
    expect_error(BODY("\tcvt.rn.satfinite.e2m1x2.f16x2 %h1, %r2;"), "two .f32 sources");
    expect_error(BODY("\tcvt.rn.ue8m0x2.f32 %h1, %r2, %r3;"), "rounds with .rz or .rp");
    expect_error(BODY("\tadd.f32x2 %rd1, %rd2, %rd3;\n\tabs.f32x2 %rd1, %rd2;"), ".f32x2 is supported on add");
    expect_error(BODY("\tatom.global.add.v8.f32 {%r0, %r1, %r2, %r3, %r0, %r1, %r2, %r3}, [%rd1], "
                      "{%r0, %r1, %r2, %r3, %r0, %r1, %r2, %r3};"), "unsupported atomic operation");
    expect_error(BODY("\tcp.reduce.async.bulk.global.shared::cta.bulk_group.add.f16x2 [%rd1], [%r1], 16;"),
                 "cp.reduce.async.bulk: .add/.min/.max");
#undef BODY
    expect_error(HEADER ".extern .func foo(.param .b32 a);\n.visible .entry k()\n{\n"
                        ".param .b32 p;\n\tcall.uni foo, (p);\n}\n",
                 "prog.ptx:8: near 'call.uni': call to undefined function 'foo'");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b16 %h<2>;\n\tadd.sat.bf16 %h1, %h0, %h0;\n}\n",
                 "prog.ptx:7: near 'add.sat.bf16': .ftz and .sat do not apply to bf16");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b16 %h<2>;\n\tadd.rz.f16 %h1, %h0, %h0;\n}\n",
                 "prog.ptx:7: near 'add.rz.f16': half-precision arithmetic rounds to nearest only");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b32 %r<2>;\n\tmov.u32 %r1, %r0 $;\n}\n",
                 "expected ';'");
    expect_error(".target sm_75\n", "missing .version");
    expect_error(HEADER ".global .u32 g = 7\n", "unexpected end of input");
    expect_error(HEADER ".global .u64 p = generic(g);\n", "near 'g': unknown symbol in an address initialiser");
    expect_error(HEADER ".global .u32 g;\n.global .u32 p = generic(g);\n", "an address initialiser needs a 64-bit element");
    expect_error(HEADER ".shared .u32 s;\n.global .u64 p = generic(s);\n",
                 "only .global and .const variables and functions have load-time addresses");
    expect_error(HEADER "@@@", "unknown directive");
    expect_error(HEADER ".visible .entry k()\n{\n\t/* unterminated", "unterminated comment");
    expect_error("\x01\x02", "unexpected character");
    /* the forms of the ISA conformance corpus that the translator rejects when misused */
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b32 %r<2>;\n\tmad.lo.sat.s32 %r1, %r0, %r0, %r0;\n}\n",
                 "near 'mad.lo.sat.s32': mad.sat needs .hi.s32");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b32 %r<2>;\n\tcvt.pack.sat.u8.s32.b32 %r1, %r0, %r0;\n}\n",
                 "cvt.pack takes .sat.{u16,s16}.s32 d, a, b or .sat.{u8,s8,u4,s4}.s32.b32 d, a, b, c");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b32 %r<2>;\n\tcvt.pack.u16.s32 %r1, %r0, %r0;\n}\n",
                 "cvt.pack takes");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b32 %r<2>;\n\tcvt.f32.f16.f16 %r1, %r0;\n}\n",
                 "cvt takes two types");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b16 %h<2>;\n.reg .f32 %f<2>;\n"
                        "\tcvt.rz.satfinite.e4m3x2.f32 %h1, %f0, %f1;\n}\n",
                 "fp8 conversions round to nearest (.rn)");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b16 %h<2>;\n.reg .f32 %f<2>;\n"
                        "\tcvt.rn.e5m2x2.f32 %h1, %f0, %f1;\n}\n",
                 "cvt to an fp8 pair needs .satfinite");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b16 %h<2>;\n.reg .f32 %f<2>;\n"
                        "\tcvt.rn.satfinite.e4m3x2.f32 %h1, %f0;\n}\n",
                 "cvt to an fp8 pair takes two .f32 or one .f16x2");
    expect_error(HEADER ".visible .entry k()\n{\n.reg .b16 %h<2>;\n.reg .f32 %f<2>;\n"
                        "\tcvt.rn.f32.e4m3x2 %f1, %h0;\n}\n",
                 "cvt from an fp8 pair gives .f16x2");
}

/* Every prefix of the file must fail cleanly or translate; never crash. */
static void test_truncations(const char *name, const char *text, size_t len)
{
    char err[512];
    size_t step = len / 97 + 1;
    for (size_t n = 0; n < len; n += step) {
        cb_translation *t = translate(text, n, name, err, sizeof err);
        cb_translation_free(t);
    }
    /* flip bytes in the body */
    char *copy = malloc(len);
    if (!copy)
        return;
    for (size_t i = len / 3; i < len; i += len / 53 + 1) {
        memcpy(copy, text, len);
        copy[i] = (char)(copy[i] ^ 0x5a);
        cb_translation *t = translate(copy, len, name, err, sizeof err);
        cb_translation_free(t);
    }
    free(copy);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static void test_corpus(void)
{
    const char *dir = CB_TEST_DATA_DIR "/ptx";
    DIR *d = opendir(dir);
    CHECK(d != NULL, "cannot open %s", dir);
    if (!d)
        return;
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!ends_with(e->d_name, ".ptx"))
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = 0;
        char *text = read_file(path, &len);
        CHECK(text != NULL, "cannot read %s", path);
        if (!text)
            continue;
        char err[512];
        cb_translation *t = translate(text, len, e->d_name, err, sizeof err);
        CHECK(t != NULL, "%s: %s", e->d_name, err);
        if (t) {
            CHECK(t->nkernels > 0, "%s has kernels", e->d_name);
            CHECK(t->source && strstr(t->source, "cb_module_abi_version"), "%s: source", e->d_name);
            CHECK(t->ptx_version >= 70 && t->target_sm >= 50, "%s: version %u sm %u", e->d_name,
                  t->ptx_version, t->target_sm);
            for (uint32_t k = 0; k < t->nkernels; k++) {
                char sym[32];
                snprintf(sym, sizeof sym, "cbk_%u", k);
                CHECK(strcmp(t->kernels[k].symbol, sym) == 0, "symbol");
                CHECK(cb_translation_find_kernel(t, t->kernels[k].name) == (int)k, "find kernel");
            }
            const char *dump = getenv("CB_TEST_DUMP_DIR");
            if (dump) {
                char out[1024];
                snprintf(out, sizeof out, "%s/%s.c", dump, e->d_name);
                FILE *f = fopen(out, "w");
                if (f) {
                    fwrite(t->source, 1, t->source_len, f);
                    fclose(f);
                }
            }
            cb_translation_free(t);
        }
        test_truncations(e->d_name, text, len);
        free(text);
        count++;
    }
    closedir(d);
    CHECK(count >= 10, "found %d .ptx files", count);
}

/* Layout facts that the runtime relies on. */
static void test_layout(void)
{
    const char *src = HEADER
        ".extern .shared .align 16 .b8 dyn[];\n"
        ".shared .align 4 .b8 s1[100];\n"
        ".const .align 4 .b8 c1[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n"
        ".global .align 8 .u64 g1;\n"
        ".visible .entry k(.param .u32 a, .param .u64 b, .param .align 16 .b8 s[24], .param .f32 c)\n"
        "{\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n"
        "\tmov.u32 %r1, dyn;\n\tld.shared.u32 %r2, [s1+4];\n\tbar.sync 0;\n\tret;\n}\n"
        ".visible .entry k2()\n{\n\tret;\n}\n";
    char err[512];
    cb_translation *t = translate(src, strlen(src), "layout.ptx", err, sizeof err);
    CHECK(t != NULL, "%s", err);
    if (!t)
        return;
    CHECK(t->nkernels == 2, "kernels");
    cb_kernel_info *k = &t->kernels[0];
    CHECK(k->nparams == 4, "nparams");
    CHECK(k->params[0].offset == 0 && k->params[0].size == 4, "p0");
    CHECK(k->params[1].offset == 8 && k->params[1].size == 8 && k->params[1].is_pointer_like, "p1");
    CHECK(k->params[2].offset == 16 && k->params[2].size == 24 && k->params[2].align == 16, "p2");
    CHECK(k->params[3].offset == 40 && k->param_bytes == 44, "p3 %u %u", k->params[3].offset, k->param_bytes);
    CHECK(k->static_smem == 112, "static_smem %u (100 rounded up to 16 for dynamic)", k->static_smem);
    CHECK(k->needs_fibers == 1, "bar.sync needs fibers");
    CHECK(t->kernels[1].needs_fibers == 0 && t->kernels[1].static_smem == 0, "k2");
    CHECK(t->nglobals == 2, "globals");
    int c1 = cb_translation_find_global(t, "c1"), g1 = cb_translation_find_global(t, "g1");
    CHECK(c1 == 0 && g1 == 1, "global order");
    CHECK(t->globals[0].space == CB_SPACE_CONST && t->globals[0].size == 8 && t->globals[0].init &&
          t->globals[0].init[7] == 8, "const init");
    CHECK(t->globals[1].space == CB_SPACE_GLOBAL && t->globals[1].init == NULL && t->globals[1].align == 8, "g1");
    cb_translation_free(t);
}

/* cb_translate_opts.lanes: a kernel pass_lanes accepts gets a lanes entry
 * when asked (the default), none in a first-tier unit (lanes = 0). */
static void test_lanes_option(void)
{
    const char *src = HEADER ".visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n"
                             "\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %tid.x;\n"
                             "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd1, %rd1, %rd2;\n"
                             "\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n";
    char err[512];
    cb_translation *t = NULL;
    CHECK(cb_translate_ptx(src, strlen(src), "l.ptx", CB_DIALECT_C, &t, err, sizeof err) == 0 && t, "C: %s", err);
    CHECK(t && strstr(t->source, CB_C_LANES_MARK) && strstr(t->source, "cbk_0_lanes("), "a lanes entry by default");
    cb_translation_free(t);
    cb_translate_opts none = {.lanes = 0};
    t = NULL;
    CHECK(cb_translate_ptx_opts(src, strlen(src), "l.ptx", CB_DIALECT_C, &none, &t, err, sizeof err) == 0 && t,
          "C, no lanes: %s", err);
    CHECK(t && !strstr(t->source, CB_C_LANES_MARK) && !strstr(t->source, "cbk_0_lanes("), "no lanes entry");
    CHECK(t && strstr(t->source, "no lanes entry: not asked for"), "the reason is in the unit");
    CHECK(t && !strstr(t->source, CB_C_QUICK_MARK), "not a first-tier unit unless asked");
    cb_translation_free(t);
    /* quick: the first tier of a tiered build, marked for the JIT's cheapest flags (jit_cache.c) */
    cb_translate_opts quick = {.lanes = 0, .quick = 1};
    t = NULL;
    CHECK(cb_translate_ptx_opts(src, strlen(src), "l.ptx", CB_DIALECT_C, &quick, &t, err, sizeof err) == 0 && t,
          "C, first tier: %s", err);
    CHECK(t && strstr(t->source, CB_C_QUICK_MARK) && !strstr(t->source, CB_C_LANES_MARK), "a first-tier unit");
    CHECK(t && strlen(t->source) == t->source_len, "the mark is counted in source_len");
    cb_translation_free(t);
    t = NULL;
    CHECK(cb_translate_ptx_opts(src, strlen(src), "l.ptx", CB_DIALECT_OPENCL, &quick, &t, err, sizeof err) == 0 && t,
          "OpenCL, first tier: %s", err);
    CHECK(t && !strstr(t->source, CB_C_QUICK_MARK), "OpenCL C has no first-tier mark");
    cb_translation_free(t);
}

/* The C and OpenCL dialects emit code; what OpenCL C cannot express is
 * refused with -2 (NOT_SUPPORTED at load) and a reason; an unknown dialect is
 * refused, and bad PTX is reported before either. */
static void test_dialects(void)
{
    const char *src = HEADER ".visible .entry k()\n{\n\tret;\n}\n";
    char err[512];
    cb_translation *t = (cb_translation *)1;
    CHECK(cb_translate_ptx(src, strlen(src), "d.ptx", CB_DIALECT_OPENCL, &t, err, sizeof err) == 0 && t, "OpenCL: %s",
          err);
    CHECK(t && strstr(t->source, "__kernel void cbk_0(") != NULL, "an OpenCL kernel");
    /* NVIDIA's OpenCL places a __local argument at its pointee type's alignment: a uchar
     * argument faulted on 4-byte shared accesses there */
    CHECK(t && strstr(t->source, "__local ulong2 *cb_smem16") != NULL, "the shared-memory argument is 16-byte aligned");
    cb_translation_free(t);
    const char *shfl = HEADER ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n"
                              "\tshfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;\n\tret;\n}\n";
    t = (cb_translation *)1;
    CHECK(cb_translate_ptx(shfl, strlen(shfl), "d.ptx", CB_DIALECT_OPENCL, &t, err, sizeof err) == 0 && t, "shfl: %s",
          err);
    CHECK(t && !t->kernels[0].refused && strstr(t->source, "cb_wshfl_bfly(cb_wxs, &cb_ws, ") != NULL &&
              t->kernels[0].warp_scratch == 32, "shfl with the full mask in uniform control flow is emulated");
    cb_translation_free(t);
    CHECK(cb_translate_ptx(shfl, strlen(shfl), "d.ptx", CB_DIALECT_C, &t, err, sizeof err) == 0, "C: %s", err);
    cb_translation_free(t);
    /* per-kernel refusal: the module translates, the refused kernel is left out with its reason */
    const char *rz = HEADER ".visible .entry k()\n{\n\t.reg .f64 %fd<4>;\n\tfma.rz.f64 %fd1, %fd2, %fd3, %fd2;\n"
                            "\tret;\n}\n.visible .entry k2()\n{\n\t.reg .f32 %f<4>;\n\tadd.rz.f32 %f1, %f2, %f3;\n"
                            "\tdiv.rm.f32 %f1, %f2, %f3;\n\tret;\n}\n";
    CHECK(cb_translate_ptx(rz, strlen(rz), "d.ptx", CB_DIALECT_OPENCL, &t, err, sizeof err) == 0 && t, "fma.rz: %s",
          err);
    CHECK(t && t->kernels[0].refused && strstr(t->kernels[0].refused, "directed rounding") &&
              strstr(t->kernels[0].refused, "d.ptx:") && !t->kernels[1].refused,
          "fma.rz.f64 refuses its kernel only: got \"%s\"", t && t->kernels[0].refused ? t->kernels[0].refused : "");
    /* the other directed roundings run, through exact error terms (opencl/prelude.c) */
    CHECK(t && strstr(t->source, "cb_add_r32(") && strstr(t->source, "cb_div_r32(") &&
              strstr(t->source, "CB_INL float cb_rdir32(double s"),
          "add.rz.f32 and div.rm.f32 through the prelude's directed-rounding helpers");
    CHECK(t && !strstr(t->source, "void cbk_0(") && strstr(t->source, "void cbk_1("), "cbk_0 left out, cbk_1 kept");
    cb_translation_free(t);
    CHECK(cb_translate_ptx(rz, strlen(rz), "d.ptx", CB_DIALECT_C, &t, err, sizeof err) == 0 && t &&
              !t->kernels[0].refused, "C runs every kernel: %s", err);
    cb_translation_free(t);
    /* a funnel shift's helper is not a rounding helper */
    const char *shf = HEADER ".visible .entry k()\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n"
                             "\tshf.r.wrap.b32 %r1, %r2, %r3, 3;\n\tret;\n}\n";
    CHECK(cb_translate_ptx(shf, strlen(shf), "d.ptx", CB_DIALECT_OPENCL, &t, err, sizeof err) == 0, "shf.r: %s", err);
    cb_translation_free(t);
    CHECK(cb_translate_ptx(src, strlen(src), "d.ptx", (cb_dialect)7, &t, err, sizeof err) == -1 && t == NULL,
          "dialect 7 must fail");
    CHECK(strstr(err, "dialect not supported") != NULL, "got \"%s\"", err);
    const char *bad = HEADER ".visible .entry k()\n{\n\tfrob.u32 %r1;\n}\n";
    CHECK(cb_translate_ptx(bad, strlen(bad), "d.ptx", CB_DIALECT_OPENCL, &t, err, sizeof err) == -1, "bad PTX");
    CHECK(strstr(err, "frob") != NULL, "the PTX error comes first: got \"%s\"", err);
}

/* Translates src for OpenCL; returns the translation (0 expected) or NULL. */
static cb_translation *ocl(const char *src, char *err, size_t errlen)
{
    cb_translation *t = NULL;
    int rc = cb_translate_ptx(src, strlen(src), "w.ptx", CB_DIALECT_OPENCL, &t, err, errlen);
    CHECK(rc == 0 && t, "OpenCL translation failed (%d): %s", rc, err);
    cb_translation *c = NULL;
    CHECK(cb_translate_ptx(src, strlen(src), "w.ptx", CB_DIALECT_C, &c, err, errlen) == 0 && c && !c->kernels[0].refused,
          "the C dialect runs it: %s", err);
    cb_translation_free(c);
    return rc == 0 ? t : NULL;
}

/* The OpenCL dialect's warp collectives: emitted in block-uniform control flow
 * and in lock-step regions (pass_uniform), else the kernel alone is refused. */
static void test_opencl_warp(void)
{
    char err[512];
    const char *regs = "\t.reg .b32 %r<9>;\n\t.reg .pred %p<4>;\n\t.reg .b64 %rd<3>;\n";
    char src[4096];
    /* reconverged: the shfl after a tid-dependent if, past its post-dominator */
    snprintf(src, sizeof src,
             HEADER ".visible .entry k()\n{\n%s\tmov.u32 %%r1, %%tid.x;\n\tsetp.lt.u32 %%p1, %%r1, 5;\n"
             "\t@%%p1 bra $L1;\n\tadd.u32 %%r2, %%r1, 1;\n$L1:\n\tmov.u32 %%r3, -1;\n"
             "\tshfl.sync.down.b32 %%r4|%%p2, %%r1, 1, 31, %%r3;\n\tvote.sync.ballot.b32 %%r5, %%p1, -1;\n"
             "\tvote.sync.all.pred %%p3, %%p1, -1;\n\tmatch.any.sync.b64 %%r6, %%rd1, -1;\n"
             "\tredux.sync.min.s32 %%r7, %%r1, -1;\n\telect.sync %%r8|%%p3, -1;\n\tbar.warp.sync -1;\n"
             "\tbar.red.popc.u32 %%r2, 0, %%p1;\n\tret;\n}\n", regs);
    cb_translation *t = ocl(src, err, sizeof err);
    CHECK(t && !t->kernels[0].refused, "uniform collectives refused: %s", t && t->kernels[0].refused ? t->kernels[0].refused : "");
    static const char *const want[] = {"cb_wshfl_down(cb_wxs", "cb_wvote(cb_wxs, &cb_ws, cb_heap, 3, ", "cb_wvote(cb_wxs, &cb_ws, cb_heap, 0, ",
                                       "cb_wmatch_any(cb_wxs", "cb_wredux(cb_wxs, &cb_ws, cb_heap, 1, ", "cb_bar_count(cb_wxs",
                                       "__local ulong *cb_wxs = "};
    for (size_t i = 0; t && !t->kernels[0].refused && i < sizeof want / sizeof want[0]; i++)
        CHECK(strstr(t->source, want[i]) != NULL, "emitted \"%s\"", want[i]);
    cb_translation_free(t);
    /* inside an if that ends the kernel: a lock-step region, whose lanes that branched exit */
    snprintf(src, sizeof src,
             HEADER ".visible .entry k()\n{\n%s\tmov.u32 %%r1, %%tid.x;\n\tsetp.lt.u32 %%p1, %%r1, 5;\n"
             "\t@%%p1 bra $L1;\n\tadd.u32 %%r2, %%r1, 1;\n\tshfl.sync.idx.b32 %%r4, %%r2, 0, 31, -1;\n$L1:\n\tret;\n}\n"
             ".visible .entry k2()\n{\n\tret;\n}\n", regs);
    t = ocl(src, err, sizeof err);
    CHECK(t && !t->kernels[0].refused && strstr(t->source, "cb_pc = 5u; cb_act = 0u;") &&
              strstr(t->source, "cb_sb3: ; if (cb_pc == 3u) { cb_act = 1u;") && strstr(t->source, "if (cb_act && 1u) {") &&
              strstr(t->source, "(cb_act ? 0ul : cb_pc == CB_GONE ? 0x300000000ul : 0x100000000ul)") &&
              strstr(t->source, "cb_pc = CB_GONE; cb_act = 0u;"),
          "a lock-step region: \"%s\"", t && t->kernels[0].refused ? t->kernels[0].refused : "(emitted)");
    cb_translation_free(t);
    /* in a loop with a thread-dependent trip count: again while a thread wants another trip */
    snprintf(src, sizeof src,
             HEADER ".visible .entry k()\n{\n%s\tmov.u32 %%r1, %%tid.x;\n\tsetp.ge.u32 %%p1, %%r1, 40;\n\t@%%p1 bra $L9;\n"
             "$L0:\n\tshfl.sync.idx.b32 %%r4, %%r1, 0, 31, -1;\n\tadd.u32 %%r1, %%r1, 32;\n\tsetp.lt.u32 %%p1, %%r1, 40;\n"
             "\t@%%p1 bra $L0;\n$L9:\n\tret;\n}\n"
             ".visible .entry k2()\n{\n\tret;\n}\n", regs);
    t = ocl(src, err, sizeof err);
    CHECK(t && !t->kernels[0].refused && strstr(t->source, "CB_ANY(cb_pc == 3u, cb_n); if (cb_n != 0u) goto cb_sb3;") &&
              !t->kernels[1].refused,
          "divergent loop: got \"%s\"", t && t->kernels[0].refused ? t->kernels[0].refused : "(emitted)");
    cb_translation_free(t);
    /* a do-while loop (no branch before it): its head, entered by the whole block, starts the region */
    snprintf(src, sizeof src,
             HEADER ".visible .entry k()\n{\n%s\tmov.u32 %%r1, %%tid.x;\n$L0:\n"
             "\tshfl.sync.idx.b32 %%r4, %%r1, 0, 31, -1;\n\tadd.u32 %%r1, %%r1, 32;\n\tsetp.lt.u32 %%p1, %%r1, 40;\n"
             "\t@%%p1 bra $L0;\n\tret;\n}\n", regs);
    t = ocl(src, err, sizeof err);
    CHECK(t && !t->kernels[0].refused && strstr(t->source, "CB_ANY(cb_pc == 1u, cb_n); if (cb_n != 0u) goto cb_sb1;") &&
              strstr(t->source, "cb_wshfl(cb_wxs"),
          "do-while: \"%s\"", t && t->kernels[0].refused ? t->kernels[0].refused : "(emitted)");
    cb_translation_free(t);
    /* in a branch inside a region: that branch runs in lock-step too */
    snprintf(src, sizeof src,
             HEADER ".visible .entry k()\n{\n%s\tmov.u32 %%r1, %%tid.x;\n\tsetp.lt.u32 %%p1, %%r1, 5;\n"
             "\tsetp.lt.u32 %%p2, %%r1, 9;\n\t@%%p1 bra $L1;\n\t@%%p2 bra $L2;\n"
             "\tvote.sync.any.pred %%p3, %%p1, -1;\n$L2:\n\tadd.u32 %%r2, %%r1, 1;\n$L1:\n\tret;\n}\n", regs);
    t = ocl(src, err, sizeof err);
    CHECK(t && !t->kernels[0].refused && strstr(t->source, "cb_wvote_lm(cb_wxs"), "nested: \"%s\"",
          t && t->kernels[0].refused ? t->kernels[0].refused : "(emitted)");
    cb_translation_free(t);
    /* a branch on a uniform value (a kernel parameter, %ctaid) does not diverge */
    snprintf(src, sizeof src,
             HEADER ".visible .entry k(.param .u32 n)\n{\n%s\tld.param.u32 %%r1, [n];\n\tmov.u32 %%r2, %%ctaid.x;\n"
             "\tadd.u32 %%r3, %%r1, %%r2;\n\tsetp.lt.u32 %%p1, %%r3, 5;\n"
             "\t@%%p1 bra $L1;\n\tshfl.sync.idx.b32 %%r4, %%r1, 0, 31, -1;\n$L1:\n\tret;\n}\n", regs);
    t = ocl(src, err, sizeof err);
    CHECK(t && !t->kernels[0].refused, "uniform branch: got \"%s\"", t && t->kernels[0].refused ? t->kernels[0].refused : "");
    cb_translation_free(t);
    /* threads that exit early: the rest of the kernel is a region, in which they are exited lanes */
    snprintf(src, sizeof src,
             HEADER ".visible .entry k()\n{\n%s\tmov.u32 %%r1, %%tid.x;\n\tsetp.lt.u32 %%p1, %%r1, 5;\n"
             "\t@%%p1 exit;\n\tvote.sync.any.pred %%p2, %%p1, -1;\n\tret;\n}\n", regs);
    t = ocl(src, err, sizeof err);
    CHECK(t && !t->kernels[0].refused && strstr(t->source, "/* a lock-step region") &&
              strstr(t->source, "cb_pc = CB_GONE; cb_act = 0u;"), "after an early exit: \"%s\"",
          t && t->kernels[0].refused ? t->kernels[0].refused : "(emitted)");
    cb_translation_free(t);
    /* a loop that waits on an atomic's value, around a collective: refused (lock-step would never end it) */
    snprintf(src, sizeof src,
             HEADER ".visible .entry k(.param .u64 p)\n{\n%s\tld.param.u64 %%rd1, [p];\n\tmov.u32 %%r1, %%tid.x;\n"
             "\tsetp.lt.u32 %%p1, %%r1, 5;\n\t@%%p1 bra $L1;\n$L0:\n\tshfl.sync.idx.b32 %%r4, %%r1, 0, 31, -1;\n"
             "\tatom.global.add.u32 %%r2, [%%rd1], 1;\n\tsetp.lt.u32 %%p2, %%r2, 40;\n\t@%%p2 bra $L0;\n$L1:\n\tret;\n}\n",
             regs);
    t = ocl(src, err, sizeof err);
    CHECK(t && t->kernels[0].refused && strstr(t->kernels[0].refused, "a wait for another thread"),
          "a wait loop: \"%s\"", t && t->kernels[0].refused ? t->kernels[0].refused : "(emitted)");
    cb_translation_free(t);
    /* a block barrier in the divergent code: refused, saying so */
    snprintf(src, sizeof src,
             HEADER ".visible .entry k()\n{\n%s\tmov.u32 %%r1, %%tid.x;\n\tsetp.lt.u32 %%p1, %%r1, 5;\n"
             "\t@%%p1 bra $L1;\n\tshfl.sync.idx.b32 %%r4, %%r1, 0, 31, -1;\n\tbar.sync 0;\n$L1:\n\tret;\n}\n", regs);
    t = ocl(src, err, sizeof err);
    CHECK(t && t->kernels[0].refused && strstr(t->kernels[0].refused, "block barrier"), "a barrier inside: \"%s\"",
          t && t->kernels[0].refused ? t->kernels[0].refused : "(emitted)");
    cb_translation_free(t);
    /* two regions, one on each side of a uniform branch, barriers on both: a barrier at the join too */
    snprintf(src, sizeof src,
             HEADER ".visible .entry k(.param .u32 n)\n{\n%s\tld.param.u32 %%r5, [n];\n\tmov.u32 %%r1, %%tid.x;\n"
             "\tsetp.lt.u32 %%p1, %%r1, 5;\n\tsetp.eq.u32 %%p3, %%r5, 0;\n\t@%%p3 bra $L2;\n"
             "\t@%%p1 bra $L1;\n\tshfl.sync.idx.b32 %%r4, %%r1, 0, 31, -1;\n$L1:\n\tbar.sync 0;\n\tret;\n"
             "$L2:\n\t@%%p1 bra $L3;\n\tvote.sync.any.pred %%p2, %%p1, -1;\n$L3:\n\tbar.sync 0;\n\tret;\n}\n", regs);
    t = ocl(src, err, sizeof err);
    CHECK(t && !t->kernels[0].refused && strstr(t->source, "cb_wshfl(cb_wxs") && strstr(t->source, "cb_wvote_lm(cb_wxs"),
          "two regions: \"%s\"", t && t->kernels[0].refused ? t->kernels[0].refused : "(emitted)");
    cb_translation_free(t);
    /* barriers on both sides of a uniform branch, then a store: a barrier at the join (PoCL 3.1) */
    snprintf(src, sizeof src,
             HEADER ".visible .entry k(.param .u32 n, .param .u64 o)\n{\n%s\tld.param.u32 %%r5, [n];\n"
             "\tld.param.u64 %%rd1, [o];\n\tmov.u32 %%r1, %%tid.x;\n\tsetp.eq.u32 %%p3, %%r5, 0;\n\t@%%p3 bra $L2;\n"
             "\tbar.sync 0;\n\tbra.uni $L3;\n$L2:\n\tbar.sync 0;\n$L3:\n\tst.global.u32 [%%rd1], %%r1;\n\tret;\n}\n", regs);
    t = ocl(src, err, sizeof err);
    CHECK(t && !t->kernels[0].refused && strstr(t->source, "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); /* a join"),
          "a join after barriers: \"%s\"", t && t->kernels[0].refused ? t->kernels[0].refused : "(no barrier at the join)");
    cb_translation_free(t);
    /* a value defined in divergent flow is divergent after the join: the branch on it heads a region */
    snprintf(src, sizeof src,
             HEADER ".visible .entry k()\n{\n%s\tmov.u32 %%r1, %%tid.x;\n\tmov.u32 %%r2, 0;\n\tsetp.lt.u32 %%p1, %%r1, 5;\n"
             "\t@%%p1 bra $L1;\n\tmov.u32 %%r2, 1;\n$L1:\n\tsetp.eq.u32 %%p2, %%r2, 0;\n\t@%%p2 bra $L2;\n"
             "\tshfl.sync.idx.b32 %%r4, %%r1, 0, 31, -1;\n$L2:\n\tst.global.u32 [%%rd1], %%r4;\n\tret;\n}\n", regs);
    t = ocl(src, err, sizeof err);
    CHECK(t && !t->kernels[0].refused && strstr(t->source, "cb_act = 0u;") &&
              strstr(t->source, "(cb_act ? 0ul : cb_pc == CB_GONE ? 0x300000000ul : 0x100000000ul)"), "sync dependence: \"%s\"",
          t && t->kernels[0].refused ? t->kernels[0].refused : "(emitted)");
    cb_translation_free(t);
    /* a partial mask in uniform control flow: emitted, its masks checked at run time (launch status 3) */
    snprintf(src, sizeof src, HEADER ".visible .entry k()\n{\n%s\tmov.u32 %%r1, %%tid.x;\n"
             "\tshfl.sync.idx.b32 %%r4, %%r1, 0, 31, 65535;\n\tret;\n}\n", regs);
    t = ocl(src, err, sizeof err);
    CHECK(t && !t->kernels[0].refused && strstr(t->source, "cb_wshfl_idx(cb_wxs, &cb_ws, cb_heap, ((ulong)((uint32_t)0xffffull))"),
          "partial mask: \"%s\"", t && t->kernels[0].refused ? t->kernels[0].refused : "(emitted?)");
    cb_translation_free(t);
    /* a .func with a collective: refused, with every kernel that calls it; the others stay */
    snprintf(src, sizeof src,
             HEADER ".func (.param .b32 r) f(.param .b32 a)\n{\n\t.reg .b32 %%r<3>;\n\tld.param.b32 %%r1, [a];\n"
             "\tshfl.sync.bfly.b32 %%r2, %%r1, 1, 31, -1;\n\tst.param.b32 [r], %%r2;\n\tret;\n}\n"
             ".func (.param .b32 r) g(.param .b32 a)\n{\n\t.reg .b32 %%r<3>;\n\tld.param.b32 %%r1, [a];\n"
             "\t{\n\t.param .b32 pa;\n\tst.param.b32 [pa], %%r1;\n\t.param .b32 pr;\n\tcall (pr), f, (pa);\n"
             "\tld.param.b32 %%r2, [pr];\n\t}\n\tst.param.b32 [r], %%r2;\n\tret;\n}\n"
             ".visible .entry k()\n{\n\t.reg .b32 %%r<3>;\n\tmov.u32 %%r1, 1;\n"
             "\t{\n\t.param .b32 pa;\n\tst.param.b32 [pa], %%r1;\n\t.param .b32 pr;\n\tcall (pr), g, (pa);\n"
             "\tld.param.b32 %%r2, [pr];\n\t}\n\tret;\n}\n"
             ".visible .entry k2()\n{\n\tret;\n}\n");
    t = ocl(src, err, sizeof err);
    CHECK(t && t->kernels[0].refused && strstr(t->kernels[0].refused, "in a .func") && !t->kernels[1].refused,
          "a .func's collective refuses its callers: \"%s\"", t && t->kernels[0].refused ? t->kernels[0].refused : "(none)");
    CHECK(t && !strstr(t->source, "void cbk_0(") && strstr(t->source, "void cbk_1(") &&
              !strstr(t->source, ".func f */") && !strstr(t->source, ".func g */") && !strstr(t->source, "cb_wshfl_bfly(cb_wxs"),
          "the refused functions and kernel are left out");
    cb_translation_free(t);
}

/* The OpenCL dialect's .local memory, printf, nanosleep, half precision and 64-bit mad. */
static void test_opencl_local_printf(void)
{
    char err[512];
    /* a local array passed by generic address to a .func that converts it back: the work-item's stack */
    const char *stk =
        HEADER ".func (.param .b32 r) get(.param .b64 p)\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n"
        "\t.local .align 8 .b8 d1[8];\n\tld.param.u64 %rd1, [p];\n\tcvta.to.local.u64 %rd2, %rd1;\n"
        "\tld.local.u32 %r1, [%rd2+4];\n\tst.param.b32 [r], %r1;\n\tret;\n}\n"
        ".visible .entry k(.param .u64 out)\n{\n\t.local .align 16 .b8 d0[20];\n\t.reg .b32 %r<3>;\n"
        "\t.reg .b64 %rd<5>;\n\t.reg .pred %p<2>;\n\tmov.u64 %rd1, d0;\n\tcvta.local.u64 %rd2, %rd1;\n"
        "\tst.local.u32 [%rd1+4], 7;\n\tst.u32 [%rd2+8], 9;\n\tisspacep.local %p1, %rd2;\n"
        "\tatom.add.u32 %r2, [%rd2], 1;\n"
        "\t{\n\t.param .b64 a0;\n\tst.param.b64 [a0], %rd2;\n\t.param .b32 r0;\n"
        "\tcall.uni (r0), get, (a0);\n\tld.param.b32 %r1, [r0];\n\t}\n\tret;\n}\n";
    cb_translation *t = ocl(stk, err, sizeof err);
    CHECK(t && !t->kernels[0].refused, "generic .local addresses are refused: %s",
          t && t->kernels[0].refused ? t->kernels[0].refused : "");
    static const char *const want[] = {
        "#define CB_LOCAL_GEN 1",                 /* the generic accesses test the stack's window */
        "uchar cb_stk[48] __attribute__((aligned(16)))", /* the kernel's frame (32) and get's (16) */
        "(uint64_t)(cb_fp + 0u)",                 /* d0: an offset into the stack */
        "CB_LOCAL_WIN + (uint)",                  /* cvta.local */
        " - CB_LOCAL_WIN",                        /* cvta.to.local */
        "*)CB_LP(",                               /* ld.local / st.local through the stack */
        "cb_stn_u32(cb_heap, cb_smem, cb_stk, ",  /* a generic store may reach it */
        "cb_is_lo(cb_a)",                         /* isspacep.local */
        "cb_x, cb_stk, cb_fp + 32u",              /* the callee's frame after the kernel's */
        "int *cb_x, uchar *cb_stk, uint cb_fp",   /* every function takes the stack */
        "cb_is_lo(cb_a) ? (uint32_t)cb_atom_local(cb_heap) : ", /* a generic atomic there fails the launch */
    };
    for (size_t i = 0; t && i < sizeof want / sizeof want[0]; i++)
        CHECK(strstr(t->source, want[i]) != NULL, "stack mode emits \"%s\"", want[i]);
    CHECK(t && !strstr(t->source, "/* .local d0 */") && !strstr(t->source, "/* .local d1 */"),
          "no private .local arrays in stack mode");
    cb_translation_free(t);
    /* without conversions of .local addresses the depots live in the stack too, addressed by offset:
     * never a private array reached through its address as an integer, which Intel's CPU compiler
     * (vectorising work-items) resolved to another work-item's array (local_array) */
    const char *priv = HEADER ".visible .entry k()\n{\n\t.local .align 4 .b8 d0[8];\n\t.reg .b64 %rd<2>;\n"
                              "\tmov.u64 %rd1, d0;\n\tst.local.u32 [%rd1], 1;\n\tret;\n}\n";
    t = ocl(priv, err, sizeof err);
    CHECK(t && strstr(t->source, "uchar cb_stk[") && strstr(t->source, "*)CB_LP(") &&
              !strstr(t->source, "/* .local d0 */"),
          "a unit with .local variables keeps them in the stack");
    cb_translation_free(t);
    /* cvta.param stays refused */
    const char *par = HEADER ".visible .entry k(.param .u32 a)\n{\n\t.reg .b64 %rd<3>;\n\tmov.u64 %rd1, a;\n"
                             "\tcvta.param.u64 %rd2, %rd1;\n\tret;\n}\n";
    t = ocl(par, err, sizeof err);
    CHECK(t && t->kernels[0].refused && strstr(t->kernels[0].refused, "generic addresses of .param memory"),
          "cvta.param is refused: \"%s\"", t && t->kernels[0].refused ? t->kernels[0].refused : "");
    cb_translation_free(t);
    /* printf: a record in the FIFO; its helpers only where a function calls vprintf */
    const char *pf =
        HEADER ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 "
        "vprintf_param_1);\n.global .align 1 .b8 $str[4] = {37, 100, 10, 0};\n"
        ".visible .entry k()\n{\n\t.local .align 8 .b8 d0[8];\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<6>;\n"
        "\tmov.u64 %rd1, d0;\n\tcvta.local.u64 %rd2, %rd1;\n\tmov.u32 %r1, %tid.x;\n\tst.local.u32 [%rd1], %r1;\n"
        "\tmov.u64 %rd3, $str;\n\tcvta.global.u64 %rd4, %rd3;\n\t{\n\t.param .b64 p0;\n\tst.param.b64 [p0], %rd4;\n"
        "\t.param .b64 p1;\n\tst.param.b64 [p1], %rd2;\n\t.param .b32 r0;\n\tcall.uni (r0), vprintf, (p0, p1);\n"
        "\tld.param.b32 %r2, [r0];\n\t}\n\tnanosleep.u32 100;\n\tret;\n}\n";
    t = ocl(pf, err, sizeof err);
    CHECK(t && !t->kernels[0].refused, "printf is refused: %s", t && t->kernels[0].refused ? t->kernels[0].refused : "");
    CHECK(t && strstr(t->source, "static int cb_vprintf(") && strstr(t->source, "cb_vprintf(cb_heap, cb_smem, cb_stk, *(ulong *)"),
          "vprintf appends a record");
    CHECK(t && strstr(t->source, "nanosleep: a sleep of 0 ns"), "nanosleep is a sleep of 0 ns");
    cb_translation_free(t);
    t = ocl(priv, err, sizeof err);
    CHECK(t && !strstr(t->source, "cb_vprintf(") && !strstr(t->source, "cb_harith("), "no printf or half helpers unasked");
    cb_translation_free(t);
    /* half precision through the C dialect's helpers, which need cl_khr_fp64 */
    const char *h = HEADER ".visible .entry k()\n{\n\t.reg .b16 %h<4>;\n\t.reg .b32 %r<3>;\n\t.reg .f32 %f<2>;\n"
                           "\tadd.rn.f16 %h1, %h2, %h3;\n\tfma.rn.f16x2 %r1, %r2, %r2, %r2;\n"
                           "\tcvt.rn.bf16.f32 %h1, %f1;\n\tcvt.rna.tf32.f32 %r1, %f1;\n\tret;\n}\n";
    t = ocl(h, err, sizeof err);
    CHECK(t && !t->kernels[0].refused, "half precision is refused: %s", t && t->kernels[0].refused ? t->kernels[0].refused : "");
    CHECK(t && strstr(t->source, "cb_harith(0, 0, ") && strstr(t->source, "cb_harith2(0, 3, ") &&
              strstr(t->source, "needs cl_khr_fp64") && strstr(t->source, "CB_INL uint64_t cb_round_fmt("),
          "half arithmetic through cb_harith, after the half prelude");
    cb_translation_free(t);
    const char *ha = HEADER ".visible .entry k(.param .u64 p)\n{\n\t.reg .b16 %h<3>;\n\t.reg .b64 %rd<2>;\n"
                            "\tld.param.u64 %rd1, [p];\n\tatom.global.add.noftz.f16 %h1, [%rd1], %h2;\n\tret;\n}\n";
    t = ocl(ha, err, sizeof err);
    CHECK(t && !t->kernels[0].refused && strstr(t->source, "cb_atom_add_h_g(CB_GP(cb_a + 0u), 0, ") &&
              strstr(t->source, "CB_INL ushort cb_atom_add_h_##S("),
          "a half atomic is a CAS loop on its 32-bit word: \"%s\"", t && t->kernels[0].refused ? t->kernels[0].refused : "");
    cb_translation_free(t);
    /* 64-bit mad and carries in 64-bit integers (the carry by a compare), in both dialects */
    const char *m64 = HEADER ".visible .entry k()\n{\n\t.reg .b64 %rd<5>;\n\tmad.lo.s64 %rd1, %rd2, %rd3, %rd4;\n"
                             "\tret;\n}\n.visible .entry k2()\n{\n\t.reg .b64 %rd<5>;\n"
                             "\tadd.cc.u64 %rd1, %rd2, %rd3;\n\taddc.u64 %rd4, %rd2, %rd3;\n\tret;\n}\n";
    t = ocl(m64, err, sizeof err);
    CHECK(t && !t->kernels[0].refused && !strstr(t->source, "cb_u128 cb_") &&
              strstr(t->source, "uint64_t cb_t = cb_m + "), "mad.lo.s64 sums in 64 bits");
    CHECK(t && !t->kernels[1].refused && strstr(t->source, "cb_cf = (uint32_t)((cb_t < cb_a) | (cb_s < cb_t));"),
          "add.cc.u64 carries by a compare: \"%s\"", t && t->kernels[1].refused ? t->kernels[1].refused : "");
    cb_translation_free(t);
    const char *q = HEADER ".visible .entry k(.param .u64 p)\n{\n\t.reg .b128 %q<2>;\n\t.reg .b64 %rd<2>;\n"
                           "\tld.param.u64 %rd1, [p];\n\tld.global.b128 %q1, [%rd1];\n\tret;\n}\n"
                           ".visible .entry k2()\n{\n\t.reg .b128 %q<2>;\n\tret;\n}\n";
    t = ocl(q, err, sizeof err);
    CHECK(t && t->kernels[0].refused && strstr(t->kernels[0].refused, ".b128") && !t->kernels[1].refused,
          "a .b128 register in use refuses its kernel, one only declared does not: \"%s\"",
          t && t->kernels[0].refused ? t->kernels[0].refused : "");
    cb_translation_free(t);
}

/* Texture and surface objects in the OpenCL dialect: the C dialect's emitters and helpers on descriptors in the
 * heap (codegen/opencl/tex.c); a handle that is no descriptor, or a .trap surface access out of range, ends the
 * thread with a trap (in a .func, through cb_x); a unit without them carries none of the helpers. */
static void test_opencl_textures(void)
{
    char err[512];
    const char *src = HEADER
        ".func (.param .b32 r) fetch(.param .b64 h, .param .b32 x)\n{\n\t.reg .f32 %f<5>;\n\t.reg .b64 %rd<2>;\n"
        "\tld.param.u64 %rd1, [h];\n\tld.param.f32 %f4, [x];\n"
        "\ttex.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f4}];\n\tst.param.f32 [r], %f1;\n\tret;\n}\n"
        ".visible .entry k(.param .u64 p, .param .u64 q)\n{\n\t.reg .b64 %rd<4>;\n\t.reg .f32 %f<8>;\n\t.reg .b32 %r<6>;\n"
        "\tld.param.u64 %rd1, [p];\n\tld.param.u64 %rd2, [q];\n\tmov.u32 %r3, %tid.x;\n\tcvt.rn.f32.u32 %f5, %r3;\n"
        "\ttex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f5}];\n"
        "\ttex.level.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f5}], %f1;\n"
        "\ttld4.r.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f5}];\n"
        "\t{\n\t.param .b64 pa;\n\t.param .b32 pb;\n\t.param .b32 rv;\n\tst.param.b64 [pa], %rd1;\n"
        "\tst.param.f32 [pb], %f5;\n\tcall.uni (rv), fetch, (pa, pb);\n\tld.param.f32 %f6, [rv];\n\t}\n"
        "\ttxq.width.b32 %r4, [%rd1];\n"
        "\tsuld.b.2d.v2.b32.trap {%r1, %r2}, [%rd2, {%r3, %r3}];\n"
        "\tsust.b.2d.v2.b32.zero [%rd2, {%r3, %r4}], {%r1, %r2};\n"
        "\tsust.p.1d.v4.b32.clamp [%rd2, {%r3}], {%r1, %r2, %r1, %r2};\n\tret;\n}\n";
    cb_translation *t = ocl(src, err, sizeof err);
    CHECK(t && !t->kernels[0].refused, "textures translate for OpenCL: \"%s\"",
          t && t->kernels[0].refused ? t->kernels[0].refused : "");
    const char *s = t ? t->source : "";
    CHECK(strstr(s, "typedef struct cb_texobj { uint32_t magic; uint32_t is_surface; uint64_t base;") &&
              strstr(s, "uint64_t self; } cb_texobj;") && strstr(s, "CB_INL void cb_tx_filter(CB_TXO o,"),
          "the descriptor (texobj.h) and the C dialect's sampling helpers");
    CHECK(strstr(s, "CB_TXO cb_o = cb_tx(cb_heap, ") && strstr(s, "if (!cb_o) { cb_trap(cb_heap); return;") &&
              strstr(s, "if (!cb_o) { cb_trap(cb_heap); *cb_x = 1; return;"),
          "a bad handle traps and ends the thread, in the kernel and in the .func");
    CHECK(strstr(s, "CB_SUB cb_p = cb_su_addr(cb_heap, cb_o, 8u, ") && strstr(s, "if (!cb_p) { cb_trap(cb_heap); return;") &&
              strstr(s, "cb_su_st_u32(cb_p + 4, ") && strstr(s, "cb_su_store_p(cb_o, cb_p, cb_v, 4);"),
          "surface accesses: .trap ends the thread, .zero and .clamp do not");
    CHECK(!strstr(s, "memcpy") && !strstr(s, "cb_thread"), "nothing of the C runtime");
    cb_translation_free(t);
    const char *plain = HEADER ".visible .entry k()\n{\n\tret;\n}\n";
    t = ocl(plain, err, sizeof err);
    CHECK(t && !strstr(t->source, "cb_texobj") && !strstr(t->source, "cb_tx_"), "no texture helpers without textures");
    cb_translation_free(t);
}

int main(void)
{
    test_errors();
    test_layout();
    test_dialects();
    test_lanes_option();
    test_opencl_warp();
    test_opencl_local_printf();
    test_opencl_textures();
    test_corpus();
    if (failures)
        fprintf(stderr, "test_ptx_parse: %d failures\n", failures);
    else
        printf("test_ptx_parse: ok\n");
    return failures != 0;
}
