// bench_fft: cufftExecC2C of 2^20 complex floats, forward, in place, through
// the library the program is linked with (-lcufft): under `cubridge run`,
// cubridge's facade. Prints "RESULT fft_2p20_c2c MS" (best of ROUNDS runs
// after one warm-up; each run synchronised) and "RESULT fft_2p20_z2z MS".
#include <cuda_runtime.h>
#include <cufft.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms() {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

template <class T>
static double run(cufftType type, int rounds) {
    const int n = 1 << 20;
    T *d;
    cudaMalloc(&d, sizeof(T) * n);
    cudaMemset(d, 0, sizeof(T) * n);
    cufftHandle p;
    if (cufftPlan1d(&p, n, type, 1) != CUFFT_SUCCESS) { printf("plan failed\n"); exit(1); }
    double best = 1e30;
    for (int r = 0; r <= rounds; r++) {
        double t0 = now_ms();
        cufftResult st = type == CUFFT_C2C ? cufftExecC2C(p, (cufftComplex *)d, (cufftComplex *)d, CUFFT_FORWARD)
                                           : cufftExecZ2Z(p, (cufftDoubleComplex *)d, (cufftDoubleComplex *)d, CUFFT_FORWARD);
        cudaDeviceSynchronize();
        double t = now_ms() - t0;
        if (st != CUFFT_SUCCESS) { printf("exec failed %d\n", (int)st); exit(1); }
        if (r && t < best) best = t;
    }
    cufftDestroy(p);
    cudaFree(d);
    return best;
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 10;
    printf("RESULT fft_2p20_c2c %.3f\n", run<cufftComplex>(CUFFT_C2C, rounds));
    printf("RESULT fft_2p20_z2z %.3f\n", run<cufftDoubleComplex>(CUFFT_Z2Z, rounds));
    return 0;
}
