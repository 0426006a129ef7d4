/* backend.h: one vtable per device backend (the sqlite3_vfs pattern), and
 * the registry that finds backends by name.
 *
 * A backend is a device that owns its memory. The core (src/core) drives it
 * only through this struct and never knows which one it is; it never
 * dereferences a device address: allocation, copies, fills, texture
 * objects, virtual memory and modules all go through the vtable. Every call
 * is synchronous: ordering, streams and events live in the core, which calls
 * launch/copy from its stream workers. A backend must accept calls from
 * several threads at once.
 *
 * Device addresses are uint64_t in one space shared by every device of the
 * process (unified addressing): a backend hands out addresses no other
 * device uses. They need not be host addresses. The CPU backend's are
 * (its arena, src/backend/cpu/arena.h); a device whose memory is elsewhere
 * gives cb_device_mem.host = NULL and says so in cb_device_info.
 *
 * Who owns what (docs/memory.md):
 *   device memory (cuMemAlloc, pools, module globals, CUDA arrays) -- the
 *     backend (mem_alloc/mem_free);
 *   managed memory (cuMemAllocManaged) -- the backend, allocated with
 *     CB_ALLOC_UNIFIED (host-visible at the device address); only devices
 *     with cb_device_info.managed_memory offer it;
 *   pinned and registered host memory -- the core (it is host memory);
 *     kernels reach it only on devices with host_memory_access, at the host
 *     address;
 *   virtual memory (cuMemCreate/cuMemMap) -- the backend's va_* entry
 *     points; the core keeps the handles and the bookkeeping.
 */
#ifndef CB_BACKEND_H
#define CB_BACKEND_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#include "codegen/translate.h"

typedef struct cb_backend cb_backend;

enum { CB_LANES_NONE, CB_LANES_ALL, CB_LANES_HOT };

typedef struct cb_launch_config {
    uint32_t grid[3];
    uint32_t block[3];
    uint32_t dynamic_smem;
    const unsigned char *params;   /* packed .param buffer, cb_kernel_info layout */
    uint32_t param_bytes;
    uint32_t cooperative;          /* launched as cooperative (grid sync allowed) */
    unsigned long long stream_id;  /* the core's stream running it (0: none), for reports */
    uint32_t cluster[3];           /* thread block cluster shape; {0,0,0}: none */
} cb_launch_config;

/* What went wrong in a failed launch, for the log and the inspector. */
typedef struct cb_launch_error {
    CUresult result;
    char message[512];             /* kernel, block, thread, address where known */
    uint64_t fault_addr;           /* the address a memory fault touched, 0 if none or unknown */
    /* Set on success too: what ran but deserves a warning (for the
     * inspector and the exit summary); warnings counts the events, warning
     * describes the first (block, warp, lanes, instruction: the kernel is
     * the launch's). */
    uint32_t warnings;
    char warning[256];
} cb_launch_error;

/* Device facts a backend reports; the driver builds cuDeviceGetAttribute from it. */
typedef struct cb_device_info {
    char name[256];
    size_t total_mem;
    int multiprocessors;
    int max_threads_per_block;
    int max_shared_per_block;          /* static limit, bytes */
    int max_shared_per_block_optin;    /* opt-in limit, bytes */
    int max_shared_per_multiprocessor;
    int clock_khz;
    int l2_cache_bytes;                /* the device's last-level cache, 0 if unknown */
    int warp_size;                     /* lanes of a warp (32), or the subgroup width */
    int host_memory_access;            /* kernels reach host memory at host addresses (pinned, registered) */
    int memory_is_host;                /* its device memory is host memory at the same addresses (the CPU's) */
    int managed_memory;                /* CB_ALLOC_UNIFIED allocations work */
    int virtual_memory;                /* the va_* and phys_* entry points work */
} cb_device_info;

/* Device memory as its backend hands it out. */
typedef struct cb_device_mem {
    uint64_t addr;                 /* the device address programs see */
    size_t bytes;                  /* as requested */
    void *host;                    /* a host view of the same bytes, or NULL (none) */
    uint64_t token[2];             /* the backend's own bookkeeping */
} cb_device_mem;

/* mem_alloc flags. */
enum {
    CB_ALLOC_UNIFIED = 1,          /* host-visible at the device address (managed memory) */
};

/* Access of a virtual memory mapping (va_protect). */
enum { CB_ACCESS_NONE = 0, CB_ACCESS_READ = 1, CB_ACCESS_READWRITE = 2 };

typedef struct cb_mem_stats {
    size_t used;                   /* bytes in use now */
    size_t peak;                   /* the most in use */
    size_t total;                  /* the device's memory (cuMemGetInfo's total) */
} cb_mem_stats;

/* A texture or surface object, described without reference to any backend's
 * layout: the backend turns it into what its kernels read (texture_create).
 * Sizes are in elements; base is a device address. */
