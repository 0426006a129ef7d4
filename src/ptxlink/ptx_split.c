/* ptx_split.c: the top-level index of a PTX module and the modules cut from
 * it (see ptx_split.h).
 *
 * Statements are byte ranges of the text; the names they define (a
 * function's, a kernel's, a variable's) go in one hash table, name -> every
 * statement defining or declaring it (a prototype and its definition share
 * a name). Cutting a kernel walks from its statement over the identifiers
 * in each chosen statement's text and chooses what they name.
 */
#include "ptxlink/ptx_split.h"

#include <stdlib.h>
#include <string.h>

enum { ST_HEADER, ST_FILE, ST_ENTRY, ST_FUNC, ST_VAR, ST_SECTION, ST_OTHER, ST_TRUNCATED };

typedef struct stmt {
    uint32_t start, end;        /* bytes of the text */
    uint32_t line;              /* of its start, from 1: a cut keeps every line number */
    uint8_t kind;
} stmt;

typedef struct name {
    uint32_t off, len;          /* in the text */
    uint32_t stmt;
    int32_t next_same;          /* the next name entry with the same spelling, -1 */
} name;

struct cb_ptx_index {
    const char *text;
    size_t len;
    stmt *st;
    uint32_t nst, capst;
    name *nm;
    uint32_t nnm, capnm;
    int32_t *slots;             /* hash table: index of the first name entry, -1 */
    uint32_t nslots;
    uint32_t *entries;          /* statement of each kernel */
    char **entry_names;
    uint32_t nentries;
    const char *whole_only;     /* why the module must be translated whole, or NULL */
};

/* ---- scanning ------------------------------------------------------------- */

static int ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

static int ident_char(char c)
{
    return ident_start(c) || (c >= '0' && c <= '9');
}

/* A directive or name character, for matching whole words. */
static int word_char(char c)
{
    return ident_char(c) || c == '.' || c == '%';
}

static int at_word(const char *p, const char *end, const char *w)
{
    size_t n = strlen(w);
    return (size_t)(end - p) >= n && memcmp(p, w, n) == 0 && (p + n == end || !word_char(p[n]));
}

static const char *skip_space(const char *p, const char *end)
{
    for (;;) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
            p++;
        if (p + 1 < end && p[0] == '/' && p[1] == '/') {
            while (p < end && *p != '\n')
                p++;
        } else if (p + 1 < end && p[0] == '/' && p[1] == '*') {
            const char *q = p + 2;
            while (q + 1 < end && !(q[0] == '*' && q[1] == '/'))
                q++;
            p = q + 1 < end ? q + 2 : end;
        } else {
            return p;
        }
    }
}

static const char *skip_string(const char *p, const char *end)
{
    while (p < end && *p != '"')
        p += (*p == '\\' && p + 1 < end) ? 2 : 1;
    return p < end ? p + 1 : end;
}

/* The end of the statement at p, and its kind. */
static const char *statement_end(const char *p, const char *end, uint8_t *kind)
{
    if (at_word(p, end, ".version") || at_word(p, end, ".target") || at_word(p, end, ".address_size") ||
        at_word(p, end, ".file")) {
        *kind = p[1] == 'f' ? ST_FILE : ST_HEADER;
        while (p < end && *p != '\n')
            p++;
        return p;
    }
    *kind = ST_OTHER;
    int depth = 0, bodied = 0;
    while (p < end) {
        if (p + 1 < end && p[0] == '/' && (p[1] == '/' || p[1] == '*')) {
            p = skip_space(p, end);
            continue;
        }
        if (*p == '.' && depth == 0 && *kind == ST_OTHER) {
            if (at_word(p, end, ".entry"))
                *kind = ST_ENTRY, bodied = 1;
            else if (at_word(p, end, ".func"))
                *kind = ST_FUNC, bodied = 1;
            else if (at_word(p, end, ".section"))
                *kind = ST_SECTION, bodied = 1;
            else if (at_word(p, end, ".global") || at_word(p, end, ".const") || at_word(p, end, ".shared") ||
                     at_word(p, end, ".tex") || at_word(p, end, ".texref") || at_word(p, end, ".samplerref") ||
                     at_word(p, end, ".surfref") || at_word(p, end, ".local"))
                *kind = ST_VAR;
        }
        char c = *p++;
        if (c == '"') {
            p = skip_string(p, end);
        } else if (c == '{') {
            depth++;
        } else if (c == '}') {
            if (--depth == 0 && bodied)
                return p;
        } else if (c == ';' && depth == 0) {
            return p;
        }
    }
    *kind = ST_TRUNCATED;
    return end;
}

