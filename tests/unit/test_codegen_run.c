/* test_codegen_run: translate kernels, compile the C with the host compiler
 * into a shared object, dlopen it and run the kernels with a tiny runtime of
 * this test's own (one CUDA thread after another), then check the answers
 * against host computations. Every check runs on both the -O3 and the -G
 * (debug) PTX of the same source.
 *
 * Kernels with __syncthreads run with one thread per block, where a barrier
 * is trivially satisfied. The real CPU runtime (fibers, pool) is tested under
 * tests/unit/test_cpu_*.
 */
#include "test_codegen_util.h"

static int g_debug;   /* running the -G PTX: nvcc does not contract a*b+c into fma there */

/* a*b+c rounded twice, as separate mul and add instructions do */
static float mul_add_f32(float a, float b, float c)
{
    volatile float p = a * b;
    return p + c;
}
static double mul_add_f64(double a, double b, double c)
{
    volatile double p = a * b;
    return p + c;
}
/* ---- the tests -------------------------------------------------------------------- */

static void test_vecadd(const char *file)
{
    module m;
    if (load_module(file, &m))
        return;
    enum { N = 1000 };
    float *a = malloc(N * 4), *b = malloc(N * 4), *c = malloc(N * 4), *y = malloc(N * 4);
    double *dx = malloc(N * 8), *dy = malloc(N * 8);
    for (int i = 0; i < N; i++) {
        a[i] = (float)i * 0.37f - 11.0f;
        b[i] = 1.0f / (float)(i + 3);
        c[i] = -1;
        y[i] = (float)(i % 17) * 0.5f;
        dx[i] = i * 0.1;
        dy[i] = 1.0 / (i + 1);
    }
    int n = N;
    const void *args[] = {&a, &b, &c, &n};
    launch(&m, "vecadd", DIM(8, 1, 1), DIM(128, 1, 1), 0, args);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += f2u(c[i]) != f2u(a[i] + b[i]);
    CHECK(bad == 0, "vecadd: %d wrong", bad);

    float alpha = 2.5f;
    float *y0 = malloc(N * 4);
    memcpy(y0, y, N * 4);
    const void *sargs[] = {&n, &alpha, &a, &y};
    launch(&m, "saxpy", DIM(2, 1, 1), DIM(64, 1, 1), 0, sargs);
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += f2u(y[i]) != f2u(g_debug ? mul_add_f32(alpha, a[i], y0[i]) : fmaf(alpha, a[i], y0[i]));
    CHECK(bad == 0, "saxpy: %d wrong", bad);

    long ln = N;
    double dalpha = -0.75;
    double *dy0 = malloc(N * 8);
    memcpy(dy0, dy, N * 8);
    const void *dargs[] = {&ln, &dalpha, &dx, &dy};
    launch(&m, "daxpy", DIM(3, 1, 1), DIM(32, 1, 1), 0, dargs);
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += dy[i] != (g_debug ? mul_add_f64(dalpha, dx[i], dy0[i]) : fma(dalpha, dx[i], dy0[i]));
    CHECK(bad == 0, "daxpy: %d wrong", bad);
    free(a); free(b); free(c); free(y); free(y0); free(dx); free(dy); free(dy0);
    unload_module(&m);
}

static void test_index(const char *file)
{
    module m;
    if (load_module(file, &m))
        return;
    int w = 37, h = 23;
    int *out = calloc((size_t)(w * h), 4);
    const void *args[] = {&out, &w, &h};
    launch(&m, "fill2d", DIM(3, 4, 1), DIM(16, 8, 1), 0, args);
    int bad = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            bad += out[y * w + x] != x * 1000 + y;
    CHECK(bad == 0, "fill2d: %d wrong", bad);
    int nx = 9, ny = 7, nz = 5;
    unsigned *o3 = calloc((size_t)(nx * ny * nz), 4);
    const void *a3[] = {&o3, &nx, &ny, &nz};
    launch(&m, "fill3d", DIM(2, 2, 3), DIM(5, 4, 2), 0, a3);
    bad = 0;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++)
                bad += o3[(z * ny + y) * nx + x] != (unsigned)((x << 20) | (y << 10) | z);
    CHECK(bad == 0, "fill3d: %d wrong", bad);
    free(out);
    free(o3);
    unload_module(&m);
}

