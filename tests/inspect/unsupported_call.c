/* unsupported_call.c: fetches an entry point cubridge does not implement
 * (cuArrayCreate_v2) through cuGetProcAddress, as cudart does, and calls it:
 * it must return CUDA_ERROR_NOT_SUPPORTED, never success. */
#include <cuda.h>
#include <stdio.h>

int main(void)
{
    if (cuInit(0) != CUDA_SUCCESS)
        return 2;
    void *fn = NULL;
    CUdriverProcAddressQueryResult q;
    if (cuGetProcAddress_v2("cuArrayCreate", &fn, 13000, 0, &q) != CUDA_SUCCESS || !fn)
        return 3;
    CUDA_ARRAY_DESCRIPTOR d = {16, 16, CU_AD_FORMAT_FLOAT, 1};
    CUarray a;
    CUresult r = ((CUresult (*)(CUarray *, const CUDA_ARRAY_DESCRIPTOR *))fn)(&a, &d);
    printf("cuArrayCreate_v2 -> %d\n", (int)r);
    return r == CUDA_ERROR_NOT_SUPPORTED ? 0 : 1;
}
