/* test_inspect_compare.c: the inspector's comparison, tolerances, fault
 * injector and store-type analysis, without running a program. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inspect/inspect_internal.h"

static int failures;
#define CHECK(c)                                                                                           \
    do {                                                                                                   \
        if (!(c)) {                                                                                        \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #c);                          \
            failures++;                                                                                    \
        }                                                                                                  \
    } while (0)

static void diff_f32(const float *a, const float *b, const float *before, size_t n, cbi_diff *d)
{
    cbi_compare((const unsigned char *)a, (const unsigned char *)b, (const unsigned char *)before, n * 4, CB_ELEM_F32,
                4, 0, cbi_tolerance_of(CB_ELEM_F32), d);
}

static void test_tolerances(void)
{
    CHECK(cbi_tolerance_of(CB_ELEM_F32).rtol == 1.3e-6 && cbi_tolerance_of(CB_ELEM_F32).atol == 1e-5);
    CHECK(cbi_tolerance_of(CB_ELEM_F16).rtol == 1e-3 && cbi_tolerance_of(CB_ELEM_F16).atol == 1e-5);
    CHECK(cbi_tolerance_of(CB_ELEM_BF16).rtol == 1.6e-2 && cbi_tolerance_of(CB_ELEM_BF16).atol == 1e-5);
    CHECK(cbi_tolerance_of(CB_ELEM_INT).rtol == 0);
}

static void test_compare_f32(void)
{
    float before[4] = {0, 0, 0, 0}, ref[4] = {1, 2, 3, 4}, res[4] = {1, 2, 3, 4};
    cbi_diff d;
    diff_f32(res, ref, before, 4, &d);
    CHECK(!cbi_diff_failed(&d) && d.compared == 4 && d.max_abs == 0);
    res[2] = 3.000001f;   /* within rtol 1.3e-6 * 3 + 1e-5 */
    diff_f32(res, ref, before, 4, &d);
    CHECK(!cbi_diff_failed(&d) && d.max_abs > 0);
    res[2] = 3.003f;      /* 1e-3 relative: drift */
    diff_f32(res, ref, before, 4, &d);
    CHECK(cbi_diff_failed(&d) && d.mismatched == 1 && d.first_bad == 2);
    CHECK(fabs(d.rel_l1 - 0.003 / 10) < 1e-6);
    res[2] = NAN;
    diff_f32(res, ref, before, 4, &d);
    CHECK(cbi_diff_failed(&d) && d.nan_inf == 1);
    float zero[4] = {0, 0, 0, 0};
    diff_f32(zero, ref, NULL, 4, &d);
    CHECK(cbi_diff_failed(&d) && d.all_zero);
    float old[4] = {9, 9, 9, 9};
    diff_f32(old, ref, old, 4, &d);
    CHECK(cbi_diff_failed(&d) && d.untouched);
}

static void test_compare_int_and_half(void)
{
    int a[3] = {1, 2, 3}, b[3] = {1, 2, 4};
    cbi_diff d;
    cbi_compare((unsigned char *)a, (unsigned char *)b, NULL, sizeof a, CB_ELEM_INT, 4, 0,
                cbi_tolerance_of(CB_ELEM_INT), &d);
    CHECK(cbi_diff_failed(&d) && d.first_bad == 2 && d.max_abs == 1);
    uint16_t h1[2] = {0x3c00, 0x4000}, h2[2] = {0x3c02, 0x4000};   /* 1.0 vs 1.0 + 2 ulp (2^-9 relative) */
    cbi_compare((unsigned char *)h1, (unsigned char *)h2, NULL, 4, CB_ELEM_F16, 2, 0, cbi_tolerance_of(CB_ELEM_F16),
                &d);
    CHECK(cbi_diff_failed(&d));   /* 1.95e-3 relative > rtol 1e-3 (one ulp, 9.8e-4, passes) */
    uint16_t b1[1] = {0x3f80}, b2[1] = {0x3f81};   /* bf16 1.0 vs 1 + 2^-7 */
    cbi_compare((unsigned char *)b1, (unsigned char *)b2, NULL, 2, CB_ELEM_BF16, 2, 0, cbi_tolerance_of(CB_ELEM_BF16),
                &d);
    CHECK(!cbi_diff_failed(&d));   /* 7.8e-3 relative < rtol 1.6e-2 */
}

