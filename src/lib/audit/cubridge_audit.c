/* cubridge_audit.c: the LD_AUDIT module that makes cubridge's libraries win.
 *
 * `cubridge run` puts cubridge's lib directory first on LD_LIBRARY_PATH, but
 * a program or a wheel can pin NVIDIA's libraries past it: RPATH (searched
 * before LD_LIBRARY_PATH), RUNPATH in a dependency's own entry (pip's
 * nvidia-cublas-cu12 loaded by PyTorch), or a dlopen by absolute path
 * (cuda-pathfinder, CuPy). glibc asks an audit module about every name it is
 * about to look up (la_objsearch, first with LA_SER_ORIG for the name as
 * asked); this one answers, for any name whose last path component is the
 * name of a file in cubridge's lib directory (libcublas.so.12,
 * libcublas.so.13, libnvJitLink.so.13 ...), with that file; libcuda.so.1
 * excepted (below). Every other name
 * passes unchanged, so nothing is redirected that cubridge does not ship.
 *
 * The lib directory is $CUBRIDGE_LIB_DIR (which `cubridge run` sets), else
 * the directory of this module. CUBRIDGE_AUDIT_LOG=1 prints each redirect
 * on stderr. docs/libraries.md, "Our libraries win".
 *
 * An audit module lives in its own link-map namespace with its own libc:
 * it uses nothing but a few libc calls, and keeps no state but the
 * directory (written once, by la_version, before any search).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char lib_dir[4096];
static size_t lib_dir_len;
static int log_redirects;
static char answer[4096 + 256];   /* the loader serialises searches (its load lock) */

unsigned int la_version(unsigned int version)
{
    const char *env = getenv("CUBRIDGE_LIB_DIR");
    if (env && env[0] && strlen(env) < sizeof lib_dir) {
        strcpy(lib_dir, env);
    } else {
        Dl_info info;
        if (dladdr((void *)la_version, &info) && info.dli_fname && strlen(info.dli_fname) < sizeof lib_dir) {
            strcpy(lib_dir, info.dli_fname);
            char *slash = strrchr(lib_dir, '/');
            if (slash)
                *slash = 0;
            else
                lib_dir[0] = 0;
        }
    }
    lib_dir_len = strlen(lib_dir);
    while (lib_dir_len > 1 && lib_dir[lib_dir_len - 1] == '/')
        lib_dir[--lib_dir_len] = 0;
    const char *log = getenv("CUBRIDGE_AUDIT_LOG");
    log_redirects = log && log[0] == '1';
    return version < LAV_CURRENT ? version : LAV_CURRENT;
}

char *la_objsearch(const char *name, uintptr_t *cookie, unsigned int flag)
{
    (void)cookie;
    if (flag != LA_SER_ORIG || !lib_dir_len || !name)
        return (char *)name;
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    /* only shared libraries, and never our own directory's files */
    if (strncmp(base, "lib", 3) != 0 || !strstr(base, ".so"))
        return (char *)name;
    /* libcuda.so.1 comes from LD_LIBRARY_PATH; a search for it by absolute
     * path is the cuda pass-through loading NVIDIA's driver, and must reach it. */
    if (strncmp(base, "libcuda.so", 10) == 0)
        return (char *)name;
    if (strncmp(name, lib_dir, lib_dir_len) == 0 && name[lib_dir_len] == '/')
        return (char *)name;
    size_t blen = strlen(base);
    if (lib_dir_len + 1 + blen + 1 > sizeof answer)
        return (char *)name;
    memcpy(answer, lib_dir, lib_dir_len);
    answer[lib_dir_len] = '/';
    memcpy(answer + lib_dir_len + 1, base, blen + 1);
    if (access(answer, R_OK) != 0)
        return (char *)name;
    if (log_redirects)
        fprintf(stderr, "cubridge: audit: %s -> %s\n", name, answer);
    return answer;
}
