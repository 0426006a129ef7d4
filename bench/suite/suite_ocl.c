/* suite_ocl.c: the benchmark suite's OpenCL form, run on the first OpenCL
 * CPU device (PoCL on Debian: pocl-opencl-icd; bench/suite.sh builds it).
 *   suite_ocl KERNEL [UNITS [suite.cl]]   as suite.cu: one checked warm-up
 *       unit (it includes building the program), then UNITS timed units;
 *       prints "RESULT KERNEL <ms per unit>"
 * Buffers are made once and the copies are outside the timed units; a unit
 * is its launches plus clFinish. */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120
#include "suite.h"

#include <CL/cl.h>

static cl_context ctx;
static cl_command_queue q;
static cl_program prog;

static void die(const char *what, cl_int e)
{
    fprintf(stderr, "suite_ocl: %s failed (%d)\n", what, (int)e);
    exit(1);
}
#define CL(call)                         \
    do {                                 \
        cl_int e_ = (call);              \
        if (e_ != CL_SUCCESS)            \
            die(#call, e_);              \
    } while (0)

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "suite_ocl: cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (!s || fread(s, 1, (size_t)n, f) != (size_t)n)
        exit(1);
    s[n] = 0;
    fclose(f);
    return s;
}

static void init(const char *clfile)
{
    cl_platform_id plats[8];
    cl_uint np = 0;
    CL(clGetPlatformIDs(8, plats, &np));
    cl_device_id dev = NULL;
    for (cl_uint i = 0; i < np && !dev; i++)
        if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_CPU, 1, &dev, NULL) != CL_SUCCESS)
            dev = NULL;
    if (!dev) {
        fprintf(stderr, "suite_ocl: no OpenCL CPU device (install pocl-opencl-icd)\n");
        exit(1);
    }
    char name[256] = "";
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    fprintf(stderr, "suite_ocl: device %s\n", name);
    cl_int e;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    if (e != CL_SUCCESS)
        die("clCreateContext", e);
    q = clCreateCommandQueue(ctx, dev, 0, &e);
    if (e != CL_SUCCESS)
        die("clCreateCommandQueue", e);
    const char *src = read_file(clfile);
    prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    if (e != CL_SUCCESS)
        die("clCreateProgramWithSource", e);
    char opts[512];
    snprintf(opts, sizeof opts,
             "-DTILE=%d -DC0=%.9gf -DC1=%.9gf -DTR_TILE=%d -DTR_ROWS=%d -DNB_TILE=%d -DEPS2=%.9gf",
             SUITE_GEMM_TILE, SUITE_STENCIL_C0, SUITE_STENCIL_C1, SUITE_TR_TILE, SUITE_TR_ROWS, SUITE_NBODY_TILE,
             SUITE_NBODY_EPS2);
    if ((e = clBuildProgram(prog, 1, &dev, opts, NULL, NULL)) != CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "%s\n", log);
        die("clBuildProgram", e);
    }
}

static cl_mem buffer(const void *host, size_t bytes)
{
    cl_int e;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &e);
    if (e != CL_SUCCESS)
        die("clCreateBuffer", e);
    if (host)
        CL(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
    return m;
}

