/* lib_passthrough.c: the client of the pass-through test (mock_libcublas.c):
 * every call must reach the mock through cubridge's libcublas.so.13. */
#include <stdio.h>

int cublasCreate_v2(void **handle);
int cublasGetVersion_v2(void *handle, int *version);
int cublasSgemm_v2(void *handle, int ta, int tb, int m, int n, int k, const float *alpha, const float *A, int lda,
                   const float *B, int ldb, const float *beta, float *C, int ldc);
/* No header declares it; cubridge's facade forwards it without knowing its arguments. */
int cublasGetBackdoor(void *p, int a, double x, float y, long b, long c, long d, long e, long f, float z);

int main(void)
{
    void *h = NULL;
    int version = 0;
    if (cublasCreate_v2(&h) != 0 || h != (void *)0x5eed) {
        printf("FAIL cublasCreate_v2 did not reach NVIDIA's library (handle %p)\n", h);
        return 1;
    }
    if (cublasGetVersion_v2(h, &version) != 0 || version != 4242) {
        printf("FAIL cublasGetVersion_v2: %d\n", version);
        return 1;
    }
    int a = cublasSgemm_v2(h, 0, 0, 1, 1, 1, NULL, NULL, 1, NULL, 1, NULL, NULL, 1);
    int b = cublasSgemm_v2(h, 0, 0, 1, 1, 1, NULL, NULL, 1, NULL, 1, NULL, NULL, 1);
    if (a != 0 || b != 14) {
        printf("FAIL cublasSgemm_v2 answered %d %d, not the mock's 0 14\n", a, b);
        return 1;
    }
    int bd = cublasGetBackdoor(h, -7, 2.5, -0.25f, 1, 2, 3, 4, 5, 8.0f);
    if (bd != 0) {
        printf("FAIL cublasGetBackdoor: the mock answered %d: its arguments did not arrive as passed\n", bd);
        return 1;
    }
    printf("PASS lib_passthrough\n");
    return 0;
}
