/* passthrough.h: the `cuda` backend, a pass-through to NVIDIA's libcuda.so.1.
 *
 * With CUBRIDGE_BACKEND=cuda, cubridge's libcuda.so.1 loads the real driver
 * by its path (CUBRIDGE_REAL_LIBCUDA, else the usual install locations;
 * never cubridge's own file) and forwards to it: cuGetProcAddress hands out
 * the real driver's entry points, cuGetExportTable its private tables, and
 * every exported symbol (src/driver/forward.c) calls the real driver's
 * function of the same name. Every export of exports.inc is resolved in the
 * real driver by name once (one table, real_driver.c).
 *
 * Under the inspector, the handed-out entry points are wrapped: tracing puts
 * the trace wrappers around the real ones; verify also puts the interceptors
 * of track.c (allocations, module images, kernel handles) and
 * checked_launch.c (launches, checked against cubridge's CPU reference) in
 * between. docs/inspector.md, "The cuda backend".
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
int cb_cuda_passthrough(void);

/* What the exported forwarders (src/driver/forward.c) test: -1 before the
 * environment was read (the first driver call reads it), 0 pass-through
 * off, 1 on. Process-wide; written once by cb_cuda_passthrough. */
extern int cb_cuda_forward_state;

/* For the exported forwarder of export id: NULL when the pass-through is
 * off (call cubridge's implementation); else what to call with the same
 * arguments -- the real driver's function of that name, wrapped as
 * cuGetProcAddress hands it out (interceptors under verify, the trace
 * wrapper when tracing); for cuGetProcAddress(_v2), cubridge's own
 * (wrapped the same way), so that look-ups keep coming here; where the
 * real driver lacks the symbol, cubridge's NOT_SUPPORTED stub (counted
 * and traced as unsupported); where no real driver could be loaded, a
 * function answering CUDA_ERROR_NO_DEVICE. */
cb_export_fn cb_cuda_forward_target(int id);

/* Loads the real driver (once). CUDA_SUCCESS, or CUDA_ERROR_NO_DEVICE with
 * the reason logged (not found, is cubridge's own file, no cuGetProcAddress). */
CUresult cb_cuda_load(void);

/* The real driver's definition of export id (dlsym by its name), or NULL
 * when the driver is not loaded or lacks it. */
cb_export_fn cb_cuda_real(int id);

/* cuGetProcAddress under the pass-through: asks the real driver, then
 * wraps what it gives (interceptors in verify mode, trace wrappers when
 * tracing). id is cubridge's export for (symbol, version, flags), or -1 if
 * exports.inc has none (the pointer is then handed out unwrapped).
 * cuGetProcAddress itself is answered with cubridge's own, so that later
 * look-ups come back here. */
CUresult cb_cuda_proc_address(const char *symbol, void **pfn, int version, cuuint64_t flags,
                              CUdriverProcAddressQueryResult *status, int id);

/* The exit summary's line under the pass-through (CUBRIDGE_SUMMARY=1):
 * the real driver, its device, launches and device memory as forwarded. */
void cb_cuda_summary(char *buf, size_t len);

/* The path of the real driver once loaded ("" before). */
const char *cb_cuda_real_path(void);

#endif
