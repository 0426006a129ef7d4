/* elemtype.c: what type of element a kernel stores through each pointer.
 *
 * The translation's C source carries every PTX instruction of the kernel in
 * a comment ("/" "* 42: st.global.f32 [%rd9], %f4 *" "/") followed by its C, and
 * each function starts with "/" "* line N: .entry NAME *" "/". From that text
 * a small forward data flow finds, for each register, the kernel parameter
 * (or module global) its address derives from:
 *   ld.param          tags its destination with the parameter whose bytes it
 *                     reads (the byte offset is in the generated C)
 *   mov/cvta/add/sub/mad/selp/and/or/cvt   pass a source's tag on
 *   a global's name   tags with that global
 * and each st/red/atom through a tagged address gives the tag its element
 * type: the store's type, or for untyped .bN stores the type of the value
 * register (so f16 values stored with st.b16 are f16). The flow is repeated
 * until nothing changes (loops). Stores through pointers loaded from memory
 * are not followed; their allocations are compared byte for byte.
 */
#include <stdlib.h>
#include <string.h>

#include "inspect/inspect_internal.h"

typedef struct reg_fact {
    char name[24];
    int tag;                 /* -1: none */
    cb_inspect_elem vtype;   /* value type of the register, BYTES if unknown */
    int tainted;             /* derives from an atomic's return value (order-dependent) */
} reg_fact;

typedef struct flow {
    reg_fact *regs;
    size_t nregs, cap;
    int changed;
} flow;

static reg_fact *reg_get(flow *fl, const char *name, size_t n, int create)
{
    if (n == 0 || n >= sizeof fl->regs[0].name)
        return NULL;
    for (size_t i = 0; i < fl->nregs; i++)
        if (strncmp(fl->regs[i].name, name, n) == 0 && fl->regs[i].name[n] == 0)
            return &fl->regs[i];
    if (!create)
        return NULL;
    if (fl->nregs == fl->cap) {
        size_t cap = fl->cap ? fl->cap * 2 : 64;
        reg_fact *r = realloc(fl->regs, cap * sizeof *r);
        if (!r)
            return NULL;
        fl->regs = r;
        fl->cap = cap;
    }
    reg_fact *r = &fl->regs[fl->nregs++];
    memcpy(r->name, name, n);
    r->name[n] = 0;
    r->tag = -1;
    r->vtype = CB_ELEM_BYTES;
    r->tainted = 0;
    return r;
}

/* The type named by one opcode part, and its width; BYTES/0 if none. */
static cb_inspect_elem part_type(const char *p, size_t n, unsigned *width)
{
    static const struct { const char *s; cb_inspect_elem t; unsigned w; } types[] = {
        {"f64", CB_ELEM_F64, 8}, {"f32", CB_ELEM_F32, 4}, {"f16", CB_ELEM_F16, 2}, {"f16x2", CB_ELEM_F16, 2},
        {"bf16", CB_ELEM_BF16, 2}, {"bf16x2", CB_ELEM_BF16, 2}, {"u8", CB_ELEM_INT, 1}, {"s8", CB_ELEM_INT, 1},
        {"b8", CB_ELEM_INT, 1}, {"u16", CB_ELEM_INT, 2}, {"s16", CB_ELEM_INT, 2}, {"b16", CB_ELEM_INT, 2},
        {"u32", CB_ELEM_INT, 4}, {"s32", CB_ELEM_INT, 4}, {"b32", CB_ELEM_INT, 4}, {"u64", CB_ELEM_INT, 8},
        {"s64", CB_ELEM_INT, 8}, {"b64", CB_ELEM_INT, 8},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        if (strlen(types[i].s) == n && strncmp(types[i].s, p, n) == 0) {
            *width = types[i].w;
            return types[i].t;
        }
    }
    *width = 0;
    return CB_ELEM_BYTES;
}

typedef struct instr {
    char op[16];
    char parts[8][8];        /* opcode split at '.' (after the op) */
    int nparts;
    const char *operands[8];
    size_t oplen[8];
    int noperands;
} instr;

