/* device.c: which OpenCL device the backend opens (opencl_internal.h), and
 * what every device of the system can do (opencl_backend.h, `cubridge
 * devices`).
 *
 * CUBRIDGE_OPENCL_DEVICE: unset, the first GPU of any platform, else the
 * first device; "P:D", device D of platform P (the order of
 * clGetPlatformIDs and clGetDeviceIDs); anything else, the first device
 * whose name contains it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/opencl/opencl_backend.h"
#include "backend/opencl/opencl_internal.h"

#define MAXP 16
#define MAXD 64

int ocl_pick_device(const char *spec, cl_platform_id *plat, cl_device_id *dev, char *err, size_t errlen)
{
    cl_platform_id ps[MAXP];
    cl_uint np = 0;
    if (clGetPlatformIDs(MAXP, ps, &np) != CL_SUCCESS || np == 0) {
        snprintf(err, errlen, "no OpenCL platform (is an ICD installed? Debian: pocl-opencl-icd)");
        return -1;
    }
    if (np > MAXP)
        np = MAXP;
    unsigned pi = 0, di = 0;
    int by_index = spec && *spec && sscanf(spec, "%u:%u", &pi, &di) == 2;
    for (int pass = 0; pass < 2; pass++) {   /* the GPUs first, when nothing was asked for */
        for (cl_uint p = 0; p < np; p++) {
            cl_device_id ds[MAXD];
            cl_uint nd = 0;
            if (clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, MAXD, ds, &nd) != CL_SUCCESS)
                continue;
            if (nd > MAXD)
                nd = MAXD;
            for (cl_uint d = 0; d < nd; d++) {
                char name[256] = "";
                cl_device_type type = 0;
                clGetDeviceInfo(ds[d], CL_DEVICE_NAME, sizeof name - 1, name, NULL);
                clGetDeviceInfo(ds[d], CL_DEVICE_TYPE, sizeof type, &type, NULL);
                int take = by_index ? (p == pi && d == di)
                           : (spec && *spec) ? strstr(name, spec) != NULL
                           : pass == 1 || (type & CL_DEVICE_TYPE_GPU);
                if (take) {
                    *plat = ps[p];
                    *dev = ds[d];
                    return 0;
                }
            }
        }
        if (spec && *spec)
            break;
    }
    snprintf(err, errlen, "no OpenCL device matches CUBRIDGE_OPENCL_DEVICE=\"%s\"", spec ? spec : "");
    return -1;
}

/* ---- what each device can do ------------------------------------------------ */

/* Queries of OpenCL 2.x and of vendor extensions, which a 1.2 header lacks. */
#define Q_SVM_CAPABILITIES 0x1053          /* CL_DEVICE_SVM_CAPABILITIES (2.0) */
#define Q_MAX_NUM_SUB_GROUPS 0x105C        /* CL_DEVICE_MAX_NUM_SUB_GROUPS (2.1) */
#define Q_SUB_GROUP_SIZES_INTEL 0x4108     /* cl_intel_required_subgroup_size */
#define Q_WARP_SIZE_NV 0x4003              /* cl_nv_device_attribute_query */
#define Q_WAVEFRONT_WIDTH_AMD 0x4043       /* cl_amd_device_attribute_query */

/* 1 when the space-separated list has the word. */
static int has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
            return 1;
    return 0;
}

/* The device's extension list (malloc'd, "" when it cannot be read; NULL: out of memory). */
static char *device_extensions(cl_device_id d)
{
    size_t elen = 0;
    char *ext = NULL;
    if (clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, NULL, &elen) == CL_SUCCESS && (ext = calloc(1, elen + 1)) &&
        clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, elen, ext, NULL) != CL_SUCCESS)
        ext[0] = 0;
    return ext ? ext : calloc(1, 1);
}

int ocl_device_has_extension(cl_device_id d, const char *name)
{
    char *ext = device_extensions(d);
    int has = ext && has_word(ext, name);
    free(ext);
    return has;
}

static void device_string(cl_device_id d, cl_device_info q, char *out, size_t len)
{
    out[0] = 0;
    if (clGetDeviceInfo(d, q, len - 1, out, NULL) != CL_SUCCESS)
        out[0] = 0;
    out[len - 1] = 0;
}

