/* verify.c: checks the parsed IR against the opcode table, so that the
 * emitters can trust every instruction's shape: operand and type counts,
 * destination and memory operand kinds, guards, branch labels and calls. */
#include "ptx/ir.h"

#include <stdio.h>
#include <string.h>

typedef struct verifier {
    ptx_module *m;
    ptx_func *f;
    const ptx_instr *in;
    char *err;
    size_t errlen;
} verifier;

static int bad(verifier *v, const char *reason)
{
    if (v->in)
        ptx_format_instr_error(v->err, v->errlen, v->m->file, v->in, reason);
    else
        ptx_format_error(v->err, v->errlen, v->m->file, v->f ? v->f->line : 0, NULL, 0, reason);
    return -1;
}

static int find_label(const ptx_func *f, const char *name)
{
    for (uint32_t i = 0; i < f->nlabels; i++)
        if (strcmp(f->labels[i].name, name) == 0)
            return (int)i;
    return -1;
}

static int reg_ok(const ptx_func *f, int32_t r) { return r >= 0 && (uint32_t)r < f->nregs; }

/* A value operand: no memory, no lists, symbols must be variables or functions. */
static int check_value(verifier *v, ptx_operand *o, int depth)
{
    switch (o->kind) {
    case PTX_OPD_reg:
        if (!reg_ok(v->f, o->reg) || (o->reg2 >= 0 && !reg_ok(v->f, o->reg2)))
            return bad(v, "bad register");
        if (o->neg && v->f->regs[o->reg].type != PTX_TYPE_pred)
            return bad(v, "'!' needs a predicate register");
        return 0;
    case PTX_OPD_int: case PTX_OPD_f32: case PTX_OPD_f64: case PTX_OPD_special: case PTX_OPD_sink:
        return 0;
    case PTX_OPD_sym:
        if (o->sym.kind == PTX_SYM_label) {
            char msg[160];
            snprintf(msg, sizeof msg, "unknown symbol '%.100s'", o->sym.name);
            return bad(v, find_label(v->f, o->sym.name) >= 0 ? "a label cannot be used as a value" : msg);
        }
        return 0;
    case PTX_OPD_vec:
        if (depth > 0)
            return bad(v, "nested vector operand");
        if (o->nelems != 1 && o->nelems != 2 && o->nelems != 4 && o->nelems != 8)
            return bad(v, "a vector operand has 1, 2, 4 or 8 elements");
        if (o->reg2 >= 0 && !reg_ok(v->f, o->reg2))
            return bad(v, "bad register");
        for (uint32_t i = 0; i < o->nelems; i++)
            if (check_value(v, &o->elems[i], depth + 1) < 0)
                return -1;
        return 0;
    case PTX_OPD_mem:
        return bad(v, "a memory operand is not allowed here");
    default:
        return bad(v, "bad operand");
    }
}

static int check_dst(verifier *v, ptx_operand *o)
{
    if (o->kind == PTX_OPD_sink)
        return 0;
    if (o->kind == PTX_OPD_vec) {
        if (o->reg2 >= 0 && (!reg_ok(v->f, o->reg2) || v->f->regs[o->reg2].type != PTX_TYPE_pred))
            return bad(v, "'|' needs a predicate register");
        for (uint32_t i = 0; i < o->nelems; i++)
            if (o->elems[i].kind != PTX_OPD_reg && o->elems[i].kind != PTX_OPD_sink)
                return bad(v, "a destination vector holds registers");
        return check_value(v, o, 0);
    }
    if (o->kind != PTX_OPD_reg || o->neg)
        return bad(v, "the destination must be a register");
    return check_value(v, o, 0);
}

static int check_mem(verifier *v, ptx_operand *o)
{
    if (o->kind != PTX_OPD_mem)
        return bad(v, "expected a memory operand [address]");
    if (o->reg >= 0 && !reg_ok(v->f, o->reg))
        return bad(v, "bad register");
    if (o->reg < 0 && o->sym.kind == PTX_SYM_label) {
        char msg[160];
        snprintf(msg, sizeof msg, "unknown symbol '%.100s'", o->sym.name);
        return bad(v, msg);
    }
    if (o->reg < 0 && o->sym.kind == PTX_SYM_func)
        return bad(v, "a function is not an address");
    return 0;
}

