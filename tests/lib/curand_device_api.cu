// curand_device_api: cuRAND's device API (curand_kernel.h) in user kernels,
// compiled into this program's PTX and run through cubridge's translator,
// against what the same kernels produced on an NVIDIA H200 (tests/data/curand/
// curand_kapi.*, recorded by tests/lib/curand/curand_record.cu; the table below
// holds an FNV-1a hash of each recorded output block).
//
//   nvcc curand_device_api.cu -o curand_device_api
//
// States XORWOW, MRG32k3a and Philox4x32-10; curand_init with three
// (seed, subsequence, offset) patterns, 64 threads; curand, curand_uniform,
// curand_uniform_double, curand_normal_double, curand_log_normal_double,
// skipahead, skipahead_sequence, and Philox's curand4, curand_uniform4,
// curand_uniform2_double. (Float normals use the GPU's __sincosf, whose
// special-function-unit results are not reproduced bit for bit; docs/curand.md.)
// Prints "PASS <state> cfg <c> <group>" per block and "PASS curand_device_api".
#include <curand_kernel.h>
#include <stdio.h>
#include <string.h>

#define KT 64
struct Cfg { unsigned long long seed, smul, sadd, omul, oadd; };
static const Cfg cfgs[5] = {
    { 1234ull, 1, 0, 0, 0 }, { 1234ull, 0, 0, 5, 0 }, { 0ull, 1000, 3, 0, 17 },
    { 0x0123456789ABCDEFull, 1, 1ull << 40, 0, 0 }, { 0xFFFFFFFFFFFFFFFFull, 7, 0, 1000003, 1ull << 33 },
};
enum G { RAW, UNIF, UNIFD, NORMD, LOGND, SKIP, SKIPSEQ, RAW4, UNIF4, UNIF2D };
static const char *gname[] = { "raw", "unif", "unifd", "normd", "lognd", "skip", "skipseq", "raw4", "unif4", "unif2d" };
static const int gper[] = { 16, 8, 4, 4, 4, 8, 8, 8, 8, 4 };
static const int gsize[] = { 4, 4, 8, 8, 8, 4, 4, 4, 4, 8 };

