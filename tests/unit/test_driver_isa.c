/* test_driver_isa: the PTX conformance corpus of tests/data/ptx/isa through
 * the driver API, on the backend CUBRIDGE_BACKEND names (the CPU by
 * default; ctest runs it as opencl.isa on the OpenCL device), compared word
 * by word with what an H200 computed from the same inputs (isa_golden.bin),
 * by the rules of test_codegen_isa (isa_check.h).
 *
 * Each PTX file is one module (cuModuleLoadData of its text); each kernel
 * runs its 3,328 input threads in blocks of 128 (cuLaunchKernel) and its 8
 * output words a thread are copied back. A kernel the backend refuses
 * (cuModuleGetFunction or the launch answers CUDA_ERROR_NOT_SUPPORTED, the
 * reason on stderr) marks its cases REFUSED; a file that does not load, a
 * launch that fails and a word that differs mark them FAIL. The test fails
 * on any refused or failing case that the backend's known-failures file
 * does not list with its reason: known_failures.txt for every backend, and
 * known_failures_<backend>.txt (CB_ISA_KNOWN overrides the name) for what
 * one backend refuses or computes differently.
 *
 * CB_ISA_VERBOSE=1 lists every failing word (the first 6 of each case);
 * CB_ISA_DATA=DIR reads the corpus from DIR/ptx/isa instead of the tree's.
 */
#include "driver/driver.h"

#include "isa_check.h"

#define DRV(call)                                                                                           \
    do {                                                                                                    \
        CUresult rc_ = (call);                                                                              \
        if (rc_ != CUDA_SUCCESS) {                                                                          \
            const char *n_ = NULL;                                                                          \
            cuGetErrorName(rc_, &n_);                                                                       \
            fprintf(stderr, "%s:%d: %s returned %s\n", __FILE__, __LINE__, #call, n_ ? n_ : "?");          \
            return 1;                                                                                       \
        }                                                                                                   \
    } while (0)

/* Marks kernel k's cases after rc, a driver call's failure: REFUSED for
 * NOT_SUPPORTED, else FAIL; what names the call. */
static void mark_failed_call(const isa_kernel *k, CUresult rc, const char *what)
{
    const char *n = NULL;
    cuGetErrorName(rc, &n);
    char why[128];
    snprintf(why, sizeof why, "%s answered %s", what, n ? n : "?");
    mark_kernel(k, rc == CUDA_ERROR_NOT_SUPPORTED ? CASE_REFUSED : CASE_FAIL, why);
}

/* Runs kernel k of module m and compares its words with want. */
static void run_kernel(const isa_kernel *k, CUmodule m, CUdeviceptr din, CUdeviceptr dout, const uint32_t *in,
                       uint32_t *out, const uint32_t *want, uint32_t nthreads, int verbose)
{
    CUfunction f;
    CUresult rc = cuModuleGetFunction(&f, m, k->kernel);
    if (rc != CUDA_SUCCESS) {
        mark_failed_call(k, rc, "cuModuleGetFunction");
        return;
    }
    memset(out, 0xee, ISA_THREADS * 32);
    if (cuMemcpyHtoD_v2(dout, out, ISA_THREADS * 32) != CUDA_SUCCESS) {
        mark_kernel(k, CASE_FAIL, "cuMemcpyHtoD failed");
        return;
    }
    void *args[] = {&din, &dout};
    rc = cuLaunchKernel(f, ISA_THREADS / ISA_BLOCK, 1, 1, ISA_BLOCK, 1, 1, 0, NULL, args, NULL);
    if (rc == CUDA_SUCCESS)
        rc = cuCtxSynchronize();
    if (rc != CUDA_SUCCESS) {
        mark_failed_call(k, rc, "the launch");
        return;
    }
    if (cuMemcpyDtoH_v2(out, dout, ISA_THREADS * 32) != CUDA_SUCCESS) {
        mark_kernel(k, CASE_FAIL, "cuMemcpyDtoH failed");
        return;
    }
    isa_compare(k, in, out, want, nthreads, verbose);
}

int main(void)
{
    int verbose = getenv("CB_ISA_VERBOSE") != NULL;
    const char *backend = getenv("CUBRIDGE_BACKEND");
    if (!backend || !*backend)
        backend = "cpu";
    golden g;
    if (golden_load(&g) != 0) {
        fprintf(stderr, "tests/data/ptx/isa/isa_golden.bin missing or not readable\n");
        return 1;
    }
    uint32_t *in = malloc(ISA_THREADS * 16), *out = malloc(ISA_THREADS * 32);
    for (uint32_t i = 0; i < ISA_THREADS; i++)
        for (uint32_t w = 0; w < 4; w++)
            in[i * 4 + w] = isa_word(i, w);
    isa_cases_init();

    CUdevice dev;
    CUcontext ctx;
    CUdeviceptr din, dout;
    DRV(cuInit(0));
    DRV(cuDeviceGet(&dev, 0));
    DRV(cuCtxCreate_v2(&ctx, 0, dev));
    char devname[256] = "";
    DRV(cuDeviceGetName(devname, sizeof devname, dev));
    DRV(cuMemAlloc_v2(&din, ISA_THREADS * 16));
    DRV(cuMemAlloc_v2(&dout, ISA_THREADS * 32));
    DRV(cuMemcpyHtoD_v2(din, in, ISA_THREADS * 16));

    for (int k = 0; k < NKERNELS;) {
        const char *file = kernels[k].file;
        int end = k;
        while (end < NKERNELS && strcmp(kernels[end].file, file) == 0)
            end++;
        char path[512];
        snprintf(path, sizeof path, "%s/ptx/isa/%s", isa_data_dir(), file);
        size_t len = 0;
        unsigned char *text = NULL;   /* NUL-terminated: PTX text for cuModuleLoadData */
        CUmodule m = NULL;
        CUresult rc = cb_fs_read_file(path, &text, &len) == 0 ? cuModuleLoadData(&m, text) : CUDA_ERROR_FILE_NOT_FOUND;
        free(text);
        for (; k < end; k++) {
            const uint32_t *want = golden_find(&g, kernels[k].file, kernels[k].kernel);
            if (rc != CUDA_SUCCESS)
                mark_failed_call(&kernels[k], rc, "cuModuleLoadData of the file");
            else
                run_kernel(&kernels[k], m, din, dout, in, out, want, g.threads, verbose);
        }
        if (m)
            cuModuleUnload(m);
    }

    int stale = load_known("known_failures.txt");
    char known[128];
    const char *over = getenv("CB_ISA_KNOWN");
    snprintf(known, sizeof known, "known_failures_%s.txt", backend);
    if (over && *over)
        snprintf(known, sizeof known, "%s", over);
    if (strcmp(backend, "cpu") != 0 || over)
        stale += load_known(known);
    char label[512];
    snprintf(label, sizeof label, "%s (%s)", backend, devname);
    int regress = report(label, g.threads);
    cuMemFree_v2(din);
    cuMemFree_v2(dout);
    cuCtxDestroy_v2(ctx);
    free(g.data);
    free(in);
    free(out);
    if (stale)
        fprintf(stderr, "test_driver_isa: the known-failures files name %d cases the corpus does not have\n", stale);
    if (regress)
        fprintf(stderr, "test_driver_isa: %d cases fail or are refused that no known-failures file lists\n", regress);
    if (regress || stale)
        return 1;
    printf("test_driver_isa: ok\n");
    return 0;
}
