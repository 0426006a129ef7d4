/* cluster.c: thread block clusters (sm_90; CB_DIALECT_C): distributed
 * shared memory addressing and the instructions that name blocks of the
 * cluster: mapa, getctarank, and the .shared::cluster state space of ld,
 * st, atom, red, cvta, isspacep and the mbarrier and bulk-copy
 * instructions (cg_address). The cluster's barrier (barrier.cluster) is in
 * control.c, its special registers in operands.c.
 *
 * The layout (kernel ABI 8, kernel_abi.h): cb_block.cluster_shared[r] is
 * the shared window of the cluster's block of rank r, all of the same size,
 * so a generic address into any of them is a host address that plain loads
 * and stores reach. A .shared::cluster address is a 32-bit offset into a
 * window: a plain .shared::cta offset names the executing block's window
 * (the ISA puts the .shared::cta window inside the .shared::cluster one),
 * and (rank + 1) << 24 | offset names block rank's, which is what mapa
 * gives and getctarank reads back.
 */
#include "codegen/c/ops.h"

#include <stdio.h>
#include <string.h>

const char cb_codegen_c_prelude_cluster[] =
"/* ---- thread block clusters ---- */\n"
"CB_INL uint32_t cb_cl_n(const cb_thread *t) { return t->blk->cluster_dim.x * t->blk->cluster_dim.y * t->blk->cluster_dim.z; }\n"
"CB_INL uint64_t cb_cl_size(const cb_thread *t) { return (uint64_t)cb_dyn_smem(t) + t->blk->dynamic_smem; }\n"
"/* a .shared::cluster address -> its host address */\n"
"CB_INL unsigned char *cb_dsmem(cb_thread *t, uint32_t a) { uint32_t r = a >> CB_DSMEM_RANK_SHIFT;\n"
"  if (!r) return t->blk->shared + a;\n"
"  if (r > cb_cl_n(t)) { t->blk->rt->fail(t, \"a .shared::cluster address names a block outside the cluster\"); __builtin_unreachable(); }\n"
"  return t->blk->cluster_shared[r - 1] + (a & CB_DSMEM_OFFSET_MASK); }\n"
"/* the rank of the block whose shared window holds generic address a, or -1 */\n"
"CB_INL int cb_cl_rank_of(const cb_thread *t, uint64_t a) { uint32_t n = cb_cl_n(t); uint64_t sz = cb_cl_size(t);\n"
"  for (uint32_t r = 0; r < n; r++) { uint64_t b = (uint64_t)(uintptr_t)t->blk->cluster_shared[r];\n"
"    if (a >= b && a - b < sz) return (int)r; }\n"
"  return -1; }\n"
"/* generic -> .shared::cluster (the executing block's own window as a plain offset) */\n"
"CB_INL uint32_t cb_cl_to_dsmem(cb_thread *t, uint64_t a, const char *op) { int r = cb_cl_rank_of(t, a);\n"
"  if (r < 0) { t->blk->rt->fail(t, op); __builtin_unreachable(); }\n"
"  uint32_t off = (uint32_t)(a - (uint64_t)(uintptr_t)t->blk->cluster_shared[r]);\n"
"  return (uint32_t)r == t->blk->cluster_rank ? off : ((uint32_t)r + 1u) << CB_DSMEM_RANK_SHIFT | off; }\n"
"/* mapa on a generic address: the same offset in block rank's window */\n"
"CB_INL uint64_t cb_mapa_generic(cb_thread *t, uint64_t a, uint32_t rank) { int r = cb_cl_rank_of(t, a);\n"
"  if (r < 0) { t->blk->rt->fail(t, \"mapa: the address is not in the shared memory of a block of the cluster\"); __builtin_unreachable(); }\n"
"  if (rank >= cb_cl_n(t)) { t->blk->rt->fail(t, \"mapa: the rank is not that of a block of the cluster\"); __builtin_unreachable(); }\n"
"  return (uint64_t)(uintptr_t)t->blk->cluster_shared[rank] + (a - (uint64_t)(uintptr_t)t->blk->cluster_shared[r]); }\n"
"CB_INL uint32_t cb_mapa_dsmem(cb_thread *t, uint32_t a, uint32_t rank) {\n"
"  if (rank >= cb_cl_n(t)) { t->blk->rt->fail(t, \"mapa: the rank is not that of a block of the cluster\"); __builtin_unreachable(); }\n"
"  return (rank + 1u) << CB_DSMEM_RANK_SHIFT | (a & CB_DSMEM_OFFSET_MASK); }\n"
"CB_INL uint32_t cb_ctarank_dsmem(const cb_thread *t, uint32_t a) { uint32_t r = a >> CB_DSMEM_RANK_SHIFT;\n"
"  return r ? r - 1u : t->blk->cluster_rank; }\n"
"CB_INL uint32_t cb_ctarank_generic(cb_thread *t, uint64_t a) { int r = cb_cl_rank_of(t, a);\n"
"  if (r < 0) { t->blk->rt->fail(t, \"getctarank: the address is not in the shared memory of a block of the cluster\"); __builtin_unreachable(); }\n"
"  return (uint32_t)r; }\n";

/* The space of mapa and getctarank: .shared::cluster or generic. */
static int cluster_space(cg *c, const ptx_instr *in, const char *what)
{
    ptx_space sp = ptx_instr_space(in);
    if (sp != PTX_SPACE_shared_cluster && sp != PTX_SPACE_none) {
        char msg[120];
        snprintf(msg, sizeof msg, "%s takes a .shared::cluster or a generic address", what);
        cg_fail(c, msg);
    }
    return sp == PTX_SPACE_shared_cluster;
}

/* mapa{.shared::cluster}.{u32,u64} d, a, rank */
void c_emit_mapa(cg *c, const ptx_instr *in)
{
    int dsmem = cluster_space(c, in, "mapa");
    ptx_type ty = ty0(in);
    if ((ty != PTX_TYPE_u32 && ty != PTX_TYPE_u64) || in->nops != 3)
        cg_fail(c, "mapa takes .u32 or .u64 and d, a, rank");
    cg_dst_open(c, &in->ops[0], dsmem ? PTX_TYPE_u32 : PTX_TYPE_u64);
    cg_puts(c, dsmem ? "cb_mapa_dsmem(t, (uint32_t)" : "cb_mapa_generic(t, (uint64_t)");
    cg_read(c, &in->ops[1], dsmem ? PTX_TYPE_u32 : PTX_TYPE_u64);
    cg_puts(c, ", (uint32_t)");
    cg_read(c, &in->ops[2], PTX_TYPE_u32);
    cg_puts(c, ")");
    cg_dst_close(c, &in->ops[0], dsmem ? PTX_TYPE_u32 : PTX_TYPE_u64);
}

/* getctarank{.shared::cluster}.{u32,u64} d, a */
void c_emit_getctarank(cg *c, const ptx_instr *in)
{
    int dsmem = cluster_space(c, in, "getctarank");
    ptx_type ty = ty0(in);
    if ((ty != PTX_TYPE_u32 && ty != PTX_TYPE_u64) || in->nops != 2)
        cg_fail(c, "getctarank takes .u32 or .u64 and d, a");
    cg_dst_open(c, &in->ops[0], PTX_TYPE_u32);
    cg_puts(c, dsmem ? "cb_ctarank_dsmem(t, (uint32_t)" : "cb_ctarank_generic(t, (uint64_t)");
    cg_read(c, &in->ops[1], dsmem ? PTX_TYPE_u32 : PTX_TYPE_u64);
    cg_puts(c, ")");
    cg_dst_close(c, &in->ops[0], PTX_TYPE_u32);
}
