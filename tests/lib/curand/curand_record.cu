// curand_record: records cuRAND's output (host API and device API) into compact
// binary files plus a text index, so that cubridge's libcurand and the device API
// running through cubridge can be compared bit for bit with NVIDIA's.
//
//   nvcc -O2 -o curand_record curand_record.cu -lcurand
//   curand_record OUTDIR            device generators (curandCreateGenerator) + device API
//   curand_record --host OUTDIR     host generators (curandCreateGeneratorHost) only
//   curand_record --no-kernels OUTDIR   device generators, without the device-API recording
// Built with -DCURAND_RECORD_HOST_ONLY the program holds no kernels at all (only
// the host API is recorded): the form the facade's end-to-end test runs.
//
// Files written into OUTDIR:
//   curand_<tag>.idx   one line per record, "key=value" fields (see below)
//   curand_<tag>.bin   the values, little-endian, in the order of the index
// where <tag> is "dev" for device generators, "host" for host generators and "kapi"
// for the device API (curand_kernel.h) recording.
//
// Index records:
//   info   key=value facts (version, properties, table hashes)
//   case   name rng order seed offset dims host + the status of each setup call
//   call   case step fn a b method n status esize off segs
//          segs is a list start:count of the values stored (the whole output when
//          n <= full, else the first `head`, 16 scattered windows of 32 and the last 256)
//   hist   a Poisson histogram made by curandCreatePoissonDistribution
//   kapi   state cfg group threads per esize off
// The program prints one summary line per file to stdout and exits 0 when every
// CUDA call that must succeed succeeded.
#include <cuda_runtime.h>
#include <curand.h>
#ifndef CURAND_RECORD_HOST_ONLY
#include <curand_kernel.h>
#include <curand_mtgp32_host.h>
#include <curand_mtgp32dc_p_11213.h>
#else
#include <curand_discrete.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(2); } } while (0)

static FILE *g_bin, *g_idx;
static unsigned long long g_off;
static int g_host;            // 1: curandCreateGeneratorHost
static unsigned long long g_records;

static void open_out(const char *dir, const char *tag)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/curand_%s.bin", dir, tag);
    g_bin = fopen(p, "wb");
    snprintf(p, sizeof p, "%s/curand_%s.idx", dir, tag);
    g_idx = fopen(p, "w");
    if (!g_bin || !g_idx) { fprintf(stderr, "cannot write into %s\n", dir); exit(2); }
    g_off = 0;
    g_records = 0;
}

static void close_out(const char *tag)
{
    printf("curand_%s: %llu records, %llu bytes\n", tag, g_records, g_off);
    fclose(g_bin);
    fclose(g_idx);
}

static void put(const void *p, size_t bytes)
{
    if (bytes && fwrite(p, 1, bytes, g_bin) != bytes) { fprintf(stderr, "write failed\n"); exit(2); }
    g_off += bytes;
}

/* ---- host API ------------------------------------------------------------ */

enum Fn { RAW32, RAW64, UNIF, UNIFD, NORM, NORMD, LOGN, LOGND, POIS, POISM };
static const char *fn_name[] = { "raw32", "raw64", "unif", "unifd", "norm", "normd",
                                 "logn", "lognd", "pois", "poism" };
static const size_t fn_esize[] = { 4, 8, 4, 8, 4, 8, 4, 8, 4, 4 };

struct Call { Fn fn; size_t n; double a, b; int method; };

struct Case {
    const char *name;
    int rng;
    int order;                 // -1: not set
    int set_seed; unsigned long long seed;
    int set_offset; unsigned long long offset;
    int dims;                  // 0: not set
    size_t full;               // store whole outputs up to this many values
    size_t head;               // else the first head values, 16 windows of 32, the last 256
    std::vector<Call> calls;
};

static void segments(size_t n, size_t full, size_t head, std::vector<size_t> &st, std::vector<size_t> &ct)
{
    st.clear(); ct.clear();
    if (n <= full || n <= head + 16 * 32 + 256) { st.push_back(0); ct.push_back(n); return; }
    st.push_back(0); ct.push_back(head);
    size_t lo = head, hi = n - 256 - 32;
    for (int k = 0; k < 16; k++) {
        size_t p = lo + (size_t)((unsigned long long)(hi - lo) * (unsigned long long)(2 * k + 1) / 32);
        p += (size_t)((k * 37) % 61);
        if (p > hi) p = hi;
        if (p < st.back() + ct.back()) p = st.back() + ct.back();
        st.push_back(p); ct.push_back(32);
    }
    st.push_back(n - 256); ct.push_back(256);
}

static curandStatus_t do_call(curandGenerator_t g, const Call &c, void *out)
{
    switch (c.fn) {
    case RAW32: return curandGenerate(g, (unsigned *)out, c.n);
    case RAW64: return curandGenerateLongLong(g, (unsigned long long *)out, c.n);
    case UNIF: return curandGenerateUniform(g, (float *)out, c.n);
    case UNIFD: return curandGenerateUniformDouble(g, (double *)out, c.n);
    case NORM: return curandGenerateNormal(g, (float *)out, c.n, (float)c.a, (float)c.b);
    case NORMD: return curandGenerateNormalDouble(g, (double *)out, c.n, c.a, c.b);
    case LOGN: return curandGenerateLogNormal(g, (float *)out, c.n, (float)c.a, (float)c.b);
    case LOGND: return curandGenerateLogNormalDouble(g, (double *)out, c.n, c.a, c.b);
    case POIS: return curandGeneratePoisson(g, (unsigned *)out, c.n, c.a);
    case POISM: return curandGeneratePoissonMethod(g, (unsigned *)out, c.n, c.a, (curandMethod_t)c.method);
    }
    return CURAND_STATUS_INTERNAL_ERROR;
}

