/* mock_backend.h: a device backend whose device addresses are not host
 * addresses, for the tests that prove the vtable carries a device that owns
 * its memory (test_core_mock_backend.c, test_inspect_verify_mock.c).
 *
 * Registered as "mock" (mock_register). Its device addresses lie in a
 * reserved, inaccessible (PROT_NONE) range of address space that is never
 * committed, so any host access to one faults. The bytes are kept
 * elsewhere: each allocation is backed by an allocation of a CPU backend of
 * its own, at another address. The mock moves bytes between the two itself,
 * loads modules on the CPU backend with its globals' backing addresses, and
 * runs kernels there with the parameter buffer's device addresses (and
 * texture handles) translated to the backing ones. A pointer stored in
 * device memory is not translated: kernels that chase them fault, as they
 * would on a device whose pointers the host does not share.
 *
 * mock.plant_drift: when set, every launch adds 1.0 to the first float the
 * kernel's first pointer parameter points to (a planted difference for the
 * inspector to find).
 *
 * Header-only (static functions), one copy per test program.
 */
#ifndef TEST_MOCK_BACKEND_H
#define TEST_MOCK_BACKEND_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "platform/thread.h"
#include "platform/vm.h"

#define MOCK_RANGE ((size_t)1 << 32)           /* 4 GiB of address space, never committed */
#define MOCK_TEXTURE_BASE ((uint64_t)3 << 30)  /* offset of the handles of texture objects */

typedef struct mock_alloc {
    uint64_t addr;            /* device address (in the range) */
    size_t bytes;
    cb_device_mem backing;    /* on the CPU backend */
} mock_alloc;

typedef struct mock_texture {
    uint64_t handle;          /* in the range too: kernels receive it */
    uint64_t inner;           /* the CPU backend's handle */
} mock_texture;

static struct {
    cb_mutex lock;
    uint64_t base;            /* start of the range */
    uint64_t next;            /* bump pointer (offset) */
    mock_alloc *allocs;
    size_t nallocs, capallocs;
    mock_texture textures[256];
    size_t ntextures;
    size_t used, peak;
    int plant_drift;
    unsigned launches;
} mock = {.lock = CB_MUTEX_INIT};

typedef struct mock_backend {
    cb_backend base;
    cb_backend *cpu;          /* where the bytes live and the kernels run */
} mock_backend;

static cb_backend *mock_cpu(cb_backend *self) { return ((mock_backend *)self)->cpu; }

/* 1 if addr is one of the mock's device addresses (live or not). */
static int mock_is_device_address(uint64_t addr)
{
    return mock.base && addr >= mock.base && addr < mock.base + MOCK_RANGE;
}

/* The backing host address of device address addr (inside a live allocation,
 * with room for bytes), or 0. Lock held. */
static uint64_t mock_translate_locked(uint64_t addr, size_t bytes)
{
    for (size_t i = 0; i < mock.nallocs; i++) {
        const mock_alloc *a = &mock.allocs[i];
        if (addr >= a->addr && addr - a->addr < a->bytes && bytes <= a->bytes - (addr - a->addr))
            return a->backing.addr + (addr - a->addr);
    }
    return 0;
}

static uint64_t mock_translate(uint64_t addr, size_t bytes)
{
    cb_mutex_lock(&mock.lock);
    uint64_t h = mock_translate_locked(addr, bytes);
    cb_mutex_unlock(&mock.lock);
    return h;
}

static void mock_device_info(cb_backend *self, cb_device_info *out)
{
    mock_cpu(self)->device_info(mock_cpu(self), out);
    snprintf(out->name, sizeof out->name, "Mock device (addresses not host-addressable)");
    out->total_mem = (size_t)1 << 30;
    out->host_memory_access = 0;
    out->memory_is_host = 0;
    out->managed_memory = 0;
    out->virtual_memory = 0;
}

