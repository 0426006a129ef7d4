/* emit.c: the emission that every dialect shares (codegen.h): the output
 * buffer, errors, the walk over the module and the dispatch of instructions
 * through the dialect's table.
 *
 * The walk emits the whole module. Emitting one kernel alone would walk that
 * kernel and its callees (ptx_kernel.callees) instead of every function.
 * Refusal is per kernel: a function or kernel that the dialect cannot express
 * (cg_unsupported) is left out with its reason, and so is each kernel that
 * can run such a function; the rest of the module is emitted.
 */
#include "codegen/codegen.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cg_reserve(cg *c, size_t extra)
{
    if (c->len + extra + 1 <= c->cap)
        return;
    size_t cap = c->cap ? c->cap : 65536;
    while (cap < c->len + extra + 1)
        cap *= 2;
    char *b = realloc(c->buf, cap);
    if (!b)
        cg_fail(c, "out of memory");
    c->buf = b;
    c->cap = cap;
}

void cg_printf(cg *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        cg_fail(c, "formatting error");
    cg_reserve(c, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(c->buf + c->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    c->len += (size_t)n;
}

void cg_puts(cg *c, const char *s)
{
    size_t n = strlen(s);
    cg_reserve(c, n);
    memcpy(c->buf + c->len, s, n + 1);
    c->len += n;
}

/* A block of cg_tmp: the link, then the caller's bytes at max_align_t's alignment. */
struct cg_tmp {
    struct cg_tmp *next;
    max_align_t data[];
};

void *cg_tmp(cg *c, size_t count, size_t size)
{
    if (size && count > (SIZE_MAX - sizeof(struct cg_tmp)) / size)
        cg_fail(c, "out of memory");
    struct cg_tmp *t = calloc(1, sizeof *t + (count * size != 0 ? count * size : 1));
    if (!t)
        cg_fail(c, "out of memory");
    t->next = c->tmps;
    c->tmps = t;
    return t->data;
}

void cg_tmp_free(cg *c, void *p)
{
    for (struct cg_tmp **at = &c->tmps; p && *at; at = &(*at)->next)
        if ((void *)(*at)->data == p) {
            struct cg_tmp *t = *at;
            *at = t->next;
            free(t);
            return;
        }
}

/* Frees the scratch blocks taken since the list was mark: what the steps a
 * failure jumped past did not free. */
static void tmp_unwind(cg *c, struct cg_tmp *mark)
{
    while (c->tmps && c->tmps != mark) {
        struct cg_tmp *t = c->tmps;
        c->tmps = t->next;
        free(t);
    }
}

_Noreturn void cg_fail(cg *c, const char *reason)
{
    if (c->in)
        ptx_format_instr_error(c->err, c->errlen, c->m->file, c->in, reason);
    else
        ptx_format_error(c->err, c->errlen, c->m->file, c->f ? c->f->line : 0,
                         c->f ? c->f->name : NULL, c->f ? strlen(c->f->name) : 0, reason);
    longjmp(c->fail, 1);
}

_Noreturn void cg_unsupported(cg *c, const char *reason)
{
    c->unsupported = 1;
    cg_fail(c, reason);
}

/* Under 64-lane warps (ptx_module.warp_size) the matrix instructions have no
 * meaning: their fragments are laid out over the 32 lanes of a warp. They
 * fail the launch when reached (rt->unsupported: CUDA_ERROR_NOT_SUPPORTED),
 * never give a result. Returns 1 when it emitted that. */
static int emit_not_at_warp64(cg *c, const ptx_instr *in)
{
    if (!c->m || c->m->warp_size != 64)
        return 0;
    switch (in->op) {
    case PTX_OP_mma: case PTX_OP_wmma: case PTX_OP_ldmatrix: case PTX_OP_stmatrix: case PTX_OP_movmatrix: break;
    default: return 0;
    }
    cg_printf(c, "t->blk->rt->unsupported(t, \"%s under 64-lane warps (CUBRIDGE_WARP_SIZE=64): its fragments are "
                 "laid out over 32 lanes\");\n", ptx_ops[in->op].name);
    return 1;
}

void cg_emit_instr(cg *c, const ptx_instr *in)
{
    if (emit_not_at_warp64(c, in))
        return;
    if (c->target->by_type && c->target->by_type(c, in))
        return;
    c->target->op[in->op](c, in);
}

/* Runs emit(c, f) with a refusal caught: on cg_unsupported the text it wrote
 * is dropped and the reason ("file:line: near 'instr': why") comes back,
 * malloc'd; any other failure goes on to the emission's handler. NULL: f was
 * emitted. */
static char *emit_guarded(cg *c, void (*emit)(cg *c, const ptx_func *f), const ptx_func *f)
{
    jmp_buf outer;
    memcpy(outer, c->fail, sizeof outer);
    struct cg_tmp *mark = c->tmps;
    char *err = c->err, why[1024] = "";
    size_t errlen = c->errlen, start = c->len;
    c->err = why;
    c->errlen = sizeof why;
    if (setjmp(c->fail) == 0) {
        emit(c, f);
        memcpy(c->fail, outer, sizeof outer);
        c->err = err;
        c->errlen = errlen;
        return NULL;
    }
    memcpy(c->fail, outer, sizeof outer);
    c->err = err;
    c->errlen = errlen;
    tmp_unwind(c, mark);
    if (!c->unsupported) {
        if (err && errlen)
            snprintf(err, errlen, "%s", why);
        longjmp(c->fail, 1);
    }
    c->unsupported = 0;
    c->len = start;
    if (c->buf)
        c->buf[start] = 0;
    c->f = NULL;
    c->in = NULL;
    char *r = strdup(why[0] ? why : "not supported by this dialect");
    if (!r)
        cg_fail(c, "out of memory");
    return r;
}

/* The function that call instruction in names directly, or -1. */
static int32_t direct_callee(const ptx_module *m, const ptx_instr *in)
{
    if (in->op != PTX_OP_call || in->nops < 2 || in->ops[1].kind != PTX_OPD_sym ||
        in->ops[1].sym.kind != PTX_SYM_func || in->ops[1].sym.index < 0 ||
        (uint32_t)in->ops[1].sym.index >= m->nfuncs)
        return -1;
    return in->ops[1].sym.index;
}

/* After the functions: a function that calls a refused one is refused too
 * (its text cut out, spans[2i..2i+1]), until nothing changes. */
static void refuse_callers(cg *c, char **why, size_t *spans)
{
    const ptx_module *m = c->m;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            const ptx_func *f = &m->funcs[i];
            if (!f->defined || f->is_entry || why[i])
                continue;
            for (uint32_t k = 0; k < f->ninstrs && !why[i]; k++) {
                int32_t t = direct_callee(m, &f->instrs[k]);
                if (t >= 0 && why[t]) {
                    size_t n = strlen(m->funcs[t].name) + strlen(why[t]) + 64;
                    if (!(why[i] = malloc(n)))
                        cg_fail(c, "out of memory");
                    snprintf(why[i], n, "calls %s, which is refused: %s", m->funcs[t].name, why[t]);
                    changed = 1;
                }
            }
        }
    }
    size_t out = spans[0], at = spans[0];
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        size_t b = spans[2 * i], e = spans[2 * i + 1];
        if (e <= b)
            continue;
        if (!why[i]) {
            memmove(c->buf + out, c->buf + b, e - b);
            out += e - b;
        }
        at = e;
    }
    if (c->buf && at > out) {
        memmove(c->buf + out, c->buf + at, c->len - at + 1);
        c->len -= at - out;
    }
}

