/* lib_unsupported.c: a call of a cuBLAS export cubridge does not implement
 * (cublasXtCreate, the multi-GPU Xt API) answers CUBLAS_STATUS_NOT_SUPPORTED
 * -- counted, traced, UNSUPPORTED in the report -- never success. Linked
 * against cubridge's libcublas.so.13 (lib_inspect_test.sh, case
 * "unsupported"); under NVIDIA's library the call would succeed, so this is
 * not a tests/lib program for the GPU. */
#include <stdio.h>

int cublasXtCreate(void **handle);   /* cublasXt.h's, as a plain C prototype */

int main(void)
{
    void *h = NULL;
    int st = cublasXtCreate(&h);
    if (st != 15) {   /* CUBLAS_STATUS_NOT_SUPPORTED */
        printf("FAIL cublasXtCreate returned %d, expected 15\n", st);
        return 1;
    }
    printf("PASS lib_unsupported\n");
    return 0;
}
