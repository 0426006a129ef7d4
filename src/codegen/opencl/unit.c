/* unit.c: the OpenCL C dialect's program, functions and kernels (opencl.h).
 *
 * Layout of the output: the prelude (prelude.c; then printf.c's, the C
 * dialect's half helpers and the texture helpers (tex.c) where the unit
 * needs them), forward declarations of
 * every .func, the functions, then per .entry its parameter struct and its
 * __kernel. The backend puts a text before it all that defines CB_HEAP_BASE,
 * CB_HEAP_SIZE, CB_SHARED_WIN, CB_LOCAL_WIN, the printf FIFO's CB_PRINTF_*
 * and CB_G<i>, the device address of module global i (docs/opencl.md).
 *
 * A kernel cbk_<k> takes (cb_heap, cb_pbv, cb_smem, cb_dyn): the heap
 * buffer, the packed .param buffer by value (a struct of ulongs), the
 * block's shared memory (__local, static then dynamic, the dynamic part at
 * cb_dsm, 16-byte aligned as in the C dialect) and the dynamic bytes. A .func
 * takes (cb_heap, cb_smem, cb_dsm, cb_dyn, cb_x, cb_stk, cb_fp) and then its
 * return and parameter buffers as private byte pointers, as in the C
 * dialect. Bodies are the shared cg_emit_body with this dialect's locals.
 *
 * .local memory: in a unit with .local variables or an instruction that
 * converts a .local address (cvta.local, cvta.to.local) (c->local_stack:
 * local arrays, printf's argument buffers, local arrays passed to
 * non-inlined functions), every .local variable lives in the work-item's
 * stack, one private array cb_stk that the kernel declares (the deepest
 * chain of frames its calls can reach: the call graph has no cycle) and
 * passes to every function with the frame's offset cb_fp: a .local address
 * is an offset into cb_stk, and its generic address CB_LOCAL_WIN + that
 * offset, which the generic accesses of prelude.c recognise (docs/opencl.md,
 * "Generic .local addresses"). (Each .local variable was once a private array
 * reached through its private pointer as an integer, as in the C dialect;
 * Intel's CPU OpenCL compiler, which vectorises work-items, gave a kernel
 * with a local array another work-item's values that way: local_array.)
 */
#include "codegen/opencl/opencl.h"
#include "passes/passes.h"

#include <stdio.h>
#include <string.h>

/* ---- operands: special registers and symbol addresses --------------------------------- */

