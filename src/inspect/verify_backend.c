/* verify_backend.c: the inspector's backends, "trace" and "verify", which
 * wrap a device the way SQLite's vfstrace wraps a VFS (inspect.h).
 *
 * Each forwards every entry point to the backend it wraps, unchanged (the
 * library interface too: verify_lib.c), but
 * for modules and launches: module_load also keeps the translation and the
 * global addresses (and, for "verify", a reference to load on the
 * reference backend when a kernel is first checked); launch goes through
 * cb_inspect_run, which records it ("trace") and checks it ("verify") while
 * the inspector is on. Nothing in the core knows they exist: the inspector
 * names one as the device wrapper of the registry, and cb_init wraps every
 * device it opens.
 *
 * An instance is named "<wrapper>:<inner>" ("verify:cpu"), the device spec
 * that would open it.
 */
#include <stdlib.h>
#include <string.h>

#include "inspect/inspect_internal.h"

/* A texture or surface object the inner backend made, as it was described ("verify"). */
typedef struct wrapped_texture {
    struct wrapped_texture *next;
    uint64_t handle;
    cb_texture_desc desc;       /* desc.levels: own copy */
} wrapped_texture;

struct cbi_textures {
    cb_mutex lock;
    wrapped_texture *list;
};

typedef struct wrapper {
    cb_backend base;            /* first: a cb_backend * is a wrapper * */
    cb_backend *inner;
    int verify;                 /* 1: "verify", 0: "trace" */
    char name[96];
    cbi_textures textures;      /* "verify": the objects the reference remakes (reference.c) */
} wrapper;

typedef struct wrapped_module {
    void *inner;
    const cb_translation *tr;
    uint64_t *globals;          /* copy of the device's global addresses */
    cb_inspect_reference *reference;   /* "verify" only */
} wrapped_module;

static cb_backend *in(cb_backend *self) { return ((wrapper *)self)->inner; }

static void w_device_info(cb_backend *self, cb_device_info *out) { in(self)->device_info(in(self), out); }

static CUresult w_mem_alloc(cb_backend *self, size_t bytes, unsigned flags, cb_device_mem *out)
{
    return in(self)->mem_alloc(in(self), bytes, flags, out);
}
static void w_mem_free(cb_backend *self, const cb_device_mem *mem) { in(self)->mem_free(in(self), mem); }
static void w_mem_usage(cb_backend *self, cb_mem_stats *out) { in(self)->mem_usage(in(self), out); }
static int w_mem_owns(cb_backend *self, uint64_t addr) { return in(self)->mem_owns(in(self), addr); }

static CUresult w_copy_htod(cb_backend *self, uint64_t dst, const void *src, size_t bytes)
{
    return in(self)->copy_htod(in(self), dst, src, bytes);
}
static CUresult w_copy_dtoh(cb_backend *self, void *dst, uint64_t src, size_t bytes)
{
    return in(self)->copy_dtoh(in(self), dst, src, bytes);
}
static CUresult w_copy_dtod(cb_backend *self, uint64_t dst, uint64_t src, size_t bytes)
{
    return in(self)->copy_dtod(in(self), dst, src, bytes);
}
static CUresult w_memset(cb_backend *self, uint64_t dst, uint32_t value, size_t elem_size, size_t count)
{
    return in(self)->memset(in(self), dst, value, elem_size, count);
}

static CUresult w_va_reserve(cb_backend *self, size_t bytes, size_t align, uint64_t *addr)
{
    return in(self)->va_reserve(in(self), bytes, align, addr);
}
static void w_va_release(cb_backend *self, uint64_t addr, size_t bytes) { in(self)->va_release(in(self), addr, bytes); }
static CUresult w_phys_create(cb_backend *self, size_t bytes, void **phys)
{
    return in(self)->phys_create(in(self), bytes, phys);
}
static void w_phys_release(cb_backend *self, void *phys, size_t bytes)
{
    in(self)->phys_release(in(self), phys, bytes);
}
static CUresult w_va_map(cb_backend *self, uint64_t addr, size_t bytes, void *phys, size_t offset)
{
    return in(self)->va_map(in(self), addr, bytes, phys, offset);
}
static void w_va_unmap(cb_backend *self, uint64_t addr, size_t bytes) { in(self)->va_unmap(in(self), addr, bytes); }
static CUresult w_va_protect(cb_backend *self, uint64_t addr, size_t bytes, int access)
{
    return in(self)->va_protect(in(self), addr, bytes, access);
}

