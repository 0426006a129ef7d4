/* parser.c: tokens -> IR. Recursive descent over directives, declarations,
 * functions and instructions. Names are resolved through a scope stack as they
 * are read (PTX declares before use); labels are resolved by verify.c.
 * Errors unwind with longjmp; everything allocated lives in the module arena. */
#include "ptx/ir.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PTX_MAX_REGS (1u << 20)
#define PTX_MAX_VAR_BYTES (1ull << 32)

/* ---- name tables ------------------------------------------------------------- */

enum { NAME_REG = 1, NAME_VAR, NAME_MVAR, NAME_FUNC, NAME_CNAME };

typedef struct name_entry {
    const char *name;
    uint32_t len;
    int kind;
    int32_t index;
} name_entry;

typedef struct name_table {
    name_entry *slots;
    uint32_t cap, count;
    struct name_table *up;
} name_table;

typedef struct parser {
    ptx_module *m;
    const ptx_token *tok;
    size_t ntok, pos;
    const char *file;
    char *err;
    size_t errlen;
    jmp_buf fail;
    name_table *scope;        /* innermost */
    name_table module_names;  /* module vars and functions */
    name_table module_cnames; /* C names of functions */
    name_table func_cnames;   /* C names in the current function */
    ptx_func *fn;             /* the function being parsed */
} parser;

static _Noreturn void fail_at(parser *p, const ptx_token *t, const char *reason)
{
    ptx_format_error(p->err, p->errlen, p->file, t ? t->line : 0, t ? t->text : NULL,
                     t ? t->len : 0, reason);
    longjmp(p->fail, 1);
}

static _Noreturn void fail_here(parser *p, const char *reason)
{
    fail_at(p, &p->tok[p->pos], reason);
}

static void *alloc(parser *p, size_t n)
{
    void *q = ptx_arena_alloc(&p->m->arena, n);
    if (!q)
        fail_here(p, "out of memory");
    return q;
}

/* Grows an arena array of elem-size items so that index n fits. */
static void *grow(parser *p, void *arr, uint32_t *cap, uint32_t n, size_t elem)
{
    if (n < *cap)
        return arr;
    uint32_t ncap = *cap ? *cap * 2 : 16;
    while (ncap <= n)
        ncap *= 2;
    void *q = alloc(p, (size_t)ncap * elem);
    if (arr)
        memcpy(q, arr, (size_t)*cap * elem);
    *cap = ncap;
    return q;
}

static uint32_t hash_name(const char *s, uint32_t n)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static name_entry *name_find(name_table *t, const char *s, uint32_t n)
{
    if (!t->cap)
        return NULL;
    for (uint32_t i = hash_name(s, n) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        name_entry *e = &t->slots[i];
        if (!e->name)
            return NULL;
        if (e->len == n && memcmp(e->name, s, n) == 0)
            return e;
    }
}

static void name_insert(parser *p, name_table *t, const char *s, uint32_t n, int kind, int32_t index)
{
    if ((t->count + 1) * 2 > t->cap) {
        name_table bigger = {0};
        bigger.cap = t->cap ? t->cap * 2 : 64;
        bigger.slots = alloc(p, bigger.cap * sizeof(name_entry));
        for (uint32_t i = 0; i < t->cap; i++)
            if (t->slots[i].name)
                name_insert(p, &bigger, t->slots[i].name, t->slots[i].len, t->slots[i].kind,
                            t->slots[i].index);
        t->slots = bigger.slots;
        t->cap = bigger.cap;
    }
    for (uint32_t i = hash_name(s, n) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        name_entry *e = &t->slots[i];
        if (!e->name) {
            *e = (name_entry){s, n, kind, index};
            t->count++;
            return;
        }
        if (e->len == n && memcmp(e->name, s, n) == 0) {
            e->kind = kind;
            e->index = index;
            return;
        }
    }
}

static name_entry *lookup(parser *p, const char *s, uint32_t n)
{
    for (name_table *t = p->scope; t; t = t->up) {
        name_entry *e = name_find(t, s, n);
        if (e)
            return e;
    }
    return NULL;
}

/* A C identifier made from a PTX name: prefix + the name with every character
 * that C does not allow replaced by '_', made unique in table. */
