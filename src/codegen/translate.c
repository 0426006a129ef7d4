/* translate.c: cb_translate_ptx -- the compiler's driver.
 *
 *   ptx_parse     src/ptx/parser.c    PTX text -> IR
 *   ptx_verify    src/ptx/verify.c    every instruction against ops.def
 *   cb_passes_run src/passes/         layout and analyses, written into the IR
 *   pass_uniform  src/passes/uniform.c  block-uniform control flow, for OpenCL only
 *   describe                          cb_translation's kernels, globals, relocations
 *   emit          src/codegen/<dialect>/
 */
#include "codegen/translate.h"
#include "codegen/codegen.h"
#include "passes/passes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* The kernels' descriptions, from the passes' annotations. */
static int fill_kernels(const ptx_module *m, cb_translation *tr)
{
    tr->kernels = calloc(m->nkernels ? m->nkernels : 1, sizeof(cb_kernel_info));
    if (!tr->kernels)
        return -1;
    tr->nkernels = m->nkernels;
    for (uint32_t k = 0; k < m->nkernels; k++) {
        const ptx_kernel *kn = m->kernels[k];
        const ptx_func *f = &m->funcs[kn->func];
        cb_kernel_info *ki = &tr->kernels[k];
        ki->name = dup_str(f->name);
        ki->symbol = dup_str(f->cname);
        ki->nparams = f->nparams;
        ki->params = calloc(f->nparams ? f->nparams : 1, sizeof(cb_param_info));
        if (!ki->name || !ki->symbol || !ki->params)
            return -1;
        for (uint32_t p = 0; p < f->nparams; p++) {
            const ptx_var *v = &f->vars[f->nrets + p];
            ki->params[p].offset = (uint32_t)v->offset;
            ki->params[p].size = (uint32_t)v->size;
            ki->params[p].align = v->align;
            ki->params[p].is_pointer_like = !v->is_array && v->vec == 1 && ptx_type_size(v->type) == 8 &&
                                            ptx_type_kind(v->type) != 'f';
        }
        ki->param_bytes = kn->param_bytes;
        ki->static_smem = (uint32_t)kn->static_smem;
        ki->local_bytes = (uint32_t)(kn->local_bytes > 0xffffffffu ? 0xffffffffu : kn->local_bytes);
        ki->num_regs = kn->num_regs;
        ki->needs_fibers = kn->needs_fibers;
        ki->uses_textures = kn->uses_textures;
        ki->warp_scratch = tr->dialect == CB_DIALECT_OPENCL ? cg_opencl_warp_scratch(f) : 0;
        memcpy(ki->maxntid, f->maxntid, sizeof ki->maxntid);
        memcpy(ki->reqntid, f->reqntid, sizeof ki->reqntid);
        ki->minnctapersm = f->minnctapersm;
        memcpy(ki->cluster_dims, f->reqnctapercluster, sizeof ki->cluster_dims);
        ki->max_cluster_rank = f->maxclusterrank;
        ki->explicit_cluster = f->explicitcluster || f->reqnctapercluster[0] != 0;
    }
    return 0;
}