int ocl_special(cg *c, const ptx_operand *o, ptx_type ty)
{
    static const char comps[] = "?xyz";
    int d = (o->comp & 3) ? (o->comp & 3) - 1 : 0;
    (void)comps;
    cg_printf(c, "((%s)", cg_ctype(ty));
    switch (o->special) {
    case PTX_SREG_tid: cg_printf(c, "(uint)get_local_id(%d)", d); break;
    case PTX_SREG_ntid: cg_printf(c, "(uint)get_local_size(%d)", d); break;
    case PTX_SREG_ctaid: cg_printf(c, "(uint)get_group_id(%d)", d); break;
    case PTX_SREG_nctaid: cg_printf(c, "(uint)get_num_groups(%d)", d); break;
    case PTX_SREG_laneid: cg_puts(c, "(CB_FLAT & 31u)"); break;
    case PTX_SREG_warpid: cg_puts(c, "(CB_FLAT >> 5)"); break;
    case PTX_SREG_nwarpid:
        cg_puts(c, "(((uint)(get_local_size(0) * get_local_size(1) * get_local_size(2)) + 31u) / 32u)");
        break;
    case PTX_SREG_lanemask_eq: cg_puts(c, "(1u << (CB_FLAT & 31u))"); break;
    case PTX_SREG_lanemask_lt: cg_puts(c, "((1u << (CB_FLAT & 31u)) - 1u)"); break;
    case PTX_SREG_lanemask_le: cg_puts(c, "((2u << (CB_FLAT & 31u)) - 1u)"); break;
    case PTX_SREG_lanemask_ge: cg_puts(c, "(~((1u << (CB_FLAT & 31u)) - 1u))"); break;
    case PTX_SREG_lanemask_gt: cg_puts(c, "(~((2u << (CB_FLAT & 31u)) - 1u))"); break;
    case PTX_SREG_dynamic_smem_size: cg_puts(c, "cb_dyn"); break;
    case PTX_SREG_total_smem_size: cg_puts(c, "(cb_dsm + cb_dyn)"); break;
    case PTX_SREG_warpsize: cg_puts(c, "32u"); break;
    /* the block's shared memory and the 1 KiB system reserve of sm_80 and later, as the H200 reports it */
    case PTX_SREG_aggr_smem_size: cg_puts(c, "(cb_dsm + cb_dyn + 1024u)"); break;
    /* clusters: the backend refuses a launch with a cluster of more than one block (opencl_backend.c),
     * so every block is a cluster of its own, as in a launch without clusters on the GPU */
    case PTX_SREG_cluster_ctaid: cg_puts(c, "0u"); break;
    case PTX_SREG_cluster_nctaid: cg_puts(c, "1u"); break;
    case PTX_SREG_clusterid: cg_printf(c, "(uint)get_group_id(%d)", d); break;
    case PTX_SREG_nclusterid: cg_printf(c, "(uint)get_num_groups(%d)", d); break;
    case PTX_SREG_cluster_ctarank: cg_puts(c, "0u"); break;
    case PTX_SREG_cluster_nctarank: cg_puts(c, "1u"); break;
    case PTX_SREG_is_explicit_cluster: cg_puts(c, "0u"); break;
    case PTX_SREG_envreg:
        /* 1 and 2: the cooperative grid workspace (grid-wide sync), which this backend has none of */
        if (o->imm == 1 || o->imm == 2)
            cg_unsupported(c, "grid-wide synchronisation (the cooperative workspace, %envreg1/2) is not supported by "
                              "the OpenCL dialect yet");
        cg_puts(c, "0u");
        break;
    default:
        cg_unsupported(c, "this special register (clock, timer, SM or grid id) is not supported by the OpenCL dialect yet");
    }
    cg_puts(c, ")");
    return 1;
}

int ocl_symbol(cg *c, const ptx_var *v)
{
    uint32_t off;
    if (v->space == PTX_SPACE_shared) {
        if (v->is_extern) {
            cg_puts(c, "(uint64_t)cb_dsm");
            return 1;
        }
        if (!c->f->is_entry)
            cg_unsupported(c, "shared variables named in .func code are not supported by the OpenCL dialect yet");
        if (pass_shared_offset(c->f->kernel, v, &off) < 0)
            cg_fail(c, "internal error: a shared variable outside the kernel's layout");
        cg_printf(c, "(uint64_t)%uu", off);
        return 1;
    }
    if (v->role == PTX_ROLE_module) {
        cg_printf(c, "(uint64_t)CB_G%u", v->index);
        return 1;
    }
    if (c->f->is_entry && v->role == PTX_ROLE_param) {
        cg_printf(c, "(uint64_t)(uintptr_t)(cb_pb + %llu)", (unsigned long long)v->offset);
        return 1;
    }
    if (v->space == PTX_SPACE_local && v >= c->f->vars && v < c->f->vars + c->f->nvars) {
        cg_printf(c, "(uint64_t)(cb_fp + %lluu)", (unsigned long long)ocl_frame_offset(c->f, v));
        return 1;   /* its place in the work-item's stack: a .local address is an offset into cb_stk */
    }
    return 0;   /* a call's .param buffer: a private array, as in C */
}

/* ---- the work-item's stack: generic addresses of .local memory ---------------------------- */

/* Lays out f's .local variables in order, each at its alignment (at least 8):
 * returns the frame's bytes (16-byte aligned), and the offset of upto in *at. */
static uint64_t frame_layout(const ptx_func *f, const ptx_var *upto, uint64_t *at)
{
    uint64_t off = 0;
    for (uint32_t i = f->nrets + f->nparams; i < f->nvars; i++) {
        const ptx_var *v = &f->vars[i];
        if (v->space != PTX_SPACE_local)
            continue;
        uint64_t a = v->align < 8 ? 8 : v->align;
        off = (off + a - 1) / a * a;
        if (v == upto && at)
            *at = off;
        off += v->size ? v->size : 1;
    }
    return (off + 15) & ~15ull;
}

