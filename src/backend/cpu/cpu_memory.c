/* cpu_memory.c: the CPU device's memory behind the vtable: arena
 * allocations (arena.c), byte moves and fills, virtual memory (shared
 * memory objects mapped into arena reservations) and texture objects
 * (kernel_abi.h's cb_texobj in host memory, its address the handle).
 *
 * Device addresses are host addresses inside the arena, so every
 * allocation has a host view at its device address: managed memory is
 * ordinary arena memory here, and kernels reach host memory directly.
 */
#include <stdlib.h>
#include <string.h>

#include "backend/cpu/arena.h"
#include "backend/cpu/cpu_internal.h"
#include "platform/vm.h"

static CUresult cpu_mem_alloc(cb_backend *self, size_t bytes, unsigned flags, cb_device_mem *out)
{
    (void)self, (void)flags;   /* every allocation is host-visible at its address */
    cb_arena_block block;
    uint64_t ptr;
    if (bytes == 0 || cb_arena_alloc(bytes, &ptr, &block) != 0)
        return CUDA_ERROR_OUT_OF_MEMORY;
    memset(out, 0, sizeof *out);
    out->addr = ptr;
    out->bytes = bytes;
    out->host = (void *)(uintptr_t)ptr;
    out->token[0] = block.start;
    out->token[1] = block.bytes;
    return CUDA_SUCCESS;
}

static void cpu_mem_free(cb_backend *self, const cb_device_mem *mem)
{
    (void)self;
    cb_arena_free((cb_arena_block){mem->token[0], (size_t)mem->token[1]});
}

static void cpu_mem_usage(cb_backend *self, cb_mem_stats *out)
{
    (void)self;
    cb_arena_stats st = cb_arena_get_stats();
    out->used = st.used;
    out->peak = st.peak;
    out->total = st.total;
}

static int cpu_mem_owns(cb_backend *self, uint64_t addr)
{
    (void)self;
    return cb_arena_contains(addr);
}

static CUresult cpu_copy_htod(cb_backend *self, uint64_t dst, const void *src, size_t bytes)
{
    (void)self;
    memmove((void *)(uintptr_t)dst, src, bytes);
    return CUDA_SUCCESS;
}

static CUresult cpu_copy_dtoh(cb_backend *self, void *dst, uint64_t src, size_t bytes)
{
    (void)self;
    memmove(dst, (const void *)(uintptr_t)src, bytes);
    return CUDA_SUCCESS;
}

static CUresult cpu_copy_dtod(cb_backend *self, uint64_t dst, uint64_t src, size_t bytes)
{
    (void)self;
    memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes);
    return CUDA_SUCCESS;
}

