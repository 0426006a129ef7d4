/* golden_mma_gpu.c: runs the tensor-core probe kernels of mma.ptx on a real
 * GPU (one warp each, inputs from mma_inputs.h) and writes their outputs to
 * mma_golden.bin, which tests/unit/test_cpu_mma_golden.c compares the CPU
 * translation against. Needs a GPU of sm_90 (the PTX targets sm_90); see
 * regen_golden.sh.
 *
 * mma_golden.bin: "CBMMAGLD", u32 case count, u32 words per lane (64), then
 * per case a 64-byte NUL-padded kernel name and 32 * 64 little-endian u32
 * output words (lane-major; words a kernel does not write stay 0xeeeeeeee). */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mma_inputs.h"

typedef struct mma_case {
    const char *kernel, *classes;
    char check;
    unsigned blocks, cluster;   /* blocks of 32 threads; the cluster size (0: no cluster launch) */
} mma_case;

static const mma_case cases[] = {
#define MMA_CASE(k, c, x, b, cl) {k, c, x, b, cl},
#include "mma_cases.h"
#undef MMA_CASE
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
    const char *outpath = argc > 2 ? argv[2] : "mma_golden.bin";
    uint32_t n = (uint32_t)(sizeof cases / sizeof cases[0]), words = MMA_WORDS;
    static uint32_t in[32 * MMA_WORDS], out[32 * MMA_WORDS];
    char path[512], log[8192] = {0};
    snprintf(path, sizeof path, "%s/mma.ptx", dir);
    char *ptx = slurp(path);
    if (!ptx) {
        fprintf(stderr, "cannot read %s\n", path);
        return 1;
    }
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUdeviceptr din, dout;
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuCtxCreate(&ctx, NULL, 0, dev));
    CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[] = {log, (void *)(size_t)sizeof log};
    if (cuModuleLoadDataEx(&mod, ptx, 2, opts, vals) != CUDA_SUCCESS) {
        fprintf(stderr, "mma.ptx: cannot load: %s\n", log);
        return 1;
    }
    CK(cuMemAlloc(&din, sizeof in));
    CK(cuMemAlloc(&dout, sizeof out));
    FILE *o = fopen(outpath, "wb");
    if (!o)
        return 1;
    fwrite("CBMMAGLD", 1, 8, o);
    fwrite(&n, 4, 1, o);
    fwrite(&words, 4, 1, o);
    int failed = 0;
    for (uint32_t k = 0; k < n; k++) {
        for (uint32_t l = 0; l < 32; l++)
            for (uint32_t w = 0; w < MMA_WORDS; w++)
                in[l * MMA_WORDS + w] = mma_word(k, l, w, cases[k].classes[w]);
        CK(cuMemcpyHtoD(din, in, sizeof in));
        CK(cuMemsetD8(dout, 0xee, sizeof out));
        CUfunction fn;
        void *args[] = {&din, &dout};
        CUlaunchAttribute attr;
        memset(&attr, 0, sizeof attr);
        attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
        attr.value.clusterDim.x = cases[k].cluster;
        attr.value.clusterDim.y = attr.value.clusterDim.z = 1;
        CUlaunchConfig cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.gridDimX = cases[k].blocks;
        cfg.gridDimY = cfg.gridDimZ = 1;
        cfg.blockDimX = 32;
        cfg.blockDimY = cfg.blockDimZ = 1;
        cfg.attrs = &attr;
        cfg.numAttrs = cases[k].cluster ? 1 : 0;
        if (cuModuleGetFunction(&fn, mod, cases[k].kernel) != CUDA_SUCCESS ||
            cuLaunchKernelEx(&cfg, fn, args, NULL) != CUDA_SUCCESS || cuCtxSynchronize() != CUDA_SUCCESS) {
            fprintf(stderr, "%s: launch failed\n", cases[k].kernel);
            failed = 1;
        }
        CK(cuMemcpyDtoH(out, dout, sizeof out));
        char name[64] = {0};
        snprintf(name, sizeof name, "%s", cases[k].kernel);
        fwrite(name, 1, 64, o);
        fwrite(out, 4, 32 * MMA_WORDS, o);
        printf("%s\n", cases[k].kernel);
    }
    fclose(o);
    cuModuleUnload(mod);
    free(ptx);
    return failed;
}
