/* ptx_merge.c: joins PTX texts into one (see ptx_merge.h).
 *
 * Works on top-level statements, not on a parse: a statement is a header
 * directive (one line), a directive ending in ';' at brace depth 0, or a
 * function with its { body }. Comments and strings are skipped while
 * scanning. Nothing here needs to understand instructions.
 */
#include "ptxlink/ptx_merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum item_kind { ITEM_HEADER, ITEM_FUNC, ITEM_VAR, ITEM_OTHER } item_kind;

typedef struct item {
    const char *text;
    size_t len;
    item_kind kind;
    int is_extern;       /* .extern */
    int is_weak;         /* .weak or .common: may be defined more than once */
    int has_body;        /* a function with { body }, or any variable that is not .extern */
    char linkage[16];    /* ".visible", ".weak", ".common" or "" */
    char name[256];
} item;

typedef struct items {
    item *v;
    size_t n, cap;
} items;

static int is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
           c == '%' || c == '.';
}

static int starts_word(const char *s, const char *end, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(end - s) >= n && memcmp(s, word, n) == 0 && (s + n == end || !is_ident_char(s[n]));
}

/* Skips spaces and comments. */
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

/* The end of the statement starting at p. */
static const char *statement_end(const char *p, const char *end)
{
    if (starts_word(p, end, ".version") || starts_word(p, end, ".target") || starts_word(p, end, ".address_size") ||
        starts_word(p, end, ".file")) {
        while (p < end && *p != '\n')
            p++;
        return p;
    }
    int depth = 0;
    while (p < end) {
        if (p + 1 < end && p[0] == '/' && (p[1] == '/' || p[1] == '*')) {
            p = skip_space(p, end);
            continue;
        }
        char c = *p++;
        if (c == '"') {
            while (p < end && *p != '"')
                p += (*p == '\\' && p + 1 < end) ? 2 : 1;
            if (p < end)
                p++;
        } else if (c == '{') {
            depth++;
        } else if (c == '}') {
            if (--depth == 0) {
                const char *q = skip_space(p, end);
                return q < end && *q == ';' ? q + 1 : p;
            }
        } else if (c == ';' && depth == 0) {
            return p;
        }
    }
    return end;
}

/* Copies the identifier at p into out. */
static void read_ident(const char *p, const char *end, char *out, size_t cap)
{
    size_t n = 0;
    while (p < end && is_ident_char(*p) && n + 1 < cap)
        out[n++] = *p++;
    out[n] = '\0';
}

