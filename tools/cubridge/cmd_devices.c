/* cmd_devices.c: `cubridge devices`: starts the core as a program would
 * (cb_init) and lists what it reports. */
#include <stdio.h>

#include "cli.h"
#include "core/core.h"

int cli_devices(int argc, char **argv)
{
    (void)argv;
    if (argc != 0) {
        fprintf(stderr, "usage: cubridge devices\n");
        return CLI_EXIT_USAGE;
    }
    CUresult rc = cb_init(0);
    if (rc != CUDA_SUCCESS) {
        fprintf(stderr, "cubridge devices: initialisation failed (CUresult %d)\n", (int)rc);
        return 1;
    }
    int n = cb_device_count();
    printf("%d device%s\n", n, n == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
        const cb_device *d = cb_device_get(i);
        if (!d)
            continue;
        printf("%d: %s\n", i, d->info.name);
        printf("   backend             %s\n", d->backend && d->backend->name ? d->backend->name : "?");
        printf("   compute capability  %d.%d\n", d->cc_major, d->cc_minor);
        printf("   memory              %.1f GiB (%zu bytes)\n", (double)d->info.total_mem / (1 << 30),
               d->info.total_mem);
        printf("   multiprocessors     %d\n", d->info.multiprocessors);
        printf("   threads per block   %d\n", d->info.max_threads_per_block);
        printf("   shared per block    %d bytes (opt-in %d)\n", d->info.max_shared_per_block,
               d->info.max_shared_per_block_optin);
    }
    return 0;
}