int ocl_memory_mode(cl_device_id dev, const char *want, char *err, size_t errlen)
{
    if (want && *want && strcmp(want, "svm") && strcmp(want, "heap") && strcmp(want, "auto")) {
        snprintf(err, errlen, "CUBRIDGE_OPENCL_MEMORY=%s: expected svm, heap or auto", want);
        return -1;
    }
    if (want && !strcmp(want, "heap"))
        return 0;
    cl_bitfield caps = 0;
    char ver[256] = "";   /* PoCL's is longer than 64 bytes, and a short buffer gets nothing */
    clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof ver - 1, ver, NULL);
    int v2 = strncmp(ver, "OpenCL ", 7) == 0 && ver[7] >= '2' && ver[7] <= '9';
    if (!v2 || !ocl_svm_alloc || clGetDeviceInfo(dev, OCL_SVM_CAPABILITIES, sizeof caps, &caps, NULL) != CL_SUCCESS)
        caps = 0;
    if (!(caps & (OCL_SVM_COARSE_GRAIN_BUFFER | OCL_SVM_FINE_GRAIN_BUFFER))) {
        if (want && !strcmp(want, "svm")) {
            snprintf(err, errlen, "CUBRIDGE_OPENCL_MEMORY=svm: the device (or the OpenCL loader) has no "
                                  "buffer SVM; use heap");
            return -1;
        }
        return 0;
    }
    cl_device_type type = 0;
    cl_bool unified = CL_FALSE;
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL);
    /* fine-grained where it costs nothing (the device's memory is the host's); a discrete GPU's fine-grained
     * buffers may live in host memory, so there the heap stays coarse-grained */
    if ((caps & OCL_SVM_FINE_GRAIN_BUFFER) && ((type & CL_DEVICE_TYPE_CPU) || unified == CL_TRUE))
        return 2;
    return caps & OCL_SVM_COARSE_GRAIN_BUFFER ? 1 : 2;
}

int ocl_uses_nv_asm(const char *vendor)
{
    const char *as = getenv("CUBRIDGE_OPENCL_ASM");
    return strstr(vendor, "NVIDIA") != NULL && !(as && !strcmp(as, "0"));
}

int ocl_uses_subgroups32(cl_device_id d)
{
    const char *env = getenv("CUBRIDGE_OPENCL_SUBGROUPS");
    if (env && !strcmp(env, "0"))
        return 0;
    char *ext = device_extensions(d);
    int ok = ext && has_word(ext, "cl_intel_required_subgroup_size") &&
             (has_word(ext, "cl_intel_subgroups") || has_word(ext, "cl_khr_subgroups"));
    free(ext);
    size_t sizes[16], got = 0;
    if (!ok || clGetDeviceInfo(d, Q_SUB_GROUP_SIZES_INTEL, sizeof sizes, sizes, &got) != CL_SUCCESS)
        return 0;
    for (size_t i = 0; i < got / sizeof sizes[0] && i < 16; i++)
        if (sizes[i] == 32)
            return 1;
    return 0;
}

