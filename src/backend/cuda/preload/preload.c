/* preload.c: libcubridge_cuda_preload.so, the cuda backend's forwarder for
 * driver symbols a program calls by name (linked with -lcuda).
 *
 * An ELF library cannot interpose on its own exports, so cubridge's
 * libcuda.so.1 keeps answering direct calls itself. Under --backend cuda,
 * `cubridge run` preloads this library (LD_PRELOAD): it defines every export
 * of exports.inc as a one-instruction trampoline through a slot, and fills
 * each slot once, at load, with what cubridge_cuda_entry (cuda_driver.c)
 * says: the real driver's entry point (wrapped by the inspector's trace
 * wrappers and verify interceptors when it is on), or, where that has none,
 * cubridge's own definition. It links against libcuda.so.1, so cubridge's
 * driver is initialised first.
 *
 * dlsym(handle, name) on libcuda.so.1 (ctypes, Numba, CuPy) searches that
 * library, not this one: those callers are not forwarded.
 *
 * The constructor also takes this library out of LD_PRELOAD, so that the
 * processes the program starts (the C compiler of cubridge's CPU reference,
 * among others) do not load it.
 *
 * Process-wide state: the slots, written by the constructor before main,
 * read-only afterwards. (This file stands alone, outside src/platform: it
 * only uses dlsym and the environment.)
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* cuda_driver.c */
void *cubridge_cuda_entry(int id);

#define CB_EXPORT_FN(sym) __attribute__((visibility("hidden"))) void *cbfwd_##sym;
#include "driver/exports.inc"
#undef CB_EXPORT_FN

#if defined(__x86_64__)
#define CB_EXPORT_FN(sym)                                                                                    \
    __asm__(".text\n.globl " #sym "\n.type " #sym ", @function\n.p2align 4\n" #sym ":\n"                     \
            "\tjmp *cbfwd_" #sym "(%rip)\n.size " #sym ", .-" #sym "\n");
#elif defined(__aarch64__)
#define CB_EXPORT_FN(sym)                                                                                    \
    __asm__(".text\n.globl " #sym "\n.type " #sym ", %function\n.p2align 4\n" #sym ":\n"                     \
            "\tadrp x16, cbfwd_" #sym "\n\tldr x16, [x16, :lo12:cbfwd_" #sym "]\n\tbr x16\n"                  \
            ".size " #sym ", .-" #sym "\n");
#else
#error "the cuda preload trampolines are written for x86-64 and AArch64"
#endif
#include "driver/exports.inc"
#undef CB_EXPORT_FN

static void **const slots[] = {
#define CB_EXPORT_FN(sym) &cbfwd_##sym,
#include "driver/exports.inc"
#undef CB_EXPORT_FN
};

static const char *const names[] = {
#define CB_EXPORT_FN(sym) #sym,
#include "driver/exports.inc"
#undef CB_EXPORT_FN
};

/* LD_PRELOAD without the entries naming this library. */
static void preload_forget(void)
{
    const char *v = getenv("LD_PRELOAD");
    if (!v)
        return;
    char keep[8192];
    size_t n = 0;
    while (*v) {
        size_t len = strcspn(v, ": ");
        if (len && !memmem(v, len, "libcubridge_cuda_preload.so", 27) && n + len + 2 < sizeof keep) {
            if (n)
                keep[n++] = ':';
            memcpy(keep + n, v, len);
            n += len;
        }
        v += len;
        v += *v != 0;
    }
    keep[n] = 0;
    if (n)
        setenv("LD_PRELOAD", keep, 1);
    else
        unsetenv("LD_PRELOAD");
}

__attribute__((constructor)) static void preload_fill(void)
{
    preload_forget();
    for (int i = 0; i < (int)(sizeof slots / sizeof slots[0]); i++) {
        void *p = cubridge_cuda_entry(i);
        *slots[i] = p ? p : dlsym(RTLD_NEXT, names[i]);
    }
}