static int fill_globals(const ptx_module *m, cb_translation *tr)
{
    tr->globals = calloc(m->nglobals ? m->nglobals : 1, sizeof(cb_global_info));
    if (!tr->globals)
        return -1;
    tr->nglobals = m->nglobals;
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

/* The dialects' tables, by cb_dialect. */
static int find_target(cb_dialect d, cg_target *t)
{
    switch (d) {
    case CB_DIALECT_C: cg_target_c_init(t); return 0;
    case CB_DIALECT_OPENCL: cg_target_opencl_init(t); return 0;
    default: return -1;
    }
}

int cb_translate_ptx(const char *ptx, size_t len, const char *source_name, cb_dialect dialect,
                     cb_translation **out, char *err, size_t errlen)
{
    static const cb_translate_opts all = {.lanes = 1};
    return cb_translate_ptx_opts(ptx, len, source_name, dialect, &all, out, err, errlen);
}

int cb_translate_ptx_opts(const char *ptx, size_t len, const char *source_name, cb_dialect dialect,
                          const cb_translate_opts *opts, cb_translation **out, char *err, size_t errlen)
{
    *out = NULL;
    if (err && errlen)
        err[0] = 0;
    if (!source_name)
        source_name = "<ptx>";
    cg_target target;
    if (find_target(dialect, &target) < 0) {
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
    int rc = -1;
    if (!tr) {
        ptx_format_error(err, errlen, source_name, 0, NULL, 0, "out of memory");
        goto done;
    }
    tr->dialect = dialect;
    if (dialect != CB_DIALECT_C) {
        tr->ptx = malloc(len + 1);
        if (!tr->ptx) {
            ptx_format_error(err, errlen, source_name, 0, NULL, 0, "out of memory");
            goto done;
        }
        memcpy(tr->ptx, ptx, len);
        tr->ptx[len] = 0;
        tr->ptx_len = len;
    }
    tr->ptx_version = m->version;
    tr->target_sm = m->target_sm;
    m->want_lanes = opts->lanes;
    if (opts->block[0] && opts->block[1] && opts->block[2])
        memcpy(m->spec_block, opts->block, sizeof m->spec_block);
    m->warp_size = opts->warp_size ? opts->warp_size : 32;
    if (m->warp_size != 32 && (m->warp_size != 64 || dialect != CB_DIALECT_C)) {
        ptx_format_error(err, errlen, source_name, 0, NULL, 0,
                         "a warp size other than 32 (the C dialect also runs 64) is not supported");
        rc = -2;
        goto done;
    }
    if (m->warp_size == 64)   /* the lanes entries' warp collectives are 32 lanes wide */
        m->want_lanes = 0;
    if (ptx_verify(m, err, errlen) < 0 || cb_passes_run(m, err, errlen) < 0)
        goto done;
    /* OpenCL emulates warp collectives with work-group barriers: where the block runs together */
    if (dialect == CB_DIALECT_OPENCL && pass_uniform(m, err, errlen) < 0)
        goto done;
    if (fill_kernels(m, tr) < 0 || fill_globals(m, tr) < 0 || fill_relocs(m, tr) < 0) {
        ptx_format_error(err, errlen, source_name, 0, NULL, 0, "out of memory");
        goto done;
    }
    char **why = calloc(m->nkernels ? m->nkernels : 1, sizeof *why);
    if (!why) {
        ptx_format_error(err, errlen, source_name, 0, NULL, 0, "out of memory");
        goto done;
    }
    rc = cb_codegen_emit(&target, m, &tr->source, &tr->source_len, why, err, errlen);
    for (uint32_t k = 0; k < m->nkernels; k++)
        tr->kernels[k].refused = why[k];
    free(why);
    if (rc < 0)
        goto done;
    if (dialect == CB_DIALECT_C && opts->quick && tr->source) {
        size_t mark = sizeof CB_C_QUICK_MARK - 1;
        char *grown = realloc(tr->source, tr->source_len + mark + 1);
        if (!grown) {
            ptx_format_error(err, errlen, source_name, 0, NULL, 0, "out of memory");
            rc = -1;
            goto done;
        }
        memcpy(grown + tr->source_len, CB_C_QUICK_MARK, mark + 1);
        tr->source = grown;
        tr->source_len += mark;
    }
    rc = 0;
done:
    ptx_module_free(m);
    if (rc < 0) {
        cb_translation_free(tr);
        return rc == -2 ? -2 : -1;
    }
    *out = tr;
    return 0;
}

void cb_translation_free(cb_translation *t)
{
    if (!t)
        return;
    free(t->source);
    free(t->ptx);
    for (uint32_t i = 0; i < t->nkernels && t->kernels; i++) {
        free(t->kernels[i].name);
        free(t->kernels[i].symbol);
        free(t->kernels[i].params);
        free(t->kernels[i].refused);
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
