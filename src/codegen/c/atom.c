/* atom.c: the atomics beyond C11's integer ones (CB_DIALECT_C), for atom and
 * red (memory.c hands them over):
 *   - .cas.b16 (sm_70; atomicCAS on unsigned short);
 *   - .add{.noftz} on .f16, .bf16, .f16x2, .bf16x2 (atomicAdd on __half,
 *     __nv_bfloat16 and their pairs), rounded to nearest, nothing flushed;
 *   - vector forms (sm_90): .add.v2/.v4.f32 (atomicAdd on float2/float4),
 *     .add.noftz.v2/.v4/.v8 of .f16/.bf16 and .v2/.v4 of .f16x2/.bf16x2;
 *     each element is one atomic operation (the ISA makes no promise about
 *     the vector as a whole);
 *   - .cas.b128 and .exch.b128 (sm_90; 128-bit atomicCAS/atomicExch):
 *     cmpxchg16b on x86-64, a lock per address stripe elsewhere.
 * All are sequentially consistent, like the rest (memory.c).
 */
#include "codegen/c/ops.h"

#include <stdio.h>
#include <string.h>

const char cb_codegen_c_prelude_atom[] =
"/* ---- atomics beyond the integer ones ---- */\n"
"CB_INL uint16_t cb_atom_cas_u16(void *p, uint16_t cmp, uint16_t v) {\n"
"  __atomic_compare_exchange_n((uint16_t *)p, &cmp, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return cmp; }\n"
"/* half adds (t: 0 f16, 1 bf16): round to nearest even, no flush */\n"
"CB_INL uint16_t cb_atom_add_h(void *p, int t, uint16_t v) { uint16_t o = __atomic_load_n((uint16_t *)p, __ATOMIC_RELAXED), n;\n"
"  do n = cb_harith(t, 0, o, v, 0, 0); while (!__atomic_compare_exchange_n((uint16_t *)p, &o, n, 1, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));\n"
"  return o; }\n"
"CB_INL uint32_t cb_atom_add_h2(void *p, int t, uint32_t v) { uint32_t o = __atomic_load_n((uint32_t *)p, __ATOMIC_RELAXED), n;\n"
"  do n = cb_harith2(t, 0, o, v, 0, 0); while (!__atomic_compare_exchange_n((uint32_t *)p, &o, n, 1, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));\n"
"  return o; }\n"
"/* 128-bit compare-and-swap */\n"
"#if defined(__x86_64__)\n"
"__attribute__((target(\"cx16\"), unused)) static cb_u128 cb_atom_cas_u128(void *p, cb_u128 cmp, cb_u128 v) {\n"
"  return __sync_val_compare_and_swap((cb_u128 *)p, cmp, v); }\n"
"#else\n"
"static unsigned char cb_atom128_locks[64];\n"
"__attribute__((unused)) static cb_u128 cb_atom_cas_u128(void *p, cb_u128 cmp, cb_u128 v) {\n"
"  unsigned char *l = &cb_atom128_locks[((uintptr_t)p >> 4) & 63u];\n"
"  while (__atomic_test_and_set(l, __ATOMIC_ACQUIRE)) {}\n"
"  cb_u128 o; memcpy(&o, p, 16); if (o == cmp) memcpy(p, &v, 16); __atomic_clear(l, __ATOMIC_RELEASE); return o; }\n"
"#endif\n"
"CB_INL cb_u128 cb_atom_exch_u128(void *p, cb_u128 v) { cb_u128 o; memcpy(&o, p, 16);\n"
"  for (;;) { cb_u128 seen = cb_atom_cas_u128(p, o, v); if (seen == o) return o; o = seen; } }\n";

int cg_atom_half_kind(ptx_type t)
{
    switch (t) {
    case PTX_TYPE_f16: case PTX_TYPE_f16x2: return 0;
    case PTX_TYPE_bf16: case PTX_TYPE_bf16x2: return 1;
    default: return -1;
    }
}

static int vec_n(const ptx_instr *in)
{
    return ptx_has(in, PTX_MOD_v8) ? 8 : ptx_has(in, PTX_MOD_v4) ? 4 : ptx_has(in, PTX_MOD_v2) ? 2 : 1;
}

/* Element i of operand o (a vector of n, or o itself when n is 1). */
static const ptx_operand *elem(cg *c, const ptx_operand *o, int n, int i)
{
    if (n == 1)
        return o;
    if (o->kind != PTX_OPD_vec || o->nelems != (uint32_t)n)
        cg_fail(c, "vector width does not match the operand");
    return &o->elems[i];
}

