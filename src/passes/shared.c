/* shared.c: pass_shared -- each kernel's static shared memory.
 *
 * A kernel's layout holds only the static .shared variables that it or its
 * callees (pass_reach, indirect-call targets included) can name: those
 * declared in their bodies and the module-scope ones their instructions
 * name. They are placed in the module's order (module scope first, in
 * declaration order, then each function's, in function order), each at the
 * next multiple of its alignment; static_smem is the end of the last one,
 * rounded up to 16 when the kernel also uses dynamic (.extern) shared
 * memory, which starts there. So a module of 1,500 kernels with 1 KiB each
 * gives each kernel 1 KiB, and a module-scope variable that two kernels use
 * has an offset in each one's layout.
 *
 * Since those offsets differ between kernels, code in a .func cannot hold
 * them as constants: every static .shared variable that some .func names gets
 * a func_slot, and each kernel passes its functions a table of its offsets
 * for those slots (the C dialect's cb_so). Code in a kernel's own body uses
 * its layout's constants.
 */
#include "passes/passes.h"

#include <stdlib.h>
#include <string.h>

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

/* The static or dynamic .shared variable that operand o of fn names, or NULL. */
static ptx_var *shared_var_of(ptx_module *m, ptx_func *fn, const ptx_operand *o)
{
    ptx_var *v = NULL;
    if (o->kind == PTX_OPD_sym || (o->kind == PTX_OPD_mem && o->reg < 0)) {
        if (o->sym.kind == PTX_SYM_module_var)
            v = &m->vars[o->sym.index];
        else if (o->sym.kind == PTX_SYM_func_var)
            v = &fn->vars[o->sym.index];
    }
    return v && v->space == PTX_SPACE_shared ? v : NULL;
}

/* A walk that marks in seen[] every static .shared variable that a function
 * declares or that one of its operands (vector elements included) names;
 * naming a dynamic one sets dynamic. */
typedef struct use_walk {
    ptx_module *m;
    unsigned char *seen;    /* by ptx_var.index */
    int dynamic;
} use_walk;

static void note_operand(use_walk *w, ptx_func *fn, const ptx_operand *o)
{
    ptx_var *v = shared_var_of(w->m, fn, o);
    if (v && v->is_extern)
        w->dynamic = 1;
    else if (v)
        w->seen[v->index] = 1;
    if (o->kind == PTX_OPD_vec || o->kind == PTX_OPD_list)
        for (uint32_t i = 0; i < o->nelems; i++)
            note_operand(w, fn, &o->elems[i]);
}

static void note_function(use_walk *w, ptx_func *fn)
{
    for (uint32_t i = 0; i < fn->nvars; i++)
        if (fn->vars[i].space == PTX_SPACE_shared)
            w->seen[fn->vars[i].index] = 1;
    for (uint32_t i = 0; i < fn->ninstrs; i++)
        for (uint32_t j = 0; j < fn->instrs[i].nops; j++)
            note_operand(w, fn, &fn->instrs[i].ops[j]);
}

/* Numbers the static .shared variables in layout order; returns the table
 * from number to variable (malloc'd), or NULL when out of memory. */
static ptx_var **number_variables(ptx_module *m)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->nvars; i++)
        n += m->vars[i].space == PTX_SPACE_shared && !m->vars[i].is_extern;
    for (uint32_t f = 0; f < m->nfuncs; f++)
        for (uint32_t i = 0; i < m->funcs[f].nvars; i++)
            n += m->funcs[f].vars[i].space == PTX_SPACE_shared;
    ptx_var **vars = malloc(sizeof(ptx_var *) * (n ? n : 1));
    if (!vars)
        return NULL;
    m->nshared = 0;
    for (uint32_t i = 0; i < m->nvars; i++)
        if (m->vars[i].space == PTX_SPACE_shared && !m->vars[i].is_extern)
            vars[m->nshared++] = &m->vars[i];
    for (uint32_t f = 0; f < m->nfuncs; f++)
        for (uint32_t i = 0; i < m->funcs[f].nvars; i++)
            if (m->funcs[f].vars[i].space == PTX_SPACE_shared)
                vars[m->nshared++] = &m->funcs[f].vars[i];
    for (uint32_t s = 0; s < m->nshared; s++) {
        vars[s]->index = s;
        vars[s]->func_slot = PTX_NO_SLOT;
    }
    return vars;
}