static void run_case(const Case &cs)
{
    curandGenerator_t g = 0;
    int st_create = g_host ? curandCreateGeneratorHost(&g, (curandRngType_t)cs.rng)
                           : curandCreateGenerator(&g, (curandRngType_t)cs.rng);
    int st_order = -1, st_seed = -1, st_offset = -1, st_dims = -1;
    if (st_create == 0) {
        if (cs.order >= 0) st_order = curandSetGeneratorOrdering(g, (curandOrdering_t)cs.order);
        if (cs.set_seed) st_seed = curandSetPseudoRandomGeneratorSeed(g, cs.seed);
        if (cs.set_offset) st_offset = curandSetGeneratorOffset(g, cs.offset);
        if (cs.dims) st_dims = curandSetQuasiRandomGeneratorDimensions(g, cs.dims);
    }
    fprintf(g_idx, "case name=%s rng=%d order=%d seed=%llu offset=%llu dims=%d host=%d "
            "create=%d order_st=%d seed_st=%d offset_st=%d dims_st=%d\n",
            cs.name, cs.rng, cs.order, cs.set_seed ? cs.seed : 0ull,
            cs.set_offset ? cs.offset : 0ull, cs.dims, g_host,
            st_create, st_order, st_seed, st_offset, st_dims);
    g_records++;
    for (size_t k = 0; k < cs.calls.size() && st_create == 0; k++) {
        const Call &c = cs.calls[k];
        size_t es = fn_esize[c.fn], bytes = c.n * es;
        void *d = 0;
        std::vector<unsigned char> h(bytes ? bytes : 1, 0xA5);
        if (g_host) {
            d = bytes ? malloc(bytes) : 0;
            if (bytes) memset(d, 0xA5, bytes);
        } else if (bytes) {
            CK(cudaMalloc(&d, bytes));
            CK(cudaMemset(d, 0xA5, bytes));
        }
        int st = do_call(g, c, d);
        if (!g_host) {
            int e = cudaDeviceSynchronize();
            if (!e && bytes) e = cudaMemcpy(h.data(), d, bytes, cudaMemcpyDeviceToHost);
            if (d) cudaFree(d);
            if (e) {   /* record it and go on with the next case */
                fprintf(g_idx, "call case=%s step=%zu fn=%s n=%zu status=%d cuda_error=%d\n",
                        cs.name, k, fn_name[c.fn], c.n, st, e);
                fflush(g_idx);
                cudaGetLastError();
                curandDestroyGenerator(g);
                return;
            }
        } else {
            if (bytes) memcpy(h.data(), d, bytes);
            free(d);
        }
        fprintf(g_idx, "call case=%s step=%zu fn=%s a=%.17g b=%.17g method=%d n=%zu status=%d esize=%zu off=%llu segs=",
                cs.name, k, fn_name[c.fn], c.a, c.b, c.method, c.n, st, es, g_off);
        if (st == 0) {
            std::vector<size_t> s, n;
            segments(c.n, cs.full, cs.head, s, n);
            for (size_t i = 0; i < s.size(); i++) {
                fprintf(g_idx, "%s%zu:%zu", i ? "," : "", s[i], n[i]);
                put(h.data() + s[i] * es, n[i] * es);
            }
        }
        fprintf(g_idx, "\n");
        fflush(g_idx);
        fflush(g_bin);
        g_records++;
    }
    if (st_create == 0) curandDestroyGenerator(g);
}

static Call C(Fn fn, size_t n, double a = 0, double b = 0, int method = 0)
{
    Call c; c.fn = fn; c.n = n; c.a = a; c.b = b; c.method = method; return c;
}

static Case K(const char *name, int rng, int order, size_t full = 8192, size_t head = 2048)
{
    Case c; c.name = strdup(name); c.rng = rng; c.order = order; c.set_seed = 0; c.seed = 0;
    c.set_offset = 0; c.offset = 0; c.dims = 0; c.full = full; c.head = head; return c;
}

static const int pseudo[] = { CURAND_RNG_PSEUDO_XORWOW, CURAND_RNG_PSEUDO_MRG32K3A,
                              CURAND_RNG_PSEUDO_MTGP32, CURAND_RNG_PSEUDO_MT19937,
                              CURAND_RNG_PSEUDO_PHILOX4_32_10 };
static const char *pseudo_name[] = { "xorwow", "mrg", "mtgp", "mt19937", "philox" };
static const int quasi[] = { CURAND_RNG_QUASI_SOBOL32, CURAND_RNG_QUASI_SCRAMBLED_SOBOL32,
                             CURAND_RNG_QUASI_SOBOL64, CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 };
static const char *quasi_name[] = { "sobol32", "ssobol32", "sobol64", "ssobol64" };
static const int orders[] = { CURAND_ORDERING_PSEUDO_BEST, CURAND_ORDERING_PSEUDO_DEFAULT,
                              CURAND_ORDERING_PSEUDO_SEEDED, CURAND_ORDERING_PSEUDO_LEGACY,
                              CURAND_ORDERING_PSEUDO_DYNAMIC, CURAND_ORDERING_QUASI_DEFAULT };

