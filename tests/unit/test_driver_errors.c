/* test_driver_errors.c: cuGetErrorName/cuGetErrorString cover every
 * CUresult with CUDA's texts, and reject unknown codes. */
#include "driver/driver.h"

#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                                                         \
    do {                                                                                                    \
        if (!(cond)) {                                                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                         \
            failures++;                                                                                     \
        }                                                                                                   \
    } while (0)

static void expect(CUresult code, const char *name, const char *text)
{
    const char *s = NULL;
    CHECK(cuGetErrorName(code, &s) == CUDA_SUCCESS && s && strcmp(s, name) == 0);
    s = NULL;
    CHECK(cuGetErrorString(code, &s) == CUDA_SUCCESS && s && strcmp(s, text) == 0);
    if (s && strcmp(s, text) != 0)
        fprintf(stderr, "  %s: got \"%s\", want \"%s\"\n", name, s, text);
}

int main(void)
{
    expect(CUDA_SUCCESS, "CUDA_SUCCESS", "no error");
    expect(CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument");
    expect(CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory");
    expect(CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error");
    expect(CUDA_ERROR_DEINITIALIZED, "CUDA_ERROR_DEINITIALIZED", "driver shutting down");
    expect(CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected");
    expect(CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal");
    expect(CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid");
    expect(CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context");
    expect(CUDA_ERROR_NO_BINARY_FOR_GPU, "CUDA_ERROR_NO_BINARY_FOR_GPU",
           "no kernel image is available for execution on the device");
    expect(CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed");
    expect(CUDA_ERROR_FILE_NOT_FOUND, "CUDA_ERROR_FILE_NOT_FOUND", "file not found");
    expect(CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle");
    expect(CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found");
    expect(CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready");
    expect(CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered");
    expect(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
           "too many resources requested for launch");
    expect(CUDA_ERROR_ASSERT, "CUDA_ERROR_ASSERT", "device-side assert triggered");
    expect(CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure");
    expect(CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported");
    expect(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED",
           "operation not permitted when stream is capturing");
    expect(CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error");

    /* Every value named in the CUresult enum has a name and a text. */
    int named = 0;
    for (int code = 0; code < 1000; code++) {
        const char *n = NULL, *s = NULL;
        CUresult rn = cuGetErrorName((CUresult)code, &n);
        CUresult rs = cuGetErrorString((CUresult)code, &s);
        CHECK(rn == rs);
        if (rn == CUDA_SUCCESS) {
            named++;
            CHECK(n && s && strncmp(n, "CUDA_", 5) == 0 && s[0]);
        } else {
            CHECK(rn == CUDA_ERROR_INVALID_VALUE && n == NULL && s == NULL);
        }
    }
    CHECK(named == 101); /* every value cuda.h 13.0 names */

    const char *s = "x";
    CHECK(cuGetErrorString((CUresult)12345, &s) == CUDA_ERROR_INVALID_VALUE && s == NULL);
    CHECK(cuGetErrorString(CUDA_SUCCESS, NULL) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuGetErrorName(CUDA_SUCCESS, NULL) == CUDA_ERROR_INVALID_VALUE);
    if (failures)
        fprintf(stderr, "test_driver_errors: %d failures\n", failures);
    return failures != 0;
}
