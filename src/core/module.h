/* module.h: loading images into modules, and their kernels and globals
 * (src/core/module.c).
 *
 * An image is anything cb_fatbin_extract_ptx accepts: a fatbin wrapper,
 * a fatbin, PTX text, or cubridge's own container. Eager loading runs the
 * whole pipeline: extract PTX -> translate -> place globals in device
 * memory -> backend->module_load. Lazy loading (the default) extracts and
 * indexes the PTX and places the globals; each kernel goes through
 * translate -> backend->module_load at its first use (docs/cpu-backend.md).
 */
#ifndef CB_CORE_MODULE_H
#define CB_CORE_MODULE_H

#include "core/core.h"

/* Loads image (size readable bytes, or 0 when unknown) into ctx. name is for
 * messages ("<fatbin>", a file name). Errors: CUDA_ERROR_INVALID_IMAGE
 * (unknown or corrupt container), CUDA_ERROR_NO_BINARY_FOR_GPU (no usable
 * PTX), CUDA_ERROR_INVALID_PTX (translation failed), CUDA_ERROR_OUT_OF_MEMORY;
 * each with a log line that says why. */
CUresult cb_module_load(cb_context *ctx, const void *image, size_t size, const char *name, cb_module **out);
/* cb_module_load that also copies the reason for a failure into msg
 * (msgcap bytes, NUL-terminated; "" on success), for JIT error logs. */
CUresult cb_module_load_msg(cb_context *ctx, const void *image, size_t size, const char *name, cb_module **out,
                            char *msg, size_t msgcap);

/* Stage 1 alone, for a device outside the core (the pass-through's
 * reference): the PTX in image that best fits compute capability sm
 * (major*10+minor) -> a translation in dialect (CB_DIALECT_*). Errors and msg
 * as cb_module_load_msg. */
CUresult cb_module_translate(const void *image, size_t size, int sm, int dialect, const char *name,
                             cb_translation **out, char *msg, size_t msgcap);

/* 1 when modules load lazily (CUDA_MODULE_LOADING unset or LAZY, as CUDA
 * 12.2 and later): loading indexes the PTX and places the globals, and a
 * kernel is translated and compiled at its first use (cb_module_function_at:
 * cuModuleGetFunction, cuLibraryGetKernel, a launch). 0 with
 * CUDA_MODULE_LOADING=EAGER: the whole module at load time. Read once. */
int cb_module_lazy_loading(void);

/* Unloads m: frees its globals, backend module and function handles. */
void cb_module_unload(cb_module *m);
/* Unloads every module of ctx (context destruction). */
void cb_module_unload_context(cb_context *ctx);
/* A primary context's reset: the modules a library loaded stay, with their
 * handles and functions (CUDA's libraries outlive contexts; cudart keeps
 * its CUkernels across cudaDeviceReset), emptied of their globals and
 * backend modules; the others are unloaded. */
void cb_module_suspend_context(cb_context *ctx);
/* The primary context is active again: the suspended modules get fresh
 * globals (initial values) and backend modules; one that fails to load
 * makes its kernels fail with the reason. */
void cb_module_resume_context(cb_context *ctx);

/* 1 if m is a live module handle; 1 if f is a live function handle. */
int cb_module_valid(const cb_module *m);
int cb_function_valid(const cb_function *f);

/* The kernel named name (PTX name); CUDA_ERROR_NOT_FOUND if none. */
CUresult cb_module_get_function(cb_module *m, const char *name, cb_function **out);
/* Kernel number i of the module (0 .. nkernels-1), made on first use: in a
 * lazily loaded module this translates and compiles the kernel and what it
 * names; a failure then returns what eager loading would have returned at
 * load time (CUDA_ERROR_INVALID_PTX, ...), logged and counted as a module
 * that failed to load. */
CUresult cb_module_function_at(cb_module *m, uint32_t i, cb_function **out);
/* The device address and size of global name; CUDA_ERROR_NOT_FOUND if none. */
CUresult cb_module_get_global(cb_module *m, const char *name, uint64_t *dptr, size_t *bytes);
/* Total bytes of the module's .const variables. */
size_t cb_module_const_bytes(const cb_module *m);

/* A module standing for an image that holds no code this device can run
 * (why: CUDA_ERROR_NO_BINARY_FOR_GPU). Loading it succeeds, as on NVIDIA's
 * lazily loading driver, so that a runtime registering many images keeps
 * the others: every kernel looked up in it is one placeholder function, and
 * launching it, asking its attributes or occupancy, or looking up a global
 * returns why (reason goes to the log). The caller has already counted the
 * failed load (cb_module_load_msg does). */
CUresult cb_module_create_unavailable(cb_context *ctx, const char *name, CUresult why, const char *reason,
                                      cb_module **out);
/* A name for an image in messages: "<kind in FILE>" when the image lies in
 * a loaded program or library (dladdr), else "<kind>". */
void cb_module_image_name(const void *image, const char *kind, char *out, size_t outlen);
/* The name m was loaded under. */
const char *cb_module_name(const cb_module *m);

#endif
