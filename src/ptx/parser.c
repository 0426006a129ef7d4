/* parser.c: tokens -> IR. Recursive descent over directives, declarations,
 * functions and instructions. Names are resolved through a scope stack as they
 * are read (PTX declares before use); labels are resolved by verify.c.
 * Errors unwind with longjmp; everything allocated lives in the module arena.
 * This file reads the module and its functions; declarations are in
 * parse_decl.c, instructions in parse_instr.c (parser.h). */
#include "ptx/parser.h"

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
            ptx_parse_reg_decl(p);
        } else if (is_word(t, ".local") || is_word(t, ".shared") || is_word(t, ".param") ||
                   is_word(t, ".global") || is_word(t, ".const")) {
            ptx_parse_body_var(p);
        } else if (is_word(t, ".loc") || is_word(t, ".file")) {
            skip_line(p);
        } else if (is_word(t, ".pragma") || is_word(t, ".callprototype") || is_word(t, ".calltargets")) {
            skip_statement(p);   /* prototypes: an indirect call's buffers say it all */
        } else if (t->kind == PTX_TOK_IDENT && t->text[0] != '.' && is_punct(peek_at(p, 1), ':')) {
            ptx_parse_label(p);
        } else if (t->kind == PTX_TOK_IDENT && t->text[0] == '.') {
            fail_at(p, t, "unknown directive in a function body");
        } else {
            ptx_parse_instruction(p);
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
        decl_attrs a = ptx_parse_decl_attrs(p);
        ptx_var *v = ptx_parse_var_declarator(p, PTX_SPACE_param, a, 0, ptx_new_func_var(p, f));
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
        uint32_t *dims = is_word(t, ".maxntid") ? f->maxntid : is_word(t, ".reqntid") ? f->reqntid
                         : is_word(t, ".reqnctapercluster") ? f->reqnctapercluster : NULL;
        if (dims) {
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
            else if (is_word(t, ".maxclusterrank"))
                f->maxclusterrank = (uint32_t)v;
        } else if (is_word(t, ".noreturn") || is_word(t, ".explicitcluster")) {
            f->explicitcluster |= is_word(t, ".explicitcluster");
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
            ptx_parse_module_var(p, is_extern);
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