/* ---- the index ------------------------------------------------------------ */

static uint32_t hash_name(const char *s, uint32_t n)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static int grow(void **v, uint32_t *cap, uint32_t n, size_t elem)
{
    if (n < *cap)
        return 0;
    uint32_t ncap = *cap ? *cap * 2 : 256;
    void *nv = realloc(*v, (size_t)ncap * elem);
    if (!nv)
        return -1;
    *v = nv;
    *cap = ncap;
    return 0;
}

static int add_name(cb_ptx_index *ix, const char *s, uint32_t len, uint32_t st)
{
    if (grow((void **)&ix->nm, &ix->capnm, ix->nnm, sizeof *ix->nm) != 0)
        return -1;
    name *e = &ix->nm[ix->nnm];
    e->off = (uint32_t)(s - ix->text);
    e->len = len;
    e->stmt = st;
    e->next_same = -1;
    ix->nnm++;
    return 0;
}

/* The names a statement defines: a function's or kernel's (after an
 * optional return list), a variable's (identifiers before '=' or ';' outside
 * brackets and parentheses). */
static int statement_names(cb_ptx_index *ix, uint32_t si)
{
    const stmt *s = &ix->st[si];
    const char *p = ix->text + s->start, *end = ix->text + s->end;
    if (s->kind == ST_ENTRY || s->kind == ST_FUNC) {
        const char *w = s->kind == ST_ENTRY ? ".entry" : ".func";
        while (p < end && !at_word(p, end, w))
            p = *p == '"' ? skip_string(p + 1, end) : p + 1;
        p = skip_space(p + strlen(w), end);
        if (p < end && *p == '(') {
            int depth = 0;
            for (; p < end; p++) {
                if (*p == '(')
                    depth++;
                else if (*p == ')' && --depth == 0) {
                    p++;
                    break;
                }
            }
            p = skip_space(p, end);
        }
        const char *q = p;
        while (q < end && ident_char(*q))
            q++;
        return q > p ? add_name(ix, p, (uint32_t)(q - p), si) : 0;
    }
    if (s->kind != ST_VAR)
        return 0;
    int depth = 0;
    while (p < end && *p != '=' && *p != ';') {
        if (p + 1 < end && p[0] == '/' && (p[1] == '/' || p[1] == '*')) {
            p = skip_space(p, end);
            continue;
        }
        char c = *p;
        if (c == '[' || c == '(' || c == '<')
            depth++, p++;
        else if (c == ']' || c == ')' || c == '>')
            depth--, p++;
        else if (c == '.' || c == '%' || (c >= '0' && c <= '9')) {
            p++;
            while (p < end && word_char(*p))
                p++;
        } else if (ident_start(c)) {
            const char *q = p;
            while (q < end && ident_char(*q))
                q++;
            if (depth == 0 && add_name(ix, p, (uint32_t)(q - p), si) != 0)
                return -1;
            p = q;
        } else {
            p++;
        }
    }
    return 0;
}

static int32_t lookup(const cb_ptx_index *ix, const char *s, uint32_t len)
{
    uint32_t mask = ix->nslots - 1;
    for (uint32_t h = hash_name(s, len) & mask;; h = (h + 1) & mask) {
        int32_t e = ix->slots[h];
        if (e < 0)
            return -1;
        const name *n = &ix->nm[e];
        if (n->len == len && memcmp(ix->text + n->off, s, len) == 0)
            return e;
    }
}

static int build_table(cb_ptx_index *ix)
{
    uint32_t n = 64;
    while (n < ix->nnm * 2u + 1)
        n *= 2;
    ix->slots = malloc((size_t)n * sizeof *ix->slots);
    if (!ix->slots)
        return -1;
    memset(ix->slots, 0xff, (size_t)n * sizeof *ix->slots);
    ix->nslots = n;
    for (uint32_t i = 0; i < ix->nnm; i++) {
        name *e = &ix->nm[i];
        int32_t first = lookup(ix, ix->text + e->off, e->len);
        if (first >= 0) {  /* append to the chain: statements stay in text order */
            int32_t t = first;
            while (ix->nm[t].next_same >= 0)
                t = ix->nm[t].next_same;
            ix->nm[t].next_same = (int32_t)i;
            continue;
        }
        uint32_t mask = n - 1;
        uint32_t h = hash_name(ix->text + e->off, e->len) & mask;
        while (ix->slots[h] >= 0)
            h = (h + 1) & mask;
        ix->slots[h] = (int32_t)i;
    }
    return 0;
}

