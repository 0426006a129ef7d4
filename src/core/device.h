/* device.h: the device facts behind cuDeviceGet* (src/core/device.c).
 *
 * The values derive from the backend's cb_device_info; docs/driver-api.md
 * lists each attribute's value and why.
 */
#ifndef CB_CORE_DEVICE_H
#define CB_CORE_DEVICE_H

#include "core/core.h"

/* The value of attr for d. CUDA_ERROR_INVALID_VALUE for an attribute
 * cuda.h does not define. */
CUresult cb_device_attribute(const cb_device *d, CUdevice_attribute attr, int *out);

/* d's compute capability as major*10+minor (86 for 8.6). */
int cb_device_sm(const cb_device *d);

/* A stable UUID for d, derived from its ordinal and name. */
void cb_device_uuid(const cb_device *d, unsigned char out[16]);

/* 1 if kernels on d can reach the memory of peer, another device: d reaches
 * host memory and peer's memory is host memory (two CPU devices). */
int cb_device_can_access_peer(const cb_device *d, const cb_device *peer);

/* Device bytes reported by cuDeviceTotalMem and cuMemGetInfo. */
size_t cb_device_total_mem(const cb_device *d);

/* CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE: the most that
 * CU_LIMIT_PERSISTING_L2_CACHE_SIZE may be set to (0 when the L2 size is
 * unknown). */
int cb_device_persisting_l2_max(const cb_device *d);

/* Limits used by launch validation and occupancy. */
#define CB_MAX_BLOCK_DIM_X 1024
#define CB_MAX_BLOCK_DIM_Y 1024
#define CB_MAX_BLOCK_DIM_Z 64
#define CB_MAX_GRID_DIM_X 2147483647u
#define CB_MAX_GRID_DIM_Y 65535u
#define CB_MAX_GRID_DIM_Z 65535u
#define CB_MAX_THREADS_PER_SM 2048
#define CB_MAX_BLOCKS_PER_SM 32
#define CB_REGS_PER_SM 65536
#define CB_REGS_PER_BLOCK 65536
#define CB_CONST_BYTES 65536
/* CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE: what A100s and H100s report (128 MiB - 4 KiB). */
#define CB_MAX_ACCESS_POLICY_WINDOW 134213632

#endif