static void host_api_cases(std::vector<Case> &v)
{
    char nm[128];
    const double lambdas[] = { 0.5, 4, 20.5, 100, 1000, 5000, 100000 };
    for (int p = 0; p < 5; p++) {
        const char *pn = pseudo_name[p];
        int rng = pseudo[p];
        /* A: layout, every ordering mode; a big full run for the default one */
        for (int o = 0; o < 6; o++) {
            snprintf(nm, sizeof nm, "%s.order%d", pn, orders[o]);
            Case c = K(nm, rng, orders[o], o == 1 ? (1u << 17) : 8192);
            c.set_seed = 1; c.seed = 1234;
            c.calls.push_back(C(RAW32, o == 1 ? (1u << 17) : (1u << 20)));
            v.push_back(c);
        }
        /* B: sizes, fresh generator each */
        const size_t sizes[] = { 1, 3, 4, 4097, 100003, (1u << 20) + 1, (1u << 22) };
        for (size_t s : sizes) {
            snprintf(nm, sizeof nm, "%s.size%zu", pn, s);
            Case c = K(nm, rng, -1);
            c.set_seed = 1; c.seed = 1234;
            c.calls.push_back(C(RAW32, s));
            v.push_back(c);
        }
        /* C: seeds (no seed call at all, too) */
        const unsigned long long seeds[] = { 0, 1, 42, 0xFFFFFFFFull, 0x123456789ABCDEF0ull,
                                             0xFFFFFFFFFFFFFFFFull };
        snprintf(nm, sizeof nm, "%s.noseed", pn);
        { Case c = K(nm, rng, -1); c.calls.push_back(C(RAW32, 8192)); v.push_back(c); }
        for (int i = 0; i < 6; i++) {
            snprintf(nm, sizeof nm, "%s.seed%d", pn, i);
            Case c = K(nm, rng, -1);
            c.set_seed = 1; c.seed = seeds[i];
            c.calls.push_back(C(RAW32, i == 0 ? 100003 : 4096));
            v.push_back(c);
        }
        /* D: offsets */
        const unsigned long long offs[] = { 1, 7, 4096, 100000, (1ull << 32) + 5 };
        for (int i = 0; i < 5; i++) {
            snprintf(nm, sizeof nm, "%s.offset%d", pn, i);
            Case c = K(nm, rng, -1);
            c.set_seed = 1; c.seed = 1234; c.set_offset = 1; c.offset = offs[i];
            c.calls.push_back(C(RAW32, 4096));
            c.calls.push_back(C(NORM, 2048, 0, 1));
            v.push_back(c);
        }
        for (int o = 0; o < 5; o++) {   // offset under the other orderings
            if (orders[o] == CURAND_ORDERING_PSEUDO_DEFAULT) continue;
            snprintf(nm, sizeof nm, "%s.order%d.offset", pn, orders[o]);
            Case c = K(nm, rng, orders[o]);
            c.set_seed = 1; c.seed = 1234; c.set_offset = 1; c.offset = 4099;
            c.calls.push_back(C(RAW32, 100003));
            v.push_back(c);
        }
        /* E: chains of calls on one generator */
        snprintf(nm, sizeof nm, "%s.chain_raw", pn);
        { Case c = K(nm, rng, -1); c.set_seed = 1; c.seed = 1234;
          c.calls.push_back(C(RAW32, 3)); c.calls.push_back(C(RAW32, 4097));
          c.calls.push_back(C(RAW32, 100003)); c.calls.push_back(C(RAW32, 1));
          c.calls.push_back(C(RAW32, 8192)); v.push_back(c); }
        snprintf(nm, sizeof nm, "%s.chain_mixed", pn);
        { Case c = K(nm, rng, -1); c.set_seed = 1; c.seed = 1234;
          c.calls.push_back(C(UNIF, 4096)); c.calls.push_back(C(NORM, 4096, 0, 1));
          c.calls.push_back(C(RAW32, 4096)); c.calls.push_back(C(NORMD, 2050, 1, 2));
          c.calls.push_back(C(UNIFD, 4097)); c.calls.push_back(C(POIS, 4096, 4.0));
          c.calls.push_back(C(RAW32, 4096)); v.push_back(c); }
        snprintf(nm, sizeof nm, "%s.chain_big", pn);
        { Case c = K(nm, rng, -1); c.set_seed = 1; c.seed = 1234;
          c.calls.push_back(C(RAW32, 1u << 20)); c.calls.push_back(C(RAW32, 4096));
          v.push_back(c); }
        /* F: distributions, fresh generator each */
        const size_t dsz[] = { 4096, 4097, 100002 };
        for (size_t s : dsz) {
            struct { Fn fn; double a, b; const char *t; } ds[] = {
                { UNIF, 0, 0, "unif" }, { UNIFD, 0, 0, "unifd" },
                { NORM, 0, 1, "norm" }, { NORM, 2.5, 0.75, "norm2" },
                { NORMD, 0, 1, "normd" }, { NORMD, -1.5, 3.25, "normd2" },
                { LOGN, 0, 1, "logn" }, { LOGN, 0.5, 0.25, "logn2" },
                { LOGND, 0, 1, "lognd" }, { LOGND, 0.5, 0.25, "lognd2" } };
            for (auto &d : ds) {
                snprintf(nm, sizeof nm, "%s.%s.%zu", pn, d.t, s);
                Case c = K(nm, rng, -1, 4096, s == 4097 ? 256 : 1024);
                c.set_seed = 1; c.seed = 1234;
                c.calls.push_back(C(d.fn, s, d.a, d.b));
                v.push_back(c);
            }
            for (int i = 0; i < 7; i++) {
                snprintf(nm, sizeof nm, "%s.pois%g.%zu", pn, lambdas[i], s);
                Case c = K(nm, rng, -1, 4096, s == 4097 ? 256 : 1024);
                c.set_seed = 1; c.seed = 1234;
                c.calls.push_back(C(POIS, s, lambdas[i]));
                v.push_back(c);
            }
        }
        /* distributions under the other orderings */
        for (int o = 0; o < 5; o++) {
            snprintf(nm, sizeof nm, "%s.order%d.dists", pn, orders[o]);
            Case c = K(nm, rng, orders[o], 8192, 1024);
            c.set_seed = 1; c.seed = 1234;
            c.calls.push_back(C(UNIF, 100002)); c.calls.push_back(C(NORM, 100002, 0, 1));
            c.calls.push_back(C(NORMD, 100002, 0, 1)); c.calls.push_back(C(POIS, 100002, 20.5));
            v.push_back(c);
        }
        /* invalid: 64-bit raw from a 32-bit generator, bad Poisson lambdas */
        snprintf(nm, sizeof nm, "%s.invalid", pn);
        { Case c = K(nm, rng, -1); c.set_seed = 1; c.seed = 1234;
          c.calls.push_back(C(RAW64, 16)); c.calls.push_back(C(POIS, 16, 0.0));
          c.calls.push_back(C(POIS, 16, -1.0)); c.calls.push_back(C(NORM, 1, 0, 1));
          c.calls.push_back(C(NORMD, 3, 0, 1)); c.calls.push_back(C(LOGN, 5, 0, 1));
          c.calls.push_back(C(LOGND, 7, 0, 1)); c.calls.push_back(C(RAW32, 0));
          c.calls.push_back(C(UNIF, 0)); c.calls.push_back(C(RAW32, 16));
          v.push_back(c); }
        snprintf(nm, sizeof nm, "%s.dims", pn);
        { Case c = K(nm, rng, -1); c.dims = 2; c.calls.push_back(C(RAW32, 16)); v.push_back(c); }
    }
    /* quasi generators */
    for (int q = 0; q < 4; q++) {
        const char *qn = quasi_name[q];
        int rng = quasi[q];
        int is64 = q >= 2;
        Fn raw = is64 ? RAW64 : RAW32;
        for (int o = 0; o < 6; o++) {
            snprintf(nm, sizeof nm, "%s.order%d", qn, orders[o]);
            Case c = K(nm, rng, orders[o]);
            c.dims = 3;
            c.calls.push_back(C(raw, 3 * 1024));
            v.push_back(c);
        }
        const int dims[] = { 1, 2, 3, 5, 100, 1000, 20000 };
        for (int d : dims) {
            size_t per = d >= 1000 ? 3 : (d >= 100 ? 100 : 4096);
            snprintf(nm, sizeof nm, "%s.dims%d", qn, d);
            Case c = K(nm, rng, -1, 1u << 15);
            c.dims = d;
            c.calls.push_back(C(raw, d * per));
            v.push_back(c);
        }
        { snprintf(nm, sizeof nm, "%s.dims1.big", qn);
          Case c = K(nm, rng, -1); c.dims = 1; c.calls.push_back(C(raw, 1u << 20)); v.push_back(c); }
        { snprintf(nm, sizeof nm, "%s.nodims", qn);
          Case c = K(nm, rng, -1); c.calls.push_back(C(raw, 8192)); v.push_back(c); }
        for (int d : { 0, 20001 }) {
            snprintf(nm, sizeof nm, "%s.baddims%d", qn, d);
            Case c = K(nm, rng, -1); c.dims = d ? d : -1;
            c.calls.push_back(C(raw, 16)); v.push_back(c);
        }
        const unsigned long long offs[] = { 1, 5, 1000, 4097 };
        for (int i = 0; i < 4; i++) {
            snprintf(nm, sizeof nm, "%s.offset%d", qn, i);
            Case c = K(nm, rng, -1);
            c.dims = 3; c.set_offset = 1; c.offset = offs[i];
            c.calls.push_back(C(raw, 3 * 1024));
            c.calls.push_back(C(UNIF, 3 * 100));
            v.push_back(c);
        }
        { snprintf(nm, sizeof nm, "%s.offset_dims1", qn);
          Case c = K(nm, rng, -1); c.dims = 1; c.set_offset = 1; c.offset = 12345;
          c.calls.push_back(C(raw, 4096)); v.push_back(c); }
        { snprintf(nm, sizeof nm, "%s.chain", qn);
          Case c = K(nm, rng, -1); c.dims = 3;
          c.calls.push_back(C(raw, 3 * 5)); c.calls.push_back(C(raw, 3 * 1000));
          c.calls.push_back(C(UNIF, 3 * 7)); c.calls.push_back(C(NORM, 3 * 64, 0, 1));
          c.calls.push_back(C(raw, 3 * 100)); v.push_back(c); }
        { snprintf(nm, sizeof nm, "%s.seed", qn);
          Case c = K(nm, rng, -1); c.dims = 2; c.set_seed = 1; c.seed = 77;
          c.calls.push_back(C(raw, 64)); v.push_back(c); }
        for (int d : { 1, 3, 100 }) {
            size_t n = d == 100 ? 100 * 32 : d == 3 ? 3 * 1024 : 2048;
            struct { Fn fn; double a, b; const char *t; } ds[] = {
                { UNIF, 0, 0, "unif" }, { UNIFD, 0, 0, "unifd" },
                { NORM, 0, 1, "norm" }, { NORM, 2.5, 0.75, "norm2" },
                { NORMD, 0, 1, "normd" }, { NORMD, -1.5, 3.25, "normd2" },
                { LOGN, 0.5, 0.25, "logn" }, { LOGND, 0.5, 0.25, "lognd" },
                { POIS, 4, 0, "pois4" }, { POIS, 100, 0, "pois100" },
                { POIS, 5000, 0, "pois5000" }, { RAW32, 0, 0, "raw32" }, { RAW64, 0, 0, "raw64" } };
            for (auto &x : ds) {
                snprintf(nm, sizeof nm, "%s.d%d.%s", qn, d, x.t);
                Case c = K(nm, rng, -1, 1u << 16);
                c.dims = d;
                c.calls.push_back(C(x.fn, n, x.a, x.b));
                v.push_back(c);
            }
        }
        { snprintf(nm, sizeof nm, "%s.notmultiple", qn);
          Case c = K(nm, rng, -1); c.dims = 3;
          c.calls.push_back(C(raw, 3 * 10 + 1)); c.calls.push_back(C(UNIF, 4));
          c.calls.push_back(C(NORM, 5, 0, 1)); c.calls.push_back(C(raw, 3));
          v.push_back(c); }
    }
    /* last: the internal Poisson methods and the test/bad types (they could upset the context) */
    /* Poisson methods (internal entry point), XORWOW */
    for (int m = 0; m <= 13; m++)
        for (double l : { 4.0, 100.0, 3000.0 }) {
            snprintf(nm, sizeof nm, "xorwow.poism%d.%g", m, l);
            Case c = K(nm, CURAND_RNG_PSEUDO_XORWOW, -1);
            c.set_seed = 1; c.seed = 1234;
            c.calls.push_back(C(POISM, 4096, l, 0, m));
            v.push_back(c);
        }
    /* PSEUDO_DEFAULT and QUASI_DEFAULT, invalid types */
    { Case c = K("pseudo_default", CURAND_RNG_PSEUDO_DEFAULT, -1); c.set_seed = 1; c.seed = 1234;
      c.calls.push_back(C(RAW32, 8192)); v.push_back(c); }
    { Case c = K("quasi_default", CURAND_RNG_QUASI_DEFAULT, -1); c.dims = 3;
      c.calls.push_back(C(RAW32, 3 * 4096)); v.push_back(c); }
    { Case c = K("rng_test", CURAND_RNG_TEST, -1); c.calls.push_back(C(RAW32, 16)); v.push_back(c); }
    { Case c = K("rng_bad", 999, -1); c.calls.push_back(C(RAW32, 16)); v.push_back(c); }

}