uint64_t ocl_frame_size(const ptx_func *f) { return frame_layout(f, NULL, NULL); }

uint64_t ocl_frame_offset(const ptx_func *f, const ptx_var *v)
{
    uint64_t at = 0;
    frame_layout(f, v, &at);
    return at;
}

int ocl_unit_needs_stack(const ptx_module *m)
{
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const ptx_func *f = &m->funcs[i];
        for (uint32_t v = 0; f->defined && v < f->nvars; v++)
            if (f->vars[v].space == PTX_SPACE_local)
                return 1;
        for (uint32_t k = 0; f->defined && k < f->ninstrs; k++)
            if (f->instrs[k].op == PTX_OP_cvta && ptx_instr_space(&f->instrs[k]) == PTX_SPACE_local)
                return 1;
    }
    return 0;
}

int ocl_unit_calls(const ptx_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const ptx_func *f = &m->funcs[i];
        for (uint32_t k = 0; f->defined && k < f->ninstrs; k++) {
            const ptx_instr *in = &f->instrs[k];
            if (in->op == PTX_OP_call && in->nops > 1 && in->ops[1].kind == PTX_OPD_sym &&
                in->ops[1].sym.kind == PTX_SYM_func && in->ops[1].sym.index >= 0 &&
                (uint32_t)in->ops[1].sym.index < m->nfuncs && !strcmp(m->funcs[in->ops[1].sym.index].name, name))
                return 1;
        }
    }
    return 0;
}

/* The stack bytes a work-item running f needs: its frame and the deepest of
 * its callees' (the call graph has no cycle: refuse_recursion). memo[i] is
 * function i's answer + 1 once known. */
static uint64_t stack_depth(const ptx_module *m, uint32_t fi, uint64_t *memo)
{
    if (memo[fi])
        return memo[fi] - 1;
    const ptx_func *f = &m->funcs[fi];
    uint64_t deepest = 0;
    for (uint32_t k = 0; k < f->ninstrs; k++) {
        const ptx_instr *in = &f->instrs[k];
        if (in->op != PTX_OP_call || in->nops < 2 || in->ops[1].kind != PTX_OPD_sym ||
            in->ops[1].sym.kind != PTX_SYM_func || in->ops[1].sym.index < 0 ||
            (uint32_t)in->ops[1].sym.index >= m->nfuncs || !m->funcs[in->ops[1].sym.index].defined)
            continue;
        uint64_t d = stack_depth(m, (uint32_t)in->ops[1].sym.index, memo);
        if (d > deepest)
            deepest = d;
    }
    uint64_t r = ocl_frame_size(f) + deepest;
    memo[fi] = r + 1;
    return r;
}

/* ---- locals ------------------------------------------------------------------------- */

/* Whether operand o (or an element of it) names a .b128 register of f. */
static int operand_b128(const ptx_func *f, const ptx_operand *o)
{
    if ((o->kind == PTX_OPD_reg || o->kind == PTX_OPD_mem) && o->reg >= 0 && (uint32_t)o->reg < f->nregs &&
        f->regs[o->reg].type == PTX_TYPE_b128)
        return 1;
    for (uint32_t i = 0; i < o->nelems; i++)
        if (operand_b128(f, &o->elems[i]))
            return 1;
    return 0;
}

static int uses_b128(const ptx_func *f, const ptx_instr *in)
{
    for (int i = 0; i < in->nops; i++)
        if (operand_b128(f, &in->ops[i]))
            return 1;
    return 0;
}

