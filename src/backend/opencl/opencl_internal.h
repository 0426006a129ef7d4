/* opencl_internal.h: the parts of the OpenCL backend (src/backend/opencl/), private to it. */
#ifndef CB_OPENCL_INTERNAL_H
#define CB_OPENCL_INTERNAL_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <stddef.h>
#include <stdint.h>

#include "platform/thread.h"

/* ---- heap.c: first fit over the offsets of the heap buffer ---- */

typedef struct ocl_block {
    uint64_t off, size;
} ocl_block;

typedef struct ocl_heap {
    cb_mutex lock;
    uint64_t size;          /* bytes of the heap */
    ocl_block *used;        /* live blocks, sorted by offset */
    size_t n, cap;
    size_t in_use, peak;
    int ready;
} ocl_heap;

int ocl_heap_init(ocl_heap *h, uint64_t size);
void ocl_heap_destroy(ocl_heap *h);
/* 256-byte aligned; 0 and *off, or -1 when no gap is large enough. */
int ocl_heap_alloc(ocl_heap *h, size_t bytes, uint64_t *off);
void ocl_heap_free(ocl_heap *h, uint64_t off);
void ocl_heap_usage(ocl_heap *h, size_t *used, size_t *peak);

/* ---- device.c: finding the device ---- */

/* spec: NULL (the first GPU, else the first device), "P:D" (platform P, its
 * device D) or a substring of the device's name. 0, or -1 with err. */
int ocl_pick_device(const char *spec, cl_platform_id *plat, cl_device_id *dev, char *err, size_t errlen);

#endif