static int check_param_list(verifier *v, ptx_operand *o)
{
    for (uint32_t i = 0; i < o->nelems; i++) {
        ptx_operand *e = &o->elems[i];
        if (e->kind != PTX_OPD_sym || e->sym.kind != PTX_SYM_func_var ||
            v->f->vars[e->sym.index].space != PTX_SPACE_param)
            return bad(v, "call arguments and results must be .param variables");
    }
    return 0;
}

static int check_call(verifier *v, ptx_instr *in)
{
    ptx_operand *target = &in->ops[1];
    if (target->kind == PTX_OPD_reg) {
        /* call (r), %fptr, (a), proto_or_targets: the buffers give the signature */
        if (in->nops != 4)
            return bad(v, "an indirect call needs a .callprototype or .calltargets label");
        if (!reg_ok(v->f, target->reg) || ptx_type_size(v->f->regs[target->reg].type) != 8)
            return bad(v, "a function pointer is a 64-bit register");
        if (in->ops[3].kind != PTX_OPD_sym || in->ops[3].sym.kind != PTX_SYM_label ||
            find_label(v->f, in->ops[3].sym.name) < 0)
            return bad(v, "unknown call prototype");
        return check_param_list(v, &in->ops[0]) < 0 ? -1 : check_param_list(v, &in->ops[2]);
    }
    if (in->nops == 4)
        return bad(v, "a direct call takes no prototype");
    if (target->kind != PTX_OPD_sym || target->sym.kind != PTX_SYM_func)
        return bad(v, "call target must be a function");
    if (check_param_list(v, &in->ops[0]) < 0 || check_param_list(v, &in->ops[2]) < 0)
        return -1;
    const ptx_func *callee = &v->m->funcs[target->sym.index];
    if (callee->is_entry)
        return bad(v, "cannot call a kernel");
    if (in->ops[0].nelems != callee->nrets || in->ops[2].nelems != callee->nparams)
        return bad(v, "call does not match the callee's parameters");
    for (uint32_t i = 0; i < callee->nrets + callee->nparams; i++) {
        const ptx_operand *e = i < callee->nrets ? &in->ops[0].elems[i] : &in->ops[2].elems[i - callee->nrets];
        if (v->f->vars[e->sym.index].size < callee->vars[i].size)
            return bad(v, "call argument smaller than the callee's parameter");
    }
    return 0;
}

/* mbarrier's operands: d, [addr], ... for arrive, arrive_drop, test_wait and
 * try_wait; count, state for pending_count; [addr], ... for the others
 * (init, inval, expect_tx, complete_tx). */
static unsigned mbarrier_flags(const ptx_instr *in)
{
    if (ptx_has(in, PTX_MOD_pending_count))
        return PTX_OPF_DST;
    if (ptx_has(in, PTX_MOD_arrive) || ptx_has(in, PTX_MOD_arrive_drop) || ptx_has(in, PTX_MOD_test_wait) ||
        ptx_has(in, PTX_MOD_try_wait))
        return PTX_OPF_DST | PTX_OPF_MEM;
    return PTX_OPF_MEM;
}

