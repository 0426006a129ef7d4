/* fuzz_translate.c: libFuzzer harness for the whole translation, PTX -> IR
 * -> C and -> OpenCL C (cb_translate_ptx, both dialects), without compiling
 * or running the result. The
 * text sits in a buffer of exactly its size with no terminating NUL. On
 * success the translation must be self-consistent; on failure err must say
 * why. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/translate.h"

static void require(int cond)
{
    if (!cond)
        abort();
}

static void check_translation(const cb_translation *t)
{
    require(t->source != NULL && strlen(t->source) == t->source_len);
    for (uint32_t i = 0; i < t->nkernels; i++) {
        const cb_kernel_info *k = &t->kernels[i];
        require(k->name && k->symbol);
        require(cb_translation_find_kernel(t, k->name) >= 0);
        for (uint32_t p = 0; p < k->nparams; p++)
            require(k->params[p].align >= 1 && k->params[p].offset + k->params[p].size <= k->param_bytes);
        /* a refused kernel (OpenCL only) has its reason and is not in the program; the others are */
        require(!k->refused || (t->dialect == CB_DIALECT_OPENCL && k->refused[0] != 0));
        if (t->dialect == CB_DIALECT_OPENCL) {
            char sig[64];
            snprintf(sig, sizeof sig, "void %.40s(", k->symbol);
            require((strstr(t->source, sig) != NULL) == (k->refused == NULL));
        }
    }
    for (uint32_t i = 0; i < t->nglobals; i++)
        require(t->globals[i].name != NULL);
    for (uint32_t i = 0; i < t->nrelocs; i++)
        require(t->relocs[i].global < t->nglobals);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *src = malloc(size ? size : 1);
    if (!src)
        return 0;
    memcpy(src, data, size);
    /* every dialect: C, and OpenCL C (which may also refuse with -2, "not supported") */
    static const cb_dialect dialects[] = {CB_DIALECT_C, CB_DIALECT_OPENCL};
    for (size_t d = 0; d < sizeof dialects / sizeof dialects[0]; d++) {
        cb_translation *t = NULL;
        char err[256] = "";
        int rc = cb_translate_ptx(src, size, "fuzz.ptx", dialects[d], &t, err, sizeof err);
        if (rc == 0) {
            require(t != NULL && t->dialect == dialects[d]);
            check_translation(t);
            cb_translation_free(t);
        } else {
            require(t == NULL && err[0] != 0 && (rc == -1 || (rc == -2 && dialects[d] == CB_DIALECT_OPENCL)));
        }
    }
    free(src);
    return 0;
}
