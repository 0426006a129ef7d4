/* cmd_devices.c: `cubridge devices [--backend NAME]`: starts the driver as
 * a program would and lists what it reports. With the cpu backend that is
 * the core (cb_init); with the cuda backend it is NVIDIA's driver, loaded
 * as the pass-through loads it and asked through its own entry points.
 * When the opencl backend is asked for (CUBRIDGE_BACKEND or
 * CUBRIDGE_DEVICES), it then lists every OpenCL device of the system and
 * what it can do (cb_opencl_devices), marking the one
 * CUBRIDGE_OPENCL_DEVICE picks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/core.h"
#include "core/device.h"
#include "passthrough/passthrough.h"
#ifdef CUBRIDGE_OPENCL_BACKEND
#include "backend/opencl/opencl_backend.h"
#endif

static void print_device(int i, const char *name, const char *backend, int major, int minor, size_t mem, int mps,
                         int threads, int smem, int smem_optin)
{
    printf("%d: %s\n", i, name);
    printf("   backend             %s\n", backend);
    printf("   compute capability  %d.%d\n", major, minor);
    printf("   memory              %.1f GiB (%zu bytes)\n", (double)mem / (1 << 30), mem);
    printf("   multiprocessors     %d\n", mps);
    printf("   threads per block   %d\n", threads);
    printf("   shared per block    %d bytes (opt-in %d)\n", smem, smem_optin);
}

typedef CUresult (*init_fn)(unsigned);
typedef CUresult (*count_fn)(int *);
typedef CUresult (*get_fn)(CUdevice *, int);
typedef CUresult (*name_fn)(char *, int, CUdevice);
typedef CUresult (*mem_fn)(size_t *, CUdevice);
typedef CUresult (*attr_fn)(int *, CUdevice_attribute, CUdevice);

/* The devices of NVIDIA's driver (CUBRIDGE_BACKEND=cuda). */
static int devices_real(void)
{
    if (cb_passthrough_load() != CUDA_SUCCESS) {
        fprintf(stderr, "cubridge devices: backend cuda: no usable NVIDIA libcuda.so.1 was found (set "
                        "CUBRIDGE_REAL_LIBCUDA to its path; the line above says what was tried); cubridge's CPU "
                        "device is not listed for this backend\n");
        return 1;
    }
    init_fn init = (init_fn)cb_passthrough_real(cb_export_find("cuInit"));
    count_fn count = (count_fn)cb_passthrough_real(cb_export_find("cuDeviceGetCount"));
    get_fn get = (get_fn)cb_passthrough_real(cb_export_find("cuDeviceGet"));
    name_fn name = (name_fn)cb_passthrough_real(cb_export_find("cuDeviceGetName"));
    mem_fn mem = (mem_fn)cb_passthrough_real(cb_export_find("cuDeviceTotalMem_v2"));
    attr_fn attr = (attr_fn)cb_passthrough_real(cb_export_find("cuDeviceGetAttribute"));
    int n = 0;
    CUresult r = init && count ? init(0) : CUDA_ERROR_NOT_SUPPORTED;
    if (r == CUDA_SUCCESS)
        r = count(&n);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "cubridge devices: NVIDIA's driver (%s) did not start: CUresult %d\n", cb_passthrough_real_path(),
                (int)r);
        return 1;
    }
    char backend[4200];
    snprintf(backend, sizeof backend, "cuda (NVIDIA's driver, %s)", cb_passthrough_real_path());
    printf("%d device%s\n", n, n == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
        CUdevice d = 0;
        char devname[256] = "?";
        size_t bytes = 0;
        int v[6] = {0, 0, 0, 0, 0, 0};
        static const CUdevice_attribute which[6] = {
            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
            CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,      CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
            CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN};
        if (!get || get(&d, i) != CUDA_SUCCESS)
            continue;
        if (name)
            name(devname, sizeof devname, d);
        if (mem)
            mem(&bytes, d);
        for (int k = 0; k < 6 && attr; k++)
            attr(&v[k], which[k], d);
        print_device(i, devname, backend, v[0], v[1], bytes, v[2], v[3], v[4], v[5]);
    }
    return 0;
}

