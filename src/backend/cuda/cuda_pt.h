/* cuda_pt.h: the `cuda` backend, a pass-through to NVIDIA's libcuda.so.1.
 *
 * With CUBRIDGE_BACKEND=cuda, cubridge's libcuda.so.1 loads the real driver
 * by its path (CUBRIDGE_REAL_LIBCUDA, else the usual install locations;
 * never cubridge's own file) and forwards to it: cuGetProcAddress hands out
 * the real driver's entry points, cuGetExportTable its private tables, and
 * cuInit / cuDriverGetVersion / cuGetExportTable called by their exported
 * names forward too. Every export of exports.inc is resolved in the real
 * driver by name once (one table, cuda_driver.c): that table is the only
 * forwarding mechanism.
 *
 * Under the inspector, the handed-out entry points are wrapped: tracing puts
 * the trace wrappers around the real ones; verify also puts the interceptors
 * of cuda_track.c (allocations, module images, kernel handles) and
 * cuda_verify.c (launches, checked against cubridge's CPU reference) in
 * between. docs/inspector.md, "The cuda backend".
 *
 * Process-wide state: the real driver's handle and symbol table (loaded once,
 * then read-only), and the allocation / image / kernel maps of cuda_track.c
 * (under their own lock).
 */
#ifndef CB_BACKEND_CUDA_PT_H
#define CB_BACKEND_CUDA_PT_H

#include <cuda.h>

#include "driver/registry.h"

/* 1 when CUBRIDGE_BACKEND=cuda (read once). */
int cb_cuda_passthrough(void);

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

/* For libcubridge_cuda_preload.so (preload/preload.c), exported: what a
 * direct call of export id should reach -- the real driver's entry point,
 * wrapped as cuGetProcAddress would hand it out -- or NULL for "cubridge's
 * own" (not the cuda backend, the real driver lacks it, or cuInit,
 * cuDriverGetVersion, cuGetProcAddress, cuGetExportTable, which forward
 * by themselves). */
void *cubridge_cuda_entry(int id);

/* The path of the real driver once loaded ("" before). */
const char *cb_cuda_real_path(void);

#endif