/* The element-wise adds: f32 (flushing, as atom.add.f32, and a NaN result the canonical
 * one, as the H200 gives it), halves and half pairs. */
static void emit_add(cg *c, const ptx_instr *in, int has_dst, ptx_type ty, int n)
{
    int m = has_dst ? 1 : 0, hk = cg_atom_half_kind(ty);
    unsigned es = ptx_type_size(ty);
    if (in->nops != m + 2)
        cg_fail(c, "wrong number of operands");
    cg_puts(c, "unsigned char *cb_p = ");
    cg_address(c, &in->ops[m], ptx_instr_space(in));
    cg_puts(c, ";\n");
    for (int i = 0; i < n; i++) {
        const ptx_operand *v = elem(c, &in->ops[m + 1], n, i);
        const ptx_operand *d = has_dst ? elem(c, &in->ops[0], n, i) : NULL;
        ptx_type rt = ty == PTX_TYPE_f32 ? PTX_TYPE_f32 : es == 2 ? PTX_TYPE_b16 : PTX_TYPE_b32;
        cg_puts(c, "    ");
        if (d)
            cg_dst_open(c, d, rt);
        else
            cg_puts(c, "(void)(");
        if (ty == PTX_TYPE_f32)
            cg_printf(c, "cb_atom_add_f32v(cb_p + %u, ", i * es);
        else
            cg_printf(c, "cb_atom_add_h%s(cb_p + %u, %d, ", es == 2 ? "" : "2", i * es, hk);
        cg_read(c, v, rt);
        cg_puts(c, ")");
        if (d)
            cg_dst_close(c, d, rt);
        else
            cg_puts(c, ");\n");
    }
}

int cg_emit_atom_extra(cg *c, const ptx_instr *in, int has_dst)
{
    ptx_type ty = ty0(in);
    int n = vec_n(in), m = has_dst ? 1 : 0;
    int cas = ptx_has(in, PTX_MOD_cas), exch = ptx_has(in, PTX_MOD_exch), add = ptx_has(in, PTX_MOD_add);
    if (ty == PTX_TYPE_b16 && cas && n == 1) {
        if (!has_dst || in->nops != 4)
            cg_fail(c, "atom.cas.b16 takes d, [a], b, c");
        cg_dst_open(c, &in->ops[0], PTX_TYPE_u16);
        cg_puts(c, "cb_atom_cas_u16(");
        cg_address(c, &in->ops[1], ptx_instr_space(in));
        for (int i = 2; i < 4; i++) {
            cg_puts(c, ", ");
            cg_read(c, &in->ops[i], PTX_TYPE_u16);
        }
        cg_puts(c, ")");
        cg_dst_close(c, &in->ops[0], PTX_TYPE_u16);
        return 1;
    }
    if (ty == PTX_TYPE_b128 && (cas || exch) && n == 1) {
        if (!has_dst || in->nops != (cas ? 4 : 3))
            cg_fail(c, "atom.cas.b128 takes d, [a], b, c; atom.exch.b128 d, [a], b");
        cg_dst_open(c, &in->ops[0], PTX_TYPE_b128);
        cg_printf(c, "cb_atom_%s_u128(", cas ? "cas" : "exch");
        cg_address(c, &in->ops[m], ptx_instr_space(in));
        for (int i = 2; i < in->nops; i++) {
            cg_puts(c, ", ");
            cg_read(c, &in->ops[i], PTX_TYPE_b128);
        }
        cg_puts(c, ")");
        cg_dst_close(c, &in->ops[0], PTX_TYPE_b128);
        return 1;
    }
    if (!add)
        return 0;
    if (cg_atom_half_kind(ty) >= 0) {
        int pair = ptx_type_size(ty) == 4;
        if ((!pair && n != 1 && n != 2 && n != 4 && n != 8) || (pair && n > 4))
            cg_fail(c, "half atomics take .v2/.v4/.v8 of .f16/.bf16, .v2/.v4 of .f16x2/.bf16x2");
        emit_add(c, in, has_dst, ty, n);
        return 1;
    }
    if (ty == PTX_TYPE_f32 && (n == 2 || n == 4)) {
        emit_add(c, in, has_dst, ty, n);
        return 1;
    }
    return 0;
}
