/* passthrough_internal.h: what the files of src/passthrough share.
 *
 *   real_driver.c  the real driver: search, load, entry-point table,
 *                  cuGetProcAddress under the pass-through
 *   track.c        verify-mode interceptors of allocations, module images and
 *                  kernel handles, and the maps they fill
 *   checked_launch.c  verify-mode launch interceptors: the differential check
 *                  against cubridge's CPU reference (through the inspector)
 */
#ifndef CB_PASSTHROUGH_INTERNAL_H
#define CB_PASSTHROUGH_INTERNAL_H

#include "driver/driver.h"

#include "inspect/inspect.h"
#include "passthrough/passthrough.h"

/* The real driver's entry point for export id: what its cuGetProcAddress
 * handed out (recorded by cbc_intercept), else its exported symbol. */
cb_export_fn cbc_target(int id);
/* The same, typed from cuda.h's prototype of sym. */
#define CBC_REAL(sym) ((__typeof__(&sym))cbc_target(CB_EXP_##sym))

/* The function to hand out for export id whose real entry point is real:
 * the interceptor for id if it has one in this mode (which then calls
 * real), else real. Always watched: cuInit, allocations, launches (for the
 * exit summary); in verify mode also images, kernel handles, mappings,
 * and launches are checked. */
void *cbc_intercept(int id, void *real);

/* The interceptor of export id for launches (checked_launch.c; counting, or
 * checking in verify mode), or NULL. */
void *cbc_launch_interceptor(int id);

/* Launches forwarded so far, and how many of them the real driver refused. */
void cbc_launch_stats(uint64_t *launches, uint64_t *failed);

/* Successful allocation calls so far, and the peak of bytes in use. */
void cbc_memory_stats(uint64_t *allocations, size_t *peak);

/* The real device 0's name, once cuInit succeeded ("" before). */
void cbc_device_name(char *out, size_t len);

/* The tracked allocation holding addr: 1 with its base and size, or 0. */
int cbc_alloc_find(uint64_t addr, uint64_t *base, size_t *bytes);

/* What the reference knows of a real CUfunction / CUkernel handle. */
typedef struct cbc_reference {
    const cb_translation *tr;     /* cubridge's translation of its module's image */
    uint32_t kernel;              /* the kernel's index in it */
    cb_inspect_reference *reference;  /* the module on the reference backend */
    const void *owner;            /* the CUmodule or CUlibrary it came from */
    int owner_is_library;
} cbc_reference;

/* Fills *out for handle, translating the module's captured image on first
 * use: 0, or -1 with a reason in note when the handle is unknown or has no
 * usable PTX. */
int cbc_reference_kernel(const void *handle, cbc_reference *out, char *note, size_t notelen);

/* The kernel name of a handle, or "(unknown kernel)". */
void cbc_kernel_name(const void *handle, char *out, size_t outlen);

/* Copies the real device's values of the module variables (__device__,
 * __constant__; by name through cuLibraryGetGlobal / cuModuleGetGlobal of
 * the handle's library or module) into the reference module, so that the
 * reference starts from the same state (cudaMemcpyToSymbol). */
void cbc_globals_in(const cbc_reference *ref);

#endif
