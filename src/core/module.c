/* module.c: images -> PTX -> translation -> globals -> backend module.
 *
 * Process-wide state: the list of live modules (handles are checked
 * against it, never dereferenced blindly), guarded by module_lock, which
 * also guards each module's lazily created function handles.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/device.h"
#include "core/memory.h"
#include "core/module.h"
#include "core/progress.h"
#include "ptxlink/ptx_merge.h"
#include "core/stats.h"
#include "fatbin/fatbin.h"
#include "platform/dl_path.h"
#include "platform/sysinfo.h"
#include "platform/thread.h"
#include "ptxlink/ptx_split.h"

/* A translation loaded into the backend: a lazy module's kernel (with what
 * it names), or the whole module when a cut could not be translated. */
typedef struct unit {
    cb_translation *tr;
    void *backend_module;
    uint64_t *global_addrs;     /* the module's addresses, in tr's cb_global_info order */
    uint64_t build_ns;          /* what translating and loading it took (a cache hit: little) */
    struct unit *next;          /* the module's units */
} unit;

typedef struct module_impl {
    cb_module pub;
    uint64_t globals_block;     /* one device allocation holding every global, 0 if none */
    char name[128];
    struct module_impl *next_live;
    /* lazy loading (docs/cpu-backend.md): the PTX, its index, a unit per
     * kernel made at first use, and the whole module if a cut fails */
    int lazy;
    char *ptx;
    size_t ptx_len;
    cb_ptx_index *ix;
    unit *units;                /* every unit loaded */
    unit **kernel_unit;         /* the unit of each kernel, NULL until its first use */
    CUresult *kernel_failed;    /* why a kernel cannot be loaded (kept: asked once), or CUDA_SUCCESS */
    unit *whole;                /* the whole module, when a cut did not translate */
    int whole_tried;
    uint32_t compiles;          /* units made: after LAZY_SINGLES, kernels may come in batches */
    unsigned char *kernel_ahead; /* compiled in another kernel's batch and not asked for yet */
    uint32_t ahead_made;        /* kernels compiled ahead of their use ... */
    uint32_t ahead_used;        /* ... and of those, the ones asked for since */
    uint32_t batch;             /* the last batch's size (lazy_batch) */
    cb_mutex compile_lock;      /* one compile at a time per module */
    int failure_noted;          /* a kernel failed to load: counted once for the summary */
    int suspended;              /* a library's module while its primary context is reset (under module_lock) */
} module_impl;

static cb_mutex module_lock = CB_MUTEX_INIT;
static module_impl *module_live;

int cb_module_lazy_loading(void)
{
    static int mode = -1;   /* decided once: CUDA's variable, default LAZY as CUDA 12.2 and later */
    if (mode < 0) {
        const char *e = getenv("CUDA_MODULE_LOADING");
        mode = !(e && !strcmp(e, "EAGER"));
    }
    return mode;
}

/* ---- stage 1: the PTX in the image ------------------------------------ */

