/* device.c: cuDeviceGetAttribute's values, derived from cb_device_info.
 *
 * Rules: limits that CUDA programs size their work by follow the backend
 * (SM count = workers, 1024 threads per block, shared memory sizes);
 * capabilities say what cubridge really does (1 only when the feature
 * works); textures, surfaces and hardware details cubridge does not model
 * read 0. docs/driver-api.md explains each choice.
 */
#include <string.h>

#include "core/device.h"
#include "core/memory.h"

int cb_device_sm(const cb_device *d)
{
    return d->cc_major * 10 + d->cc_minor;
}

size_t cb_device_total_mem(const cb_device *d)
{
    cb_mem_stats u;
    cb_device_mem_usage(d, &u);
    return u.total ? u.total : d->info.total_mem;
}

int cb_device_can_access_peer(const cb_device *d, const cb_device *peer)
{
    return d && peer && d != peer && d->info.host_memory_access && peer->info.memory_is_host;
}

void cb_device_uuid(const cb_device *d, unsigned char out[16])
{
    /* FNV-1a over "cubridge", the ordinal and the name, spread over 16 bytes. */
    uint64_t h1 = 0xcbf29ce484222325ull, h2 = 0x84222325cbf29ce4ull;
    const char *tag = "cubridge";
    for (const char *p = tag; *p; p++)
        h1 = (h1 ^ (unsigned char)*p) * 0x100000001b3ull;
    h1 = (h1 ^ (unsigned)d->ordinal) * 0x100000001b3ull;
    for (const char *p = d->info.name; *p; p++) {
        h1 = (h1 ^ (unsigned char)*p) * 0x100000001b3ull;
        h2 = (h2 ^ (unsigned char)*p) * 0x100000001b3ull;
    }
    for (int i = 0; i < 8; i++) {
        out[i] = (unsigned char)(h1 >> (8 * i));
        out[8 + i] = (unsigned char)(h2 >> (8 * i));
    }
    out[6] = (unsigned char)((out[6] & 0x0f) | 0x40); /* version 4 */
    out[8] = (unsigned char)((out[8] & 0x3f) | 0x80); /* RFC 4122 variant */
}

int cb_device_persisting_l2_max(const cb_device *d)
{
    /* three quarters of the L2, as NVIDIA's A100 and H100 report, in 64 KiB steps */
    return (int)(((int64_t)d->info.l2_cache_bytes * 3 / 4) & ~(int64_t)0xffff);
}

/* Sizes and limits. Returns 1 and sets *v when attr is one of them. */
static int device_limit(const cb_device *d, CUdevice_attribute attr, int *v)
{
    const cb_device_info *in = &d->info;
    switch (attr) {
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = in->max_threads_per_block; return 1;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X: *v = CB_MAX_BLOCK_DIM_X; return 1;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: *v = CB_MAX_BLOCK_DIM_Y; return 1;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: *v = CB_MAX_BLOCK_DIM_Z; return 1;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: *v = (int)CB_MAX_GRID_DIM_X; return 1;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: *v = (int)CB_MAX_GRID_DIM_Y; return 1;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: *v = (int)CB_MAX_GRID_DIM_Z; return 1;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: *v = in->max_shared_per_block; return 1;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *v = in->max_shared_per_block_optin; return 1;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: *v = in->max_shared_per_multiprocessor; return 1;
    case CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK: *v = 0; return 1;
    case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY: *v = CB_CONST_BYTES; return 1;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *v = in->warp_size; return 1;
    case CU_DEVICE_ATTRIBUTE_MAX_PITCH: *v = 2147483647; return 1;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK: *v = CB_REGS_PER_BLOCK; return 1;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR: *v = CB_REGS_PER_SM; return 1;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: *v = in->clock_khz; return 1;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = in->multiprocessors; return 1;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: *v = CB_MAX_THREADS_PER_SM; return 1;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR: *v = CB_MAX_BLOCKS_PER_SM; return 1;
    case CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT: *v = 512; return 1;
    case CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT: *v = 32; return 1;
    case CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT: *v = 512; return 1;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = d->cc_major; return 1;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = d->cc_minor; return 1;
    case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT: *v = 1; return 1;
    case CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO: *v = 2; return 1;
    case CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT: *v = 1; return 1;
    case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID: *v = d->ordinal; return 1;
    case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: *v = in->l2_cache_bytes; return 1;
    case CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE: *v = cb_device_persisting_l2_max(d); return 1;
    case CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE:
        *v = in->l2_cache_bytes ? CB_MAX_ACCESS_POLICY_WINDOW : 0;
        return 1;
    case CU_DEVICE_ATTRIBUTE_NUMA_ID: *v = -1; return 1;
    case CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID: *v = -1; return 1;
    case CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH: *v = d->cc_major >= 9; return 1;   /* as on sm_90 and later */
    default: return 0;
    }
}

/* Features cubridge provides: 1 (some only where the device's backend has them). */
static int device_feature(const cb_device *d, CUdevice_attribute attr)
{
    const cb_device_info *in = &d->info;
    switch (attr) {
    case CU_DEVICE_ATTRIBUTE_GPU_OVERLAP:
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS:
    case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING:
    case CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH:
        return 1;
    case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY:
    case CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM:
    case CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED:
        return in->host_memory_access != 0;
    case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY:
        return in->managed_memory != 0;
    case CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
        return in->virtual_memory != 0;
    default:
        return 0;
    }
}

CUresult cb_device_attribute(const cb_device *d, CUdevice_attribute attr, int *out)
{
    if (attr < CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK ||
        attr > CU_DEVICE_ATTRIBUTE_ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED)
        return CUDA_ERROR_INVALID_VALUE;
    int v;
    if (device_limit(d, attr, &v))
        *out = v;
    else
        *out = device_feature(d, attr); /* everything else: 0 = not provided / not modelled */
    return CUDA_SUCCESS;
}
