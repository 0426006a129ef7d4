/* launch.h: kernel launches: parameter packing, validation, submission,
 * execution, occupancy (src/core/launch.c). */
#ifndef CB_CORE_LAUNCH_H
#define CB_CORE_LAUNCH_H

#include "core/core.h"

/* The largest packed parameter buffer CUDA allows (32764 bytes, CUDA 12.1+). */
#define CB_MAX_PARAM_BYTES 32764

/* Packs a launch's arguments into buf (at least k->param_bytes bytes)
 * in the kernel's layout, from kernelParams (one pointer per parameter) or
 * from extra (CU_LAUNCH_PARAM_BUFFER_POINTER/SIZE/END). Exactly one may be
 * given, unless the kernel has no parameters. CUDA_ERROR_INVALID_VALUE on a
 * malformed `extra` or a buffer smaller than the kernel's parameters. */
CUresult cb_launch_pack_params(const cb_kernel_info *k, void **kernelParams, void **extra, unsigned char *buf);

/* Checks a launch as CUDA does: zero or oversized grid/block dimensions,
 * more than 1024 threads (or the kernel's .maxntid/.reqntid), shared
 * memory over the kernel's limit -> CUDA_ERROR_INVALID_VALUE, logged. */
CUresult cb_launch_validate(const cb_function *f, const cb_launch_config *cfg);

/* The thread block cluster shape a launch of f with cfg gets (out[3], 0s
 * for none): cfg->cluster (the launch attribute), else the kernel's
 * __cluster_dims__ (.reqnctapercluster), else the one set with
 * cuFuncSetAttribute(REQUIRED_CLUSTER_*). */
void cb_launch_cluster_shape(const cb_function *f, const cb_launch_config *cfg, uint32_t out[3]);

/* The most blocks a cooperative launch of f may have: resident blocks per
 * multiprocessor (cb_occupancy_blocks_per_sm) times the multiprocessor
 * count, the numbers cuOccupancy* and cuDeviceGetAttribute report. */
uint64_t cb_cooperative_max_blocks(const cb_function *f, uint32_t block_threads, uint32_t dyn_smem);

/* For a cooperative launch (cfg->cooperative): a grid larger than
 * cb_cooperative_max_blocks -> CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
 * logged. */
CUresult cb_launch_check_cooperative(const cb_function *f, const cb_launch_config *cfg);

/* Validates (and checks a cooperative launch's size), then enqueues cfg on stream h of ctx (cb_stream_launch).
 * Checks that f belongs to ctx and that ctx has no sticky error. */
CUresult cb_launch_submit(cb_context *ctx, CUstream h, cb_function *f, const cb_launch_config *cfg);

/* Occupancy: resident blocks of f per multiprocessor at block_size threads
 * and dyn_smem bytes of dynamic shared memory (0 if it cannot run). */
int cb_occupancy_blocks_per_sm(const cb_function *f, int block_size, size_t dyn_smem);

/* The largest dynamic shared memory per block when num_blocks blocks of
 * block_size threads share a multiprocessor. */
size_t cb_occupancy_dynamic_smem(const cb_function *f, int num_blocks, int block_size);

/* The register count reported for f (CU_FUNC_ATTRIBUTE_NUM_REGS, used by
 * occupancy): the translator's estimate, capped so that f's largest block
 * fits the register file (CB_REGS_PER_BLOCK), as ptxas guarantees. */
uint32_t cb_function_num_regs(const cb_function *f);
/* The same for kernel k of a device with device_max_threads threads per block. */
uint32_t cb_kernel_num_regs(const cb_kernel_info *k, int device_max_threads);

/* The per-block shared memory limit of f (static + dynamic). */
int cb_function_smem_limit(const cb_function *f);

/* Rewrites a failed launch's err->message for people (fault_report.c):
 * "kernel saxpy(int, float, float const*, float*) failed: block (0,0,0),
 * thread (3,0,0): illegal address 0x... (SIGSEGV); address 0x... is 4
 * bytes after the 1024-byte device allocation at 0x...": the kernel named
 * once and demangled, and a fault's address placed against the nearest
 * allocation (live, or freed recently). Calling it again changes nothing. */
void cb_launch_explain(const char *kernel, cb_launch_error *err);

#endif
