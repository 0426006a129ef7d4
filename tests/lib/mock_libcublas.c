/* mock_libcublas.c: a stand-in for NVIDIA's libcublas.so.13, for the test of
 * the facades' cuda pass-through (lib_inspect_test.sh, case "passthrough"):
 * under CUBRIDGE_BACKEND=cuda, cubridge's libcublas.so.13 forwards every
 * export to NVIDIA's library of that name, here this file (named by
 * CUBRIDGE_REAL_LIB_DIR). Its answers are recognisable: a handle of
 * 0x5eed, version 4242, and a Sgemm that only counts. cublasGetBackdoor is
 * one of NVIDIA's exports that no header declares (the facade knows no
 * prototype for it): here it takes integer, float and stack arguments and
 * answers 0 only if each arrived as the client passed it. */
#include <stdint.h>

static int sgemm_calls;

int cublasCreate_v2(void **handle)
{
    *handle = (void *)(uintptr_t)0x5eed;
    return 0;
}

int cublasGetVersion_v2(void *handle, int *version)
{
    *version = handle == (void *)(uintptr_t)0x5eed ? 4242 : -1;
    return 0;
}

int cublasSgemm_v2(void)
{
    return ++sgemm_calls == 1 ? 0 : 14;   /* the second call: CUBLAS_STATUS_INTERNAL_ERROR, to tell them apart */
}

int cublasGetBackdoor(void *p, int a, double x, float y, long b, long c, long d, long e, long f, float z)
{
    int ok = p == (void *)(uintptr_t)0x5eed && a == -7 && x == 2.5 && y == -0.25f && b == 1 && c == 2 && d == 3 &&
             e == 4 && f == 5 && z == 8.0f;
    return ok ? 0 : 99;
}
