/* dl.h: loading shared objects (the compiled kernels, system libraries). */
#ifndef CB_PLATFORM_DL_H
#define CB_PLATFORM_DL_H

#include <stddef.h>

typedef struct cb_dl cb_dl;

/* Loads a shared object from its bytes, as a private copy: loading the same
 * bytes twice gives two independent objects (own globals), and no other
 * process can swap the file between a check of the bytes and the load.
 * Returns NULL and writes the loader's message into err on failure. */
cb_dl *cb_dl_open_image(const void *bytes, size_t len, char *err, size_t errlen);
/* Loads a shared library of the system by its name ("libOpenCL.so.1"), as
 * dlopen finds it. Returns NULL and writes the loader's message into err. */
cb_dl *cb_dl_open_system(const char *name, char *err, size_t errlen);
/* The address of symbol name, or NULL. */
void *cb_dl_sym(cb_dl *dl, const char *name);
/* Unloads. NULL is allowed. */
void cb_dl_close(cb_dl *dl);

/* The address of symbol in the shared library soname ("libcuda.so.1"): the
 * copy the process already loaded, else one loaded now by the usual search
 * (and kept loaded). NULL if neither has it. */
void *cb_dl_library_symbol(const char *soname, const char *symbol);

#endif
