/* driver.h: what the driver API files (src/driver) share.
 *
 * Include this first in every src/driver file. It asks cuda.h for NVIDIA's
 * own "internal" view (__CUDA_API_VERSION_INTERNAL): no `#define cuX cuX_v2`
 * renames, and prototypes for every versioned and per-thread symbol
 * (cuCtxCreate, cuCtxCreate_v4, cuLaunchKernel_ptsz ...), so that each
 * export is defined under its real name -- which impl_names.h (generated)
 * then renames to cb_impl_<name>: the exported symbol is the forwarder in
 * forward.c, which calls cb_impl_<name>, or NVIDIA's entry point under the
 * cuda pass-through. Code here writes and calls entry points by their CUDA
 * names as usual; within src/driver they mean the implementations.
 */
#ifndef CB_DRIVER_DRIVER_H
#define CB_DRIVER_DRIVER_H

#ifndef __CUDA_API_VERSION_INTERNAL
#define __CUDA_API_VERSION_INTERNAL 1
#endif
#include <cuda.h>

#include "driver/impl_names.h"

#include "core/core.h"
#include "core/stats.h"
#include "driver/registry.h"

/* Reports an entry point (or one option of it) that cubridge does not
 * support: counts it, logs once, returns CUDA_ERROR_NOT_SUPPORTED.
 * name must be a string literal (it is kept). */
CUresult cb_driver_not_supported(const char *name, const char *why);

/* The driver version cubridge reports (cuDriverGetVersion). */
#define CB_DRIVER_VERSION 13000

/* Evaluates to CUDA_ERROR_NOT_INITIALIZED unless cuInit succeeded. */
#define CB_REQUIRE_INIT()                                                                                   \
    do {                                                                                                    \
        if (!cb_initialized())                                                                              \
            return CUDA_ERROR_NOT_INITIALIZED;                                                              \
    } while (0)

#endif
