/* opencl_internal.h: the parts of the OpenCL backend (src/backend/opencl/), private to it. */
#ifndef CB_OPENCL_INTERNAL_H
#define CB_OPENCL_INTERNAL_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"
#include "backend/kernel_cache.h"
#include "platform/thread.h"

/* ---- cl_load.c: the ICD loader, opened with dlopen on first use ----
 * libcuda.so.1 does not depend on libOpenCL.so.1: a system without one
 * simply has no "opencl" device. Each OpenCL function the backend calls is
 * a pointer ocl_<name>, and the names below call through them. */
#define OCL_FUNCS(X)                                                                                              \
    X(clGetPlatformIDs) X(clGetDeviceIDs) X(clGetDeviceInfo) X(clCreateContext) X(clCreateCommandQueue)          \
    X(clCreateBuffer) X(clReleaseMemObject) X(clReleaseCommandQueue) X(clReleaseContext) X(clFinish)             \
    X(clEnqueueWriteBuffer) X(clEnqueueReadBuffer) X(clEnqueueCopyBuffer) X(clEnqueueFillBuffer)                 \
    X(clWaitForEvents) X(clGetEventInfo) X(clReleaseEvent) X(clCreateProgramWithSource) X(clBuildProgram)        \
    X(clGetProgramBuildInfo) X(clReleaseProgram) X(clCreateKernel) X(clReleaseKernel) X(clSetKernelArg)          \
    X(clEnqueueNDRangeKernel) X(clCreateProgramWithBinary) X(clGetProgramInfo) X(clGetPlatformInfo)         \
    X(clCreateSubBuffer)
#define OCL_DECLARE(f) extern __typeof__(f) *ocl_##f;
OCL_FUNCS(OCL_DECLARE)
#undef OCL_DECLARE
/* Opens the loader once (CUBRIDGE_OPENCL_LIB, default libOpenCL.so.1). 0, or -1 with err. */
int ocl_load(char *err, size_t errlen);

/* Shared virtual memory (OpenCL 2.0; the 1.2 header lacks it): NULL where the
 * loader has none, and then the backend runs in heap mode. */
#define OCL_SVM_CAPABILITIES 0x1053        /* CL_DEVICE_SVM_CAPABILITIES */
#define OCL_SVM_COARSE_GRAIN_BUFFER 1u
#define OCL_SVM_FINE_GRAIN_BUFFER 2u
#define OCL_MEM_SVM_FINE_GRAIN_BUFFER (1u << 10)
typedef void *ocl_svm_alloc_fn(cl_context, cl_bitfield, size_t, cl_uint);
typedef void ocl_svm_free_fn(cl_context, void *);
typedef cl_int ocl_set_arg_svm_fn(cl_kernel, cl_uint, const void *);
extern ocl_svm_alloc_fn *ocl_svm_alloc;         /* clSVMAlloc */
extern ocl_svm_free_fn *ocl_svm_free;           /* clSVMFree */
extern ocl_set_arg_svm_fn *ocl_set_arg_svm;     /* clSetKernelArgSVMPointer */
#ifndef OCL_LOADER
#define clGetPlatformIDs ocl_clGetPlatformIDs
#define clGetDeviceIDs ocl_clGetDeviceIDs
#define clGetDeviceInfo ocl_clGetDeviceInfo
#define clCreateContext ocl_clCreateContext
#define clCreateCommandQueue ocl_clCreateCommandQueue
#define clCreateBuffer ocl_clCreateBuffer
#define clReleaseMemObject ocl_clReleaseMemObject
#define clReleaseCommandQueue ocl_clReleaseCommandQueue
#define clReleaseContext ocl_clReleaseContext
#define clFinish ocl_clFinish
#define clEnqueueWriteBuffer ocl_clEnqueueWriteBuffer
#define clEnqueueReadBuffer ocl_clEnqueueReadBuffer
#define clEnqueueCopyBuffer ocl_clEnqueueCopyBuffer
#define clEnqueueFillBuffer ocl_clEnqueueFillBuffer
#define clWaitForEvents ocl_clWaitForEvents
#define clGetEventInfo ocl_clGetEventInfo
#define clReleaseEvent ocl_clReleaseEvent
#define clCreateProgramWithSource ocl_clCreateProgramWithSource
#define clBuildProgram ocl_clBuildProgram
#define clGetProgramBuildInfo ocl_clGetProgramBuildInfo
#define clReleaseProgram ocl_clReleaseProgram
#define clCreateKernel ocl_clCreateKernel
#define clReleaseKernel ocl_clReleaseKernel
#define clSetKernelArg ocl_clSetKernelArg
#define clEnqueueNDRangeKernel ocl_clEnqueueNDRangeKernel
#define clCreateProgramWithBinary ocl_clCreateProgramWithBinary
#define clGetProgramInfo ocl_clGetProgramInfo
#define clGetPlatformInfo ocl_clGetPlatformInfo
#define clCreateSubBuffer ocl_clCreateSubBuffer
#endif

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

