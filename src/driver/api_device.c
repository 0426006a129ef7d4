/* api_device.c: cuDevice* entry points. */
#include "driver/driver.h"

#include <stdio.h>
#include <string.h>

#include "core/device.h"

/* Resolves a CUdevice; CUDA_ERROR_INVALID_DEVICE when out of range. */
static CUresult device_lookup(CUdevice dev, cb_device **out)
{
    CB_REQUIRE_INIT();
    cb_device *d = cb_device_get(dev);
    if (!d)
        return CUDA_ERROR_INVALID_DEVICE;
    *out = d;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    CB_REQUIRE_INIT();
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    if (!cb_device_get(ordinal))
        return CUDA_ERROR_INVALID_DEVICE;
    *device = ordinal;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuDeviceGetCount(int *count)
{
    CB_REQUIRE_INIT();
    if (!count)
        return CUDA_ERROR_INVALID_VALUE;
    *count = cb_device_count();
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    cb_device *d;
    CUresult r = device_lookup(dev, &d);
    if (r != CUDA_SUCCESS)
        return r;
    if (!name || len <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    snprintf(name, (size_t)len, "%s", d->info.name);
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
    cb_device *d;
    CUresult r = device_lookup(dev, &d);
    if (r != CUDA_SUCCESS)
        return r;
    if (!uuid)
        return CUDA_ERROR_INVALID_VALUE;
    cb_device_uuid(d, (unsigned char *)uuid->bytes);
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
    return cuDeviceGetUuid(uuid, dev);
}

CB_EXPORT CUresult cuDeviceGetLuid(char *luid, unsigned int *deviceNodeMask, CUdevice dev)
{
    (void)luid;
    (void)deviceNodeMask;
    (void)dev;
    return cb_driver_not_supported("cuDeviceGetLuid", "a LUID exists only on Windows (WDDM) devices");
}

CB_EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
    cb_device *d;
    CUresult r = device_lookup(dev, &d);
    if (r != CUDA_SUCCESS)
        return r;
    if (!bytes)
        return CUDA_ERROR_INVALID_VALUE;
    *bytes = cb_device_total_mem(d);
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuDeviceTotalMem(unsigned int *bytes, CUdevice_v1 dev)
{
    size_t b;
    CUresult r = cuDeviceTotalMem_v2(&b, dev);
    if (r == CUDA_SUCCESS && !bytes)
        return CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *bytes = b > 0xffffffffu ? 0xffffffffu : (unsigned int)b;
    return r;
}

CB_EXPORT CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
    cb_device *d;
    CUresult r = device_lookup(dev, &d);
    if (r != CUDA_SUCCESS)
        return r;
    if (!pi)
        return CUDA_ERROR_INVALID_VALUE;
    return cb_device_attribute(d, attrib, pi);
}

CB_EXPORT CUresult cuDeviceGetProperties(CUdevprop *prop, CUdevice dev)
{
    cb_device *d;
    CUresult r = device_lookup(dev, &d);
    if (r != CUDA_SUCCESS)
        return r;
    if (!prop)
        return CUDA_ERROR_INVALID_VALUE;
    memset(prop, 0, sizeof *prop);
    int v;
    cb_device_attribute(d, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &prop->maxThreadsPerBlock);
    for (int i = 0; i < 3; i++) {
        cb_device_attribute(d, (CUdevice_attribute)(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + i), &prop->maxThreadsDim[i]);
        cb_device_attribute(d, (CUdevice_attribute)(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + i), &prop->maxGridSize[i]);
    }
    cb_device_attribute(d, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, &prop->sharedMemPerBlock);
    cb_device_attribute(d, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY, &prop->totalConstantMemory);
    cb_device_attribute(d, CU_DEVICE_ATTRIBUTE_WARP_SIZE, &prop->SIMDWidth);
    cb_device_attribute(d, CU_DEVICE_ATTRIBUTE_MAX_PITCH, &prop->memPitch);
    cb_device_attribute(d, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, &prop->regsPerBlock);
    cb_device_attribute(d, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, &prop->clockRate);
    cb_device_attribute(d, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, &v);
    prop->textureAlign = v;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
    cb_device *d;
    CUresult r = device_lookup(dev, &d);
    if (r != CUDA_SUCCESS)
        return r;
    if (!major || !minor)
        return CUDA_ERROR_INVALID_VALUE;
    *major = d->cc_major;
    *minor = d->cc_minor;
    return CUDA_SUCCESS;
}

/* cubridge's devices sit at PCI domain 0, bus 0, device = ordinal. */
CB_EXPORT CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
{
    cb_device *d;
    CUresult r = device_lookup(dev, &d);
    if (r != CUDA_SUCCESS)
        return r;
    if (!pciBusId || len <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    snprintf(pciBusId, (size_t)len, "%08x:%02x:%02x.0", 0u, 0u, (unsigned)d->ordinal);
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId)
{
    CB_REQUIRE_INIT();
    if (!dev || !pciBusId)
        return CUDA_ERROR_INVALID_VALUE;
    unsigned domain = 0, bus = 0, device = 0, function = 0;
    int n = sscanf(pciBusId, "%x:%x:%x.%x", &domain, &bus, &device, &function);
    if (n < 3) {
        domain = 0;
        n = sscanf(pciBusId, "%x:%x.%x", &bus, &device, &function);
        if (n < 2)
            return CUDA_ERROR_INVALID_VALUE;
    }
    if (domain != 0 || bus != 0 || function != 0 || !cb_device_get((int)device))
        return CUDA_ERROR_INVALID_DEVICE;
    *dev = (CUdevice)device;
    return CUDA_SUCCESS;
}


/* ---- peer devices ---------------------------------------------------------- */

CB_EXPORT CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev)
{
    cb_device *d, *peer;
    CUresult r = device_lookup(dev, &d);
    if (r == CUDA_SUCCESS)
        r = device_lookup(peerDev, &peer);
    if (r != CUDA_SUCCESS)
        return r;
    if (!canAccessPeer)
        return CUDA_ERROR_INVALID_VALUE;
    *canAccessPeer = cb_device_can_access_peer(d, peer);
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib, CUdevice srcDevice,
                                           CUdevice dstDevice)
{
    cb_device *src, *dst;
    CUresult r = device_lookup(srcDevice, &src);
    if (r == CUDA_SUCCESS)
        r = device_lookup(dstDevice, &dst);
    if (r != CUDA_SUCCESS)
        return r;
    if (!value)
        return CUDA_ERROR_INVALID_VALUE;
    if (src == dst)
        return CUDA_ERROR_INVALID_DEVICE;   /* as the driver answers for one device with itself */
    int can = cb_device_can_access_peer(src, dst);
    switch (attrib) {
    case CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK: *value = 0; return CUDA_SUCCESS;
    case CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED: *value = can; return CUDA_SUCCESS;
    case CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED: *value = can; return CUDA_SUCCESS;
    case CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED: *value = can; return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
}
