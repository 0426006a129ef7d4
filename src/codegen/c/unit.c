/* unit.c: the C dialect's unit, functions and kernels (c.h).
 *
 * Layout of the output: kernel_abi.h verbatim, the helper prelude, the
 * exported module symbols (cb_module_globals, cb_module_abi_version), forward
 * declarations of every .func, the module tables, then the functions, then
 * one cbk_<i> per .entry (after its block entry, when it needs no fibers).
 * PTX registers become C locals, labels become C labels, and every
 * instruction is preceded by a comment with its PTX line; the instructions
 * themselves go through the dialect's table (target.c).
 */
#include "codegen/c/c.h"
#include "codegen/c/kernel_abi_text.h"

#include <stdio.h>
#include <string.h>

/* ---- functions ------------------------------------------------------------------------ */

static void emit_comment_text(cg *c, const char *s, size_t n)
{
    cg_reserve(c, n + 8);
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (ch == '\n' || ch == '\t' || ch == '\r')
            ch = ' ';
        if (ch == '/' && i > 0 && s[i - 1] == '*')
            ch = ' ';
        if (ch == '*' && i + 1 < n && s[i + 1] == '/')
            ch = ' ';
        if ((unsigned char)ch < 32 || (unsigned char)ch > 126 || ch == '\\' || ch == '?')
            ch = ' ';
        /* collapse runs of blanks */
        if (ch == ' ' && c->len && c->buf[c->len - 1] == ' ')
            continue;
        c->buf[c->len++] = ch;
    }
    c->buf[c->len] = 0;
}

static void emit_signature(cg *c, const ptx_func *f)
{
    if (f->is_entry) {
        cg_printf(c, "__attribute__((visibility(\"default\"))) void %s(cb_thread *t)", f->cname);
        return;
    }
    cg_printf(c, "static void %s(cb_thread *t, int *cb_x", f->cname);
    if (c->m->nfunc_slots)   /* the running kernel's shared offsets (src/passes/shared.c) */
        cg_puts(c, ", const uint32_t *cb_so");
    for (uint32_t i = 0; i < f->nrets + f->nparams; i++)
        cg_printf(c, ", unsigned char *%s", f->vars[i].cname);
    cg_puts(c, ")");
}

int cg_uses_carry(const ptx_func *f)
{
    for (uint32_t i = 0; i < f->ninstrs; i++) {
        const ptx_instr *in = &f->instrs[i];
        if (ptx_has(in, PTX_MOD_cc) || (ptx_ops[in->op].flags & PTX_OPF_CARRY))
            return 1;
    }
    return 0;
}

static void emit_locals(cg *c, const ptx_func *f)
{
    /* registers, grouped by C type, a few per line */
    for (uint32_t i = 0; i < f->nregs; i++) {
        const char *ct = cg_ctype(f->regs[i].type);
        int same = i > 0 && !strcmp(ct, cg_ctype(f->regs[i - 1].type));
        if (same && i % 8 != 0)
            cg_printf(c, ", %s = 0", f->regs[i].cname);
        else
            cg_printf(c, "%s    %s %s = 0", i ? ";\n" : "", ct, f->regs[i].cname);
    }
    if (f->nregs)
        cg_puts(c, ";\n");
    for (uint32_t i = f->nrets + f->nparams; i < f->nvars; i++) {
        const ptx_var *v = &f->vars[i];
        if (v->space == PTX_SPACE_shared)
            continue;   /* lives in the block's shared window */
        if (v->space != PTX_SPACE_local && v->space != PTX_SPACE_param)
            cg_fail(c, "unsupported variable in a function body");
        cg_printf(c, "    _Alignas(%u) unsigned char %s[%llu]; /* %s %s */\n", v->align < 8 ? 8 : v->align,
                  v->cname, (unsigned long long)(v->size ? v->size : 1),
                  v->space == PTX_SPACE_local ? ".local" : ".param", v->name);
    }
    if (cg_uses_carry(f))
        cg_puts(c, "    uint32_t cb_cf = 0; /* CC.CF */\n");
    if (f->is_entry)
        cg_puts(c, "    int cb_exited = 0, *cb_x = &cb_exited; /* set by exit in a callee */\n");
    if (f->is_entry && c->m->nfunc_slots)
        cg_printf(c, "    const uint32_t *cb_so = %s_so; (void)cb_so; /* for its callees */\n", f->cname);
    cg_puts(c, "    (void)t; (void)cb_x;\n");
    if (f->is_entry && c->m->nrelocs)   /* never run with unpatched addresses */
        cg_puts(c, "    if (!cb_relocated) t->blk->rt->unsupported(t, \"address initialisers in .global data: "
                   "the loader did not call cb_module_relocate\");\n");
}