void ocl_locals(cg *c, const ptx_func *f)
{
    if (f->conv)   /* the shared body would keep convergence frames, which need the CPU runtime */
        cg_unsupported(c, "warp convergence points (activemask, volatile shared accesses, warp collectives without "
                          ".sync) are not supported by the OpenCL dialect yet");
    for (uint32_t k = 0; k < f->ninstrs; k++)
        if (uses_b128(f, &f->instrs[k]))
            cg_unsupported(c, "128-bit registers (.b128) need 128-bit integers, which OpenCL C does not have: not "
                              "supported by the OpenCL dialect yet");
    for (uint32_t i = 0; i < f->nregs; i++) {
        if (f->regs[i].type == PTX_TYPE_b128)   /* declared, never used (above): left out */
            continue;
        const char *ct = cg_ctype(f->regs[i].type);
        int same = i > 0 && !strcmp(ct, cg_ctype(f->regs[i - 1].type));
        if (same && i % 8 != 0)
            cg_printf(c, ", %s = 0", f->regs[i].cname);
        else
            cg_printf(c, "%s    %s %s = 0", i ? ";\n" : "", ct, f->regs[i].cname);
    }
    if (f->nregs)
        cg_puts(c, ";\n");
    if (f->is_entry && c->local_stack) {   /* the work-item's stack: this kernel's frame and its callees' */
        uint64_t *memo = cg_tmp(c, c->m->nfuncs, sizeof *memo);
        uint64_t bytes = stack_depth(c->m, (uint32_t)(f - c->m->funcs), memo);
        cg_tmp_free(c, memo);
        if (bytes > 0x10000000ull)
            cg_unsupported(c, "the .local memory of this kernel and its callees is too large for the OpenCL dialect");
        cg_printf(c, "    uchar cb_stk[%llu] __attribute__((aligned(16))); /* .local memory: frames at cb_fp */\n"
                     "    const uint cb_fp = 0u;\n",
                  (unsigned long long)(bytes ? bytes : 16));
    } else if (f->is_entry) {
        cg_puts(c, "    uchar *cb_stk = 0; const uint cb_fp = 0u; /* no .local memory in this unit */\n");
    }
    for (uint32_t i = f->nrets + f->nparams; i < f->nvars; i++) {
        const ptx_var *v = &f->vars[i];
        if (v->space == PTX_SPACE_shared || v->space == PTX_SPACE_local)   /* .local: in the stack */
            continue;
        if (v->space != PTX_SPACE_param)
            cg_fail(c, "unsupported variable in a function body");
        cg_printf(c, "    uchar %s[%llu] __attribute__((aligned(%u))); /* .param %s */\n", v->cname,
                  (unsigned long long)(v->size ? v->size : 1), v->align < 8 ? 8 : v->align, v->name);
    }
    if (cg_uses_carry(f))
        cg_puts(c, "    uint cb_cf = 0; /* CC.CF */\n");
    if (f->is_entry)
        cg_puts(c, "    int cb_exited = 0; int *cb_x = &cb_exited; /* set by exit in a callee */\n");
    cg_puts(c, "    (void)cb_heap; (void)cb_smem; (void)cb_dsm; (void)cb_dyn; (void)cb_x; (void)cb_stk; (void)cb_fp;\n");
}

/* ---- the unit ------------------------------------------------------------------------ */

/* 1 when function i can call itself (state: 0 unseen, 1 on the path, 2 done). */
static int reaches_cycle(const ptx_module *m, uint32_t i, unsigned char *state)
{
    if (state[i] == 1)
        return 1;
    if (state[i] == 2)
        return 0;
    state[i] = 1;
    const ptx_func *f = &m->funcs[i];
    for (uint32_t k = 0; k < f->ninstrs; k++) {
        const ptx_instr *in = &f->instrs[k];
        if (in->op == PTX_OP_call && in->nops > 1 && in->ops[1].kind == PTX_OPD_sym &&
            in->ops[1].sym.kind == PTX_SYM_func && in->ops[1].sym.index >= 0 &&
            (uint32_t)in->ops[1].sym.index < m->nfuncs && reaches_cycle(m, (uint32_t)in->ops[1].sym.index, state))
            return 1;
    }
    state[i] = 2;
    return 0;
}