static void parse_instr(const char *s, size_t n, instr *in)
{
    memset(in, 0, sizeof *in);
    size_t i = 0;
    while (i < n && s[i] == ' ')
        i++;
    if (i < n && s[i] == '@') {
        while (i < n && s[i] != ' ')
            i++;
        while (i < n && s[i] == ' ')
            i++;
    }
    size_t start = i;
    while (i < n && s[i] != ' ' && s[i] != ';')
        i++;
    /* opcode parts */
    size_t p = start, k = 0;
    while (p < i) {
        size_t q = p;
        while (q < i && s[q] != '.')
            q++;
        if (k == 0) {
            size_t len = q - p < sizeof in->op - 1 ? q - p : sizeof in->op - 1;
            memcpy(in->op, s + p, len);
        } else if (in->nparts < 8) {
            size_t len = q - p < 7 ? q - p : 7;
            memcpy(in->parts[in->nparts], s + p, len);
            in->nparts++;
        }
        k++;
        p = q + 1;
    }
    /* operands, split at top-level commas */
    int depth = 0;
    size_t os = i;
    for (; i <= n; i++) {
        char c = i < n ? s[i] : ';';
        if (c == '[' || c == '{' || c == '(')
            depth++;
        else if (c == ']' || c == '}' || c == ')')
            depth--;
        if ((c == ',' && depth == 0) || c == ';' || i == n) {
            size_t a = os, b = i;
            while (a < b && s[a] == ' ')
                a++;
            while (b > a && s[b - 1] == ' ')
                b--;
            if (b > a && in->noperands < 8) {
                in->operands[in->noperands] = s + a;
                in->oplen[in->noperands++] = b - a;
            }
            os = i + 1;
            if (c == ';')
                break;
        }
    }
}

static int has_part(const instr *in, const char *p)
{
    for (int i = 0; i < in->nparts; i++)
        if (strcmp(in->parts[i], p) == 0)
            return 1;
    return 0;
}

/* The last type among the parts (the stored type), or the first (dest type). */
static cb_inspect_elem instr_type(const instr *in, int last, unsigned *width)
{
    cb_inspect_elem found = CB_ELEM_BYTES;
    *width = 0;
    for (int i = 0; i < in->nparts; i++) {
        unsigned w;
        cb_inspect_elem t = part_type(in->parts[i], strlen(in->parts[i]), &w);
        if (w) {
            found = t;
            *width = w;
            if (!last)
                break;
        }
    }
    return found;
}

/* The first register name in text (e.g. "%rd9" in "[%rd9+4]"), its length. */
static const char *first_reg(const char *s, size_t n, size_t *len)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '%') {
            size_t j = i + 1;
            while (j < n && (s[j] == '_' || s[j] == '$' || (s[j] >= '0' && s[j] <= '9') ||
                             (s[j] >= 'a' && s[j] <= 'z') || (s[j] >= 'A' && s[j] <= 'Z')))
                j++;
            *len = j - i;
            return s + i;
        }
    }
    return NULL;
}

/* The global named at the start of an address or operand ("gname+8"), or -1. */
static int global_at(const cb_translation *tr, const char *s, size_t n)
{
    while (n && (*s == '[' || *s == ' '))
        s++, n--;
    size_t len = 0;
    while (len < n && s[len] != '+' && s[len] != ']' && s[len] != ' ')
        len++;
    for (uint32_t g = 0; g < tr->nglobals; g++)
        if (strlen(tr->globals[g].name) == len && strncmp(tr->globals[g].name, s, len) == 0)
            return (int)g;
    return -1;
}

/* 1 if some register named in s derives from an atomic's return value. */
static int any_tainted(flow *fl, const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t len;
        const char *r = first_reg(s + i, n - i, &len);
        if (!r)
            return 0;
        reg_fact *f = reg_get(fl, r, len, 0);
        if (f && f->tainted)
            return 1;
        i = (size_t)(r - s) + len;
    }
    return 0;
}

/* The tag of an address operand: its register's tag or its global's. */
static int address_tag(flow *fl, const cb_translation *tr, uint32_t nparams, const char *s, size_t n)
{
    size_t len;
    const char *r = first_reg(s, n, &len);
    if (r) {
        reg_fact *f = reg_get(fl, r, len, 0);
        return f ? f->tag : -1;
    }
    int g = global_at(tr, s, n);
    return g >= 0 && nparams + (uint32_t)g < CBI_MAX_TAGS ? (int)(nparams + (uint32_t)g) : -1;
}

static void note_store(cbi_store_types *out, int tag, cb_inspect_elem t, unsigned w, int atomic_float)
{
    if (tag < 0 || (uint32_t)tag >= out->ntags)
        return;
    if (!out->stored[tag]) {
        out->stored[tag] = 1;
        out->type[tag] = t;
        out->width[tag] = (uint8_t)w;
    } else if (out->type[tag] != t || out->width[tag] != w) {
        out->type[tag] = CB_ELEM_BYTES;   /* mixed: compare bytes */
        out->width[tag] = 1;
    }
    if (atomic_float)
        out->atomic_float[tag] = 1;
}

