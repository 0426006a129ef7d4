/* operands.c: the C dialect's types, literals, operands and addresses (c.h).
 *
 * PTX registers are C locals of their type's C type; an operand is read as
 * an expression of the type an instruction wants, and a destination written
 * through a conversion from it. Shared-space addresses are offsets from the
 * block's window (t->blk->shared, or cbB_smem in a block entry's body).
 */
#include "codegen/c/c.h"
#include "passes/passes.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- types ------------------------------------------------------------------------ */

const char *cg_ctype(ptx_type t)
{
    switch (t) {
    case PTX_TYPE_pred: return "int";
    case PTX_TYPE_b8: case PTX_TYPE_u8: return "uint8_t";
    case PTX_TYPE_s8: return "int8_t";
    case PTX_TYPE_b16: case PTX_TYPE_u16: case PTX_TYPE_f16: case PTX_TYPE_bf16: return "uint16_t";
    case PTX_TYPE_s16: return "int16_t";
    case PTX_TYPE_s32: return "int32_t";
    case PTX_TYPE_b64: case PTX_TYPE_u64: case PTX_TYPE_f32x2: return "uint64_t";
    case PTX_TYPE_s64: return "int64_t";
    case PTX_TYPE_f32: return "float";
    case PTX_TYPE_f64: return "double";
    case PTX_TYPE_b128: return "cb_u128";
    default: return "uint32_t";
    }
}

char cg_class(ptx_type t)
{
    if (t == PTX_TYPE_f32 || t == PTX_TYPE_f64)
        return 'f';
    return t == PTX_TYPE_pred ? 'p' : 'i';
}

const char *cg_tname(ptx_type t)
{
    switch (t) {
    case PTX_TYPE_b8: case PTX_TYPE_u8: return "u8";
    case PTX_TYPE_s8: return "s8";
    case PTX_TYPE_b16: case PTX_TYPE_u16: case PTX_TYPE_f16: case PTX_TYPE_bf16: return "u16";
    case PTX_TYPE_s16: return "s16";
    case PTX_TYPE_s32: return "s32";
    case PTX_TYPE_b64: case PTX_TYPE_u64: case PTX_TYPE_f32x2: return "u64";
    case PTX_TYPE_s64: return "s64";
    case PTX_TYPE_f32: return "f32";
    case PTX_TYPE_f64: return "f64";
    case PTX_TYPE_b128: return "u128";
    default: return "u32";
    }
}

/* ---- literals ------------------------------------------------------------------------ */

static void emit_f32_bits(cg *c, uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    if ((b & 0x7f800000u) == 0x7f800000u)
        cg_printf(c, "cb_f32(0x%08xu)", b);
    else
        cg_printf(c, "(%af)", (double)f);
}

static void emit_f64_bits(cg *c, uint64_t b)
{
    double d;
    memcpy(&d, &b, 8);
    if ((b & 0x7ff0000000000000ull) == 0x7ff0000000000000ull)
        cg_printf(c, "cb_f64(0x%016llxull)", (unsigned long long)b);
    else
        cg_printf(c, "(%a)", d);
}

static void emit_float_value(cg *c, double d, ptx_type ty)
{
    if (ty == PTX_TYPE_f32) {
        float f = (float)d;
        uint32_t b;
        memcpy(&b, &f, 4);
        emit_f32_bits(c, b);
    } else {
        uint64_t b;
        memcpy(&b, &d, 8);
        emit_f64_bits(c, b);
    }
}

/* ---- operands ------------------------------------------------------------------------ */

static void read_reg(cg *c, int32_t r, int neg, ptx_type ty)
{
    const ptx_reg *reg = &c->f->regs[r];
    const char *n = reg->cname;
    char rk = cg_class(reg->type), tk = cg_class(ty);
    if (rk == 'p') {
        if (tk == 'p')
            cg_printf(c, neg ? "(!%s)" : "%s", n);
        else
            cg_printf(c, "((%s)%s)", cg_ctype(ty), n);
    } else if (tk == 'p') {
        cg_printf(c, "(%s != 0)", n);
    } else if (rk == 'f' && tk == 'f') {
        if (reg->type == ty)
            cg_puts(c, n);
        else
            cg_printf(c, "((%s)%s)", cg_ctype(ty), n);
    } else if (rk == 'i' && tk == 'f') {
        cg_printf(c, ty == PTX_TYPE_f32 ? "cb_f32((uint32_t)%s)" : "cb_f64((uint64_t)%s)", n);
    } else if (rk == 'f') {
        cg_printf(c, "((%s)%s(%s))", cg_ctype(ty), reg->type == PTX_TYPE_f32 ? "cb_bits32" : "cb_bits64", n);
    } else if (reg->type == ty || (ptx_type_size(reg->type) == ptx_type_size(ty) &&
                                   ptx_type_kind(ty) != 's' && ptx_type_kind(reg->type) != 's')) {
        cg_puts(c, n);
    } else {
        cg_printf(c, "((%s)%s)", cg_ctype(ty), n);
    }
}

