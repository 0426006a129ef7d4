/* translate.c: cb_translate_ptx -- parse, verify, lay out, emit, describe.
 *
 * Layout decisions made here (and relied on by codegen_c.c):
 *   - module .global/.const variables get slots in cb_module_globals in
 *     declaration order;
 *   - every static .shared variable (module or function scope) gets one fixed
 *     offset in a single window layout; a kernel's static_smem is the end of
 *     the furthest one it (or its callees) uses, rounded up to 16 when it also
 *     uses dynamic (.extern) shared memory, which starts there;
 *   - kernel parameters are packed in order, each aligned to its alignment.
 */
#include "codegen/translate.h"
#include "codegen/codegen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

static void layout_globals(ptx_module *m, uint32_t *nglobals)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->nvars; i++)
        if (m->vars[i].space == PTX_SPACE_global || m->vars[i].space == PTX_SPACE_const)
            m->vars[i].index = n++;
    *nglobals = n;
}

static int layout_shared(ptx_module *m, char *err, size_t errlen)
{
    uint64_t end = 0;
    for (uint32_t i = 0; i < m->nvars; i++) {
        ptx_var *v = &m->vars[i];
        if (v->space != PTX_SPACE_shared || v->is_extern)
            continue;
        v->offset = align_up(end, v->align);
        end = v->offset + v->size;
    }
    for (uint32_t f = 0; f < m->nfuncs; f++)
        for (uint32_t i = 0; i < m->funcs[f].nvars; i++) {
            ptx_var *v = &m->funcs[f].vars[i];
            if (v->space != PTX_SPACE_shared)
                continue;
            v->offset = align_up(end, v->align);
            end = v->offset + v->size;
        }
    if (end > 0xffffffffull) {
        ptx_format_error(err, errlen, m->file, 0, NULL, 0, "static shared memory exceeds 4 GiB");
        return -1;
    }
    return 0;
}

static int layout_params(ptx_func *f, uint32_t *bytes)
{
    uint64_t off = 0;
    for (uint32_t i = 0; i < f->nparams; i++) {
        ptx_var *v = &f->vars[f->nrets + i];
        v->offset = align_up(off, v->align);
        off = v->offset + v->size;
    }
    if (off > 0xffffffffull)
        return -1;
    *bytes = (uint32_t)off;
    return 0;
}

/* Marks in reach[] every function that f calls, directly or not. */
static void mark_reachable(const ptx_module *m, uint32_t f, unsigned char *reach)
{
    uint32_t *stack = malloc(sizeof(uint32_t) * (m->nfuncs + 1));
    uint32_t top = 0;
    if (!stack)
        return;
    reach[f] = 1;
    stack[top++] = f;
    while (top) {
        const ptx_func *fn = &m->funcs[stack[--top]];
        for (uint32_t i = 0; i < fn->ninstrs; i++) {
            const ptx_instr *in = &fn->instrs[i];
            if (in->op == PTX_OP_call && in->ops[1].kind == PTX_OPD_reg) {
                /* an indirect call may reach any function */
                for (uint32_t g = 0; g < m->nfuncs; g++)
                    if (!reach[g] && !m->funcs[g].is_entry) {
                        reach[g] = 1;
                        stack[top++] = g;
                    }
                continue;
            }
            if (in->op != PTX_OP_call || in->ops[1].kind != PTX_OPD_sym)
                continue;
            uint32_t g = (uint32_t)in->ops[1].sym.index;
            if (!reach[g]) {
                reach[g] = 1;
                stack[top++] = g;
            }
        }
    }
    free(stack);
}

static void note_shared_use(const ptx_module *m, const ptx_func *fn, const ptx_operand *o, uint64_t *end,
                            int *dynamic)
{
    const ptx_var *v = NULL;
    if (o->kind == PTX_OPD_sym || (o->kind == PTX_OPD_mem && o->reg < 0)) {
        if (o->sym.kind == PTX_SYM_module_var)
            v = &m->vars[o->sym.index];
        else if (o->sym.kind == PTX_SYM_func_var)
            v = &fn->vars[o->sym.index];
    }
    if (!v || v->space != PTX_SPACE_shared)
        return;
    if (v->is_extern)
        *dynamic = 1;
    else if (v->offset + v->size > *end)
        *end = v->offset + v->size;
}

/* static_smem, local_bytes, needs_fibers, uses_textures and a register
 * estimate for kernel k. */