/* The parameter whose bytes include offset, or -1. */
static int param_at(const cb_kernel_info *k, unsigned long long off)
{
    for (uint32_t i = 0; i < k->nparams; i++)
        if (off >= k->params[i].offset && off < (unsigned long long)k->params[i].offset + k->params[i].size)
            return (int)i;
    return -1;
}

static void set_tag(flow *fl, const char *s, size_t n, int tag, cb_inspect_elem vt, int taint)
{
    /* every register in s (one, or a {vector}) */
    for (size_t i = 0; i < n;) {
        size_t len;
        const char *r = first_reg(s + i, n - i, &len);
        if (!r)
            break;
        reg_fact *f = reg_get(fl, r, len, 1);
        if (f) {
            if (tag >= 0 && f->tag != tag) {
                f->tag = tag;
                fl->changed = 1;
            }
            if (vt != CB_ELEM_BYTES && f->vtype != vt) {
                f->vtype = vt;
                fl->changed = 1;
            }
            if (taint && !f->tainted) {
                f->tainted = 1;
                fl->changed = 1;
            }
        }
        i = (size_t)(r - s) + len;
    }
}

static void flow_instr(flow *fl, const cb_translation *tr, uint32_t k, const instr *in, const char *code,
                       size_t codelen, cbi_store_types *out)
{
    const cb_kernel_info *ki = &tr->kernels[k];
    unsigned w;
    if (in->noperands == 0)
        return;
    int is_st = strcmp(in->op, "st") == 0, is_red = strcmp(in->op, "red") == 0, is_atom = strcmp(in->op, "atom") == 0;
    if (is_st || is_red || is_atom) {
        if (has_part(in, "local") || has_part(in, "shared") || has_part(in, "param"))
            return;
        int ai = is_atom ? 1 : 0;
        if (in->noperands <= ai)
            return;
        cb_inspect_elem t = instr_type(in, 1, &w);
        int tag = address_tag(fl, tr, ki->nparams, in->operands[ai], in->oplen[ai]);
        if (t == CB_ELEM_INT && in->noperands > ai + 1) {
            size_t len;
            const char *v = first_reg(in->operands[ai + 1], in->oplen[ai + 1], &len);
            reg_fact *f = v ? reg_get(fl, v, len, 0) : NULL;
            if (f && f->vtype != CB_ELEM_BYTES && f->vtype != CB_ELEM_INT) {
                t = f->vtype;
                w = (unsigned)cbi_elem_size(t);
            }
        }
        int af = (is_red || is_atom) && t != CB_ELEM_INT && t != CB_ELEM_BYTES;
        note_store(out, tag, t, w, af);
        int od = (is_atom && (has_part(in, "cas") || has_part(in, "exch"))) ||
                 (is_st && in->noperands > 1 && any_tainted(fl, in->operands[1], in->oplen[1]));
        if (od && tag >= 0 && (uint32_t)tag < out->ntags)
            out->order_dependent[tag] = 1;
        if (is_atom)
            set_tag(fl, in->operands[0], in->oplen[0], -1, t, 1);
        return;
    }
    if (strcmp(in->op, "ld") == 0 || strcmp(in->op, "ldu") == 0) {
        cb_inspect_elem t = instr_type(in, 1, &w);
        int tag = -1;
        if (has_part(in, "param")) {
            /* t->blk->params, or a block entry's cbB_pbuf (src/codegen/c/block.c) */
            const char *p = code ? strstr(code, "t->blk->params + ") : NULL;
            size_t skip = 17;
            if (!p || (size_t)(p - code) >= codelen) {
                p = code ? strstr(code, "cbB_pbuf + ") : NULL;
                skip = 11;
            }
            if (p && (size_t)(p - code) < codelen) {
                unsigned long long a = strtoull(p + skip, (char **)&p, 10);
                long long b = 0;
                if (strncmp(p, " + ", 3) == 0)
                    b = strtoll(p + 3, NULL, 10);
                tag = param_at(ki, a + (unsigned long long)b);
            }
        }
        set_tag(fl, in->operands[0], in->oplen[0], tag, t == CB_ELEM_INT ? CB_ELEM_BYTES : t, 0);
        return;
    }
    static const char *const passes[] = {"mov", "cvta", "add", "sub", "mad", "selp", "and", "or", "cvt"};
    int pass = 0;
    for (size_t i = 0; i < sizeof passes / sizeof passes[0]; i++)
        pass |= strcmp(in->op, passes[i]) == 0;
    cb_inspect_elem dt = instr_type(in, 0, &w);
    int tag = -1;
    cb_inspect_elem src_vt = CB_ELEM_BYTES;
    int taint = 0;
    for (int i = 1; i < in->noperands; i++) {
        taint |= any_tainted(fl, in->operands[i], in->oplen[i]);
        size_t len;
        const char *r = first_reg(in->operands[i], in->oplen[i], &len);
        if (r) {
            reg_fact *f = reg_get(fl, r, len, 0);
            if (f && f->tag >= 0 && tag < 0 && pass)
                tag = f->tag;
            if (f && src_vt == CB_ELEM_BYTES)
                src_vt = f->vtype;
        } else if (pass && tag < 0) {
            int g = global_at(tr, in->operands[i], in->oplen[i]);
            if (g >= 0 && ki->nparams + (uint32_t)g < CBI_MAX_TAGS)
                tag = (int)(ki->nparams + (uint32_t)g);
        }
    }
    cb_inspect_elem vt = dt == CB_ELEM_INT ? (strcmp(in->op, "mov") == 0 ? src_vt : CB_ELEM_BYTES) : dt;
    set_tag(fl, in->operands[0], in->oplen[0], tag, vt, taint);
}

