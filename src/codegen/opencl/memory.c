/* memory.c: the OpenCL C emitters of memory access, atomics, barriers and
 * calls (ld ldu st cvta isspacep atom red membar fence nanosleep bar barrier
 * call exit trap; opencl.h).
 *
 * Addresses are the PTX values (ulong): device addresses in global, const
 * and generic space, offsets in shared space, private addresses of .param
 * buffers. A global address a is byte a - CB_HEAP_BASE of
 * cb_heap; a shared offset o is byte o of cb_smem; a generic address is
 * shared when it lies in the window at CB_SHARED_WIN, else global. In a unit
 * with .local memory (c->local_stack, unit.c) a .local address is an offset
 * o into the work-item's stack cb_stk, and its generic address
 * CB_LOCAL_WIN + o. Generic addresses of .param memory do not exist here
 * (cvta.param is refused).
 */
#include "codegen/opencl/opencl.h"
#include "codegen/c/ops.h"

#include <stdio.h>
#include <string.h>

/* Emits the address that memory operand o names, as a ulong. */
static void addr_value(cg *c, const ptx_operand *o)
{
    ptx_operand v = *o;
    if (o->reg >= 0) {
        v.kind = PTX_OPD_reg;
        cg_puts(c, "((ulong)");
        cg_read(c, &v, PTX_TYPE_u64);
        cg_printf(c, " + %lldul)", (long long)o->offset);
    } else if (o->sym.kind == PTX_SYM_none) {
        cg_printf(c, "((ulong)%lluul)", (unsigned long long)(o->imm + (uint64_t)o->offset));
    } else if (o->sym.kind == PTX_SYM_module_var || o->sym.kind == PTX_SYM_func_var) {
        v.kind = PTX_OPD_sym;
        cg_read(c, &v, PTX_TYPE_u64);
    } else {
        cg_fail(c, "bad address");
    }
}

static int vec_width(const ptx_instr *in)
{
    return ptx_has(in, PTX_MOD_v4) ? 4 : ptx_has(in, PTX_MOD_v2) ? 2 : 1;
}

static int is_volatile(const ptx_instr *in)
{
    return ptx_has(in, PTX_MOD_volatile) || ptx_has(in, PTX_MOD_relaxed) || ptx_has(in, PTX_MOD_acquire) ||
           ptx_has(in, PTX_MOD_release);
}

/* Emits "cb_p = <typed pointer>;" for a non-generic space; returns 0 for generic. */
static int emit_pointer(cg *c, const ptx_instr *in, const ptx_operand *o, const char *t)
{
    const char *q = is_volatile(in) ? "volatile " : "";
    switch (ptx_instr_space(in)) {
    case PTX_SPACE_global:
    case PTX_SPACE_const:
        cg_printf(c, "%s__global %s *cb_p = (%s__global %s *)CB_GP(", q, t, q, t);
        break;
    case PTX_SPACE_shared:
        cg_printf(c, "%s__local %s *cb_p = (%s__local %s *)CB_SP(", q, t, q, t);
        break;
    case PTX_SPACE_local:
        if (c->local_stack) {   /* an offset into the work-item's stack */
            cg_printf(c, "%s%s *cb_p = (%s%s *)CB_LP(", q, t, q, t);
            break;
        }
        /* fall through */
    case PTX_SPACE_param:   /* a private pointer */
        cg_printf(c, "%s%s *cb_p = (%s%s *)(uintptr_t)(", q, t, q, t);
        break;
    case PTX_SPACE_none:
        cg_puts(c, "ulong cb_a = ");
        addr_value(c, o);
        cg_puts(c, ";\n");
        return 0;
    default:
        cg_unsupported(c, "this state space is not supported by the OpenCL dialect yet");
    }
    addr_value(c, o);
    cg_puts(c, ");\n");
    return 1;
}

/* An ordered vector of 2 to 16 bytes moves as one word (ushort, uint, ulong or
 * ulong2 "w128"), as the C dialect moves it (c/memory.c, whole_vector): CUB's
 * decoupled look-back stores a tile's status and value as one v2 word. */
static const char *whole_word(const ptx_instr *in, ptx_type ty, int n, uint32_t *bytes)
{
    *bytes = (uint32_t)n * ptx_type_size(ty);
    if (n < 2 || !is_volatile(in))
        return NULL;
    switch (*bytes) {
    case 2: return "u16";
    case 4: return "u32";
    case 8: return "u64";
    case 16: return "w128";
    default: return NULL;
    }
}

