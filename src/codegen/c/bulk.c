/* bulk.c: the bulk asynchronous copies and the asynchronous stores and
 * reductions of sm_90/sm_100 (CB_DIALECT_C):
 *   cp.async.bulk.shared::{cluster,cta}.global.mbarrier::complete_tx::bytes
 *       {.multicast::cluster}{.L2::cache_hint} [dst], [src], size, [mbar]{, ctaMask}{, policy}
 *   cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [dst], [src], size, [mbar]
 *   cp.async.bulk.global.shared::cta.bulk_group{.L2::cache_hint}{.cp_mask} [dst], [src], size{, policy}{, mask}
 *   cp.async.bulk.prefetch.L2.global{.L2::cache_hint} [src], size{, policy}
 *   cp.async.bulk.commit_group; cp.async.bulk.wait_group{.read} N
 *   cp.reduce.async.bulk.global.shared::cta.bulk_group.op{.noftz}.type [dst], [src], size{, policy}
 *   cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.op.type [dst], [src], size, [mbar]
 *   st.async{.weak}.shared::cluster.mbarrier::complete_tx::bytes{.v2,.v4}.type [a], v, [mbar]
 *   red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.op.type [a], v, [mbar]
 *   st.bulk{.weak}{.shared::cta} [a], size, 0
 * Every copy happens when it is issued, as cp.async does (async.c); then
 * the mbarrier, if any, sees its complete-tx of the bytes written (in the
 * block the destination belongs to, mbarrier.c), and bulk groups have
 * nothing left to wait for. A multicast copy writes the same offset of the
 * shared memory of every block of ctaMask and completes each one's mbarrier
 * at the mbarrier's offset. Reductions combine element by element, each
 * element one atomic operation. The tensor forms (cp.async.bulk.tensor,
 * cp.reduce.async.bulk.tensor) need tensor maps, which cubridge does not
 * model: the parser rejects them.
 */
#include "codegen/c/ops.h"

#include <stdio.h>
#include <string.h>

