/* golden_gpu.c: runs the ISA test kernels (isa_cases.h) on a real GPU and
 * writes their outputs to isa_golden.bin, the reference test_codegen_isa.c
 * compares the CPU translation against. Needs a GPU; see regen_golden.sh.
 *
 * isa_golden.bin: "CBISAGLD", u32 case count, u32 threads, then per case a
 * 64-byte NUL-padded "file:kernel" name and threads*8 little-endian words. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa_inputs.h"

typedef struct isa_case {
    const char *file, *kernel, *checks, *fmt;
} isa_case;

static const isa_case cases[] = {
#define ISA_CASE(f, k, c, h) {f, k, c, h},
#include "isa_cases.h"
#undef ISA_CASE
};

#define CK(x)                                                              \
    do {                                                                   \
        CUresult r_ = (x);                                                 \
        if (r_ != CUDA_SUCCESS) {                                          \
            const char *s_ = "?";                                          \
            cuGetErrorString(r_, &s_);                                     \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, s_); \
            return 1;                                                      \
        }                                                                  \
    } while (0)

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = calloc(1, (size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    return b;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    const char *outpath = argc > 2 ? argv[2] : "isa_golden.bin";
    uint32_t n = (uint32_t)(sizeof cases / sizeof cases[0]), threads = ISA_THREADS;
    uint32_t *in = malloc(threads * 16), *out = malloc(threads * 32);
    for (uint32_t i = 0; i < threads; i++)
        for (uint32_t w = 0; w < 4; w++)
            in[i * 4 + w] = isa_word(i, w);
    CUdevice dev;
    CUcontext ctx;
    CUdeviceptr din, dout;
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuCtxCreate(&ctx, NULL, 0, dev));
    CK(cuMemAlloc(&din, threads * 16));
    CK(cuMemAlloc(&dout, threads * 32));
    CK(cuMemcpyHtoD(din, in, threads * 16));
    FILE *o = fopen(outpath, "wb");
    if (!o)
        return 1;
    fwrite("CBISAGLD", 1, 8, o);
    fwrite(&n, 4, 1, o);
    fwrite(&threads, 4, 1, o);
    int failed = 0;
    for (uint32_t k = 0; k < n; k++) {
        char path[512], name[64] = {0}, log[8192] = {0};
        snprintf(path, sizeof path, "%s/%s", dir, cases[k].file);
        snprintf(name, sizeof name, "%s:%s", cases[k].file, cases[k].kernel);
        memset(out, 0xee, threads * 32);
        char *ptx = slurp(path);
        CUmodule mod;
        CUfunction fn;
        CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
        void *vals[] = {log, (void *)(size_t)sizeof log};
        if (!ptx || cuModuleLoadDataEx(&mod, ptx, 2, opts, vals) != CUDA_SUCCESS) {
            fprintf(stderr, "%s: cannot load: %s\n", name, log);
            failed = 1;
        } else {
            void *args[] = {&din, &dout};
            CK(cuMemsetD8(dout, 0xee, threads * 32));
            if (cuModuleGetFunction(&fn, mod, cases[k].kernel) != CUDA_SUCCESS ||
                cuLaunchKernel(fn, threads / ISA_BLOCK, 1, 1, ISA_BLOCK, 1, 1, 0, NULL, args, NULL) != CUDA_SUCCESS ||
                cuCtxSynchronize() != CUDA_SUCCESS) {
                fprintf(stderr, "%s: launch failed\n", name);
                failed = 1;
            }
            CK(cuMemcpyDtoH(out, dout, threads * 32));
            cuModuleUnload(mod);
        }
        free(ptx);
        fwrite(name, 1, 64, o);
        fwrite(out, 4, threads * 8, o);
        printf("%s\n", name);
    }
    fclose(o);
    return failed;
}