static const char *word_ctype(const char *w)
{
    return !strcmp(w, "u16") ? "ushort" : !strcmp(w, "u32") ? "uint" : !strcmp(w, "u64") ? "ulong" : "ulong2";
}

/* The bits of element i (es bytes) of the word cb_w, as a ulong. */
static void word_part(cg *c, int bytes, uint32_t es, int i)
{
    uint32_t off = es * (uint32_t)i;
    if (bytes == 16)
        cg_printf(c, "(cb_w.s%u >> %u)", off / 8, 8 * (off % 8));
    else
        cg_printf(c, "((ulong)cb_w >> %u)", 8 * off);
}

/* Loads or stores the whole word at the instruction's address (the typed
 * pointer cb_p or the generic address cb_a). */
static void word_access(cg *c, int typed, const char *w, int store)
{
    const char *wt = word_ctype(w);
    if (typed && store)
        cg_puts(c, "    *cb_p = cb_w;\n");
    else if (typed)
        cg_printf(c, "    %s cb_w = *cb_p;\n", wt);
    else if (store)
        cg_printf(c, "    cb_stnv_%s(cb_heap, cb_smem, cb_stk, cb_a, cb_w);\n", w);
    else
        cg_printf(c, "    %s cb_w = cb_ldnv_%s(cb_heap, cb_smem, cb_stk, cb_a);\n", wt, w);
}

static void load_words(cg *c, const ptx_instr *in, ptx_type ty, int n, int typed, const char *w, uint32_t bytes)
{
    const ptx_operand *d = &in->ops[0];
    uint32_t es = ptx_type_size(ty);
    word_access(c, typed, w, 0);
    for (int i = 0; i < n; i++) {
        const ptx_operand *e = &d->elems[i];
        if (e->kind == PTX_OPD_sink)
            continue;
        cg_puts(c, "    ");
        cg_dst_open(c, e, ty);
        if (ty == PTX_TYPE_f32)
            cg_puts(c, "cb_f32((uint)");
        else if (ty == PTX_TYPE_f64)
            cg_puts(c, "cb_f64(");
        else
            cg_printf(c, "(%s)(", cg_ctype(ty));
        word_part(c, (int)bytes, es, i);
        cg_puts(c, ")");
        cg_dst_close(c, e, ty);
    }
}

static void store_words(cg *c, const ptx_instr *in, ptx_type ty, int n, int typed, const char *w, uint32_t bytes)
{
    const ptx_operand *v = &in->ops[1];
    uint32_t es = ptx_type_size(ty);
    const char *ut = es == 1 ? "uchar" : es == 2 ? "ushort" : es == 4 ? "uint" : "ulong";
    cg_printf(c, "    %s cb_w = (%s)(0);\n", word_ctype(w), word_ctype(w));
    for (int i = 0; i < n; i++) {
        const ptx_operand *e = &v->elems[i];
        if (e->kind == PTX_OPD_sink)
            cg_fail(c, "cannot store a sink");
        uint32_t off = es * (uint32_t)i;
        if (bytes == 16)
            cg_printf(c, "    cb_w.s%u |= (ulong)", off / 8);
        else
            cg_printf(c, "    cb_w |= (%s)((ulong)", word_ctype(w));
        if (ty == PTX_TYPE_f32 || ty == PTX_TYPE_f64)
            cg_puts(c, ty == PTX_TYPE_f32 ? "cb_bits32(" : "cb_bits64(");
        else
            cg_printf(c, "(%s)(", ut);
        cg_read(c, e, ty);
        cg_printf(c, ") << %u%s;\n", 8 * (off % 8), bytes == 16 ? "" : ")");
    }
    word_access(c, typed, w, 1);
}

static void fence(cg *c)
{
    cg_puts(c, "    mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n");
}