static unsigned long long fnv(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    unsigned long long h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
    return h;
}

static void info_records(void)
{
    int ver = 0, a = -1, b = -1, c = -1;
    curandGetVersion(&ver);
    curandGetProperty(MAJOR_VERSION, &a);
    curandGetProperty(MINOR_VERSION, &b);
    curandGetProperty(PATCH_LEVEL, &c);
    int bad = 12345, st_bad = curandGetProperty((libraryPropertyType)7, &bad);
    fprintf(g_idx, "info version=%d major=%d minor=%d patch=%d badprop_st=%d\n", ver, a, b, c, st_bad);
    for (int set = 101; set <= 104; set++) {
        int st;
        unsigned long long h = 0;
        if (set == 101 || set == 102) {
            curandDirectionVectors32_t *dv = 0;
            st = curandGetDirectionVectors32(&dv, (curandDirectionVectorSet_t)set);
            if (st == 0) h = fnv(dv, 20000 * sizeof(curandDirectionVectors32_t));
        } else {
            curandDirectionVectors64_t *dv = 0;
            st = curandGetDirectionVectors64(&dv, (curandDirectionVectorSet_t)set);
            if (st == 0) h = fnv(dv, 20000 * sizeof(curandDirectionVectors64_t));
        }
        fprintf(g_idx, "info dirvec set=%d status=%d fnv=%016llx\n", set, st, h);
    }
    {
        curandDirectionVectors32_t *dv = 0;
        int st = curandGetDirectionVectors32(&dv, (curandDirectionVectorSet_t)103);
        fprintf(g_idx, "info dirvec32_wrongset status=%d\n", st);
        unsigned *sc = 0;
        st = curandGetScrambleConstants32(&sc);
        fprintf(g_idx, "info scramble32 status=%d fnv=%016llx\n", st, st ? 0ull : fnv(sc, 20000 * 4));
        unsigned long long *sc64 = 0;
        st = curandGetScrambleConstants64(&sc64);
        fprintf(g_idx, "info scramble64 status=%d fnv=%016llx\n", st, st ? 0ull : fnv(sc64, 20000 * 8));
    }
    g_records += 7;
    /* curandGenerateSeeds, curandSetStream on each type */
    for (int p = 0; p < 5; p++) {
        curandGenerator_t g;
        int st0 = g_host ? curandCreateGeneratorHost(&g, (curandRngType_t)pseudo[p])
                         : curandCreateGenerator(&g, (curandRngType_t)pseudo[p]);
        int st1 = st0 ? -1 : curandGenerateSeeds(g);
        int st2 = st0 ? -1 : curandSetStream(g, 0);
        int st3 = st0 ? -1 : curandSetQuasiRandomGeneratorDimensions(g, 4);
        fprintf(g_idx, "info misc rng=%d create=%d seeds_st=%d stream_st=%d dims_st=%d\n",
                pseudo[p], st0, st1, st2, st3);
        g_records++;
        if (!st0) curandDestroyGenerator(g);
    }
}