/* OpenCL C has no recursion: a module whose calls form a cycle is refused. */
static void refuse_recursion(cg *c)
{
    const ptx_module *m = c->m;
    unsigned char *state = cg_tmp(c, m->nfuncs, 1);
    int cyc = 0;
    for (uint32_t i = 0; i < m->nfuncs && !cyc; i++)
        cyc = reaches_cycle(m, i, state);
    cg_tmp_free(c, state);
    if (cyc)
        cg_unsupported(c, "recursive calls are not allowed in OpenCL C");
}

static int unit_has_half(const ptx_module *m)
{
    for (uint32_t i = 0; i < m->nfuncs; i++)
        for (uint32_t k = 0; m->funcs[i].defined && k < m->funcs[i].ninstrs; k++)
            if (ocl_is_half_instr(&m->funcs[i].instrs[k]))
                return 1;
    return 0;
}

void ocl_unit_begin(cg *c)
{
    const ptx_module *m = c->m;
    refuse_recursion(c);
    if (m->nfunc_slots)
        cg_unsupported(c, "shared variables named in .func code are not supported by the OpenCL dialect yet");
    cg_printf(c, "/* Generated by cubridge from %s (PTX %u.%u, sm_%u), OpenCL C. */\n", m->file, m->version / 10,
              m->version % 10, m->target_sm);
    cg_puts(c, "#ifndef CB_HEAP_BASE\n#error \"the OpenCL backend defines CB_HEAP_BASE, CB_HEAP_SIZE, CB_SHARED_WIN, "
               "CB_LOCAL_WIN, CB_PRINTF_CTR/OFF/CAP and CB_G<i>\"\n#endif\n");
    c->local_stack = ocl_unit_needs_stack(m);
    if (c->local_stack)   /* prelude.c: generic accesses reach the work-item's stack too */
        cg_puts(c, "#define CB_LOCAL_GEN 1\n");
    cg_puts(c, cb_codegen_opencl_prelude);
    cg_puts(c, cb_codegen_c_prelude_both);   /* min/max.f32 with .NaN/.xorsign, the half flags */
    cg_puts(c, cb_codegen_c_prelude_simd);      /* the packed and video forms (c/simd.c) */
    if (ocl_unit_calls(m, "vprintf"))
        cg_puts(c, cb_codegen_opencl_prelude_printf);
    int half = unit_has_half(m), tex = ocl_unit_uses_textures(m);
    if (half || tex)   /* the C dialect's half helpers (target.c), which compute in double; the texture
                          helpers compute in double too and take their conversions */
        cg_printf(c, "#ifndef cl_khr_fp64\n#error \"%s in the OpenCL dialect needs cl_khr_fp64\"\n#endif\n%s",
                  half ? "half precision" : "textures", cb_codegen_c_prelude_half);
    if (half)   /* the half atomics' CAS loops */
        cg_puts(c, cb_codegen_opencl_prelude_atom_half);
    if (tex)   /* tex.c: descriptors in the heap, then the C dialect's sampling helpers */
        cg_printf(c, "%s%s", cb_codegen_opencl_prelude_tex, cb_codegen_c_prelude_tex);
    int warps = 0;   /* the collectives' helpers (warp.c) only where a kernel has collectives: less to build */
    for (uint32_t k = 0; k < m->nkernels && !warps; k++)
        warps = cg_opencl_warp_scratch(&m->funcs[m->kernels[k]->func]) != 0;
    if (warps)
        cg_puts(c, cb_codegen_opencl_prelude_warp);
    for (uint32_t i = 0; i < m->nvars; i++) {
        const ptx_var *v = &m->vars[i];
        if (v->space == PTX_SPACE_global || v->space == PTX_SPACE_const)
            cg_printf(c, "/* CB_G%u: %s %s, %llu bytes */\n", v->index, v->space == PTX_SPACE_const ? ".const" : ".global",
                      v->name, (unsigned long long)v->size);
    }
    cg_puts(c, "\n");
}