struct Want { const char *state; int cfg; const char *group; unsigned long long fnv; };
static const Want wants[] = {
    { "xorwow", 0, "raw", 0x120183ed64dd5647ull },
    { "xorwow", 0, "unif", 0x32541a8d7e095820ull },
    { "xorwow", 0, "unifd", 0x4eb053d72c0841daull },
    { "xorwow", 0, "normd", 0x07d63cf9467be0deull },
    { "xorwow", 0, "lognd", 0xde1f593d1ed36ec9ull },
    { "xorwow", 0, "skip", 0x6f0aca9104bbc940ull },
    { "xorwow", 0, "skipseq", 0x5924df2bf3b8d25eull },
    { "xorwow", 2, "raw", 0x27550b79d15fbf3full },
    { "xorwow", 2, "unif", 0x6606abbe340386e1ull },
    { "xorwow", 2, "unifd", 0x0bdbc50aa3ce83dfull },
    { "xorwow", 2, "normd", 0x9c9e89c01dd7f1caull },
    { "xorwow", 2, "lognd", 0x0f8ef55314c48cc6ull },
    { "xorwow", 2, "skip", 0x7ee4baa41c4f8d01ull },
    { "xorwow", 2, "skipseq", 0x0f2d3ede72529f95ull },
    { "xorwow", 4, "raw", 0xc93ca80aeaf62650ull },
    { "xorwow", 4, "unif", 0x862e74d8bd322df6ull },
    { "xorwow", 4, "unifd", 0xf612edd5a8f21a60ull },
    { "xorwow", 4, "normd", 0xe3390c97bdc88bd2ull },
    { "xorwow", 4, "lognd", 0xb1b24e55adeece1cull },
    { "xorwow", 4, "skip", 0xcf982fbc46017492ull },
    { "xorwow", 4, "skipseq", 0x4ce927b089a159beull },
    { "mrg", 0, "raw", 0x81a8fbb7c0d56077ull },
    { "mrg", 0, "unif", 0xc380e6a6e22641c5ull },
    { "mrg", 0, "unifd", 0xdae56cf8da25bb8dull },
    { "mrg", 0, "normd", 0x3bbb5823e60621d7ull },
    { "mrg", 0, "lognd", 0xb12ee486d8ec11e0ull },
    { "mrg", 0, "skip", 0x3befa78ba4efba17ull },
    { "mrg", 0, "skipseq", 0x2a1caa283845d77dull },
    { "mrg", 2, "raw", 0xb4ddc89febb3d546ull },
    { "mrg", 2, "unif", 0x33235bcd7db2fb43ull },
    { "mrg", 2, "unifd", 0xd741f835800b82b6ull },
    { "mrg", 2, "normd", 0xb42b462c2a1b2899ull },
    { "mrg", 2, "lognd", 0xa38e5713a84d97b7ull },
    { "mrg", 2, "skip", 0x6372764f5dbd199full },
    { "mrg", 2, "skipseq", 0xe8629774e2fa67c4ull },
    { "mrg", 4, "raw", 0x9763e2e5053ad527ull },
    { "mrg", 4, "unif", 0x83c2cfdd311d82adull },
    { "mrg", 4, "unifd", 0xb25078b3d941406aull },
    { "mrg", 4, "normd", 0x8806bc7a354ef324ull },
    { "mrg", 4, "lognd", 0x00ce189a24093b09ull },
    { "mrg", 4, "skip", 0xfc54d06f74508746ull },
    { "mrg", 4, "skipseq", 0xc6afcd1adb46c575ull },
    { "philox", 0, "raw", 0x5486a89e38f82086ull },
    { "philox", 0, "unif", 0x7594fd9e8fab850dull },
    { "philox", 0, "unifd", 0x92595b81cc28f4b9ull },
    { "philox", 0, "normd", 0x40bf1ae08232eb0bull },
    { "philox", 0, "lognd", 0x0542cb739becbdd2ull },
    { "philox", 0, "skip", 0x17a06ac34c24ef7aull },
    { "philox", 0, "skipseq", 0xa198b6318a64fd52ull },
    { "philox", 0, "raw4", 0x1e55b87abf26bff0ull },
    { "philox", 0, "unif4", 0x7594fd9e8fab850dull },
    { "philox", 0, "unif2d", 0xa6c3ccbe04b9de3eull },
    { "philox", 2, "raw", 0xbc7b6665fb64e4c6ull },
    { "philox", 2, "unif", 0xbbcd0118b3a41b4eull },
    { "philox", 2, "unifd", 0xe7661ab2700a0768ull },
    { "philox", 2, "normd", 0x53fe36460bb2af12ull },
    { "philox", 2, "lognd", 0x8a5ae4d831361928ull },
    { "philox", 2, "skip", 0x88327d4ad344bed5ull },
    { "philox", 2, "skipseq", 0xac9daf01b4bcbbd3ull },
    { "philox", 2, "raw4", 0x2cbe7eb8f394d63full },
    { "philox", 2, "unif4", 0xbbcd0118b3a41b4eull },
    { "philox", 2, "unif2d", 0xd2825157d0eb930bull },
    { "philox", 4, "raw", 0xec8befdc5b272095ull },
    { "philox", 4, "unif", 0xb227336c5abd613aull },
    { "philox", 4, "unifd", 0xb84c380fdc6574ecull },
    { "philox", 4, "normd", 0x0a7f1ce2bc6c5394ull },
    { "philox", 4, "lognd", 0xbacff3fe3152d3c7ull },
    { "philox", 4, "skip", 0x84fbd68aa85214cbull },
    { "philox", 4, "skipseq", 0xa7ed6692acb5dbc4ull },
    { "philox", 4, "raw4", 0x3d96b0855fa079c1ull },
    { "philox", 4, "unif4", 0xb227336c5abd613aull },
    { "philox", 4, "unif2d", 0xeab3bb5a303aafb9ull },
};

