/* opencl_backend.h: what the OpenCL backend offers beyond the cb_backend
 * vtable (`cubridge devices`). Needs no OpenCL header. */
#ifndef CB_OPENCL_BACKEND_H
#define CB_OPENCL_BACKEND_H

#include <stddef.h>
#include <stdint.h>

/* Registers the "opencl" backend type (backend.h). libcuda.so.1 links the
 * backends whole and registers it from a constructor; a program that links
 * them from the static archives (the CLI) calls this, which also makes the
 * linker keep the backend. */
void cb_opencl_register(void);

/* One OpenCL device of the system and what it can do (device.c). Strings
 * are "" when the driver does not say. */
typedef struct cb_opencl_device_report {
    unsigned platform, index;        /* CUBRIDGE_OPENCL_DEVICE=platform:index picks it */
    int chosen;                      /* the device CUBRIDGE_OPENCL_DEVICE (or its default) picks */
    char platform_name[128], platform_version[192];
    char name[192], vendor[128], version[128], driver[64], c_version[64];
    const char *type;                /* "GPU", "CPU", "accelerator", "custom" */
    unsigned compute_units, clock_mhz;
    uint64_t global_mem, max_alloc, local_mem;
    size_t max_work_group;
    int fp16, fp64;                  /* cl_khr_fp16, cl_khr_fp64 */
    int atomics64;                   /* 0 none, 1 cl_khr_int64_base_atomics, 2 and cl_khr_int64_extended_atomics */
    int svm_known;                   /* CL_DEVICE_SVM_CAPABILITIES answered (OpenCL 2.0 and later) */
    int svm_coarse, svm_fine, svm_system, svm_atomics;
    int images;                      /* CL_DEVICE_IMAGE_SUPPORT */
    size_t image2d_width, image2d_height;
    int subgroups;                   /* cl_khr_subgroups, or core sub-groups (CL_DEVICE_MAX_NUM_SUB_GROUPS > 0) */
    int max_subgroups_known;         /* CL_DEVICE_MAX_NUM_SUB_GROUPS answered (OpenCL 2.1 and later) */
    unsigned max_subgroups;          /* its answer */
    char subgroup_sizes[96];         /* CL_DEVICE_SUB_GROUP_SIZES_INTEL ("8 16 32"), "" if not reported */
    unsigned warp_size_nv;           /* CL_DEVICE_WARP_SIZE_NV (cl_nv_device_attribute_query), 0 if not reported */
    unsigned wavefront_amd;          /* CL_DEVICE_WAVEFRONT_WIDTH_AMD (cl_amd_device_attribute_query), 0 if not */
    int subgroup_shuffle, subgroup_ballot; /* cl_khr_subgroup_shuffle / _ballot, or cl_intel_subgroups (both) */
    int intel_required_size;         /* cl_intel_required_subgroup_size */
    int memory_mode;                 /* what the backend would use: 0 heap, 1 coarse-grained SVM, 2 fine-grained,
                                      * -1 CUBRIDGE_OPENCL_MEMORY asks for what it lacks */
    int nv_asm;                      /* warp collectives as inline PTX (NVIDIA, CUBRIDGE_OPENCL_ASM) */
    int sg32;                        /* warp collectives synchronised by 32-wide sub-groups (CUBRIDGE_OPENCL_SUBGROUPS) */
} cb_opencl_device_report;

/* Fills out[0 .. max) with the devices of every OpenCL platform, in the
 * order of clGetPlatformIDs and clGetDeviceIDs. Returns how many there are
 * (possibly more than max), or -1 with err (no ICD loader, or no platform). */
int cb_opencl_devices(cb_opencl_device_report *out, int max, char *err, size_t errlen);

#endif