static CUresult cpu_memset(cb_backend *self, uint64_t dst, uint32_t value, size_t elem_size, size_t count)
{
    (void)self;
    unsigned char *p = (unsigned char *)(uintptr_t)dst;
    if (elem_size == 1) {
        memset(p, (int)(value & 0xff), count);
    } else if (elem_size == 2) {
        uint16_t v = (uint16_t)value;
        for (size_t i = 0; i < count; i++)
            memcpy(p + 2 * i, &v, 2);
    } else if (elem_size == 4) {
        for (size_t i = 0; i < count; i++)
            memcpy(p + 4 * i, &value, 4);
    } else {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

/* ---- virtual memory ---------------------------------------------------------- */

/* Physical memory: a shared memory object, charged against the arena's total. */
typedef struct cpu_phys {
    int fd;
    size_t bytes;
} cpu_phys;

static CUresult cpu_va_reserve(cb_backend *self, size_t bytes, size_t align, uint64_t *addr)
{
    (void)self;
    *addr = cb_arena_reserve(bytes, align);
    return *addr ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

static void cpu_va_release(cb_backend *self, uint64_t addr, size_t bytes)
{
    (void)self;
    cb_arena_unreserve(addr, bytes);
}

static CUresult cpu_phys_create(cb_backend *self, size_t bytes, void **phys)
{
    (void)self;
    if (cb_arena_charge(bytes) != 0)
        return CUDA_ERROR_OUT_OF_MEMORY;
    cpu_phys *p = malloc(sizeof *p);
    int fd = p ? cb_vm_shm_create("cubridge-vmm", bytes) : -1;
    if (fd < 0) {
        free(p);
        cb_arena_uncharge(bytes);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    p->fd = fd;
    p->bytes = bytes;
    *phys = p;
    return CUDA_SUCCESS;
}

static void cpu_phys_release(cb_backend *self, void *phys, size_t bytes)
{
    (void)self, (void)bytes;
    cpu_phys *p = phys;
    cb_vm_shm_close(p->fd);
    cb_arena_uncharge(p->bytes);
    free(p);
}

static CUresult cpu_va_map(cb_backend *self, uint64_t addr, size_t bytes, void *phys, size_t offset)
{
    (void)self;
    cpu_phys *p = phys;
    return cb_vm_map_shm((void *)(uintptr_t)addr, bytes, p->fd, offset, CB_VM_NONE) == 0 ? CUDA_SUCCESS
                                                                                         : CUDA_ERROR_OUT_OF_MEMORY;
}

static void cpu_va_unmap(cb_backend *self, uint64_t addr, size_t bytes)
{
    (void)self;
    cb_vm_unmap_to_reserved((void *)(uintptr_t)addr, bytes);
}

static CUresult cpu_va_protect(cb_backend *self, uint64_t addr, size_t bytes, int access)
{
    (void)self;
    int vm = access == CB_ACCESS_READWRITE ? CB_VM_READWRITE : access == CB_ACCESS_READ ? CB_VM_READ : CB_VM_NONE;
    return cb_vm_protect((void *)(uintptr_t)addr, bytes, vm) == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* ---- texture and surface objects ------------------------------------------------ */

/* What a handle points to: the object kernels read, and its levels. */
typedef struct cpu_texture {
    cb_texobj obj;              /* first: the handle is its address */
    cb_texobj *levels;
} cpu_texture;

static void texobj_fill(cb_texobj *o, const cb_texture_desc *d)
{
    memset(o, 0, sizeof *o);
    o->magic = CB_TEXOBJ_MAGIC;
    o->base = (unsigned char *)(uintptr_t)d->base;
    CB_TEXDESC_COPY(o, d);
}

static CUresult cpu_texture_create(cb_backend *self, const cb_texture_desc *desc, uint64_t *handle)
{
    (void)self;
    cpu_texture *t = calloc(1, sizeof *t);
    if (!t)
        return CUDA_ERROR_OUT_OF_MEMORY;
    texobj_fill(&t->obj, desc);
    if (desc->num_levels > 1 && desc->levels) {
        t->levels = calloc(desc->num_levels, sizeof *t->levels);
        if (!t->levels) {
            free(t);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        for (uint32_t i = 0; i < desc->num_levels; i++) {
            texobj_fill(&t->levels[i], &desc->levels[i]);
            t->levels[i].num_levels = 1;
        }
        t->obj.level = t->levels;
    }
    *handle = (uint64_t)(uintptr_t)&t->obj;
    return CUDA_SUCCESS;
}

static void cpu_texture_destroy(cb_backend *self, uint64_t handle)
{
    (void)self;
    cpu_texture *t = (cpu_texture *)(uintptr_t)handle;
    if (!t)
        return;
    free(t->levels);
    free(t);
}

void cb_cpu_memory_ops(cb_backend *b)
{
    b->mem_alloc = cpu_mem_alloc;
    b->mem_free = cpu_mem_free;
    b->mem_usage = cpu_mem_usage;
    b->mem_owns = cpu_mem_owns;
    b->copy_htod = cpu_copy_htod;
    b->copy_dtoh = cpu_copy_dtoh;
    b->copy_dtod = cpu_copy_dtod;
    b->memset = cpu_memset;
    b->va_reserve = cpu_va_reserve;
    b->va_release = cpu_va_release;
    b->phys_create = cpu_phys_create;
    b->phys_release = cpu_phys_release;
    b->va_map = cpu_va_map;
    b->va_unmap = cpu_va_unmap;
    b->va_protect = cpu_va_protect;
    b->texture_create = cpu_texture_create;
    b->texture_destroy = cpu_texture_destroy;
}