/* desc with levels copied (*out's levels are its own, NULL when it has none). 0, or -1 out of memory. */
static int texture_desc_copy(const cb_texture_desc *desc, cb_texture_desc *out)
{
    *out = *desc;
    out->levels = NULL;
    if (desc->num_levels <= 1 || !desc->levels)
        return 0;
    cb_texture_desc *l = malloc(desc->num_levels * sizeof *l);
    if (!l)
        return -1;
    memcpy(l, desc->levels, desc->num_levels * sizeof *l);
    out->levels = l;
    return 0;
}

static CUresult w_texture_create(cb_backend *self, const cb_texture_desc *desc, uint64_t *handle)
{
    wrapper *w = (wrapper *)self;
    wrapped_texture *t = w->verify ? calloc(1, sizeof *t) : NULL;
    if (w->verify && (!t || texture_desc_copy(desc, &t->desc) != 0)) {
        free(t);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    CUresult r = w->inner->texture_create(w->inner, desc, handle);
    if (r != CUDA_SUCCESS || !t) {
        if (t)
            free((void *)t->desc.levels);
        free(t);
        return r;
    }
    t->handle = *handle;
    cb_mutex_lock(&w->textures.lock);
    t->next = w->textures.list;
    w->textures.list = t;
    cb_mutex_unlock(&w->textures.lock);
    return CUDA_SUCCESS;
}

static void w_texture_destroy(cb_backend *self, uint64_t handle)
{
    wrapper *w = (wrapper *)self;
    cb_mutex_lock(&w->textures.lock);
    wrapped_texture **p = &w->textures.list, *t;
    while (*p && (*p)->handle != handle)
        p = &(*p)->next;
    t = *p;
    if (t)
        *p = t->next;
    cb_mutex_unlock(&w->textures.lock);
    if (t)
        free((void *)t->desc.levels);
    free(t);
    w->inner->texture_destroy(w->inner, handle);
}

int cbi_texture_describe(cbi_textures *ts, uint64_t handle, cb_texture_desc *out)
{
    int rc = -1;
    cb_mutex_lock(&ts->lock);
    for (const wrapped_texture *t = ts->list; t; t = t->next)
        if (t->handle == handle) {
            rc = texture_desc_copy(&t->desc, out);
            break;
        }
    cb_mutex_unlock(&ts->lock);
    return rc;
}

static void w_module_unload(cb_backend *self, void *module)
{
    wrapped_module *m = module;
    if (!m)
        return;
    in(self)->module_unload(in(self), m->inner);
    cb_inspect_reference_free(m->reference);
    free(m->globals);
    free(m);
}

static CUresult w_module_load(cb_backend *self, const cb_translation *tr, const uint64_t *global_addrs,
                              void **module_out, char *err, size_t errlen)
{
    wrapped_module *m = calloc(1, sizeof *m);
    if (!m)
        return CUDA_ERROR_OUT_OF_MEMORY;
    m->tr = tr;
    if (tr->nglobals && global_addrs) {
        m->globals = malloc(tr->nglobals * sizeof *m->globals);
        if (m->globals)
            memcpy(m->globals, global_addrs, tr->nglobals * sizeof *m->globals);
    }
    if (((wrapper *)self)->verify)
        m->reference = cb_inspect_reference_new(tr);
    if ((tr->nglobals && global_addrs && !m->globals) || (((wrapper *)self)->verify && !m->reference)) {
        w_module_unload(self, m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    CUresult r = in(self)->module_load(in(self), tr, global_addrs, &m->inner, err, errlen);
    if (r != CUDA_SUCCESS) {
        cb_inspect_reference_free(m->reference);
        free(m->globals);
        free(m);
        return r;
    }
    *module_out = m;
    return CUDA_SUCCESS;
}

static CUresult w_launch(cb_backend *self, void *module, uint32_t kernel, const cb_launch_config *cfg,
                         cb_launch_error *err)
{
    wrapper *w = (wrapper *)self;
    wrapped_module *m = module;
    if (!cb_inspect_active())
        return w->inner->launch(w->inner, m ? m->inner : NULL, kernel, cfg, err);
    if (!m || kernel >= m->tr->nkernels)
        return w->inner->launch(w->inner, m ? m->inner : NULL, kernel, cfg, err);   /* let it refuse */
    cb_inspect_kernel k = {
        .tr = m->tr,
        .kernel = kernel,
        .device = w->inner,
        .module = m->inner,
        .globals = m->globals,
        .reference = m->reference,
        .textures = w->verify ? &w->textures : NULL,
        .record_only = !w->verify,
    };
    return cb_inspect_run(&k, cfg, err);
}

static void w_shutdown(cb_backend *self)
{
    wrapper *w = (wrapper *)self;
    in(self)->shutdown(in(self));
    while (w->textures.list) {
        wrapped_texture *t = w->textures.list;
        w->textures.list = t->next;
        free((void *)t->desc.levels);
        free(t);
    }
    cb_mutex_destroy(&w->textures.lock);
    free(self);
}

static CUresult w_host_map(cb_backend *self, const void *ptr, size_t bytes)
{
    return in(self)->host_map(in(self), ptr, bytes);
}

static void w_host_unmap(cb_backend *self, const void *ptr, size_t bytes) { in(self)->host_unmap(in(self), ptr, bytes); }

static void w_module_cache_stats(cb_backend *self, unsigned *hits, unsigned *misses)
{
    in(self)->module_cache_stats(in(self), hits, misses);
}

/* Sets entry x of the wrapper when the inner backend has one. */
#define FORWARD(x) w->base.x = inner->x ? w_##x : NULL

static cb_backend *wrapper_create(const cb_backend_type *type, cb_backend *inner, char *err, size_t errlen)
{
    if (!inner) {
        snprintf(err, errlen, "the %s backend wraps another one (\"%s:cpu\")", type->name, type->name);
        return NULL;
    }
    wrapper *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    w->inner = inner;
    w->verify = strcmp(type->name, "verify") == 0;
    cb_mutex_init(&w->textures.lock);
    snprintf(w->name, sizeof w->name, "%s:%s", type->name, inner->name);
    w->base.name = w->name;
    w->base.device_info = w_device_info;
    FORWARD(mem_alloc);
    FORWARD(mem_free);
    FORWARD(mem_usage);
    FORWARD(mem_owns);
    FORWARD(copy_htod);
    FORWARD(copy_dtoh);
    FORWARD(copy_dtod);
    FORWARD(memset);
    FORWARD(va_reserve);
    FORWARD(va_release);
    FORWARD(phys_create);
    FORWARD(phys_release);
    FORWARD(va_map);
    FORWARD(va_unmap);
    FORWARD(va_protect);
    FORWARD(texture_create);
    FORWARD(texture_destroy);
    w->base.dialect = inner->dialect;
    w->base.lanes = inner->lanes;
    w->base.warp_size = inner->warp_size;
    w->base.module_load = w_module_load;
    w->base.module_unload = w_module_unload;
    w->base.launch = w_launch;
    w->base.shutdown = w_shutdown;
    FORWARD(module_cache_stats);
    w->base.lib = inner->lib ? cbi_wrapper_lib() : NULL;   /* the library facades' calls (verify_lib.c) */
    FORWARD(host_map);
    FORWARD(host_unmap);
    return &w->base;
}
#undef FORWARD

const char *cbi_backend_name(const cb_backend *b)
{
    while (b && b->launch == w_launch)
        b = ((const wrapper *)b)->inner;
    return b ? b->name : "none";
}

cb_backend *cbi_wrapped(cb_backend *b) { return b && b->launch == w_launch ? ((wrapper *)b)->inner : NULL; }

static const cb_backend_type trace_type = {
    .name = "trace",
    .description = "the inspector's wrapper: records each launch of the device it wraps",
    .is_wrapper = 1,
    .create = wrapper_create,
};

static const cb_backend_type verify_type = {
    .name = "verify",
    .description = "the inspector's wrapper: records each launch and checks it on the reference backend",
    .is_wrapper = 1,
    .create = wrapper_create,
};

void cbi_register_backends(void)
{
    cb_backend_register(&trace_type);
    cb_backend_register(&verify_type);
}