cb_ptx_index *cb_ptx_index_build(const char *text, size_t len)
{
    cb_ptx_index *ix = calloc(1, sizeof *ix);
    if (!ix)
        return NULL;
    ix->text = text;
    ix->len = len;
    if (len >= 0xffffffffu) {
        ix->whole_only = "the text is larger than 4 GiB";
        return ix;
    }
    const char *p = text, *end = text + len, *counted = text;
    uint32_t line = 1;
    for (;;) {
        p = skip_space(p, end);
        if (p >= end || !*p)
            break;
        uint8_t kind;
        const char *e = statement_end(p, end, &kind);
        if (grow((void **)&ix->st, &ix->capst, ix->nst, sizeof *ix->st) != 0)
            goto oom;
        for (; counted < p; counted++)
            line += *counted == '\n';
        ix->st[ix->nst] = (stmt){(uint32_t)(p - text), (uint32_t)(e - text), line, kind};
        if (kind == ST_TRUNCATED)
            ix->whole_only = "the text ends inside a statement";
        else if (at_word(p, e, ".alias") || (kind == ST_OTHER && !at_word(p, e, ".pragma") && !at_word(p, e, ".extern")))
            ix->whole_only = ".alias or a top-level statement the scan does not know";
        if (statement_names(ix, ix->nst) != 0)
            goto oom;
        ix->nst++;
        p = e;
    }
    for (uint32_t i = 0; i < ix->nst; i++)
        ix->nentries += ix->st[i].kind == ST_ENTRY;
    ix->entries = calloc(ix->nentries ? ix->nentries : 1, sizeof *ix->entries);
    ix->entry_names = calloc(ix->nentries ? ix->nentries : 1, sizeof *ix->entry_names);
    if (!ix->entries || !ix->entry_names || build_table(ix) != 0)
        goto oom;
    uint32_t k = 0;
    for (uint32_t i = 0; i < ix->nnm; i++) {
        if (ix->st[ix->nm[i].stmt].kind != ST_ENTRY)
            continue;
        ix->entries[k] = ix->nm[i].stmt;
        ix->entry_names[k] = strndup(text + ix->nm[i].off, ix->nm[i].len);
        if (!ix->entry_names[k++])
            goto oom;
    }
    if (k != ix->nentries)  /* an .entry whose name the scan could not read */
        ix->whole_only = "a kernel whose name the scan cannot read";
    ix->nentries = k;
    return ix;
oom:
    cb_ptx_index_free(ix);
    return NULL;
}

void cb_ptx_index_free(cb_ptx_index *ix)
{
    if (!ix)
        return;
    for (uint32_t i = 0; ix->entry_names && i < ix->nentries; i++)
        free(ix->entry_names[i]);
    free(ix->entry_names);
    free(ix->entries);
    free(ix->slots);
    free(ix->nm);
    free(ix->st);
    free(ix);
}

int cb_ptx_index_whole_only(const cb_ptx_index *ix, const char **why)
{
    if (why)
        *why = ix->whole_only;
    return ix->whole_only != NULL;
}

uint32_t cb_ptx_index_kernels(const cb_ptx_index *ix)
{
    return ix->nentries;
}

const char *cb_ptx_index_kernel_name(const cb_ptx_index *ix, uint32_t k)
{
    return k < ix->nentries ? ix->entry_names[k] : NULL;
}

int cb_ptx_index_find_kernel(const cb_ptx_index *ix, const char *nm)
{
    if (!nm || !ix->nslots)
        return -1;
    for (int32_t e = lookup(ix, nm, (uint32_t)strlen(nm)); e >= 0; e = ix->nm[e].next_same) {
        if (ix->st[ix->nm[e].stmt].kind != ST_ENTRY)
            continue;
        for (uint32_t k = 0; k < ix->nentries; k++)
            if (ix->entries[k] == ix->nm[e].stmt)
                return (int)k;
    }
    return -1;
}