static int32_t host_mulhi(int32_t a, int32_t b) { return (int32_t)(((int64_t)a * b) >> 32); }
static uint32_t host_brev(uint32_t v)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((v >> i) & 1u) << (31 - i);
    return r;
}

static void test_imath(const char *file)
{
    module m;
    if (load_module(file, &m))
        return;
    enum { N = 64 };
    int a[N], b[N], o[N * 8];
    long long lo[N * 4];
    for (int i = 0; i < N; i++) {
        a[i] = (int)((i * 2654435761u) ^ 0x5bd1e995u);
        b[i] = i % 5 == 0 ? 0 : (int)(i * 40503u) - 1000000 * (i % 3);
        if (i == 7)
            a[i] = 0;
        if (i == 9)
            b[i] = -1, a[i] = 12345;
    }
    int *pa = a, *pb = b, *po = o, n = N;
    long long *plo = lo;
    const void *args[] = {&pa, &pb, &po, &plo, &n};
    launch(&m, "imath", DIM(2, 1, 1), DIM(32, 1, 1), 0, args);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int x = a[i], y = b[i];
        int ex[8];
        ex[0] = y ? x / y : -1;
        ex[1] = y ? x % y : -1;
        ex[2] = (int)((uint32_t)x << (y & 31));
        ex[3] = x >> (y & 31);
        ex[4] = (int)((uint32_t)x >> (y & 31));
        ex[5] = host_mulhi(x, y);
        ex[6] = (int)((uint32_t)__builtin_popcount((uint32_t)x) + (uint32_t)(y ? __builtin_clz((uint32_t)y) : 32) +
                      (uint32_t)__builtin_ffs(x) + host_brev((uint32_t)y));
        ex[7] = (int)((uint32_t)(x < y ? x : y) + (uint32_t)(x > y ? x : y) + (uint32_t)(x < 0 ? -(int64_t)x : x));
        for (int k = 0; k < 8; k++)
            if (o[i * 8 + k] != ex[k]) {
                if (bad++ < 5)
                    fprintf(stderr, "imath[%d][%d] x=%d y=%d: got %d want %d\n", i, k, x, y, o[i * 8 + k], ex[k]);
            }
        long long X = (long long)x * y, Y = (long long)((uint64_t)(long long)x << 33);
        long long el[4] = {X, y ? Y / y : 0, (long long)((unsigned long long)Y >> (y & 63)),
                           (long long)((uint64_t)(long long)(((__int128)X * Y) >> 64) +
                                       (uint64_t)(((unsigned __int128)(uint64_t)X * (uint64_t)Y) >> 64))};
        for (int k = 0; k < 4; k++)
            if (lo[i * 4 + k] != el[k]) {
                if (bad++ < 5)
                    fprintf(stderr, "imath64[%d][%d]: got %lld want %lld\n", i, k, lo[i * 4 + k], el[k]);
            }
    }
    CHECK(bad == 0, "imath: %d wrong", bad);
    unload_module(&m);
}

