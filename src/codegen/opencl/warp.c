/* warp.c: the OpenCL C dialect's warp and block collectives (shfl vote
 * activemask match redux elect bar.warp.sync bar.red; opencl.h).
 *
 * OpenCL C 1.2 has no warps. A warp here is 32 consecutive work-items of the
 * flat index (CB_FLAT), as on the CPU, and its collectives are emulated
 * through local memory: each work-item writes its operand to its slot of a
 * scratch area after the kernel's shared memory (cb_wxs, two slots per
 * work-item used in turn, so that one barrier per collective is enough),
 * waits at a work-group barrier, and reads its warp's 32 slots. The results
 * are the CPU backend's (runtime_sync.c): the lanes are the mask's lanes
 * that exist (a partial last warp has fewer), a shfl from a lane that does
 * not exist reads the reader's own value.
 *
 * OpenCL defines a barrier only where every work-item of the work-group
 * reaches it, so a collective is emitted only where the whole block runs it
 * together: in uniform control flow (pass_uniform: ptx_func.uniform), or in a
 * lock-step region (ptx_func.pred_region; target.c), which every thread runs,
 * those not on the path as absent lanes (cb_act == 0; exited ones after
 * cb_pc == CB_GONE). A named lane that takes no part counts as arrived, as an
 * exited lane does on the CPU, and then owes the collective: until it exits
 * it may touch no memory and reach no other collective, else the launch fails
 * (the CPU would have waited for it there), so no answer differs from the
 * CPU's. activemask in a region is the lanes on the caller's path, and
 * ld/st.volatile of shared or generic memory (a convergence point) waits at a
 * work-group barrier first. Anywhere else -- divergent control flow that no
 * region covers, a .func, the forms without .sync -- the kernel is refused
 * with the reason (cg_unsupported), never emitted differently.
 *
 * Where the device has 32-wide sub-groups (cl_intel_required_subgroup_size:
 * Intel's drivers) the backend defines CB_SG32: kernels with collectives ask
 * for sub-groups of 32 (CB_SG_ATTR), and in a block whose rows are whole
 * warps those are its warps, so the exchange is ordered by a sub-group
 * barrier instead of the work-group one (checked: a sub-group that is not
 * the warp fails the launch). The rules of where a collective may be are
 * the same.
 *
 * On NVIDIA's OpenCL the backend defines CB_NV_ASM, and shfl and vote in
 * uniform control flow run the PTX instruction itself in an asm statement
 * instead (prelude: cb_wshfl_*, cb_wvote); in a lock-step region they keep
 * the local-memory form, whose barrier the inactive lanes meet.
 */
#include "codegen/opencl/opencl.h"
#include "codegen/c/ops.h"

#include <stdio.h>
#include <string.h>

int ocl_is_collective(const ptx_instr *in)
{
    switch (in->op) {
    case PTX_OP_shfl: case PTX_OP_vote: case PTX_OP_match: case PTX_OP_redux: case PTX_OP_elect:
        return 1;
    case PTX_OP_bar: case PTX_OP_barrier:
        return ptx_has(in, PTX_MOD_red) || ptx_has(in, PTX_MOD_warp);
    default:
        return 0;
    }
}

uint32_t cg_opencl_warp_scratch(const ptx_func *f)
{
    for (uint32_t i = 0; i < f->ninstrs; i++)
        if (ocl_is_collective(&f->instrs[i]) || f->instrs[i].op == PTX_OP_activemask ||
            (ptx_instr_flags(&f->instrs[i]) & PTX_OPF_CONVERGE))
            return 32;
    return 0;
}

/* Refuses in unless the whole block runs it together (kernel code, uniform
 * control flow). what names it in the reason. */
static void require_uniform(cg *c, const ptx_instr *in, const char *what)
{
    char msg[600];
    if (!c->f->is_entry) {
        snprintf(msg, sizeof msg, "%s in a .func: the OpenCL dialect emulates warp collectives with work-group "
                 "barriers, and only a kernel's own code is known to be reached by the whole block", what);
        cg_unsupported(c, msg);
    }
    uint32_t k = (uint32_t)(in - c->f->instrs);
    if (ocl_in_region(c, in))   /* every thread runs it: the inactive ones as absent lanes */
        return;
    if (!c->f->uniform || k >= c->f->ninstrs || !c->f->uniform[k]) {
        snprintf(msg, sizeof msg, "%s in control flow that is not uniform over the block (after a branch on a "
                 "thread-dependent value, or after some threads exited): the OpenCL dialect emulates it with a "
                 "work-group barrier, which OpenCL defines only where every work-item reaches it, and runs such "
                 "code in lock-step only where it can%s%s%s", what, c->f->region_refusal ? " (here not: " : "",
                 c->f->region_refusal ? c->f->region_refusal : "", c->f->region_refusal ? ")" : "");
        cg_unsupported(c, msg);
    }
}