/* Logs an error and keeps its text in msg (msgcap bytes; msg may be NULL). */
static void module_error(char *msg, size_t msgcap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void module_error(char *msg, size_t msgcap, const char *fmt, ...)
{
    char text[1536];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    cb_log(CB_LOG_ERROR, "%s", text);
    if (msg && msgcap)
        snprintf(msg, msgcap, "%s", text);
}

/* One PTX text from the modules of an image (several when the image is a
 * linker container or an -rdc registration: they are merged); frees mods. */
static CUresult module_join_ptx(cb_fatbin_module *mods, size_t n, const char *name, char **ptx, size_t *len,
                                char *msg, size_t msgcap)
{
    if (n == 1) {
        *ptx = mods[0].ptx;
        *len = mods[0].len;
        mods[0].ptx = NULL;
        cb_fatbin_modules_free(mods, n);
        return CUDA_SUCCESS;
    }
    const char **texts = malloc(n * sizeof *texts);
    if (!texts) {
        cb_fatbin_modules_free(mods, n);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < n; i++)
        texts[i] = mods[i].ptx;
    char err[256] = "";
    int rc = cb_ptx_merge(texts, n, ptx, len, err, sizeof err);
    free(texts);
    cb_fatbin_modules_free(mods, n);
    if (rc != 0) {
        module_error(msg, msgcap, "%s: %s", name, err);
        return CUDA_ERROR_INVALID_PTX;
    }
    cb_log(CB_LOG_DEBUG, "%s: merged %zu PTX modules into one", name, n);
    return CUDA_SUCCESS;
}

static CUresult module_extract_ptx(int sm, const void *image, size_t size, const char *name, char **ptx,
                                   size_t *len, char *msg, size_t msgcap)
{
    char err[256] = "";
    cb_fatbin_summary sum;
    memset(&sum, 0, sizeof sum);
    cb_fatbin_module *mods = NULL;
    size_t nmods = 0;
    cb_fatbin_status st =
        cb_fatbin_extract_modules(image, size, (uint32_t)sm, &mods, &nmods, &sum, err, sizeof err);
    switch (st) {
    case CB_FATBIN_OK:
        if (sum.chosen_above)
            cb_log(CB_LOG_INFO, "%s: no PTX at or below the reported sm_%d; running its sm_%u PTX (the CPU runs any "
                                "PTX the translator knows)", name, sm, sum.chosen_sm);
        return module_join_ptx(mods, nmods, name, ptx, len, msg, msgcap);
    case CB_FATBIN_ERR_NO_PTX:
        if (!err[0]) {
            size_t pos = (size_t)snprintf(err, sizeof err, "%u PTX, %u SASS entries", sum.n_ptx, sum.n_elf);
            for (uint32_t i = 0; i < sum.n_elf && i < 16 && pos < sizeof err; i++)
                pos += (size_t)snprintf(err + pos, sizeof err - pos, "%s sm_%u", i ? "," : ":", sum.sms_elf[i]);
        }
        module_error(msg, msgcap,
               "%s: no PTX for its kernels (%s): the binary holds no PTX at any architecture (SASS only), and "
               "cubridge runs kernels from PTX; rebuild with PTX embedded (nvcc's default does; or -gencode "
               "arch=compute_XX,code=compute_XX, any XX); CUBRIDGE_SM cannot help",
               name, err);
        return CUDA_ERROR_NO_BINARY_FOR_GPU;
    case CB_FATBIN_ERR_NOMEM:
        return CUDA_ERROR_OUT_OF_MEMORY;
    case CB_FATBIN_ERR_INVALID:
    case CB_FATBIN_ERR_DECOMPRESS:
    default:
        module_error(msg, msgcap, "%s: invalid image: %s", name, err[0] ? err : "unrecognised container");
        return CUDA_ERROR_INVALID_IMAGE;
    }
}

/* The translation of a whole module's PTX: CUDA_ERROR_NOT_SUPPORTED for
 * valid PTX that the device's dialect cannot express, INVALID_PTX for PTX
 * the translator refuses (logged, the reason in msg). */
static CUresult module_translate_text(const char *ptx, size_t len, const char *name, int dialect, int lanes,
                                      int warp_size, cb_translation **out, char *msg, size_t msgcap)
{
    char err[1024] = "";
    cb_translate_opts opts = {.lanes = lanes, .warp_size = warp_size};
    int rc = cb_translate_ptx_opts(ptx, len, name, (cb_dialect)dialect, &opts, out, err, sizeof err);
    if (rc == -2) {
        module_error(msg, msgcap, "not supported on this device: %s", err[0] ? err : name);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if (rc != 0 || !*out) {
        module_error(msg, msgcap, "PTX translation failed: %s", err[0] ? err : name);
        return CUDA_ERROR_INVALID_PTX;
    }
    return CUDA_SUCCESS;
}

/* Stage 1 and the translation, reporting progress to module number progress
 * (0: none). */
static CUresult module_translate(const void *image, size_t size, int sm, int dialect, const char *name,
                                 cb_translation **out, char *msg, size_t msgcap, unsigned progress)
{
    char *ptx = NULL;
    size_t len = 0;
    CUresult r = module_extract_ptx(sm, image, size, name, &ptx, &len, msg, msgcap);
    if (r != CUDA_SUCCESS)
        return r;
    cb_progress_stage(progress, "translating the PTX", 0);
    r = module_translate_text(ptx, len, name, dialect, 1, 0, out, msg, msgcap);
    free(ptx);
    return r;
}

CUresult cb_module_translate(const void *image, size_t size, int sm, int dialect, const char *name,
                             cb_translation **out, char *msg, size_t msgcap)
{
    if (msg && msgcap)
        msg[0] = '\0';
    char local[256];
    if (!msg || !msgcap) {
        msg = local;
        msgcap = sizeof local;
    }
    *out = NULL;
    return module_translate(image, size, sm, dialect, name, out, msg, msgcap, 0);
}

/* ---- stage 2: globals in device memory -------------------------------- */

static uint64_t module_align_up(uint64_t v, uint64_t a)
{
    return a > 1 ? (v + a - 1) / a * a : v;
}

/* Gives every global its storage, copies its initialiser (or zeroes it). */
static CUresult module_place_globals(module_impl *m)
{
    cb_module *pub = &m->pub;
    const cb_translation *tr = pub->tr;
    if (tr->nglobals == 0)
        return CUDA_SUCCESS;
    pub->global_addrs = calloc(tr->nglobals, sizeof *pub->global_addrs);
    if (!pub->global_addrs)
        return CUDA_ERROR_OUT_OF_MEMORY;
    uint64_t total = 0;
    for (uint32_t i = 0; i < tr->nglobals; i++) {
        uint32_t a = tr->globals[i].align ? tr->globals[i].align : 1;
        total = module_align_up(total, a < 256 ? a : 256) + tr->globals[i].size;
    }
    CUresult r = cb_mem_alloc(pub->ctx, total ? (size_t)total : 1, &m->globals_block);
    if (r != CUDA_SUCCESS)
        return r;
    cb_backend *b = pub->ctx->device->backend;
    uint64_t off = 0;
    for (uint32_t i = 0; i < tr->nglobals && r == CUDA_SUCCESS; i++) {
        const cb_global_info *g = &tr->globals[i];
        uint32_t a = g->align ? g->align : 1;
        off = module_align_up(off, a < 256 ? a : 256);
        pub->global_addrs[i] = m->globals_block + off;
        if (g->size && g->init)
            r = b->copy_htod(b, pub->global_addrs[i], g->init, (size_t)g->size);
        else if (g->size)
            r = b->memset(b, pub->global_addrs[i], 0, 1, (size_t)g->size);
        off += g->size;
    }
    return r;
}

/* ---- load / unload ----------------------------------------------------- */

static void unit_free(cb_backend *b, unit *u)
{
    if (!u)
        return;
    if (u->backend_module)
        b->module_unload(b, u->backend_module);
    free(u->global_addrs);
    cb_translation_free(u->tr);
    free(u);
}

static void module_free(module_impl *m)
{
    cb_module *pub = &m->pub;
    cb_backend *b = pub->ctx->device->backend;
    if (pub->backend_module)
        b->module_unload(b, pub->backend_module);
    while (m->units) {
        unit *u = m->units;
        m->units = u->next;
        unit_free(b, u);
    }
    free(m->kernel_unit);
    free(m->kernel_failed);
    free(m->kernel_ahead);
    if (m->globals_block)
        cb_mem_free(pub->ctx, m->globals_block);
    if (pub->functions) {
        for (uint32_t i = 0; i < pub->nkernels; i++) {
            if (pub->functions[i]) {
                pub->functions[i]->magic = CB_MAGIC_DEAD;
                free(pub->functions[i]->legacy_launch);
                free(pub->functions[i]);
            }
        }
    }
    free(pub->functions);
    free(pub->global_addrs);
    cb_translation_free(pub->tr);
    cb_ptx_index_free(m->ix);
    free(m->ptx);
    if (m->lazy)
        cb_mutex_destroy(&m->compile_lock);
    pub->magic = CB_MAGIC_DEAD;
    free(m);
}

/* Stage 3: the globals and the backend's module. */
static CUresult module_load_backend(module_impl *m, char *msg, size_t msgcap)
{
    cb_module *pub = &m->pub;
    CUresult r = module_place_globals(m);
    if (r != CUDA_SUCCESS)
        return r;
    cb_backend *b = pub->ctx->device->backend;
    char err[512] = "";
    r = b->module_load(b, pub->tr, pub->global_addrs, &pub->backend_module, err, sizeof err);
    if (r != CUDA_SUCCESS) {
        pub->backend_module = NULL;
        module_error(msg, msgcap, "%s: the %s backend could not load the module: %s", m->name, b->name,
               err[0] ? err : "no reason given");
        return r;
    }
    cb_stats_add(CB_STAT_KERNELS_COMPILED, pub->nkernels);
    return r;
}

/* Stages 2 and 3 on a translated module. */
static CUresult module_instantiate(module_impl *m, char *msg, size_t msgcap)
{
    cb_module *pub = &m->pub;
    pub->nkernels = pub->tr->nkernels;
    pub->functions = calloc(pub->nkernels ? pub->nkernels : 1, sizeof *pub->functions);
    if (!pub->functions)
        return CUDA_ERROR_OUT_OF_MEMORY;
    return module_load_backend(m, msg, msgcap);
}

/* Counts a failed load for the exit summary, with the reason (the message
 * without its leading "<name>: ", or the result's number). */
static void module_note_failure(const char *name, CUresult r, const char *msg)
{
    char reason[64];
    size_t n = strlen(name);
    if (msg[0] && !strncmp(msg, name, n) && msg[n] == ':' && msg[n + 1] == ' ')
        msg += n + 2;
    if (!msg[0]) {
        snprintf(reason, sizeof reason, "CUresult %d", (int)r);
        msg = reason;
    }
    cb_stats_module_failed(name, msg);
}

CUresult cb_module_load(cb_context *ctx, const void *image, size_t size, const char *name, cb_module **out)
{
    return cb_module_load_msg(ctx, image, size, name, out, NULL, 0);
}

static CUresult module_load(cb_context *ctx, const void *image, size_t size, const char *name, cb_module **out,
                            char *msg, size_t msgcap, unsigned progress);

CUresult cb_module_load_msg(cb_context *ctx, const void *image, size_t size, const char *name, cb_module **out,
                            char *msg, size_t msgcap)
{
    char local[1536];
    if (!msg || !msgcap) {
        msg = local;
        msgcap = sizeof local;
    }
    msg[0] = '\0';
    if (!image)
        return CUDA_ERROR_INVALID_VALUE;
    unsigned progress = cb_progress_begin(name);
    CUresult r = module_load(ctx, image, size, name, out, msg, msgcap, progress);
    cb_progress_end(progress, r == CUDA_SUCCESS);
    if (r != CUDA_SUCCESS)
        module_note_failure(name, r, msg);
    return r;
}

static void module_go_live(module_impl *m)
{
    cb_mutex_lock(&module_lock);
    m->next_live = module_live;
    module_live = m;
    cb_mutex_unlock(&module_lock);
}

/* Lazy registration: index the PTX, translate and place its globals, and
 * nothing else. CUDA_ERROR_NOT_SUPPORTED when this module must load eagerly
 * (the scan cannot cut it, its globals hold addresses, or its variables do
 * not translate alone: the eager path then reports what is wrong); on
 * success the module owns ptx. */
static CUresult module_load_lazy(cb_context *ctx, char *ptx, size_t len, const char *name, cb_module **out)
{
    cb_ptx_index *ix = cb_ptx_index_build(ptx, len);
    if (!ix)
        return CUDA_ERROR_OUT_OF_MEMORY;
    const char *why = NULL;
    if (cb_ptx_index_whole_only(ix, &why)) {
        cb_log(CB_LOG_DEBUG, "%s: loaded eagerly: %s", name, why);
        cb_ptx_index_free(ix);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    size_t glen = 0;
    char *gtext = cb_ptx_index_globals_text(ix, &glen);
    if (!gtext) {
        cb_ptx_index_free(ix);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    cb_translation *tr = NULL;
    char err[512] = "";
    int rc = cb_translate_ptx(gtext, glen, name, (cb_dialect)ctx->device->backend->dialect, &tr, err, sizeof err);
    free(gtext);
    if (rc != 0 || !tr || tr->nrelocs) {
        cb_log(CB_LOG_DEBUG, "%s: loaded eagerly: %s", name,
               rc != 0 ? "its variables do not translate alone" : "its globals hold addresses");
        cb_translation_free(tr);
        cb_ptx_index_free(ix);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    module_impl *m = calloc(1, sizeof *m);
    if (!m) {
        cb_translation_free(tr);
        cb_ptx_index_free(ix);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    m->pub.magic = CB_MAGIC_MODULE;
    m->pub.ctx = ctx;
    m->pub.tr = tr;
    m->pub.nkernels = cb_ptx_index_kernels(ix);
    m->lazy = 1;
    m->ix = ix;
    cb_mutex_init(&m->compile_lock);
    snprintf(m->name, sizeof m->name, "%s", name);
    uint32_t n = m->pub.nkernels ? m->pub.nkernels : 1;
    m->pub.functions = calloc(n, sizeof *m->pub.functions);
    m->kernel_unit = calloc(n, sizeof *m->kernel_unit);
    m->kernel_failed = calloc(n, sizeof *m->kernel_failed);
    m->kernel_ahead = calloc(n, sizeof *m->kernel_ahead);
    CUresult r = m->pub.functions && m->kernel_unit && m->kernel_failed && m->kernel_ahead ? module_place_globals(m)
                                                                                           : CUDA_ERROR_OUT_OF_MEMORY;
    if (r != CUDA_SUCCESS) {
        module_free(m);
        return r;
    }
    m->ptx = ptx;
    m->ptx_len = len;
    cb_stats_add(CB_STAT_MODULES_LOADED, 1);
    cb_stats_add(CB_STAT_KERNELS_REGISTERED, m->pub.nkernels);
    module_go_live(m);
    cb_log(CB_LOG_INFO, "%s: registered %u kernels, %u globals (lazy loading: each kernel is translated at its first use)",
           name, m->pub.nkernels, tr->nglobals);
    *out = &m->pub;
    return CUDA_SUCCESS;
}

static CUresult module_load(cb_context *ctx, const void *image, size_t size, const char *name, cb_module **out,
                            char *msg, size_t msgcap, unsigned progress)
{
    char *ptx = NULL;
    size_t len = 0;
    CUresult r = module_extract_ptx(cb_device_sm(ctx->device), image, size, name, &ptx, &len, msg, msgcap);
    if (r != CUDA_SUCCESS)
        return r;
    if (cb_module_lazy_loading()) {
        cb_progress_stage(progress, "indexing the PTX", 0);
        r = module_load_lazy(ctx, ptx, len, name, out);
        if (r != CUDA_ERROR_NOT_SUPPORTED) {
            if (r != CUDA_SUCCESS)
                free(ptx);
            return r;
        }
    }
    cb_progress_stage(progress, "translating the PTX", 0);
    cb_translation *tr = NULL;
    /* an eager module is built once: with lanes entries unless the backend wants none */
    r = module_translate_text(ptx, len, name, ctx->device->backend->dialect,
                              ctx->device->backend->lanes != CB_LANES_NONE, ctx->device->backend->warp_size, &tr,
                              msg, msgcap);
    free(ptx);
    if (r != CUDA_SUCCESS)
        return r;
    module_impl *m = calloc(1, sizeof *m);
    if (!m) {
        cb_translation_free(tr);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    m->pub.magic = CB_MAGIC_MODULE;
    m->pub.ctx = ctx;
    m->pub.tr = tr;
    snprintf(m->name, sizeof m->name, "%s", name);
    cb_progress_stage(progress, "compiling the C", tr->nkernels);
    r = module_instantiate(m, msg, msgcap);
    if (r != CUDA_SUCCESS) {
        module_free(m);
        return r;
    }
    for (uint32_t k = 0; k < tr->nkernels; k++)
        if (tr->kernels[k].refused)
            cb_log(CB_LOG_INFO, "%s: kernel %s is not supported on this device (the others load): %s", name,
                   tr->kernels[k].name, tr->kernels[k].refused);
    cb_stats_add(CB_STAT_MODULES_LOADED, 1);
    cb_stats_add(CB_STAT_KERNELS_REGISTERED, tr->nkernels);
    cb_stats_add(CB_STAT_KERNELS_TRANSLATED, tr->nkernels);
    module_go_live(m);
    cb_log(CB_LOG_INFO, "%s: loaded %u kernels, %u globals", name, tr->nkernels, tr->nglobals);
    *out = &m->pub;
    return CUDA_SUCCESS;
}

/* ---- lazy loading: a kernel at its first use ------------------------------- */

/* Points u's globals at the module's storage and loads u into the backend
 * (at load, and again after a reset). CUDA_SUCCESS, or why not in msg. */
static CUresult unit_attach(module_impl *m, unit *u, char *msg, size_t msgcap)
{
    cb_module *pub = &m->pub;
    cb_backend *b = pub->ctx->device->backend;
    for (uint32_t g = 0; g < u->tr->nglobals; g++) {
        int j = cb_translation_find_global(pub->tr, u->tr->globals[g].name);
        if (j < 0) {
            snprintf(msg, msgcap, "%s: global %s has no storage", m->name, u->tr->globals[g].name);
            return CUDA_ERROR_INVALID_PTX;
        }
        u->global_addrs[g] = pub->global_addrs[j];
    }
    char err[1024] = "";
    CUresult r = b->module_load(b, u->tr, u->global_addrs, &u->backend_module, err, sizeof err);
    if (r != CUDA_SUCCESS) {
        u->backend_module = NULL;
        snprintf(msg, msgcap, "%s: the %s backend could not load the module: %s", m->name, b->name,
                 err[0] ? err : "no reason given");
    }
    return r;
}

/* How unit_load builds a unit. */
enum {
    UNIT_GENERAL,      /* without lanes entries */
    UNIT_LANES,        /* with a lanes entry for each kernel pass_lanes accepts */
    UNIT_LANES_ONLY,   /* the same, but only wanted for them: NOT_SUPPORTED before compiling if it has none */
    UNIT_FIRST_TIER,   /* without lanes entries, as a first build: cheap to compile (CB_C_QUICK_MARK) */
};

/* How m's first units are built (cb_backend.lanes): tiered, a first tier
 * that its hot kernels replace (cb_function_promote). */
static int unit_first_build(const module_impl *m)
{
    switch (m->pub.ctx->device->backend->lanes) {
    case CB_LANES_ALL: return UNIT_LANES;
    case CB_LANES_HOT: return UNIT_FIRST_TIER;
    default: return UNIT_GENERAL;
    }
}

/* Why a C translation holds no lanes entry (the comment c/unit.c leaves), into msg. */
static void unit_no_lanes(const cb_translation *tr, char *msg, size_t msgcap)
{
    const char *why = tr->source ? strstr(tr->source, ": no lanes entry: ") : NULL;
    size_t n = 0;
    if (why) {
        why += strlen(": no lanes entry: ");
        while (why[n] && why[n] != '*' && why[n] != '\n')
            n++;
    }
    snprintf(msg, msgcap, "no lanes entry: %.*s", (int)(n > 1 ? n - 1 : 0), why ? why : "");
}

/* Translates text, built as `lanes` says (UNIT_*, cb_translate_opts), and
 * loads it into the backend as a new unit for m (*out, not yet in m's
 * list: unit_adopt). UNIT_LANES_ONLY: the unit is wanted only for its lanes
 * entries: CUDA_ERROR_NOT_SUPPORTED, before compiling, when it has none.
 * Reads m only: several may run at once. CUDA_SUCCESS, or why not, with the
 * reason in msg. */
static CUresult unit_load(module_impl *m, const char *text, size_t len, int lanes, const uint32_t *block, unit **out,
                          char *msg, size_t msgcap)
{
    cb_module *pub = &m->pub;
    cb_backend *b = pub->ctx->device->backend;
    char err[1024] = "";
    unit *u = calloc(1, sizeof *u);
    if (!u)
        return CUDA_ERROR_OUT_OF_MEMORY;
    CUresult r = CUDA_SUCCESS;
    uint64_t t0 = cb_sys_monotonic_ns();
    cb_translate_opts opts = {.lanes = lanes == UNIT_LANES || lanes == UNIT_LANES_ONLY,
                              .quick = lanes == UNIT_FIRST_TIER, .warp_size = b->warp_size};
    if (block && opts.lanes)
        memcpy(opts.block, block, sizeof opts.block);
    int rc = cb_translate_ptx_opts(text, len, m->name, (cb_dialect)b->dialect, &opts, &u->tr, err, sizeof err);
    if (rc != 0 || !u->tr) {
        /* -2: valid PTX the backend's dialect cannot express (NOT_SUPPORTED, as eagerly) */
        snprintf(msg, msgcap, "PTX translation failed: %s", err[0] ? err : m->name);
        r = rc == -2 ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_INVALID_PTX;
        goto fail;
    }
    cb_stats_add(CB_STAT_KERNELS_TRANSLATED, u->tr->nkernels);
    if (lanes == UNIT_LANES_ONLY && (!u->tr->source || !strstr(u->tr->source, CB_C_LANES_MARK))) {
        unit_no_lanes(u->tr, msg, msgcap);
        r = CUDA_ERROR_NOT_SUPPORTED;
        goto fail;
    }
    if (u->tr->nglobals && !(u->global_addrs = calloc(u->tr->nglobals, sizeof *u->global_addrs))) {
        r = CUDA_ERROR_OUT_OF_MEMORY;
        goto fail;
    }
    r = unit_attach(m, u, msg, msgcap);
    if (r != CUDA_SUCCESS)
        goto fail;
    u->build_ns = cb_sys_monotonic_ns() - t0;
    *out = u;
    return CUDA_SUCCESS;
fail:
    unit_free(b, u);
    return r;
}

static void unit_adopt(module_impl *m, unit *u)
{
    m->compiles++;
    u->next = m->units;
    m->units = u;
}

/* One part of a batch compiled on a thread of its own. */
typedef struct part_job {
    module_impl *m;
    const uint32_t *ks;
    uint32_t n;
    unit *u;
    CUresult r;
    cb_thread_handle thread;
    char msg[512];
} part_job;

static void *part_run(void *arg)
{
    part_job *j = arg;
    size_t len = 0;
    char *text = cb_ptx_index_kernels_text(j->m->ix, j->ks, j->n, &len);
    j->r = text ? unit_load(j->m, text, len, unit_first_build(j->m), NULL, &j->u, j->msg, sizeof j->msg) : CUDA_ERROR_OUT_OF_MEMORY;
    free(text);
    return NULL;
}

/* A large batch is compiled in parts at once, one per CPU (up to
 * LAZY_PARTS_MAX, each of at least LAZY_PART_MIN kernels): parts 1.. on
 * threads of their own, kernels ks[n1..n) with n1 returned; the caller
 * compiles ks[0..n1) meanwhile and then calls parts_finish. */
enum { LAZY_PART_MIN = 16, LAZY_PARTS_MAX = 8 };

static uint32_t parts_start(module_impl *m, const uint32_t *ks, uint32_t n, part_job *jobs, uint32_t *njobs)
{
    uint32_t cpus = (uint32_t)cb_sys_cpu_count();
    uint32_t parts = n / LAZY_PART_MIN;
    if (parts > cpus)
        parts = cpus;
    if (parts > LAZY_PARTS_MAX)
        parts = LAZY_PARTS_MAX;
    *njobs = 0;
    if (parts < 2)
        return n;
    uint32_t per = (n + parts - 1) / parts;
    for (uint32_t p = 1; p < parts; p++) {
        part_job *j = &jobs[*njobs];
        memset(j, 0, sizeof *j);
        j->m = m;
        j->ks = ks + p * per;
        j->n = p * per + per <= n ? per : n - p * per;
        if (j->n == 0 || cb_thread_start(&j->thread, part_run, j) != 0)
            break;
        (*njobs)++;
    }
    return *njobs ? per : n;
}

/* Waits for the parts; gives each compiled kernel its unit. A part that
 * failed leaves its kernels for their own first use. */
static void parts_finish(module_impl *m, part_job *jobs, uint32_t njobs)
{
    for (uint32_t p = 0; p < njobs; p++) {
        part_job *j = &jobs[p];
        cb_thread_join(j->thread);
        if (j->r != CUDA_SUCCESS) {
            cb_log(CB_LOG_DEBUG, "%s: a batch of %u kernels did not compile (%s); each will on its own", m->name,
                   j->n, j->msg);
            continue;
        }
        unit_adopt(m, j->u);
        for (uint32_t k = 0; k < j->n; k++)
            m->kernel_unit[j->ks[k]] = j->u;
        cb_stats_add(CB_STAT_KERNELS_COMPILED, j->n);
    }
}

/* The first kernels of a module are compiled one at a time; after
 * LAZY_SINGLES of them, a program evidently runs many, and a compile may
 * take the kernel asked for and the next ones not yet compiled (in module
 * order, then the ones before it) -- as long as those compiled ahead get
 * used. While at least half of the kernels compiled ahead so far have been
 * asked for since, each batch is twice the last, up to LAZY_BATCH_MAX: a
 * module whose every kernel runs (1,503 in shared_per_kernel) costs a few
 * compiles, not one per kernel. Else each batch is half the last, down to
 * the kernel alone, with a batch of 2 every LAZY_SINGLES compiles to look
 * again: a module of which a program runs a scattered few (CuPy's Thrust
 * library: one dtype's sort among every dtype's) is not compiled whole by
 * speculation. */
enum { LAZY_SINGLES = 8, LAZY_BATCH_MAX = 256 };

static uint32_t lazy_batch(module_impl *m, uint32_t i, uint32_t *ks)
{
    uint32_t want = 1;
    if (m->compiles >= LAZY_SINGLES) {
        uint32_t last = m->batch ? m->batch : 1;
        if (m->ahead_made == 0 || 2 * m->ahead_used >= m->ahead_made)
            want = last >= LAZY_BATCH_MAX / 2 ? LAZY_BATCH_MAX : 2 * last;
        else
            want = last > 1 ? last / 2 : m->compiles % LAZY_SINGLES == 0 ? 2 : 1;
    }
    uint32_t n = 0;
    ks[n++] = i;
    for (uint32_t k = i + 1; k < m->pub.nkernels && n < want; k++)
        if (!m->kernel_unit[k] && !m->kernel_failed[k])
            ks[n++] = k;
    for (uint32_t k = i; k-- > 0 && n < want;)   /* then back: the program may run them in reverse */
        if (!m->kernel_unit[k] && !m->kernel_failed[k])
            ks[n++] = k;
    return n;
}

/* The unit that runs kernel i of lazy module m, made now if it is the
 * first use; the caller holds m->compile_lock. A batch whose cut does not
 * translate is retried as the kernel alone; if the kernel's own cut does
 * not translate, the whole module is tried once: when that works the cut
 * was at fault (logged) and the whole module serves; when it fails too, the
 * cut's reason is the kernel's (it names this kernel's statement). */
static CUresult module_kernel_unit(module_impl *m, uint32_t i, unit **out)
{
    if (m->kernel_failed[i])
        return m->kernel_failed[i];
    if (m->kernel_unit[i]) {
        if (m->kernel_ahead[i]) {   /* a kernel compiled ahead, asked for: speculation pays */
            m->kernel_ahead[i] = 0;
            m->ahead_used++;
        }
        *out = m->kernel_unit[i];
        return CUDA_SUCCESS;
    }
    const char *kname = cb_ptx_index_kernel_name(m->ix, i);
    uint32_t ks[LAZY_BATCH_MAX];
    uint32_t n = lazy_batch(m, i, ks);
    char msg[1536] = "";
    CUresult r;
    unit *u = NULL;
    part_job jobs[LAZY_PARTS_MAX];
    uint32_t njobs = 0;
    n = parts_start(m, ks, n, jobs, &njobs);
    for (;;) {
        size_t len = 0;
        char *text = cb_ptx_index_kernels_text(m->ix, ks, n, &len);
        r = text ? unit_load(m, text, len, unit_first_build(m), NULL, &u, msg, sizeof msg) : CUDA_ERROR_OUT_OF_MEMORY;
        free(text);
        if (njobs) {
            parts_finish(m, jobs, njobs);
            njobs = 0;
        }
        if (r == CUDA_SUCCESS || n == 1 || r == CUDA_ERROR_OUT_OF_MEMORY)
            break;
        n = 1;   /* a batch-mate may be the one that fails: the kernel alone */
    }
    if (r == CUDA_SUCCESS) {
        unit_adopt(m, u);
        for (uint32_t k = 0; k < n; k++) {
            m->kernel_unit[ks[k]] = u;
            m->kernel_ahead[ks[k]] = k > 0;
        }
        m->ahead_made += n - 1;
        m->batch = n;
        cb_stats_add(CB_STAT_KERNELS_COMPILED, n);
        cb_log(CB_LOG_DEBUG, "%s: kernel %s translated and compiled at its first use (%u in the batch)", m->name,
               kname, n);
        *out = u;
        return CUDA_SUCCESS;
    }
    if (r == CUDA_ERROR_INVALID_PTX && !m->whole_tried) {
        m->whole_tried = 1;
        char wmsg[1536] = "";
        if (unit_load(m, m->ptx, m->ptx_len, unit_first_build(m), NULL, &m->whole, wmsg, sizeof wmsg) == CUDA_SUCCESS) {
            unit_adopt(m, m->whole);
            cb_log(CB_LOG_WARN, "%s: kernel %s did not translate alone (%s); the whole module serves it", m->name,
                   kname, msg);
        }
    }
    if (r == CUDA_ERROR_INVALID_PTX && m->whole) {
        m->kernel_unit[i] = m->whole;
        cb_stats_add(CB_STAT_KERNELS_COMPILED, 1);
        *out = m->whole;
        return CUDA_SUCCESS;
    }
    m->kernel_failed[i] = r;
    cb_log(CB_LOG_ERROR, "%s", msg[0] ? msg : "out of memory");
    if (!m->failure_noted) {
        m->failure_noted = 1;
        module_note_failure(m->name, r, msg);
    }
    return r;
}

/* ---- tiered builds: a hot kernel again, with its lanes entry ---------------- */

void cb_function_target(cb_function *f, void **module, uint32_t *kernel)
{
    cb_mutex_lock(&module_lock);
    *module = f->backend_module;
    *kernel = f->backend_kernel;
    cb_mutex_unlock(&module_lock);
}

void cb_function_promote(cb_function *f, const uint32_t block[3])
{
    module_impl *m = (module_impl *)f->module;
    if (!m->lazy || !m->ix)   /* an eager module was built with its lanes entries */
        return;
    cb_mutex_lock(&m->compile_lock);
    if (f->hot) {
        cb_mutex_unlock(&m->compile_lock);
        return;
    }
    f->hot = 1;
    uint32_t i = f->index;
    const char *kname = cb_ptx_index_kernel_name(m->ix, i);
    size_t len = 0;
    char msg[1536] = "";
    unit *u = NULL;
    char *text = cb_ptx_index_kernels_text(m->ix, &i, 1, &len);
    CUresult r = text ? unit_load(m, text, len, UNIT_LANES_ONLY, block, &u, msg, sizeof msg) : CUDA_ERROR_OUT_OF_MEMORY;
    int with_lanes = r == CUDA_SUCCESS;
    if (r == CUDA_ERROR_NOT_SUPPORTED) {
        /* pass_lanes refused it: built again all the same, with the general flags instead of the first tier's */
        cb_log(CB_LOG_DEBUG, "%s: kernel %s is hot, without a lanes entry (%s)", m->name, kname, msg);
        msg[0] = 0;
        r = unit_load(m, text, len, UNIT_GENERAL, NULL, &u, msg, sizeof msg);
    }
    free(text);
    int k = r == CUDA_SUCCESS ? cb_translation_find_kernel(u->tr, kname) : -1;
    if (r == CUDA_SUCCESS && k < 0) {
        unit_free(m->pub.ctx->device->backend, u);
        r = CUDA_ERROR_NOT_FOUND;
        snprintf(msg, sizeof msg, "the kernel is not in its own unit");
    }
    if (r == CUDA_SUCCESS) {
        unit_adopt(m, u);
        cb_mutex_lock(&module_lock);
        m->kernel_unit[i] = u;
        f->backend_module = u->backend_module;
        f->backend_kernel = (uint32_t)k;
        cb_mutex_unlock(&module_lock);
        cb_stats_add(with_lanes ? CB_STAT_KERNELS_HOT : CB_STAT_KERNELS_HOT_GENERAL, 1);
        cb_log(CB_LOG_DEBUG, "%s: kernel %s is hot: built again %s", m->name, kname,
               with_lanes ? "with its lanes entry" : "with the general flags");
    } else {
        cb_log(CB_LOG_DEBUG, "%s: kernel %s is hot but keeps its first build: %s", m->name, kname,
               msg[0] ? msg : "out of memory");
    }
    cb_mutex_unlock(&m->compile_lock);
}

/* Removes m from the live list; 1 if it was there. */
static int module_unlink(cb_module *m)
{
    int found = 0;
    cb_mutex_lock(&module_lock);
    for (module_impl **p = &module_live; *p; p = &(*p)->next_live) {
        if (&(*p)->pub == m) {
            *p = (*p)->next_live;
            found = 1;
            break;
        }
    }
    cb_mutex_unlock(&module_lock);
    return found;
}

void cb_module_unload(cb_module *m)
{
    if (module_unlink(m))
        module_free((module_impl *)m);
}

void cb_module_unload_context(cb_context *ctx)
{
    for (;;) {
        module_impl *victim = NULL;
        cb_mutex_lock(&module_lock);
        for (module_impl **p = &module_live; *p; p = &(*p)->next_live) {
            if ((*p)->pub.ctx == ctx) {
                victim = *p;
                *p = victim->next_live;
                break;
            }
        }
        cb_mutex_unlock(&module_lock);
        if (!victim)
            return;
        module_free(victim);
    }
}

/* After a reset (lazy loading): the globals placed again, with their
 * initial values, and every unit made so far loaded into the backend again
 * at those addresses; kernels not yet used are still made at first use. */
static CUresult module_reload_units(module_impl *m, char *msg, size_t msgcap)
{
    CUresult r = module_place_globals(m);
    for (unit *u = m->units; u && r == CUDA_SUCCESS; u = u->next)
        r = unit_attach(m, u, msg, msgcap);
    return r;
}

/* The functions of m run from the backend modules loaded now (a reset loads
 * them again). */
static void module_refresh_functions(module_impl *m)
{
    cb_module *pub = &m->pub;
    cb_mutex_lock(&module_lock);
    for (uint32_t i = 0; i < pub->nkernels; i++) {
        cb_function *f = pub->functions ? pub->functions[i] : NULL;
        if (!f)
            continue;
        if (!m->lazy)
            f->backend_module = pub->backend_module;
        else if (m->kernel_unit[i])   /* a hot kernel's own unit once it has one (cb_function_promote) */
            f->backend_module = m->kernel_unit[i]->backend_module;
    }
    cb_mutex_unlock(&module_lock);
}

/* The next module of ctx in state `suspended` (0 or 1); suspend: marks it
 * suspended when a library owns it, else unlinks it (*unlinked = 1). */
static module_impl *module_next_of(cb_context *ctx, int suspended, int suspend, int *unlinked)
{
    module_impl *found = NULL;
    *unlinked = 0;
    cb_mutex_lock(&module_lock);
    for (module_impl **p = &module_live; *p; p = &(*p)->next_live) {
        if ((*p)->pub.ctx == ctx && (*p)->suspended == suspended) {
            found = *p;
            if (suspend && found->pub.owner) {
                found->suspended = 1;
            } else if (suspend) {
                *p = found->next_live;
                *unlinked = 1;
            } else {
                found->suspended = 0;
            }
            break;
        }
    }
    cb_mutex_unlock(&module_lock);
    return found;
}

void cb_module_suspend_context(cb_context *ctx)
{
    module_impl *m;
    int unlinked;
    while ((m = module_next_of(ctx, 0, 1, &unlinked)) != NULL) {
        if (unlinked) {
            module_free(m);
            continue;
        }
        cb_module *pub = &m->pub;
        if (pub->backend_module)
            ctx->device->backend->module_unload(ctx->device->backend, pub->backend_module);
        pub->backend_module = NULL;
        for (unit *u = m->units; u; u = u->next) {   /* lazy: every unit made so far */
            if (u->backend_module)
                ctx->device->backend->module_unload(ctx->device->backend, u->backend_module);
            u->backend_module = NULL;
        }
        if (m->globals_block)
            cb_mem_free(ctx, m->globals_block);
        m->globals_block = 0;
        free(pub->global_addrs);
        pub->global_addrs = NULL;
    }
}

void cb_module_resume_context(cb_context *ctx)
{
    module_impl *m;
    int unlinked;
    while ((m = module_next_of(ctx, 1, 0, &unlinked)) != NULL) {
        if (m->pub.unavailable != CUDA_SUCCESS)
            continue;   /* no code for the device: nothing to load */
        char msg[1024];
        CUresult r = m->lazy ? module_reload_units(m, msg, sizeof msg) : module_load_backend(m, msg, sizeof msg);
        module_refresh_functions(m);
        if (r != CUDA_SUCCESS) {
            /* its kernels now fail with r (cb_module_create_unavailable's rule) */
            m->pub.unavailable = r;
            if (m->pub.backend_module)
                ctx->device->backend->module_unload(ctx->device->backend, m->pub.backend_module);
            m->pub.backend_module = NULL;
        }
    }
}

/* ---- handles ----------------------------------------------------------- */

int cb_module_valid(const cb_module *m)
{
    int found = 0;
    if (!m)
        return 0;
    cb_mutex_lock(&module_lock);
    for (module_impl *p = module_live; p; p = p->next_live)
        if (&p->pub == m)
            found = !p->suspended;
    cb_mutex_unlock(&module_lock);
    return found;
}

int cb_function_valid(const cb_function *f)
{
    int found = 0;
    if (!f)
        return 0;
    cb_mutex_lock(&module_lock);
    for (module_impl *p = module_live; p && !found; p = p->next_live)
        for (uint32_t i = 0; i < p->pub.nkernels; i++)
            if (p->pub.functions[i] == f)
                found = 1;
    cb_mutex_unlock(&module_lock);
    return found;
}

CUresult cb_module_function_at(cb_module *m, uint32_t i, cb_function **out)
{
    if (i >= m->nkernels)
        return CUDA_ERROR_NOT_FOUND;
    cb_mutex_lock(&module_lock);
    cb_function *f = m->functions[i];
    cb_mutex_unlock(&module_lock);
    if (f) {
        *out = f;
        return CUDA_SUCCESS;
    }
    const cb_kernel_info *info = NULL;
    void *bmod = m->backend_module;
    uint32_t bkernel = i;
    uint64_t build_ns = 0;
    module_impl *mi = (module_impl *)m;
    if (mi->lazy) {
        cb_mutex_lock(&mi->compile_lock);
        unit *u = NULL;
        CUresult r = module_kernel_unit(mi, i, &u);
        if (r == CUDA_SUCCESS) {
            int k = cb_translation_find_kernel(u->tr, cb_ptx_index_kernel_name(mi->ix, i));
            if (k < 0)
                r = CUDA_ERROR_NOT_FOUND;
            else {
                info = &u->tr->kernels[k];
                bmod = u->backend_module;
                bkernel = (uint32_t)k;
                build_ns = u->build_ns / (u->tr->nkernels ? u->tr->nkernels : 1);
            }
        }
        cb_mutex_unlock(&mi->compile_lock);
        if (r != CUDA_SUCCESS)
            return r;
    } else {
        info = &m->tr->kernels[i];
    }
    if (info->refused) {   /* the dialect cannot express it: the module's other kernels run */
        char msg[1536];
        snprintf(msg, sizeof msg, "not supported on this device: kernel %s: %s", info->name, info->refused);
        cb_log(CB_LOG_ERROR, "%s", msg);
        cb_mutex_lock(&module_lock);
        int first = !mi->failure_noted;
        mi->failure_noted = 1;
        cb_mutex_unlock(&module_lock);
        if (first)
            module_note_failure(mi->name, CUDA_ERROR_NOT_SUPPORTED, msg);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    CUresult r = CUDA_SUCCESS;
    cb_mutex_lock(&module_lock);
    f = m->functions[i];
    if (!f) {
        f = calloc(1, sizeof *f);
        if (f) {
            const cb_device_info *in = &m->ctx->device->info;
            f->magic = CB_MAGIC_FUNCTION;
            f->module = m;
            f->index = i;
            f->info = info;
            f->backend_module = bmod;
            f->backend_kernel = bkernel;
            f->build_ns = build_ns;
            int room = in->max_shared_per_block - (int)f->info->static_smem;
            f->max_dynamic_smem = room > 0 ? room : 0;
            f->preferred_carveout = -1;
            m->functions[i] = f;
        } else {
            r = CUDA_ERROR_OUT_OF_MEMORY;
        }
    }
    cb_mutex_unlock(&module_lock);
    if (r == CUDA_SUCCESS)
        *out = f;
    return r;
}

CUresult cb_module_get_function(cb_module *m, const char *name, cb_function **out)
{
    if (m->unavailable)   /* every name is the one placeholder kernel */
        return cb_module_function_at(m, 0, out);
    module_impl *mi = (module_impl *)m;
    int i = mi->lazy ? cb_ptx_index_find_kernel(mi->ix, name) : cb_translation_find_kernel(m->tr, name);
    if (i < 0)
        return CUDA_ERROR_NOT_FOUND;
    return cb_module_function_at(m, (uint32_t)i, out);
}

CUresult cb_module_get_global(cb_module *m, const char *name, uint64_t *dptr, size_t *bytes)
{
    if (m->unavailable)
        return m->unavailable;
    int i = cb_translation_find_global(m->tr, name);
    if (i < 0)
        return CUDA_ERROR_NOT_FOUND;
    if (dptr)
        *dptr = m->global_addrs[i];
    if (bytes)
        *bytes = (size_t)m->tr->globals[i].size;
    return CUDA_SUCCESS;
}

size_t cb_module_const_bytes(const cb_module *m)
{
    size_t n = 0;
    for (uint32_t i = 0; i < m->tr->nglobals; i++)
        if (m->tr->globals[i].space == CB_SPACE_CONST)
            n += (size_t)m->tr->globals[i].size;
    return n;
}

/* ---- images this device cannot run --------------------------------------- */

const char *cb_module_name(const cb_module *m)
{
    return ((const module_impl *)m)->name;
}

CUresult cb_module_create_unavailable(cb_context *ctx, const char *name, CUresult why, const char *reason,
                                      cb_module **out)
{
    module_impl *m = calloc(1, sizeof *m);
    cb_translation *tr = calloc(1, sizeof *tr);
    cb_kernel_info *k = calloc(1, sizeof *k);
    char *kname = strdup("(a kernel of an image this device cannot run)");
    if (!m || !tr || !k || !kname) {
        free(m);
        free(tr);
        free(k);
        free(kname);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    k->name = kname;
    tr->dialect = (cb_dialect)ctx->device->backend->dialect;
    tr->nkernels = 1;
    tr->kernels = k;
    m->pub.magic = CB_MAGIC_MODULE;
    m->pub.ctx = ctx;
    m->pub.tr = tr;
    m->pub.unavailable = why;
    m->pub.nkernels = 1;
    snprintf(m->name, sizeof m->name, "%s", name);
    m->pub.functions = calloc(1, sizeof *m->pub.functions);
    if (!m->pub.functions) {
        module_free(m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    module_go_live(m);
    cb_log(CB_LOG_INFO, "%s: loaded as unavailable, its kernels fail when used: %s", name, reason ? reason : "");
    *out = &m->pub;
    return CUDA_SUCCESS;
}

void cb_module_image_name(const void *image, const char *kind, char *out, size_t outlen)
{
    char path[512];
    if (image && cb_dl_path_of(image, path, sizeof path) == 0 && path[0]) {
        const char *base = strrchr(path, '/');
        snprintf(out, outlen, "<%s in %s>", kind, base ? base + 1 : path);
    } else {
        snprintf(out, outlen, "<%s>", kind);
    }
}