static void emit_labels_at(cg *c, const ptx_func *f, uint32_t k)
{
    for (uint32_t i = 0; i < f->nlabels; i++)
        if (f->labels[i].instr == k)
            cg_printf(c, "%s: ;\n", f->labels[i].cname);
}

void cg_emit_body(cg *c, const ptx_func *f)
{
    c->f = f;
    c->in = NULL;
    if (c->target->locals)
        c->target->locals(c, f);
    else
        emit_locals(c, f);
    c_conv_begin(c, f);
    for (uint32_t k = 0; k < f->ninstrs; k++) {
        const ptx_instr *in = &f->instrs[k];
        c_conv_edge(c, k);
        emit_labels_at(c, f, k);
        c->in = in;
        cg_printf(c, "    /* %u: ", in->line);
        emit_comment_text(c, in->text, in->textlen);
        cg_puts(c, " */\n    ");
        if (in->guard >= 0)
            cg_printf(c, "if (%s%s) ", in->guard_neg ? "!" : "", f->regs[in->guard].cname);
        cg_puts(c, "{ ");
        c_conv_instr(c, k);
        cg_emit_instr(c, in);
        cg_puts(c, "    }\n");
    }
    emit_labels_at(c, f, f->ninstrs);
    c->in = NULL;
}

void c_unit_function(cg *c, const ptx_func *f)
{
    c->f = f;
    c->in = NULL;
    cg_printf(c, "\n/* line %u: %s %s */\n", f->line, f->is_entry ? ".entry" : ".func", f->name);
    emit_signature(c, f);
    cg_puts(c, "\n{\n");
    cg_emit_body(c, f);
    cg_puts(c, "}\n");
}

/* cb_module_funcs (every defined .func, in order: the targets of function
 * relocations), cb_module_relocate (writes the address initialisers; the
 * loader calls it once the globals are in place) and cb_in_const (isspacep.const). */
void c_unit_tables(cg *c)
{
    const ptx_module *m = c->m;
    c->f = NULL;
    c->in = NULL;
    cg_puts(c, "__attribute__((visibility(\"default\"))) void *const cb_module_funcs[] = {");
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].defined && !m->funcs[i].is_entry)
            cg_printf(c, "(void *)%s, ", m->funcs[i].cname);
    cg_puts(c, "0};\n");
    cg_puts(c, "static int cb_relocated; /* set once the address initialisers are written */\n");
    cg_puts(c, "__attribute__((visibility(\"default\"))) void cb_module_relocate(void)\n{\n    cb_relocated = 1;\n");
    for (uint32_t i = 0; i < m->nrelocs; i++) {
        const ptx_reloc *r = &m->relocs[i];
        const ptx_var *v = &m->vars[r->var];
        cg_printf(c, "    { uint64_t a = (uint64_t)(uintptr_t)");
        if (r->target.kind == PTX_SYM_func) {
            const ptx_func *g = &m->funcs[r->target.index];
            if (!g->defined || g->is_entry) {
                ptx_format_error(c->err, c->errlen, m->file, r->line, r->target.name, strlen(r->target.name),
                                 "an address initialiser names a function without a body");
                longjmp(c->fail, 1);
            }
            cg_printf(c, "%s", g->cname);
        } else {
            cg_printf(c, "cb_module_globals[%u]", m->vars[r->target.index].index);
        }
        cg_printf(c, " + %lldull; memcpy(cb_module_globals[%u] + %llu, &a, 8); } /* %s = %s */\n",
                  (long long)r->addend, v->index, (unsigned long long)r->offset, v->name, r->target.name);
    }
    cg_puts(c, "}\nCB_INL int cb_in_const(uint64_t a)\n{\n    (void)a;\n");
    for (uint32_t i = 0; i < m->nvars; i++)
        if (m->vars[i].space == PTX_SPACE_const)
            cg_printf(c, "    if (a - (uint64_t)(uintptr_t)cb_module_globals[%u] < %lluu) return 1;\n", m->vars[i].index,
                      (unsigned long long)m->vars[i].size);
    cg_puts(c, "    return 0;\n}\n");
}

