/* half_atomics.cu: atomicAdd on __half, __half2 and __nv_bfloat16, and
 * atomicCAS on unsigned short, from many threads at once, in global and
 * shared memory and through generic pointers.
 *
 * Each 16-bit value shares its 32-bit word with a neighbour that other
 * threads update at the same time, so an emulation that writes the whole
 * word without a compare-and-swap on it loses updates. The sums are of
 * small integers and halves, exact in every format at these sizes (f16
 * holds integers up to 2048 exactly, bf16 up to 256), so any order of the
 * adds gives the same bits; the old values returned by the CAS ticket
 * counter must be a permutation of 0 .. n-1.
 *
 * Build: nvcc -arch=sm_90 half_atomics.cu -o half_atomics
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "check.h"

enum { BINS = 16, THREADS = 256, BLOCKS = 8 };

/* Global bins: thread t adds 1 (f16) and 0.5 (bf16) to bin t % BINS; pairs add (1, 2). */
__global__ void global_adds(__half *h, __nv_bfloat16 *b, __half2 *h2)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&h[t % BINS], __float2half(1.0f));
    atomicAdd(&b[t % BINS], __float2bfloat16(0.5f));
    atomicAdd(&h2[t % (BINS / 2)], __floats2half2_rn(1.0f, 2.0f));
}

/* The same in shared memory, through a generic pointer for half of the threads. */
__global__ void shared_adds(__half *out_h, __half2 *out_h2)
{
    __shared__ __half sh[BINS];
    __shared__ __half2 sh2[BINS / 2];
    if (threadIdx.x < BINS)
        sh[threadIdx.x] = __float2half(0.0f);
    if (threadIdx.x < BINS / 2)
        sh2[threadIdx.x] = __floats2half2_rn(0.0f, 0.0f);
    __syncthreads();
    __half *p = (threadIdx.x & 1) ? &sh[threadIdx.x % BINS] : sh + threadIdx.x % BINS;
    volatile int pick = threadIdx.x & 2;   /* keep the compiler from proving the space */
    __half2 *q = pick ? &sh2[threadIdx.x % (BINS / 2)] : sh2 + threadIdx.x % (BINS / 2);
    atomicAdd(p, __float2half(1.0f));
    atomicAdd(q, __floats2half2_rn(0.5f, 1.0f));
    __syncthreads();
    if (threadIdx.x < BINS)
        atomicAdd(&out_h[threadIdx.x], sh[threadIdx.x]);
    if (threadIdx.x < BINS / 2)
        atomicAdd(&out_h2[threadIdx.x], sh2[threadIdx.x]);
}

/* A 16-bit ticket counter by CAS: each thread takes the next number; its neighbour word half counts down. */
__global__ void cas_tickets(unsigned short *ctr, unsigned short *down, int *tickets)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned short old = *(volatile unsigned short *)ctr, seen;
    while ((seen = atomicCAS(ctr, old, (unsigned short)(old + 1))) != old)
        old = seen;
    tickets[t] = old;
    unsigned short d = *(volatile unsigned short *)down;
    while ((seen = atomicCAS(down, d, (unsigned short)(d - 1))) != d)
        d = seen;
}

int main(void)
{
    const int n = THREADS * BLOCKS;
    __half *h, *oh;
    __nv_bfloat16 *b;
    __half2 *h2, *oh2;
    unsigned short *words;
    int *tickets;
    CHECK(cudaMalloc(&h, BINS * sizeof *h));
    CHECK(cudaMalloc(&b, BINS * sizeof *b));
    CHECK(cudaMalloc(&h2, BINS / 2 * sizeof *h2));
    CHECK(cudaMalloc(&oh, BINS * sizeof *oh));
    CHECK(cudaMalloc(&oh2, BINS / 2 * sizeof *oh2));
    CHECK(cudaMalloc(&words, 2 * sizeof *words));
    CHECK(cudaMalloc(&tickets, n * sizeof *tickets));
    CHECK(cudaMemset(h, 0, BINS * sizeof *h));
    CHECK(cudaMemset(b, 0, BINS * sizeof *b));
    CHECK(cudaMemset(h2, 0, BINS / 2 * sizeof *h2));
    CHECK(cudaMemset(oh, 0, BINS * sizeof *oh));
    CHECK(cudaMemset(oh2, 0, BINS / 2 * sizeof *oh2));
    unsigned short init[2] = {0, (unsigned short)n};
    CHECK(cudaMemcpy(words, init, sizeof init, cudaMemcpyHostToDevice));
    global_adds<<<BLOCKS, THREADS>>>(h, b, h2);
    CHECK(cudaGetLastError());
    shared_adds<<<BLOCKS, THREADS>>>(oh, oh2);
    CHECK(cudaGetLastError());
    cas_tickets<<<BLOCKS, THREADS>>>(&words[0], &words[1], tickets);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    __half hh[BINS], ohh[BINS];
    __nv_bfloat16 bb[BINS];
    __half2 hh2[BINS / 2], ohh2[BINS / 2];
    unsigned short w[2];
    int *tk = (int *)malloc(n * sizeof *tk);
    CHECK(cudaMemcpy(hh, h, sizeof hh, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(bb, b, sizeof bb, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hh2, h2, sizeof hh2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ohh, oh, sizeof ohh, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ohh2, oh2, sizeof ohh2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(w, words, sizeof w, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(tk, tickets, n * sizeof *tk, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < BINS; i++) {
        float gh = __half2float(hh[i]), gb = __bfloat162float(bb[i]), sh = __half2float(ohh[i]);
        if (gh != n / BINS || gb != 0.5f * (n / BINS) || sh != BLOCKS * (THREADS / BINS)) {
            printf("FAIL bin %d: f16 %g (want %d), bf16 %g (want %g), shared f16 %g (want %d)\n", i, gh, n / BINS, gb,
                   0.5 * (n / BINS), sh, BLOCKS * (THREADS / BINS));
            bad++;
        }
    }
    for (int i = 0; i < BINS / 2; i++) {
        float2 g = __half22float2(hh2[i]), s = __half22float2(ohh2[i]);
        int k = n / (BINS / 2), ks = BLOCKS * (THREADS / (BINS / 2));
        if (g.x != k || g.y != 2 * k || s.x != 0.5f * ks || s.y != ks) {
            printf("FAIL pair %d: global (%g, %g) want (%d, %d); shared (%g, %g) want (%g, %d)\n", i, g.x, g.y, k,
                   2 * k, s.x, s.y, 0.5 * ks, ks);
            bad++;
        }
    }
    char *seen = (char *)calloc(n, 1);
    for (int i = 0; i < n; i++) {
        if (tk[i] < 0 || tk[i] >= n || seen[tk[i]]++) {
            printf("FAIL ticket of thread %d: %d (out of range or taken twice)\n", i, tk[i]);
            bad++;
            break;
        }
    }
    if (w[0] != n || w[1] != 0) {
        printf("FAIL counters: %u up (want %d), %u down (want 0)\n", w[0], n, w[1]);
        bad++;
    }
    printf("f16 bin 0 = %g, bf16 bin 0 = %g, pair 0 = (%g, %g), shared bin 0 = %g, tickets %u\n",
           __half2float(hh[0]), __bfloat162float(bb[0]), __low2float(hh2[0]), __high2float(hh2[0]),
           __half2float(ohh[0]), w[0]);
    if (bad)
        return 1;
    printf("PASS half_atomics\n");
    return 0;
}
