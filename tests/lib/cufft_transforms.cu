// cufft_transforms: cuFFT as users call it, every mapped entry point checked
// against a DFT accumulated in double on the host (docs/cufft.md).
//
//   nvcc cufft_transforms.cu -o cufft_transforms -lcufft
//
// Prints one "PASS <what>" line per check and "PASS cufft_transforms" at the
// end, the same under cubridge and on a real GPU; exits 1 at the first failure.
// Error measure: relative L2 error ||got - ref|| / ||ref||, bounded by
// 2e-6 (1 + log2 N) in single and 1e-14 (1 + log2 N) in double precision
// (cuFFT documents errors of O(eps log N)).
#include <cuda_runtime.h>
#include <cufft.h>
#include <cufftXt.h>
#include <cuda_fp16.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)
#define CF(x) do { cufftResult r_ = (x); if (r_ != CUFFT_SUCCESS) { \
    printf("FAIL %s:%d: %s returned %d\n", __FILE__, __LINE__, #x, (int)r_); exit(1); } } while (0)
#define EXPECT(x, want) do { cufftResult r_ = (x); if (r_ != (want)) { \
    printf("FAIL %s:%d: %s returned %d, expected %d\n", __FILE__, __LINE__, #x, (int)r_, (int)(want)); exit(1); } \
    printf("PASS status %s\n", #want); } while (0)

static unsigned long long rng_state = 12345;
static double urand() {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng_state >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

// Naive DFT of a dense row-major complex array of dims n[0..rank-1], sign s.
static void dft(const std::vector<double> &in, std::vector<double> &out, int rank, const int *n, int s) {
    long long total = 1;
    for (int i = 0; i < rank; i++) total *= n[i];
    out.assign(2 * total, 0.0);
    for (long long k = 0; k < total; k++) {
        long long kk[3] = {0, 0, 0}, r = k;
        for (int i = rank - 1; i >= 0; i--) { kk[i] = r % n[i]; r /= n[i]; }
        double re = 0, im = 0;
        for (long long j = 0; j < total; j++) {
            long long jj[3] = {0, 0, 0}, q = j;
            for (int i = rank - 1; i >= 0; i--) { jj[i] = q % n[i]; q /= n[i]; }
            double ph = 0;
            for (int i = 0; i < rank; i++) ph += (double)((jj[i] * kk[i]) % n[i]) / n[i];
            double a = s * 2 * M_PI * ph, c = cos(a), sn = sin(a);
            re += in[2 * j] * c - in[2 * j + 1] * sn;
            im += in[2 * j] * sn + in[2 * j + 1] * c;
        }
        out[2 * k] = re;
        out[2 * k + 1] = im;
    }
}

static void check(const char *what, const std::vector<double> &got, const std::vector<double> &ref, long long n,
                  bool dbl) {
    double err = 0, norm = 0;
    for (size_t i = 0; i < ref.size(); i++) {
        err += (got[i] - ref[i]) * (got[i] - ref[i]);
        norm += ref[i] * ref[i];
    }
    double rel = sqrt(err / (norm > 0 ? norm : 1)), lg = 1 + log2((double)n);
    double bound = (dbl ? 1e-14 : 2e-6) * lg;
    if (!(rel <= bound)) {
        printf("FAIL %s: relative L2 error %.3g > %.3g\n", what, rel, bound);
        exit(1);
    }
    printf("PASS %s\n", what);
}

// C2C / Z2Z of a dense transform of rank 1..3, batch b, through cufftPlan* and cufftMakePlan*.
template <class C, class R>
static void c2c(const char *what, int rank, const int *n, int batch, int sign, bool make, bool inplace,
                cudaStream_t stream) {
    const bool dbl = sizeof(R) == 8;
    long long total = 1;
    for (int i = 0; i < rank; i++) total *= n[i];
    std::vector<double> x(2 * total * batch);
    for (auto &v : x) v = urand();
    std::vector<R> h(x.size());
    for (size_t i = 0; i < x.size(); i++) h[i] = (R)x[i], x[i] = (double)h[i];
    C *din, *dout;
    CK(cudaMalloc(&din, h.size() * sizeof(R)));
    dout = din;
    if (!inplace) CK(cudaMalloc(&dout, h.size() * sizeof(R)));
    CK(cudaMemcpy(din, h.data(), h.size() * sizeof(R), cudaMemcpyHostToDevice));
    cufftHandle p;
    cufftType t = dbl ? CUFFT_Z2Z : CUFFT_C2C;
    if (make) {
        size_t ws = 0;
        CF(cufftCreate(&p));
        if (rank == 1) CF(cufftMakePlan1d(p, n[0], t, batch, &ws));
        else if (rank == 2 && batch == 1) CF(cufftMakePlan2d(p, n[0], n[1], t, &ws));
        else if (rank == 3 && batch == 1) CF(cufftMakePlan3d(p, n[0], n[1], n[2], t, &ws));
        else CF(cufftMakePlanMany(p, rank, (int *)n, NULL, 1, 0, NULL, 1, 0, t, batch, &ws));
        size_t ws2 = 0;
        CF(cufftGetSize(p, &ws2));
        if (ws2 != ws) { printf("FAIL %s: cufftGetSize %zu != MakePlan's %zu\n", what, ws2, ws); exit(1); }
    } else {
        if (rank == 1) CF(cufftPlan1d(&p, n[0], t, batch));
        else if (rank == 2 && batch == 1) CF(cufftPlan2d(&p, n[0], n[1], t));
        else if (rank == 3 && batch == 1) CF(cufftPlan3d(&p, n[0], n[1], n[2], t));
        else CF(cufftPlanMany(&p, rank, (int *)n, NULL, 1, 0, NULL, 1, 0, t, batch));
    }
    if (stream) CF(cufftSetStream(p, stream));
    if (dbl) CF(cufftExecZ2Z(p, (cufftDoubleComplex *)din, (cufftDoubleComplex *)dout, sign));
    else CF(cufftExecC2C(p, (cufftComplex *)din, (cufftComplex *)dout, sign));
    if (stream) CK(cudaStreamSynchronize(stream));
    CK(cudaMemcpy(h.data(), dout, h.size() * sizeof(R), cudaMemcpyDeviceToHost));
    std::vector<double> got(h.begin(), h.end()), ref, all;
    for (int b = 0; b < batch; b++) {
        std::vector<double> xb(x.begin() + 2 * total * b, x.begin() + 2 * total * (b + 1)), rb;
        dft(xb, rb, rank, n, sign);
        all.insert(all.end(), rb.begin(), rb.end());
    }
    check(what, got, all, total, dbl);
    CF(cufftDestroy(p));
    CK(cudaFree(din));
    if (!inplace) CK(cudaFree(dout));
}

// R2C then C2R (D2Z then Z2D) of a dense 1-D or 2-D transform, out of place or in place.
template <class R>
static void real_pair(const char *what, int rank, const int *n, int batch, bool inplace) {
    const bool dbl = sizeof(R) == 8;
    int last = n[rank - 1], half = last / 2 + 1;
    long long rows = 1;
    for (int i = 0; i < rank - 1; i++) rows *= n[i];
    long long total = rows * last, ctotal = rows * half;
    long long rstride = inplace ? 2 * half : last;   // reals per row in memory
    std::vector<R> h((size_t)(inplace ? 2 * ctotal : total) * batch, 0);
    std::vector<double> x(2 * total * batch, 0.0);
    for (int b = 0; b < batch; b++)
        for (long long r = 0; r < rows; r++)
            for (int j = 0; j < last; j++) {
                R v = (R)urand();
                h[(size_t)(b * rows * rstride + r * rstride + j)] = v;
                x[2 * (b * total + r * last + j)] = (double)v;
            }
    R *dreal;
    void *dcpx;
    size_t rbytes = h.size() * sizeof(R), cbytes = (size_t)ctotal * batch * 2 * sizeof(R);
    CK(cudaMalloc(&dreal, rbytes > cbytes ? rbytes : cbytes));
    dcpx = dreal;
    if (!inplace) CK(cudaMalloc(&dcpx, cbytes));
    CK(cudaMemcpy(dreal, h.data(), rbytes, cudaMemcpyHostToDevice));
    cufftHandle f, g;
    if (rank == 1) {
        CF(cufftPlan1d(&f, last, dbl ? CUFFT_D2Z : CUFFT_R2C, batch));
        CF(cufftPlan1d(&g, last, dbl ? CUFFT_Z2D : CUFFT_C2R, batch));
    } else {
        CF(cufftPlanMany(&f, rank, (int *)n, NULL, 1, 0, NULL, 1, 0, dbl ? CUFFT_D2Z : CUFFT_R2C, batch));
        CF(cufftPlanMany(&g, rank, (int *)n, NULL, 1, 0, NULL, 1, 0, dbl ? CUFFT_Z2D : CUFFT_C2R, batch));
    }
    if (dbl) CF(cufftExecD2Z(f, (cufftDoubleReal *)dreal, (cufftDoubleComplex *)dcpx));
    else CF(cufftExecR2C(f, (cufftReal *)dreal, (cufftComplex *)dcpx));
    std::vector<R> hc((size_t)ctotal * batch * 2);
    CK(cudaMemcpy(hc.data(), dcpx, cbytes, cudaMemcpyDeviceToHost));
    // reference: the full DFT's first half+1 columns
    std::vector<double> got(hc.begin(), hc.end()), ref;
    for (int b = 0; b < batch; b++) {
        std::vector<double> xb(x.begin() + 2 * total * b, x.begin() + 2 * total * (b + 1)), full;
        dft(xb, full, rank, n, -1);
        for (long long r = 0; r < rows; r++)
            for (int k = 0; k < half; k++) {
                ref.push_back(full[2 * (r * last + k)]);
                ref.push_back(full[2 * (r * last + k) + 1]);
            }
    }
    char w[200];
    snprintf(w, sizeof w, "%s %s", what, dbl ? "D2Z" : "R2C");
    check(w, got, ref, total, dbl);
    // C2R back: last * rows * x (unnormalised)
    if (dbl) CF(cufftExecZ2D(g, (cufftDoubleComplex *)dcpx, (cufftDoubleReal *)dreal));
    else CF(cufftExecC2R(g, (cufftComplex *)dcpx, (cufftReal *)dreal));
    CK(cudaMemcpy(h.data(), dreal, rbytes, cudaMemcpyDeviceToHost));
    std::vector<double> back, want;
    for (int b = 0; b < batch; b++)
        for (long long r = 0; r < rows; r++)
            for (int j = 0; j < last; j++) {
                back.push_back((double)h[(size_t)(b * rows * rstride + r * rstride + j)]);
                want.push_back(x[2 * (b * total + r * last + j)] * (double)total);
            }
    snprintf(w, sizeof w, "%s %s", what, dbl ? "Z2D" : "C2R");
    check(w, back, want, total, dbl);
    CF(cufftDestroy(f));
    CF(cufftDestroy(g));
    CK(cudaFree(dreal));
    if (!inplace) CK(cudaFree(dcpx));
}

// Advanced layout: batch interleaved (stride = batch, dist = 1) on input,
// padded rows on output (onembed), through cufftPlanMany / cufftMakePlanMany64.
static void advanced(bool use64) {
    const int n = 12, batch = 3, ostride = 2, odist = n * ostride + 5;
    std::vector<float> h(2 * n * batch);
    std::vector<double> x(h.size());
    for (size_t i = 0; i < h.size(); i++) h[i] = (float)urand(), x[i] = h[i];
    float2 *din, *dout;
    size_t obytes = (size_t)(odist * batch) * sizeof(float2);
    CK(cudaMalloc(&din, h.size() * sizeof(float)));
    CK(cudaMalloc(&dout, obytes));
    CK(cudaMemset(dout, 0, obytes));
    CK(cudaMemcpy(din, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
    cufftHandle p;
    size_t ws;
    if (use64) {
        long long nn[1] = {n}, ie[1] = {n}, oe[1] = {n};
        CF(cufftCreate(&p));
        CF(cufftMakePlanMany64(p, 1, nn, ie, batch, 1, oe, ostride, odist, CUFFT_C2C, batch, &ws));
        CF(cufftGetSizeMany64(p, 1, nn, ie, batch, 1, oe, ostride, odist, CUFFT_C2C, batch, &ws));
    } else {
        int nn[1] = {n}, ie[1] = {n}, oe[1] = {n};
        CF(cufftEstimateMany(1, nn, ie, batch, 1, oe, ostride, odist, CUFFT_C2C, batch, &ws));
        CF(cufftPlanMany(&p, 1, nn, ie, batch, 1, oe, ostride, odist, CUFFT_C2C, batch));
        CF(cufftGetSizeMany(p, 1, nn, ie, batch, 1, oe, ostride, odist, CUFFT_C2C, batch, &ws));
    }
    CF(cufftExecC2C(p, din, dout, CUFFT_FORWARD));
    std::vector<float> o(obytes / sizeof(float));
    CK(cudaMemcpy(o.data(), dout, obytes, cudaMemcpyDeviceToHost));
    std::vector<double> got, ref;
    for (int b = 0; b < batch; b++) {
        std::vector<double> xb(2 * n), rb;
        for (int j = 0; j < n; j++) {
            xb[2 * j] = x[2 * (j * batch + b)];
            xb[2 * j + 1] = x[2 * (j * batch + b) + 1];
        }
        dft(xb, rb, 1, &n, -1);
        for (int k = 0; k < n; k++) {
            got.push_back(o[2 * (b * odist + k * ostride)]);
            got.push_back(o[2 * (b * odist + k * ostride) + 1]);
        }
        ref.insert(ref.end(), rb.begin(), rb.end());
    }
    // the gaps of the output layout stay untouched
    for (int b = 0; b < batch; b++)
        for (int k = 0; k < n; k++)
            if (o[2 * (b * odist + k * ostride + 1)] != 0.0f) {
                printf("FAIL advanced layout: a gap of the output was written\n");
                exit(1);
            }
    check(use64 ? "C2C advanced layout (cufftMakePlanMany64, istride=batch idist=1, ostride 2)"
                : "C2C advanced layout (cufftPlanMany, istride=batch idist=1, ostride 2)",
          got, ref, n, false);
    CF(cufftDestroy(p));
    CK(cudaFree(din));
    CK(cudaFree(dout));
}

// cufftXtMakePlanMany in half precision (a power of two) and single.
static void xt_half() {
    const int n = 64;
    std::vector<__half> h(2 * n);
    std::vector<double> x(2 * n);
    for (int i = 0; i < 2 * n; i++) {
        h[i] = __float2half((float)((int)(urand() * 8)) / 8.0f);
        x[i] = __half2float(h[i]);
    }
    void *d;
    CK(cudaMalloc(&d, 2 * n * sizeof(__half)));
    CK(cudaMemcpy(d, h.data(), 2 * n * sizeof(__half), cudaMemcpyHostToDevice));
    cufftHandle p;
    size_t ws;
    long long nn[1] = {n};
    CF(cufftCreate(&p));
    CF(cufftXtGetSizeMany(p, 1, nn, NULL, 1, n, CUDA_C_16F, NULL, 1, n, CUDA_C_16F, 1, &ws, CUDA_C_16F));
    CF(cufftXtMakePlanMany(p, 1, nn, NULL, 1, n, CUDA_C_16F, NULL, 1, n, CUDA_C_16F, 1, &ws, CUDA_C_16F));
    CF(cufftXtExec(p, d, d, CUFFT_FORWARD));
    CK(cudaMemcpy(h.data(), d, 2 * n * sizeof(__half), cudaMemcpyDeviceToHost));
    std::vector<double> got(2 * n), ref;
    for (int i = 0; i < 2 * n; i++) got[i] = __half2float(h[i]);
    dft(x, ref, 1, &n, -1);
    double err = 0, norm = 0;
    for (int i = 0; i < 2 * n; i++) err += (got[i] - ref[i]) * (got[i] - ref[i]), norm += ref[i] * ref[i];
    if (!(sqrt(err / norm) < 5e-3)) { printf("FAIL cufftXt half C2C: error %.3g\n", sqrt(err / norm)); exit(1); }
    printf("PASS cufftXtMakePlanMany + cufftXtExec, CUDA_C_16F, n=64\n");
    CF(cufftDestroy(p));
    CK(cudaFree(d));
}

int main() {
    int v = 0;
    CF(cufftGetVersion(&v));
    int major = -1, minor = -1, patch = -1;
    CF(cufftGetProperty(MAJOR_VERSION, &major));
    CF(cufftGetProperty(MINOR_VERSION, &minor));
    CF(cufftGetProperty(PATCH_LEVEL, &patch));
    if (v < 11000 || major < 11) { printf("FAIL cufftGetVersion %d major %d\n", v, major); return 1; }
    fprintf(stderr, "cufft version %d (%d.%d.%d)\n", v, major, minor, patch);
    printf("PASS cufftGetVersion/cufftGetProperty\n");

    const int n1[] = {1}, n8[] = {8}, n15[] = {15}, n64[] = {64}, n97[] = {97}, n1000[] = {1000}, n1031[] = {1031};
    const int n2d[] = {6, 10}, n3d[] = {4, 3, 6}, n2odd[] = {5, 7};
    c2c<cufftComplex, float>("C2C 1-D n=1", 1, n1, 1, CUFFT_FORWARD, false, false, 0);
    c2c<cufftComplex, float>("C2C 1-D n=8 forward", 1, n8, 1, CUFFT_FORWARD, false, false, 0);
    c2c<cufftComplex, float>("C2C 1-D n=15 inverse batch 4 in place", 1, n15, 4, CUFFT_INVERSE, false, true, 0);
    c2c<cufftComplex, float>("C2C 1-D n=97 (prime) batch 2", 1, n97, 2, CUFFT_FORWARD, true, false, 0);
    c2c<cufftComplex, float>("C2C 1-D n=1031 (Bluestein) forward", 1, n1031, 1, CUFFT_FORWARD, false, false, 0);
    c2c<cufftComplex, float>("C2C 1-D n=1000 inverse", 1, n1000, 1, CUFFT_INVERSE, true, true, 0);
    c2c<cufftComplex, float>("C2C 2-D 6x10 (cufftPlan2d)", 2, n2d, 1, CUFFT_FORWARD, false, false, 0);
    c2c<cufftComplex, float>("C2C 2-D 6x10 (cufftMakePlan2d) inverse", 2, n2d, 1, CUFFT_INVERSE, true, false, 0);
    c2c<cufftComplex, float>("C2C 3-D 4x3x6 (cufftPlan3d)", 3, n3d, 1, CUFFT_FORWARD, false, false, 0);
    c2c<cufftComplex, float>("C2C 3-D 4x3x6 (cufftMakePlan3d)", 3, n3d, 1, CUFFT_INVERSE, true, true, 0);
    c2c<cufftComplex, float>("C2C 2-D 5x7 batch 3 (cufftPlanMany)", 2, n2odd, 3, CUFFT_FORWARD, false, false, 0);
    c2c<cufftDoubleComplex, double>("Z2Z 1-D n=64 batch 2", 1, n64, 2, CUFFT_FORWARD, false, false, 0);
    c2c<cufftDoubleComplex, double>("Z2Z 1-D n=97 inverse (cufftMakePlan1d)", 1, n97, 1, CUFFT_INVERSE, true, false, 0);
    c2c<cufftDoubleComplex, double>("Z2Z 3-D 4x3x6 (cufftMakePlanMany)", 3, n3d, 2, CUFFT_FORWARD, true, false, 0);
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    c2c<cufftComplex, float>("C2C 1-D n=64 batch 8 on a stream (cufftSetStream)", 1, n64, 8, CUFFT_FORWARD, false,
                             false, s);
    CK(cudaStreamDestroy(s));

    const int r16[] = {16}, r15[] = {15}, r2d[] = {6, 8}, r2dodd[] = {4, 9};
    real_pair<float>("1-D n=16 batch 3", 1, r16, 3, false);
    real_pair<float>("1-D n=15", 1, r15, 2, false);
    real_pair<float>("1-D n=16 in place", 1, r16, 2, true);
    real_pair<float>("2-D 6x8", 2, r2d, 1, false);
    real_pair<float>("2-D 4x9 in place", 2, r2dodd, 2, true);
    real_pair<double>("1-D n=16 batch 3", 1, r16, 3, false);
    real_pair<double>("2-D 4x9", 2, r2dodd, 1, false);
    advanced(false);
    advanced(true);
    xt_half();

    // work areas, estimates, auto-allocation
    {
        size_t ws = 1;
        const int nn[2] = {32, 32};
        CF(cufftEstimate1d(1024, CUFFT_C2C, 4, &ws));
        CF(cufftEstimate2d(32, 32, CUFFT_R2C, &ws));
        CF(cufftEstimate3d(8, 8, 8, CUFFT_Z2Z, &ws));
        CF(cufftEstimateMany(2, (int *)nn, NULL, 1, 0, NULL, 1, 0, CUFFT_C2C, 2, &ws));
        cufftHandle p;
        CF(cufftCreate(&p));
        CF(cufftGetSize1d(p, 1024, CUFFT_C2C, 4, &ws));
        CF(cufftGetSize2d(p, 32, 32, CUFFT_C2C, &ws));
        CF(cufftGetSize3d(p, 8, 8, 8, CUFFT_C2C, &ws));
        CF(cufftSetAutoAllocation(p, 0));
        CF(cufftMakePlan1d(p, 256, CUFFT_C2C, 1, &ws));
        void *work = NULL;
        if (ws) CK(cudaMalloc(&work, ws));
        CF(cufftSetWorkArea(p, work));
        const int n256[] = {256};
        std::vector<float> h(512);
        std::vector<double> x(512), ref;
        for (int i = 0; i < 512; i++) h[i] = (float)urand(), x[i] = h[i];
        float2 *d;
        CK(cudaMalloc(&d, 512 * sizeof(float)));
        CK(cudaMemcpy(d, h.data(), 512 * sizeof(float), cudaMemcpyHostToDevice));
        CF(cufftExecC2C(p, d, d, CUFFT_FORWARD));
        CK(cudaMemcpy(h.data(), d, 512 * sizeof(float), cudaMemcpyDeviceToHost));
        dft(x, ref, 1, n256, -1);
        check("C2C with cufftSetAutoAllocation(0) + cufftSetWorkArea", std::vector<double>(h.begin(), h.end()), ref,
              256, false);
        CF(cufftDestroy(p));
        CK(cudaFree(d));
        if (work) CK(cudaFree(work));
    }

    // statuses
    {
        cufftHandle p;
        EXPECT(cufftPlan1d(&p, 0, CUFFT_C2C, 1), CUFFT_INVALID_SIZE);
        EXPECT(cufftPlan1d(&p, 16, CUFFT_C2C, 0), CUFFT_INVALID_SIZE);
        EXPECT(cufftPlan1d(&p, 16, (cufftType)0x7f, 1), CUFFT_INVALID_TYPE);
        EXPECT(cufftPlan2d(&p, 0, 4, CUFFT_C2C), CUFFT_INVALID_SIZE);
        EXPECT(cufftExecC2C((cufftHandle)123456, NULL, NULL, CUFFT_FORWARD), CUFFT_INVALID_PLAN);
        EXPECT(cufftDestroy((cufftHandle)123456), CUFFT_INVALID_PLAN);
        EXPECT(cufftSetStream((cufftHandle)123456, 0), CUFFT_INVALID_PLAN);
    }
    printf("PASS cufft_transforms\n");
    return 0;
}