static int verify_instr(verifier *v, ptx_instr *in)
{
    const ptx_opinfo *info = &ptx_ops[in->op];
    v->in = in;
    if (in->nops < info->min_operands || in->nops > info->max_operands)
        return bad(v, "wrong number of operands");
    if (in->ntypes < info->min_types || in->ntypes > info->max_types)
        return bad(v, in->ntypes < info->min_types ? "missing type" : "too many types");
    if (in->guard >= 0 && (!reg_ok(v->f, in->guard) || v->f->regs[in->guard].type != PTX_TYPE_pred))
        return bad(v, "a guard must be a predicate register");
    if (info->flags & PTX_OPF_CALL)
        return check_call(v, in);
    if (info->flags & PTX_OPF_LABEL) {
        ptx_operand *o = &in->ops[0];
        if (o->kind != PTX_OPD_sym || o->sym.kind != PTX_SYM_label)
            return bad(v, o->kind == PTX_OPD_reg ? "indirect branches are not supported" : "expected a label");
        int l = find_label(v->f, o->sym.name);
        if (l < 0)
            return bad(v, "unknown label");
        o->sym.index = l;
        return 0;
    }
    unsigned flags = info->flags;
    if (in->op == PTX_OP_wmma)   /* wmma.load r, [p]; wmma.store [p], r; wmma.mma d, a, b, c */
        flags = ptx_has(in, PTX_MOD_load) ? PTX_OPF_DST | PTX_OPF_MEM
                : ptx_has(in, PTX_MOD_store) ? PTX_OPF_MEM : PTX_OPF_DST;
    if (in->op == PTX_OP_mbarrier)
        flags = mbarrier_flags(in);
    if (in->op == PTX_OP_cp && ptx_has(in, PTX_MOD_mbarrier) && in->nops == 1)   /* cp.async.mbarrier.arrive [addr] */
        return check_mem(v, &in->ops[0]);
    if (in->op == PTX_OP_cp && ptx_has(in, PTX_MOD_bulk)) {
        /* cp{.reduce}.async.bulk [dst], [src], size{, [mbar]}{, ...}; .prefetch [src], size{, policy};
         * commit_group; wait_group N */
        int pre = ptx_has(in, PTX_MOD_prefetch), grp = ptx_has(in, PTX_MOD_commit_group) ||
                                                           ptx_has(in, PTX_MOD_wait_group);
        if (!grp && in->nops < (pre ? 2 : 3))
            return bad(v, "cp.async.bulk takes [dst], [src], size{, [mbar]}{, ...}");
        for (int i = 0; i < in->nops; i++) {
            int mem = !grp && (i == 0 || (!pre && i == 1) ||
                               (!pre && i == 3 && ptx_has(in, PTX_MOD_complete_tx_bytes)));
            if ((mem ? check_mem(v, &in->ops[i]) : check_value(v, &in->ops[i], 0)) < 0)
                return -1;
        }
        return 0;
    }
    if ((in->op == PTX_OP_st || in->op == PTX_OP_red) && ptx_has(in, PTX_MOD_async)) {   /* [a], v, [mbar] */
        if (in->nops != 3)
            return bad(v, "st.async/red.async take [a], v, [mbar]");
        return check_mem(v, &in->ops[0]) < 0 || check_value(v, &in->ops[1], 0) < 0 ? -1 : check_mem(v, &in->ops[2]);
    }
    if (in->op == PTX_OP_cp && in->nops >= 2) {   /* cp.async [dst], [src], size{, src-size}{, policy} */
        if (check_mem(v, &in->ops[0]) < 0 || check_mem(v, &in->ops[1]) < 0)
            return -1;
        for (int i = 2; i < in->nops; i++)
            if (check_value(v, &in->ops[i], 0) < 0)
                return -1;
        return 0;
    }
    if (in->nops > 0 && in->ops[0].kind == PTX_OPD_vec && in->ops[0].reg2 >= 0 && in->op != PTX_OP_tex &&
        in->op != PTX_OP_tld4)
        return bad(v, "a vector destination with '|p' is only for texture fetches");
    int memi = -1;
    if (flags & PTX_OPF_MEM)
        memi = (flags & PTX_OPF_DST) ? 1 : 0;
    for (int i = 0; i < in->nops; i++) {
        int rc;
        if (i == memi)
            rc = check_mem(v, &in->ops[i]);
        else if (i == 0 && (flags & PTX_OPF_DST))
            rc = check_dst(v, &in->ops[i]);
        else
            rc = check_value(v, &in->ops[i], 0);
        if (rc < 0)
            return -1;
    }
    return 0;
}

int ptx_verify(ptx_module *m, char *err, size_t errlen)
{
    verifier v = {m, NULL, NULL, err, errlen};
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        ptx_func *f = &m->funcs[i];
        v.f = f;
        v.in = NULL;
        if (f->is_entry && !f->defined)
            return bad(&v, "kernel declared without a body");
        for (uint32_t k = 0; k < f->ninstrs; k++)
            if (verify_instr(&v, &f->instrs[k]) < 0)
                return -1;
    }
    return 0;
}