/* 64-lane warps (cb_translate_opts.warp_size): %laneid = flat % 64, %warpid =
 * flat / 64, and the %lanemask_* registers are the low 32 bits of the
 * 64-lane masks (what a port that keeps CUDA's 32-bit variables sees). lane
 * is the expression of the lane (0..63). Returns 1 when it emitted o. */
static int read_special_64(cg *c, const ptx_operand *o, const char *lane, const char *warp, const char *nthreads)
{
    switch (o->special) {
    case PTX_SREG_laneid: cg_puts(c, lane); return 1;
    case PTX_SREG_warpid: cg_puts(c, warp); return 1;
    case PTX_SREG_nwarpid: cg_printf(c, "((%s + 63u) / 64u)", nthreads); return 1;
    case PTX_SREG_lanemask_eq: cg_printf(c, "(uint32_t)(1ull << %s)", lane); return 1;
    case PTX_SREG_lanemask_lt: cg_printf(c, "(uint32_t)((1ull << %s) - 1u)", lane); return 1;
    case PTX_SREG_lanemask_le: cg_printf(c, "(uint32_t)((2ull << %s) - 1u)", lane); return 1;
    case PTX_SREG_lanemask_ge: cg_printf(c, "(uint32_t)~((1ull << %s) - 1u)", lane); return 1;
    case PTX_SREG_lanemask_gt: cg_printf(c, "(uint32_t)~((2ull << %s) - 1u)", lane); return 1;
    case PTX_SREG_warpsize: cg_puts(c, "64u"); return 1;
    default: return 0;
    }
}

static int read_special_block_64(cg *c, const ptx_operand *o)
{
    return read_special_64(c, o, "(cbB_flat & 63u)", "(cbB_flat >> 6)", "cbB_ntid_x * cbB_ntid_y * cbB_ntid_z");
}

/* In a block entry's body (block.c) the block's dimensions and the
 * thread's indices are locals: cbB_tx cbB_ty cbB_tz cbB_flat, cbB_ntid_x ...
 * Returns 1 when it emitted o. */
static int read_special_block(cg *c, const ptx_operand *o, char comp)
{
    switch (o->special) {
    case PTX_SREG_tid: cg_printf(c, "cbB_t%c", comp); return 1;
    case PTX_SREG_ntid: cg_printf(c, "cbB_ntid_%c", comp); return 1;
    case PTX_SREG_ctaid:
        /* a lanes entry over a run of blocks (c/lanes.c): the lane's block in the run */
        if (comp == 'x' && c->block_mode == 2 && c->f && c->f->kernel && c->f->kernel->lanes_multi)
            cg_puts(c, "(cbB_ctaid_x + cbB_bk)");
        else
            cg_printf(c, "cbB_ctaid_%c", comp);
        return 1;
    case PTX_SREG_nctaid: cg_printf(c, "cbB_nctaid_%c", comp); return 1;
    default: break;
    }
    if (c->m->warp_size == 64)
        return read_special_block_64(c, o);
    switch (o->special) {
    case PTX_SREG_laneid: cg_puts(c, "(cbB_flat & 31u)"); return 1;
    case PTX_SREG_warpid: cg_puts(c, "(cbB_flat >> 5)"); return 1;
    case PTX_SREG_nwarpid: cg_puts(c, "((cbB_ntid_x * cbB_ntid_y * cbB_ntid_z + 31u) / 32u)"); return 1;
    case PTX_SREG_lanemask_eq: cg_puts(c, "(1u << (cbB_flat & 31u))"); return 1;
    case PTX_SREG_lanemask_lt: cg_puts(c, "((1u << (cbB_flat & 31u)) - 1u)"); return 1;
    case PTX_SREG_lanemask_le: cg_puts(c, "((2u << (cbB_flat & 31u)) - 1u)"); return 1;
    case PTX_SREG_lanemask_ge: cg_puts(c, "(~((1u << (cbB_flat & 31u)) - 1u))"); return 1;
    case PTX_SREG_lanemask_gt: cg_puts(c, "(~((2u << (cbB_flat & 31u)) - 1u))"); return 1;
    default: return 0;
    }
}

