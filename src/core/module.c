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

typedef struct module_impl {
    cb_module pub;
    uint64_t globals_block;     /* one device allocation holding every global, 0 if none */
    char name[128];
    struct module_impl *next_live;
    int suspended;              /* a library's module while its primary context is reset (under module_lock) */
} module_impl;

static cb_mutex module_lock = CB_MUTEX_INIT;
static module_impl *module_live;

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
    char err[1024] = "";
    int rc = cb_translate_ptx(ptx, len, name, (cb_dialect)dialect, out, err, sizeof err);
    free(ptx);
    if (rc != 0 || !*out) {
        module_error(msg, msgcap, "PTX translation failed: %s", err[0] ? err : name);
        return CUDA_ERROR_INVALID_PTX;
    }
    return CUDA_SUCCESS;
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

static void module_free(module_impl *m)
{
    cb_module *pub = &m->pub;
    if (pub->backend_module)
        pub->ctx->device->backend->module_unload(pub->ctx->device->backend, pub->backend_module);
    if (m->globals_block)
        cb_mem_free(pub->ctx, m->globals_block);
    if (pub->functions && pub->tr) {
        for (uint32_t i = 0; i < pub->tr->nkernels; i++) {
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
    }
    return r;
}

/* Stages 2 and 3 on a translated module. */
static CUresult module_instantiate(module_impl *m, char *msg, size_t msgcap)
{
    cb_module *pub = &m->pub;
    pub->functions = calloc(pub->tr->nkernels ? pub->tr->nkernels : 1, sizeof *pub->functions);
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

static CUresult module_load(cb_context *ctx, const void *image, size_t size, const char *name, cb_module **out,
                            char *msg, size_t msgcap, unsigned progress)
{
    cb_translation *tr = NULL;
    CUresult r = module_translate(image, size, cb_device_sm(ctx->device), ctx->device->backend->dialect, name, &tr,
                                  msg, msgcap, progress);
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
    cb_stats_add(CB_STAT_MODULES_LOADED, 1);
    cb_stats_add(CB_STAT_KERNELS_TRANSLATED, tr->nkernels);
    cb_mutex_lock(&module_lock);
    m->next_live = module_live;
    module_live = m;
    cb_mutex_unlock(&module_lock);
    cb_log(CB_LOG_INFO, "%s: loaded %u kernels, %u globals", name, tr->nkernels, tr->nglobals);
    *out = &m->pub;
    return CUDA_SUCCESS;
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
        CUresult r = module_load_backend(m, msg, sizeof msg);
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
        for (uint32_t i = 0; i < p->pub.tr->nkernels; i++)
            if (p->pub.functions[i] == f)
                found = 1;
    cb_mutex_unlock(&module_lock);
    return found;
}

CUresult cb_module_function_at(cb_module *m, uint32_t i, cb_function **out)
{
    if (i >= m->tr->nkernels)
        return CUDA_ERROR_NOT_FOUND;
    CUresult r = CUDA_SUCCESS;
    cb_mutex_lock(&module_lock);
    cb_function *f = m->functions[i];
    if (!f) {
        f = calloc(1, sizeof *f);
        if (f) {
            const cb_device_info *in = &m->ctx->device->info;
            f->magic = CB_MAGIC_FUNCTION;
            f->module = m;
            f->index = i;
            f->info = &m->tr->kernels[i];
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
    int i = cb_translation_find_kernel(m->tr, name);
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
    char *kname = strdup("(a kernel of an image without code for this device)");
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
    snprintf(m->name, sizeof m->name, "%s", name);
    m->pub.functions = calloc(1, sizeof *m->pub.functions);
    if (!m->pub.functions) {
        module_free(m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    cb_mutex_lock(&module_lock);
    m->next_live = module_live;
    module_live = m;
    cb_mutex_unlock(&module_lock);
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