/* Finds the body of kernel name in the source: [*begin, *end). */
static int find_body(const char *src, const char *name, const char **begin, const char **end)
{
    char key[400];
    snprintf(key, sizeof key, ": .entry %s */", name);
    const char *p = strstr(src, key);
    if (!p)
        return -1;
    *begin = p + strlen(key);
    const char *q = strstr(*begin, "\n/* line ");
    *end = q ? q : src + strlen(src);
    return 0;
}

static int calls_side_effect(const char *s, size_t n)
{
    static const char *const names[] = {"vprintf", "malloc", "free"};
    for (size_t i = 0; i < 3; i++) {
        size_t len = strlen(names[i]);
        for (const char *p = s; p + len <= s + n; p++)
            if (strncmp(p, names[i], len) == 0 && p > s && (p[-1] == ' ' || p[-1] == ',') &&
                (p[len] == ',' || p[len] == ' ' || p[len] == ';'))
                return (int)i + 1;
    }
    return 0;
}

void cbi_store_types_of(const cb_translation *tr, uint32_t k, cbi_store_types *out)
{
    memset(out, 0, sizeof *out);
    const cb_kernel_info *ki = &tr->kernels[k];
    uint32_t n = ki->nparams + tr->nglobals;
    out->ntags = n < CBI_MAX_TAGS ? n : CBI_MAX_TAGS;
    const char *begin, *end;
    if (!tr->source || find_body(tr->source, ki->name, &begin, &end) != 0)
        return;
    flow fl = {0};
    int has_call = 0;
    for (int round = 0; round < 4; round++) {
        fl.changed = 0;
        for (const char *p = begin; p && p < end;) {
            const char *c = strstr(p, "    /* ");
            if (!c || c >= end)
                break;
            const char *colon = c + 7;
            while (colon < end && *colon >= '0' && *colon <= '9')
                colon++;
            const char *close = strstr(c, " */");
            if (*colon != ':' || !close || close >= end) {
                p = c + 7;
                continue;
            }
            const char *text = colon + 1;
            const char *code = close + 3;
            const char *next = strstr(code, "    /* ");
            size_t codelen = (size_t)((next && next < end ? next : end) - code);
            instr in;
            parse_instr(text, (size_t)(close - text), &in);
            if (strcmp(in.op, "call") == 0 && round == 0) {
                int se = calls_side_effect(text, (size_t)(close - text));
                if (se && !out->side_effects) {
                    out->side_effects = 1;
                    snprintf(out->side_effect, sizeof out->side_effect, "%s", se == 1 ? "printf" : "malloc/free");
                }
                has_call = 1;
            }
            flow_instr(&fl, tr, k, &in, code, codelen, out);
            p = code;
        }
        if (!fl.changed)
            break;
    }
    free(fl.regs);
    /* A callee might print or allocate: look through the module's calls. */
    if (has_call && !out->side_effects) {
        int se = calls_side_effect(tr->source, tr->source_len ? tr->source_len : strlen(tr->source));
        if (se) {
            out->side_effects = 1;
            snprintf(out->side_effect, sizeof out->side_effect, "%s (in a callee)", se == 1 ? "printf" : "malloc/free");
        }
    }
}
