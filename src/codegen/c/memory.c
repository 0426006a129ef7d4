/* memory.c: the C emitters of data movement, atomics and memory ordering
 * (mov ld ldu st cvta isspacep prefetch prefetchu createpolicy atom red
 * membar fence; CB_DIALECT_C).
 */
#include "codegen/c/ops.h"

#include <stdio.h>
#include <string.h>

/* ---- data movement ---------------------------------------------------------------- */

void c_emit_mov(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    const ptx_operand *d = &in->ops[0], *s = &in->ops[1];
    if (d->kind == PTX_OPD_vec || s->kind == PTX_OPD_vec) {
        const ptx_operand *v = d->kind == PTX_OPD_vec ? d : s;
        unsigned size = ptx_type_size(ty), es = size / v->nelems;
        if (!is_int(ty) && ty != PTX_TYPE_f32 && ty != PTX_TYPE_f64)
            cg_fail(c, "bad vector mov");
        if ((es != 1 && es != 2 && es != 4 && es != 8) || (d->kind == PTX_OPD_vec && s->kind == PTX_OPD_vec))
            cg_fail(c, "bad vector mov");
        ptx_type et = es == 1 ? PTX_TYPE_u8 : es == 2 ? PTX_TYPE_u16 : es == 4 ? PTX_TYPE_u32 : PTX_TYPE_u64;
        ptx_type bt = size == 16 ? PTX_TYPE_b128 : size == 8 ? PTX_TYPE_u64 : size == 4 ? PTX_TYPE_u32 : PTX_TYPE_u16;
        if (d->kind == PTX_OPD_vec) {   /* unpack */
            cg_printf(c, "%s cb_v = ", cg_ctype(bt));
            cg_read(c, s, bt);
            cg_puts(c, ";\n");
            for (uint32_t i = 0; i < v->nelems; i++) {
                if (v->elems[i].kind == PTX_OPD_sink)
                    continue;
                cg_puts(c, "    ");
                cg_dst_open(c, &v->elems[i], et);
                cg_printf(c, "cb_v >> %u", 8 * es * i);
                cg_dst_close(c, &v->elems[i], et);
            }
        } else {                         /* pack */
            dst_open(c, in, bt);
            cg_puts(c, "0");
            for (uint32_t i = 0; i < v->nelems; i++) {
                cg_printf(c, " | ((%s)", cg_ctype(bt));
                cg_read(c, &v->elems[i], et);
                cg_printf(c, " << %u)", 8 * es * i);
            }
            dst_close(c, in, bt);
        }
        return;
    }
    dst_open(c, in, ty);
    cg_read(c, s, ty);
    dst_close(c, in, ty);
}

static int vec_width(const ptx_instr *in)
{
    return ptx_has(in, PTX_MOD_v8) ? 8 : ptx_has(in, PTX_MOD_v4) ? 4 : ptx_has(in, PTX_MOD_v2) ? 2 : 1;
}

static int ordered_access(const ptx_instr *in)
{
    return ptx_has(in, PTX_MOD_volatile) || ptx_has(in, PTX_MOD_relaxed) || ptx_has(in, PTX_MOD_acquire) ||
           ptx_has(in, PTX_MOD_release);
}

/* Whether an ordered vector access moves as one access (2 to 16 bytes), as
 * the GPU moves an aligned vector: CUB's decoupled look-back stores a tile's
 * status and value as one v2 word and reads them back as one. The PTX memory
 * model promises less (elements in any order), the hardware and CUB more. */
static int whole_vector(const ptx_instr *in, ptx_type ty, int n)
{
    uint32_t bytes = (uint32_t)n * ptx_type_size(ty);
    return n > 1 && ordered_access(in) && bytes <= 16;
}

/* Whether in may poll memory that another block writes: an ordered load or
 * an atom.cas/atom.exch of global or generic memory (see cb_runtime.spin). */
static int is_spin_point(const ptx_instr *in)
{
    ptx_space sp = ptx_instr_space(in);
    if (sp != PTX_SPACE_global && sp != PTX_SPACE_none)
        return 0;
    if (in->op == PTX_OP_ld)
        return ordered_access(in);
    return in->op == PTX_OP_atom && (ptx_has(in, PTX_MOD_cas) || ptx_has(in, PTX_MOD_exch));
}

/* The spin point before in, whose address is operand a: one test outside
 * cooperative launches. */
static void emit_spin_point(cg *c, const ptx_instr *in, const ptx_operand *a)
{
    if (!is_spin_point(in))
        return;
    cg_puts(c, "if (t->blk->grid_ws) t->blk->rt->spin(t, ");
    cg_address(c, a, ptx_instr_space(in));
    cg_puts(c, ");\n    ");
}

