// __noinline__ device functions, recursion, printf, assert.
#include <cstdio>
#include <cassert>
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ float scale(float x, float s, int k) { return x * s + k; }
__device__ __noinline__ void sum3(const int *p, long long *out) { *out = (long long)p[0] + p[1] + p[2]; }
extern "C" __global__ void calls(const int *in, int *out, float *fo, long long *lo)
{
    int i = threadIdx.x;
    out[i] = fib(in[i]);
    fo[i] = scale((float)in[i], 0.5f, i);
    if (i == 0) sum3(in, lo);
}
extern "C" __global__ void hello(int n, double d)
{
    printf("hello from %d of %d: %f %s %c %lld\n", (int)threadIdx.x, n, d, "str", 'x', (long long)n * 1000000000LL);
}
extern "C" __global__ void check(const int *in)
{
    assert(in[threadIdx.x] >= 0);
}
extern "C" __global__ void trapper(int x)
{
    if (x == 42) __trap();
}
