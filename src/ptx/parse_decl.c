/* parse_decl.c: declarations -> IR variables and registers: attributes,
 * array dimensions, initialisers (values and address initialisers, which
 * become relocations), module-scope and body variables, .reg lists. */
#include "ptx/parser.h"

/* ---- declarations ------------------------------------------------------------------- */

/* [.align N] [.v2|.v4] [.ptr [.space] [.align N]] .type, in any order. */
decl_attrs ptx_parse_decl_attrs(parser *p)
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
ptx_var *ptx_parse_var_declarator(parser *p, ptx_space space, decl_attrs a, int is_extern,
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

ptx_var *ptx_new_func_var(parser *p, ptx_func *f)
{
    f->vars = grow(p, f->vars, &f->cap_vars, f->nvars, sizeof(ptx_var));
    ptx_var *v = &f->vars[f->nvars++];
    memset(v, 0, sizeof *v);
    return v;
}

/* .global/.const/.shared at module scope, after the linkage words. */
void ptx_parse_module_var(parser *p, int is_extern)
{
    ptx_space space = space_of(next(p));
    decl_attrs a = ptx_parse_decl_attrs(p);
    do {
        ptx_var *v = ptx_parse_var_declarator(p, space, a, is_extern, new_module_var(p));
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
void ptx_parse_reg_decl(parser *p)
{
    ptx_func *f = p->fn;
    const ptx_token *kw = next(p);
    decl_attrs a = {PTX_TYPE_none, 0, 1};
    if (kw->len > 5) {   /* ".reg.b32" written as one word (inline asm in cuda_fp16.h) */
        a.type = ptx_type_from_name(kw->text + 5, kw->len - 5);
        if (a.type == PTX_TYPE_none)
            fail_at(p, kw, "expected a type");
    } else {
        a = ptx_parse_decl_attrs(p);
    }
    if (a.vec != 1)
        fail_here(p, "vector registers are not supported");
    if (a.type == PTX_TYPE_tf32)
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
void ptx_parse_body_var(parser *p)
{
    ptx_func *f = p->fn;
    const ptx_token *st = next(p);
    ptx_space space = space_of(st);
    if (space == PTX_SPACE_global || space == PTX_SPACE_const)
        fail_at(p, st, "function-scope .global/.const variables are not supported");
    decl_attrs a = ptx_parse_decl_attrs(p);
    do {
        ptx_var *v = ptx_parse_var_declarator(p, space, a, 0, ptx_new_func_var(p, f));
        v->role = PTX_ROLE_body;
        v->cname = make_cname(p, &p->func_cnames, "v_", v->name);
        name_insert(p, p->scope, v->name, (uint32_t)strlen(v->name), NAME_VAR, (int32_t)(f->nvars - 1));
        if (space == PTX_SPACE_shared && v->count == 0)
            fail_at(p, st, "unsized .shared array in a function body");
    } while (accept_punct(p, ','));
    expect_punct(p, ';');
}