static void read_special(cg *c, const ptx_operand *o, ptx_type ty)
{
    static const char comps[] = "?xyz";
    char comp = comps[o->comp & 3];
    if (c->target->special && c->target->special(c, o, ty))
        return;
    cg_printf(c, "((%s)", cg_ctype(ty));
    if (c->block_mode && read_special_block(c, o, comp)) {
        cg_puts(c, ")");
        return;
    }
    if (c->m->warp_size == 64 &&
        read_special_64(c, o, "t->lane", "t->warp", "t->blk->ntid.x * t->blk->ntid.y * t->blk->ntid.z")) {
        cg_puts(c, ")");
        return;
    }
    switch (o->special) {
    case PTX_SREG_tid: cg_printf(c, "t->tid.%c", comp); break;
    case PTX_SREG_ntid: cg_printf(c, "t->blk->ntid.%c", comp); break;
    case PTX_SREG_ctaid: cg_printf(c, "t->blk->ctaid.%c", comp); break;
    case PTX_SREG_nctaid: cg_printf(c, "t->blk->nctaid.%c", comp); break;
    case PTX_SREG_laneid: cg_puts(c, "t->lane"); break;
    case PTX_SREG_warpid: cg_puts(c, "t->warp"); break;
    case PTX_SREG_nwarpid:
        cg_puts(c, "((t->blk->ntid.x * t->blk->ntid.y * t->blk->ntid.z + 31u) / 32u)");
        break;
    case PTX_SREG_smid: cg_puts(c, "t->blk->smid"); break;
    case PTX_SREG_nsmid: cg_puts(c, "t->blk->nsmid"); break;
    case PTX_SREG_gridid: cg_puts(c, "t->blk->gridid"); break;
    case PTX_SREG_lanemask_eq: cg_puts(c, "(1u << t->lane)"); break;
    case PTX_SREG_lanemask_lt: cg_puts(c, "((1u << t->lane) - 1u)"); break;
    case PTX_SREG_lanemask_le: cg_puts(c, "((2u << t->lane) - 1u)"); break;
    case PTX_SREG_lanemask_ge: cg_puts(c, "(~((1u << t->lane) - 1u))"); break;
    case PTX_SREG_lanemask_gt: cg_puts(c, "(~((2u << t->lane) - 1u))"); break;
    case PTX_SREG_clock: cg_puts(c, "(uint32_t)t->blk->rt->clock64(t)"); break;
    case PTX_SREG_clock_hi: cg_puts(c, "(uint32_t)(t->blk->rt->clock64(t) >> 32)"); break;
    case PTX_SREG_clock64: cg_puts(c, "t->blk->rt->clock64(t)"); break;
    case PTX_SREG_globaltimer: cg_puts(c, "t->blk->rt->globaltimer(t)"); break;
    case PTX_SREG_globaltimer_lo: cg_puts(c, "(uint32_t)t->blk->rt->globaltimer(t)"); break;
    case PTX_SREG_globaltimer_hi: cg_puts(c, "(uint32_t)(t->blk->rt->globaltimer(t) >> 32)"); break;
    case PTX_SREG_dynamic_smem_size: cg_puts(c, "t->blk->dynamic_smem"); break;
    case PTX_SREG_total_smem_size: cg_puts(c, "(cb_dyn_smem(t) + t->blk->dynamic_smem)"); break;
    case PTX_SREG_warpsize: cg_puts(c, "32u"); break;
    /* the block's shared memory and the 1 KiB system reserve of sm_80 and later, as the H200 reports it */
    case PTX_SREG_aggr_smem_size: cg_puts(c, "(cb_dyn_smem(t) + t->blk->dynamic_smem + 1024u)"); break;
    case PTX_SREG_cluster_ctaid: cg_printf(c, "t->blk->cluster_ctaid.%c", comp); break;
    case PTX_SREG_cluster_nctaid: cg_printf(c, "t->blk->cluster_dim.%c", comp); break;
    case PTX_SREG_clusterid: cg_printf(c, "(t->blk->ctaid.%c / t->blk->cluster_dim.%c)", comp, comp); break;
    case PTX_SREG_nclusterid: cg_printf(c, "(t->blk->nctaid.%c / t->blk->cluster_dim.%c)", comp, comp); break;
    case PTX_SREG_cluster_ctarank: cg_puts(c, "t->blk->cluster_rank"); break;
    case PTX_SREG_cluster_nctarank:
        cg_puts(c, "(t->blk->cluster_dim.x * t->blk->cluster_dim.y * t->blk->cluster_dim.z)");
        break;
    case PTX_SREG_is_explicit_cluster: cg_puts(c, "t->blk->cluster_explicit"); break;
    case PTX_SREG_envreg:
        /* driver-defined: 1 and 2 hold the cooperative grid workspace (high,
         * low 32 bits; 0 outside cooperative launches), the others are 0 */
        cg_puts(c, o->imm == 1 ? "(uint32_t)(t->blk->grid_ws >> 32)" : o->imm == 2 ? "(uint32_t)t->blk->grid_ws" : "0u");
        break;
    default: cg_fail(c, "unsupported special register");
    }
    cg_puts(c, ")");
}

