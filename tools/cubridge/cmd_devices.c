/* cmd_devices.c: `cubridge devices [--backend NAME]`: starts the driver as
 * a program would and lists what it reports. With the cpu backend that is
 * the core (cb_init); with the cuda backend it is NVIDIA's driver, loaded
 * as the pass-through loads it and asked through its own entry points. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/core.h"
#include "core/device.h"
#include "passthrough/passthrough.h"

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
        return cli_usage_error("devices", "unknown backend '%s' (this build has: cpu, cuda)", backend);
    if (backend && cli_os_setenv("CUBRIDGE_BACKEND", backend, 1) != 0)
        return 1;
    backend = getenv("CUBRIDGE_BACKEND");
    if (backend && strcmp(backend, "cuda") == 0)
        return devices_real();
    CUresult r = cb_init(0);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "cubridge devices: the driver did not start (CUresult %d)%s\n", (int)r,
                backend && backend[0] && !cli_backend_known(backend) ? ": CUBRIDGE_BACKEND names no backend of "
                                                                       "this build (cpu, cuda)" : "");
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
    return 0;
}