static void emit_signature(cg *c, const ptx_func *f)
{
    cg_printf(c, "static void %s(__global uchar *cb_heap, __local uchar *cb_smem, uint cb_dsm, uint cb_dyn, int *cb_x, "
                 "uchar *cb_stk, uint cb_fp",
              f->cname);
    for (uint32_t i = 0; i < f->nrets + f->nparams; i++)
        cg_printf(c, ", uchar *%s", f->vars[i].cname);
    cg_puts(c, ")");
}

void ocl_unit_declare(cg *c, const ptx_func *f)
{
    c->f = f;
    emit_signature(c, f);
    cg_puts(c, ";\n");
}

/* isspacep.const: the module's .const variables */
void ocl_unit_tables(cg *c)
{
    const ptx_module *m = c->m;
    /* the heap in scope: in SVM mode CB_HEAP_BASE and so CB_G<i> are read from it (opencl_backend.c) */
    cg_puts(c, "CB_INL int cb_in_const_h(__global uchar *cb_heap, ulong a)\n{\n    (void)cb_heap, (void)a;\n");
    for (uint32_t i = 0; i < m->nvars; i++)
        if (m->vars[i].space == PTX_SPACE_const)
            cg_printf(c, "    if (a - (ulong)CB_G%u < %lluul) return 1;\n", m->vars[i].index,
                      (unsigned long long)m->vars[i].size);
    cg_puts(c, "    return 0;\n}\n#define cb_in_const(a) cb_in_const_h(cb_heap, (a))\n");
}

void ocl_unit_function(cg *c, const ptx_func *f)
{
    c->f = f;
    c->in = NULL;
    cg_printf(c, "\n/* line %u: .func %s */\n", f->line, f->name);
    emit_signature(c, f);
    cg_puts(c, "\n{\n");
    cg_emit_body(c, f);
    cg_puts(c, "}\n");
}

void ocl_unit_kernel(cg *c, const ptx_func *f)
{
    c->f = f;
    c->in = NULL;
    const ptx_kernel *k = f->kernel;
    uint32_t words = (k->param_bytes + 7) / 8;
    cg_printf(c, "\n/* line %u: .entry %s */\n", f->line, f->name);
    cg_printf(c, "typedef struct { ulong w[%u]; } %s_params;\n", words ? words : 1, f->cname);
    cg_puts(c, "__kernel ");
    if (cg_opencl_warp_scratch(f))   /* warp.c: 32-wide sub-groups where the device has them */
        cg_puts(c, "CB_SG_ATTR ");
    if (f->reqntid[0])
        cg_printf(c, "__attribute__((reqd_work_group_size(%u, %u, %u))) ", f->reqntid[0],
                  f->reqntid[1] ? f->reqntid[1] : 1, f->reqntid[2] ? f->reqntid[2] : 1);
    /* The shared-memory argument is declared as 16-byte words: a driver may place a __local
     * argument at the alignment of its pointee type, and NVIDIA's OpenCL does (`.ptr .shared
     * .align 1` for a uchar pointer), so a 4-byte access through a uchar argument faulted there. */
    cg_printf(c, "void %s(__global uchar *cb_heap, %s_params cb_pbv, __local ulong2 *cb_smem16, uint cb_dyn)\n{\n",
              f->cname, f->cname);
    cg_puts(c, "    __local uchar *cb_smem = (__local uchar *)cb_smem16;\n");
    cg_printf(c, "    uchar *cb_pb = (uchar *)&cb_pbv; (void)cb_pb;\n    const uint cb_dsm = %lluu;\n",
              (unsigned long long)((k->static_smem + 15) & ~15ull));
    if (cg_opencl_warp_scratch(f))   /* warp.c: the collectives' scratch, after the dynamic shared memory */
        cg_puts(c, "    __local ulong *cb_wxs = (__local ulong *)(cb_smem + ((cb_dsm + cb_dyn + 7u) & ~7u)); uint cb_ws = 0u;\n"
                   "    uint cb_act = 1u, cb_pc = CB_NONE; /* a lock-step region's lane (target.c): on the path; the "
                   "instruction it waits for */\n"
                   "    (void)cb_wxs; (void)cb_ws; (void)cb_act; (void)cb_pc;\n");
    cg_emit_body(c, f);
    cg_puts(c, "}\n");
}