static void test_fmath(const char *file)
{
    module m;
    if (load_module(file, &m))
        return;
    enum { N = 40 };
    float x[N], y[N * 8];
    double dx[N], dy[N * 4];
    for (int i = 0; i < N; i++) {
        x[i] = 0.05f + (float)i * 0.37f;
        dx[i] = 0.03 + i * 0.41;
    }
    float *px = x, *py = y;
    int n = N;
    const void *args[] = {&px, &py, &n};
    launch(&m, "fmath", DIM(1, 1, 1), DIM(64, 1, 1), 0, args);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float v = x[i];
        bad += f2u(y[i * 8 + 0]) != f2u(sqrtf(v));
        bad += !close_rel(y[i * 8 + 1], exp(v), 4e-7 * 4);
        bad += !close_rel(y[i * 8 + 2], sin(v), 2e-6);
        bad += !close_rel(y[i * 8 + 3], v / 3.0, 1e-6);
        bad += !close_rel(y[i * 8 + 4], 1.0 / sqrt(v), 1e-6);
        bad += f2u(y[i * 8 + 5]) != f2u(fmaf(v, v, 1.0f));
        bad += f2u(y[i * 8 + 6]) != f2u(v / 7.0f);
        bad += !close_rel(y[i * 8 + 7], log(v) + cos(v) + pow(v, 1.5) + tanh(v), 1e-5);
    }
    CHECK(bad == 0, "fmath: %d wrong", bad);
    double *pdx = dx, *pdy = dy;
    const void *dargs[] = {&pdx, &pdy, &n};
    launch(&m, "dmath", DIM(1, 1, 1), DIM(64, 1, 1), 0, dargs);
    bad = 0;
    for (int i = 0; i < N; i++) {
        double v = dx[i];
        bad += dy[i * 4 + 0] != sqrt(v);
        bad += !close_rel(dy[i * 4 + 1], exp(v), 1e-15);
        bad += dy[i * 4 + 2] != v / 3.0;
        bad += !close_rel(dy[i * 4 + 3], fma(v, v, 1.0) + sin(v), 1e-15);
    }
    CHECK(bad == 0, "dmath: %d wrong", bad);

    enum { M = 8 };
    float f[M] = {1.5f, -2.5f, 3e9f, -3e9f, NAN, 0.49999997f, 1e-40f, -0.0f};
    double d[M] = {1e20, -1e20, 2.5, -2.5, NAN, 123456789.75, -0.5, 7.0};
    int o[M];
    unsigned u[M];
    long long l[M];
    float fo[M * 4];
    float *pf = f, *pfo = fo;
    double *pd = d;
    int *po = o, nm = M;
    unsigned *pu = u;
    long long *pl = l;
    const void *cargs[] = {&pf, &pd, &po, &pu, &pl, &pfo, &nm};
    launch(&m, "conv", DIM(1, 1, 1), DIM(M, 1, 1), 0, cargs);
    int want_o[M] = {1, -2, INT32_MAX, INT32_MIN, 0, 0, 0, 0};
    unsigned want_u[M] = {1, 0, 3000000000u, 0, 0, 0, 0, 0};
    /* cvt.rzi.s64.f64 of a NaN gives INT64_MIN on the H200 (docs/ptx-conformance.md) */
    long long want_l[M] = {INT64_MAX, INT64_MIN, 2, -2, INT64_MIN, 123456789, 0, 7};
    bad = 0;
    for (int i = 0; i < M; i++) {
        bad += o[i] != want_o[i];
        bad += u[i] != want_u[i];
        bad += l[i] != want_l[i];
        bad += f2u(fo[i * 4 + 0]) != f2u((float)d[i]);
        if (o[i] != want_o[i] || u[i] != want_u[i] || l[i] != want_l[i])
            fprintf(stderr, "conv[%d]: %d %u %lld\n", i, o[i], u[i], l[i]);
    }
    /* __int2float_rz(3*1+1 = 4) exact; __int2float_rz(INT32_MAX*3+1) rounds toward zero */
    CHECK(fo[0 * 4 + 1] == 4.0f, "int2float_rz %g", fo[1]);
    int big = (int)(uint32_t)((uint32_t)INT32_MAX * 3u + 1u);
    CHECK(f2u(fo[2 * 4 + 1]) == f2u((float)big) || fabsf(fo[2 * 4 + 1]) <= fabsf((float)big), "rz");
    /* __fadd_rz(1.5, 1e-8) stays 1.5; rounding up would not */
    CHECK(fo[0 * 4 + 2] == 1.5f, "fadd_rz %a", fo[2]);
    CHECK(fo[1 * 4 + 2] == nextafterf(-2.5f, 0.0f) || fo[1 * 4 + 2] == -2.5f, "fadd_rz neg %a", fo[6]);
    CHECK(bad == 0, "conv: %d wrong", bad);
    unload_module(&m);
}

