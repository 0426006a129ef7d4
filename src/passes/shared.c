/* shared.c: pass_shared -- static shared memory.
 *
 * Every static .shared variable (module or function scope) gets one offset
 * in a single window layout; a kernel's static_smem is the end of the
 * furthest one it (or a callee) uses, rounded up to 16 when it also uses
 * dynamic (.extern) shared memory, which starts there.
 */
#include "passes/passes.h"

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

/* The end of the static variable operand o names, or notes dynamic use. */
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

static void note_function(const ptx_module *m, const ptx_func *fn, uint64_t *end, int *dynamic)
{
    for (uint32_t i = 0; i < fn->nvars; i++) {
        const ptx_var *v = &fn->vars[i];
        if (v->space == PTX_SPACE_shared && v->offset + v->size > *end)
            *end = v->offset + v->size;
    }
    for (uint32_t i = 0; i < fn->ninstrs; i++) {
        const ptx_instr *in = &fn->instrs[i];
        for (uint32_t j = 0; j < in->nops; j++)
            note_shared_use(m, fn, &in->ops[j], end, dynamic);
    }
}

int pass_shared(ptx_module *m, char *err, size_t errlen)
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
    for (uint32_t i = 0; i < m->nkernels; i++) {
        ptx_kernel *k = m->kernels[i];
        uint64_t kend = 0;
        int dynamic = 0;
        note_function(m, &m->funcs[k->func], &kend, &dynamic);
        for (uint32_t c = 0; c < k->ncallees; c++)
            note_function(m, &m->funcs[k->callees[c]], &kend, &dynamic);
        k->static_smem = dynamic ? align_up(kend, 16) : kend;
        k->dynamic_smem = dynamic;
    }
    return 0;
}