/* Where static shared variable v lies: returns 1 with *off, a constant of
 * the kernel's layout, in a kernel's body; 0 in a .func, whose code reads the
 * running kernel's offset from cb_so[v->func_slot] (src/passes/shared.c). */
static int shared_offset(cg *c, const ptx_var *v, uint32_t *off)
{
    if (c->f->is_entry) {
        if (pass_shared_offset(c->f->kernel, v, off) < 0)
            cg_fail(c, "internal error: a shared variable outside the kernel's layout");
        return 1;
    }
    if (v->func_slot == PTX_NO_SLOT)
        cg_fail(c, "internal error: a shared variable without a slot");
    return 0;
}

/* The value of a symbol used as an operand: its address in its space. */
static void emit_symbol_address(cg *c, const ptx_symref *s)
{
    const ptx_var *v;
    if (s->kind == PTX_SYM_module_var) {
        v = &c->m->vars[s->index];
    } else if (s->kind == PTX_SYM_func_var) {
        v = &c->f->vars[s->index];
    } else {
        if (s->kind != PTX_SYM_func)
            cg_fail(c, "a label cannot be used as a value");
        const ptx_func *g = &c->m->funcs[s->index];
        if (!g->defined || g->is_entry)
            cg_fail(c, g->is_entry ? "a kernel has no address" : "the address of a function without a body");
        cg_printf(c, "(uint64_t)(uintptr_t)%s", g->cname);
        return;
    }
    uint32_t off;
    if (c->target->symbol && c->target->symbol(c, v))
        return;
    if (v->space == PTX_SPACE_shared) {
        if (v->is_extern)
            cg_puts(c, "(uint64_t)cb_dyn_smem(t)");
        else if (shared_offset(c, v, &off))
            cg_printf(c, "(uint64_t)%uu", off);
        else
            cg_printf(c, "(uint64_t)cb_so[%u]", v->func_slot);
    } else if (v->role == PTX_ROLE_module) {
        cg_printf(c, "(uint64_t)(uintptr_t)cb_module_globals[%u]", v->index);
    } else if (c->f->is_entry && v->role == PTX_ROLE_param) {
        cg_printf(c, "(uint64_t)(uintptr_t)(t->blk->params + %llu)", (unsigned long long)v->offset);
    } else {
        cg_printf(c, "(uint64_t)(uintptr_t)%s", v->cname);
    }
}