static void test_atomics(const char *file)
{
    module m;
    if (load_module(file, &m))
        return;
    enum { N = 200 };
    float in[N];
    for (int i = 0; i < N; i++)
        in[i] = (float)((i * 37) % 101) * 0.25f - 7.0f;
    float fsum = 0, fmx = -1e30f;
    int iv[5] = {-5, 5, 1000, 0, 3};
    unsigned uv[5] = {0xffffffffu, 0, 0, 0, 0};
    unsigned long long u64 = 0;
    double dsum = 0;
    float *pin = in, *pfs = &fsum, *pfm = &fmx;
    int *piv = iv, n = N;
    unsigned *puv = uv;
    unsigned long long *pu64 = &u64;
    double *pds = &dsum;
    const void *args[] = {&pin, &pfs, &pfm, &piv, &puv, &pu64, &pds, &n};
    launch(&m, "atomics", DIM(4, 1, 1), DIM(64, 1, 1), 0, args);
    float wsum = 0, wmax = -1e30f;
    double wd = 0;
    unsigned w_and = 0xffffffffu, w_or = 0, w_xor = 0, w_inc = 0, w_dec = 0;
    int w_cas = 3;
    for (int i = 0; i < N; i++) {
        wsum += in[i];
        wmax = fmaxf(wmax, in[i]);
        wd += (double)in[i];
        w_and &= ~(1u << (i & 31));
        w_or |= 1u << (i & 31);
        w_xor ^= (unsigned)i;
        w_inc = w_inc >= 10 ? 0 : w_inc + 1;
        w_dec = (w_dec == 0 || w_dec > 10) ? 10 : w_dec - 1;
        if (w_cas == i)
            w_cas = i + 1;
    }
    CHECK(f2u(fsum) == f2u(wsum), "float atomicAdd %g vs %g", fsum, wsum);
    CHECK(fmx == wmax, "CAS float max %g vs %g", fmx, wmax);
    CHECK(iv[0] == N - 1 && iv[1] == -(N - 1) && iv[2] == 1000 - 3 * N && iv[3] == 7, "int atomics %d %d %d %d",
          iv[0], iv[1], iv[2], iv[3]);
    CHECK(iv[4] == w_cas, "atomicCAS %d vs %d", iv[4], w_cas);
    CHECK(uv[0] == w_and && uv[1] == w_or && uv[2] == w_xor, "bitwise atomics");
    CHECK(uv[3] == w_inc && uv[4] == w_dec, "inc/dec %u %u vs %u %u", uv[3], uv[4], w_inc, w_dec);
    CHECK(u64 == (unsigned long long)N * (N - 1) / 2, "u64 add");
    CHECK(dsum == wd, "double add %.17g vs %.17g", dsum, wd);

    enum { H = 5000 };
    unsigned char *data = malloc(H);
    unsigned bins[256] = {0}, want[256] = {0};
    for (int i = 0; i < H; i++) {
        data[i] = (unsigned char)((i * 7919) ^ (i >> 3));
        want[data[i]]++;
    }
    int h = H;
    unsigned *pb = bins;
    const void *hargs[] = {&data, &h, &pb};
    launch(&m, "histogram", DIM(13, 1, 1), DIM(1, 1, 1), 0, hargs);
    CHECK(memcmp(bins, want, sizeof bins) == 0, "shared-memory histogram");
    free(data);
    unload_module(&m);
}

