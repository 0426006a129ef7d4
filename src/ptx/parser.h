/* parser.h: the parser's state and token helpers, private to src/ptx.
 *
 * The parser is recursive descent in three files: parser.c (modules,
 * directives and functions), parse_decl.c (declarations and initialisers) and
 * parse_instr.c (instructions and their operands). They share the state below
 * and these small helpers, static inline. Errors unwind with longjmp to
 * ptx_parse; everything allocated lives in the module arena.
 */
#ifndef CB_PTX_PARSER_H
#define CB_PTX_PARSER_H

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

static inline _Noreturn void fail_at(parser *p, const ptx_token *t, const char *reason)
{
    ptx_format_error(p->err, p->errlen, p->file, t ? t->line : 0, t ? t->text : NULL,
                     t ? t->len : 0, reason);
    longjmp(p->fail, 1);
}

static inline _Noreturn void fail_here(parser *p, const char *reason)
{
    fail_at(p, &p->tok[p->pos], reason);
}

static inline void *alloc(parser *p, size_t n)
{
    void *q = ptx_arena_alloc(&p->m->arena, n);
    if (!q)
        fail_here(p, "out of memory");
    return q;
}

/* Grows an arena array of elem-size items so that index n fits. */
static inline void *grow(parser *p, void *arr, uint32_t *cap, uint32_t n, size_t elem)
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

static inline uint32_t hash_name(const char *s, uint32_t n)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static inline name_entry *name_find(name_table *t, const char *s, uint32_t n)
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

static inline void name_insert(parser *p, name_table *t, const char *s, uint32_t n, int kind, int32_t index)
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

static inline name_entry *lookup(parser *p, const char *s, uint32_t n)
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
static inline const char *make_cname(parser *p, name_table *t, const char *prefix, const char *name)
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

static inline const ptx_token *peek(parser *p) { return &p->tok[p->pos]; }

static inline const ptx_token *peek_at(parser *p, size_t k)
{
    size_t i = p->pos + k;
    return &p->tok[i < p->ntok ? i : p->ntok - 1];
}

static inline const ptx_token *next(parser *p)
{
    const ptx_token *t = &p->tok[p->pos];
    if (t->kind != PTX_TOK_EOF)
        p->pos++;
    return t;
}

static inline int is_punct(const ptx_token *t, char c)
{
    return t->kind == PTX_TOK_PUNCT && t->text[0] == c;
}

static inline int is_word(const ptx_token *t, const char *w)
{
    size_t n = strlen(w);
    return t->kind == PTX_TOK_IDENT && t->len == n && memcmp(t->text, w, n) == 0;
}

static inline int accept_punct(parser *p, char c)
{
    if (is_punct(peek(p), c)) {
        next(p);
        return 1;
    }
    return 0;
}

static inline void expect_punct(parser *p, char c)
{
    if (!accept_punct(p, c)) {
        char msg[32];
        snprintf(msg, sizeof msg, "expected '%c'", c);
        fail_here(p, peek(p)->kind == PTX_TOK_EOF ? "unexpected end of input" : msg);
    }
}

static inline const ptx_token *expect_ident(parser *p, const char *what)
{
    const ptx_token *t = peek(p);
    if (t->kind != PTX_TOK_IDENT || t->text[0] == '.') {
        char msg[64];
        snprintf(msg, sizeof msg, "expected %s", what);
        fail_here(p, t->kind == PTX_TOK_EOF ? "unexpected end of input" : msg);
    }
    return next(p);
}

static inline uint64_t expect_int(parser *p, const char *what)
{
    const ptx_token *t = peek(p);
    if (t->kind != PTX_TOK_INT) {
        char msg[64];
        snprintf(msg, sizeof msg, "expected %s", what);
        fail_here(p, t->kind == PTX_TOK_EOF ? "unexpected end of input" : msg);
    }
    return next(p)->value;
}

static inline char *tok_str(parser *p, const ptx_token *t)
{
    char *s = ptx_arena_strndup(&p->m->arena, t->text, t->len);
    if (!s)
        fail_at(p, t, "out of memory");
    return s;
}

static inline ptx_space space_of(const ptx_token *t)
{
    if (is_word(t, ".global")) return PTX_SPACE_global;
    if (is_word(t, ".const")) return PTX_SPACE_const;
    if (is_word(t, ".shared")) return PTX_SPACE_shared;
    if (is_word(t, ".local")) return PTX_SPACE_local;
    if (is_word(t, ".param")) return PTX_SPACE_param;
    if (is_word(t, ".reg")) return PTX_SPACE_reg;
    return PTX_SPACE_none;
}

static inline ptx_type type_of(const ptx_token *t)
{
    if (t->kind != PTX_TOK_IDENT || t->len < 2 || t->text[0] != '.')
        return PTX_TYPE_none;
    return ptx_type_from_name(t->text + 1, t->len - 1);
}

/* [.align N] [.v2|.v4] [.ptr ...] .type of a declaration. */
typedef struct decl_attrs {
    ptx_type type;
    uint32_t align;
    uint32_t vec;
} decl_attrs;

/* ---- entry points between the parser's files ------------------------------------ */

/* parse_decl.c */
decl_attrs ptx_parse_decl_attrs(parser *p);
ptx_var *ptx_parse_var_declarator(parser *p, ptx_space space, decl_attrs a, int is_extern, ptx_var *v);
/* A new variable of function f (its vars array grown). */
ptx_var *ptx_new_func_var(parser *p, ptx_func *f);
/* .global/.const/.shared at module scope (is_extern: declared .extern). */
void ptx_parse_module_var(parser *p, int is_extern);
/* .reg declarations in a body. */
void ptx_parse_reg_decl(parser *p);
/* .local/.shared/.param inside a body. */
void ptx_parse_body_var(parser *p);
/* parse_instr.c */
/* One instruction, with its guard, up to and including its ';'. */
void ptx_parse_instruction(parser *p);
/* A label "name:" before an instruction. */
void ptx_parse_label(parser *p);

#endif
