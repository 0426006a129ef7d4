/* dl_path.c: dlopen by path, dladdr, file identity. */
#include "platform/dl_path.h"

#include <dlfcn.h>
#include <stdio.h>
#include <sys/stat.h>

cb_dl_lib *cb_dl_lib_open(const char *path, char *err, size_t errlen)
{
    int mode = RTLD_NOW | RTLD_LOCAL;
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    /* its own symbols first: it shares names with the libcuda.so.1 that
     * loads it (the sanitizers refuse RTLD_DEEPBIND) */
    mode |= RTLD_DEEPBIND;
#endif
    void *h = dlopen(path, mode);
    if (!h && err && errlen)
        snprintf(err, errlen, "%s", dlerror());
    return (cb_dl_lib *)h;
}

void *cb_dl_lib_sym(cb_dl_lib *lib, const char *name)
{
    return lib ? dlsym((void *)lib, name) : NULL;
}

int cb_dl_path_of(const void *addr, char *out, size_t outlen)
{
    Dl_info info;
    if (!dladdr(addr, &info) || !info.dli_fname)
        return -1;
    snprintf(out, outlen, "%s", info.dli_fname);
    return 0;
}

int cb_fs_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
        return -1;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int cb_fs_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}