static void emit_load(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    int n = vec_width(in);
    if ((ptx_type_size(ty) > 8 && ty != PTX_TYPE_b128) || ptx_type_kind(ty) == 'p' || (ty == PTX_TYPE_b128 && n > 1))
        cg_fail(c, "unsupported load type");
    const char *ld = ordered_access(in) ? "cb_ldv_" : "cb_ld_";
    const ptx_operand *d = &in->ops[0];
    if ((n > 1) != (d->kind == PTX_OPD_vec) || (n > 1 && d->nelems != (uint32_t)n))
        cg_fail(c, "vector width does not match the operand");
    if (ptx_instr_flags(in) & PTX_OPF_CONVERGE)
        cg_emit_converge(c, "");
    emit_spin_point(c, in, &in->ops[1]);
    cg_puts(c, "unsigned char *cb_p = ");
    cg_address(c, &in->ops[1], ptx_instr_space(in));
    cg_puts(c, ";\n");
    const char *from = "cb_p";
    if (whole_vector(in, ty, n)) {   /* one access, then the elements out of a copy */
        cg_printf(c, "    unsigned char cb_vb[16];\n    cb_ldv_vec(cb_vb, cb_p, %u);\n", n * ptx_type_size(ty));
        ld = "cb_ld_";
        from = "cb_vb";
    }
    for (int i = 0; i < n; i++) {
        const ptx_operand *e = n > 1 ? &d->elems[i] : d;
        if (e->kind == PTX_OPD_sink)
            continue;
        cg_puts(c, "    ");
        cg_dst_open(c, e, ty);
        cg_printf(c, "%s%s(%s + %u)", ld, cg_tname(ty), from, i * ptx_type_size(ty));
        cg_dst_close(c, e, ty);
    }
}

void c_emit_ld(cg *c, const ptx_instr *in) { emit_load(c, in); }
void c_emit_ldu(cg *c, const ptx_instr *in) { emit_load(c, in); }

void c_emit_st(cg *c, const ptx_instr *in)
{
    if (ptx_has(in, PTX_MOD_async))
        return cg_emit_st_async(c, in);
    if (ptx_has(in, PTX_MOD_bulk))
        return cg_emit_st_bulk(c, in);
    if (in->ntypes != 1 || (in->nops == 3 && !ptx_has(in, PTX_MOD_hint)))
        cg_fail(c, "st takes a type and [a], v (and a cache policy with .L2::cache_hint)");
    ptx_type ty = ty0(in);
    int n = vec_width(in);
    if ((ptx_type_size(ty) > 8 && ty != PTX_TYPE_b128) || ptx_type_kind(ty) == 'p' || (ty == PTX_TYPE_b128 && n > 1))
        cg_fail(c, "unsupported store type");
    const ptx_operand *v = &in->ops[1];
    if ((n > 1) != (v->kind == PTX_OPD_vec) || (n > 1 && v->nelems != (uint32_t)n))
        cg_fail(c, "vector width does not match the operand");
    const char *st = ordered_access(in) ? "cb_stv_" : "cb_st_";
    if (ptx_instr_flags(in) & PTX_OPF_CONVERGE)
        cg_emit_converge(c, "");
    cg_puts(c, "unsigned char *cb_p = ");
    cg_address(c, &in->ops[0], ptx_instr_space(in));
    cg_puts(c, ";\n");
    int whole = whole_vector(in, ty, n);   /* the elements into a copy, then one access */
    if (whole) {
        cg_puts(c, "    unsigned char cb_vb[16];\n");
        st = "cb_st_";
    }
    for (int i = 0; i < n; i++) {
        const ptx_operand *e = n > 1 ? &v->elems[i] : v;
        if (e->kind == PTX_OPD_sink)
            cg_fail(c, "cannot store a sink");
        cg_printf(c, "    %s%s(%s + %u, ", st, cg_tname(ty), whole ? "cb_vb" : "cb_p", i * ptx_type_size(ty));
        cg_read(c, e, ty);
        cg_puts(c, ");\n");
    }
    if (whole)
        cg_printf(c, "    cb_stv_vec(cb_p, cb_vb, %u);\n", n * ptx_type_size(ty));
}

