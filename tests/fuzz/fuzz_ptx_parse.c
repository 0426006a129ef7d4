/* fuzz_ptx_parse.c: libFuzzer harness for the PTX lexer, parser and
 * verifier (src/ptx). The text sits in a buffer of exactly its size with no
 * terminating NUL, as cb_translate_ptx allows. Errors are fine; a crash, a
 * sanitizer report or an empty error message is a finding. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ir.h"

static void require(int cond)
{
    if (!cond)
        abort();
}

static void check_lex(const char *src, size_t len)
{
    ptx_tokens toks = {0};
    char err[256] = "";
    if (ptx_lex(src, len, "fuzz.ptx", &toks, err, sizeof err) == 0) {
        require(toks.ntok >= 1 && toks.tok[toks.ntok - 1].kind == PTX_TOK_EOF);
        ptx_tokens_free(&toks);
    } else {
        require(err[0] != 0);
    }
}

static void check_parse(const char *src, size_t len)
{
    char err[256] = "";
    ptx_module *m = ptx_parse(src, len, "fuzz.ptx", err, sizeof err);
    if (!m) {
        require(err[0] != 0);
        return;
    }
    err[0] = 0;
    if (ptx_verify(m, err, sizeof err) != 0)
        require(err[0] != 0);
    ptx_module_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *src = malloc(size ? size : 1);
    if (!src)
        return 0;
    memcpy(src, data, size);
    check_lex(src, size);
    check_parse(src, size);
    free(src);
    return 0;
}