/* Poisson histograms: the structures behind curandDiscreteDistribution_t */
static void hist_records(void)
{
    const double ls[] = { 0.5, 4, 20.5, 100, 1000, 2000, 2001, 5000, 0, -3 };
    for (double l : ls) {
        curandDiscreteDistribution_t dd = 0;
        int st = curandCreatePoissonDistribution(l, &dd);
        fprintf(g_idx, "hist lambda=%.17g status=%d", l, st);
        if (st == 0) {
            curandDiscreteDistribution_st s;
            curandDistributionM2Shift_st m2;
            curandHistogramM2_st hg;
            int e = cudaMemcpy(&s, dd, sizeof s, cudaMemcpyDefault);
            if (!e) fprintf(g_idx, " method=%d mean=%.17g stddev=%.17g", (int)s.method, s.mean, s.stddev);
            if (!e && s.method == CURAND_M2 && s.M2) {
                e = cudaMemcpy(&m2, s.M2, sizeof m2, cudaMemcpyDefault);
                if (!e) e = cudaMemcpy(&hg, m2.histogram, sizeof hg, cudaMemcpyDefault);
                if (!e && m2.length < (1u << 24)) {
                    std::vector<double> V(m2.length);
                    std::vector<unsigned> Kk(m2.length);
                    e = cudaMemcpy(V.data(), hg.V, m2.length * sizeof(double), cudaMemcpyDefault);
                    if (!e) e = cudaMemcpy(Kk.data(), hg.K, m2.length * sizeof(unsigned), cudaMemcpyDefault);
                    if (!e) {
                        fprintf(g_idx, " shift=%u length=%u off=%llu", m2.shift, m2.length, g_off);
                        put(V.data(), V.size() * 8);
                        put(Kk.data(), Kk.size() * 4);
                    }
                }
            }
            if (e) { fprintf(g_idx, " copy_error=%d", e); cudaGetLastError(); }
            curandDestroyDistribution(dd);
        }
        fprintf(g_idx, "\n");
        g_records++;
    }
}

#ifndef CURAND_RECORD_HOST_ONLY
/* ---- device API (curand_kernel.h) ---------------------------------------- */

#define KT 64   /* threads per recording */

struct Cfg { unsigned long long seed, smul, sadd, omul, oadd; };
static const Cfg cfgs[] = {
    { 1234ull, 1, 0, 0, 0 },
    { 1234ull, 0, 0, 5, 0 },
    { 0ull, 1000, 3, 0, 17 },
    { 0x0123456789ABCDEFull, 1, 1ull << 40, 0, 0 },
    { 0xFFFFFFFFFFFFFFFFull, 7, 0, 1000003, 1ull << 33 },
};
#define NCFG (int)(sizeof cfgs / sizeof cfgs[0])

enum G { G_RAW, G_UNIF, G_NORM, G_NORM_MIX, G_NORM2, G_UNIFD, G_NORMD, G_NORM2D, G_LOGN, G_LOGND,
         G_POIS, G_SKIP, G_SKIPSEQ, G_RAW4, G_UNIF4, G_NORM4, G_UNIF2D, G_NORM4D, G_POIS4, G_DISC,
         G_NUM };
static const char *gname[] = { "raw", "unif", "norm", "norm_mix", "norm2", "unifd", "normd",
    "norm2d", "logn", "lognd", "pois", "skip", "skipseq", "raw4", "unif4", "norm4", "unif2d",
    "norm4d", "pois4", "disc" };
/* values per thread and bytes per value */
static const int gper[] = { 16, 8, 8, 5, 8, 4, 4, 4, 4, 4, 8, 8, 8, 8, 8, 8, 4, 4, 8, 8 };
static const int gsize[] = { 4, 4, 4, 4, 4, 8, 8, 8, 4, 8, 4, 4, 4, 4, 4, 4, 8, 8, 4, 4 };

template <class S>
__device__ void pseudo_init(S *s, Cfg c, unsigned t)
{
    curand_init(c.seed, c.smul * t + c.sadd, c.omul * t + c.oadd, s);
}

