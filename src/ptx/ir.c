/* ir.c: the arena, the type/opcode/modifier tables and IR lifetime. */
#include "ptx/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- arena ---------------------------------------------------------------- */

struct ptx_arena_chunk {
    ptx_arena_chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

void *ptx_arena_alloc(ptx_arena *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (size == 0)
        size = 16;
    ptx_arena_chunk *c = a->head;
    if (!c || c->cap - c->used < size) {
        size_t cap = size > 65536 ? size : 65536;
        c = malloc(sizeof(*c) + cap);
        if (!c)
            return NULL;
        c->used = 0;
        c->cap = cap;
        c->next = a->head;
        a->head = c;
    }
    void *p = c->data + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

char *ptx_arena_strndup(ptx_arena *a, const char *s, size_t n)
{
    char *p = ptx_arena_alloc(a, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

void ptx_arena_free(ptx_arena *a)
{
    ptx_arena_chunk *c = a->head;
    while (c) {
        ptx_arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    a->head = NULL;
}

/* ---- types ------------------------------------------------------------------ */

static const struct {
    const char *name;
    unsigned size;
    char kind;
} type_table[PTX_NTYPES] = {
    [PTX_TYPE_none] = {"none", 0, 0},
#define PTX_TYPE_ROW(n, bytes, k) [PTX_TYPE_##n] = {#n, bytes, k},
    PTX_TYPE_LIST(PTX_TYPE_ROW)
#undef PTX_TYPE_ROW
};

const char *ptx_type_name(ptx_type t) { return t < PTX_NTYPES ? type_table[t].name : "?"; }
unsigned ptx_type_size(ptx_type t) { return t < PTX_NTYPES ? type_table[t].size : 0; }
char ptx_type_kind(ptx_type t) { return t < PTX_NTYPES ? type_table[t].kind : 0; }
int ptx_type_is_float(ptx_type t) { return t == PTX_TYPE_f32 || t == PTX_TYPE_f64; }

ptx_type ptx_type_from_name(const char *s, size_t n)
{
    for (int i = 1; i < PTX_NTYPES; i++)
        if (strlen(type_table[i].name) == n && memcmp(type_table[i].name, s, n) == 0)
            return (ptx_type)i;
    return PTX_TYPE_none;
}

/* ---- opcodes and modifiers -------------------------------------------------- */

const ptx_opinfo ptx_ops[PTX_NOPS] = {
#define OP(id, name, minops, maxops, types, flags) \
    [PTX_OP_##id] = {name, minops, maxops, (types) / 10, (types) % 10, flags},
#include "ptx/ops.def"
#undef OP
};

const char *const ptx_mod_names[PTX_NMODS] = {
#define MOD(id, text) [PTX_MOD_##id] = text,
#include "ptx/mods.def"
#undef MOD
};

int ptx_opcode_find(const char *s, size_t n)
{
    for (int i = 0; i < PTX_NOPS; i++)
        if (strlen(ptx_ops[i].name) == n && memcmp(ptx_ops[i].name, s, n) == 0)
            return i;
    return -1;
}

int ptx_mod_find(const char *s, size_t n)
{
    if (n >= 2 && (s[0] == 'L') && (s[1] == '1' || s[1] == '2'))
        return PTX_MOD_hint;
    for (int i = 0; i < PTX_NMODS; i++)
        if (strlen(ptx_mod_names[i]) == n && memcmp(ptx_mod_names[i], s, n) == 0)
            return i;
    return -1;
}

unsigned ptx_instr_flags(const ptx_instr *in)
{
    unsigned f = ptx_ops[in->op].flags;
    if (!(f & PTX_OPF_BY_FORM))
        return f;
    ptx_space sp;
    switch (in->op) {
    case PTX_OP_wmma:   /* wmma.load/store are per lane here; wmma.mma meets the warp */
        if (ptx_has(in, PTX_MOD_mma))
            f |= PTX_OPF_COLLECTIVE;
        break;
    case PTX_OP_mbarrier:
        if (ptx_has(in, PTX_MOD_test_wait) || ptx_has(in, PTX_MOD_try_wait))
            f |= PTX_OPF_PARKS;
        break;
    case PTX_OP_ld:
    case PTX_OP_st:
        sp = ptx_instr_space(in);
        if (ptx_has(in, PTX_MOD_volatile) && (sp == PTX_SPACE_shared || sp == PTX_SPACE_none))
            f |= PTX_OPF_CONVERGE;
        break;
    case PTX_OP_activemask:   /* the lanes that execute it together */
        f |= PTX_OPF_CONVERGE;
        break;
    case PTX_OP_vote:         /* without .sync: over the lanes that execute it together */
    case PTX_OP_shfl:
        if (!ptx_has(in, PTX_MOD_sync))
            f |= PTX_OPF_CONVERGE;
        break;
    default:
        break;
    }
    return f;
}

ptx_space ptx_instr_space(const ptx_instr *in)
{
    if (ptx_has(in, PTX_MOD_global)) return PTX_SPACE_global;
    if (ptx_has(in, PTX_MOD_shared) || ptx_has(in, PTX_MOD_shared_cta)) return PTX_SPACE_shared;
    if (ptx_has(in, PTX_MOD_shared_cluster)) return PTX_SPACE_shared_cluster;
    if (ptx_has(in, PTX_MOD_local)) return PTX_SPACE_local;
    if (ptx_has(in, PTX_MOD_param)) return PTX_SPACE_param;
    if (ptx_has(in, PTX_MOD_const)) return PTX_SPACE_const;
    return PTX_SPACE_none;
}

static const char *const special_names[PTX_NSPECIALS] = {
#define PTX_SPECIAL_ROW(n) [PTX_SREG_##n] = #n,
    PTX_SPECIAL_LIST(PTX_SPECIAL_ROW)
#undef PTX_SPECIAL_ROW
};

const char *ptx_special_name(int s)
{
    return s >= 0 && s < PTX_NSPECIALS ? special_names[s] : "?";
}

/* ---- errors and lifetime ------------------------------------------------------ */

void ptx_format_error(char *err, size_t errlen, const char *file, uint32_t line, const char *tok,
                      size_t toklen, const char *reason)
{
    if (!err || errlen == 0)
        return;
    if (toklen > 60)
        toklen = 60;
    if (tok && toklen)
        snprintf(err, errlen, "%s:%u: near '%.*s': %s", file ? file : "<ptx>", line, (int)toklen,
                 tok, reason);
    else
        snprintf(err, errlen, "%s:%u: %s", file ? file : "<ptx>", line, reason);
}

void ptx_format_instr_error(char *err, size_t errlen, const char *file, const ptx_instr *in, const char *reason)
{
    const char *s = in->text;
    size_t n = 0;
    if (s[0] == '@') {   /* skip the guard: name the opcode */
        while (s[n] && s[n] != ' ' && s[n] != '\t')
            n++;
        while (s[n] == ' ' || s[n] == '\t')
            n++;
        s += n;
    }
    for (n = 0; s[n] && s[n] != ' ' && s[n] != '\t' && s[n] != ';'; n++)
        ;
    ptx_format_error(err, errlen, file, in->line, s, n, reason);
}

void ptx_module_free(ptx_module *m)
{
    if (!m)
        return;
    ptx_arena a = m->arena;   /* m itself lives in the arena */
    ptx_arena_free(&a);
}