/* func_slots: the variables that code in some .func names. */
static int number_func_slots(ptx_module *m, ptx_var **vars, unsigned char *seen)
{
    use_walk w = {m, seen, 0};
    memset(seen, 0, m->nshared ? m->nshared : 1);
    for (uint32_t f = 0; f < m->nfuncs; f++)
        if (!m->funcs[f].is_entry)
            note_function(&w, &m->funcs[f]);
    uint32_t n = 0;
    for (uint32_t s = 0; s < m->nshared; s++)
        n += seen[s];
    m->func_slots = ptx_arena_alloc(&m->arena, sizeof(uint32_t) * (n ? n : 1));
    if (!m->func_slots)
        return -1;
    m->nfunc_slots = 0;
    for (uint32_t s = 0; s < m->nshared; s++)
        if (seen[s]) {
            vars[s]->func_slot = m->nfunc_slots;
            m->func_slots[m->nfunc_slots++] = s;
        }
    return 0;
}

/* Kernel k's layout. */
static int layout_kernel(ptx_module *m, ptx_kernel *k, ptx_var **vars, unsigned char *seen, char *err,
                         size_t errlen)
{
    use_walk w = {m, seen, 0};
    memset(seen, 0, m->nshared ? m->nshared : 1);
    note_function(&w, &m->funcs[k->func]);
    for (uint32_t c = 0; c < k->ncallees; c++)
        note_function(&w, &m->funcs[k->callees[c]]);
    uint32_t n = 0;
    for (uint32_t s = 0; s < m->nshared; s++)
        n += seen[s];
    k->shared = ptx_arena_alloc(&m->arena, sizeof(ptx_shared_place) * (n ? n : 1));
    if (!k->shared) {
        ptx_format_error(err, errlen, m->file, 0, NULL, 0, "out of memory");
        return -1;
    }
    uint64_t end = 0;
    k->nshared = 0;
    for (uint32_t s = 0; s < m->nshared; s++) {
        if (!seen[s])
            continue;
        uint64_t off = align_up(end, vars[s]->align);
        end = off + vars[s]->size;
        if (end > 0xffffffffull) {
            const ptx_func *f = &m->funcs[k->func];
            ptx_format_error(err, errlen, m->file, f->line, f->name, strlen(f->name),
                             "static shared memory exceeds 4 GiB");
            return -1;
        }
        k->shared[k->nshared++] = (ptx_shared_place){s, (uint32_t)off};
    }
    k->dynamic_smem = w.dynamic;
    k->static_smem = w.dynamic ? align_up(end, 16) : end;
    return 0;
}

int pass_shared(ptx_module *m, char *err, size_t errlen)
{
    ptx_var **vars = number_variables(m);
    unsigned char *seen = malloc(m->nshared ? m->nshared : 1);
    int rc = -1;
    if (!vars || !seen || number_func_slots(m, vars, seen) < 0) {
        ptx_format_error(err, errlen, m->file, 0, NULL, 0, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < m->nkernels; i++)
        if (layout_kernel(m, m->kernels[i], vars, seen, err, errlen) < 0)
            goto done;
    rc = 0;
done:
    free(vars);
    free(seen);
    return rc;
}

int pass_shared_offset(const ptx_kernel *k, const ptx_var *v, uint32_t *offset)
{
    uint32_t lo = 0, hi = k->nshared;
    while (lo < hi) {   /* the places are sorted by variable number */
        uint32_t mid = lo + (hi - lo) / 2;
        if (k->shared[mid].var == v->index) {
            *offset = k->shared[mid].offset;
            return 0;
        }
        if (k->shared[mid].var < v->index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}