static void describe_kernel(const ptx_module *m, uint32_t k, cb_kernel_info *ki, unsigned char *reach)
{
    memset(reach, 0, m->nfuncs);
    mark_reachable(m, k, reach);
    uint64_t end = 0, local = 0;
    int dynamic = 0, fibers = 0, textures = 0;
    uint32_t regs = 0;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        if (!reach[f])
            continue;
        const ptx_func *fn = &m->funcs[f];
        for (uint32_t i = 0; i < fn->nvars; i++) {
            const ptx_var *v = &fn->vars[i];
            if (v->space == PTX_SPACE_shared && v->offset + v->size > end)
                end = v->offset + v->size;
            if (v->space == PTX_SPACE_local)
                local += v->size;
        }
        for (uint32_t i = 0; i < fn->ninstrs; i++) {
            const ptx_instr *in = &fn->instrs[i];
            unsigned flags = ptx_instr_flags(in);
            fibers |= (flags & PTX_OPF_WAITS) != 0;
            textures |= (flags & PTX_OPF_TEXTURE) != 0;
            for (uint32_t j = 0; j < in->nops; j++)
                note_shared_use(m, fn, &in->ops[j], &end, &dynamic);
        }
        regs += fn->nregs;
    }
    ki->static_smem = (uint32_t)(dynamic ? align_up(end, 16) : end);
    ki->local_bytes = (uint32_t)(local > 0xffffffffu ? 0xffffffffu : local);
    ki->needs_fibers = fibers;
    ki->uses_textures = textures;
    ki->num_regs = regs < 16 ? 16 : regs > 255 ? 255 : regs;
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static int fill_kernels(ptx_module *m, cb_translation *tr)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        n += m->funcs[i].is_entry != 0;
    tr->kernels = calloc(n ? n : 1, sizeof(cb_kernel_info));
    unsigned char *reach = malloc(m->nfuncs ? m->nfuncs : 1);
    if (!tr->kernels || !reach) {
        free(reach);
        return -1;
    }
    tr->nkernels = n;
    uint32_t k = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        ptx_func *f = &m->funcs[i];
        if (!f->is_entry)
            continue;
        cb_kernel_info *ki = &tr->kernels[k];
        char sym[32];
        snprintf(sym, sizeof sym, "cbk_%u", k);
        f->cname = ptx_arena_strndup(&m->arena, sym, strlen(sym));
        ki->name = dup_str(f->name);
        ki->symbol = dup_str(sym);
        ki->nparams = f->nparams;
        ki->params = calloc(f->nparams ? f->nparams : 1, sizeof(cb_param_info));
        if (!f->cname || !ki->name || !ki->symbol || !ki->params || layout_params(f, &ki->param_bytes) < 0) {
            free(reach);
            return -1;
        }
        for (uint32_t p = 0; p < f->nparams; p++) {
            const ptx_var *v = &f->vars[f->nrets + p];
            ki->params[p].offset = (uint32_t)v->offset;
            ki->params[p].size = (uint32_t)v->size;
            ki->params[p].align = v->align;
            ki->params[p].is_pointer_like = !v->is_array && v->vec == 1 && ptx_type_size(v->type) == 8 &&
                                            ptx_type_kind(v->type) != 'f';
        }
        describe_kernel(m, i, ki, reach);
        memcpy(ki->maxntid, f->maxntid, sizeof ki->maxntid);
        memcpy(ki->reqntid, f->reqntid, sizeof ki->reqntid);
        ki->minnctapersm = f->minnctapersm;
        k++;
    }
    free(reach);
    return 0;
}

static int fill_globals(const ptx_module *m, cb_translation *tr, uint32_t nglobals)
{
    tr->globals = calloc(nglobals ? nglobals : 1, sizeof(cb_global_info));
    if (!tr->globals)
        return -1;
    tr->nglobals = nglobals;
    for (uint32_t i = 0; i < m->nvars; i++) {
        const ptx_var *v = &m->vars[i];
        if (v->space != PTX_SPACE_global && v->space != PTX_SPACE_const)
            continue;
        cb_global_info *g = &tr->globals[v->index];
        g->name = dup_str(v->name);
        g->space = v->space == PTX_SPACE_const ? CB_SPACE_CONST : CB_SPACE_GLOBAL;
        g->size = v->size;
        g->align = v->align;
        if (!g->name)
            return -1;
        if (v->init) {
            g->init = malloc(v->size ? v->size : 1);
            if (!g->init)
                return -1;
            memcpy(g->init, v->init, v->size);
        }
    }
    return 0;
}

