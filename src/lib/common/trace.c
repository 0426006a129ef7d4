/* trace.c: what the generated trace wrappers of a facade call (facade.h).
 *
 * A wrapper calls the implementation, then formats each argument into the
 * call's JSON members and ends the call, which hands it to libcuda.so.1's
 * inspector (lib_services.h: trace). Arguments pass through unchanged.
 */
#include <stdio.h>

#include "lib/common/facade.h"

void cbl_call_begin(cbl_call *c, cbl_library *lib, int id)
{
    c->lib = lib;
    c->id = id;
    c->nargs = 0;
    c->len = 0;
    c->args[0] = 0;
    const cb_lib_services *s = cbl_services();
    c->t0 = s ? s->now() : 0;
}

void cbl_call_timed(cbl_call *c)
{
    const cb_lib_services *s = cbl_services();
    c->t1 = s ? s->now() : 0;
}

/* Appends "name":"value" (value JSON-escaped). */
static void call_arg(cbl_call *c, const char *name, const char *value)
{
    size_t cap = sizeof c->args;
    if (c->len + 8 >= cap)
        return;
    int n = snprintf(c->args + c->len, cap - c->len, "%s\"%s\":\"", c->nargs ? "," : "", name);
    if (n < 0 || (size_t)n >= cap - c->len)
        return;
    c->len += (size_t)n;
    for (const char *p = value; *p && c->len + 4 < cap; p++) {
        unsigned char ch = (unsigned char)*p;
        if (ch == '"' || ch == '\\')
            c->args[c->len++] = '\\';
        c->args[c->len++] = ch < 32 ? ' ' : (char)ch;
    }
    c->args[c->len++] = '"';
    c->args[c->len] = 0;
    c->nargs++;
}

void cbl_arg_ptr(cbl_call *c, const char *name, const void *p)
{
    char s[64];
    const cb_lib_services *sv = cbl_services();
    if (!p)
        snprintf(s, sizeof s, "NULL");
    else
        snprintf(s, sizeof s, "%p %s", p, sv ? sv->mem_tag((uint64_t)(uintptr_t)p) : "");
    call_arg(c, name, s);
}

void cbl_arg_str(cbl_call *c, const char *name, const void *v)
{
    char s[128];
    snprintf(s, sizeof s, "%.120s", v ? (const char *)v : "NULL");
    call_arg(c, name, s);
}

void cbl_arg_i64(cbl_call *c, const char *name, long long v)
{
    char s[32];
    snprintf(s, sizeof s, "%lld", v);
    call_arg(c, name, s);
}

void cbl_arg_u64(cbl_call *c, const char *name, unsigned long long v)
{
    char s[32];
    snprintf(s, sizeof s, v > 0xffffffffull ? "0x%llx" : "%llu", v);
    call_arg(c, name, s);
}

void cbl_arg_char(cbl_call *c, const char *name, int v)
{
    char s[8];
    snprintf(s, sizeof s, v > 32 && v < 127 ? "%c" : "\\x%02x", v & 0xff);
    call_arg(c, name, s);
}

void cbl_arg_f64(cbl_call *c, const char *name, double v)
{
    char s[40];
    snprintf(s, sizeof s, "%g", v);
    call_arg(c, name, s);
}

void cbl_arg_enum(cbl_call *c, const char *name, long long v, int table)
{
    const char *e = cbl_enum_name(c->lib, table, v);
    char s[40];
    if (!e) {
        snprintf(s, sizeof s, "%lld", v);
        e = s;
    }
    call_arg(c, name, e);
}

void cbl_arg_opaque(cbl_call *c, const char *name, const char *type)
{
    char s[80];
    snprintf(s, sizeof s, "(%s by value)", type);
    call_arg(c, name, s);
}

void cbl_call_end(cbl_call *c, int status, int has_status)
{
    const cb_lib_services *s = cbl_services();
    if (!s)
        return;
    const char *name = has_status ? cbl_status_name(c->lib, status) : NULL;
    char unknown[32];
    if (has_status && !name) {
        snprintf(unknown, sizeof unknown, "status %d", status);
        name = unknown;
    }
    cb_lib_trace t = {
        .library = c->lib->name,
        .function = c->lib->names[c->id],
        .args = c->args,
        .status = name,
        .failed = has_status && status != 0,
        .unsupported = has_status && status == c->lib->status_unsupported,
        .t0 = c->t0,
        .t1 = c->t1,
    };
    s->trace(&t);
}