static void check(cg *c, const ptx_instr *in, int mask_op, const char *what)
{
    if (!ptx_has(in, PTX_MOD_sync)) {
        char msg[200];
        snprintf(msg, sizeof msg, "%s without .sync (its lanes are the ones that reach it together) is not "
                 "supported by the OpenCL dialect", what);
        cg_unsupported(c, msg);
    }
    require_uniform(c, in, what);
    (void)mask_op;
}

int ocl_in_region(cg *c, const ptx_instr *in)
{
    const ptx_func *f = c->f;
    if (!f || !f->pred_region || in < f->instrs || in >= f->instrs + f->ninstrs)
        return 0;
    uint32_t k = (uint32_t)(in - f->instrs);
    return f->pred_region[k] >= 0 && ((uint32_t)f->pred_region[k] != k || (f->region_mark[k] & PTX_REGION_VIRTUAL)) &&
           !(f->region_mark[k] & PTX_REGION_END);
}

/* Emits the membermask operand i (all lanes when absent) as the helpers' ulong: in a lock-step
 * region (target.c) bit 32 set for a lane that only takes part as absent (cb_act == 0), bit 33 as
 * well for one that has exited (cb_pc == CB_GONE). */
static void read_mask(cg *c, const ptx_instr *in, int i)
{
    cg_puts(c, "((ulong)");
    if (i < in->nops)
        cg_read(c, &in->ops[i], PTX_TYPE_u32);
    else
        cg_puts(c, "0xffffffffu");
    cg_puts(c, ocl_in_region(c, in) ? " | (cb_act ? 0ul : cb_pc == CB_GONE ? 0x300000000ul : 0x100000000ul))" : ")");
}

/* Opens and closes the writes of a collective's results: in a lock-step
 * region only the active lanes write them. */
static void results_open(cg *c, const ptx_instr *in)
{
    if (ocl_in_region(c, in))
        cg_puts(c, "if (cb_act) {\n    ");
}

static void results_close(cg *c, const ptx_instr *in)
{
    if (ocl_in_region(c, in))
        cg_puts(c, "    }\n");
}

/* Writes expression text e (a uint) to the "|p" predicate of destination d, if any. */
static void write_pred(cg *c, const ptx_operand *d, const char *e)
{
    if (d->reg2 < 0)
        return;
    ptx_operand q = *d;
    q.kind = PTX_OPD_reg;
    q.reg = q.reg2;
    cg_puts(c, "    ");
    cg_dst_open(c, &q, PTX_TYPE_pred);
    cg_puts(c, e);
    cg_dst_close(c, &q, PTX_TYPE_pred);
}

/* shfl.sync.{up,down,bfly,idx}.b32 d[|p], a, b, c, membermask */
void ocl_emit_shfl(cg *c, const ptx_instr *in)
{
    int mode = ptx_has(in, PTX_MOD_up) ? 0 : ptx_has(in, PTX_MOD_down) ? 1 : ptx_has(in, PTX_MOD_bfly) ? 2
               : ptx_has(in, PTX_MOD_idx) ? 3 : -1;
    if (mode < 0 || in->nops != (ptx_has(in, PTX_MOD_sync) ? 5 : 4) || ptx_type_size(in->types[0]) != 4)
        cg_fail(c, "bad shfl");
    check(c, in, 4, "shfl");
    static const char *const fn[] = {"cb_wshfl_up", "cb_wshfl_down", "cb_wshfl_bfly", "cb_wshfl_idx"};
    if (ocl_in_region(c, in))   /* the local-memory form: inactive lanes must still meet its barrier */
        cg_printf(c, "uint cb_p = 0; uint cb_r = cb_wshfl(cb_wxs, &cb_ws, cb_heap, %d, ", mode);
    else
        cg_printf(c, "uint cb_p = 0; uint cb_r = %s(cb_wxs, &cb_ws, cb_heap, ", fn[mode]);
    read_mask(c, in, 4);
    for (int i = 1; i <= 3; i++) {
        cg_puts(c, ", ");
        cg_read(c, &in->ops[i], PTX_TYPE_b32);
    }
    cg_puts(c, ", &cb_p);\n    ");
    results_open(c, in);
    dst_open(c, in, PTX_TYPE_b32);
    cg_puts(c, "cb_r");
    dst_close(c, in, PTX_TYPE_b32);
    write_pred(c, &in->ops[0], "cb_p");
    results_close(c, in);
    if (in->ops[0].reg2 < 0)
        cg_puts(c, "    (void)cb_p;\n");
}