template <class S>
__device__ void run_group(S *s, int g, unsigned char *o)
{
    unsigned *u = (unsigned *)o;
    float *f = (float *)o;
    double *d = (double *)o;
    switch (g) {
    case RAW: for (int i = 0; i < 16; i++) u[i] = curand(s); break;
    case UNIF: for (int i = 0; i < 8; i++) f[i] = curand_uniform(s); break;
    case UNIFD: for (int i = 0; i < 4; i++) d[i] = curand_uniform_double(s); break;
    case NORMD: for (int i = 0; i < 4; i++) d[i] = curand_normal_double(s); break;
    case LOGND: for (int i = 0; i < 4; i++) d[i] = curand_log_normal_double(s, 0.5, 0.25); break;
    case SKIP:
        for (int i = 0; i < 4; i++) u[i] = curand(s);
        skipahead(1000ull, s);
        for (int i = 4; i < 8; i++) u[i] = curand(s);
        break;
    case SKIPSEQ:
        for (int i = 0; i < 4; i++) u[i] = curand(s);
        skipahead_sequence(3ull, s);
        for (int i = 4; i < 8; i++) u[i] = curand(s);
        break;
    }
}

__device__ void run_philox4(curandStatePhilox4_32_10_t *s, int g, unsigned char *o)
{
    unsigned *u = (unsigned *)o;
    float *f = (float *)o;
    double *d = (double *)o;
    if (g == RAW4) for (int i = 0; i < 2; i++) { uint4 v = curand4(s); u[4*i] = v.x; u[4*i+1] = v.y; u[4*i+2] = v.z; u[4*i+3] = v.w; }
    if (g == UNIF4) for (int i = 0; i < 2; i++) { float4 v = curand_uniform4(s); f[4*i] = v.x; f[4*i+1] = v.y; f[4*i+2] = v.z; f[4*i+3] = v.w; }
    if (g == UNIF2D) for (int i = 0; i < 2; i++) { double2 v = curand_uniform2_double(s); d[2*i] = v.x; d[2*i+1] = v.y; }
}

template <class S>
__global__ void k_state(Cfg c, int g, unsigned char *out, int stride)
{
    unsigned t = threadIdx.x;
    S s;
    curand_init(c.seed, c.smul * t + c.sadd, c.omul * t + c.oadd, &s);
    run_group(&s, g, out + (size_t)t * stride);
}

__global__ void k_philox4(Cfg c, int g, unsigned char *out, int stride)
{
    unsigned t = threadIdx.x;
    curandStatePhilox4_32_10_t s;
    curand_init(c.seed, c.smul * t + c.sadd, c.omul * t + c.oadd, &s);
    run_philox4(&s, g, out + (size_t)t * stride);
}

static unsigned long long fnv(const unsigned char *p, size_t n)
{
    unsigned long long h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) { h ^= p[i]; h *= 1099511628211ull; }
    return h;
}

int main()
{
    const int stride = 128;
    unsigned char *d, h[KT * stride], packed[KT * stride];
    if (cudaMalloc(&d, KT * stride) != cudaSuccess) { printf("FAIL cudaMalloc\n"); return 1; }
    int checked = 0;
    for (const Want &w : wants) {
        int g = -1;
        for (int i = 0; i < 10; i++) if (!strcmp(gname[i], w.group)) g = i;
        cudaMemset(d, 0, KT * stride);
        if (!strcmp(w.state, "xorwow")) k_state<curandStateXORWOW_t><<<1, KT>>>(cfgs[w.cfg], g, d, stride);
        else if (!strcmp(w.state, "mrg")) k_state<curandStateMRG32k3a_t><<<1, KT>>>(cfgs[w.cfg], g, d, stride);
        else if (g >= RAW4) k_philox4<<<1, KT>>>(cfgs[w.cfg], g, d, stride);
        else k_state<curandStatePhilox4_32_10_t><<<1, KT>>>(cfgs[w.cfg], g, d, stride);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) { printf("FAIL %s cfg %d %s: %s\n", w.state, w.cfg, w.group, cudaGetErrorString(e)); return 1; }
        cudaMemcpy(h, d, KT * stride, cudaMemcpyDeviceToHost);
        size_t block = (size_t)gper[g] * gsize[g];
        for (int t = 0; t < KT; t++) memcpy(packed + t * block, h + t * stride, block);
        unsigned long long got = fnv(packed, KT * block);
        if (got != w.fnv) {
            printf("FAIL %s cfg %d %s: output differs from the H200's (hash %016llx, want %016llx)\n", w.state, w.cfg,
                   w.group, got, w.fnv);
            return 1;
        }
        printf("PASS %s cfg %d %s\n", w.state, w.cfg, w.group);
        checked++;
    }
    cudaFree(d);
    printf("PASS curand_device_api\n");
    fprintf(stderr, "%d blocks bit-exact\n", checked);
    return 0;
}