template <class S>
__device__ bool common_group(S *s, int g, double lam, unsigned char *o, curandDiscreteDistribution_t dd)
{
    unsigned *u = (unsigned *)o; float *f = (float *)o; double *d = (double *)o;
    switch (g) {
    case G_RAW: for (int i = 0; i < 16; i++) u[i] = curand(s); return true;
    case G_UNIF: for (int i = 0; i < 8; i++) f[i] = curand_uniform(s); return true;
    case G_NORM: for (int i = 0; i < 8; i++) f[i] = curand_normal(s); return true;
    case G_UNIFD: for (int i = 0; i < 4; i++) d[i] = curand_uniform_double(s); return true;
    case G_NORMD: for (int i = 0; i < 4; i++) d[i] = curand_normal_double(s); return true;
    case G_LOGN: for (int i = 0; i < 4; i++) f[i] = curand_log_normal(s, 0.5f, 0.25f); return true;
    case G_LOGND: for (int i = 0; i < 4; i++) d[i] = curand_log_normal_double(s, 0.5, 0.25); return true;
    case G_POIS: for (int i = 0; i < 8; i++) u[i] = curand_poisson(s, lam); return true;
    case G_DISC: for (int i = 0; i < 8; i++) u[i] = curand_discrete(s, dd); return true;
    }
    return false;
}

template <class S>
__device__ bool box_muller_group(S *s, int g, unsigned char *o)
{
    unsigned *u = (unsigned *)o; float *f = (float *)o; double *d = (double *)o;
    switch (g) {
    case G_NORM_MIX:
        f[0] = curand_normal(s); u[1] = curand(s); u[2] = curand(s);
        f[3] = curand_normal(s); f[4] = curand_normal(s); return true;
    case G_NORM2: for (int i = 0; i < 4; i++) { float2 v = curand_normal2(s); f[2 * i] = v.x; f[2 * i + 1] = v.y; } return true;
    case G_NORM2D: for (int i = 0; i < 2; i++) { double2 v = curand_normal2_double(s); d[2 * i] = v.x; d[2 * i + 1] = v.y; } return true;
    }
    return false;
}

template <class S>
__device__ bool skip_group(S *s, int g, unsigned char *o)
{
    unsigned *u = (unsigned *)o;
    switch (g) {
    case G_SKIP:
        for (int i = 0; i < 4; i++) u[i] = curand(s);
        skipahead(1000ull, s);
        for (int i = 4; i < 8; i++) u[i] = curand(s); return true;
    case G_SKIPSEQ:
        for (int i = 0; i < 4; i++) u[i] = curand(s);
        skipahead_sequence(3ull, s);
        for (int i = 4; i < 8; i++) u[i] = curand(s); return true;
    }
    return false;
}

__device__ bool philox_group(curandStatePhilox4_32_10_t *s, int g, double lam, unsigned char *o)
{
    unsigned *u = (unsigned *)o; float *f = (float *)o; double *d = (double *)o;
    switch (g) {
    case G_RAW4: for (int i = 0; i < 2; i++) { uint4 v = curand4(s); u[4*i] = v.x; u[4*i+1] = v.y; u[4*i+2] = v.z; u[4*i+3] = v.w; } return true;
    case G_UNIF4: for (int i = 0; i < 2; i++) { float4 v = curand_uniform4(s); f[4*i] = v.x; f[4*i+1] = v.y; f[4*i+2] = v.z; f[4*i+3] = v.w; } return true;
    case G_NORM4: for (int i = 0; i < 2; i++) { float4 v = curand_normal4(s); f[4*i] = v.x; f[4*i+1] = v.y; f[4*i+2] = v.z; f[4*i+3] = v.w; } return true;
    case G_UNIF2D: for (int i = 0; i < 2; i++) { double2 v = curand_uniform2_double(s); d[2*i] = v.x; d[2*i+1] = v.y; } return true;
    case G_NORM4D: { double4 v = curand_normal4_double(s); d[0] = v.x; d[1] = v.y; d[2] = v.z; d[3] = v.w; return true; }
    case G_POIS4: for (int i = 0; i < 2; i++) { uint4 v = curand_poisson4(s, lam); u[4*i] = v.x; u[4*i+1] = v.y; u[4*i+2] = v.z; u[4*i+3] = v.w; } return true;
    }
    return false;
}

template <class S>
__global__ void k_pseudo(int kind, Cfg c, int g, double lam, unsigned char *out, int stride,
                         curandDiscreteDistribution_t dd, int *ok)
{
    unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
    S s;
    pseudo_init(&s, c, t);
    unsigned char *o = out + (size_t)t * stride;
    bool done = common_group(&s, g, lam, o, dd) || box_muller_group(&s, g, o) || skip_group(&s, g, o);
    if (!done) ok[t] = 0;
}

__global__ void k_philox(Cfg c, int g, double lam, unsigned char *out, int stride, int *ok)
{
    unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
    curandStatePhilox4_32_10_t s;
    pseudo_init(&s, c, t);
    unsigned char *o = out + (size_t)t * stride;
    bool done = philox_group(&s, g, lam, o);
    if (!done) ok[t] = 0;
}

/* Sobol: dimension = thread, offset from the cfg */
template <class S, class DV>
__device__ void sobol_init(S *s, DV *dv, void *sc, unsigned long long off, unsigned t);

template <> __device__ void sobol_init(curandStateSobol32_t *s, curandDirectionVectors32_t *dv, void *, unsigned long long off, unsigned t)
{ curand_init(dv[t], (unsigned)off, s); }
template <> __device__ void sobol_init(curandStateScrambledSobol32_t *s, curandDirectionVectors32_t *dv, void *sc, unsigned long long off, unsigned t)
{ curand_init(dv[t], ((unsigned *)sc)[t], (unsigned)off, s); }
template <> __device__ void sobol_init(curandStateSobol64_t *s, curandDirectionVectors64_t *dv, void *, unsigned long long off, unsigned t)
{ curand_init(dv[t], off, s); }
template <> __device__ void sobol_init(curandStateScrambledSobol64_t *s, curandDirectionVectors64_t *dv, void *sc, unsigned long long off, unsigned t)
{ curand_init(dv[t], ((unsigned long long *)sc)[t], off, s); }

