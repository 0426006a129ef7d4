/* jit_cache.h: the CPU backend's JIT cache (jit_cache.c: the compiler, its
 * configuration and the compile), on the compile cache's files
 * (backend/kernel_cache.h: the directory, entries, counters, the size cap
 * and eviction). docs/cpu-backend.md describes the directory and its rules. */
#ifndef CB_CPU_JIT_CACHE_H
#define CB_CPU_JIT_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"
#include "backend/kernel_cache.h"
#include "platform/thread.h"

/* The sets of compiler flags a unit can build with (jit_cache.c): chosen by
 * the marks in its source (codegen/translate.h). */
enum { JIT_SET_GENERAL, JIT_SET_QUICK, JIT_SET_LANES };

typedef struct cb_jit_cache {
    cb_kernel_cache files;   /* the directory and its .so entries (kind cb_kernel_cache_cpu) */
    char cc[1024];           /* CUBRIDGE_HOST_CC */
    char cc_identity[512];   /* first line of `cc --version`, once known */
    /* SHA-256 of the build configuration of each set of flags (JIT_SET_*;
     * the lanes set's includes the CPU), once known */
    unsigned char config_hash[3][32];
    int cc_state;            /* 0 unknown, 1 known, -1 missing */
    cb_mutex lock;           /* guards cc_identity/config_hash/cc_state */
} cb_jit_cache;

/* Opens the cache directory (cb_kernel_cache_open) and notes the compiler
 * (CUBRIDGE_HOST_CC). Returns 0, or -1 if no directory could be used. */
int cb_jit_cache_open(cb_jit_cache *c);
/* Closes it; removes a temporary directory. */
void cb_jit_cache_close(cb_jit_cache *c);
/* The verified bytes of the shared object built from source: from the
 * cache, or compiled (and stored) on a miss. *so is malloc'd. Returns
 * CUDA_SUCCESS, CUDA_ERROR_JIT_COMPILER_NOT_FOUND, CUDA_ERROR_INVALID_SOURCE
 * (the compiler's first error lines in err), CUDA_ERROR_OUT_OF_MEMORY (no
 * room on the disk or under the file size limit to compile: err says so) or
 * CUDA_ERROR_OPERATING_SYSTEM. */
CUresult cb_jit_build(cb_jit_cache *c, const char *source, size_t len, unsigned char **so, size_t *so_len, char *err,
                      size_t errlen);

#endif