/* ---- texture.c: texture and surface objects (backend.h), descriptors in device memory ---- */

/* The handle is the device address of codegen/opencl/texobj.h's descriptor, made with b's own
 * mem_alloc and copy_htod; CUDA_ERROR_INVALID_VALUE when a texel lies outside b's memory. */
CUresult ocl_texture_create(cb_backend *b, const cb_texture_desc *desc, uint64_t *handle);
void ocl_texture_destroy(cb_backend *b, uint64_t handle);

/* ---- printf_fifo.c: kernels' printf output (codegen/opencl/printf.c writes it) ---- */

#define OCL_PRINTF_CTR 128u           /* heap byte of the uint that counts the FIFO's claimed bytes */
#define OCL_PRINTF_FIFO (1u << 20)    /* the FIFO's bytes: CUDA's default cudaLimitPrintfFifoSize */
/* Prints the records of the FIFO at heap offset fifo_off (fifo_cap bytes) to
 * stdout in order, and empties it. */
void ocl_printf_flush(cl_command_queue q, cl_mem heap, uint64_t fifo_off, uint32_t fifo_cap);

/* ---- device.c: finding the device ---- */

/* spec: NULL (the first GPU, else the first device), "P:D" (platform P, its
 * device D) or a substring of the device's name. 0, or -1 with err. */
int ocl_pick_device(const char *spec, cl_platform_id *plat, cl_device_id *dev, char *err, size_t errlen);
/* The backend's memory mode on dev (opencl_backend.c): 0 heap, 1 coarse-grained buffer SVM, 2
 * fine-grained; want is CUBRIDGE_OPENCL_MEMORY (NULL/"auto": SVM where the device and the loader have
 * it). -1 with err when want is not understood or asks for SVM the device lacks. */
int ocl_memory_mode(cl_device_id dev, const char *want, char *err, size_t errlen);
/* 1 when warp collectives run as inline PTX (NVIDIA's platform, unless CUBRIDGE_OPENCL_ASM=0). */
int ocl_uses_nv_asm(const char *vendor);
/* 1 when warp collectives synchronise through 32-wide sub-groups (codegen/opencl/warp.c, CB_SG32):
 * cl_intel_required_subgroup_size with 32 among its sizes, and sub-group barriers (cl_intel_subgroups
 * or cl_khr_subgroups); CUBRIDGE_OPENCL_SUBGROUPS=0 turns it off. */
int ocl_uses_subgroups32(cl_device_id d);
/* 1 when the device's extension list has name (a whole word). */
int ocl_device_has_extension(cl_device_id d, const char *name);

/* ---- program_cache.c: program binaries through the compile cache ---- */

typedef struct ocl_program_cache {
    cb_kernel_cache files;  /* the directory and its .clbin entries (kind cb_kernel_cache_opencl) */
    int open;               /* 0: no usable directory, every build is from source */
    unsigned char config[32]; /* SHA-256 of the platform, device, driver and build options */
    char device[160];       /* the device's name, for the log */
    const char *options;    /* clBuildProgram's options (the backend's string) */
} ocl_program_cache;

/* Opens the cache for programs of dev built with options (kept by
 * pointer: it must outlive the cache). Never fails: with no usable
 * directory every build is from source (pc->open = 0). */
void ocl_program_cache_open(ocl_program_cache *pc, cl_platform_id plat, cl_device_id dev, const char *options);
void ocl_program_cache_close(ocl_program_cache *pc);
/* Builds the program of the n texts for dev with the options of the open:
 * from the cached binary of their content when one is there and the driver
 * takes it, else from the source (then storing its binary). Returns
 * CL_SUCCESS with *prog, or the error of clCreateProgram* / clBuildProgram
 * with *prog set when there is a build log to read (or NULL). */
cl_int ocl_program_build(ocl_program_cache *pc, cl_context ctx, cl_device_id dev, cl_uint n, const char **texts,
                         const size_t *lens, cl_program *prog);
/* This process's hits and misses so far (every OpenCL device together). */
void ocl_program_cache_stats(unsigned *hits, unsigned *misses);

#endif
