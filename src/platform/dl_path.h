/* dl_path.h: loading a shared object by its path, and telling files apart
 * (for the cuda pass-through backend, which loads NVIDIA's libcuda.so.1). */
#ifndef CB_PLATFORM_DL_PATH_H
#define CB_PLATFORM_DL_PATH_H

#include <stddef.h>

typedef struct cb_dl_lib cb_dl_lib;

/* dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND (not under sanitizers)). NULL with the loader's message in
 * err on failure. The library is never unloaded by cubridge. */
cb_dl_lib *cb_dl_lib_open(const char *path, char *err, size_t errlen);
/* The address of symbol name in lib, or NULL. */
void *cb_dl_lib_sym(cb_dl_lib *lib, const char *name);
/* The path of the shared object that holds addr (dladdr), or -1. */
int cb_dl_path_of(const void *addr, char *out, size_t outlen);
/* 1 if both paths name the same file (device and inode, through links),
 * 0 if not, -1 if either cannot be stat'ed. */
int cb_fs_same_file(const char *a, const char *b);
/* 1 if path exists (after links). */
int cb_fs_exists(const char *path);

#endif