template <class S, class DV>
__global__ void k_sobol(DV *dv, void *sc, unsigned long long omul, unsigned long long oadd, int g,
                        double lam, unsigned char *out, int stride, int is64,
                        curandDiscreteDistribution_t dd, int *ok)
{
    unsigned t = threadIdx.x;
    S s;
    sobol_init(&s, dv, sc, omul * t + oadd, t);
    unsigned char *o = out + (size_t)t * stride;
    bool done;
    if (g == G_RAW && is64) {
        unsigned long long *q = (unsigned long long *)o;
        for (int i = 0; i < 8; i++) q[i] = curand(&s);
        done = true;
    } else if (g == G_RAW || g == G_SKIP) {
        unsigned *u = (unsigned *)o;
        if (g == G_RAW) for (int i = 0; i < 16; i++) u[i] = (unsigned)curand(&s);
        else {
            for (int i = 0; i < 4; i++) u[i] = (unsigned)curand(&s);
            skipahead(100u, &s);
            for (int i = 4; i < 8; i++) u[i] = (unsigned)curand(&s);
        }
        done = true;
    } else {
        done = common_group(&s, g, lam, o, dd);
    }
    if (!done) ok[t] = 0;
}

/* MTGP32: one state per block, every thread of the block draws */
__global__ void k_mtgp(curandStateMtgp32_t *st, int g, unsigned char *out, int per)
{
    unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
    curandStateMtgp32_t *s = &st[blockIdx.x];
    unsigned *u = (unsigned *)(out + (size_t)t * per * 4);
    float *f = (float *)u;
    for (int i = 0; i < per; i++) {
        if (g == 0) u[i] = curand(s);
        else if (g == 1) f[i] = curand_uniform(s);
        else f[i] = curand_normal(s);
    }
}

static void kapi_put(const char *state, int cfg, const char *group, double lam, int threads, int per,
                     int esize, const void *p)
{
    fprintf(g_idx, "kapi state=%s cfg=%d group=%s lambda=%.17g threads=%d per=%d esize=%d off=%llu\n",
            state, cfg, group, lam, threads, per, esize, g_off);
    put(p, (size_t)threads * per * esize);
    fflush(g_idx);
    fflush(g_bin);
    g_records++;
}

static const double klams[] = { 0.5, 4, 20.5, 63.9, 64.1, 100, 1000, 5000 };