const char cb_codegen_c_prelude_bulk[] =
"/* ---- bulk copies, asynchronous stores and reductions ---- */\n"
"CB_INL void cb_bk_check(cb_thread *t, const unsigned char *d, const unsigned char *s, uint32_t n, int smem_dst,\n"
"                        const char *op) {\n"
"  if ((n & 15u) || ((uintptr_t)s & 15u) || ((uintptr_t)d & 15u))\n"
"    cb_mb_fail(t, op, \"the size and both addresses must be multiples of 16\");\n"
"  if (smem_dst) { int r = cb_cl_rank_of(t, (uint64_t)(uintptr_t)d);\n"
"    if (r < 0 || (uint64_t)((uintptr_t)d - (uintptr_t)t->blk->cluster_shared[r]) + n > cb_cl_size(t))\n"
"      cb_mb_fail(t, op, \"the destination is not in the shared memory of a block of the cluster\"); } }\n"
"/* the copy, then its complete-tx on mb (none: NULL) */\n"
"CB_INL void cb_bk_copy(cb_thread *t, unsigned char *d, const unsigned char *s, uint32_t n, unsigned char *mb,\n"
"                       int smem_dst, const char *op) {\n"
"  cb_bk_check(t, d, s, n, smem_dst, op); memmove(d, s, n);\n"
"  if (mb) (void)cb_mb_update(t, mb, 0, 0, 0, 0, -(int64_t)n, op); }\n"
"/* multicast: the same offsets in every block of mask */\n"
"CB_INL void cb_bk_multicast(cb_thread *t, unsigned char *d, const unsigned char *s, uint32_t n, unsigned char *mb,\n"
"                            uint32_t mask, const char *op) {\n"
"  uint32_t cn = cb_cl_n(t); int rd = cb_cl_rank_of(t, (uint64_t)(uintptr_t)d), rm = cb_cl_rank_of(t, (uint64_t)(uintptr_t)mb);\n"
"  if (rd < 0 || rm < 0) cb_mb_fail(t, op, \"the destination or the mbarrier is not in the cluster's shared memory\");\n"
"  if (cn < 16 && mask >> cn) cb_mb_fail(t, op, \"ctaMask names a block outside the cluster\");\n"
"  uintptr_t od = (uintptr_t)d - (uintptr_t)t->blk->cluster_shared[rd], om = (uintptr_t)mb - (uintptr_t)t->blk->cluster_shared[rm];\n"
"  for (uint32_t r = 0; r < cn && r < 16; r++) if (mask >> r & 1u) {\n"
"    unsigned char *w = t->blk->cluster_shared[r];\n"
"    cb_bk_copy(t, w + od, s, n, w + om, 1, op); } }\n"
"/* the element reductions: op 0 add, 1 min, 2 max, 3 inc, 4 dec, 5 and, 6 or, 7 xor; ty 0 u32, 1 s32,\n"
"   2 u64, 3 s64, 4 f32, 5 f64, 6 f16, 7 bf16 */\n"
"CB_INL void cb_bk_red1(unsigned char *p, uint64_t v, int op, int ty) {\n"
"  switch (ty) {\n"
"  case 0: switch (op) { case 0: (void)cb_atom_add_u32(p, (uint32_t)v); break; case 1: (void)cb_atom_min_u32(p, (uint32_t)v); break;\n"
"    case 2: (void)cb_atom_max_u32(p, (uint32_t)v); break; case 3: (void)cb_atom_inc_u32(p, (uint32_t)v); break;\n"
"    case 4: (void)cb_atom_dec_u32(p, (uint32_t)v); break; case 5: (void)cb_atom_and_u32(p, (uint32_t)v); break;\n"
"    case 6: (void)cb_atom_or_u32(p, (uint32_t)v); break; default: (void)cb_atom_xor_u32(p, (uint32_t)v); } break;\n"
"  case 1: switch (op) { case 1: (void)cb_atom_min_s32(p, (int32_t)v); break; case 2: (void)cb_atom_max_s32(p, (int32_t)v); break;\n"
"    default: (void)cb_atom_add_s32(p, (int32_t)v); } break;\n"
"  case 2: switch (op) { case 0: (void)cb_atom_add_u64(p, v); break; case 1: (void)cb_atom_min_u64(p, v); break;\n"
"    case 2: (void)cb_atom_max_u64(p, v); break; case 5: (void)cb_atom_and_u64(p, v); break;\n"
"    case 6: (void)cb_atom_or_u64(p, v); break; default: (void)cb_atom_xor_u64(p, v); } break;\n"
"  case 3: switch (op) { case 1: (void)cb_atom_min_s64(p, (int64_t)v); break; case 2: (void)cb_atom_max_s64(p, (int64_t)v); break;\n"
"    default: (void)cb_atom_add_s64(p, (int64_t)v); } break;\n"
"  case 4: (void)cb_atom_add_f32(p, cb_f32((uint32_t)v)); break;\n"
"  case 5: (void)cb_atom_add_f64(p, cb_f64(v)); break;\n"
"  default: (void)cb_atom_add_h(p, ty - 6, (uint16_t)v); } }\n"
"CB_INL void cb_bk_reduce(cb_thread *t, unsigned char *d, const unsigned char *s, uint32_t n, unsigned char *mb,\n"
"                         int smem_dst, int op, int ty, const char *op_name) {\n"
"  static const uint32_t es[8] = {4, 4, 8, 8, 4, 8, 2, 2};\n"
"  cb_bk_check(t, d, s, n, smem_dst, op_name);\n"
"  for (uint32_t i = 0; i + es[ty] <= n; i += es[ty]) { uint64_t v = 0; memcpy(&v, s + i, es[ty]); cb_bk_red1(d + i, v, op, ty); }\n"
"  if (mb) (void)cb_mb_update(t, mb, 0, 0, 0, 0, -(int64_t)n, op_name); }\n"
"/* st.bulk: n bytes of zeros (n a multiple of 8) */\n"
"CB_INL void cb_bk_zero(cb_thread *t, unsigned char *d, uint64_t n) {\n"
"  if ((n & 7u) || ((uintptr_t)d & 7u)) cb_mb_fail(t, \"st.bulk\", \"the size and the address must be multiples of 8\");\n"
"  int r = cb_cl_rank_of(t, (uint64_t)(uintptr_t)d);\n"
"  if (r < 0 || (uint64_t)((uintptr_t)d - (uintptr_t)t->blk->cluster_shared[r]) + n > cb_cl_size(t))\n"
"    cb_mb_fail(t, \"st.bulk\", \"the range is not in the block's shared memory\");\n"
"  memset(d, 0, (size_t)n); }\n";

