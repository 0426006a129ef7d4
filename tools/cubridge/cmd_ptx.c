/* cmd_ptx.c: `cubridge ptx [--out FILE.c] FILE.ptx`: translates a PTX file
 * with the same pipeline the driver uses and prints the generated C (or
 * writes it to FILE.c). On failure it prints the translator's message,
 * "FILE:LINE: near 'INSTRUCTION': reason", and exits 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "codegen/translate.h"

/* Reads a whole file into a malloc'd buffer; NULL if it cannot. */
static char *ptx_read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

static int ptx_write_all(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(text, 1, len, f);
    return (fclose(f) != 0 || w != len) ? -1 : 0;
}

int cli_ptx(int argc, char **argv)
{
    cli_args a;
    int rc = cli_parse("ptx", argc, argv, &a);
    if (rc)
        return rc == 1 ? 0 : rc;
    const char *out = cli_opt(&a, "out");
    if (a.first >= argc)
        return cli_usage_error("ptx", "no PTX file given");
    if (a.first + 1 < argc)
        return cli_usage_error("ptx", "one PTX file at a time, not also '%s'", argv[a.first + 1]);
    const char *in = argv[a.first];
    size_t len = 0;
    char *text = ptx_read_all(in, &len);
    if (!text) {
        fprintf(stderr, "cubridge ptx: cannot read %s\n", in);
        return 1;
    }
    char err[1024];
    cb_translation *tr = NULL;
    rc = cb_translate_ptx(text, len, in, CB_DIALECT_C, &tr, err, sizeof err);
    free(text);
    if (rc != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    if (out) {
        rc = ptx_write_all(out, tr->source, tr->source_len);
        if (rc != 0)
            fprintf(stderr, "cubridge ptx: cannot write %s\n", out);
        else
            printf("%s: %u kernel%s, %u global%s -> %s\n", in, tr->nkernels, tr->nkernels == 1 ? "" : "s",
                   tr->nglobals, tr->nglobals == 1 ? "" : "s", out);
    } else {
        rc = fwrite(tr->source, 1, tr->source_len, stdout) == tr->source_len ? 0 : -1;
    }
    cb_translation_free(tr);
    return rc == 0 ? 0 : 1;
}