static const char *make_cname(parser *p, name_table *t, const char *prefix, const char *name)
{
    size_t pl = strlen(prefix), nl = strlen(name);
    char *s = alloc(p, pl + nl + 24);
    memcpy(s, prefix, pl);
    for (size_t i = 0; i < nl; i++) {
        char c = name[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        s[pl + i] = ok ? c : '_';
    }
    size_t base = pl + nl;
    s[base] = 0;
    for (unsigned k = 2; name_find(t, s, (uint32_t)strlen(s)); k++)
        snprintf(s + base, 24, "__%u", k);
    name_insert(p, t, s, (uint32_t)strlen(s), NAME_CNAME, 0);
    return s;
}

/* ---- token helpers ---------------------------------------------------------------- */

static const ptx_token *peek(parser *p) { return &p->tok[p->pos]; }

static const ptx_token *peek_at(parser *p, size_t k)
{
    size_t i = p->pos + k;
    return &p->tok[i < p->ntok ? i : p->ntok - 1];
}

static const ptx_token *next(parser *p)
{
    const ptx_token *t = &p->tok[p->pos];
    if (t->kind != PTX_TOK_EOF)
        p->pos++;
    return t;
}

static int is_punct(const ptx_token *t, char c)
{
    return t->kind == PTX_TOK_PUNCT && t->text[0] == c;
}

static int is_word(const ptx_token *t, const char *w)
{
    size_t n = strlen(w);
    return t->kind == PTX_TOK_IDENT && t->len == n && memcmp(t->text, w, n) == 0;
}

static int accept_punct(parser *p, char c)
{
    if (is_punct(peek(p), c)) {
        next(p);
        return 1;
    }
    return 0;
}

static void expect_punct(parser *p, char c)
{
    if (!accept_punct(p, c)) {
        char msg[32];
        snprintf(msg, sizeof msg, "expected '%c'", c);
        fail_here(p, peek(p)->kind == PTX_TOK_EOF ? "unexpected end of input" : msg);
    }
}

static const ptx_token *expect_ident(parser *p, const char *what)
{
    const ptx_token *t = peek(p);
    if (t->kind != PTX_TOK_IDENT || t->text[0] == '.') {
        char msg[64];
        snprintf(msg, sizeof msg, "expected %s", what);
        fail_here(p, t->kind == PTX_TOK_EOF ? "unexpected end of input" : msg);
    }
    return next(p);
}

static uint64_t expect_int(parser *p, const char *what)
{
    const ptx_token *t = peek(p);
    if (t->kind != PTX_TOK_INT) {
        char msg[64];
        snprintf(msg, sizeof msg, "expected %s", what);
        fail_here(p, t->kind == PTX_TOK_EOF ? "unexpected end of input" : msg);
    }
    return next(p)->value;
}

static char *tok_str(parser *p, const ptx_token *t)
{
    char *s = ptx_arena_strndup(&p->m->arena, t->text, t->len);
    if (!s)
        fail_at(p, t, "out of memory");
    return s;
}

/* Skips every token on the same line as the current one (.loc, .file). */
static void skip_line(parser *p)
{
    uint32_t line = peek(p)->line;
    while (peek(p)->kind != PTX_TOK_EOF && peek(p)->line == line)
        next(p);
}

/* Skips through the next ';' (.pragma). */
static void skip_statement(parser *p)
{
    while (peek(p)->kind != PTX_TOK_EOF && !is_punct(peek(p), ';'))
        next(p);
    expect_punct(p, ';');
}

/* .section name { ... }: debug info, skipped with its braces. */
static void skip_section(parser *p)
{
    next(p);
    while (peek(p)->kind != PTX_TOK_EOF && !is_punct(peek(p), '{'))
        next(p);
    expect_punct(p, '{');
    for (int depth = 1; depth > 0;) {
        const ptx_token *t = next(p);
        if (t->kind == PTX_TOK_EOF)
            fail_at(p, t, "unexpected end of input in .section");
        if (is_punct(t, '{'))
            depth++;
        else if (is_punct(t, '}'))
            depth--;
    }
}

static ptx_space space_of(const ptx_token *t)
{
    if (is_word(t, ".global")) return PTX_SPACE_global;
    if (is_word(t, ".const")) return PTX_SPACE_const;
    if (is_word(t, ".shared")) return PTX_SPACE_shared;
    if (is_word(t, ".local")) return PTX_SPACE_local;
    if (is_word(t, ".param")) return PTX_SPACE_param;
    if (is_word(t, ".reg")) return PTX_SPACE_reg;
    return PTX_SPACE_none;
}

static ptx_type type_of(const ptx_token *t)
{
    if (t->kind != PTX_TOK_IDENT || t->len < 2 || t->text[0] != '.')
        return PTX_TYPE_none;
    return ptx_type_from_name(t->text + 1, t->len - 1);
}

/* ---- declarations ------------------------------------------------------------------- */

typedef struct decl_attrs {
    ptx_type type;
    uint32_t align;
    uint32_t vec;
} decl_attrs;

/* [.align N] [.v2|.v4] [.ptr [.space] [.align N]] .type, in any order. */
static decl_attrs parse_decl_attrs(parser *p)
{
    decl_attrs a = {PTX_TYPE_none, 0, 1};
    int after_ptr = 0;   /* ".ptr .global .align 4" describes the pointee */
    for (;;) {
        const ptx_token *t = peek(p);
        if (is_word(t, ".align")) {
            next(p);
            uint64_t v = expect_int(p, "alignment");
            if (v == 0 || v > 4096 || (v & (v - 1)))
                fail_here(p, "bad alignment");
            if (!after_ptr)
                a.align = (uint32_t)v;
        } else if (is_word(t, ".v2") || is_word(t, ".v4")) {
            a.vec = t->text[2] == '2' ? 2 : 4;
            next(p);
        } else if (is_word(t, ".ptr") || (after_ptr && space_of(t) != PTX_SPACE_none &&
                                           space_of(t) != PTX_SPACE_reg)) {
            after_ptr = 1;
            next(p);
        } else if (is_word(t, ".attribute")) {
            next(p);
            expect_punct(p, '(');
            while (peek(p)->kind == PTX_TOK_IDENT)
                next(p);
            expect_punct(p, ')');
        } else if (type_of(t) != PTX_TYPE_none && a.type == PTX_TYPE_none) {
            a.type = type_of(t);
            next(p);
        } else {
            break;
        }
    }
    if (a.type == PTX_TYPE_none && (is_word(peek(p), ".texref") || is_word(peek(p), ".samplerref") ||
                                    is_word(peek(p), ".surfref")))
        fail_here(p, "texture, sampler and surface references (.texref, .samplerref, .surfref) are not "
                     "supported: CUDA 12 removed them; use texture and surface objects");
    if (a.type == PTX_TYPE_none)
        fail_here(p, "expected a type");
    return a;
}

/* Writes one initialiser element of type ty at dst. */
static void put_init_value(parser *p, const ptx_token *t, int negate, ptx_type ty, unsigned char *dst)
{
    unsigned sz = ptx_type_size(ty);
    uint64_t bits = 0;
    if (t->kind == PTX_TOK_INT) {
        uint64_t v = negate ? (uint64_t)0 - t->value : t->value;
        if (ty == PTX_TYPE_f32) {
            float f = (float)(int64_t)v;
            memcpy(&bits, &f, 4);
        } else if (ty == PTX_TYPE_f64) {
            double d = (double)(int64_t)v;
            memcpy(&bits, &d, 8);
        } else {
            bits = v;
        }
    } else if (t->kind == PTX_TOK_F32) {
        uint32_t b = (uint32_t)t->value ^ (negate ? 0x80000000u : 0);
        float f;
        memcpy(&f, &b, 4);
        if (ty == PTX_TYPE_f64) {
            double d = f;
            memcpy(&bits, &d, 8);
        } else {
            bits = b;
        }
    } else if (t->kind == PTX_TOK_F64) {
        uint64_t b = t->value ^ (negate ? 0x8000000000000000ull : 0);
        double d;
        memcpy(&d, &b, 8);
        if (ty == PTX_TYPE_f32) {
            float f = (float)d;
            uint32_t fb;
            memcpy(&fb, &f, 4);
            bits = fb;
        } else {
            bits = b;
        }
    } else if (t->kind == PTX_TOK_IDENT) {
        fail_at(p, t, "bad initialiser");
    } else {
        fail_at(p, t, "bad initialiser");
    }
    for (unsigned i = 0; i < sz && i < 8; i++)
        dst[i] = (unsigned char)(bits >> (8 * i));
}

typedef struct init_state {
    unsigned char *buf;
    uint64_t cap_elems;   /* elements the variable holds (0: grows, for [] arrays) */
    uint64_t n;           /* elements written */
    uint64_t alloc_elems;
    unsigned elem_size;
    ptx_type type;
    uint32_t var;         /* index of the module variable */
} init_state;

/* generic(sym), sym or sym+N as an initialiser element: records a relocation. */
static void init_address(parser *p, init_state *s, const ptx_token *t)
{
    if (is_word(t, "generic")) {
        expect_punct(p, '(');
        t = expect_ident(p, "a symbol");
        expect_punct(p, ')');
    }
    if (s->elem_size != 8)
        fail_at(p, t, "an address initialiser needs a 64-bit element");
    name_entry *e = name_find(&p->module_names, t->text, t->len);
    if (!e || (e->kind != NAME_MVAR && e->kind != NAME_FUNC))
        fail_at(p, t, "unknown symbol in an address initialiser");
    ptx_module *m = p->m;
    m->relocs = grow(p, m->relocs, &m->cap_relocs, m->nrelocs, sizeof(ptx_reloc));
    ptx_reloc *r = &m->relocs[m->nrelocs++];
    r->var = s->var;
    r->offset = s->n * s->elem_size;
    r->target.kind = e->kind == NAME_FUNC ? PTX_SYM_func : PTX_SYM_module_var;
    r->target.index = e->index;
    r->target.name = tok_str(p, t);
    r->line = t->line;
    if ((is_punct(peek(p), '+') || is_punct(peek(p), '-')) && peek_at(p, 1)->kind == PTX_TOK_INT) {
        int neg = next(p)->text[0] == '-';
        uint64_t v = next(p)->value;
        r->addend = (int64_t)(neg ? (uint64_t)0 - v : v);
    }
    if (r->target.kind == PTX_SYM_module_var) {
        ptx_space sp = m->vars[e->index].space;
        if (sp != PTX_SPACE_global && sp != PTX_SPACE_const)
            fail_at(p, t, "only .global and .const variables and functions have load-time addresses");
    }
}

static void init_element(parser *p, init_state *s)
{
    int negate = accept_punct(p, '-');
    const ptx_token *t = next(p);
    int address = !negate && t->kind == PTX_TOK_IDENT;
    if (s->cap_elems && s->n >= s->cap_elems)
        fail_at(p, t, "too many initialisers");
    if (s->n >= s->alloc_elems) {
        uint64_t na = s->alloc_elems ? s->alloc_elems * 2 : 64;
        if (na * s->elem_size > PTX_MAX_VAR_BYTES)
            fail_at(p, t, "initialiser too large");
        unsigned char *nb = alloc(p, (size_t)(na * s->elem_size));
        if (s->buf)
            memcpy(nb, s->buf, (size_t)(s->n * s->elem_size));
        s->buf = nb;
        s->alloc_elems = na;
    }
    if (address)
        init_address(p, s, t);   /* the bytes stay 0 until the loader relocates */
    else
        put_init_value(p, t, negate, s->type, s->buf + s->n * s->elem_size);
    s->n++;
}

static void init_list(parser *p, init_state *s, int depth)
{
    if (depth > 16)
        fail_here(p, "initialiser nested too deeply");
    if (!accept_punct(p, '{')) {
        init_element(p, s);
        return;
    }
    if (!is_punct(peek(p), '}')) {
        do
            init_list(p, s, depth + 1);
        while (accept_punct(p, ','));
    }
    expect_punct(p, '}');
}

static void parse_initialiser(parser *p, ptx_var *v)
{
    if (v->space != PTX_SPACE_global && v->space != PTX_SPACE_const)
        fail_here(p, "only .global and .const variables take initialisers");
    unsigned es = ptx_type_size(v->type);
    init_state s = {NULL, v->is_array && v->count == 0 ? 0 : v->count * v->vec, 0, 0, es, v->type,
                    (uint32_t)(v - p->m->vars)};
    init_list(p, &s, 0);
    if (v->is_array && v->count == 0) {
        v->count = s.n / v->vec + (s.n % v->vec != 0);
        v->size = v->count * v->vec * es;
    }
    if (v->size > PTX_MAX_VAR_BYTES)
        fail_here(p, "variable too large");
    v->init = alloc(p, (size_t)(v->size ? v->size : 1));
    if (s.n)
        memcpy(v->init, s.buf, (size_t)(s.n * es));
}

/* name [<N>] [[N]]... -- the declarator of a variable. Returns the count of
 * elements (1 for a scalar, 0 for an unsized array). */
static uint64_t parse_dims(parser *p, int *is_array)
{
    uint64_t count = 1;
    *is_array = 0;
    while (accept_punct(p, '[')) {
        int first = !*is_array;
        *is_array = 1;
        if (accept_punct(p, ']')) {
            if (!first)
                fail_here(p, "only the first array dimension may be empty");
            count = 0;
            continue;
        }
        uint64_t n = expect_int(p, "array size");
        if (n == 0 || (count && n > PTX_MAX_VAR_BYTES / count))
            fail_here(p, "bad array size");
        count = count ? count * n : 0;
        expect_punct(p, ']');
    }
    return count;
}

/* Declares one variable (not .reg) from the current position after its
 * attributes. scope says where its name goes. */
static ptx_var *parse_var_declarator(parser *p, ptx_space space, decl_attrs a, int is_extern,
                                     ptx_var *v)
{
    const ptx_token *nt = expect_ident(p, "a variable name");
    v->name = tok_str(p, nt);
    v->space = space;
    v->type = a.type;
    v->vec = a.vec;
    v->line = nt->line;
    v->is_extern = is_extern;
    v->count = parse_dims(p, &v->is_array);
    unsigned es = ptx_type_size(a.type) * a.vec;
    if (v->count > PTX_MAX_VAR_BYTES / (es ? es : 1))
        fail_at(p, nt, "variable too large");
    v->size = v->count * es;
    v->align = a.align ? a.align : es;
    if (v->align == 0)
        v->align = 1;
    if (v->count == 0 && !is_extern && !is_punct(peek(p), '=') && space != PTX_SPACE_param)
        fail_at(p, nt, "unsized array needs .extern or an initialiser");
    if (accept_punct(p, '='))
        parse_initialiser(p, v);
    return v;
}

static ptx_var *new_module_var(parser *p)
{
    ptx_module *m = p->m;
    m->vars = grow(p, m->vars, &m->cap_vars, m->nvars, sizeof(ptx_var));
    ptx_var *v = &m->vars[m->nvars];
    memset(v, 0, sizeof *v);
    v->role = PTX_ROLE_module;
    m->nvars++;
    return v;
}

static ptx_var *new_func_var(parser *p, ptx_func *f)
{
    f->vars = grow(p, f->vars, &f->cap_vars, f->nvars, sizeof(ptx_var));
    ptx_var *v = &f->vars[f->nvars++];
    memset(v, 0, sizeof *v);
    return v;
}

/* .global/.const/.shared at module scope, after the linkage words. */
static void parse_module_var(parser *p, int is_extern)
{
    ptx_space space = space_of(next(p));
    decl_attrs a = parse_decl_attrs(p);
    do {
        ptx_var *v = parse_var_declarator(p, space, a, is_extern, new_module_var(p));
        name_entry *old = name_find(&p->module_names, v->name, (uint32_t)strlen(v->name));
        if (old && old->kind != NAME_MVAR)
            fail_here(p, "name already used by a function");
        if (old) {
            /* a .extern declaration followed by the definition: keep one */
            ptx_var *prev = &p->m->vars[old->index];
            if (!prev->is_extern && !v->is_extern)
                fail_here(p, "variable defined twice");
            if (prev->is_extern)
                *prev = *v;
            p->m->nvars--;
            for (uint32_t k = 0; k < p->m->nrelocs; k++)   /* they named the dropped copy */
                if (p->m->relocs[k].var == p->m->nvars)
                    p->m->relocs[k].var = (uint32_t)old->index;
        } else {
            v->cname = make_cname(p, &p->module_cnames, "g_", v->name);
            name_insert(p, &p->module_names, v->name, (uint32_t)strlen(v->name), NAME_MVAR,
                        (int32_t)(p->m->nvars - 1));
        }
    } while (accept_punct(p, ','));
    expect_punct(p, ';');
}

/* .reg [.v2] .type %name[<N>], ...; in a function body. */
static void parse_reg_decl(parser *p)
{
    ptx_func *f = p->fn;
    const ptx_token *kw = next(p);
    decl_attrs a = {PTX_TYPE_none, 0, 1};
    if (kw->len > 5) {   /* ".reg.b32" written as one word (inline asm in cuda_fp16.h) */
        a.type = ptx_type_from_name(kw->text + 5, kw->len - 5);
        if (a.type == PTX_TYPE_none)
            fail_at(p, kw, "expected a type");
    } else {
        a = parse_decl_attrs(p);
    }
    if (a.vec != 1)
        fail_here(p, "vector registers are not supported");
    if (a.type == PTX_TYPE_b128 || a.type == PTX_TYPE_tf32)
        fail_here(p, "register type not supported");
    do {
        const ptx_token *nt = next(p);
        if (nt->kind != PTX_TOK_IDENT || nt->text[0] == '.')
            fail_at(p, nt, "expected a register name");
        uint64_t n = 0;
        int param = 0;
        if (accept_punct(p, '<')) {
            n = expect_int(p, "register count");
            expect_punct(p, '>');
            param = 1;
        }
        if (n > PTX_MAX_REGS || f->nregs + (param ? n : 1) > PTX_MAX_REGS)
            fail_at(p, nt, "too many registers");
        for (uint64_t i = 0; i < (param ? n : 1); i++) {
            char buf[4200];
            int len = param ? snprintf(buf, sizeof buf, "%.*s%llu", (int)nt->len, nt->text,
                                       (unsigned long long)i)
                            : snprintf(buf, sizeof buf, "%.*s", (int)nt->len, nt->text);
            f->regs = grow(p, f->regs, &f->cap_regs, f->nregs, sizeof(ptx_reg));
            ptx_reg *r = &f->regs[f->nregs];
            r->name = ptx_arena_strndup(&p->m->arena, buf, (size_t)len);
            if (!r->name)
                fail_at(p, nt, "out of memory");
            r->type = a.type;
            r->cname = make_cname(p, &p->func_cnames, "", r->name[0] == '%' ? r->name + 1 : r->name);
            if (r->cname[0] != '_') {
                char *c = alloc(p, strlen(r->cname) + 2);
                c[0] = '_';
                strcpy(c + 1, r->cname);
                r->cname = c;
            }
            name_insert(p, p->scope, r->name, (uint32_t)len, NAME_REG, (int32_t)f->nregs);
            f->nregs++;
        }
    } while (accept_punct(p, ','));
    expect_punct(p, ';');
}

/* .local/.shared/.param inside a body. */
static void parse_body_var(parser *p)
{
    ptx_func *f = p->fn;
    const ptx_token *st = next(p);
    ptx_space space = space_of(st);
    if (space == PTX_SPACE_global || space == PTX_SPACE_const)
        fail_at(p, st, "function-scope .global/.const variables are not supported");
    decl_attrs a = parse_decl_attrs(p);
    do {
        ptx_var *v = parse_var_declarator(p, space, a, 0, new_func_var(p, f));
        v->role = PTX_ROLE_body;
        v->cname = make_cname(p, &p->func_cnames, "v_", v->name);
        name_insert(p, p->scope, v->name, (uint32_t)strlen(v->name), NAME_VAR, (int32_t)(f->nvars - 1));
        if (space == PTX_SPACE_shared && v->count == 0)
            fail_at(p, st, "unsized .shared array in a function body");
    } while (accept_punct(p, ','));
    expect_punct(p, ';');
}

/* ---- operands ------------------------------------------------------------------------- */

static int special_of(const ptx_token *t, uint8_t *comp)
{
    /* "%tid.x" -> tid, 1 */
    const char *s = t->text + 1;
    uint32_t n = t->len - 1, base = n;
    *comp = 0;
    if (n >= 2 && s[n - 2] == '.') {
        char c = s[n - 1];
        if (c != 'x' && c != 'y' && c != 'z')
            return -1;
        *comp = (uint8_t)(c - 'x' + 1);
        base = n - 2;
    }
    for (int i = 0; i < PTX_NSPECIALS; i++) {
        const char *name = ptx_special_name(i);
        if (i == PTX_SREG_envreg)
            continue;   /* %envreg0..31: envreg_index */
        if (strlen(name) == base && memcmp(name, s, base) == 0) {
            int has_comp = i == PTX_SREG_tid || i == PTX_SREG_ntid || i == PTX_SREG_ctaid ||
                           i == PTX_SREG_nctaid;
            if (has_comp != (*comp != 0) || i == PTX_SREG_warpsize)
                return -1;
            return i;
        }
    }
    return -1;
}

/* "%envreg7" -> 7; -1 if t is not %envreg0..%envreg31. */
static int envreg_index(const ptx_token *t)
{
    if (t->len < 8 || t->len > 9 || memcmp(t->text, "%envreg", 7) != 0)
        return -1;
    int v = 0;
    for (uint32_t i = 7; i < t->len; i++) {
        if (t->text[i] < '0' || t->text[i] > '9')
            return -1;
        v = v * 10 + (t->text[i] - '0');
    }
    return v < 32 && !(t->len == 9 && t->text[7] == '0') ? v : -1;
}

static ptx_operand parse_operand(parser *p, int depth);

static ptx_operand *parse_list(parser *p, char close, uint32_t *n, int depth)
{
    ptx_operand tmp[64];
    uint32_t count = 0;
    if (!is_punct(peek(p), close)) {
        do {
            if (count == 64)
                fail_here(p, "too many operands in a list");
            tmp[count++] = parse_operand(p, depth + 1);
        } while (accept_punct(p, ','));
    }
    expect_punct(p, close);
    ptx_operand *e = alloc(p, (count ? count : 1) * sizeof(ptx_operand));
    memcpy(e, tmp, count * sizeof(ptx_operand));
    *n = count;
    return e;
}

static void resolve_symbol(parser *p, const ptx_token *t, ptx_operand *o)
{
    o->kind = PTX_OPD_sym;
    o->sym.name = tok_str(p, t);
    name_entry *e = lookup(p, t->text, t->len);
    if (!e) {
        o->sym.kind = PTX_SYM_label;   /* verify.c checks that the label exists */
        o->sym.index = -1;
        return;
    }
    switch (e->kind) {
    case NAME_VAR: o->sym.kind = PTX_SYM_func_var; break;
    case NAME_MVAR: o->sym.kind = PTX_SYM_module_var; break;
    case NAME_FUNC: o->sym.kind = PTX_SYM_func; break;
    default: fail_at(p, t, "a register cannot be used here");
    }
    o->sym.index = e->index;
}

static void parse_name_operand(parser *p, const ptx_token *t, ptx_operand *o)
{
    if (t->text[0] == '%') {
        name_entry *e = lookup(p, t->text, t->len);
        if (e && e->kind == NAME_REG) {
            o->kind = PTX_OPD_reg;
            o->reg = e->index;
            return;
        }
        int s = special_of(t, &o->comp);
        int env = envreg_index(t);
        if (env >= 0) {
            s = PTX_SREG_envreg;
            o->imm = (uint64_t)env;
        }
        if (s < 0 && ((t->len > 8 && !memcmp(t->text, "%cluster", 8)) || (t->len > 9 && !memcmp(t->text, "%nclusterid", 9))))
            fail_at(p, t, "thread block cluster registers need sm_90: not supported by cubridge's CPU backend");
        if (s < 0)
            fail_at(p, t, "unknown register");
        o->kind = PTX_OPD_special;
        o->special = s;
        return;
    }
    if (is_word(t, "_")) {
        o->kind = PTX_OPD_sink;
        return;
    }
    if (is_word(t, "WARP_SZ")) {
        o->kind = PTX_OPD_special;
        o->special = PTX_SREG_warpsize;
        return;
    }
    if (t->text[0] == '.')
        fail_at(p, t, "expected an operand");
    name_entry *e = lookup(p, t->text, t->len);
    if (e && e->kind == NAME_REG) {   /* registers need no '%' (inline asm: "f", "__$temp3") */
        o->kind = PTX_OPD_reg;
        o->reg = e->index;
        return;
    }
    resolve_symbol(p, t, o);
}

/* [base], [base+off], [base-off], [imm] */
static void parse_address(parser *p, ptx_operand *o)
{
    o->kind = PTX_OPD_mem;
    const ptx_token *t = next(p);
    if (t->kind == PTX_TOK_INT) {
        o->imm = t->value;
    } else if (t->kind == PTX_TOK_IDENT) {
        ptx_operand b = {0};
        b.reg = b.reg2 = -1;
        parse_name_operand(p, t, &b);
        if (b.kind == PTX_OPD_reg)
            o->reg = b.reg;
        else if (b.kind == PTX_OPD_sym)
            o->sym = b.sym;
        else
            fail_at(p, t, "bad address");
    } else {
        fail_at(p, t, "bad address");
    }
    while (is_punct(peek(p), '+') || is_punct(peek(p), '-')) {
        int neg = next(p)->text[0] == '-';
        if (accept_punct(p, '-'))
            neg = !neg;
        uint64_t v = expect_int(p, "an address offset");
        o->offset = (int64_t)(neg ? (uint64_t)0 - v : v);
    }
    /* texture/surface operands: [obj, {coordinates}] or [tex, sampler, {coordinates}] */
    if (accept_punct(p, ',')) {
        ptx_operand tmp[2];
        uint32_t n = 0;
        do {
            if (n == 2)
                fail_here(p, "too many parts in a texture operand");
            tmp[n++] = parse_operand(p, 1);
        } while (accept_punct(p, ','));
        o->elems = alloc(p, n * sizeof(ptx_operand));
        memcpy(o->elems, tmp, n * sizeof(ptx_operand));
        o->nelems = n;
    }
    expect_punct(p, ']');
}

static ptx_operand parse_operand(parser *p, int depth)
{
    ptx_operand o = {0};
    o.reg = o.reg2 = -1;
    if (depth > 4)
        fail_here(p, "operand nested too deeply");
    const ptx_token *t = next(p);
    if (is_punct(t, '!')) {
        const ptx_token *r = next(p);
        if (r->kind != PTX_TOK_IDENT)
            fail_at(p, r, "expected a predicate after '!'");
        parse_name_operand(p, r, &o);
        if (o.kind != PTX_OPD_reg)
            fail_at(p, r, "'!' needs a predicate register");
        o.neg = 1;
    } else if (is_punct(t, '-') && (peek(p)->kind == PTX_TOK_INT || peek(p)->kind == PTX_TOK_F32 ||
                                    peek(p)->kind == PTX_TOK_F64)) {
        const ptx_token *n = next(p);
        o.kind = n->kind == PTX_TOK_INT ? PTX_OPD_int : n->kind == PTX_TOK_F32 ? PTX_OPD_f32 : PTX_OPD_f64;
        o.imm = n->kind == PTX_TOK_INT ? (uint64_t)0 - n->value
                : n->kind == PTX_TOK_F32 ? n->value ^ 0x80000000u : n->value ^ 0x8000000000000000ull;
    } else if (t->kind == PTX_TOK_INT) {
        o.kind = PTX_OPD_int;
        o.imm = t->value;
    } else if (t->kind == PTX_TOK_F32 || t->kind == PTX_TOK_F64) {
        o.kind = t->kind == PTX_TOK_F32 ? PTX_OPD_f32 : PTX_OPD_f64;
        o.imm = t->value;
    } else if (is_punct(t, '{')) {
        o.kind = PTX_OPD_vec;
        o.elems = parse_list(p, '}', &o.nelems, depth);
    } else if (is_punct(t, '(')) {
        o.kind = PTX_OPD_list;
        o.elems = parse_list(p, ')', &o.nelems, depth);
    } else if (is_punct(t, '[')) {
        parse_address(p, &o);
    } else if (t->kind == PTX_TOK_IDENT) {
        parse_name_operand(p, t, &o);
        if (o.kind == PTX_OPD_sym && (is_punct(peek(p), '+') || is_punct(peek(p), '-')) &&
            peek_at(p, 1)->kind == PTX_TOK_INT) {
            int neg = next(p)->text[0] == '-';
            uint64_t v = next(p)->value;
            o.offset = (int64_t)(neg ? (uint64_t)0 - v : v);
        }
    } else {
        fail_at(p, t, t->kind == PTX_TOK_EOF ? "unexpected end of input" : "bad operand");
    }
    if (accept_punct(p, '|')) {
        const ptx_token *r = next(p);
        ptx_operand q = {0};
        if (r->kind != PTX_TOK_IDENT)
            fail_at(p, r, "expected a predicate after '|'");
        parse_name_operand(p, r, &q);
        /* d|p, and {d0, d1, d2, d3}|p for texture fetches with a residency predicate */
        if ((o.kind != PTX_OPD_reg && o.kind != PTX_OPD_sink && o.kind != PTX_OPD_vec) || q.kind != PTX_OPD_reg)
            fail_at(p, r, "'|' joins two registers");
        o.reg2 = q.reg;
    }
    return o;
}

/* call[.uni] [(rets),] target [, (args)] [, proto]; */
static void parse_call_operands(parser *p, ptx_instr *in)
{
    ptx_operand ops[4];
    memset(ops, 0, sizeof ops);
    for (int i = 0; i < 4; i++)
        ops[i].reg = ops[i].reg2 = -1;
    ops[0].kind = ops[2].kind = PTX_OPD_list;
    ops[0].elems = ops[2].elems = NULL;
    int n = 3;
    if (accept_punct(p, '(')) {
        ops[0].elems = parse_list(p, ')', &ops[0].nelems, 0);
        expect_punct(p, ',');
    }
    ops[1] = parse_operand(p, 0);
    if (accept_punct(p, ',')) {
        if (accept_punct(p, '('))
            ops[2].elems = parse_list(p, ')', &ops[2].nelems, 0);
        else
            fail_here(p, "expected '(' for the call arguments");
        if (accept_punct(p, ',')) {
            ops[3] = parse_operand(p, 0);
            n = 4;
        }
    }
    in->ops = alloc(p, sizeof ops);
    memcpy(in->ops, ops, sizeof ops);
    in->nops = (uint8_t)n;
}

/* The bulk copies the CPU backend runs: global -> shared completing on an
 * mbarrier, as libcu++'s memcpy_async does on sm_90 (src/codegen/c/mbarrier.c). */
static int is_supported_bulk_copy(const ptx_token *t)
{
    static const char *const forms[] = {
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes",
        "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes",
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        size_t n = strlen(forms[i]);
        if (t->len >= n && memcmp(t->text, forms[i], n) == 0 && (t->len == n || t->text[n] == '.'))
            return 1;
    }
    return 0;
}

/* Instructions of targets the CPU backend cannot honour, named in the error. */
static void reject_arch_specific(parser *p, const ptx_token *t)
{
    if (is_supported_bulk_copy(t))
        return;
    static const struct { const char *prefix, *why; } rejected[] = {
        {"wgmma", "warpgroup matrix multiply (wgmma) needs sm_90a"},
        {"setmaxnreg", "setmaxnreg needs sm_90a"},
        {"cp.async.bulk.tensor", "tensor memory access (TMA) bulk copies need sm_90a/sm_90"},
        {"cp.reduce.async.bulk.tensor", "tensor memory access (TMA) bulk reductions need sm_90a/sm_90"},
        {"cp.async.bulk", "bulk asynchronous copies need sm_90"},
        {"barrier.cluster", "thread block cluster barriers need sm_90"},
        {"mapa", "thread block cluster addressing (mapa) needs sm_90"},
        {"getctarank", "thread block cluster addressing (getctarank) needs sm_90"},
        {"multimem", "multimem operations need sm_90"},
        {"tcgen05", "tcgen05 instructions need sm_100a"},
    };
    for (size_t i = 0; i < sizeof rejected / sizeof rejected[0]; i++) {
        size_t n = strlen(rejected[i].prefix);
        if (t->len >= n && memcmp(t->text, rejected[i].prefix, n) == 0 && (t->len == n || t->text[n] == '.')) {
            char msg[200];
            snprintf(msg, sizeof msg, "%s: not supported by cubridge's CPU backend", rejected[i].why);
            fail_at(p, t, msg);
        }
    }
}

/* The opcode token: "ld.global.v2.f32" -> op, modifiers, types. */
static void parse_opcode(parser *p, const ptx_token *t, ptx_instr *in)
{
    const char *s = t->text, *end = t->text + t->len;
    const char *dot = memchr(s, '.', t->len);
    size_t n = dot ? (size_t)(dot - s) : t->len;
    reject_arch_specific(p, t);
    int op = ptx_opcode_find(s, n);
    if (op < 0)
        fail_at(p, t, "unknown instruction");
    in->op = (ptx_opcode)op;
    while (dot && dot < end) {
        const char *seg = dot + 1;
        const char *nd = memchr(seg, '.', (size_t)(end - seg));
        size_t sl = nd ? (size_t)(nd - seg) : (size_t)(end - seg);
        ptx_type ty = ptx_type_from_name(seg, sl);
        if (ty != PTX_TYPE_none) {
            if (in->ntypes == 4)
                fail_at(p, t, "too many types");
            in->types[in->ntypes++] = ty;
        } else {
            int m = ptx_mod_find(seg, sl);
            if (m < 0) {
                char msg[96];
                snprintf(msg, sizeof msg, "unknown modifier '.%.*s'", (int)(sl > 40 ? 40 : sl), seg);
                fail_at(p, t, msg);
            }
            ptx_set_mod(in, (ptx_mod)m);
        }
        dot = nd;
    }
}

static void parse_instruction(parser *p)
{
    ptx_func *f = p->fn;
    const ptx_token *first = peek(p);
    f->instrs = grow(p, f->instrs, &f->cap_instrs, f->ninstrs, sizeof(ptx_instr));
    ptx_instr *in = &f->instrs[f->ninstrs];
    memset(in, 0, sizeof *in);
    in->guard = -1;
    if (accept_punct(p, '@')) {
        int neg = accept_punct(p, '!');
        const ptx_token *g = next(p);
        name_entry *e = g->kind == PTX_TOK_IDENT ? lookup(p, g->text, g->len) : NULL;
        if (!e || e->kind != NAME_REG)
            fail_at(p, g, "expected a predicate register after '@'");
        in->guard = e->index;
        in->guard_neg = (uint8_t)neg;
    }
    const ptx_token *ot = next(p);
    if (ot->kind != PTX_TOK_IDENT)
        fail_at(p, ot, ot->kind == PTX_TOK_EOF ? "unexpected end of input" : "expected an instruction");
    in->line = ot->line;
    parse_opcode(p, ot, in);
    if (in->op == PTX_OP_call) {
        parse_call_operands(p, in);
    } else if (!is_punct(peek(p), ';')) {
        ptx_operand tmp[8];
        uint32_t n = 0;
        do {
            if (n == 8)
                fail_here(p, "too many operands");
            tmp[n++] = parse_operand(p, 0);
        } while (accept_punct(p, ','));
        in->ops = alloc(p, n * sizeof(ptx_operand));
        memcpy(in->ops, tmp, n * sizeof(ptx_operand));
        in->nops = (uint8_t)n;
    }
    const ptx_token *semi = peek(p);
    expect_punct(p, ';');
    size_t len = (size_t)(semi->text + 1 - first->text);
    if (semi->text < first->text || len > 4096)
        len = ot->len;
    in->text = ptx_arena_strndup(&p->m->arena, first->text, len);
    in->textlen = (uint32_t)len;
    f->ninstrs++;
}

static void parse_label(parser *p)
{
    ptx_func *f = p->fn;
    const ptx_token *t = next(p);
    next(p);   /* ':' */
    for (uint32_t i = 0; i < f->nlabels; i++)
        if (strlen(f->labels[i].name) == t->len && memcmp(f->labels[i].name, t->text, t->len) == 0)
            fail_at(p, t, "label defined twice");
    f->labels = grow(p, f->labels, &f->cap_labels, f->nlabels, sizeof(ptx_label));
    ptx_label *l = &f->labels[f->nlabels++];
    l->name = tok_str(p, t);
    l->cname = make_cname(p, &p->func_cnames, "L_", l->name[0] == '$' ? l->name + 1 : l->name);
    l->instr = f->ninstrs;
    l->line = t->line;
}

/* ---- functions ------------------------------------------------------------------------ */

static void push_scope(parser *p)
{
    name_table *t = alloc(p, sizeof *t);
    t->up = p->scope;
    p->scope = t;
}

static void pop_scope(parser *p) { p->scope = p->scope->up; }

static void parse_body(parser *p)
{
    int depth = 1;
    push_scope(p);
    while (depth > 0) {
        const ptx_token *t = peek(p);
        if (t->kind == PTX_TOK_EOF)
            fail_at(p, t, "unexpected end of input in a function body");
        if (is_punct(t, '{')) {
            next(p);
            depth++;
            push_scope(p);
        } else if (is_punct(t, '}')) {
            next(p);
            depth--;
            pop_scope(p);
        } else if (is_word(t, ".reg") || (t->kind == PTX_TOK_IDENT && t->len > 5 && !memcmp(t->text, ".reg.", 5))) {
            parse_reg_decl(p);
        } else if (is_word(t, ".local") || is_word(t, ".shared") || is_word(t, ".param") ||
                   is_word(t, ".global") || is_word(t, ".const")) {
            parse_body_var(p);
        } else if (is_word(t, ".loc") || is_word(t, ".file")) {
            skip_line(p);
        } else if (is_word(t, ".pragma") || is_word(t, ".callprototype") || is_word(t, ".calltargets")) {
            skip_statement(p);   /* prototypes: an indirect call's buffers say it all */
        } else if (t->kind == PTX_TOK_IDENT && t->text[0] != '.' && is_punct(peek_at(p, 1), ':')) {
            parse_label(p);
        } else if (t->kind == PTX_TOK_IDENT && t->text[0] == '.') {
            fail_at(p, t, "unknown directive in a function body");
        } else {
            parse_instruction(p);
        }
    }
    /* the closing '}' popped the body's scope */
}

/* ( .param ... , ... ) for a function's returns or parameters. */
static void parse_params(parser *p, ptx_func *f, ptx_role role)
{
    expect_punct(p, '(');
    if (accept_punct(p, ')'))
        return;
    do {
        const ptx_token *st = next(p);
        if (is_word(st, ".reg"))
            fail_at(p, st, ".reg parameters are not supported");
        if (!is_word(st, ".param"))
            fail_at(p, st, "expected .param");
        decl_attrs a = parse_decl_attrs(p);
        ptx_var *v = parse_var_declarator(p, PTX_SPACE_param, a, 0, new_func_var(p, f));
        v->role = role;
        if (v->count == 0)
            fail_at(p, st, "unsized parameter array");
        v->cname = make_cname(p, &p->func_cnames, "p_", v->name);
        if (role == PTX_ROLE_ret)
            f->nrets++;
        else
            f->nparams++;
    } while (accept_punct(p, ','));
    expect_punct(p, ')');
}

/* Performance directives between a function's signature and its body. */
static void parse_func_directives(parser *p, ptx_func *f)
{
    for (;;) {
        const ptx_token *t = peek(p);
        uint32_t *dims = is_word(t, ".maxntid") ? f->maxntid : is_word(t, ".reqntid") ? f->reqntid : NULL;
        if (dims || is_word(t, ".reqnctapercluster")) {
            uint32_t tmp[3];
            if (!dims)
                dims = tmp;
            next(p);
            int i = 0;
            do {
                uint64_t v = expect_int(p, "a dimension");
                if (i < 3)
                    dims[i++] = (uint32_t)v;
            } while (accept_punct(p, ','));
            for (; i < 3; i++)
                dims[i] = 1;
        } else if (is_word(t, ".minnctapersm") || is_word(t, ".maxnreg") || is_word(t, ".maxnctapersm") ||
                   is_word(t, ".maxclusterrank")) {
            next(p);
            uint64_t v = expect_int(p, "a number");
            if (is_word(t, ".minnctapersm"))
                f->minnctapersm = (uint32_t)v;
        } else if (is_word(t, ".noreturn") || is_word(t, ".explicitcluster")) {
            next(p);
        } else if (is_word(t, ".pragma")) {
            skip_statement(p);
        } else {
            return;
        }
    }
}

static void parse_function(parser *p, int is_extern, int visible)
{
    const ptx_token *kw = next(p);
    int is_entry = is_word(kw, ".entry");
    ptx_func tmp = {0};
    tmp.is_entry = is_entry;
    tmp.is_extern = is_extern;
    tmp.visible = visible;
    tmp.line = kw->line;
    memset(&p->func_cnames, 0, sizeof p->func_cnames);
    if (!is_entry && is_punct(peek(p), '('))
        parse_params(p, &tmp, PTX_ROLE_ret);
    const ptx_token *nt = expect_ident(p, "a function name");
    tmp.name = tok_str(p, nt);
    if (is_punct(peek(p), '('))
        parse_params(p, &tmp, PTX_ROLE_param);
    parse_func_directives(p, &tmp);

    name_entry *old = name_find(&p->module_names, nt->text, nt->len);
    ptx_module *m = p->m;
    uint32_t index;
    if (old && old->kind != NAME_FUNC)
        fail_at(p, nt, "name already used by a variable");
    if (old) {
        index = (uint32_t)old->index;
        tmp.cname = m->funcs[index].cname;
        if (m->funcs[index].defined && is_punct(peek(p), '{'))
            fail_at(p, nt, "function defined twice");
        if (m->funcs[index].defined)
            tmp = m->funcs[index];
    } else {
        m->funcs = grow(p, m->funcs, &m->cap_funcs, m->nfuncs, sizeof(ptx_func));
        index = m->nfuncs++;
        tmp.cname = make_cname(p, &p->module_cnames, "f_", tmp.name);
        name_insert(p, &p->module_names, tmp.name, nt->len, NAME_FUNC, (int32_t)index);
    }
    m->funcs[index] = tmp;
    ptx_func *f = &m->funcs[index];
    if (accept_punct(p, ';'))
        return;
    if (!is_punct(peek(p), '{'))
        fail_here(p, "expected '{' or ';' after a function header");
    next(p);
    f->defined = 1;
    p->fn = f;
    /* parameters are visible in the body */
    push_scope(p);
    for (uint32_t i = 0; i < f->nvars; i++)
        name_insert(p, p->scope, f->vars[i].name, (uint32_t)strlen(f->vars[i].name), NAME_VAR, (int32_t)i);
    parse_body(p);
    pop_scope(p);
    p->fn = NULL;
}

/* ---- module ----------------------------------------------------------------------------- */

static void parse_version(parser *p)
{
    next(p);
    const ptx_token *t = next(p);
    unsigned major = 0, minor = 0;
    if ((t->kind != PTX_TOK_F64 && t->kind != PTX_TOK_INT) || t->len > 16)
        fail_at(p, t, "bad .version");
    char buf[20];
    snprintf(buf, sizeof buf, "%.*s", (int)t->len, t->text);
    if (sscanf(buf, "%u.%u", &major, &minor) < 1 || major > 99 || minor > 9)
        fail_at(p, t, "bad .version");
    p->m->version = major * 10 + minor;
}

static void parse_target(parser *p)
{
    next(p);
    do {
        const ptx_token *t = next(p);
        if (t->kind != PTX_TOK_IDENT)
            fail_at(p, t, "bad .target");
        if (t->len > 3 && memcmp(t->text, "sm_", 3) == 0) {
            unsigned v = 0;
            for (uint32_t i = 3; i < t->len && t->text[i] >= '0' && t->text[i] <= '9' && v < 100000; i++)
                v = v * 10 + (unsigned)(t->text[i] - '0');
            p->m->target_sm = v;
        }
    } while (accept_punct(p, ','));
}

static void parse_toplevel(parser *p)
{
    const ptx_token *t = peek(p);
    int is_extern = 0, visible = 0;
    if (is_word(t, ".version")) {
        parse_version(p);
    } else if (is_word(t, ".target")) {
        parse_target(p);
    } else if (is_word(t, ".address_size")) {
        next(p);
        uint64_t v = expect_int(p, "an address size");
        if (v != 64)
            fail_at(p, t, "only .address_size 64 is supported");
        p->m->address_size = 64;
    } else if (is_word(t, ".file") || is_word(t, ".loc")) {
        skip_line(p);
    } else if (is_word(t, ".section")) {
        skip_section(p);
    } else if (is_word(t, ".pragma")) {
        skip_statement(p);
    } else if (is_word(t, ".alias")) {
        fail_at(p, t, ".alias is not supported");
    } else {
        while (is_word(peek(p), ".visible") || is_word(peek(p), ".extern") || is_word(peek(p), ".weak") ||
               is_word(peek(p), ".common")) {
            if (is_word(peek(p), ".extern"))
                is_extern = 1;
            else
                visible = 1;
            next(p);
        }
        t = peek(p);
        if (is_word(t, ".entry") || is_word(t, ".func"))
            parse_function(p, is_extern, visible);
        else if (is_word(t, ".global") || is_word(t, ".const") || is_word(t, ".shared"))
            parse_module_var(p, is_extern);
        else if (is_word(t, ".local"))
            fail_at(p, t, "module-scope .local variables are not supported");
        else
            fail_at(p, t, t->kind == PTX_TOK_EOF ? "unexpected end of input" : "unknown directive");
    }
}

ptx_module *ptx_parse(const char *src, size_t len, const char *file, char *err, size_t errlen)
{
    ptx_tokens toks;
    if (ptx_lex(src, len, file, &toks, err, errlen) < 0)
        return NULL;
    ptx_arena arena = {0};
    ptx_module *m = ptx_arena_alloc(&arena, sizeof *m);
    if (!m) {
        ptx_tokens_free(&toks);
        ptx_format_error(err, errlen, file, 0, NULL, 0, "out of memory");
        return NULL;
    }
    m->arena = arena;
    parser *p = calloc(1, sizeof *p);
    if (!p) {
        ptx_tokens_free(&toks);
        ptx_module_free(m);
        ptx_format_error(err, errlen, file, 0, NULL, 0, "out of memory");
        return NULL;
    }
    p->m = m;
    p->tok = toks.tok;
    p->ntok = toks.ntok;
    p->file = file ? file : "<ptx>";
    p->err = err;
    p->errlen = errlen;
    p->scope = &p->module_names;
    if (setjmp(p->fail)) {
        ptx_tokens_free(&toks);
        free(p);
        ptx_module_free(m);
        return NULL;
    }
    m->file = ptx_arena_strndup(&m->arena, p->file, strlen(p->file));
    while (peek(p)->kind != PTX_TOK_EOF)
        parse_toplevel(p);
    if (!m->version)
        fail_at(p, peek(p), "missing .version");
    ptx_tokens_free(&toks);
    free(p);
    return m;
}