/* The instruction's name, as the messages give it. */
static void emit_name(cg *c, const char *what)
{
    cg_printf(c, "\"%s\"", what);
}

/* The cache-policy operand (.L2::cache_hint) is the last one, a 64-bit register. */
static int has_policy(cg *c, const ptx_instr *in, int first_optional)
{
    if (in->nops <= first_optional)
        return 0;
    const ptx_operand *o = &in->ops[in->nops - 1];
    return ptx_has(in, PTX_MOD_hint) && o->kind == PTX_OPD_reg && ptx_type_size(c->f->regs[o->reg].type) == 8;
}

static void need_ops(cg *c, const ptx_instr *in, int lo, int hi, const char *forms)
{
    if (in->nops < lo || in->nops > hi)
        cg_fail(c, forms);
}

/* .op of the reductions and their element type (cb_bk_red1's numbers); -1 when unsupported. */
static int red_op(const ptx_instr *in)
{
    static const ptx_mod ops[] = {PTX_MOD_add, PTX_MOD_min, PTX_MOD_max, PTX_MOD_inc,
                                  PTX_MOD_dec, PTX_MOD_and, PTX_MOD_or, PTX_MOD_xor};
    for (int i = 0; i < 8; i++)
        if (ptx_has(in, ops[i]))
            return i;
    return -1;
}

static int red_type(ptx_type t, int op)
{
    int bitwise = op >= 5, inc = op == 3 || op == 4;
    switch (t) {
    case PTX_TYPE_b32: return bitwise ? 0 : -1;
    case PTX_TYPE_u32: return 0;
    case PTX_TYPE_s32: return bitwise || inc ? -1 : 1;
    case PTX_TYPE_b64: return bitwise ? 2 : -1;
    case PTX_TYPE_u64: return inc ? -1 : 2;
    case PTX_TYPE_s64: return bitwise || inc ? -1 : 3;
    case PTX_TYPE_f32: return op == 0 ? 4 : -1;
    case PTX_TYPE_f64: return op == 0 ? 5 : -1;
    case PTX_TYPE_f16: return op == 0 ? 6 : -1;
    case PTX_TYPE_bf16: return op == 0 ? 7 : -1;
    default: return -1;
    }
}