/* vote.sync.{all,any,uni}.pred d, p, membermask; vote.sync.ballot.b32 d, p, membermask */
void ocl_emit_vote(cg *c, const ptx_instr *in)
{
    int mode = ptx_has(in, PTX_MOD_all) ? 0 : ptx_has(in, PTX_MOD_any) ? 1 : ptx_has(in, PTX_MOD_uni) ? 2
               : ptx_has(in, PTX_MOD_ballot) ? 3 : -1;
    if (mode < 0 || in->nops != (ptx_has(in, PTX_MOD_sync) ? 3 : 2))
        cg_fail(c, "bad vote");
    check(c, in, 2, "vote");
    ptx_type rt = mode == 3 ? PTX_TYPE_b32 : PTX_TYPE_pred;
    cg_printf(c, "uint cb_b = %s(cb_wxs, &cb_ws, cb_heap, %d, ", ocl_in_region(c, in) ? "cb_wvote_lm" : "cb_wvote", mode);
    read_mask(c, in, 2);
    cg_puts(c, ", (uint)");
    cg_read(c, &in->ops[1], PTX_TYPE_pred);
    cg_puts(c, ");\n    ");
    results_open(c, in);
    dst_open(c, in, rt);
    cg_puts(c, mode == 3 ? "cb_b" : "(cb_b != 0u)");
    dst_close(c, in, rt);
    results_close(c, in);
}

/* activemask.b32 d: in uniform control flow every lane of the warp that exists; in a lock-step region
 * the lanes on the caller's path (the CPU's "lanes that execute it together": a region runs a loop's
 * trips and a branch's sides one after the other) */
void ocl_emit_activemask(cg *c, const ptx_instr *in)
{
    int region = ocl_in_region(c, in);
    if (!region)
        require_uniform(c, in, "activemask");
    if (region)
        cg_puts(c, "uint cb_b = cb_wactive(cb_wxs, &cb_ws, cb_act);\n    ");
    results_open(c, in);
    dst_open(c, in, PTX_TYPE_b32);
    cg_puts(c, region ? "cb_b" : "cb_wlanes()");
    dst_close(c, in, PTX_TYPE_b32);
    results_close(c, in);
}

/* ld/st.volatile of shared or generic memory (a warp convergence point: legacy warp-synchronous code
 * relies on the warp's lanes running it together): a work-group barrier before the access, so that
 * every lane's earlier accesses are done first. emit writes the access. */
void ocl_emit_volatile_site(cg *c, const ptx_instr *in, void (*emit)(cg *, const ptx_instr *))
{
    require_uniform(c, in, "a volatile access of shared or generic memory (a warp convergence point)");
    cg_puts(c, "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n    ");
    results_open(c, in);
    emit(c, in);
    results_close(c, in);
}

/* match.{any,all}.sync.{b32,b64} d[|p], a, membermask */
void ocl_emit_match(cg *c, const ptx_instr *in)
{
    ptx_type ty = in->ntypes ? in->types[0] : PTX_TYPE_none;
    int any = ptx_has(in, PTX_MOD_any), all = ptx_has(in, PTX_MOD_all);
    if (any == all || in->nops != 3 || (ptx_type_size(ty) != 4 && ptx_type_size(ty) != 8) ||
        (any && in->ops[0].reg2 >= 0))
        cg_fail(c, "match needs .any or .all, .sync, .b32 or .b64, and d, a, membermask");
    check(c, in, 2, "match");
    cg_printf(c, "uint cb_p = 0; uint cb_r = %s(cb_wxs, &cb_ws, cb_heap, ", any ? "cb_wmatch_any" : "cb_wmatch_all");
    read_mask(c, in, 2);
    cg_puts(c, ", (ulong)");
    cg_read(c, &in->ops[1], ptx_type_size(ty) == 8 ? PTX_TYPE_b64 : PTX_TYPE_b32);
    cg_puts(c, ", &cb_p);\n    ");
    results_open(c, in);
    dst_open(c, in, PTX_TYPE_b32);
    cg_puts(c, "cb_r");
    dst_close(c, in, PTX_TYPE_b32);
    write_pred(c, &in->ops[0], "cb_p");
    results_close(c, in);
    if (in->ops[0].reg2 < 0)
        cg_puts(c, "    (void)cb_p;\n");
}

