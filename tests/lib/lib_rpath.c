/* lib_rpath.c: a program that pins "NVIDIA's" libcublas.so.13 (the mock in
 * mock/) with DT_RPATH, which the loader searches before LD_LIBRARY_PATH --
 * as pip wheels and PyTorch pin theirs. Run plainly it gets the mock; under
 * `cubridge run` the LD_AUDIT module hands it cubridge's (docs/libraries.md,
 * "Our libraries win"). Prints which one answered. */
#include <stdio.h>

int cublasCreate_v2(void **handle);
int cublasGetVersion_v2(void *handle, int *version);

int main(void)
{
    void *h = NULL;
    int version = 0;
    if (cublasCreate_v2(&h) != 0 || cublasGetVersion_v2(h, &version) != 0) {
        printf("FAIL no libcublas answered\n");
        return 1;
    }
    printf("libcublas: %s\n", version == 4242 ? "mock" : "cubridge");
    return 0;
}