static void test_faults(void)
{
    const char *faults[] = {"zero", "nan", "perturb", "skip"};
    for (int i = 0; i < 4; i++) {
        float before[4] = {0, 0, 0, 0}, ref[4] = {1, 2, 3, 4}, res[4] = {1, 2, 3, 4};
        CHECK(cbi_fault_apply(faults[i], (unsigned char *)res, (unsigned char *)before, sizeof res, CB_ELEM_F32, 4, 0));
        cbi_diff d;
        diff_f32(res, ref, before, 4, &d);
        if (!cbi_diff_failed(&d))
            fprintf(stderr, "fault %s was not caught\n", faults[i]);
        CHECK(cbi_diff_failed(&d));
    }
    float same[2] = {1, 2};
    CHECK(!cbi_fault_apply("zero", (unsigned char *)same, (unsigned char *)same, sizeof same, CB_ELEM_F32, 4, 0));
}

/* A hand-written translation in the shape codegen emits: PTX in comments. */
static void test_store_types(void)
{
    static const char src[] =
        "\n/* line 3: .entry k */\nvoid cbk_0(cb_thread *t)\n{\n"
        "    /* 10: ld.param.u64 %rd1, [k_param_0]; */\n    { cb_rd1 = *(uint64_t *)((unsigned char *)t->blk->params + 0 + 0); }\n"
        "    /* 11: ld.param.u64 %rd2, [k_param_1]; */\n    { cb_rd2 = *(uint64_t *)((unsigned char *)t->blk->params + 8 + 0); }\n"
        "    /* 12: ld.param.u64 %rd3, [k_param_2]; */\n    { cb_rd3 = *(uint64_t *)((unsigned char *)t->blk->params + 16 + 0); }\n"
        "    /* 13: cvta.to.global.u64 %rd4, %rd1; */\n    { cb_rd4 = cb_rd1; }\n"
        "    /* 14: add.s64 %rd5, %rd4, %rd9; */\n    { }\n"
        "    /* 15: st.global.f32 [%rd5], %f1; */\n    { }\n"
        "    /* 16: cvt.rn.f16.f32 %rs1, %f1; */\n    { }\n"
        "    /* 17: st.global.b16 [%rd2+2], %rs1; */\n    { }\n"
        "    /* 18: atom.global.add.u32 %r1, [%rd3], 1; */\n    { }\n"
        "    /* 19: st.global.u32 [gcount], %r1; */\n    { }\n"
        "}\n";
    cb_param_info params[3] = {{0, 8, 8, 1}, {8, 8, 8, 1}, {16, 8, 8, 1}};
    cb_kernel_info k = {.name = "k", .nparams = 3, .params = params, .param_bytes = 24};
    cb_global_info g = {.name = "gcount", .space = CB_SPACE_GLOBAL, .size = 4, .align = 4};
    cb_translation tr = {.source = (char *)src, .source_len = sizeof src - 1, .nkernels = 1, .kernels = &k,
                         .nglobals = 1, .globals = &g};
    cbi_store_types st;
    cbi_store_types_of(&tr, 0, &st);
    CHECK(st.ntags == 4);
    CHECK(st.stored[0] && st.type[0] == CB_ELEM_F32);
    CHECK(st.stored[1] && st.type[1] == CB_ELEM_F16);
    CHECK(st.stored[2] && st.type[2] == CB_ELEM_INT && st.width[2] == 4);
    CHECK(st.stored[3] && st.order_dependent[3]);   /* stores an atomic's return value */
    CHECK(!st.side_effects);
}

int main(void)
{
    test_tolerances();
    test_compare_f32();
    test_compare_int_and_half();
    test_faults();
    test_store_types();
    if (failures)
        fprintf(stderr, "test_inspect_compare: %d failures\n", failures);
    return failures ? 1 : 0;
}