void ocl_emit_ld(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    int n = vec_width(in);
    if (ptx_type_size(ty) > 8 || ptx_type_kind(ty) == 'p')
        cg_fail(c, "unsupported load type");
    const ptx_operand *d = &in->ops[0];
    if ((n > 1) != (d->kind == PTX_OPD_vec) || (n > 1 && d->nelems != (uint32_t)n))
        cg_fail(c, "vector width does not match the operand");
    if (in->nops > 2)
        cg_unsupported(c, "a load with a cache policy operand is not supported by the OpenCL dialect yet");
    uint32_t bytes;
    const char *w = whole_word(in, ty, n, &bytes);
    int typed = emit_pointer(c, in, &in->ops[1], w ? word_ctype(w) : cg_ctype(ty));
    if (w)
        load_words(c, in, ty, n, typed, w, bytes);
    for (int i = 0; !w && i < n; i++) {
        const ptx_operand *e = n > 1 ? &d->elems[i] : d;
        if (e->kind == PTX_OPD_sink)
            continue;
        cg_puts(c, "    ");
        cg_dst_open(c, e, ty);
        if (typed)
            cg_printf(c, "cb_p[%d]", i);
        else
            cg_printf(c, "cb_ldn%s_%s(cb_heap, cb_smem, cb_stk, cb_a + %u)", is_volatile(in) ? "v" : "", cg_tname(ty),
                      i * ptx_type_size(ty));
        cg_dst_close(c, e, ty);
    }
    if (ptx_has(in, PTX_MOD_acquire))
        fence(c);
}

void ocl_emit_st(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    int n = vec_width(in);
    if (ptx_type_size(ty) > 8 || ptx_type_kind(ty) == 'p')
        cg_fail(c, "unsupported store type");
    const ptx_operand *v = &in->ops[1];
    if ((n > 1) != (v->kind == PTX_OPD_vec) || (n > 1 && v->nelems != (uint32_t)n))
        cg_fail(c, "vector width does not match the operand");
    if (in->nops > 2)
        cg_unsupported(c, "a store with a cache policy operand is not supported by the OpenCL dialect yet");
    if (ptx_has(in, PTX_MOD_release))
        fence(c);
    uint32_t bytes;
    const char *w = whole_word(in, ty, n, &bytes);
    int typed = emit_pointer(c, in, &in->ops[0], w ? word_ctype(w) : cg_ctype(ty));
    if (w)
        store_words(c, in, ty, n, typed, w, bytes);
    for (int i = 0; !w && i < n; i++) {
        const ptx_operand *e = n > 1 ? &v->elems[i] : v;
        if (e->kind == PTX_OPD_sink)
            cg_fail(c, "cannot store a sink");
        if (typed)
            cg_printf(c, "    cb_p[%d] = ", i);
        else
            cg_printf(c, "    cb_stn%s_%s(cb_heap, cb_smem, cb_stk, cb_a + %u, ", is_volatile(in) ? "v" : "", cg_tname(ty),
                      i * ptx_type_size(ty));
        cg_read(c, e, ty);
        cg_puts(c, typed ? ";\n" : ");\n");
    }
}

void ocl_emit_cvta(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    ptx_space sp = ptx_instr_space(in);
    if (sp == PTX_SPACE_param)
        cg_unsupported(c, "generic addresses of .param memory are not supported by the OpenCL dialect yet");
    if (sp == PTX_SPACE_local && !c->local_stack)
        cg_fail(c, "internal error: cvta.local in a unit without the work-item's stack");
    dst_open(c, in, ty);
    if (sp == PTX_SPACE_local && ptx_has(in, PTX_MOD_to)) {   /* unit.c: the stack's window */
        cg_read(c, &in->ops[1], PTX_TYPE_u64);
        cg_puts(c, " - CB_LOCAL_WIN");
    } else if (sp == PTX_SPACE_local) {
        cg_puts(c, "CB_LOCAL_WIN + (uint)");
        cg_read(c, &in->ops[1], PTX_TYPE_u64);
    } else if (sp == PTX_SPACE_shared && ptx_has(in, PTX_MOD_to)) {
        cg_read(c, &in->ops[1], PTX_TYPE_u64);
        cg_puts(c, " - CB_SHARED_WIN");
    } else if (sp == PTX_SPACE_shared) {
        cg_puts(c, "CB_SHARED_WIN + (uint)");
        cg_read(c, &in->ops[1], PTX_TYPE_u64);
    } else {
        cg_read(c, &in->ops[1], PTX_TYPE_u64);   /* global and const addresses are generic ones */
    }
    dst_close(c, in, ty);
}