static void test_globals(const char *file)
{
    module m;
    if (load_module(file, &m))
        return;
    int *ctab = global_ptr(&m, "ctab");
    int *counter = global_ptr(&m, "counter");
    if (!ctab || !counter) {
        unload_module(&m);
        return;
    }
    ctab[0] = 10, ctab[1] = 20, ctab[2] = 30;
    enum { N = 50 };
    float x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)i * 0.125f;
    float *px = x, *py = y;
    int n = N;
    const void *args[] = {&px, &py, &n};
    launch(&m, "poly", DIM(2, 1, 1), DIM(32, 1, 1), 0, args);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float v = x[i];
        float want = 1.0f + v * (2.0f + v * (3.0f + v * 4.0f)) + (float)ctab[i % 3] + (float)(i & 1 ? 0.25 : 0.5);
        bad += !close_rel(y[i], want, 1e-6);
    }
    CHECK(bad == 0, "constant/global polynomial: %d wrong", bad);
    CHECK(*counter == 1, "__device__ counter %d", *counter);
    int **pp = NULL, *slot = NULL;
    pp = &slot;
    const void *gargs[] = {&pp};
    launch(&m, "getcounter", DIM(1, 1, 1), DIM(1, 1, 1), 0, gargs);
    CHECK(slot == counter, "address of a __device__ variable");

    int in[64], out[64];
    for (int i = 0; i < 64; i++)
        in[i] = i * 3 + 1;
    int *pin = in, *pout = out;
    const void *dargs[] = {&pin, &pout};
    launch(&m, "dynshared", DIM(64, 1, 1), DIM(1, 1, 1), 4, dargs);
    bad = 0;
    for (int i = 0; i < 64; i++)
        bad += out[i] != in[i];
    CHECK(bad == 0, "dynamic shared memory");
    unload_module(&m);
}

static int host_fib(int n) { return n < 2 ? n : host_fib(n - 1) + host_fib(n - 2); }

static void test_calls(const char *file)
{
    module m;
    if (load_module(file, &m))
        return;
    int in[16], out[16];
    float fo[16];
    long long lo = 0;
    for (int i = 0; i < 16; i++)
        in[i] = i + 2;
    int *pin = in, *pout = out;
    float *pfo = fo;
    long long *plo = &lo;
    const void *args[] = {&pin, &pout, &pfo, &plo};
    launch(&m, "calls", DIM(1, 1, 1), DIM(16, 1, 1), 0, args);
    int bad = 0;
    for (int i = 0; i < 16; i++) {
        bad += out[i] != host_fib(in[i]);
        bad += fo[i] != (float)in[i] * 0.5f + (float)i;
    }
    CHECK(bad == 0, "recursive and noinline calls: %d wrong", bad);
    CHECK(lo == in[0] + in[1] + in[2], "sum3 %lld", lo);

    g_printed_len = 0;
    g_printed[0] = 0;
    int n = 5;
    double d = 2.5;
    const void *pargs[] = {&n, &d};
    launch(&m, "hello", DIM(1, 1, 1), DIM(2, 1, 1), 0, pargs);
    CHECK(strcmp(g_printed, "hello from 0 of 5: 2.500000 str x 5000000000\n"
                            "hello from 1 of 5: 2.500000 str x 5000000000\n") == 0,
          "printf gave \"%s\"", g_printed);

    g_asserted = 0;
    in[3] = -1;
    const void *aargs[] = {&pin};
    int aborted = launch(&m, "check", DIM(1, 1, 1), DIM(8, 1, 1), 0, aargs);
    CHECK(aborted == 1 && g_asserted == 1, "assert fired");
    CHECK(strstr(g_assert_msg, "in[threadIdx.x] >= 0") != NULL, "assert message \"%s\"", g_assert_msg);
    in[3] = 5;
    g_asserted = 0;
    aborted = launch(&m, "check", DIM(1, 1, 1), DIM(8, 1, 1), 0, aargs);
    CHECK(aborted == 0 && g_asserted == 0, "assert quiet");

    g_trapped = 0;
    int x = 41;
    const void *targs[] = {&x};
    CHECK(launch(&m, "trapper", DIM(1, 1, 1), DIM(1, 1, 1), 0, targs) == 0 && g_trapped == 0, "no trap");
    x = 42;
    CHECK(launch(&m, "trapper", DIM(1, 1, 1), DIM(1, 1, 1), 0, targs) == 1 && g_trapped == 1, "trap");
    unload_module(&m);
}

