/* golden_gpu.c: runs the ISA test kernels (isa_cases.h) on a real GPU and
 * writes their outputs to isa_golden.bin, the reference test_codegen_isa.c
 * compares the CPU translation against. Needs a GPU; see regen_golden.sh.
 *
 * isa_golden.bin: "CBISAGLD", u32 kernel count, u32 threads, then per
 * kernel a 64-byte NUL-padded "file:kernel" name and threads*8 little-endian
 * words. A kernel whose file does not load or whose launch fails gets no
 * record (the CPU test reports its cases as having no golden data) and
 * makes the exit status 2.
 * Usage: golden_gpu DIR OUTFILE (DIR holds the PTX files). */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa_inputs.h"

typedef struct isa_kernel {
    const char *file, *kernel;
} isa_kernel;

static const isa_kernel cases[] = {
#define ISA_CASE(f, k, c, h, n) {f, k},
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

/* Loads dir/file as a module; 0 on success, the JIT log on stderr if not. */
static int load(const char *dir, const char *file, CUmodule *mod)
{
    char path[512], log[8192] = {0};
    snprintf(path, sizeof path, "%s/%s", dir, file);
    char *ptx = slurp(path);
    CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[] = {log, (void *)(size_t)sizeof log};
    CUresult r = ptx ? cuModuleLoadDataEx(mod, ptx, 2, opts, vals) : CUDA_ERROR_FILE_NOT_FOUND;
    free(ptx);
    if (r != CUDA_SUCCESS)
        fprintf(stderr, "%s: cannot load (%d): %s\n", path, (int)r, log);
    return r == CUDA_SUCCESS ? 0 : -1;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    const char *outpath = argc > 2 ? argv[2] : "isa_golden.bin";
    uint32_t n = (uint32_t)(sizeof cases / sizeof cases[0]), threads = ISA_THREADS, written = 0;
    uint32_t *in = malloc(threads * 16), *out = malloc(threads * 32);
    for (uint32_t i = 0; i < threads; i++)
        for (uint32_t w = 0; w < 4; w++)
            in[i * 4 + w] = isa_word(i, w);
    CUdevice dev;
    CUcontext ctx;
    CUdeviceptr din, dout;
    char devname[256] = {0};
    int major = 0, minor = 0;
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuDeviceGetName(devname, sizeof devname, dev));
    CK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    printf("golden_gpu: %s (sm_%d%d), %u kernels, %u threads\n", devname, major, minor, n, threads);
    CK(cuCtxCreate(&ctx, NULL, 0, dev));
    CK(cuMemAlloc(&din, threads * 16));
    CK(cuMemAlloc(&dout, threads * 32));
    CK(cuMemcpyHtoD(din, in, threads * 16));
    FILE *o = fopen(outpath, "wb");
    if (!o) {
        perror(outpath);
        return 1;
    }
    fwrite("CBISAGLD", 1, 8, o);
    fwrite(&n, 4, 1, o);
    fwrite(&threads, 4, 1, o);
    int failed = 0, loaded = 0;
    const char *file = NULL;
    CUmodule mod = NULL;
    for (uint32_t k = 0; k < n; k++) {
        char name[64] = {0};
        snprintf(name, sizeof name, "%s:%s", cases[k].file, cases[k].kernel);
        if (!file || strcmp(file, cases[k].file) != 0) {
            if (loaded)
                cuModuleUnload(mod);
            file = cases[k].file;
            loaded = load(dir, file, &mod) == 0;
        }
        CUfunction fn;
        void *args[] = {&din, &dout};
        if (!loaded || cuMemsetD8(dout, 0xee, threads * 32) != CUDA_SUCCESS ||
            cuModuleGetFunction(&fn, mod, cases[k].kernel) != CUDA_SUCCESS ||
            cuLaunchKernel(fn, threads / ISA_BLOCK, 1, 1, ISA_BLOCK, 1, 1, 0, NULL, args, NULL) != CUDA_SUCCESS ||
            cuCtxSynchronize() != CUDA_SUCCESS || cuMemcpyDtoH(out, dout, threads * 32) != CUDA_SUCCESS) {
            fprintf(stderr, "%s: FAILED, no golden record\n", name);
            failed = 1;
            continue;
        }
        fwrite(name, 1, 64, o);
        fwrite(out, 4, threads * 8, o);
        written++;
    }
    if (loaded)
        cuModuleUnload(mod);
    fseek(o, 8, SEEK_SET);
    fwrite(&written, 4, 1, o);
    if (fclose(o) != 0) {
        perror(outpath);
        return 1;
    }
    printf("golden_gpu: wrote %s: %u of %u kernels\n", outpath, written, n);
    return failed ? 2 : 0;
}