/* cp.async.bulk ... and cp.reduce.async.bulk ... (not the tensor forms) */
void cg_emit_bulk_copy(cg *c, const ptx_instr *in)
{
    int reduce = ptx_has(in, PTX_MOD_reduce), mb = ptx_has(in, PTX_MOD_complete_tx_bytes);
    int group = ptx_has(in, PTX_MOD_bulk_group);
    if (ptx_has(in, PTX_MOD_commit_group) || ptx_has(in, PTX_MOD_wait_group)) {
        if (reduce || in->nops != (ptx_has(in, PTX_MOD_wait_group) ? 1 : 0))
            cg_fail(c, "cp.async.bulk.commit_group takes no operands, cp.async.bulk.wait_group{.read} a count");
        cg_puts(c, "/* bulk copies complete when issued: nothing to wait for */\n");
        return;
    }
    if (ptx_has(in, PTX_MOD_prefetch)) {
        need_ops(c, in, 2, 3, "cp.async.bulk.prefetch.L2.global takes [src], size{, cache-policy}");
        cg_puts(c, "/* cp.async.bulk.prefetch: no effect on the CPU */\n");
        return;
    }
    int to_global = ptx_has(in, PTX_MOD_global) && ptx_has(in, PTX_MOD_shared_cta) && group;
    int from_global = ptx_has(in, PTX_MOD_global) && mb && !group;
    int smem_to_smem = ptx_has(in, PTX_MOD_shared_cluster) && ptx_has(in, PTX_MOD_shared_cta) && mb && !group;
    if (to_global + from_global + smem_to_smem != 1 || in->ntypes > 1 || (reduce && from_global) ||
        (!reduce && in->ntypes))
        cg_fail(c, "cp.async.bulk: the forms are .shared::{cluster,cta}.global.mbarrier::complete_tx::bytes, "
                   ".shared::cluster.shared::cta.mbarrier::complete_tx::bytes and .global.shared::cta.bulk_group");
    int multicast = ptx_has(in, PTX_MOD_multicast_cluster), policy = has_policy(c, in, to_global ? 3 : 4);
    int mask = to_global && ptx_has(in, PTX_MOD_cp_mask);
    int base = to_global ? 3 : 4;
    if (in->nops != base + multicast + policy + mask || (multicast && !from_global) || (mask && reduce))
        cg_fail(c, "cp.async.bulk: wrong operands for the form (a [mbar] with complete_tx, ctaMask with "
                   ".multicast::cluster, the policy with .L2::cache_hint)");
    const char *name = reduce ? "cp.reduce.async.bulk" : "cp.async.bulk";
    int op = -1, ty = -1;
    if (reduce) {
        op = red_op(in);
        ty = in->ntypes ? red_type(in->types[0], op < 0 ? 0 : op) : -1;
        if (op < 0 || ty < 0)
            cg_fail(c, "cp.reduce.async.bulk: .add/.min/.max/.inc/.dec on .u32/.s32/.u64/.s64 (inc and dec .u32 only), "
                       ".and/.or/.xor on .b32/.b64, .add on .f32/.f64/.f16/.bf16 (.noftz)");
    }
    ptx_space dsp = to_global ? PTX_SPACE_global : from_global ? PTX_SPACE_shared_cluster : PTX_SPACE_shared_cluster;
    if (from_global && !ptx_has(in, PTX_MOD_shared_cluster))
        dsp = PTX_SPACE_shared;
    ptx_space ssp = from_global ? PTX_SPACE_global : PTX_SPACE_shared;
    cg_puts(c, "unsigned char *cb_d = ");
    cg_address(c, &in->ops[0], dsp);
    cg_puts(c, ";\n    const unsigned char *cb_s = ");
    cg_address(c, &in->ops[1], ssp);
    cg_puts(c, ";\n    unsigned char *cb_m = ");
    if (to_global)
        cg_puts(c, "NULL");
    else
        cg_address(c, &in->ops[3], dsp);
    cg_puts(c, ";\n    uint32_t cb_n = (uint32_t)");
    cg_read(c, &in->ops[2], PTX_TYPE_u32);
    cg_puts(c, ";\n    ");
    if (mask) {
        /* .cp_mask: byte i of each 16 is copied when bit i of the mask is set */
        cg_puts(c, "uint32_t cb_k = (uint32_t)");
        cg_read(c, &in->ops[in->nops - 1], PTX_TYPE_u32);
        cg_puts(c, ";\n    cb_bk_check(t, cb_d, cb_s, cb_n, 0, \"cp.async.bulk\");\n"
                   "    for (uint32_t cb_i = 0; cb_i < cb_n; cb_i++) if (cb_k >> (cb_i & 15u) & 1u) cb_d[cb_i] = cb_s[cb_i];\n");
        return;
    }
    if (multicast) {
        cg_puts(c, "cb_bk_multicast(t, cb_d, cb_s, cb_n, cb_m, (uint32_t)");
        cg_read(c, &in->ops[4], PTX_TYPE_u16);
        cg_puts(c, " & 0xffffu, ");
    } else if (reduce) {
        cg_printf(c, "cb_bk_reduce(t, cb_d, cb_s, cb_n, cb_m, %d, %d, %d, ", !to_global, op, ty);
    } else {
        cg_printf(c, "cb_bk_copy(t, cb_d, cb_s, cb_n, cb_m, %d, ", !to_global);
    }
    emit_name(c, name);
    cg_puts(c, ");\n");
}