static void test_templates(const char *file)
{
    module m;
    if (load_module(file, &m))
        return;
    int iv[10];
    float fv[10];
    double dv[10];
    for (int i = 0; i < 10; i++)
        iv[i] = i, fv[i] = (float)i * 0.5f, dv[i] = i * 0.25;
    int n = 10, ik = 7;
    float fk = 1.25f;
    double dk = -3.5;
    int *pi = iv;
    float *pf = fv;
    double *pd = dv;
    const void *a1[] = {&pi, &ik, &n}, *a2[] = {&pf, &fk, &n}, *a3[] = {&pd, &dk, &n};
    launch(&m, "_Z9add_constIiEvPT_S0_i", DIM(1, 1, 1), DIM(16, 1, 1), 0, a1);
    launch(&m, "_Z9add_constIfEvPT_S0_i", DIM(1, 1, 1), DIM(16, 1, 1), 0, a2);
    launch(&m, "_Z9add_constIdEvPT_S0_i", DIM(1, 1, 1), DIM(16, 1, 1), 0, a3);
    int bad = 0;
    for (int i = 0; i < 10; i++)
        bad += iv[i] != i + 7 || fv[i] != (float)i * 0.5f + 1.25f || dv[i] != i * 0.25 - 3.5;
    CHECK(bad == 0, "add_const<T>");
    float fin[32], fout[8];
    long long lin[32], lout[8];
    for (int i = 0; i < 32; i++)
        fin[i] = (float)i, lin[i] = (long long)i << 35;
    float *pfi = fin, *pfo = fout;
    long long *pli = lin, *plo = lout;
    const void *s1[] = {&pfi, &pfo}, *s2[] = {&pli, &plo};
    launch(&m, "_Z4sum4IfEvPKT_PS0_", DIM(1, 1, 1), DIM(8, 1, 1), 0, s1);
    launch(&m, "_Z4sum4IxEvPKT_PS0_", DIM(1, 1, 1), DIM(8, 1, 1), 0, s2);
    bad = 0;
    for (int t = 0; t < 8; t++) {
        float fs = 0;
        long long ls = 0;
        for (int i = 0; i < 4; i++) {
            fs += fin[t * 4 + i] * (float)(t + 1);
            ls += lin[t * 4 + i] * (t + 1);
        }
        bad += fout[t] != fs || lout[t] != ls;
    }
    CHECK(bad == 0, "sum4<T> with local arrays");
    unload_module(&m);
}

/* cuda_fp16.h / cuda_bf16.h intrinsics as nvcc lowers them (inline asm with
 * registers without '%', .reg.b16 in nested scopes); values with exact answers.
 * Bit-exactness over many inputs is test_codegen_isa's job. */
