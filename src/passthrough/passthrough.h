/* passthrough.h: the pass-through to NVIDIA's libcuda.so.1, a driver
 * personality beside the core (src/passthrough).
 *
 * With CUBRIDGE_BACKEND=cuda, cubridge's libcuda.so.1 loads the real driver
 * by its path (CUBRIDGE_REAL_LIBCUDA, else the usual install locations;
 * never cubridge's own file) and answers through it. It is reached only
 * through the export dispatch (src/driver/dispatch.h), in which it
 * registers itself when the library loads: cuGetProcAddress hands out the
 * real driver's entry points, cuGetExportTable its private tables, and
 * every exported symbol calls the real driver's function of the same name.
 * Every export of exports.inc is resolved in the real driver by name once
 * (one table, real_driver.c). The core is not started.
 *
 * The inspector's trace wrappers go around what it hands out (the dispatch
 * adds them); in verify mode it also puts the interceptors of track.c
 * (allocations, module images, kernel handles) and checked_launch.c
 * (launches, checked against the reference backend through the inspector)
 * in between. docs/inspector.md, "The cuda backend". With
 * CUBRIDGE_SUMMARY=1 it prints its own exit summary line.
 *
 * Process-wide state: the real driver's handle and symbol table (loaded once,
 * then read-only), and the allocation / image / kernel maps of track.c
 * (under their own lock).
 */
#ifndef CB_PASSTHROUGH_H
#define CB_PASSTHROUGH_H

#include <cuda.h>

#include "driver/registry.h"

/* 1 when CUBRIDGE_BACKEND=cuda (read once). */
int cb_passthrough_wanted(void);

/* What export id's symbol calls under the pass-through, before the
 * dispatch wraps it: the real driver's function of that name, intercepted
 * as its cuGetProcAddress hands it out (track.c, checked_launch.c); for
 * cuGetProcAddress(_v2), cubridge's own, so that look-ups keep coming
 * here; where the real driver lacks the symbol, cubridge's NOT_SUPPORTED
 * stub (counted and traced as unsupported); where no real driver could be
 * loaded, a function answering CUDA_ERROR_NO_DEVICE. NULL for an id out of
 * range. */
cb_export_fn cb_passthrough_forward(int id);

/* Loads the real driver (once). CUDA_SUCCESS, or CUDA_ERROR_NO_DEVICE with
 * the reason logged (not found, is cubridge's own file, no cuGetProcAddress). */
CUresult cb_passthrough_load(void);

/* The real driver's definition of export id (dlsym by its name), or NULL
 * when the driver is not loaded or lacks it. */
cb_export_fn cb_passthrough_real(int id);

/* cuGetProcAddress under the pass-through: asks the real driver, then
 * intercepts what it gives (in verify mode). id is cubridge's export for
 * (symbol, version, flags), or -1 if exports.inc has none (the pointer is
 * then handed out as it is). cuGetProcAddress itself is answered with
 * cubridge's own, so that later look-ups come back here. */
CUresult cb_passthrough_proc_address(const char *symbol, void **pfn, int version, cuuint64_t flags,
                                     CUdriverProcAddressQueryResult *status, int id);

/* The exit summary's line (CUBRIDGE_SUMMARY=1): the real driver, its
 * device, launches and device memory as forwarded. */
void cb_passthrough_summary(char *buf, size_t len);

/* The path of the real driver once loaded ("" before). */
const char *cb_passthrough_real_path(void);

#endif