/* The whole module. A function or kernel the dialect cannot express is left
 * out with its reason (cg_unsupported), and so is every kernel that can run
 * it: kernel_why[k] is that reason, or NULL. The other kernels are emitted. */
static void emit_module(cg *c, char **func_why, char **kernel_why)
{
    const cg_target *t = c->target;
    const ptx_module *m = c->m;
    t->begin(c);
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].defined && !m->funcs[i].is_entry)
            t->declare(c, &m->funcs[i]);
    c->f = NULL;
    c->in = NULL;
    t->tables(c);
    size_t *spans = cg_tmp(c, 2 * (size_t)m->nfuncs + 2, sizeof *spans);
    spans[0] = c->len;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        spans[2 * i] = spans[2 * i + 1] = c->len;
        if (m->funcs[i].defined && !m->funcs[i].is_entry) {
            func_why[i] = emit_guarded(c, t->function, &m->funcs[i]);
            spans[2 * i + 1] = c->len;
        }
    }
    refuse_callers(c, func_why, spans);
    cg_tmp_free(c, spans);
    for (uint32_t k = 0; k < m->nkernels; k++) {
        const ptx_kernel *kn = m->kernels[k];
        for (uint32_t i = 0; i < kn->ncallees && !kernel_why[k]; i++) {
            uint32_t f = kn->callees[i];
            if (!func_why[f])
                continue;
            size_t n = strlen(m->funcs[f].name) + strlen(func_why[f]) + 64;
            if (!(kernel_why[k] = malloc(n)))
                cg_fail(c, "out of memory");
            snprintf(kernel_why[k], n, "it calls %s, which is refused: %s", m->funcs[f].name, func_why[f]);
        }
        if (!kernel_why[k])
            kernel_why[k] = emit_guarded(c, t->kernel, &m->funcs[kn->func]);
    }
}

int cb_codegen_emit(const cg_target *t, const ptx_module *m, char **out, size_t *outlen, char **kernel_why,
                    char *err, size_t errlen)
{
    cg *c = calloc(1, sizeof *c);
    char **func_why = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *func_why);
    if (!c || !func_why) {
        free(c);
        free(func_why);
        ptx_format_error(err, errlen, m->file, 0, NULL, 0, "out of memory");
        return -1;
    }
    for (uint32_t k = 0; k < m->nkernels; k++)
        kernel_why[k] = NULL;
    c->target = t;
    c->m = m;
    c->err = err;
    c->errlen = errlen;
    int rc = 0;
    if (setjmp(c->fail)) {
        rc = c->unsupported ? -2 : -1;
        free(c->buf);
        c->buf = NULL;
        *out = NULL;
        for (uint32_t k = 0; k < m->nkernels; k++) {
            free(kernel_why[k]);
            kernel_why[k] = NULL;
        }
    } else {
        emit_module(c, func_why, kernel_why);
        *out = c->buf;
        *outlen = c->len;
    }
    tmp_unwind(c, NULL);
    for (uint32_t i = 0; i < m->nfuncs; i++)
        free(func_why[i]);
    free(func_why);
    free(c);
    return rc;
}
