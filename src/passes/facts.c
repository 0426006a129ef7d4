/* facts.c: pass_facts -- what a kernel's code needs from whatever runs it. */
#include "passes/passes.h"

/* Adds function fn's facts to kernel k's. */
static void add_function(ptx_kernel *k, const ptx_func *fn, uint64_t *local, uint32_t *regs)
{
    for (uint32_t i = 0; i < fn->nvars; i++)
        if (fn->vars[i].space == PTX_SPACE_local)
            *local += fn->vars[i].size;
    for (uint32_t i = 0; i < fn->ninstrs; i++) {
        unsigned flags = ptx_instr_flags(&fn->instrs[i]);
        k->needs_fibers |= (flags & PTX_OPF_WAITS) != 0;
        k->uses_textures |= (flags & PTX_OPF_TEXTURE) != 0;
    }
    *regs += fn->nregs;
}

int pass_facts(ptx_module *m, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    for (uint32_t i = 0; i < m->nkernels; i++) {
        ptx_kernel *k = m->kernels[i];
        uint64_t local = 0;
        uint32_t regs = 0;
        add_function(k, &m->funcs[k->func], &local, &regs);
        for (uint32_t n = 0; n < m->funcs[k->func].ninstrs; n++)
            k->uses_alloca |= m->funcs[k->func].instrs[n].op == PTX_OP_alloca;
        for (uint32_t c = 0; c < k->ncallees; c++)
            add_function(k, &m->funcs[k->callees[c]], &local, &regs);
        k->local_bytes = local;
        k->num_regs = regs < 16 ? 16 : regs > 255 ? 255 : regs;
    }
    return 0;
}