/* Fills kind, linkage and name of a statement. */
static void classify(item *it)
{
    const char *p = it->text, *end = it->text + it->len;
    it->kind = ITEM_OTHER;
    if (starts_word(p, end, ".version") || starts_word(p, end, ".target") || starts_word(p, end, ".address_size")) {
        it->kind = ITEM_HEADER;
        return;
    }
    for (;;) {
        p = skip_space(p, end);
        if (starts_word(p, end, ".extern")) {
            it->is_extern = 1;
            p += 7;
        } else if (starts_word(p, end, ".visible") || starts_word(p, end, ".weak") || starts_word(p, end, ".common")) {
            size_t n = p[1] == 'v' ? 8 : p[1] == 'w' ? 5 : 7;
            memcpy(it->linkage, p, n);
            it->linkage[n] = '\0';
            it->is_weak = p[1] != 'v';
            p += n;
        } else {
            break;
        }
    }
    const char *brace = memchr(it->text, '{', it->len);
    if (starts_word(p, end, ".func") || starts_word(p, end, ".entry")) {
        it->kind = ITEM_FUNC;
        int is_func = p[1] == 'f';
        p = skip_space(p + (is_func ? 5 : 6), end);
        if (is_func && p < end && *p == '(') {
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
        read_ident(p, end, it->name, sizeof it->name);
        it->has_body = brace != NULL;
        return;
    }
    if (starts_word(p, end, ".global") || starts_word(p, end, ".const") || starts_word(p, end, ".shared")) {
        it->kind = ITEM_VAR;
        const char *stop = p;
        while (stop < end && *stop != '[' && *stop != '=' && *stop != ';')
            stop++;
        const char *q = stop;
        while (q > p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\n' || q[-1] == '\r'))
            q--;
        const char *s = q;
        while (s > p && is_ident_char(s[-1]))
            s--;
        read_ident(s, q, it->name, sizeof it->name);
        it->has_body = !it->is_extern;
    }
}

static int items_push(items *list, const item *it)
{
    if (list->n == list->cap) {
        size_t ncap = list->cap ? list->cap * 2 : 64;
        item *nv = realloc(list->v, ncap * sizeof *nv);
        if (!nv)
            return -1;
        list->v = nv;
        list->cap = ncap;
    }
    list->v[list->n++] = *it;
    return 0;
}

static int split_statements(const char *text, items *list)
{
    const char *p = text, *end = text + strlen(text);
    for (;;) {
        p = skip_space(p, end);
        if (p >= end)
            return 0;
        const char *e = statement_end(p, end);
        item it;
        memset(&it, 0, sizeof it);
        it.text = p;
        it.len = (size_t)(e - p);
        classify(&it);
        if (items_push(list, &it) != 0)
            return -1;
        p = e;
    }
}

/* The defining statement of name, or NULL. */
static const item *find_definition(const items *all, const char *name)
{
    for (size_t i = 0; i < all->n; i++)
        if (all->v[i].has_body && !all->v[i].is_extern && strcmp(all->v[i].name, name) == 0)
            return &all->v[i];
    return NULL;
}

/* A growing output buffer. */
typedef struct outbuf {
    char *s;
    size_t len, cap;
    int failed;
} outbuf;

static void out_add(outbuf *o, const char *s, size_t n)
{
    if (o->failed)
        return;
    if (o->len + n + 1 > o->cap) {
        size_t ncap = (o->len + n + 1) * 2;
        char *ns = realloc(o->s, ncap);
        if (!ns) {
            o->failed = 1;
            return;
        }
        o->s = ns;
        o->cap = ncap;
    }
    memcpy(o->s + o->len, s, n);
    o->len += n;
    o->s[o->len] = '\0';
}

static void out_str(outbuf *o, const char *s)
{
    out_add(o, s, strlen(s));
}

/* The highest ".version X.Y" and ".target sm_NN" of all headers. */
static void merged_header(const items *all, outbuf *o)
{
    int vmaj = 0, vmin = 0, sm = 0;
    char target[128] = "";
    for (size_t i = 0; i < all->n; i++) {
        const item *it = &all->v[i];
        if (it->kind != ITEM_HEADER)
            continue;
        int a = 0, b = 0;
        if (sscanf(it->text, ".version %d.%d", &a, &b) == 2 && (a > vmaj || (a == vmaj && b > vmin))) {
            vmaj = a;
            vmin = b;
        }
        char t[128];
        if (sscanf(it->text, ".target %127[^\n]", t) == 1) {
            int s = 0;
            sscanf(t, "sm_%d", &s);
            if (!target[0] || s > sm) {
                sm = s;
                snprintf(target, sizeof target, "%s", t);
            }
        }
    }
    char line[256];
    snprintf(line, sizeof line, ".version %d.%d\n.target %s\n.address_size 64\n\n", vmaj ? vmaj : 7, vmin,
             target[0] ? target : "sm_52");
    out_str(o, line);
}

/* 1 if an earlier emitted statement has the same kind and name. */
static int already_emitted(const items *all, size_t upto, const item *it, const unsigned char *emitted)
{
    for (size_t i = 0; i < upto; i++)
        if (emitted[i] && all->v[i].kind == it->kind && strcmp(all->v[i].name, it->name) == 0)
            return 1;
    return 0;
}

/* Emits one statement, turning an .extern function declaration of something
 * defined in the merge into a forward declaration with its linkage. */
static void emit_statement(const items *all, size_t i, outbuf *o, unsigned char *emitted)
{
    const item *it = &all->v[i];
    const item *def = it->name[0] ? find_definition(all, it->name) : NULL;
    if (it->is_extern && def) {
        if (it->kind == ITEM_VAR || already_emitted(all, i, it, emitted))
            return;
        const char *p = strstr(it->text, ".extern");
        out_add(o, it->text, (size_t)(p - it->text));
        out_str(o, def->linkage);
        out_add(o, p + 7, it->len - (size_t)(p + 7 - it->text));
        out_str(o, "\n\n");
        emitted[i] = 1;
        return;
    }
    if (!it->has_body && it->name[0] && already_emitted(all, i, it, emitted))
        return; /* a repeated declaration */
    if (it->has_body && it->is_weak && already_emitted(all, i, it, emitted)) {
        for (size_t j = 0; j < i; j++)
            if (emitted[j] && all->v[j].has_body && strcmp(all->v[j].name, it->name) == 0)
                return; /* a second definition of a weak symbol */
    }
    out_add(o, it->text, it->len);
    out_str(o, "\n\n");
    emitted[i] = 1;
}

/* Two non-weak definitions of one name cannot be joined. */
static int find_clash(const items *all, char *err, size_t errlen)
{
    for (size_t i = 0; i < all->n; i++) {
        const item *a = &all->v[i];
        if (!a->has_body || a->is_weak || !a->name[0] || a->kind == ITEM_OTHER)
            continue;
        for (size_t j = i + 1; j < all->n; j++) {
            const item *b = &all->v[j];
            if (b->has_body && !b->is_weak && b->kind == a->kind && strcmp(a->name, b->name) == 0) {
                snprintf(err, errlen, "PTX link: '%s' is defined in more than one module", a->name);
                return -1;
            }
        }
    }
    return 0;
}

int cb_ptx_merge(const char *const *texts, size_t n, char **out, size_t *len, char *err, size_t errlen)
{
    items all = {0};
    for (size_t m = 0; m < n; m++) {
        if (split_statements(texts[m], &all) != 0) {
            free(all.v);
            snprintf(err, errlen, "PTX link: out of memory");
            return -1;
        }
    }
    if (find_clash(&all, err, errlen) != 0) {
        free(all.v);
        return -1;
    }
    unsigned char *emitted = calloc(all.n ? all.n : 1, 1);
    outbuf o = {0};
    if (!emitted)
        o.failed = 1;
    merged_header(&all, &o);
    /* variables first (functions refer to them), then everything else */
    for (int pass = 0; pass < 2 && !o.failed; pass++)
        for (size_t i = 0; i < all.n; i++)
            if (all.v[i].kind != ITEM_HEADER && (all.v[i].kind == ITEM_VAR) == (pass == 0))
                emit_statement(&all, i, &o, emitted);
    free(emitted);
    free(all.v);
    if (o.failed) {
        free(o.s);
        snprintf(err, errlen, "PTX link: out of memory");
        return -1;
    }
    *out = o.s;
    *len = o.len;
    return 0;
}