typedef struct cb_texture_desc {
    uint64_t base;
    uint64_t pitch, slice, layer_bytes;  /* bytes between rows, slices, layers */
    uint32_t width, height, depth, layers;  /* layers 0: not layered */
    uint32_t dims;                 /* 1, 2 or 3 */
    uint32_t format, channels, elem_bytes;  /* CUarray_format, 1/2/4 channels */
    uint32_t is_surface, cube;     /* cube: layers count faces, 6 per cube */
    uint32_t address[3], filter, flags;     /* CUDA_TEXTURE_DESC's */
    float border[4];
    uint32_t mip_filter, max_aniso;
    float lod_bias, min_lod, max_lod;
    uint32_t num_levels;           /* > 1: levels[i] is mip level i (geometry only) */
    const struct cb_texture_desc *levels;
} cb_texture_desc;

/* Copies into a backend's texture object o the fields it shares with
 * cb_texture_desc d under the same names (the geometry, format, sampling
 * and mip fields); the object's own (magic, base, levels) are the caller's.
 * num_levels 0 becomes 1. */
#define CB_TEXDESC_COPY(o, d)                                        \
    do {                                                             \
        (o)->is_surface = (d)->is_surface;                           \
        (o)->pitch = (d)->pitch;                                     \
        (o)->slice = (d)->slice;                                     \
        (o)->layer_bytes = (d)->layer_bytes;                         \
        (o)->width = (d)->width;                                     \
        (o)->height = (d)->height;                                   \
        (o)->depth = (d)->depth;                                     \
        (o)->layers = (d)->layers;                                   \
        (o)->dims = (d)->dims;                                       \
        (o)->format = (d)->format;                                   \
        (o)->channels = (d)->channels;                               \
        (o)->elem_bytes = (d)->elem_bytes;                           \
        memcpy((o)->address, (d)->address, sizeof (o)->address);    \
        (o)->filter = (d)->filter;                                   \
        (o)->flags = (d)->flags;                                     \
        memcpy((o)->border, (d)->border, sizeof (o)->border);        \
        (o)->cube = (d)->cube;                                       \
        (o)->num_levels = (d)->num_levels ? (d)->num_levels : 1;     \
        (o)->mip_filter = (d)->mip_filter;                           \
        (o)->lod_bias = (d)->lod_bias;                               \
        (o)->min_lod = (d)->min_lod;                                 \
        (o)->max_lod = (d)->max_lod;                                 \
        (o)->max_aniso = (d)->max_aniso;                             \
    } while (0)

struct cb_backend {
    const char *name;               /* its registry name: "cpu", "opencl", "verify" ... */

    /* Fills device facts. */
    void (*device_info)(cb_backend *self, cb_device_info *out);

    /* ---- memory the device owns ----
     * mem_alloc: bytes > 0, CUDA's 256-byte alignment; CUDA_ERROR_OUT_OF_MEMORY
     * when the device is full (later allocations still work), or
     * CUDA_ERROR_NOT_SUPPORTED for flags it cannot honour. mem_free takes
     * back what mem_alloc gave. mem_owns: 1 if addr lies in the device's
     * address range (live or not), for telling freed device memory from
     * host memory. */
    CUresult (*mem_alloc)(cb_backend *self, size_t bytes, unsigned flags, cb_device_mem *out);
    void (*mem_free)(cb_backend *self, const cb_device_mem *mem);
    void (*mem_usage)(cb_backend *self, cb_mem_stats *out);
    int (*mem_owns)(cb_backend *self, uint64_t addr);

    /* Byte moves between host memory and the device's, and inside the device. */
    CUresult (*copy_htod)(cb_backend *self, uint64_t dst, const void *src, size_t bytes);
    CUresult (*copy_dtoh)(cb_backend *self, void *dst, uint64_t src, size_t bytes);
    CUresult (*copy_dtod)(cb_backend *self, uint64_t dst, uint64_t src, size_t bytes);
    /* Fills count elements of elem_size (1, 2 or 4) bytes with value. */
    CUresult (*memset)(cb_backend *self, uint64_t dst, uint32_t value, size_t elem_size, size_t count);

    /* ---- virtual memory (cuMemAddressReserve, cuMemCreate, cuMemMap) ----
     * NULL, or failing with CUDA_ERROR_NOT_SUPPORTED, where the device has
     * none. A reservation is address space only; physical memory is charged
     * against the device's total; a mapping starts with CB_ACCESS_NONE. */
    CUresult (*va_reserve)(cb_backend *self, size_t bytes, size_t align, uint64_t *addr);
    void (*va_release)(cb_backend *self, uint64_t addr, size_t bytes);
    CUresult (*phys_create)(cb_backend *self, size_t bytes, void **phys);
    void (*phys_release)(cb_backend *self, void *phys, size_t bytes);
    CUresult (*va_map)(cb_backend *self, uint64_t addr, size_t bytes, void *phys, size_t offset);
    void (*va_unmap)(cb_backend *self, uint64_t addr, size_t bytes);
    CUresult (*va_protect)(cb_backend *self, uint64_t addr, size_t bytes, int access);

    /* ---- texture and surface objects ----
     * texture_create turns desc into the object its kernels read and gives
     * the handle (CUtexObject / CUsurfObject) kernels receive. */
    CUresult (*texture_create)(cb_backend *self, const cb_texture_desc *desc, uint64_t *handle);
    void (*texture_destroy)(cb_backend *self, uint64_t handle);

