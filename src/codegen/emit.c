/* emit.c: the emission that every dialect shares (codegen.h): the output
 * buffer, errors, the walk over the module and the dispatch of instructions
 * through the dialect's table.
 *
 * The walk emits the whole module. Emitting one kernel alone would walk that
 * kernel and its callees (ptx_kernel.callees) instead of every function.
 */
#include "codegen/codegen.h"

#include <stdarg.h>
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

void cg_emit_instr(cg *c, const ptx_instr *in)
{
    if (c->target->by_type && c->target->by_type(c, in))
        return;
    c->target->op[in->op](c, in);
}

static void emit_module(cg *c)
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
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].defined && !m->funcs[i].is_entry)
            t->function(c, &m->funcs[i]);
    for (uint32_t k = 0; k < m->nkernels; k++)
        t->kernel(c, &m->funcs[m->kernels[k]->func]);
}

int cb_codegen_emit(const cg_target *t, const ptx_module *m, char **out, size_t *outlen, char *err,
                    size_t errlen)
{
    cg *c = calloc(1, sizeof *c);
    if (!c) {
        ptx_format_error(err, errlen, m->file, 0, NULL, 0, "out of memory");
        return -1;
    }
    c->target = t;
    c->m = m;
    c->err = err;
    c->errlen = errlen;
    if (setjmp(c->fail)) {
        int rc = c->unsupported ? -2 : -1;
        free(c->buf);
        free(c);
        *out = NULL;
        return rc;
    }
    emit_module(c);
    *out = c->buf;
    *outlen = c->len;
    free(c);
    return 0;
}
