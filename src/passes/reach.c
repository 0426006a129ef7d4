/* reach.c: pass_reach -- the functions each kernel may run.
 *
 * A depth-first walk of the call graph from each kernel. A call through a
 * register may reach any .func (PTX's .calltargets lists are not trusted),
 * so a kernel that makes one, or reaches a function that does, counts every
 * .func as a callee. Declared functions without a body (vprintf, malloc ...)
 * are callees too: they have no instructions or variables of their own.
 */
#include "passes/passes.h"

#include <stdlib.h>
#include <string.h>

/* Marks in mark[] every function that kernel f may run, f included; returns how many. */
static uint32_t mark_reachable(const ptx_module *m, uint32_t f, unsigned char *mark, uint32_t *stack)
{
    uint32_t top = 0, n = 1;
    memset(mark, 0, m->nfuncs);
    mark[f] = 1;
    stack[top++] = f;
    while (top) {
        const ptx_func *fn = &m->funcs[stack[--top]];
        for (uint32_t i = 0; i < fn->ninstrs; i++) {
            const ptx_instr *in = &fn->instrs[i];
            if (in->op != PTX_OP_call)
                continue;
            if (in->ops[1].kind == PTX_OPD_reg) {   /* through a pointer: any .func */
                for (uint32_t g = 0; g < m->nfuncs; g++)
                    if (!mark[g] && !m->funcs[g].is_entry) {
                        mark[g] = 1;
                        stack[top++] = g;
                        n++;
                    }
                continue;
            }
            if (in->ops[1].kind != PTX_OPD_sym)
                continue;
            uint32_t g = (uint32_t)in->ops[1].sym.index;
            if (!mark[g]) {
                mark[g] = 1;
                stack[top++] = g;
                n++;
            }
        }
    }
    return n;
}

int pass_reach(ptx_module *m, char *err, size_t errlen)
{
    unsigned char *mark = malloc(m->nfuncs ? m->nfuncs : 1);
    uint32_t *stack = malloc(sizeof(uint32_t) * (m->nfuncs + 1));
    int rc = -1;
    if (!mark || !stack)
        goto done;
    for (uint32_t k = 0; k < m->nkernels; k++) {
        ptx_kernel *kn = m->kernels[k];
        uint32_t n = mark_reachable(m, kn->func, mark, stack) - 1;
        kn->callees = ptx_arena_alloc(&m->arena, sizeof(uint32_t) * (n ? n : 1));
        if (!kn->callees)
            goto done;
        kn->ncallees = 0;
        for (uint32_t g = 0; g < m->nfuncs; g++)
            if (mark[g] && g != kn->func)
                kn->callees[kn->ncallees++] = g;
    }
    rc = 0;
done:
    if (rc < 0)
        ptx_format_error(err, errlen, m->file, 0, NULL, 0, "out of memory");
    free(mark);
    free(stack);
    return rc;
}
