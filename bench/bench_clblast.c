/* bench_clblast.c: CLBlast's SGEMM called directly on an OpenCL device (the
 * first device of the first platform, or CLBLAST_DEVICE="P:D"): the
 * baseline of the cuBLAS facade on cubridge's OpenCL backend
 * (bench/run_blas_opencl.sh). n x n (default 2048), column-major,
 * alpha 1, beta 0, A and B as bench_blas.cu fills them. Prints
 * "RESULT sgemm_clblast <seconds>", the best of ROUNDS (default 3) after
 * one warm-up call (which builds CLBlast's kernels).
 *
 *   cc -O2 bench/bench_clblast.c -o bench_clblast -lclblast -lOpenCL
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <clblast_c.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)atoi(argv[1]) : 2048;
    int rounds = getenv("ROUNDS") ? atoi(getenv("ROUNDS")) : 3;
    unsigned pi = 0, di = 0;
    if (getenv("CLBLAST_DEVICE"))
        sscanf(getenv("CLBLAST_DEVICE"), "%u:%u", &pi, &di);
    cl_platform_id ps[8];
    cl_device_id ds[8];
    cl_uint np = 0, nd = 0;
    if (clGetPlatformIDs(8, ps, &np) != CL_SUCCESS || pi >= np ||
        clGetDeviceIDs(ps[pi], CL_DEVICE_TYPE_ALL, 8, ds, &nd) != CL_SUCCESS || di >= nd) {
        fprintf(stderr, "bench_clblast: no OpenCL device %u:%u\n", pi, di);
        return 1;
    }
    char name[256] = "";
    clGetDeviceInfo(ds[di], CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    fprintf(stderr, "bench_clblast: %s\n", name);
    cl_int e;
    cl_context ctx = clCreateContext(NULL, 1, &ds[di], NULL, NULL, &e);
    cl_command_queue q = clCreateCommandQueue(ctx, ds[di], 0, &e);
    size_t bytes = n * n * sizeof(float);
    float *h = malloc(bytes);
    for (size_t i = 0; i < n * n; i++)
        h[i] = (float)((int)(i * 7919 % 2001) - 1000) / 1000;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, h, &e);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, h, &e);
    cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &e);
    double best = 1e30;
    for (int r = 0; r < rounds + 1; r++) {
        double t0 = now();
        cl_event ev = NULL;
        CLBlastStatusCode st = CLBlastSgemm(CLBlastLayoutColMajor, CLBlastTransposeNo, CLBlastTransposeNo, n, n, n, 1.0f,
                                            a, 0, n, b, 0, n, 0.0f, c, 0, n, &q, &ev);
        if (st != CLBlastSuccess) {
            fprintf(stderr, "bench_clblast: CLBlastSgemm: %d\n", (int)st);
            return 1;
        }
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
        double t = now() - t0;
        if (r > 0 && t < best)
            best = t;
    }
    printf("RESULT sgemm_clblast %.6f\n", best);
    free(h);
    return 0;
}