static void describe(cl_platform_id p, cl_device_id d, cb_opencl_device_report *r)
{
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof r->platform_name - 1, r->platform_name, NULL);
    clGetPlatformInfo(p, CL_PLATFORM_VERSION, sizeof r->platform_version - 1, r->platform_version, NULL);
    device_string(d, CL_DEVICE_NAME, r->name, sizeof r->name);
    device_string(d, CL_DEVICE_VENDOR, r->vendor, sizeof r->vendor);
    device_string(d, CL_DEVICE_VERSION, r->version, sizeof r->version);
    device_string(d, CL_DRIVER_VERSION, r->driver, sizeof r->driver);
    device_string(d, CL_DEVICE_OPENCL_C_VERSION, r->c_version, sizeof r->c_version);
    cl_device_type type = 0;
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    r->type = type & CL_DEVICE_TYPE_GPU ? "GPU" : type & CL_DEVICE_TYPE_CPU ? "CPU"
              : type & CL_DEVICE_TYPE_ACCELERATOR ? "accelerator" : "custom";
    cl_uint u = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof u, &u, NULL) == CL_SUCCESS)
        r->compute_units = u;
    u = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof u, &u, NULL) == CL_SUCCESS)
        r->clock_mhz = u;
    cl_ulong v = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof v, &v, NULL) == CL_SUCCESS)
        r->global_mem = v;
    v = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof v, &v, NULL) == CL_SUCCESS)
        r->max_alloc = v;
    v = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof v, &v, NULL) == CL_SUCCESS)
        r->local_mem = v;
    size_t z = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof z, &z, NULL) == CL_SUCCESS)
        r->max_work_group = z;

    char *ext = device_extensions(d);
    const char *e = ext ? ext : "";
    r->fp16 = has_word(e, "cl_khr_fp16");
    r->fp64 = has_word(e, "cl_khr_fp64");
    r->atomics64 = has_word(e, "cl_khr_int64_base_atomics") ? 1 + has_word(e, "cl_khr_int64_extended_atomics") : 0;
    r->subgroup_shuffle = has_word(e, "cl_khr_subgroup_shuffle") || has_word(e, "cl_intel_subgroups");
    r->subgroup_ballot = has_word(e, "cl_khr_subgroup_ballot") || has_word(e, "cl_intel_subgroups");
    r->intel_required_size = has_word(e, "cl_intel_required_subgroup_size");
    r->subgroups = has_word(e, "cl_khr_subgroups");

    cl_bitfield svm = 0;
    if (clGetDeviceInfo(d, Q_SVM_CAPABILITIES, sizeof svm, &svm, NULL) == CL_SUCCESS) {
        r->svm_known = 1;
        r->svm_coarse = (svm & 1) != 0;    /* CL_DEVICE_SVM_COARSE_GRAIN_BUFFER */
        r->svm_fine = (svm & 2) != 0;      /* CL_DEVICE_SVM_FINE_GRAIN_BUFFER */
        r->svm_system = (svm & 4) != 0;    /* CL_DEVICE_SVM_FINE_GRAIN_SYSTEM */
        r->svm_atomics = (svm & 8) != 0;   /* CL_DEVICE_SVM_ATOMICS */
    }
    cl_bool img = CL_FALSE;
    clGetDeviceInfo(d, CL_DEVICE_IMAGE_SUPPORT, sizeof img, &img, NULL);
    r->images = img == CL_TRUE;
    if (r->images) {
        clGetDeviceInfo(d, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof r->image2d_width, &r->image2d_width, NULL);
        clGetDeviceInfo(d, CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof r->image2d_height, &r->image2d_height, NULL);
    }
    u = 0;
    if (clGetDeviceInfo(d, Q_MAX_NUM_SUB_GROUPS, sizeof u, &u, NULL) == CL_SUCCESS) {
        r->max_subgroups_known = 1;
        r->max_subgroups = u;
        r->subgroups |= u > 0;
    }
    size_t sizes[16], got = 0;
    if (r->intel_required_size &&
        clGetDeviceInfo(d, Q_SUB_GROUP_SIZES_INTEL, sizeof sizes, sizes, &got) == CL_SUCCESS) {
        size_t at = 0;
        for (size_t i = 0; i < got / sizeof sizes[0] && i < 16 && at < sizeof r->subgroup_sizes; i++)
            at += (size_t)snprintf(r->subgroup_sizes + at, sizeof r->subgroup_sizes - at, "%s%zu", i ? " " : "",
                                   sizes[i]);
    }
    if (has_word(e, "cl_nv_device_attribute_query")) {
        u = 0;
        if (clGetDeviceInfo(d, Q_WARP_SIZE_NV, sizeof u, &u, NULL) == CL_SUCCESS)
            r->warp_size_nv = u;
    }
    if (has_word(e, "cl_amd_device_attribute_query")) {
        u = 0;
        if (clGetDeviceInfo(d, Q_WAVEFRONT_WIDTH_AMD, sizeof u, &u, NULL) == CL_SUCCESS)
            r->wavefront_amd = u;
    }
    free(ext);
    char why[200];
    r->memory_mode = ocl_memory_mode(d, getenv("CUBRIDGE_OPENCL_MEMORY"), why, sizeof why);
    r->nv_asm = ocl_uses_nv_asm(r->vendor);
    r->sg32 = !r->nv_asm && ocl_uses_subgroups32(d);
}

int cb_opencl_devices(cb_opencl_device_report *out, int max, char *err, size_t errlen)
{
    if (ocl_load(err, errlen) < 0)
        return -1;
    cl_platform_id ps[MAXP];
    cl_uint np = 0;
    if (clGetPlatformIDs(MAXP, ps, &np) != CL_SUCCESS || np == 0) {
        snprintf(err, errlen, "no OpenCL platform (is an ICD installed? Debian: pocl-opencl-icd)");
        return -1;
    }
    if (np > MAXP)
        np = MAXP;
    cl_platform_id cp = NULL;
    cl_device_id chosen = NULL;
    char why[256];
    if (ocl_pick_device(getenv("CUBRIDGE_OPENCL_DEVICE"), &cp, &chosen, why, sizeof why) < 0)
        chosen = NULL;
    int n = 0;
    for (cl_uint p = 0; p < np; p++) {
        cl_device_id ds[MAXD];
        cl_uint nd = 0;
        if (clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, MAXD, ds, &nd) != CL_SUCCESS)
            continue;
        if (nd > MAXD)
            nd = MAXD;
        for (cl_uint d = 0; d < nd; d++, n++) {
            if (n >= max)
                continue;
            cb_opencl_device_report *r = &out[n];
            memset(r, 0, sizeof *r);
            r->platform = p;
            r->index = d;
            r->chosen = ds[d] == chosen;
            describe(ps[p], ds[d], r);
        }
    }
    return n;
}