/* redux.sync.{add,min,max}.{u32,s32} and redux.sync.{and,or,xor}.b32 d, a, membermask */
void ocl_emit_redux(cg *c, const ptx_instr *in)
{
    ptx_type ty = in->ntypes ? in->types[0] : PTX_TYPE_none;
    char k = ptx_type_kind(ty);
    int op = -1;
    if (in->nops != 3 || ptx_type_size(ty) != 4)
        cg_unsupported(c, "redux.sync on other than a 32-bit integer is not supported by the OpenCL dialect");
    if (ptx_has(in, PTX_MOD_add) && (k == 'u' || k == 's'))
        op = 0;
    else if (ptx_has(in, PTX_MOD_min) && (k == 'u' || k == 's'))
        op = k == 's' ? 1 : 2;
    else if (ptx_has(in, PTX_MOD_max) && (k == 'u' || k == 's'))
        op = k == 's' ? 3 : 4;
    else if (ptx_has(in, PTX_MOD_and) && k == 'b')
        op = 5;
    else if (ptx_has(in, PTX_MOD_or) && k == 'b')
        op = 6;
    else if (ptx_has(in, PTX_MOD_xor) && k == 'b')
        op = 7;
    if (op < 0)
        cg_fail(c, "unsupported redux operation or type (add/min/max take .u32/.s32, and/or/xor take .b32)");
    check(c, in, 2, "redux");
    cg_printf(c, "uint cb_r = cb_wredux(cb_wxs, &cb_ws, cb_heap, %d, ", op);
    read_mask(c, in, 2);
    cg_puts(c, ", ");
    cg_read(c, &in->ops[1], PTX_TYPE_b32);
    cg_puts(c, ");\n    ");
    results_open(c, in);
    dst_open(c, in, PTX_TYPE_b32);
    cg_puts(c, "cb_r");
    dst_close(c, in, PTX_TYPE_b32);
    results_close(c, in);
}

/* elect.sync d|p, membermask: the lowest lane of the group leads */
void ocl_emit_elect(cg *c, const ptx_instr *in)
{
    if (in->nops != 2 || in->ops[0].reg2 < 0)
        cg_fail(c, "elect needs .sync and d|p, membermask");
    check(c, in, 1, "elect");
    cg_puts(c, "uint cb_l = cb_welect(cb_wxs, &cb_ws, cb_heap, ");
    read_mask(c, in, 1);
    cg_puts(c, ");\n    ");
    results_open(c, in);
    dst_open(c, in, PTX_TYPE_b32);
    cg_puts(c, "cb_l");
    dst_close(c, in, PTX_TYPE_b32);
    write_pred(c, &in->ops[0], "cb_l == (CB_FLAT & 31u)");
    results_close(c, in);
}

/* bar.warp.sync membermask (__syncwarp): in uniform control flow a work-group
 * barrier orders the warp's memory accesses as it needs; the mask is checked
 * as the other collectives' */
void ocl_emit_bar_warp(cg *c, const ptx_instr *in)
{
    if (in->nops != 1)
        cg_fail(c, "bar.warp.sync takes a mask");
    require_uniform(c, in, "bar.warp.sync");
    cg_puts(c, "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); uint cb_l; (void)cb_wput(cb_wxs, &cb_ws, cb_heap, ");
    read_mask(c, in, 0);
    cg_puts(c, ", 0ul, 6u, &cb_l); (void)cb_l;\n");
}

/* bar.red.{popc.u32,and.pred,or.pred} d, 0, {count,} p (__syncthreads_count/and/or):
 * a work-group barrier and a count in local memory */
void ocl_emit_bar_red(cg *c, const ptx_instr *in)
{
    const char *e = ptx_has(in, PTX_MOD_popc) ? "cb_n" : ptx_has(in, PTX_MOD_and) ? "cb_n == CB_NTH"
                    : ptx_has(in, PTX_MOD_or) ? "cb_n != 0u" : NULL;
    if (!e || in->nops < 3 || in->nops > 4)
        cg_fail(c, "bad bar.red");
    if (in->nops == 4 || in->ops[1].kind != PTX_OPD_int || in->ops[1].imm != 0)
        cg_unsupported(c, "bar.red with a barrier other than 0 or a thread count is not supported by the OpenCL dialect");
    require_uniform(c, in, "bar.red (__syncthreads_count/and/or)");
    ptx_type rt = ptx_has(in, PTX_MOD_popc) ? PTX_TYPE_u32 : PTX_TYPE_pred;
    cg_puts(c, "uint cb_n = cb_bar_count(cb_wxs, (uint)");
    cg_read(c, &in->ops[in->nops - 1], PTX_TYPE_pred);
    cg_puts(c, ");\n    ");
    dst_open(c, in, rt);
    cg_printf(c, "(%s)", e);
    dst_close(c, in, rt);
}