static CUresult mock_mem_alloc(cb_backend *self, size_t bytes, unsigned flags, cb_device_mem *out)
{
    if (flags & CB_ALLOC_UNIFIED)
        return CUDA_ERROR_NOT_SUPPORTED;
    cb_backend *cpu = mock_cpu(self);
    mock_alloc a = {.bytes = bytes};
    CUresult r = cpu->mem_alloc(cpu, bytes, 0, &a.backing);
    if (r != CUDA_SUCCESS)
        return r;
    cb_mutex_lock(&mock.lock);
    size_t span = (bytes + 255) / 256 * 256 + 256;   /* a gap between allocations */
    if (mock.next + span > MOCK_TEXTURE_BASE ||
        (mock.nallocs == mock.capallocs &&
         !(mock.allocs = realloc(mock.allocs, (mock.capallocs = mock.capallocs ? 2 * mock.capallocs : 64) *
                                                  sizeof *mock.allocs)))) {
        cb_mutex_unlock(&mock.lock);
        cpu->mem_free(cpu, &a.backing);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    a.addr = mock.base + mock.next;
    mock.next += span;
    mock.allocs[mock.nallocs++] = a;
    mock.used += bytes;
    if (mock.used > mock.peak)
        mock.peak = mock.used;
    cb_mutex_unlock(&mock.lock);
    memset(out, 0, sizeof *out);
    out->addr = a.addr;
    out->bytes = bytes;
    out->host = NULL;   /* no host view */
    return CUDA_SUCCESS;
}

static void mock_mem_free(cb_backend *self, const cb_device_mem *mem)
{
    cb_backend *cpu = mock_cpu(self);
    cb_device_mem backing;
    int found = 0;
    cb_mutex_lock(&mock.lock);
    for (size_t i = 0; i < mock.nallocs && !found; i++) {
        if (mock.allocs[i].addr == mem->addr) {
            backing = mock.allocs[i].backing;
            mock.used -= mock.allocs[i].bytes;
            mock.allocs[i] = mock.allocs[--mock.nallocs];
            found = 1;
        }
    }
    cb_mutex_unlock(&mock.lock);
    if (found)
        cpu->mem_free(cpu, &backing);
}

static void mock_mem_usage(cb_backend *self, cb_mem_stats *out)
{
    (void)self;
    cb_mutex_lock(&mock.lock);
    out->used = mock.used;
    out->peak = mock.peak;
    out->total = (size_t)1 << 30;
    cb_mutex_unlock(&mock.lock);
}

static int mock_mem_owns(cb_backend *self, uint64_t addr)
{
    (void)self;
    return mock_is_device_address(addr);
}

static CUresult mock_copy_htod(cb_backend *self, uint64_t dst, const void *src, size_t bytes)
{
    (void)self;
    uint64_t h = mock_translate(dst, bytes);
    if (!h)
        return CUDA_ERROR_ILLEGAL_ADDRESS;
    memmove((void *)(uintptr_t)h, src, bytes);
    return CUDA_SUCCESS;
}

static CUresult mock_copy_dtoh(cb_backend *self, void *dst, uint64_t src, size_t bytes)
{
    (void)self;
    uint64_t h = mock_translate(src, bytes);
    if (!h)
        return CUDA_ERROR_ILLEGAL_ADDRESS;
    memmove(dst, (const void *)(uintptr_t)h, bytes);
    return CUDA_SUCCESS;
}

static CUresult mock_copy_dtod(cb_backend *self, uint64_t dst, uint64_t src, size_t bytes)
{
    (void)self;
    uint64_t d = mock_translate(dst, bytes), s = mock_translate(src, bytes);
    if (!d || !s)
        return CUDA_ERROR_ILLEGAL_ADDRESS;
    memmove((void *)(uintptr_t)d, (const void *)(uintptr_t)s, bytes);
    return CUDA_SUCCESS;
}

static CUresult mock_memset(cb_backend *self, uint64_t dst, uint32_t value, size_t elem_size, size_t count)
{
    uint64_t h = mock_translate(dst, elem_size * count);
    if (!h)
        return CUDA_ERROR_ILLEGAL_ADDRESS;
    return mock_cpu(self)->memset(mock_cpu(self), h, value, elem_size, count);
}

/* desc with its device addresses moved to the backing ones. */
static int mock_texture_desc(const cb_texture_desc *in, cb_texture_desc *out, cb_texture_desc *levels)
{
    *out = *in;
    out->base = mock_translate(in->base, 1);
    if (!out->base)
        return -1;
    if (in->levels && in->num_levels > 1) {
        for (uint32_t i = 0; i < in->num_levels; i++) {
            levels[i] = in->levels[i];
            if (!(levels[i].base = mock_translate(in->levels[i].base, 1)))
                return -1;
        }
        out->levels = levels;
    }
    return 0;
}

static CUresult mock_texture_create(cb_backend *self, const cb_texture_desc *desc, uint64_t *handle)
{
    cb_texture_desc d, levels[16];
    if (desc->num_levels > 16 || mock_texture_desc(desc, &d, levels) != 0)
        return CUDA_ERROR_INVALID_VALUE;
    uint64_t inner;
    CUresult r = mock_cpu(self)->texture_create(mock_cpu(self), &d, &inner);
    if (r != CUDA_SUCCESS)
        return r;
    cb_mutex_lock(&mock.lock);
    if (mock.ntextures == 256) {
        cb_mutex_unlock(&mock.lock);
        mock_cpu(self)->texture_destroy(mock_cpu(self), inner);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    mock_texture *t = &mock.textures[mock.ntextures++];
    t->handle = mock.base + MOCK_TEXTURE_BASE + 64 * (uint64_t)mock.ntextures;
    t->inner = inner;
    *handle = t->handle;
    cb_mutex_unlock(&mock.lock);
    return CUDA_SUCCESS;
}

static void mock_texture_destroy(cb_backend *self, uint64_t handle)
{
    uint64_t inner = 0;
    cb_mutex_lock(&mock.lock);
    for (size_t i = 0; i < mock.ntextures; i++) {
        if (mock.textures[i].handle == handle) {
            inner = mock.textures[i].inner;
            mock.textures[i] = mock.textures[--mock.ntextures];
            break;
        }
    }
    cb_mutex_unlock(&mock.lock);
    if (inner)
        mock_cpu(self)->texture_destroy(mock_cpu(self), inner);
}

/* A word of a parameter buffer, as the CPU backend must see it. */
static uint64_t mock_param_word(uint64_t v)
{
    if (!mock_is_device_address(v))
        return v;
    cb_mutex_lock(&mock.lock);
    uint64_t h = mock_translate_locked(v, 1);
    for (size_t i = 0; i < mock.ntextures && !h; i++)
        if (mock.textures[i].handle == v)
            h = mock.textures[i].inner;
    cb_mutex_unlock(&mock.lock);
    return h ? h : v;   /* a freed or wild address stays one: the kernel faults */
}

static CUresult mock_module_load(cb_backend *self, const cb_translation *tr, const uint64_t *global_addrs,
                                 void **module_out, char *err, size_t errlen)
{
    uint64_t *backing = calloc(tr->nglobals ? tr->nglobals : 1, sizeof *backing);
    if (!backing)
        return CUDA_ERROR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < tr->nglobals; i++) {
        backing[i] = mock_translate(global_addrs[i], 1);
        if (!backing[i] && tr->globals[i].size) {
            snprintf(err, errlen, "mock: global %u is not in a live allocation", i);
            free(backing);
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    CUresult r = mock_cpu(self)->module_load(mock_cpu(self), tr, backing, module_out, err, errlen);
    free(backing);
    return r;
}

static void mock_module_unload(cb_backend *self, void *module) { mock_cpu(self)->module_unload(mock_cpu(self), module); }

static CUresult mock_launch(cb_backend *self, void *module, uint32_t kernel, const cb_launch_config *cfg,
                            cb_launch_error *err)
{
    unsigned char stack[4096];
    unsigned char *params = cfg->param_bytes <= sizeof stack ? stack : malloc(cfg->param_bytes);
    if (!params)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if (cfg->param_bytes)
        memcpy(params, cfg->params, cfg->param_bytes);
    uint64_t first_pointer = 0;
    for (uint32_t o = 0; o + 8 <= cfg->param_bytes; o += 8) {
        uint64_t v;
        memcpy(&v, params + o, 8);
        uint64_t w = mock_param_word(v);
        if (w != v && !first_pointer && mock_translate(v, 4))
            first_pointer = w;
        memcpy(params + o, &w, 8);
    }
    cb_launch_config c = *cfg;
    c.params = params;
    CUresult r = mock_cpu(self)->launch(mock_cpu(self), module, kernel, &c, err);
    __atomic_add_fetch(&mock.launches, 1, __ATOMIC_RELAXED);
    if (r == CUDA_SUCCESS && __atomic_load_n(&mock.plant_drift, __ATOMIC_RELAXED) && first_pointer) {
        float f;
        memcpy(&f, (void *)(uintptr_t)first_pointer, 4);
        f += 1.0f;
        memcpy((void *)(uintptr_t)first_pointer, &f, 4);
    }
    if (params != stack)
        free(params);
    return r;
}

static void mock_shutdown(cb_backend *self)
{
    mock_cpu(self)->shutdown(mock_cpu(self));
    free(self);
}

static cb_backend *mock_create(const cb_backend_type *type, cb_backend *inner, char *err, size_t errlen)
{
    (void)type, (void)inner;
    if (!mock.base) {
        void *range = cb_vm_reserve(MOCK_RANGE);   /* PROT_NONE, never committed */
        if (!range) {
            snprintf(err, errlen, "mock: cannot reserve its address range");
            return NULL;
        }
        mock.base = (uint64_t)(uintptr_t)range;
        mock.next = 4096;
    }
    mock_backend *m = calloc(1, sizeof *m);
    if (!m || !(m->cpu = cb_backend_create("cpu", err, errlen))) {
        free(m);
        return NULL;
    }
    cb_backend *b = &m->base;
    b->name = "mock";
    b->device_info = mock_device_info;
    b->mem_alloc = mock_mem_alloc;
    b->mem_free = mock_mem_free;
    b->mem_usage = mock_mem_usage;
    b->mem_owns = mock_mem_owns;
    b->copy_htod = mock_copy_htod;
    b->copy_dtoh = mock_copy_dtoh;
    b->copy_dtod = mock_copy_dtod;
    b->memset = mock_memset;
    b->texture_create = mock_texture_create;
    b->texture_destroy = mock_texture_destroy;
    b->dialect = m->cpu->dialect;
    b->module_load = mock_module_load;
    b->module_unload = mock_module_unload;
    b->launch = mock_launch;
    b->shutdown = mock_shutdown;
    return b;
}

static const cb_backend_type mock_type = {
    .name = "mock",
    .description = "a test device whose addresses the host cannot dereference",
    .create = mock_create,
};

/* Registers "mock" in the backend registry; call before cuInit. */
static int mock_register(void) { return cb_backend_register(&mock_type); }

#endif