void cg_read(cg *c, const ptx_operand *o, ptx_type ty)
{
    char tk = cg_class(ty);
    switch (o->kind) {
    case PTX_OPD_reg:
        read_reg(c, o->reg, o->neg, ty);
        return;
    case PTX_OPD_int:
        if (tk == 'f')
            emit_float_value(c, (double)(int64_t)o->imm, ty);
        else if (tk == 'p')
            cg_printf(c, "%d", o->imm != 0);
        else
            cg_printf(c, "((%s)0x%llxull)", cg_ctype(ty), (unsigned long long)o->imm);
        return;
    case PTX_OPD_f32:
    case PTX_OPD_f64: {
        double d;
        if (o->kind == PTX_OPD_f32) {
            float f;
            uint32_t b = (uint32_t)o->imm;
            memcpy(&f, &b, 4);
            d = f;
        } else {
            memcpy(&d, &o->imm, 8);
        }
        if (tk == 'f' && ((ty == PTX_TYPE_f32) == (o->kind == PTX_OPD_f32)))
            o->kind == PTX_OPD_f32 ? emit_f32_bits(c, (uint32_t)o->imm) : emit_f64_bits(c, o->imm);
        else if (tk == 'f')
            emit_float_value(c, d, ty);
        else
            cg_printf(c, "((%s)0x%llxull)", cg_ctype(ty), (unsigned long long)o->imm);
        return;
    }
    case PTX_OPD_special:
        read_special(c, o, ty);
        return;
    case PTX_OPD_sym:
        if (tk == 'f')
            cg_fail(c, "an address is not a float");
        cg_printf(c, "((%s)(", cg_ctype(ty));
        emit_symbol_address(c, &o->sym);
        cg_printf(c, " + %lldull))", (long long)o->offset);
        return;
    default:
        cg_fail(c, "operand kind not allowed here");
    }
}

void cg_dst_open(cg *c, const ptx_operand *o, ptx_type ty)
{
    if (o->kind == PTX_OPD_sink) {
        cg_puts(c, "(void)(");
        return;
    }
    if (o->kind != PTX_OPD_reg)
        cg_fail(c, "the destination must be a register");
    const ptx_reg *reg = &c->f->regs[o->reg];
    char rk = cg_class(reg->type), tk = cg_class(ty);
    cg_printf(c, "%s = ", reg->cname);
    if (rk == 'p')
        cg_puts(c, "((");
    else if (rk == 'f' && tk == 'f')
        cg_printf(c, "(%s)(", cg_ctype(reg->type));
    else if (rk == 'f')
        cg_printf(c, reg->type == PTX_TYPE_f32 ? "cb_f32((uint32_t)(" : "cb_f64((uint64_t)(");
    else if (tk == 'f')
        cg_printf(c, "(%s)%s((", cg_ctype(reg->type), ty == PTX_TYPE_f32 ? "cb_bits32" : "cb_bits64");
    else if (!strcmp(cg_ctype(reg->type), cg_ctype(ty)))
        cg_printf(c, "((%s)(", cg_ctype(ty));
    else
        cg_printf(c, "(%s)((%s)(", cg_ctype(reg->type), cg_ctype(ty));
}

void cg_dst_close(cg *c, const ptx_operand *o, ptx_type ty)
{
    if (o->kind == PTX_OPD_sink) {
        cg_puts(c, ");\n");
        return;
    }
    const ptx_reg *reg = &c->f->regs[o->reg];
    char rk = cg_class(reg->type), tk = cg_class(ty);
    if (rk == 'p')
        cg_puts(c, ") != 0);\n");
    else if (rk == 'f' && tk == 'f')
        cg_puts(c, ");\n");
    else if (rk == 'f' || tk == 'f')
        cg_puts(c, "));\n");
    else
        cg_puts(c, "));\n");
}

/* The bytes the current instruction accesses at once (its alignment): an
 * ld/ldu/st's type times its vector width, an atom/red's type; 1 for the
 * rest (range test only). */
static uint32_t access_bytes(const cg *c)
{
    const ptx_instr *in = c->in;
    if (!in || (in->op != PTX_OP_ld && in->op != PTX_OP_ldu && in->op != PTX_OP_st && in->op != PTX_OP_atom &&
                in->op != PTX_OP_red))
        return 1;
    uint32_t n = ptx_type_size(in->types[0]);
    n *= ptx_has(in, PTX_MOD_v4) ? 4 : ptx_has(in, PTX_MOD_v2) ? 2 : 1;
    return n && !(n & (n - 1)) ? n : 1;
}

/* CUBRIDGE_CHECK_ACCESS=0: no access checks in the code (the translation,
 * and so the JIT cache key, differs); anything else: checks. */
static int access_checks(void)
{
    static _Atomic int on = -1;
    int v = atomic_load_explicit(&on, memory_order_relaxed);
    if (v < 0) {
        const char *e = getenv("CUBRIDGE_CHECK_ACCESS");
        v = !(e && !strcmp(e, "0"));
        atomic_store_explicit(&on, v, memory_order_relaxed);
    }
    return v;
}