static void test_half(const char *file)
{
    module m;
    if (load_module(file, &m))
        return;
    uint16_t a[4] = {0x3e00, 0x3e00, 0x3e00, 0x3e00}, b[4] = {0x4080, 0x4080, 0x4080, 0x4080}, o[64];
    uint32_t a2[260], o2[260];
    float f[4] = {0.1f, 0.1f, 0.1f, 0.1f};
    int ii[4] = {2049, 2049, 2049, 2049};
    for (int i = 0; i < 260; i++)
        a2[i] = 0x40003c00u; /* {1.0, 2.0} */
    uint16_t *pa = a, *pb = b, *po = o;
    uint32_t *pa2 = a2, *po2 = o2;
    float *pf = f;
    int *pi = ii;
    const void *args[] = {&pa, &pb, &po, &pa2, &po2, &pf, &pi};
    launch(&m, "hk", DIM(1, 1, 1), DIM(1, 1, 1), 0, args);
    static const struct { int i; uint16_t want; const char *what; } hc[] = {
        {0, 0x4380, "__hadd"}, {1, 0x42c0, "__hmul"}, {2, 0x44e0, "__hfma"}, {3, 0xba00, "__hsub"},
        {5, 0xbe00, "__hneg"}, {6, 0x3e00, "__habs"}, {7, 0x3e00, "__hmin"}, {8, 0x4080, "__hmax_nan"},
        {9, 0x2e66, "__float2half"}, {10, 0x2e66, "__float2half_rz"}, {13, 0x6800, "__int2half_rn"},
        {14, 0x3c00, "__hadd_sat"},
    };
    for (size_t k = 0; k < sizeof hc / sizeof hc[0]; k++)
        CHECK(o[hc[k].i] == hc[k].want, "%s: got 0x%04x want 0x%04x", hc[k].what, o[hc[k].i], hc[k].want);
    CHECK(o2[0] == 0x46804000u, "__hfma2: 0x%08x", o2[0]); /* {1*1+1, 2*2+f}, f = 1.5+1 -> {2, 6.5} */
    CHECK(o2[64] == 0x44003c00u, "__hmul2: 0x%08x", o2[64]);      /* {1, 4} */
    CHECK(o2[192] == 0x40003c00u, "__hmax2: 0x%08x", o2[192]);
    unload_module(&m);
}

/* fnptr.ptx: indirect calls, function tables and generic() in initialisers
 * (relocations), exit two calls deep, isspacep, cache-hinted accesses. */
static void test_fnptr(void)
{
    module m;
    if (load_module("fnptr.ptx", &m))
        return;
    CHECK(m.tr->nrelocs == 4, "relocations: %u", m.tr->nrelocs);
    for (int n = 7; n <= 200; n += 193) {
        uint32_t out[8] = {0};
        uint32_t *po = out;
        const void *args[] = {&po, &n};
        launch(&m, "fnptr", DIM(1, 1, 1), DIM(1, 1, 1), 0, args);
        uint32_t sq = (uint32_t)(n * n);
        CHECK(out[0] == sq, "indirect call through mov: %u", out[0]);
        CHECK(out[1] == (uint32_t)(2 * n), "call through a relocated table: %u", out[1]);
        CHECK(out[2] == 5 && out[3] == 3, "generic() initialisers: %u %u", out[2], out[3]);
        CHECK(out[4] == (0x3fu | 7u << 8), "isspacep/cvta: 0x%x", out[4]);
        CHECK(out[5] == sq + 2u * (uint32_t)n + 5u + 3u, "hinted loads: %u", out[5]);
        CHECK(out[6] == (n > 100 ? 1u : 2u), "exit inside a .func (n=%d): %u", n, out[6]);
    }
    unload_module(&m);
}

