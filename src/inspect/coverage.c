/* coverage.c: the dynamic symbols of an ELF shared object, and which of
 * cubridge's libraries stands in for which of NVIDIA's.
 *
 * An export that cubridge only stubs is a weak symbol (src/driver/stubs.c
 * gives every export a weak NOT_SUPPORTED definition; a real one is strong),
 * so the binding in the dynamic symbol table says implemented or not. In
 * libcuda.so.1 the exported cuX is a forwarder (src/driver/forward.c) and
 * the binding that says it is that of cb_impl_cuX, also exported: such a
 * symbol is visited first, under the name cuX. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "inspect/coverage.h"
#include "platform/fs.h"

const char *cbi_cov_soname(const char *library)
{
    static const char *const map[][2] = {
        {"driver", "libcuda.so.1"},         {"cudart", "libcuda.so.1"},         {"cublas", "libcublas.so.13"},
        {"cublasLt", "libcublasLt.so.13"},  {"cudnn", "libcudnn.so.9"},         {"curand", "libcurand.so.10"},
        {"cufft", "libcufft.so.12"},        {"cusparse", "libcusparse.so.12"},  {"cusolver", "libcusolver.so.12"},
        {"nvrtc", "libnvrtc.so.13"},        {"nvJitLink", "libnvJitLink.so.13"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(map[i][0], library) == 0)
            return map[i][1];
    return NULL;
}

static uint64_t rd(const unsigned char *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

int cbi_elf_dynamic_symbols(const char *path, void (*visit)(const char *name, int weak, void *ctx), void *ctx)
{
    unsigned char *d = NULL;
    size_t len = 0;
    if (cb_fs_read_file(path, &d, &len) != 0)
        return -1;
    int rc = -1;
    if (len < 64 || memcmp(d, "\177ELF", 4) != 0 || d[4] != 2 || d[5] != 1)
        goto out;
    uint64_t shoff = rd(d + 40, 8);
    uint64_t shentsize = rd(d + 58, 2), shnum = rd(d + 60, 2);
    if (shentsize < 64 || shoff > len || shnum > (len - shoff) / shentsize)
        goto out;
    for (uint64_t i = 0; i < shnum; i++) {
        const unsigned char *sh = d + shoff + i * shentsize;
        if (rd(sh + 4, 4) != 11)   /* SHT_DYNSYM */
            continue;
        uint64_t off = rd(sh + 24, 8), size = rd(sh + 32, 8), link = rd(sh + 40, 4), entsize = rd(sh + 56, 8);
        if (link >= shnum || entsize < 24 || off > len || size > len - off)
            goto out;
        const unsigned char *strsh = d + shoff + link * shentsize;
        uint64_t stroff = rd(strsh + 24, 8), strsize = rd(strsh + 32, 8);
        if (stroff > len || strsize > len - stroff)
            goto out;
        /* pass 0: the cb_impl_ names (as the export they implement), pass 1: the rest */
        for (uint64_t k = 1; k < 2 * (size / entsize); k++) {
            int renamed_pass = k < size / entsize;
            const unsigned char *s = d + off + (k % (size / entsize)) * entsize;
            uint64_t name = rd(s, 4);
            unsigned info = s[4], bind = info >> 4, type = info & 15;
            uint64_t shndx = rd(s + 6, 2);
            if (shndx == 0 || name >= strsize || (type != 2 && type != 1 && type != 10))
                continue;   /* undefined, or not a function/object */
            const char *nm = (const char *)d + stroff + name;
            if (!memchr(nm, 0, strsize - name))
                continue;
            int renamed = strncmp(nm, "cb_impl_", 8) == 0;
            if (renamed_pass == renamed)
                visit(renamed ? nm + 8 : nm, bind == 2, ctx);
        }
        rc = 0;
    }
out:
    free(d);
    return rc;
}