void c_emit_cvta(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    dst_open(c, in, ty);
    if (ptx_instr_space(in) == PTX_SPACE_shared_cluster) {
        if (ptx_has(in, PTX_MOD_to)) {
            cg_puts(c, "(uint64_t)cb_cl_to_dsmem(t, ");
            cg_read(c, &in->ops[1], PTX_TYPE_u64);
            cg_puts(c, ", \"cvta.to.shared::cluster: the address is not in the shared memory of a block of the cluster\")");
        } else {
            cg_puts(c, "(uint64_t)(uintptr_t)cb_dsmem(t, (uint32_t)");
            cg_read(c, &in->ops[1], PTX_TYPE_u64);
            cg_puts(c, ")");
        }
    } else if (ptx_instr_space(in) == PTX_SPACE_shared) {
        if (ptx_has(in, PTX_MOD_to)) {
            cg_read(c, &in->ops[1], PTX_TYPE_u64);
            cg_puts(c, " - (uint64_t)(uintptr_t)t->blk->shared");
        } else {
            cg_puts(c, "(uint64_t)(uintptr_t)(t->blk->shared + (uint32_t)");
            cg_read(c, &in->ops[1], PTX_TYPE_u64);
            cg_puts(c, ")");
        }
    } else {
        cg_read(c, &in->ops[1], PTX_TYPE_u64);   /* global, const, local, param: host addresses */
    }
    dst_close(c, in, ty);
}

/* The bytes of kernel parameters: the largest kernel's (t->blk->params holds the running one's). */
static uint64_t max_param_bytes(const ptx_module *m)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        for (uint32_t k = 0; m->funcs[i].is_entry && k < m->funcs[i].nparams; k++) {
            const ptx_var *v = &m->funcs[i].vars[m->funcs[i].nrets + k];
            n = v->offset + v->size > n ? v->offset + v->size : n;
        }
    return n;
}

/* isspacep: shared is the block's window, const the module's .const variables,
 * param the kernel parameter buffer, local this function's .local depots;
 * global is everything else. */
void c_emit_isspacep(cg *c, const ptx_instr *in)
{
    ptx_space sp = ptx_instr_space(in);
    cg_puts(c, "uint64_t cb_a = ");
    cg_read(c, &in->ops[1], PTX_TYPE_u64);
    cg_puts(c, ";\n    int cb_local = 0");
    for (uint32_t i = 0; i < c->f->nvars; i++)
        if (c->f->vars[i].space == PTX_SPACE_local)
            cg_printf(c, " || cb_a - (uint64_t)(uintptr_t)%s < %lluu", c->f->vars[i].cname,
                      (unsigned long long)c->f->vars[i].size);
    cg_printf(c, ";\n    int cb_param = cb_a - (uint64_t)(uintptr_t)t->blk->params < %lluu;\n    ",
              (unsigned long long)max_param_bytes(c->m));
    dst_open(c, in, PTX_TYPE_pred);
    switch (sp) {
    case PTX_SPACE_shared: cg_puts(c, "cb_in_shared(t, cb_a)"); break;
    case PTX_SPACE_shared_cluster: cg_puts(c, "(cb_cl_rank_of(t, cb_a) >= 0)"); break;
    case PTX_SPACE_const: cg_puts(c, "cb_in_const(cb_a)"); break;
    case PTX_SPACE_param: cg_puts(c, "cb_param"); break;
    case PTX_SPACE_local: cg_puts(c, "cb_local"); break;
    case PTX_SPACE_global:
        cg_puts(c, "!cb_in_shared(t, cb_a) && cb_cl_rank_of(t, cb_a) < 0 && !cb_in_const(cb_a) && !cb_param && !cb_local");
        break;
    default: cg_fail(c, "isspacep needs a state space");
    }
    dst_close(c, in, PTX_TYPE_pred);
}

void c_emit_prefetch(cg *c, const ptx_instr *in) { (void)in; cg_puts(c, "/* no effect on the CPU */\n"); }

/* createpolicy: a cache policy for .L2::cache_hint accesses; they ignore it on the CPU. */
void c_emit_createpolicy(cg *c, const ptx_instr *in)
{
    dst_open(c, in, PTX_TYPE_b64);
    cg_puts(c, "0");
    dst_close(c, in, PTX_TYPE_b64);
}
void c_emit_prefetchu(cg *c, const ptx_instr *in) { c_emit_prefetch(c, in); }

/* discard.global.L2 [a], 128: the line's contents become undefined; keeping
 * them is one of the outcomes. applypriority.global.L2::evict_normal [a],
 * 128: a cache priority. Neither does anything on the CPU. */
void c_emit_discard(cg *c, const ptx_instr *in)
{
    if (in->ops[1].kind != PTX_OPD_int || in->ops[1].imm != 128)
        cg_fail(c, "discard takes [a], 128");
    cg_puts(c, "/* discard: no effect on the CPU */\n");
}