static void device_api(void)
{
    unsigned char *d_out;
    int *d_ok;
    const int stride = 128;
    std::vector<unsigned char> h(KT * stride);
    std::vector<int> ok(KT);
    CK(cudaMalloc(&d_out, KT * stride));
    CK(cudaMalloc(&d_ok, KT * sizeof(int)));
    curandDiscreteDistribution_t dds[4];
    const double dl[4] = { 0.5, 4, 100, 3000 };
    for (int i = 0; i < 4; i++)
        if (curandCreatePoissonDistribution(dl[i], &dds[i]) != 0) { fprintf(stderr, "poisson dist\n"); exit(2); }

    const char *pn[] = { "xorwow", "mrg", "philox" };
    for (int p = 0; p < 3; p++)
        for (int c = 0; c < NCFG; c++)
            for (int g = 0; g < G_NUM; g++) {
                int nl = g == G_POIS || g == G_POIS4 ? 8 : g == G_DISC ? 4 : 1;
                for (int li = 0; li < nl; li++) {
                    double lam = g == G_DISC ? dl[li] : klams[li];
                    curandDiscreteDistribution_t dd = g == G_DISC ? dds[li] : 0;
                    if (p < 2 && g >= G_RAW4 && g <= G_POIS4) continue;
                    CK(cudaMemset(d_out, 0, KT * stride));
                    std::fill(ok.begin(), ok.end(), 1);
                    CK(cudaMemcpy(d_ok, ok.data(), KT * sizeof(int), cudaMemcpyHostToDevice));
                    if (p == 0) k_pseudo<curandStateXORWOW_t><<<1, KT>>>(0, cfgs[c], g, lam, d_out, stride, dd, d_ok);
                    else if (p == 1) k_pseudo<curandStateMRG32k3a_t><<<1, KT>>>(0, cfgs[c], g, lam, d_out, stride, dd, d_ok);
                    else if (g >= G_RAW4 && g <= G_POIS4) k_philox<<<1, KT>>>(cfgs[c], g, lam, d_out, stride, d_ok);
                    else k_pseudo<curandStatePhilox4_32_10_t><<<1, KT>>>(0, cfgs[c], g, lam, d_out, stride, dd, d_ok);
                    CK(cudaGetLastError());
                    CK(cudaDeviceSynchronize());
                    CK(cudaMemcpy(h.data(), d_out, KT * stride, cudaMemcpyDeviceToHost));
                    CK(cudaMemcpy(ok.data(), d_ok, KT * sizeof(int), cudaMemcpyDeviceToHost));
                    if (!ok[0]) continue;
                    std::vector<unsigned char> packed(KT * gper[g] * gsize[g]);
                    for (int t = 0; t < KT; t++)
                        memcpy(&packed[t * gper[g] * gsize[g]], &h[t * stride], gper[g] * gsize[g]);
                    kapi_put(pn[p], c, gname[g], lam, KT, gper[g], gsize[g], packed.data());
                }
            }

    /* Sobol states */
    curandDirectionVectors32_t *dv32, *sdv32;
    curandDirectionVectors64_t *dv64, *sdv64;
    unsigned *sc32;
    unsigned long long *sc64;
    if (curandGetDirectionVectors32(&dv32, CURAND_DIRECTION_VECTORS_32_JOEKUO6) ||
        curandGetDirectionVectors32(&sdv32, CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6) ||
        curandGetDirectionVectors64(&dv64, CURAND_DIRECTION_VECTORS_64_JOEKUO6) ||
        curandGetDirectionVectors64(&sdv64, CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6) ||
        curandGetScrambleConstants32(&sc32) || curandGetScrambleConstants64(&sc64)) {
        fprintf(stderr, "direction vectors\n");
        exit(2);
    }
    void *d_dv32, *d_sdv32, *d_dv64, *d_sdv64, *d_sc32, *d_sc64;
    CK(cudaMalloc(&d_dv32, KT * sizeof(curandDirectionVectors32_t)));
    CK(cudaMalloc(&d_sdv32, KT * sizeof(curandDirectionVectors32_t)));
    CK(cudaMalloc(&d_dv64, KT * sizeof(curandDirectionVectors64_t)));
    CK(cudaMalloc(&d_sdv64, KT * sizeof(curandDirectionVectors64_t)));
    CK(cudaMalloc(&d_sc32, KT * 4));
    CK(cudaMalloc(&d_sc64, KT * 8));
    CK(cudaMemcpy(d_dv32, dv32, KT * sizeof(curandDirectionVectors32_t), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_sdv32, sdv32, KT * sizeof(curandDirectionVectors32_t), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_dv64, dv64, KT * sizeof(curandDirectionVectors64_t), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_sdv64, sdv64, KT * sizeof(curandDirectionVectors64_t), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_sc32, sc32, KT * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_sc64, sc64, KT * 8, cudaMemcpyHostToDevice));
    const unsigned long long soffs[4][2] = { { 0, 0 }, { 0, 5 }, { 3, 0 }, { 0, 1000000 } };
    const char *sn[] = { "sobol32", "ssobol32", "sobol64", "ssobol64" };
    const int sg[] = { G_RAW, G_UNIF, G_NORM, G_UNIFD, G_NORMD, G_LOGN, G_LOGND, G_POIS, G_SKIP, G_DISC };
    for (int q = 0; q < 4; q++)
        for (int c = 0; c < 4; c++)
            for (int g : sg) {
                int nl = g == G_POIS ? 3 : g == G_DISC ? 2 : 1;
                for (int li = 0; li < nl; li++) {
                    double lam = g == G_POIS ? (li == 0 ? 4.0 : li == 1 ? 100.0 : 5000.0) : (li ? 3000.0 : 4.0);
                    curandDiscreteDistribution_t dd = g == G_DISC ? dds[li ? 3 : 1] : 0;
                    CK(cudaMemset(d_out, 0, KT * stride));
                    int per = gper[g], es = gsize[g];
                    if (g == G_RAW && q >= 2) { per = 8; es = 8; }
                    unsigned long long om = soffs[c][0], oa = soffs[c][1];
                    if (q == 0) k_sobol<curandStateSobol32_t, curandDirectionVectors32_t><<<1, KT>>>((curandDirectionVectors32_t *)d_dv32, 0, om, oa, g, lam, d_out, stride, 0, dd, d_ok);
                    if (q == 1) k_sobol<curandStateScrambledSobol32_t, curandDirectionVectors32_t><<<1, KT>>>((curandDirectionVectors32_t *)d_sdv32, d_sc32, om, oa, g, lam, d_out, stride, 0, dd, d_ok);
                    if (q == 2) k_sobol<curandStateSobol64_t, curandDirectionVectors64_t><<<1, KT>>>((curandDirectionVectors64_t *)d_dv64, 0, om, oa, g, lam, d_out, stride, 1, dd, d_ok);
                    if (q == 3) k_sobol<curandStateScrambledSobol64_t, curandDirectionVectors64_t><<<1, KT>>>((curandDirectionVectors64_t *)d_sdv64, d_sc64, om, oa, g, lam, d_out, stride, 1, dd, d_ok);
                    CK(cudaGetLastError());
                    CK(cudaDeviceSynchronize());
                    CK(cudaMemcpy(h.data(), d_out, KT * stride, cudaMemcpyDeviceToHost));
                    std::vector<unsigned char> packed(KT * per * es);
                    for (int t = 0; t < KT; t++)
                        memcpy(&packed[t * per * es], &h[t * stride], per * es);
                    kapi_put(sn[q], c, gname[g], lam, KT, per, es, packed.data());
                }
            }

    /* MTGP32 */
    for (unsigned long long seed : { 1234ull, 0ull })
        for (int bs : { 256, 64 }) {
            const int nb = 4, per = 4;
            curandStateMtgp32_t *d_st;
            mtgp32_kernel_params *d_kp;
            CK(cudaMalloc(&d_st, nb * sizeof(curandStateMtgp32_t)));
            CK(cudaMalloc(&d_kp, sizeof(mtgp32_kernel_params)));
            if (curandMakeMTGP32Constants(mtgp32dc_params_fast_11213, d_kp) ||
                curandMakeMTGP32KernelState(d_st, mtgp32dc_params_fast_11213, d_kp, nb, seed)) {
                fprintf(stderr, "mtgp32 state\n");
                exit(2);
            }
            unsigned char *d_m;
            size_t bytes = (size_t)nb * bs * per * 4;
            CK(cudaMalloc(&d_m, bytes));
            std::vector<unsigned char> hm(bytes);
            for (int g = 0; g < 3; g++) {
                k_mtgp<<<nb, bs>>>(d_st, g, d_m, per);   /* groups continue the same states */
                CK(cudaGetLastError());
                CK(cudaDeviceSynchronize());
                CK(cudaMemcpy(hm.data(), d_m, bytes, cudaMemcpyDeviceToHost));
                char st[64];
                snprintf(st, sizeof st, "mtgp32.seed%llu.bs%d", seed, bs);
                kapi_put(st, 0, g == 0 ? "raw" : g == 1 ? "unif" : "norm", 0, nb * bs, per, 4, hm.data());
            }
            CK(cudaFree(d_m));
            CK(cudaFree(d_st));
            CK(cudaFree(d_kp));
        }
    for (int i = 0; i < 4; i++) curandDestroyDistribution(dds[i]);
    CK(cudaFree(d_out));
    CK(cudaFree(d_ok));
}

#endif

int main(int argc, char **argv)
{
    int a = 1, kernels = 1;
    for (; a < argc && argv[a][0] == '-'; a++) {
        if (!strcmp(argv[a], "--host")) g_host = 1;
        else if (!strcmp(argv[a], "--no-kernels")) kernels = 0;
        else { fprintf(stderr, "unknown option %s\n", argv[a]); return 2; }
    }
    const char *dir = a < argc ? argv[a] : getenv("OUT");
    if (!dir) { fprintf(stderr, "usage: curand_record [--host] OUTDIR\n"); return 2; }
    if (!g_host) {
        int n = 0;
        CK(cudaGetDeviceCount(&n));
        cudaDeviceProp p;
        CK(cudaGetDeviceProperties(&p, 0));
        fprintf(stderr, "device: %s (sm_%d%d)\n", p.name, p.major, p.minor);
    }
    std::vector<Case> cases;
    host_api_cases(cases);
    const char *tag = g_host ? "host" : "dev";
    if (!g_host && kernels) {  /* first, so that a failing host-API case cannot spoil it */
#ifndef CURAND_RECORD_HOST_ONLY
        open_out(dir, "kapi");
        device_api();
        close_out("kapi");
#endif
    }
    open_out(dir, tag);
    info_records();
    if (!g_host) hist_records();
    for (const Case &c : cases) run_case(c);
    close_out(tag);
    return 0;
}