/* The relocations of address initialisers; function targets are numbered as in cb_module_funcs. */
static int fill_relocs(const ptx_module *m, cb_translation *tr)
{
    tr->relocs = calloc(m->nrelocs ? m->nrelocs : 1, sizeof(cb_reloc_info));
    if (!tr->relocs)
        return -1;
    tr->nrelocs = m->nrelocs;
    for (uint32_t i = 0; i < m->nrelocs; i++) {
        const ptx_reloc *r = &m->relocs[i];
        cb_reloc_info *o = &tr->relocs[i];
        o->global = m->vars[r->var].index;
        o->offset = r->offset;
        o->addend = r->addend;
        if (r->target.kind == PTX_SYM_func) {
            o->kind = CB_RELOC_FUNC;
            for (int32_t g = 0; g < r->target.index; g++)
                o->target += m->funcs[g].defined && !m->funcs[g].is_entry;
        } else {
            o->kind = CB_RELOC_GLOBAL;
            o->target = m->vars[r->target.index].index;
        }
    }
    return 0;
}

/* tr->source from m: kernels without barriers or warp collectives also get
 * a block entry (codegen_c_block.c). */
static int emit_source(const ptx_module *m, cb_translation *tr, char *err, size_t errlen)
{
    unsigned char *plain = malloc(tr->nkernels ? tr->nkernels : 1);
    if (!plain) {
        ptx_format_error(err, errlen, m->file, 0, NULL, 0, "out of memory");
        return -1;
    }
    for (uint32_t k = 0; k < tr->nkernels; k++)
        plain[k] = !tr->kernels[k].needs_fibers;
    int rc = cb_codegen_c_plain(m, plain, &tr->source, &tr->source_len, err, errlen);
    free(plain);
    return rc;
}

int cb_translate_ptx(const char *ptx, size_t len, const char *source_name, cb_dialect dialect,
                     cb_translation **out, char *err, size_t errlen)
{
    *out = NULL;
    if (err && errlen)
        err[0] = 0;
    if (!source_name)
        source_name = "<ptx>";
    if (dialect != CB_DIALECT_C) {
        ptx_format_error(err, errlen, source_name, 0, NULL, 0, "dialect not supported");
        return -1;
    }
    if (!ptx) {
        ptx_format_error(err, errlen, source_name, 0, NULL, 0, "no PTX text");
        return -1;
    }
    ptx_module *m = ptx_parse(ptx, len, source_name, err, errlen);
    if (!m)
        return -1;
    cb_translation *tr = calloc(1, sizeof *tr);
    uint32_t nglobals = 0;
    int rc = -1;
    if (!tr) {
        ptx_format_error(err, errlen, source_name, 0, NULL, 0, "out of memory");
        goto done;
    }
    tr->dialect = dialect;
    tr->ptx_version = m->version;
    tr->target_sm = m->target_sm;
    if (ptx_verify(m, err, errlen) < 0 || layout_shared(m, err, errlen) < 0)
        goto done;
    layout_globals(m, &nglobals);
    if (fill_kernels(m, tr) < 0 || fill_globals(m, tr, nglobals) < 0 || fill_relocs(m, tr) < 0) {
        ptx_format_error(err, errlen, source_name, 0, NULL, 0, "out of memory or parameters too large");
        goto done;
    }
    if (emit_source(m, tr, err, errlen) < 0)
        goto done;
    rc = 0;
done:
    ptx_module_free(m);
    if (rc < 0) {
        cb_translation_free(tr);
        return -1;
    }
    *out = tr;
    return 0;
}

void cb_translation_free(cb_translation *t)
{
    if (!t)
        return;
    free(t->source);
    for (uint32_t i = 0; i < t->nkernels && t->kernels; i++) {
        free(t->kernels[i].name);
        free(t->kernels[i].symbol);
        free(t->kernels[i].params);
    }
    free(t->kernels);
    for (uint32_t i = 0; i < t->nglobals && t->globals; i++) {
        free(t->globals[i].name);
        free(t->globals[i].init);
    }
    free(t->globals);
    free(t->relocs);
    free(t);
}

int cb_translation_find_kernel(const cb_translation *t, const char *name)
{
    for (uint32_t i = 0; t && name && i < t->nkernels; i++)
        if (t->kernels[i].name && strcmp(t->kernels[i].name, name) == 0)
            return (int)i;
    return -1;
}

int cb_translation_find_global(const cb_translation *t, const char *name)
{
    for (uint32_t i = 0; t && name && i < t->nglobals; i++)
        if (t->globals[i].name && strcmp(t->globals[i].name, name) == 0)
            return (int)i;
    return -1;
}