void c_emit_applypriority(cg *c, const ptx_instr *in)
{
    if (in->ops[1].kind != PTX_OPD_int || in->ops[1].imm != 128)
        cg_fail(c, "applypriority takes [a], 128");
    cg_puts(c, "/* applypriority: no effect on the CPU */\n");
}

/* ---- atomics ---------------------------------------------------------------------------- */

static const char *atom_op(const ptx_instr *in)
{
    static const struct { ptx_mod mod; const char *name; } ops[] = {
        {PTX_MOD_add, "add"}, {PTX_MOD_min, "min"}, {PTX_MOD_max, "max"}, {PTX_MOD_inc, "inc"},
        {PTX_MOD_dec, "dec"}, {PTX_MOD_cas, "cas"}, {PTX_MOD_exch, "exch"}, {PTX_MOD_and, "and"},
        {PTX_MOD_or, "or"}, {PTX_MOD_xor, "xor"},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (ptx_has(in, ops[i].mod))
            return ops[i].name;
    return NULL;
}

/* The helper type suffix for an atomic, or NULL if the combination does not exist. */
static const char *atom_type(const char *op, ptx_type ty)
{
    int bitwise = !strcmp(op, "and") || !strcmp(op, "or") || !strcmp(op, "xor") || !strcmp(op, "exch") ||
                  !strcmp(op, "cas");
    switch (ty) {
    case PTX_TYPE_b32: return bitwise ? "u32" : NULL;
    case PTX_TYPE_b64: return bitwise ? "u64" : NULL;
    case PTX_TYPE_u32: return "u32";
    case PTX_TYPE_s32: return strcmp(op, "inc") && strcmp(op, "dec") ? "s32" : NULL;
    case PTX_TYPE_u64: return strcmp(op, "inc") && strcmp(op, "dec") ? "u64" : NULL;
    case PTX_TYPE_s64: return strcmp(op, "inc") && strcmp(op, "dec") ? "s64" : NULL;
    case PTX_TYPE_f32: return !strcmp(op, "add") || !strcmp(op, "exch") ? "f32" : NULL;
    case PTX_TYPE_f64: return !strcmp(op, "add") ? "f64" : NULL;
    default: return NULL;
    }
}

static void emit_atomic(cg *c, const ptx_instr *in, int has_dst)
{
    if (cg_emit_atom_extra(c, in, has_dst))
        return;
    ptx_type ty = ty0(in);
    const char *op = atom_op(in);
    const char *tn = op ? atom_type(op, ty) : NULL;
    if (!op || !tn || vec_width(in) > 1)
        cg_fail(c, "unsupported atomic operation");
    int m = has_dst ? 1 : 0, ncas = !strcmp(op, "cas");
    if (in->nops != m + 2 + ncas)
        cg_fail(c, "wrong number of operands");
    ptx_type vt = ptx_type_from_name(tn, 3);
    emit_spin_point(c, in, &in->ops[m]);
    if (has_dst)
        dst_open(c, in, vt);
    else
        cg_puts(c, "(void)(");
    /* a lanes entry's block is the only one to reach its shared memory, one lane at a time
     * (c/lanes.c sets block_mode 2): a plain read-modify-write (prelude.c, cb_atom1_) */
    int plain = c->block_mode == 2 && ptx_instr_space(in) == PTX_SPACE_shared;
    cg_printf(c, "cb_atom%s_%s_%s(", plain ? "1" : "", op, tn);
    cg_address(c, &in->ops[m], ptx_instr_space(in));
    for (int i = m + 1; i < in->nops; i++) {
        cg_puts(c, ", ");
        cg_read(c, &in->ops[i], vt);
    }
    cg_puts(c, ")");
    if (has_dst)
        dst_close(c, in, vt);
    else
        cg_puts(c, ");\n");
}

void c_emit_atom(cg *c, const ptx_instr *in) { emit_atomic(c, in, 1); }
void c_emit_red(cg *c, const ptx_instr *in)
{
    if (ptx_has(in, PTX_MOD_async))
        return cg_emit_red_async(c, in);
    if (in->nops != 2)
        cg_fail(c, "red takes [a], b");
    emit_atomic(c, in, 0);
}

void c_emit_membar(cg *c, const ptx_instr *in)
{
    (void)in;
    cg_puts(c, "__atomic_thread_fence(__ATOMIC_SEQ_CST);\n");
}

void c_emit_fence(cg *c, const ptx_instr *in) { c_emit_membar(c, in); }
