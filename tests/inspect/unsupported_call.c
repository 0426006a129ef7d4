/* unsupported_call.c: fetches an entry point cubridge does not implement
 * (cuGraphicsUnregisterResource: graphics interop, which a CPU backend has no
 * use for) through cuGetProcAddress, as cudart does, and calls it: it must
 * return CUDA_ERROR_NOT_SUPPORTED, never success. */
#include <cuda.h>
#include <stdio.h>

int main(void)
{
    if (cuInit(0) != CUDA_SUCCESS)
        return 2;
    void *fn = NULL;
    CUdriverProcAddressQueryResult q;
    if (cuGetProcAddress_v2("cuGraphicsUnregisterResource", &fn, 13000, 0, &q) != CUDA_SUCCESS || !fn)
        return 3;
    CUresult r = ((CUresult (*)(CUgraphicsResource))fn)(NULL);
    printf("cuGraphicsUnregisterResource -> %d\n", (int)r);
    return r == CUDA_ERROR_NOT_SUPPORTED ? 0 : 1;
}
