/* test_cpu_util.h: hand-made translations for the CPU backend tests.
 *
 * The tests do not use the PTX compiler: each kernel is hand-written C that
 * follows kernel_abi.h, the way src/codegen would emit it, and the
 * translation around it is filled in by hand. */
#ifndef TEST_CPU_UTIL_H
#define TEST_CPU_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"
#include "backend/cpu/cpu_backend.h"
#include "codegen/c/kernel_abi.h"
#include "codegen/c/kernel_abi_text.h"
#include "platform/fs.h"

static int tu_failures;

/* These tests hand the backend host buffers (stack, malloc) as device
 * memory, with no core to map them: the backend's access checks
 * (access_check.c) would refuse them, so they keep only the alignment test. */
__attribute__((constructor)) static void tu_unchecked_host_memory(void) { setenv("CUBRIDGE_CHECK_ACCESS", "0", 0); }

#define TU_CHECK(cond, ...)                                                  \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);             \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
            tu_failures++;                                                   \
        }                                                                    \
    } while (0)

/* Helpers every test kernel may use. */
#define TU_KERNEL_PRELUDE                                                                  \
    "#include <string.h>\n"                                                                \
    "#define PARAM(T, off) (*(T const *)(t->blk->params + (off)))\n"                        \
    "#define RT (t->blk->rt)\n"                                                            \
    "extern unsigned char *cb_module_globals[];\n"                                         \
    "#define GTID (t->blk->ctaid.x * t->blk->ntid.x + t->tid.x)\n"

typedef struct tu_kernel {
    const char *name;
    int needs_fibers;
    uint32_t static_smem;
    uint32_t param_bytes;
} tu_kernel;

/* A translation of body (kernel C after the ABI text) with kernels ks[i]
 * named cbk_<i>. Freed with tu_free. */
static inline cb_translation *tu_make(const char *body, uint32_t nkernels, const tu_kernel *ks, uint32_t nglobals)
{
    cb_translation *tr = calloc(1, sizeof *tr);
    const char *tail_fmt = "\nconst uint32_t cb_module_abi_version = CB_KERNEL_ABI_VERSION;\n"
                           "unsigned char *cb_module_globals[%u];\n";
    size_t len = strlen(cb_kernel_abi_text) + strlen(TU_KERNEL_PRELUDE) + strlen(body) + 200;
    tr->source = malloc(len);
    snprintf(tr->source, len, "%s\n" TU_KERNEL_PRELUDE "%s", cb_kernel_abi_text, body);
    size_t used = strlen(tr->source);
    snprintf(tr->source + used, len - used, tail_fmt, nglobals ? nglobals : 1);
    tr->source_len = strlen(tr->source);
    tr->dialect = CB_DIALECT_C;
    tr->nkernels = nkernels;
    tr->kernels = calloc(nkernels, sizeof *tr->kernels);
    for (uint32_t i = 0; i < nkernels; i++) {
        cb_kernel_info *k = &tr->kernels[i];
        k->name = strdup(ks[i].name);
        k->symbol = malloc(32);
        snprintf(k->symbol, 32, "cbk_%u", i);
        k->needs_fibers = ks[i].needs_fibers;
        k->static_smem = ks[i].static_smem;
        k->param_bytes = ks[i].param_bytes;
    }
    tr->nglobals = nglobals;
    tr->globals = calloc(nglobals ? nglobals : 1, sizeof *tr->globals);
    for (uint32_t i = 0; i < nglobals; i++) {
        tr->globals[i].name = strdup("g");
        tr->globals[i].size = 8;
        tr->globals[i].align = 8;
    }
    return tr;
}

static inline void tu_free(cb_translation *tr)
{
    for (uint32_t i = 0; i < tr->nkernels; i++) {
        free(tr->kernels[i].name);
        free(tr->kernels[i].symbol);
    }
    for (uint32_t i = 0; i < tr->nglobals; i++)
        free(tr->globals[i].name);
    free(tr->kernels);
    free(tr->globals);
    free(tr->source);
    free(tr);
}

/* A fresh private cache directory in CUBRIDGE_CACHE_DIR; returns its path. */
static inline const char *tu_fresh_cache(char *buf, size_t len)
{
    if (cb_fs_make_temp_dir("cubridge-test-cache-", buf, len) != 0) {
        perror("mkdtemp");
        exit(1);
    }
    setenv("CUBRIDGE_CACHE_DIR", buf, 1);
    return buf;
}

/* Loads tr on be; fails the test (and returns NULL) on error. */
static inline void *tu_load(cb_backend *be, const cb_translation *tr, const uint64_t *globals)
{
    void *mod = NULL;
    char err[2048];
    CUresult r = be->module_load(be, tr, globals, &mod, err, sizeof err);
    TU_CHECK(r == CUDA_SUCCESS, "module_load: %d: %s", (int)r, err);
    return r == CUDA_SUCCESS ? mod : NULL;
}

/* Launches kernel k of mod with grid/block sizes (x only when y,z are 0). */
static inline CUresult tu_launch3(cb_backend *be, void *mod, uint32_t k, const uint32_t grid[3], const uint32_t block[3],
                           uint32_t dyn_smem, const void *params, uint32_t param_bytes, cb_launch_error *err)
{
    cb_launch_config cfg;
    memset(&cfg, 0, sizeof cfg);
    memcpy(cfg.grid, grid, sizeof cfg.grid);
    memcpy(cfg.block, block, sizeof cfg.block);
    cfg.dynamic_smem = dyn_smem;
    cfg.params = params;
    cfg.param_bytes = param_bytes;
    return be->launch(be, mod, k, &cfg, err);
}

static inline CUresult tu_launch(cb_backend *be, void *mod, uint32_t k, uint32_t grid, uint32_t block, const void *params,
                          uint32_t param_bytes, cb_launch_error *err)
{
    uint32_t g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
    return tu_launch3(be, mod, k, g, b, 0, params, param_bytes, err);
}

/* Packs pointer/u32 parameters at their natural alignment. */
typedef struct tu_params {
    unsigned char buf[256];
    uint32_t len;
} tu_params;

static inline void tu_param(tu_params *p, const void *v, uint32_t size)
{
    p->len = (p->len + size - 1) / size * size;
    memcpy(p->buf + p->len, v, size);
    p->len += size;
}
#define TU_PARAM(p, v)                     \
    do {                                   \
        __typeof__(v) tu_v_ = (v);         \
        tu_param((p), &tu_v_, sizeof tu_v_); \
    } while (0)

#endif