/* st.async ... [a], v, [mbar]: the store, then the complete-tx of its bytes on the mbarrier. */
void cg_emit_st_async(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    int n = ptx_has(in, PTX_MOD_v4) ? 4 : ptx_has(in, PTX_MOD_v2) ? 2 : 1;
    unsigned es = ptx_type_size(ty);
    if (!ptx_has(in, PTX_MOD_complete_tx_bytes) || in->nops != 3 || (es != 4 && es != 8) || (n == 4 && es != 4) ||
        ptx_type_kind(ty) == 'p')
        cg_fail(c, "st.async.shared::cluster.mbarrier::complete_tx::bytes{.v2,.v4}.{b32,b64,u32,s32,u64,s64,f32,f64} "
                   "[a], v, [mbar] (.v4 for 32-bit types)");
    const ptx_operand *v = &in->ops[1];
    if ((n > 1) != (v->kind == PTX_OPD_vec) || (n > 1 && v->nelems != (uint32_t)n))
        cg_fail(c, "vector width does not match the operand");
    cg_puts(c, "unsigned char *cb_p = ");
    cg_address(c, &in->ops[0], PTX_SPACE_shared_cluster);
    cg_puts(c, ";\n    unsigned char *cb_m = ");
    cg_address(c, &in->ops[2], PTX_SPACE_shared_cluster);
    cg_puts(c, ";\n");
    for (int i = 0; i < n; i++) {
        cg_printf(c, "    cb_st_%s(cb_p + %u, ", cg_tname(ty), i * es);
        cg_read(c, n > 1 ? &v->elems[i] : v, ty);
        cg_puts(c, ");\n");
    }
    cg_printf(c, "    (void)cb_mb_update(t, cb_m, 0, 0, 0, 0, -%u, \"st.async\");\n", n * es);
}

/* red.async ... [a], v, [mbar]: the reduction, then the complete-tx of its bytes. */
void cg_emit_red_async(cg *c, const ptx_instr *in)
{
    int op = red_op(in), ty = op < 0 ? -1 : red_type(ty0(in), op);
    if (!ptx_has(in, PTX_MOD_complete_tx_bytes) || in->nops != 3 || ty < 0 || ty > 3)
        cg_fail(c, "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes: .inc/.dec/.min/.max/.add "
                   "on .u32/.s32 (.add also .u64), .and/.or/.xor on .b32/.b64, [a], v, [mbar]");
    unsigned es = ty >= 2 ? 8 : 4;
    cg_puts(c, "unsigned char *cb_p = ");
    cg_address(c, &in->ops[0], PTX_SPACE_shared_cluster);
    cg_puts(c, ";\n    unsigned char *cb_m = ");
    cg_address(c, &in->ops[2], PTX_SPACE_shared_cluster);
    cg_puts(c, ";\n    cb_bk_red1(cb_p, (uint64_t)");
    cg_read(c, &in->ops[1], es == 8 ? PTX_TYPE_u64 : PTX_TYPE_u32);
    cg_printf(c, ", %d, %d);\n    (void)cb_mb_update(t, cb_m, 0, 0, 0, 0, -%u, \"red.async\");\n", op, ty, es);
}

/* st.bulk{.weak}{.shared::cta} [a], size, initval: zeros (initval must be 0). */
void cg_emit_st_bulk(cg *c, const ptx_instr *in)
{
    if (in->nops != 3 || in->ops[2].kind != PTX_OPD_int || in->ops[2].imm != 0)
        cg_fail(c, "st.bulk takes [a], size, 0");
    ptx_space sp = ptx_instr_space(in);
    cg_puts(c, "cb_bk_zero(t, ");
    cg_address(c, &in->ops[0], sp == PTX_SPACE_none ? PTX_SPACE_none : PTX_SPACE_shared);
    cg_puts(c, ", (uint64_t)");
    cg_read(c, &in->ops[1], PTX_TYPE_u64);
    cg_puts(c, ");\n");
}
