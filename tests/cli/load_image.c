/* load_image.c FILE: loads a module image (a fatbin, a cubin) with
 * cuModuleLoadData and prints the CUresult's name. For the "no PTX"
 * advice (tests/cli/run_cli_test.sh, case no-ptx). */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    FILE *f = fopen(argv[1], "rb");
    if (!f)
        return 2;
    static char image[1 << 20];
    size_t n = fread(image, 1, sizeof image, f);
    fclose(f);
    if (n == 0)
        return 2;
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS ||
        cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS || cuCtxSetCurrent(ctx) != CUDA_SUCCESS)
        return 2;
    CUresult r = cuModuleLoadData(&mod, image);
    const char *name = NULL;
    cuGetErrorName(r, &name);
    printf("cuModuleLoadData: %s\n", name ? name : "?");
    return 0;
}
