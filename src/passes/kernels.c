/* kernels.c: pass_kernels -- number the entries, pack their parameters. */
#include "passes/passes.h"

#include <stdio.h>
#include <string.h>

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

/* Packs f's parameters in order, each aligned to its alignment. */
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

int pass_kernels(ptx_module *m, char *err, size_t errlen)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        n += m->funcs[i].is_entry != 0;
    m->kernels = ptx_arena_alloc(&m->arena, sizeof(ptx_kernel *) * (n ? n : 1));
    if (!m->kernels)
        goto oom;
    m->nkernels = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        ptx_func *f = &m->funcs[i];
        if (!f->is_entry)
            continue;
        ptx_kernel *k = ptx_arena_alloc(&m->arena, sizeof *k);
        char sym[32];
        if (!k)
            goto oom;
        k->func = i;
        k->index = m->nkernels;
        snprintf(sym, sizeof sym, "cbk_%u", k->index);
        f->cname = ptx_arena_strndup(&m->arena, sym, strlen(sym));
        if (!f->cname)
            goto oom;
        if (layout_params(f, &k->param_bytes) < 0) {
            ptx_format_error(err, errlen, m->file, f->line, f->name, strlen(f->name),
                             "kernel parameters exceed 4 GiB");
            return -1;
        }
        f->kernel = k;
        m->kernels[m->nkernels++] = k;
    }
    return 0;
oom:
    ptx_format_error(err, errlen, m->file, 0, NULL, 0, "out of memory");
    return -1;
}
