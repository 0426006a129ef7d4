/* lexer.c: PTX text -> tokens with line numbers. Comments are dropped. */
#include "ptx/ir.h"

#include <stdlib.h>
#include <string.h>

#define PTX_MAX_IDENT 4096

typedef struct lexer {
    const char *src, *end, *p;
    const char *file;
    uint32_t line;
    ptx_tokens *out;
    size_t cap;
    char *err;
    size_t errlen;
} lexer;

static int is_ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%' ||
           c == '.';
}

static int is_ident_char(int c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

static int hex_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static int lex_fail(lexer *L, const char *at, size_t n, const char *reason)
{
    ptx_format_error(L->err, L->errlen, L->file, L->line, at, n, reason);
    return -1;
}

static int push(lexer *L, ptx_token_kind kind, const char *text, size_t len, uint64_t value)
{
    if (L->out->ntok == L->cap) {
        size_t cap = L->cap ? L->cap * 2 : 1024;
        ptx_token *t = realloc(L->out->tok, cap * sizeof(*t));
        if (!t)
            return lex_fail(L, NULL, 0, "out of memory");
        L->out->tok = t;
        L->cap = cap;
    }
    ptx_token *t = &L->out->tok[L->out->ntok++];
    t->kind = kind;
    t->text = text;
    t->len = (uint32_t)len;
    t->line = L->line;
    t->value = value;
    return 0;
}

/* Skips blanks and comments, counting lines. Returns -1 on an unterminated comment. */
static int skip_space(lexer *L)
{
    while (L->p < L->end) {
        char c = *L->p;
        if (c == '\n') {
            L->line++;
            L->p++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            L->p++;
        } else if (c == '/' && L->p + 1 < L->end && L->p[1] == '/') {
            while (L->p < L->end && *L->p != '\n')
                L->p++;
        } else if (c == '/' && L->p + 1 < L->end && L->p[1] == '*') {
            const char *start = L->p;
            L->p += 2;
            while (L->p + 1 < L->end && !(L->p[0] == '*' && L->p[1] == '/')) {
                if (*L->p == '\n')
                    L->line++;
                L->p++;
            }
            if (L->p + 1 >= L->end)
                return lex_fail(L, start, 2, "unterminated comment");
            L->p += 2;
        } else {
            break;
        }
    }
    return 0;
}

static int lex_ident(lexer *L)
{
    const char *s = L->p;
    while (L->p < L->end) {
        if (is_ident_char((unsigned char)*L->p)) {
            L->p++;
        } else if (*L->p == ':' && L->p + 2 < L->end && L->p[1] == ':' &&
                   is_ident_char((unsigned char)L->p[2])) {
            L->p += 2;   /* "shared::cta", "L2::cache_hint" */
        } else {
            break;
        }
    }
    if ((size_t)(L->p - s) > PTX_MAX_IDENT)
        return lex_fail(L, s, 20, "identifier too long");
    return push(L, PTX_TOK_IDENT, s, (size_t)(L->p - s), 0);
}

/* 0fXXXXXXXX and 0dXXXXXXXXXXXXXXXX: exact float bits. */
static int lex_float_bits(lexer *L, int digits, ptx_token_kind kind)
{
    const char *s = L->p;
    uint64_t v = 0;
    L->p += 2;
    for (int i = 0; i < digits; i++) {
        int h = L->p < L->end ? hex_value((unsigned char)*L->p) : -1;
        if (h < 0)
            return lex_fail(L, s, (size_t)(L->p - s), "bad float literal");
        v = v << 4 | (uint64_t)h;
        L->p++;
    }
    if (L->p < L->end && is_ident_char((unsigned char)*L->p))
        return lex_fail(L, s, (size_t)(L->p - s) + 1, "bad float literal");
    return push(L, kind, s, (size_t)(L->p - s), v);
}

static int lex_decimal_float(lexer *L, const char *s)
{
    char buf[128];
    const char *q = s;
    while (q < L->end && ((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' || *q == 'E' ||
                          ((*q == '+' || *q == '-') && (q[-1] == 'e' || q[-1] == 'E'))))
        q++;
    size_t n = (size_t)(q - s);
    if (n >= sizeof(buf))
        return lex_fail(L, s, n, "bad number");
    memcpy(buf, s, n);
    buf[n] = 0;
    char *endp;
    double d = strtod(buf, &endp);
    if (endp != buf + n)
        return lex_fail(L, s, n, "bad number");
    uint64_t bits;
    memcpy(&bits, &d, 8);
    L->p = q;
    return push(L, PTX_TOK_F64, s, n, bits);
}

static int lex_number(lexer *L)
{
    const char *s = L->p;
    if (L->p + 1 < L->end && s[0] == '0' && (s[1] == 'f' || s[1] == 'F'))
        return lex_float_bits(L, 8, PTX_TOK_F32);
    if (L->p + 1 < L->end && s[0] == '0' && (s[1] == 'd' || s[1] == 'D'))
        return lex_float_bits(L, 16, PTX_TOK_F64);
    /* a decimal float? */
    const char *q = s;
    while (q < L->end && *q >= '0' && *q <= '9')
        q++;
    if (q < L->end && (*q == '.' || *q == 'e' || *q == 'E'))
        return lex_decimal_float(L, s);
    unsigned base = 10;
    if (L->p + 1 < L->end && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        L->p += 2;
    } else if (L->p + 1 < L->end && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
        base = 2;
        L->p += 2;
    } else if (s[0] == '0') {
        base = 8;
    }
    uint64_t v = 0;
    int digits = 0, overflow = 0;
    while (L->p < L->end) {
        int h = hex_value((unsigned char)*L->p);
        if (h < 0 || (unsigned)h >= base)
            break;
        if (v > (UINT64_MAX - (uint64_t)h) / base)
            overflow = 1;
        v = v * base + (uint64_t)h;
        digits++;
        L->p++;
    }
    if (base != 8 && base != 10 && digits == 0)
        return lex_fail(L, s, (size_t)(L->p - s), "bad number");
    if (overflow)
        return lex_fail(L, s, (size_t)(L->p - s), "integer literal out of range");
    if (L->p < L->end && (*L->p == 'U' || *L->p == 'u'))
        L->p++;
    if (L->p < L->end && is_ident_char((unsigned char)*L->p))
        return lex_fail(L, s, (size_t)(L->p - s) + 1, "bad number");
    return push(L, PTX_TOK_INT, s, (size_t)(L->p - s), v);
}

static int lex_string(lexer *L)
{
    const char *s = L->p++;
    while (L->p < L->end && *L->p != '"' && *L->p != '\n') {
        if (*L->p == '\\' && L->p + 1 < L->end && L->p[1] != '\n')
            L->p++;
        L->p++;
    }
    if (L->p >= L->end || *L->p != '"')
        return lex_fail(L, s, 1, "unterminated string");
    L->p++;
    return push(L, PTX_TOK_STRING, s, (size_t)(L->p - s), 0);
}

static int lex_one(lexer *L)
{
    unsigned char c = (unsigned char)*L->p;
    if (c >= '0' && c <= '9')
        return lex_number(L);
    if (c == '.' && L->p + 1 < L->end && L->p[1] >= '0' && L->p[1] <= '9')
        return lex_decimal_float(L, L->p);
    if (is_ident_start(c))
        return lex_ident(L);
    if (c == '"')
        return lex_string(L);
    if (strchr(",;:()[]{}<>+-!@|=*", c) && c) {
        L->p++;
        return push(L, PTX_TOK_PUNCT, L->p - 1, 1, 0);
    }
    return lex_fail(L, L->p, 1, "unexpected character");
}

int ptx_lex(const char *src, size_t len, const char *file, ptx_tokens *out, char *err, size_t errlen)
{
    lexer L = {src, src + len, src, file, 1, out, 0, err, errlen};
    out->tok = NULL;
    out->ntok = 0;
    for (;;) {
        if (skip_space(&L) < 0)
            goto fail;
        if (L.p >= L.end || *L.p == 0)   /* a NUL ends the text (fatbin padding) */
            break;
        if (lex_one(&L) < 0)
            goto fail;
    }
    if (push(&L, PTX_TOK_EOF, L.end, 0, 0) < 0)
        goto fail;
    return 0;
fail:
    ptx_tokens_free(out);
    return -1;
}

void ptx_tokens_free(ptx_tokens *t)
{
    free(t->tok);
    t->tok = NULL;
    t->ntok = 0;
}