static void read_back(cl_mem m, void *host, size_t bytes)
{
    CL(clEnqueueReadBuffer(q, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
}

static void launch(cl_kernel k, int dims, size_t gx, size_t gy, size_t lx, size_t ly)
{
    size_t g[2] = {gx, gy}, l[2] = {lx, ly};
    CL(clEnqueueNDRangeKernel(q, k, (cl_uint)dims, NULL, g, l, 0, NULL, NULL));
}

typedef struct state {
    cl_kernel k;
    cl_mem a, b, c, w, hist;
    float *ha, *hb, *hc;
    uint32_t *hw, hh[256];
    int launches;
} state;

static cl_kernel kernel_of(const char *name)
{
    cl_int e;
    cl_kernel k = clCreateKernel(prog, name, &e);
    if (e != CL_SUCCESS)
        die("clCreateKernel", e);
    return k;
}

static float *floats(size_t n, uint32_t seed)
{
    float *p = malloc(n * sizeof *p);
    if (!p)
        exit(1);
    suite_fill(p, n, seed);
    return p;
}

static void arg(cl_kernel k, int i, size_t size, const void *v) { CL(clSetKernelArg(k, (cl_uint)i, size, v)); }

static void setup(const char *name, state *s)
{
    memset(s, 0, sizeof *s);
    s->k = kernel_of(name);
    if (!strcmp(name, "vectoradd") || !strcmp(name, "saxpy")) {
        size_t n = SUITE_VEC_N;
        s->ha = floats(n, 1);
        s->hb = floats(n, 2);
        s->hc = malloc(n * 4);
        s->a = buffer(s->ha, n * 4);
        s->b = buffer(s->hb, n * 4);
        s->c = buffer(s->hb, n * 4);
    } else if (!strcmp(name, "sgemm")) {
        size_t n = (size_t)SUITE_GEMM_N * SUITE_GEMM_N;
        s->ha = floats(n, 3);
        s->hb = floats(n, 4);
        s->hc = malloc(n * 4);
        s->a = buffer(s->ha, n * 4);
        s->b = buffer(s->hb, n * 4);
        s->c = buffer(s->hb, n * 4);
    } else if (!strcmp(name, "reduction")) {
        s->ha = floats(SUITE_RED_N, 5);
        s->a = buffer(s->ha, (size_t)SUITE_RED_N * 4);
        float zero[4096] = {0};
        s->c = buffer(zero, sizeof zero);
    } else if (!strcmp(name, "stencil") || !strcmp(name, "transpose")) {
        size_t n = (size_t)SUITE_STENCIL_N * SUITE_STENCIL_N;
        s->ha = floats(n, 6);
        s->hc = malloc(n * 4);
        s->a = buffer(s->ha, n * 4);
        s->b = buffer(s->ha, n * 4);
    } else if (!strcmp(name, "histogram")) {
        s->hw = malloc((size_t)SUITE_HIST_WORDS * 4);
        for (size_t i = 0; i < SUITE_HIST_WORDS; i++)
            s->hw[i] = suite_hash((uint32_t)i * 3u + 1u) & 0x3f7f1fffu;
        s->w = buffer(s->hw, (size_t)SUITE_HIST_WORDS * 4);
        s->hist = buffer(s->hh, sizeof s->hh);
    } else if (!strcmp(name, "nbody")) {
        s->ha = malloc((size_t)SUITE_NBODY_N * 16);
        s->hc = malloc((size_t)SUITE_NBODY_N * 16);
        suite_nbody_init(s->ha, SUITE_NBODY_N);
        s->a = buffer(s->ha, (size_t)SUITE_NBODY_N * 16);
        s->c = buffer(NULL, (size_t)SUITE_NBODY_N * 16);
    } else {
        fprintf(stderr, "suite_ocl: unknown kernel %s\n", name);
        exit(2);
    }
}

static void unit(const char *name, state *s)
{
    cl_kernel k = s->k;
    if (!strcmp(name, "vectoradd")) {
        int n = SUITE_VEC_N;
        arg(k, 0, sizeof s->a, &s->a), arg(k, 1, sizeof s->b, &s->b), arg(k, 2, sizeof s->c, &s->c), arg(k, 3, 4, &n);
        for (int r = 0; r < SUITE_VEC_LAUNCHES; r++)
            launch(k, 1, (size_t)n, 1, 256, 1);
    } else if (!strcmp(name, "saxpy")) {
        int n = SUITE_VEC_N;
        float a = SUITE_SAXPY_A;
        arg(k, 0, 4, &a), arg(k, 1, sizeof s->a, &s->a), arg(k, 2, sizeof s->c, &s->c), arg(k, 3, 4, &n);
        for (int r = 0; r < SUITE_VEC_LAUNCHES; r++)
            launch(k, 1, SUITE_SAXPY_BLOCKS * 256, 1, 256, 1);
    } else if (!strcmp(name, "sgemm")) {
        int n = SUITE_GEMM_N;
        arg(k, 0, sizeof s->a, &s->a), arg(k, 1, sizeof s->b, &s->b), arg(k, 2, sizeof s->c, &s->c), arg(k, 3, 4, &n);
        launch(k, 2, (size_t)n, (size_t)n, SUITE_GEMM_TILE, SUITE_GEMM_TILE);
    } else if (!strcmp(name, "reduction")) {
        int n = SUITE_RED_N;
        arg(k, 0, sizeof s->a, &s->a), arg(k, 2, 4, &n);
        arg(k, 1, sizeof s->c, &s->c);
        for (int r = 0; r < SUITE_RED_LAUNCHES; r++) {
            int slot = s->launches++ % 4096;
            arg(k, 3, 4, &slot);
            launch(k, 1, SUITE_RED_BLOCKS * 256, 1, 256, 1);
        }
    } else if (!strcmp(name, "stencil")) {
        int n = SUITE_STENCIL_N;
        for (int r = 0; r < SUITE_STENCIL_SWEEPS; r++) {
            arg(k, 0, sizeof s->a, &s->a), arg(k, 1, sizeof s->b, &s->b), arg(k, 2, 4, &n);
            launch(k, 2, (size_t)n, (size_t)n, 32, 8);
            cl_mem t = s->a;
            s->a = s->b;
            s->b = t;
        }
    } else if (!strcmp(name, "histogram")) {
        int n = SUITE_HIST_WORDS;
        arg(k, 0, sizeof s->w, &s->w), arg(k, 1, sizeof s->hist, &s->hist), arg(k, 2, 4, &n);
        for (int r = 0; r < SUITE_HIST_PASSES; r++)
            launch(k, 1, SUITE_HIST_BLOCKS * 256, 1, 256, 1);
    } else if (!strcmp(name, "transpose")) {
        int n = SUITE_TR_N;
        arg(k, 0, sizeof s->a, &s->a), arg(k, 1, sizeof s->b, &s->b), arg(k, 2, 4, &n);
        for (int r = 0; r < SUITE_TR_REPS; r++)
            launch(k, 2, (size_t)n, (size_t)n / (SUITE_TR_TILE / SUITE_TR_ROWS), SUITE_TR_TILE, SUITE_TR_ROWS);
    } else if (!strcmp(name, "nbody")) {
        int n = SUITE_NBODY_N;
        arg(k, 0, sizeof s->a, &s->a), arg(k, 1, sizeof s->c, &s->c), arg(k, 2, 4, &n);
        launch(k, 1, (size_t)n, 1, SUITE_NBODY_TILE, 1);
    }
    CL(clFinish(q));
}

static int check(const char *name, state *s)
{
    if (!strcmp(name, "vectoradd")) {
        read_back(s->c, s->hc, (size_t)SUITE_VEC_N * 4);
        return suite_check_vectoradd(s->ha, s->hb, s->hc, SUITE_VEC_N);
    }
    if (!strcmp(name, "saxpy")) {
        read_back(s->c, s->hc, (size_t)SUITE_VEC_N * 4);
        return suite_check_saxpy(s->ha, s->hb, s->hc, SUITE_VEC_N, SUITE_VEC_LAUNCHES);
    }
    if (!strcmp(name, "sgemm")) {
        read_back(s->c, s->hc, (size_t)SUITE_GEMM_N * SUITE_GEMM_N * 4);
        return suite_check_sgemm(s->ha, s->hb, s->hc, SUITE_GEMM_N);
    }
    if (!strcmp(name, "reduction")) {
        float r[SUITE_RED_LAUNCHES];
        read_back(s->c, r, sizeof r);
        for (int i = 0; i < SUITE_RED_LAUNCHES; i++)
            if (suite_check_reduction(s->ha, SUITE_RED_N, r[i]))
                return 1;
        return 0;
    }
    if (!strcmp(name, "stencil")) {
        read_back(s->a, s->hc, (size_t)SUITE_STENCIL_N * SUITE_STENCIL_N * 4);
        return suite_check_stencil(s->ha, s->hc, SUITE_STENCIL_N, SUITE_STENCIL_SWEEPS);
    }
    if (!strcmp(name, "histogram")) {
        read_back(s->hist, s->hh, sizeof s->hh);
        return suite_check_histogram(s->hw, SUITE_HIST_WORDS, s->hh, SUITE_HIST_PASSES);
    }
    if (!strcmp(name, "transpose")) {
        read_back(s->b, s->hc, (size_t)SUITE_TR_N * SUITE_TR_N * 4);
        return suite_check_transpose(s->ha, s->hc, SUITE_TR_N);
    }
    read_back(s->c, s->hc, (size_t)SUITE_NBODY_N * 16);
    return suite_check_nbody(s->ha, s->hc, SUITE_NBODY_N);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: suite_ocl KERNEL [UNITS [suite.cl]]\n");
        return 2;
    }
    const char *name = argv[1];
    int units = argc > 2 ? atoi(argv[2]) : 3;
    if (units < 1 || units > 64)
        units = 3;
#ifndef SUITE_CL_FILE
#define SUITE_CL_FILE "suite.cl"
#endif
    init(argc > 3 ? argv[3] : SUITE_CL_FILE);
    state s;
    setup(name, &s);
    unit(name, &s);
    if (check(name, &s))
        return 1;
    double ms[64];
    for (int u = 0; u < units; u++) {
        double t0 = suite_now();
        unit(name, &s);
        ms[u] = suite_now() - t0;
    }
    suite_report(name, ms, units);
    return 0;
}