void c_unit_begin(cg *c)
{
    const ptx_module *m = c->m;
    cg_printf(c, "/* Generated by cubridge from %s (PTX %u.%u, sm_%u). */\n", m->file, m->version / 10,
              m->version % 10, m->target_sm);
    if (m->warp_size == 64)
        cg_puts(c, "/* cubridge: 64-lane warps (CUBRIDGE_WARP_SIZE=64) */\n");
    cg_puts(c, cb_kernel_abi_text);
    cg_puts(c, "\n");
    cg_puts(c, cb_codegen_c_prelude);
    cg_puts(c, cb_codegen_c_prelude_cluster);
    cg_puts(c, cb_codegen_c_prelude_both);
    cg_puts(c, cb_codegen_c_prelude_half);
    cg_puts(c, cb_codegen_c_prelude_int);
    cg_puts(c, m->warp_size == 64 ? cb_codegen_c_prelude_warp64 : cb_codegen_c_prelude_warp);
    cg_puts(c, cb_codegen_c_prelude_mma);
    cg_puts(c, cb_codegen_c_prelude_tex_c);   /* how the C dialect reaches objects, then the shared helpers */
    cg_puts(c, cb_codegen_c_prelude_tex);
    cg_puts(c, cb_codegen_c_prelude_mbarrier);
    cg_puts(c, cb_codegen_c_prelude_simd);
    cg_puts(c, cb_codegen_c_prelude_simd_redux);
    cg_puts(c, cb_codegen_c_prelude_atom);
    cg_puts(c, cb_codegen_c_prelude_narrow);
    cg_puts(c, cb_codegen_c_prelude_bulk);
    cg_printf(c, "\n__attribute__((visibility(\"default\"))) unsigned char *cb_module_globals[%u];\n",
              m->nglobals ? m->nglobals : 1);
    cg_puts(c, "__attribute__((visibility(\"default\"))) const uint32_t cb_module_abi_version = "
               "CB_KERNEL_ABI_VERSION;\n");
    for (uint32_t i = 0; i < m->nvars; i++) {
        const ptx_var *v = &m->vars[i];
        if (v->space == PTX_SPACE_global || v->space == PTX_SPACE_const)
            cg_printf(c, "/* cb_module_globals[%u]: %s %s, %llu bytes */\n", v->index,
                      v->space == PTX_SPACE_const ? ".const" : ".global", v->name, (unsigned long long)v->size);
        else if (v->space == PTX_SPACE_shared)
            cg_printf(c, "/* shared %s: %s */\n", v->name, v->is_extern ? "dynamic" : "static");
    }
    cg_puts(c, "\n");
}

void c_unit_declare(cg *c, const ptx_func *f)
{
    c->f = f;
    emit_signature(c, f);
    cg_puts(c, ";\n");
}

/* Kernel f's offsets of the shared variables that .func code names
 * (src/passes/shared.c); 0 for those it cannot reach. */
static void emit_shared_table(cg *c, const ptx_func *f)
{
    const ptx_module *m = c->m;
    const ptx_kernel *k = f->kernel;
    cg_printf(c, "\nstatic const uint32_t %s_so[%u] = {", f->cname, m->nfunc_slots);
    for (uint32_t s = 0, p = 0; s < m->nfunc_slots; s++) {
        while (p < k->nshared && k->shared[p].var < m->func_slots[s])
            p++;
        cg_printf(c, "%s%uu", s ? ", " : "", p < k->nshared && k->shared[p].var == m->func_slots[s] ? k->shared[p].offset : 0);
    }
    cg_puts(c, "};\n");
}

void c_unit_kernel(cg *c, const ptx_func *f)
{
    c->f = f;
    c->in = NULL;
    if (c->m->nfunc_slots)
        emit_shared_table(c, f);
    if (!f->kernel->needs_fibers && !f->kernel->uses_alloca)
        cg_emit_plain_entry(c, f);
    if (f->kernel->lanes)
        cg_emit_lanes_entry(c, f);
    else
        cg_printf(c, "\n/* %s: no lanes entry: %s */\n", f->cname, f->kernel->lanes_why);
    c_unit_function(c, f);
}