static void test_edge(void)
{
    module m;
    if (load_module("edge.ptx", &m))
        return;
    uint32_t in[11] = {7, 0, 0x80000000u, 0xffffffffu, 33, 0x7fc00000u, f2u(1e10f), f2u(-2.5f), f2u(1.0f),
                       f2u(3.0f), 1};
    uint32_t out[50];
    memset(out, 0xcd, sizeof out);
    uint32_t *po = out, *pi = in;
    const void *args[] = {&po, &pi};
    launch(&m, "edge", DIM(1, 1, 1), DIM(1, 1, 1), 0, args);
    static const struct { int off; uint32_t want; const char *what; } cases[] = {
        {0, 0xffffffffu, "div.u32 by 0"}, {4, 0xffffffffu, "div.s32 by 0"}, {8, 0xffffffffu, "rem.u32 by 0"},
        {12, 0x80000000u, "INT_MIN / -1"}, {16, 0, "INT_MIN % -1"}, {20, 0, "shl by 33"},
        {24, 0, "shr.u by 33"}, {28, 0xffffffffu, "shr.s by 33"}, {32, 0xf8000000u, "shr.s by 4"},
        {36, 0, "cvt NaN -> s32"}, {40, 0x7fffffffu, "cvt 1e10 -> s32"}, {44, 0, "cvt -2.5 -> u32"},
        {48, 0xfffffffeu, "cvt.rni -2.5"}, {52, 0xfffffffdu, "cvt.rmi -2.5"}, {56, 0x3f800000u, "min NaN"},
        {60, 0x3f800000u, "max NaN"}, {64, 0x3eaaaaabu, "div.rn 1/3"}, {68, 0x3eaaaaaau, "div.rz 1/3"},
        {72, 0x3f800001u, "add.rp"}, {76, 0x3f800000u, "add.rm"}, {80, 0, "add.ftz subnormal"},
        {84, 0xfffffffcu, "mul.hi.s32"}, {88, 0xfffffffeu, "mul.hi.u32"}, {92, 0xff, "bfe.u32"},
        {96, 0xffffff80u, "bfe.s32"}, {100, 0x80000000u, "brev"}, {104, 0xfffffff0u, "prmt sign"},
        {108, 0x96969696u, "lop3"}, {112, 0, "cvt.sat"}, {116, 0x3fb504f3u, "sqrt.rn 2"},
        {120, 32, "clz 0"}, {124, 32, "popc"}, {128, 0xffffffffu, "bfind 0"}, {132, 0x4f800000u, "cvt.rn.f32.u32"},
        {136, 0x4f7fffffu, "cvt.rz.f32.u32"}, {140, 0xfffffffdu, "-7/2"}, {144, 0xffffffffu, "-7%2"},
        {148, 7, "shr by 0"}, {152, 0, "setp.ne NaN"}, {156, 1, "setp.neu NaN"}, {160, 0, "add.cc"},
        {164, 1, "addc"}, {168, 0, "div.s64 lo"}, {172, 0x80000000u, "div.s64 MIN/-1"},
        {176, 0xffffffffu, "shr.s64 by 64"}, {180, 0xffffffffu, "shr.s64 by 64 hi"}, {184, 0, "mul.wide lo"},
        {188, 0x40000000u, "mul.wide.s32"}, {192, 7, "mov pack lo"}, {196, 0x80000000u, "mov pack hi"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t got = out[cases[i].off / 4];
        CHECK(got == cases[i].want, "%s: got 0x%08x (%g) want 0x%08x", cases[i].what, got, u2f(got), cases[i].want);
    }
    unload_module(&m);
}

int main(void)
{
    snprintf(g_tmpdir, sizeof g_tmpdir, "/tmp/cb_codegen_run.XXXXXX");
    if (!mkdtemp(g_tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    static const char *const variants[] = {"", ".debug"};
    for (int v = 0; v < 2; v++) {
        char f[64];
        g_variant = v ? "-G" : "-O3";
        g_debug = v;
#define RUN(test, base)                                   \
        snprintf(f, sizeof f, "%s%s.ptx", base, variants[v]); \
        test(f);
        RUN(test_vecadd, "vecadd");
        RUN(test_index, "index3d");
        RUN(test_imath, "math");
        RUN(test_fmath, "math");
        RUN(test_atomics, "atomics");
        RUN(test_globals, "globals");
        RUN(test_calls, "calls");
        RUN(test_templates, "templates");
        RUN(test_half, "half_sm80");
#undef RUN
    }
    g_variant = "edge";
    test_edge();
    g_variant = "fnptr";
    test_fnptr();
    if (!getenv("CB_TEST_KEEP")) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "rm -rf %s", g_tmpdir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", g_tmpdir);
    }
    if (failures)
        fprintf(stderr, "test_codegen_run: %d failures\n", failures);
    else
        printf("test_codegen_run: ok\n");
    return failures != 0;
}
