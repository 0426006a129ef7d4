// curand_host_api: cuRAND's host API as users call it (docs/curand.md).
//
//   nvcc curand_host_api.cu -o curand_host_api -lcurand
//
// Checks, for XORWOW, MRG32k3a and Philox4x32-10:
//   - the first outputs of seed 1234 against values recorded on an H200;
//   - device generators (curandCreateGenerator) against host generators
//     (curandCreateGeneratorHost), which NVIDIA's library makes equal for raw
//     bits and uniforms (measured), over sizes that are not multiples of the
//     generators' engine counts, offsets, seeds, orderings, chains of calls and
//     a user stream;
//   - the statuses of bad calls, as NVIDIA's library answers them (measured).
// Prints "PASS <what>" lines and "PASS curand_host_api"; exits 1 on a failure.
#include <cuda_runtime.h>
#include <curand.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)
#define CR(x) do { curandStatus_t r_ = (x); if (r_ != CURAND_STATUS_SUCCESS) { \
    printf("FAIL %s:%d: %s returned %d\n", __FILE__, __LINE__, #x, (int)r_); exit(1); } } while (0)
#define EXPECT(x, want) do { curandStatus_t r_ = (x); if (r_ != (want)) { \
    printf("FAIL %s:%d: %s returned %d, expected %d\n", __FILE__, __LINE__, #x, (int)r_, (int)(want)); exit(1); } \
    printf("PASS status %s: %s\n", #x, #want); } while (0)

struct Setup {
    curandRngType_t rng;
    unsigned long long seed;
    int set_offset;
    unsigned long long offset;
    int order;   // -1: default
};

static void configure(curandGenerator_t g, const Setup &s) {
    CR(curandSetPseudoRandomGeneratorSeed(g, s.seed));
    if (s.set_offset) CR(curandSetGeneratorOffset(g, s.offset));
    if (s.order >= 0) CR(curandSetGeneratorOrdering(g, (curandOrdering_t)s.order));
}

enum Kind { RAW, UNIF, UNIFD };

// One chain of calls on a device generator and on a host generator; outputs must be equal.
static void device_vs_host(const char *what, const Setup &s, const std::vector<size_t> &sizes,
                           const std::vector<Kind> &kinds, cudaStream_t stream) {
    curandGenerator_t dg, hg;
    CR(curandCreateGenerator(&dg, s.rng));
    CR(curandCreateGeneratorHost(&hg, s.rng));
    configure(dg, s);
    configure(hg, s);
    if (stream) CR(curandSetStream(dg, stream));
    for (size_t k = 0; k < sizes.size(); k++) {
        size_t n = sizes[k], es = kinds[k] == UNIFD ? 8 : 4;
        void *d;
        CK(cudaMalloc(&d, n * es));
        std::vector<unsigned char> hd(n * es), hh(n * es);
        switch (kinds[k]) {
        case RAW:
            CR(curandGenerate(dg, (unsigned *)d, n));
            CR(curandGenerate(hg, (unsigned *)hh.data(), n));
            break;
        case UNIF:
            CR(curandGenerateUniform(dg, (float *)d, n));
            CR(curandGenerateUniform(hg, (float *)hh.data(), n));
            break;
        case UNIFD:
            CR(curandGenerateUniformDouble(dg, (double *)d, n));
            CR(curandGenerateUniformDouble(hg, (double *)hh.data(), n));
            break;
        }
        if (stream) CK(cudaStreamSynchronize(stream));
        CK(cudaMemcpy(hd.data(), d, n * es, cudaMemcpyDeviceToHost));
        CK(cudaFree(d));
        if (memcmp(hd.data(), hh.data(), n * es) != 0) {
            size_t i = 0;
            while (i < n && !memcmp(&hd[i * es], &hh[i * es], es)) i++;
            printf("FAIL %s: call %zu (n=%zu): device and host generators differ at %zu\n", what, k, n, i);
            exit(1);
        }
    }
    CR(curandDestroyGenerator(dg));
    CR(curandDestroyGenerator(hg));
    printf("PASS %s\n", what);
}

int main() {
    int v = 0, major = -1;
    CR(curandGetVersion(&v));
    CR(curandGetProperty(MAJOR_VERSION, &major));
    if (v < 10000 || major != 10) { printf("FAIL curandGetVersion %d major %d\n", v, major); return 1; }
    fprintf(stderr, "curand version %d\n", v);
    printf("PASS curandGetVersion/curandGetProperty\n");

    // first outputs of seed 1234, default ordering, as an H200 produced them
    struct { curandRngType_t rng; unsigned first[4]; } known[] = {
        { CURAND_RNG_PSEUDO_XORWOW, { 624778773u, 3522650202u, 2363946744u, 1266286439u } },
        { CURAND_RNG_PSEUDO_MRG32K3A, { 3379073520u, 653317650u, 4012281984u, 4237272334u } },
        { CURAND_RNG_PSEUDO_PHILOX4_32_10, { 546353992u, 3665621163u, 1140953199u, 3419031310u } },
        { CURAND_RNG_PSEUDO_DEFAULT, { 624778773u, 3522650202u, 2363946744u, 1266286439u } },
    };
    for (auto &k : known) {
        curandGenerator_t g;
        unsigned *d, h[4];
        CR(curandCreateGenerator(&g, k.rng));
        CR(curandSetPseudoRandomGeneratorSeed(g, 1234));
        CK(cudaMalloc(&d, 4 * sizeof(unsigned)));
        CR(curandGenerate(g, d, 4));
        CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        if (memcmp(h, k.first, sizeof h)) {
            printf("FAIL rng %d: first outputs %u %u %u %u\n", (int)k.rng, h[0], h[1], h[2], h[3]);
            return 1;
        }
        CK(cudaFree(d));
        CR(curandDestroyGenerator(g));
        printf("PASS rng %d seed 1234: the H200's first outputs\n", (int)k.rng);
    }

    const curandRngType_t rngs[] = { CURAND_RNG_PSEUDO_XORWOW, CURAND_RNG_PSEUDO_MRG32K3A,
                                     CURAND_RNG_PSEUDO_PHILOX4_32_10 };
    const char *names[] = { "XORWOW", "MRG32k3a", "Philox4x32-10" };
    cudaStream_t stream;
    CK(cudaStreamCreate(&stream));
    char what[200];
    for (int r = 0; r < 3; r++) {
        Setup s = { rngs[r], 1234, 0, 0, -1 };
        snprintf(what, sizeof what, "%s: raw sizes 1, 3, 4097, 100003 chained", names[r]);
        device_vs_host(what, s, { 1, 3, 4097, 100003 }, { RAW, RAW, RAW, RAW }, 0);
        snprintf(what, sizeof what, "%s: uniform and raw mixed, odd sizes", names[r]);
        device_vs_host(what, s, { 4097, 33, 100001, 7 }, { UNIF, RAW, UNIF, UNIF }, 0);
        snprintf(what, sizeof what, "%s: uniform double", names[r]);
        if (r < 2) device_vs_host(what, s, { 4096, 5, 8191 }, { UNIFD, UNIFD, UNIFD }, 0);
        Setup o = { rngs[r], 42, 1, (1ull << 32) + 5, -1 };
        snprintf(what, sizeof what, "%s: offset 2^32+5, seed 42", names[r]);
        device_vs_host(what, o, { 70000, 3 }, { RAW, UNIF }, 0);
        Setup l = { rngs[r], 0xFFFFFFFFFFFFFFFFull, 1, 4099, CURAND_ORDERING_PSEUDO_LEGACY };
        snprintf(what, sizeof what, "%s: legacy ordering, offset 4099, seed 2^64-1", names[r]);
        device_vs_host(what, l, { 100003, 11 }, { RAW, RAW }, 0);
        Setup b = { rngs[r], 7, 0, 0, CURAND_ORDERING_PSEUDO_BEST };
        snprintf(what, sizeof what, "%s: best ordering on a stream", names[r]);
        device_vs_host(what, b, { 65537, 1000 }, { RAW, UNIF }, stream);
    }
    CK(cudaStreamDestroy(stream));

    // normals and log-normals: the device generator against the host generator.
    // NVIDIA's host generator computes sin, cos and log with the CPU's libm, its
    // device generator with the GPU's: equal to about 1e-6, not bit for bit.
    for (int r = 0; r < 2; r++) {
        curandGenerator_t dg, hg;
        CR(curandCreateGenerator(&dg, rngs[r]));
        CR(curandCreateGeneratorHost(&hg, rngs[r]));
        CR(curandSetPseudoRandomGeneratorSeed(dg, 99));
        CR(curandSetPseudoRandomGeneratorSeed(hg, 99));
        const size_t n = 10002;
        void *d;
        CK(cudaMalloc(&d, n * sizeof(double)));
        std::vector<double> hd(n), hh(n);
        for (int kind = 0; kind < 4; kind++) {
            bool dbl = kind & 1;
            if (kind == 0) { CR(curandGenerateNormal(dg, (float *)d, n, 1.0f, 2.0f)); CR(curandGenerateNormal(hg, (float *)hh.data(), n, 1.0f, 2.0f)); }
            if (kind == 1) { CR(curandGenerateNormalDouble(dg, (double *)d, n, -1.0, 0.5)); CR(curandGenerateNormalDouble(hg, hh.data(), n, -1.0, 0.5)); }
            if (kind == 2) { CR(curandGenerateLogNormal(dg, (float *)d, n, 0.25f, 0.5f)); CR(curandGenerateLogNormal(hg, (float *)hh.data(), n, 0.25f, 0.5f)); }
            if (kind == 3) { CR(curandGenerateLogNormalDouble(dg, (double *)d, n, 0.25, 0.5)); CR(curandGenerateLogNormalDouble(hg, hh.data(), n, 0.25, 0.5)); }
            CK(cudaMemcpy(hd.data(), d, n * (dbl ? 8 : 4), cudaMemcpyDeviceToHost));
            double worst = 0;
            for (size_t i = 0; i < n; i++) {
                double a = dbl ? hd[i] : ((float *)hd.data())[i], b = dbl ? hh[i] : ((float *)hh.data())[i];
                double e = fabs(a - b) / (1 + fabs(b));
                if (e > worst) worst = e;
            }
            if (!(worst < (dbl ? 1e-12 : 2e-5))) {
                printf("FAIL %s %s: device and host generators differ by %.3g\n", names[r],
                       kind == 0 ? "normal" : kind == 1 ? "normal double" : kind == 2 ? "log-normal" : "log-normal double", worst);
                return 1;
            }
        }
        CK(cudaFree(d));
        CR(curandDestroyGenerator(dg));
        CR(curandDestroyGenerator(hg));
        printf("PASS %s: normal, normal double, log-normal, log-normal double (device against host)\n", names[r]);
    }

    // statuses (measured on an H200)
    curandGenerator_t g;
    float *f;
    unsigned long long *ll;
    CK(cudaMalloc(&f, 64 * sizeof(float)));
    CK(cudaMalloc(&ll, 64 * sizeof(unsigned long long)));
    EXPECT(curandCreateGenerator(&g, (curandRngType_t)999), CURAND_STATUS_TYPE_ERROR);
    CR(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_XORWOW));
    CR(curandGenerateSeeds(g));
    EXPECT(curandGenerateNormal(g, f, 3, 0.0f, 1.0f), CURAND_STATUS_LENGTH_NOT_MULTIPLE);
    EXPECT(curandGenerateLogNormalDouble(g, (double *)f, 7, 0.0, 1.0), CURAND_STATUS_LENGTH_NOT_MULTIPLE);
    EXPECT(curandGenerateLongLong(g, ll, 16), CURAND_STATUS_TYPE_ERROR);
    EXPECT(curandGeneratePoisson(g, (unsigned *)f, 16, 0.0), CURAND_STATUS_OUT_OF_RANGE);
    EXPECT(curandSetQuasiRandomGeneratorDimensions(g, 4), CURAND_STATUS_TYPE_ERROR);
    EXPECT(curandSetGeneratorOrdering(g, CURAND_ORDERING_QUASI_DEFAULT), CURAND_STATUS_OUT_OF_RANGE);
    EXPECT(curandGenerate(g, (unsigned *)f, 0), CURAND_STATUS_SUCCESS);
    CR(curandDestroyGenerator(g));
    CR(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_MRG32K3A));
    EXPECT(curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_SEEDED), CURAND_STATUS_OUT_OF_RANGE);
    CR(curandDestroyGenerator(g));
    CR(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_PHILOX4_32_10));
    EXPECT(curandSetGeneratorOrdering(g, (curandOrdering_t)12345), CURAND_STATUS_OUT_OF_RANGE);
    CR(curandDestroyGenerator(g));
    int bad = 0;
    EXPECT(curandGetProperty((libraryPropertyType)7, &bad), CURAND_STATUS_OUT_OF_RANGE);
    CK(cudaFree(f));
    CK(cudaFree(ll));
    printf("PASS curand_host_api\n");
    return 0;
}
