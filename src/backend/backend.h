/* backend.h: one vtable per execution backend (the sqlite3_vfs pattern).
 *
 * The core (src/core, src/driver) drives a backend only through this struct
 * and never knows which one it is. Every call is synchronous: ordering,
 * streams and events live in the core, which calls launch/copy from its
 * stream workers. A backend must accept calls from several threads at once.
 *
 * Device addresses are uint64_t. For the CPU backend they are host virtual
 * addresses inside the core's arena (src/backend/cpu/arena.h).
 */
#ifndef CB_BACKEND_H
#define CB_BACKEND_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#include "codegen/translate.h"

typedef struct cb_backend cb_backend;

typedef struct cb_launch_config {
    uint32_t grid[3];
    uint32_t block[3];
    uint32_t dynamic_smem;
    const unsigned char *params;   /* packed .param buffer, cb_kernel_info layout */
    uint32_t param_bytes;
    uint32_t cooperative;          /* launched as cooperative (grid sync allowed) */
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
} cb_device_info;

struct cb_backend {
    const char *name;               /* "cpu", "opencl", "cuda" */

    /* Fills device facts. */
    void (*device_info)(cb_backend *self, cb_device_info *out);

    /* Memory. Addresses come from the core's allocator; these move bytes. */
    CUresult (*copy_htod)(cb_backend *self, uint64_t dst, const void *src, size_t bytes);
    CUresult (*copy_dtoh)(cb_backend *self, void *dst, uint64_t src, size_t bytes);
    CUresult (*copy_dtod)(cb_backend *self, uint64_t dst, uint64_t src, size_t bytes);
    /* Fills count elements of elem_size (1, 2 or 4) bytes with value. */
    CUresult (*memset)(cb_backend *self, uint64_t dst, uint32_t value, size_t elem_size, size_t count);

    /* Modules. module_load takes a translation (the backend may keep a
     * pointer to it until module_unload) and the device addresses the core
     * allocated for its globals, in cb_global_info order. */
    CUresult (*module_load)(cb_backend *self, const cb_translation *tr, const uint64_t *global_addrs,
                            void **module_out, char *err, size_t errlen);
    void (*module_unload)(cb_backend *self, void *module);

    /* Runs kernel `kernel` of module to completion. On failure fills *err. */
    CUresult (*launch)(cb_backend *self, void *module, uint32_t kernel, const cb_launch_config *cfg,
                       cb_launch_error *err);

    /* Releases everything. */
    void (*shutdown)(cb_backend *self);

    /* Optional (NULL if the backend keeps no compile cache): how many
     * module_load calls of this process were served from the backend's
     * compile cache (hits) and how many compiled (misses). */
    void (*module_cache_stats)(cb_backend *self, unsigned *hits, unsigned *misses);
};

/* The CPU backend (src/backend/cpu). Returns NULL if it cannot start. */
cb_backend *cb_backend_cpu_create(void);

#endif