/* ---- cutting ---------------------------------------------------------------- */

/* Writes the chosen statements (chosen[i] != 0) and every header, in text order. */
static char *emit(const cb_ptx_index *ix, const unsigned char *chosen, int with_files, size_t *len)
{
    size_t total = 2;
    for (uint32_t i = 0; i < ix->nst; i++)
        total += ix->st[i].end - ix->st[i].start + 1;
    total += ix->nst ? ix->st[ix->nst - 1].line : 0;   /* blank lines that keep line numbers */
    char *out = malloc(total);
    if (!out)
        return NULL;
    size_t n = 0;
    uint32_t line = 1;
    for (uint32_t i = 0; i < ix->nst; i++) {
        const stmt *s = &ix->st[i];
        if (!(s->kind == ST_HEADER || (with_files && s->kind == ST_FILE) || chosen[i]))
            continue;
        if (line < s->line) {
            memset(out + n, '\n', s->line - line);
            n += s->line - line;
            line = s->line;
        } else if (n) {
            out[n++] = ' ';   /* two statements on one line stay apart */
        }
        memcpy(out + n, ix->text + s->start, s->end - s->start);
        for (uint32_t b = s->start; b < s->end; b++)
            line += ix->text[b] == '\n';
        n += s->end - s->start;
    }
    out[n++] = '\n';
    out[n] = '\0';
    if (len)
        *len = n;
    return out;
}

char *cb_ptx_index_globals_text(const cb_ptx_index *ix, size_t *len)
{
    unsigned char *chosen = calloc(ix->nst ? ix->nst : 1, 1);
    if (!chosen)
        return NULL;
    for (uint32_t i = 0; i < ix->nst; i++)
        chosen[i] = ix->st[i].kind == ST_VAR;
    char *out = emit(ix, chosen, 0, len);
    free(chosen);
    return out;
}

/* Chooses every statement the name at s names; pushes the new ones. */
static void choose_named(const cb_ptx_index *ix, const char *s, uint32_t n, unsigned char *chosen, uint32_t *stack,
                         uint32_t *top)
{
    for (int32_t e = lookup(ix, s, n); e >= 0; e = ix->nm[e].next_same) {
        uint32_t st = ix->nm[e].stmt;
        if (!chosen[st]) {
            chosen[st] = 1;
            stack[(*top)++] = st;
        }
    }
}

char *cb_ptx_index_kernel_text(const cb_ptx_index *ix, uint32_t k, size_t *len)
{
    return cb_ptx_index_kernels_text(ix, &k, 1, len);
}

char *cb_ptx_index_kernels_text(const cb_ptx_index *ix, const uint32_t *ks, uint32_t n, size_t *len)
{
    for (uint32_t i = 0; i < n; i++)
        if (ks[i] >= ix->nentries)
            return NULL;
    unsigned char *chosen = calloc(ix->nst, 1);
    uint32_t *stack = malloc((size_t)ix->nst * sizeof *stack);
    if (!chosen || !stack) {
        free(chosen);
        free(stack);
        return NULL;
    }
    uint32_t top = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!chosen[ix->entries[ks[i]]]) {
            chosen[ix->entries[ks[i]]] = 1;
            stack[top++] = ix->entries[ks[i]];
        }
    }
    while (top) {
        const stmt *s = &ix->st[stack[--top]];
        const char *p = ix->text + s->start, *end = ix->text + s->end;
        while (p < end) {
            char c = *p;
            if (c == '/' && p + 1 < end && (p[1] == '/' || p[1] == '*')) {
                p = skip_space(p, end);
            } else if (c == '"') {
                p = skip_string(p + 1, end);
            } else if (c == '.' || c == '%' || (c >= '0' && c <= '9')) {
                p++;
                while (p < end && word_char(*p))
                    p++;
            } else if (ident_start(c)) {
                const char *q = p;
                while (q < end && ident_char(*q))
                    q++;
                choose_named(ix, p, (uint32_t)(q - p), chosen, stack, &top);
                p = q;
            } else {
                p++;
            }
        }
    }
    char *out = emit(ix, chosen, 1, len);
    free(chosen);
    free(stack);
    return out;
}