#ifdef CUBRIDGE_OPENCL_BACKEND
#define OCL_LIST_MAX 64

static const char *yes_no(int v) { return v ? "yes" : "no"; }

/* The sub-group line: what the device reports, and its vendor's warp width. */
static void print_subgroups(const cb_opencl_device_report *r)
{
    printf("   sub-groups          ");
    if (!r->subgroups && !r->intel_required_size) {
        printf("none (no cl_khr_subgroups");
        if (r->max_subgroups_known)
            printf("; CL_DEVICE_MAX_NUM_SUB_GROUPS %u", r->max_subgroups);
        printf(")");
    } else {
        printf("yes (%s%s%s)", r->subgroups ? "cl_khr_subgroups" : "",
               r->subgroups && r->intel_required_size ? ", " : "",
               r->intel_required_size ? "cl_intel_required_subgroup_size" : "");
        if (r->subgroup_sizes[0])
            printf(", sizes %s", r->subgroup_sizes);
        if (r->max_subgroups)
            printf(", at most %u per work-group", r->max_subgroups);
        if (r->subgroup_shuffle || r->subgroup_ballot)
            printf(", %s%s%s", r->subgroup_shuffle ? "shuffle" : "",
                   r->subgroup_shuffle && r->subgroup_ballot ? " and " : "", r->subgroup_ballot ? "ballot" : "");
    }
    printf("\n");
    if (r->warp_size_nv)
        printf("   warp width          %u (CL_DEVICE_WARP_SIZE_NV)\n", r->warp_size_nv);
    if (r->wavefront_amd)
        printf("   wavefront width     %u (CL_DEVICE_WAVEFRONT_WIDTH_AMD)\n", r->wavefront_amd);
}

static void print_opencl_device(const cb_opencl_device_report *r)
{
    printf("%s %u:%u  %s (%s)\n", r->chosen ? "*" : " ", r->platform, r->index, r->name, r->type);
    printf("   platform            %s (%s)\n", r->platform_name, r->platform_version);
    printf("   version             %s; driver %s; %s\n", r->version, r->driver, r->c_version);
    printf("   compute units       %u at %u MHz\n", r->compute_units, r->clock_mhz);
    printf("   memory              %.2f GiB (largest allocation %.2f GiB), local %llu KiB\n",
           (double)r->global_mem / (1 << 30), (double)r->max_alloc / (1 << 30),
           (unsigned long long)(r->local_mem >> 10));
    printf("   work-group size     %zu\n", r->max_work_group);
    print_subgroups(r);
    printf("   fp16                %s\n", r->fp16 ? "yes (cl_khr_fp16)" : "no (no cl_khr_fp16)");
    printf("   fp64                %s\n", r->fp64 ? "yes (cl_khr_fp64)" : "no (no cl_khr_fp64)");
    printf("   64-bit atomics      %s\n",
           r->atomics64 == 2   ? "yes (cl_khr_int64_base_atomics, cl_khr_int64_extended_atomics)"
           : r->atomics64 == 1 ? "yes (cl_khr_int64_base_atomics)"
                               : "no (no cl_khr_int64_base_atomics)");
    if (!r->svm_known)
        printf("   SVM                 not reported (an OpenCL 1.x device)\n");
    else if (!r->svm_coarse && !r->svm_fine && !r->svm_system)
        printf("   SVM                 none\n");
    else
        printf("   SVM                 coarse-grained buffer %s, fine-grained buffer %s, fine-grained system %s, "
               "atomics %s\n",
               yes_no(r->svm_coarse), yes_no(r->svm_fine), yes_no(r->svm_system), yes_no(r->svm_atomics));
    if (r->images)
        printf("   images              yes (2D up to %zux%zu)\n", r->image2d_width, r->image2d_height);
    else
        printf("   images              no\n");
    static const char *const modes[] = {"heap-mode memory (one buffer, pointers are offsets)",
                                        "coarse-grained SVM (pointers are real pointers)",
                                        "fine-grained SVM (pointers are real pointers; managed memory)"};
    printf("   cubridge uses       %s; warp collectives %s\n",
           r->memory_mode < 0 ? "no memory mode (CUBRIDGE_OPENCL_MEMORY asks for what it lacks)" : modes[r->memory_mode],
           r->nv_asm ? "as inline PTX (CUBRIDGE_OPENCL_ASM=0 turns it off)"
           : r->sg32 ? "through local memory and 32-wide sub-groups (CUBRIDGE_OPENCL_SUBGROUPS=0 turns them off)"
                     : "through local memory");
}

