/* mock_libcublas.c: a stand-in for NVIDIA's libcublas.so.13, for the test of
 * the facades' cuda pass-through (lib_inspect_test.sh, case "passthrough"):
 * under CUBRIDGE_BACKEND=cuda, cubridge's libcublas.so.13 forwards every
 * export to NVIDIA's library of that name, here this file (named by
 * CUBRIDGE_REAL_LIB_DIR). Its answers are recognisable: a handle of
 * 0x5eed, version 4242, and a Sgemm that only counts. */
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