/* The helpers (after the prelude): CB_NTH, cb_wlanes, the exchange and the collectives. */
const char cb_codegen_opencl_prelude_warp[] =
"/* ---- warps (warp.c): 32 work-items of the flat index; collectives through local memory ---- */\n"
"#define CB_NTH ((uint)(get_local_size(0) * get_local_size(1) * get_local_size(2)))\n"
"#ifdef CB_SG32\n"
"/* 32-wide sub-groups (the backend defines CB_SG32 where the device has them): a block whose rows are\n"
"   whole warps runs in sub-groups of 32 along dimension 0, which are its warps, so a sub-group barrier\n"
"   orders a collective's exchange; a block of other rows keeps the work-group barrier */\n"
"#pragma OPENCL EXTENSION cl_intel_subgroups : enable\n"
"#define CB_SG_ATTR __attribute__((intel_reqd_sub_group_size(32)))\n"
"#define CB_WSG() ((get_local_size(0) & 31u) == 0u)\n"
"#define CB_WSYNC() do { if (CB_WSG()) sub_group_barrier(CLK_LOCAL_MEM_FENCE); else barrier(CLK_LOCAL_MEM_FENCE); } while (0)\n"
"#else\n"
"#define CB_SG_ATTR\n"
"#define CB_WSYNC() barrier(CLK_LOCAL_MEM_FENCE)\n"
"#endif\n"
"/* the lanes of the calling work-item's warp that exist (fewer in a partial last warp) */\n"
"CB_INL uint cb_wlanes(void) { uint left = CB_NTH - (CB_FLAT & ~31u); return left >= 32u ? 0xffffffffu : (1u << left) - 1u; }\n"
"CB_INL uint cb_wctz(uint x) { return 31u - clz(x & (0u - x)); }\n"
"/* launch status 3: a warp collective's masks disagree (kind: 1 shfl 2 vote 3 match 4 redux 5 elect 6 bar.warp.sync) */\n"
"CB_INL void cb_wfail(__global uchar *h, ulong mask, uint kind) {\n"
"  if (cb_status_claim(h, 3u)) { ((__global uint *)h)[7] = mask; ((__global uint *)h)[8] = kind; } }\n"
"/* writes (v, mask) to the work-item's slots of the set of the scratch it uses next, waits for the\n"
"   work-group, and returns its warp's 32 (value, mask) pairs and in *lanes its group: the mask's lanes that\n"
"   exist and take part. The caller must be in its mask, and every lane of its group must have passed the\n"
"   same mask (else the launch fails: the CPU would wait for it). Mask bit 32: the caller is an inactive\n"
"   lane of a lock-step region (target.c): it takes no part; bit 33 as well: it has exited. A named lane\n"
"   that takes no part counts as arrived, as an exited lane does on the CPU; one that has not exited then\n"
"   owes the collective (*sel bit 1, the kind above it): it must exit with no effect on memory and reach\n"
"   no other collective before (else the launch fails: the CPU would have waited for it there) */\n"
"#define CB_GONE 0xffffffffu\n"
"#define CB_NONE 0xfffffffeu\n"
"CB_INL __local ulong *cb_wput(__local ulong *s, uint *sel, __global uchar *h, ulong mask, ulong v, uint kind, uint *lanes) {\n"
"  __local ulong *x = s + ((*sel & 1u) ? 2u * CB_NTH : 0u); *sel ^= 1u;\n"
"  x[2u * CB_FLAT] = v; x[2u * CB_FLAT + 1u] = mask; CB_WSYNC();\n"
"#ifdef CB_SG32\n"
"  /* the sub-group must be the warp (launch status 3, kind 7: the device formed them otherwise) */\n"
"  if (CB_WSG() && (get_sub_group_size() != 32u || get_sub_group_local_id() != (CB_FLAT & 31u))) cb_wfail(h, mask, 7u);\n"
"#endif\n"
"  __local ulong *w = x + 2u * (CB_FLAT & ~31u);\n"
"  uint m = (uint)mask, ex = cb_wlanes(), me = CB_FLAT & 31u, out = 0u, bad = !(m >> me & 1u);\n"
"  *lanes = 0u;\n"
"  if (mask >> 32) {\n"
"    if (!(mask >> 33 & 1ul))\n"
"      for (uint l = 0; l < 32u; l++) { if (!(ex >> l & 1u)) continue; ulong o = w[2u * l + 1u];\n"
"        if (!(o >> 32) && ((uint)o >> me & 1u)) *sel = (*sel & 1u) | 2u | kind << 2; }\n"
"    return w; }\n"
"  for (uint l = 0; l < 32u; l++) if ((ex >> l & 1u) && (w[2u * l + 1u] >> 32)) out |= 1u << l;\n"
"  *lanes = m & ex & ~out;\n"
"  for (uint l = 0; l < 32u; l++) if ((*lanes >> l & 1u) && w[2u * l + 1u] != (ulong)m) bad = 1u;\n"
"  if (bad) cb_wfail(h, m, kind);\n"
"  return w; }\n"
"/* activemask in a lock-step region: the lanes of the caller's warp that are on its path */\n"
"CB_INL uint cb_wactive(__local ulong *s, uint *sel, uint act) {\n"
"  __local ulong *x = s + ((*sel & 1u) ? 2u * CB_NTH : 0u); *sel ^= 1u;\n"
"  x[2u * CB_FLAT] = act; barrier(CLK_LOCAL_MEM_FENCE);\n"
"  __local ulong *w = x + 2u * (CB_FLAT & ~31u); uint ex = cb_wlanes(), b = 0u;\n"
"  for (uint l = 0; l < 32u; l++) if ((ex >> l & 1u) && w[2u * l]) b |= 1u << l;\n"
"  return b; }\n"
"/* shfl's source lane by the PTX ISA (clamp c[4:0], segment mask c[12:8]); the caller's own lane when it\n"
"   is out of range; bit 5: it was in range */\n"
"CB_INL uint cb_wshfl_src(int mode, uint b, uint c) {\n"
"  uint lane = CB_FLAT & 31u, bval = b & 31u, cval = c & 31u, seg = (c >> 8) & 31u;\n"
"  int maxl = (int)((lane & seg) | (cval & ~seg)), minl = (int)(lane & seg), j; uint ok;\n"
"  switch (mode) {\n"
"  case 0: j = (int)lane - (int)bval; ok = j >= maxl; break;\n"
"  case 1: j = (int)lane + (int)bval; ok = j <= maxl; break;\n"
"  case 2: j = (int)(lane ^ bval); ok = j <= maxl; break;\n"
"  default: j = minl | (int)(bval & ~seg); ok = j <= maxl; break; }\n"
"  return ok ? 32u | (uint)j : lane; }\n"
"/* shfl through local memory; *p: the source lane was in range */\n"
"CB_INL uint cb_wshfl(__local ulong *s, uint *sel, __global uchar *h, int mode, ulong mask, uint a, uint b, uint c, uint *p) {\n"
"  uint lanes; __local ulong *w = cb_wput(s, sel, h, mask, a, 1u, &lanes);\n"
"  uint src = cb_wshfl_src(mode, b, c), j = src & 31u;\n"
"  *p = src >> 5;\n"
"  return (lanes >> j & 1u) ? (uint)w[2 * j] : a; }\n"
"/* vote over the group: 0 all, 1 any, 2 uni, 3 ballot */\n"
"CB_INL uint cb_wvote_lm(__local ulong *s, uint *sel, __global uchar *h, int mode, ulong mask, uint pred) {\n"
"  uint lanes, b = 0u; __local ulong *w = cb_wput(s, sel, h, mask, pred != 0u, 2u, &lanes);\n"
"  for (uint l = 0; l < 32u; l++) if ((lanes >> l & 1u) && w[2u * l]) b |= 1u << l;\n"
"  return mode == 0 ? b == lanes : mode == 1 ? b != 0u : mode == 2 ? (b == 0u || b == lanes) : b; }\n"
"#ifdef CB_NV_ASM\n"
"/* NVIDIA's OpenCL: the PTX instruction itself (the backend defines CB_NV_ASM on that platform only) */\n"
"/* the group of the calling lane, with the checks of cb_wput made by the hardware: the caller must be in\n"
"   its mask, and every lane of its group must have passed the same mask (match.any over the warp's\n"
"   lanes that exist, which all run it: these helpers serve uniform control flow only); else the launch\n"
"   fails and the caller (returning 0) takes no part, so no lane runs the instruction with a mask that\n"
"   names lanes that will not */\n"
"CB_INL uint cb_wasm_group(__global uchar *h, uint m, uint kind) {\n"
"  uint all = cb_wlanes(), lanes = m & all, same;\n"
"  __asm__ __volatile__(\"match.any.sync.b32 %0, %1, %2;\" : \"=r\"(same) : \"r\"(m), \"r\"(all));\n"
"  if (!(m >> (CB_FLAT & 31u) & 1u) || (same & lanes) != lanes) { cb_wfail(h, m, kind); return 0u; }\n"
"  return lanes; }\n"
"/* shfl: as cb_wshfl (a source lane out of range or outside the group reads the caller's own value) */\n"
"#define CB_WSHFL_ASM(MODE, MODEN) uint r, q, lanes; (void)s; (void)sel; *p = 0u; if (mask >> 32) return a; \\\n"
"  lanes = cb_wasm_group(h, (uint)mask, 1u); if (!lanes) return a; \\\n"
"  __asm__ __volatile__(\"{ .reg .pred cbq; shfl.sync.\" MODE \".b32 %0|cbq, %2, %3, %4, %5; selp.u32 %1, 1, 0, cbq; }\" \\\n"
"               : \"=r\"(r), \"=r\"(q) : \"r\"(a), \"r\"(b), \"r\"(c), \"r\"(lanes)); \\\n"
"  *p = q; return (lanes >> (cb_wshfl_src(MODEN, b, c) & 31u) & 1u) ? r : a;\n"
"CB_INL uint cb_wshfl_up(__local ulong *s, uint *sel, __global uchar *h, ulong mask, uint a, uint b, uint c, uint *p) { CB_WSHFL_ASM(\"up\", 0) }\n"
"CB_INL uint cb_wshfl_down(__local ulong *s, uint *sel, __global uchar *h, ulong mask, uint a, uint b, uint c, uint *p) { CB_WSHFL_ASM(\"down\", 1) }\n"
"CB_INL uint cb_wshfl_bfly(__local ulong *s, uint *sel, __global uchar *h, ulong mask, uint a, uint b, uint c, uint *p) { CB_WSHFL_ASM(\"bfly\", 2) }\n"
"CB_INL uint cb_wshfl_idx(__local ulong *s, uint *sel, __global uchar *h, ulong mask, uint a, uint b, uint c, uint *p) { CB_WSHFL_ASM(\"idx\", 3) }\n"
"/* vote: 0 all, 1 any, 2 uni, 3 ballot */\n"
"CB_INL uint cb_wvote(__local ulong *s, uint *sel, __global uchar *h, int mode, ulong mask, uint pred) {\n"
"  uint r = 0u, m; (void)s; (void)sel;\n"
"  if (mask >> 32) return 0u;\n"
"  m = cb_wasm_group(h, (uint)mask, 2u); if (!m) return 0u;\n"
"  switch (mode) {\n"
"  case 0: __asm__ __volatile__(\"{ .reg .pred cbq; setp.ne.u32 cbq, %1, 0; vote.sync.all.pred cbq, cbq, %2; selp.u32 %0, 1, 0, cbq; }\" : \"=r\"(r) : \"r\"(pred), \"r\"(m)); break;\n"
"  case 1: __asm__ __volatile__(\"{ .reg .pred cbq; setp.ne.u32 cbq, %1, 0; vote.sync.any.pred cbq, cbq, %2; selp.u32 %0, 1, 0, cbq; }\" : \"=r\"(r) : \"r\"(pred), \"r\"(m)); break;\n"
"  case 2: __asm__ __volatile__(\"{ .reg .pred cbq; setp.ne.u32 cbq, %1, 0; vote.sync.uni.pred cbq, cbq, %2; selp.u32 %0, 1, 0, cbq; }\" : \"=r\"(r) : \"r\"(pred), \"r\"(m)); break;\n"
"  default: __asm__ __volatile__(\"{ .reg .pred cbq; setp.ne.u32 cbq, %1, 0; vote.sync.ballot.b32 %0, cbq, %2; }\" : \"=r\"(r) : \"r\"(pred), \"r\"(m)); break; }\n"
"  return r; }\n"
"#else\n"
"CB_INL uint cb_wshfl_up(__local ulong *s, uint *sel, __global uchar *h, ulong mask, uint a, uint b, uint c, uint *p) { return cb_wshfl(s, sel, h, 0, mask, a, b, c, p); }\n"
"CB_INL uint cb_wshfl_down(__local ulong *s, uint *sel, __global uchar *h, ulong mask, uint a, uint b, uint c, uint *p) { return cb_wshfl(s, sel, h, 1, mask, a, b, c, p); }\n"
"CB_INL uint cb_wshfl_bfly(__local ulong *s, uint *sel, __global uchar *h, ulong mask, uint a, uint b, uint c, uint *p) { return cb_wshfl(s, sel, h, 2, mask, a, b, c, p); }\n"
"CB_INL uint cb_wshfl_idx(__local ulong *s, uint *sel, __global uchar *h, ulong mask, uint a, uint b, uint c, uint *p) { return cb_wshfl(s, sel, h, 3, mask, a, b, c, p); }\n"
"CB_INL uint cb_wvote(__local ulong *s, uint *sel, __global uchar *h, int mode, ulong mask, uint pred) { return cb_wvote_lm(s, sel, h, mode, mask, pred); }\n"
"#endif\n"
"/* match.any: the lanes of the group holding the same value; match.all: all of them or none */\n"
"CB_INL uint cb_wmatch_any(__local ulong *s, uint *sel, __global uchar *h, ulong mask, ulong v, uint *p) {\n"
"  uint lanes, m = 0u; __local ulong *w = cb_wput(s, sel, h, mask, v, 3u, &lanes);\n"
"  for (uint l = 0; l < 32u; l++) if ((lanes >> l & 1u) && w[2u * l] == v) m |= 1u << l;\n"
"  *p = m == lanes; return m; }\n"
"CB_INL uint cb_wmatch_all(__local ulong *s, uint *sel, __global uchar *h, ulong mask, ulong v, uint *p) {\n"
"  uint lanes, same = 1u; __local ulong *w = cb_wput(s, sel, h, mask, v, 3u, &lanes);\n"
"  uint first = lanes ? cb_wctz(lanes) : 0u;\n"
"  for (uint l = 0; l < 32u; l++) if ((lanes >> l & 1u) && w[2u * l] != w[2u * first]) same = 0u;\n"
"  *p = same; return same ? lanes : 0u; }\n"
"/* redux over the group: 0 add, 1 min.s32, 2 min.u32, 3 max.s32, 4 max.u32, 5 and, 6 or, 7 xor */\n"
"CB_INL uint cb_wredux(__local ulong *s, uint *sel, __global uchar *h, int op, ulong mask, uint v) {\n"
"  uint lanes; __local ulong *w = cb_wput(s, sel, h, mask, v, 4u, &lanes);\n"
"  uint r = op == 1 ? 0x7fffffffu : op == 2 || op == 5 ? 0xffffffffu : op == 3 ? 0x80000000u : 0u;\n"
"  for (uint l = 0; l < 32u; l++) { if (!(lanes >> l & 1u)) continue; uint x = (uint)w[2u * l];\n"
"    switch (op) { case 0: r += x; break; case 1: r = (int)x < (int)r ? x : r; break; case 2: r = x < r ? x : r; break;\n"
"    case 3: r = (int)x > (int)r ? x : r; break; case 4: r = x > r ? x : r; break; case 5: r &= x; break;\n"
"    case 6: r |= x; break; default: r ^= x; break; } }\n"
"  return r; }\n"
"/* elect: the lowest lane of the group */\n"
"CB_INL uint cb_welect(__local ulong *s, uint *sel, __global uchar *h, ulong mask) {\n"
"  uint lanes; (void)cb_wput(s, sel, h, mask, 0ul, 5u, &lanes);\n"
"  return lanes ? cb_wctz(lanes) : 0u; }\n"
"/* lock-step regions (target.c): out = the number of work-items for which cond holds (whether one\n"
"   wants another trip of a loop), counted in the word after both sets of the scratch. Inline, not a\n"
"   function: in Numba's reduction (before the joins' barriers, pass_uniform) cb_bar_count read 0 there */\n"
"#define CB_ANY(cond, out) do { volatile __local uint *cb_nw = (volatile __local uint *)(cb_wxs + 4u * CB_NTH); \\\n"
"    uint cb_q = (cond); barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); if (CB_FLAT == 0u) *cb_nw = 0u; \\\n"
"    barrier(CLK_LOCAL_MEM_FENCE); if (cb_q) atomic_inc(cb_nw); barrier(CLK_LOCAL_MEM_FENCE); (out) = *cb_nw; } while (0)\n"
"/* bar.red: a barrier (as bar.sync), then the number of work-items whose predicate is true, counted in\n"
"   the word after both sets of the scratch */\n"
"CB_INL uint cb_bar_count(__local ulong *s, uint pred) {\n"
"  volatile __local uint *n = (volatile __local uint *)(s + 4u * CB_NTH);\n"
"  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
"  if (CB_FLAT == 0u) *n = 0u;\n"
"  barrier(CLK_LOCAL_MEM_FENCE);\n"
"  if (pred) atomic_inc(n);\n"
"  barrier(CLK_LOCAL_MEM_FENCE);\n"
"  return *n; }\n";