int cg_access_checked(const cg *c, ptx_space sp)
{
    return c->target->checks_access && access_checks() &&
           (sp == PTX_SPACE_global || sp == PTX_SPACE_const || sp == PTX_SPACE_none);
}

void cg_address(cg *c, const ptx_operand *o, ptx_space sp)
{
    if (c->address_hook && c->address_hook(c, o, sp))
        return;
    long long off = (long long)o->offset;
    if (sp == PTX_SPACE_shared_cluster && (o->reg >= 0 || o->sym.kind == PTX_SYM_none)) {
        /* another block's window when the address says so (cluster.c) */
        cg_puts(c, "cb_dsmem(t, (uint32_t)(");
        if (o->reg >= 0)
            read_reg(c, o->reg, 0, PTX_TYPE_u64);
        else
            cg_printf(c, "%lluull", (unsigned long long)o->imm);
        cg_printf(c, " + %lldull))", off);
        return;
    }
    if (sp == PTX_SPACE_shared_cluster)
        sp = PTX_SPACE_shared;   /* a variable: the executing block's own */
    /* global, const and generic addresses computed at run time are checked
     * (cb_chk, prelude.c): device memory, aligned, or the runtime decides */
    int checked = cg_access_checked(c, sp);
    if (o->reg >= 0) {
        if (sp == PTX_SPACE_shared) {
            cg_puts(c, c->block_mode ? "(cbB_smem + (uint32_t)(" : "(t->blk->shared + (uint32_t)(");
            read_reg(c, o->reg, 0, PTX_TYPE_u64);
            cg_printf(c, " + %lldull))", off);
        } else if (checked) {
            cg_puts(c, "cb_chk(t, ");
            read_reg(c, o->reg, 0, PTX_TYPE_u64);
            cg_printf(c, " + %lldull, %u)", off, access_bytes(c));
        } else {
            cg_puts(c, "((unsigned char *)(uintptr_t)(");
            read_reg(c, o->reg, 0, PTX_TYPE_u64);
            cg_printf(c, " + %lldull))", off);
        }
        return;
    }
    if (o->sym.kind == PTX_SYM_none) {
        if (sp == PTX_SPACE_shared)
            cg_printf(c, "(%s + (uint32_t)%lluull)", c->block_mode ? "cbB_smem" : "t->blk->shared",
                      (unsigned long long)(o->imm + (uint64_t)off));
        else if (checked)
            cg_printf(c, "cb_chk(t, %lluull, %u)", (unsigned long long)(o->imm + (uint64_t)off), access_bytes(c));
        else
            cg_printf(c, "((unsigned char *)(uintptr_t)%lluull)", (unsigned long long)(o->imm + (uint64_t)off));
        return;
    }
    const ptx_var *v = o->sym.kind == PTX_SYM_module_var ? &c->m->vars[o->sym.index]
                       : o->sym.kind == PTX_SYM_func_var ? &c->f->vars[o->sym.index] : NULL;
    if (!v)
        cg_fail(c, "bad address");
    const char *smem = c->block_mode ? "cbB_smem" : "t->blk->shared";
    uint32_t soff;
    if (v->space == PTX_SPACE_shared) {
        if (v->is_extern)
            cg_printf(c, "(%s + cb_dyn_smem(t) + %lld)", smem, off);
        else if (shared_offset(c, v, &soff))
            cg_printf(c, "(%s + %u + %lld)", smem, soff, off);
        else
            cg_printf(c, "(%s + cb_so[%u] + %lld)", smem, v->func_slot, off);
    } else if (v->role == PTX_ROLE_module) {
        cg_printf(c, "(cb_module_globals[%u] + %lld)", v->index, off);
    } else if (c->f->is_entry && v->role == PTX_ROLE_param) {
        /* a block entry reads them through its restrict pointer to the same
         * buffer (block.c) */
        cg_printf(c, "(%s + %llu + %lld)", c->block_mode ? "(unsigned char *)cbB_pbuf" : "(unsigned char *)t->blk->params",
                  (unsigned long long)v->offset, off);
    } else {
        cg_printf(c, "(%s + %lld)", v->cname, off);
    }
}