    /* ---- modules ----
     * dialect: the code generator's dialect (CB_DIALECT_*) the core
     * translates PTX into for this device. module_load takes a translation
     * (the backend may keep a pointer to it until module_unload) and the
     * device addresses the core allocated for its globals, in
     * cb_global_info order. */
    int dialect;
    /* The C dialect's lanes entries (cb_translate_opts.lanes), the fast
     * path of the CPU backend: CB_LANES_NONE (the dialect has none, or
     * CUBRIDGE_CODEGEN=general), CB_LANES_ALL (every unit has them:
     * CUBRIDGE_CODEGEN=fast) or CB_LANES_HOT (tiered, the default: units
     * are made without them, and a kernel whose launches have taken long
     * enough is translated again alone with them: src/core/module.c). */
    int lanes;
    /* Lanes of its warps as the translator must see them
     * (cb_translate_opts.warp_size): 0 or 32, or 64 for the CPU backend
     * under CUBRIDGE_WARP_SIZE=64 (docs/cpu-backend.md, "64-lane warps"). */
    int warp_size;
    CUresult (*module_load)(cb_backend *self, const cb_translation *tr, const uint64_t *global_addrs,
                            void **module_out, char *err, size_t errlen);
    void (*module_unload)(cb_backend *self, void *module);

    /* Runs kernel `kernel` of module to completion. On failure fills *err. */
    CUresult (*launch)(cb_backend *self, void *module, uint32_t kernel, const cb_launch_config *cfg,
                       cb_launch_error *err);

    /* Releases everything. */
    void (*shutdown)(cb_backend *self);

    /* Optional, for devices with host_memory_access (NULL: the device
     * reaches host memory without being told): host memory the core pinned
     * or registered (cuMemHostAlloc, cuMemHostRegister) becomes reachable
     * by kernels at its host address from host_map until host_unmap, as a
     * GPU maps it into its page tables; kernels touching other host memory
     * fail. host_map returns CUDA_SUCCESS or CUDA_ERROR_OUT_OF_MEMORY. */
    CUresult (*host_map)(cb_backend *self, const void *ptr, size_t bytes);
    void (*host_unmap)(cb_backend *self, const void *ptr, size_t bytes);

    /* Optional (NULL if the backend keeps no compile cache): how many
     * module_load calls of this process were served from the backend's
     * compile cache (hits) and how many compiled (misses). */
    void (*module_cache_stats)(cb_backend *self, unsigned *hits, unsigned *misses);

    const struct cb_backend_lib *lib;   /* BLAS for the library facades (backend_lib.h), or NULL */
};

/* ---- the registry (src/backend/registry.c) ---------------------------------
 * Backend types by name. The built-in devices (cpu) are always there; other
 * layers add theirs (the inspector its wrappers "trace" and "verify", a test
 * its mock) before the first device is opened. Process-wide state, guarded
 * by its own lock. */

typedef struct cb_backend_type {
    const char *name;
    const char *description;       /* one line, for `cubridge devices` */
    int is_wrapper;                /* 1: it wraps another backend (create's inner) */
    /* A new instance: of a device (inner NULL) or wrapping inner, which it
     * then owns (its shutdown shuts inner down). NULL with a reason in err. */
    cb_backend *(*create)(const struct cb_backend_type *type, cb_backend *inner, char *err, size_t errlen);
} cb_backend_type;

/* Adds type (kept, not copied). 0, or -1 when the name is taken or the table full. */
int cb_backend_register(const cb_backend_type *type);
/* The type named name, or NULL. */
const cb_backend_type *cb_backend_find(const char *name);
/* The i-th registered type (0, 1, ...), or NULL past the last. */
const cb_backend_type *cb_backend_type_at(int i);

/* A new instance of device backend name (no wrapper). NULL with a reason in err. */
cb_backend *cb_backend_create(const char *name, char *err, size_t errlen);
/* A new instance of wrapper `wrapper` around inner (consumed: shut down on failure). */
cb_backend *cb_backend_wrap(const char *wrapper, cb_backend *inner, char *err, size_t errlen);

/* The wrapper that every device the core opens gets (the inspector sets
 * "trace" or "verify"; NULL clears it). The name is kept. */
void cb_backend_set_device_wrapper(const char *wrapper);
const char *cb_backend_device_wrapper(void);

/* Opens a device from a spec: "name" (a device backend, wrapped by the
 * device wrapper if one is set) or "wrapper:spec" (wrapper around spec).
 * NULL with a reason in err. */
cb_backend *cb_backend_open(const char *spec, char *err, size_t errlen);

/* The warp width CUBRIDGE_WARP_SIZE asks for: 32 (also when unset or
 * empty) or 64; -1 with the reason in err for any other value. Only the
 * CPU backend runs 64 (docs/cpu-backend.md, "64-lane warps"); the others
 * refuse to start under it. */
int cb_backend_env_warp_size(char *err, size_t errlen);

#endif