/* isspacep: generic .param addresses do not exist in this dialect, nor .local ones outside stack mode */
void ocl_emit_isspacep(cg *c, const ptx_instr *in)
{
    cg_puts(c, "ulong cb_a = ");
    cg_read(c, &in->ops[1], PTX_TYPE_u64);
    cg_puts(c, ";\n    ");
    dst_open(c, in, PTX_TYPE_pred);
    switch (ptx_instr_space(in)) {
    case PTX_SPACE_shared: cg_puts(c, "cb_a - CB_SHARED_WIN < (ulong)cb_dsm + cb_dyn"); break;
    case PTX_SPACE_const: cg_puts(c, "cb_in_const(cb_a)"); break;
    case PTX_SPACE_param: cg_puts(c, "0"); break;
    case PTX_SPACE_local: cg_puts(c, c->local_stack ? "cb_is_lo(cb_a)" : "0"); break;
    case PTX_SPACE_global: cg_puts(c, "cb_a - CB_HEAP_BASE < CB_HEAP_SIZE && !cb_in_const(cb_a)"); break;
    default: cg_fail(c, "isspacep needs a state space");
    }
    dst_close(c, in, PTX_TYPE_pred);
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

/* The helper suffix (prelude.c's cb_atom_<op>_<suffix>_<space>), or NULL. */
static const char *atom_type(const char *op, ptx_type ty)
{
    int bitwise = !strcmp(op, "and") || !strcmp(op, "or") || !strcmp(op, "xor") || !strcmp(op, "exch") ||
                  !strcmp(op, "cas");
    int incdec = !strcmp(op, "inc") || !strcmp(op, "dec");
    switch (ty) {
    case PTX_TYPE_b32: return bitwise ? "u32" : NULL;
    case PTX_TYPE_b64: return bitwise ? "u64" : NULL;
    case PTX_TYPE_u32: return "u32";
    case PTX_TYPE_s32: return incdec ? NULL : "s32";
    case PTX_TYPE_u64: return incdec ? NULL : "u64";
    case PTX_TYPE_s64: return incdec ? NULL : "s64";
    case PTX_TYPE_f32: return !strcmp(op, "add") || !strcmp(op, "exch") ? "f32" : NULL;
    case PTX_TYPE_f64: return !strcmp(op, "add") ? "f64" : NULL;
    default: return NULL;
    }
}

static void atom_call(cg *c, const ptx_instr *in, int m, const char *op, const char *tn, ptx_type vt, const char *sp,
                      const char *ptr)
{
    cg_printf(c, "cb_atom_%s_%s_%s(%s", op, tn, sp, ptr);
    for (int i = m + 1; i < in->nops; i++) {
        cg_puts(c, ", ");
        cg_read(c, &in->ops[i], vt);
    }
    cg_puts(c, ")");
}

/* The atomics the 32-bit CAS loops of prelude.c emulate, element by element (atom.c's forms in the C
 * dialect): add on f16/bf16 (and .v2/.v4/.v8), on f16x2/bf16x2 (and .v2/.v4), on .v2/.v4.f32, and
 * cas.b16. Returns 0 for any other atomic. */
static int emit_atomic_words(cg *c, const ptx_instr *in, int has_dst)
{
    ptx_type ty = ty0(in);
    int n = ptx_has(in, PTX_MOD_v8) ? 8 : vec_width(in), hf = cg_atom_half_kind(ty), m = has_dst ? 1 : 0;
    int cas16 = ty == PTX_TYPE_b16 && ptx_has(in, PTX_MOD_cas) && n == 1;
    int add = ptx_has(in, PTX_MOD_add) && (hf >= 0 || (ty == PTX_TYPE_f32 && (n == 2 || n == 4)));
    if (!cas16 && !add)
        return 0;
    if (in->nops != m + 2 + cas16 || (cas16 && !has_dst))
        cg_fail(c, "wrong number of operands");
    unsigned es = ptx_type_size(ty);
    const char *kind = cas16 ? "cas_u16" : ty == PTX_TYPE_f32 ? "add_f32v" : es == 2 ? "add_h" : "add_h2";
    ptx_type vt = cas16 || es == 2 ? PTX_TYPE_u16 : ty == PTX_TYPE_f32 ? PTX_TYPE_f32 : PTX_TYPE_u32;
    ptx_space sp = ptx_instr_space(in);
    if (sp != PTX_SPACE_global && sp != PTX_SPACE_shared && sp != PTX_SPACE_none)
        cg_unsupported(c, "atomics on this state space are not supported by the OpenCL dialect");
    cg_puts(c, "ulong cb_a = ");
    addr_value(c, &in->ops[m]);
    cg_puts(c, ";\n");
    for (int i = 0; i < n; i++) {
        const ptx_operand *v = n > 1 ? &in->ops[m + 1].elems[i] : &in->ops[m + 1];
        const ptx_operand *d = has_dst ? (n > 1 ? &in->ops[0].elems[i] : &in->ops[0]) : NULL;
        if (n > 1 && (in->ops[m + 1].kind != PTX_OPD_vec || in->ops[m + 1].nelems != (uint32_t)n ||
                      (d && (in->ops[0].kind != PTX_OPD_vec || in->ops[0].nelems != (uint32_t)n))))
            cg_fail(c, "vector width does not match the operand");
        for (int side = 0; side < 2; side++) {   /* global, then shared */
            const char *spc = side ? "s" : "g";
            if ((sp == PTX_SPACE_global && side) || (sp == PTX_SPACE_shared && !side))
                continue;
            cg_printf(c, "    %s", sp == PTX_SPACE_none ? (side ? "else " : "if (!cb_is_sh(cb_a)) ") : "");
            if (sp == PTX_SPACE_none && side && c->local_stack)   /* the work-item's stack has no atomics */
                cg_puts(c, "if (cb_is_lo(cb_a)) (void)cb_atom_local(cb_heap); else ");
            if (d)
                cg_dst_open(c, d, vt);
            else
                cg_puts(c, "(void)(");
            cg_printf(c, "cb_atom_%s_%s(%s(cb_a%s + %uu)", kind, spc, side ? "CB_SP" : "CB_GP",
                      side && sp == PTX_SPACE_none ? " - CB_SHARED_WIN" : "", i * es);
            if (!cas16 && ty != PTX_TYPE_f32)
                cg_printf(c, ", %d", hf);
            for (int k = m + 1; k < in->nops; k++) {
                cg_puts(c, ", ");
                cg_read(c, k == m + 1 ? v : &in->ops[k], vt);
            }
            cg_puts(c, ")");
            if (d)
                cg_dst_close(c, d, vt);
            else
                cg_puts(c, ");\n");
        }
    }
    return 1;
}

static void emit_atomic(cg *c, const ptx_instr *in, int has_dst)
{
    if (emit_atomic_words(c, in, has_dst))
        return;
    ptx_type ty = ty0(in);
    const char *op = atom_op(in);
    const char *tn = op ? atom_type(op, ty) : NULL;
    if (!op || !tn || vec_width(in) > 1)
        cg_unsupported(c, "this atomic operation is not supported by the OpenCL dialect yet");
    int m = has_dst ? 1 : 0, ncas = !strcmp(op, "cas");
    if (in->nops != m + 2 + ncas)
        cg_fail(c, "wrong number of operands");
    ptx_type vt = ptx_type_from_name(tn, 3);
    ptx_space sp = ptx_instr_space(in);
    if (sp != PTX_SPACE_global && sp != PTX_SPACE_shared && sp != PTX_SPACE_none)
        cg_unsupported(c, "atomics on this state space are not supported by the OpenCL dialect");
    cg_puts(c, "ulong cb_a = ");
    addr_value(c, &in->ops[m]);
    cg_puts(c, ";\n    ");
    if (has_dst)
        dst_open(c, in, vt);
    else
        cg_puts(c, "(void)(");
    if (sp == PTX_SPACE_global) {
        atom_call(c, in, m, op, tn, vt, "g", "CB_GP(cb_a)");
    } else if (sp == PTX_SPACE_shared) {
        atom_call(c, in, m, op, tn, vt, "s", "CB_SP(cb_a)");
    } else {
        if (c->local_stack)   /* the work-item's stack has no atomics: the launch fails (status 4) */
            cg_printf(c, "cb_is_lo(cb_a) ? (%s)cb_atom_local(cb_heap) : ", cg_ctype(vt));
        cg_puts(c, "cb_is_sh(cb_a) ? ");
        atom_call(c, in, m, op, tn, vt, "s", "CB_SP(cb_a - CB_SHARED_WIN)");
        cg_puts(c, " : ");
        atom_call(c, in, m, op, tn, vt, "g", "CB_GP(cb_a)");
    }
    if (has_dst)
        dst_close(c, in, vt);
    else
        cg_puts(c, ");\n");
}

void ocl_emit_atom(cg *c, const ptx_instr *in) { emit_atomic(c, in, 1); }
void ocl_emit_red(cg *c, const ptx_instr *in) { emit_atomic(c, in, 0); }

void ocl_emit_membar(cg *c, const ptx_instr *in)
{
    (void)in;
    cg_puts(c, "mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n");
}

/* nanosleep t: the PTX ISA lets the sleep last anything in [0, 2t] ns; OpenCL C has no sleep, so
 * this one lasts 0 (the operand is still read, for its side effects on nothing but the text) */
void ocl_emit_nanosleep(cg *c, const ptx_instr *in)
{
    cg_puts(c, "(void)(");
    cg_read(c, &in->ops[0], PTX_TYPE_u32);
    cg_puts(c, "); /* nanosleep: a sleep of 0 ns, within the ISA's [0, 2t] */\n");
}

/* ---- barriers and calls ------------------------------------------------------------------ */

/* bar.sync 0 / barrier.sync 0 / bar.cta.sync 0 over the whole block: barrier(). The
 * forms with another barrier, a thread count, arrive, red or .warp are refused. */
void ocl_emit_bar(cg *c, const ptx_instr *in)
{
    if (ptx_has(in, PTX_MOD_warp))
        return ocl_emit_bar_warp(c, in);
    if (ptx_has(in, PTX_MOD_red))
        return ocl_emit_bar_red(c, in);
    if (ptx_has(in, PTX_MOD_arrive))
        cg_unsupported(c, "bar.arrive (named barriers, producer/consumer) is not supported by the OpenCL dialect yet");
    if (in->nops != 1 || in->ops[0].kind != PTX_OPD_int || in->ops[0].imm != 0)
        cg_unsupported(c, "barriers other than 0 over the whole block are not supported by the OpenCL dialect yet");
    cg_puts(c, "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n");
}

void ocl_emit_call(cg *c, const ptx_instr *in)
{
    if (in->ops[1].kind == PTX_OPD_reg)
        cg_unsupported(c, "indirect calls are not supported by the OpenCL dialect");
    const ptx_func *callee = &c->m->funcs[in->ops[1].sym.index];
    const ptx_operand *args = &in->ops[2];
    if (!callee->defined && !strcmp(callee->name, "__assertfail") && args->nelems == 5) {
        cg_puts(c, "cb_assert(cb_heap");
        for (int i = 0; i < 4; i++)
            cg_printf(c, ", *(%s *)%s", i == 2 ? "uint" : "ulong", c->f->vars[args->elems[i].sym.index].cname);
        cg_puts(c, ");\n    ");
        cg_puts(c, c->f->is_entry ? "return;\n" : "*cb_x = 1; return;\n");
        return;
    }
    if (!callee->defined && !strcmp(callee->name, "vprintf"))
        return ocl_emit_vprintf(c, in);
    if (!callee->defined) {
        char msg[200];
        snprintf(msg, sizeof msg, "a call to '%.80s' (device malloc/free, or another external function) is not supported by "
                 "the OpenCL dialect yet",
                 callee->name);
        cg_unsupported(c, msg);
    }
    /* the callee's frame follows the caller's in the work-item's stack (unit.c) */
    cg_printf(c, "%s(cb_heap, cb_smem, cb_dsm, cb_dyn, cb_x, cb_stk, cb_fp + %lluu", callee->cname,
              (unsigned long long)(c->local_stack ? ocl_frame_size(c->f) : 0));
    for (int l = 0; l <= 2; l += 2)
        for (uint32_t i = 0; i < in->ops[l].nelems; i++)
            cg_printf(c, ", %s", c->f->vars[in->ops[l].elems[i].sym.index].cname);
    cg_puts(c, ");\n    if (*cb_x) return;\n");
}

void ocl_emit_exit(cg *c, const ptx_instr *in)
{
    (void)in;
    cg_puts(c, c->f->is_entry ? "return;\n" : "*cb_x = 1; return;\n");
}

/* trap: the launch fails (the backend reads the status that cb_trap wrote); the thread ends here */
void ocl_emit_trap(cg *c, const ptx_instr *in)
{
    (void)in;
    cg_puts(c, c->f->is_entry ? "cb_trap(cb_heap); return;\n" : "cb_trap(cb_heap); *cb_x = 1; return;\n");
}