/* Every OpenCL device of the system. Returns 0, or 1 when there is none. */
static int devices_opencl(void)
{
    cb_opencl_device_report *list = calloc(OCL_LIST_MAX, sizeof *list);
    char err[512] = "";
    int n = list ? cb_opencl_devices(list, OCL_LIST_MAX, err, sizeof err) : -1;
    if (n < 0) {
        fprintf(stderr, "cubridge devices: OpenCL: %s\n", list ? err : "out of memory");
        free(list);
        return 1;
    }
    printf("\n%d OpenCL device%s (CUBRIDGE_OPENCL_DEVICE=P:D or a part of the name picks one; * the one picked now)\n",
           n, n == 1 ? "" : "s");
    for (int i = 0; i < n && i < OCL_LIST_MAX; i++)
        print_opencl_device(&list[i]);
    free(list);
    return n > 0 ? 0 : 1;
}

/* 1 when the environment asks for an opencl device. */
static int opencl_asked(void)
{
    const char *b = getenv("CUBRIDGE_BACKEND"), *d = getenv("CUBRIDGE_DEVICES");
    return (b && strcmp(b, "opencl") == 0) || (d && strstr(d, "opencl"));
}
#endif

int cli_devices(int argc, char **argv)
{
    cli_args a;
    int rc = cli_parse("devices", argc, argv, &a);
    if (rc)
        return rc == 1 ? 0 : rc;
    if (a.first < argc)
        return cli_usage_error("devices", "unexpected argument '%s'", argv[a.first]);
    const char *backend = cli_opt(&a, "backend");
    if (backend && !cli_backend_known(backend))
        return cli_usage_error("devices", "unknown backend '%s' (this build has: " CLI_BACKENDS ")", backend);
    if (backend && cli_os_setenv("CUBRIDGE_BACKEND", backend, 1) != 0)
        return 1;
    backend = getenv("CUBRIDGE_BACKEND");
    if (backend && strcmp(backend, "cuda") == 0)
        return devices_real();
#ifdef CUBRIDGE_OPENCL_BACKEND
    cb_opencl_register();   /* the CLI links the backends from their archives: name it, so it is there */
#endif
    CUresult r = cb_init(0);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "cubridge devices: the driver did not start (CUresult %d)%s\n", (int)r,
                backend && backend[0] && !cli_backend_known(backend) ? ": CUBRIDGE_BACKEND names no backend of "
                                                                       "this build (" CLI_BACKENDS ")" : "");
#ifdef CUBRIDGE_OPENCL_BACKEND
        if (opencl_asked())
            devices_opencl();   /* what there is, to pick another device */
#endif
        return 1;
    }
    int n = cb_device_count();
    printf("%d device%s\n", n, n == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
        const cb_device *d = cb_device_get(i);
        if (!d)
            continue;
        print_device(i, d->info.name, d->backend && d->backend->name ? d->backend->name : "?", d->cc_major,
                     d->cc_minor, d->info.total_mem, d->info.multiprocessors, d->info.max_threads_per_block,
                     d->info.max_shared_per_block, d->info.max_shared_per_block_optin);
        printf("   warp size           %d\n", d->info.warp_size);
        if (n > 1) {   /* the devices whose memory this one's kernels can reach */
            printf("   peer access         ");
            int any = 0;
            for (int j = 0; j < n; j++)
                if (cb_device_can_access_peer(d, cb_device_get(j)))
                    printf("%s%d", any++ ? ", " : "", j);
            printf("%s\n", any ? "" : "none");
        }
    }
#ifdef CUBRIDGE_OPENCL_BACKEND
    if (opencl_asked())
        return devices_opencl();
#endif
    return 0;
}
