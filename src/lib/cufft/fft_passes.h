/* fft_passes.h: the Stockham passes of fft_core.c for one real type.
 *
 * Included twice by fft_core.c, with FFT_REAL (float or double) and FFT_NAME(x)
 * (x ## _f or x ## _d) defined. Complex numbers are interleaved (re, im).
 *
 * One pass of radix R with Ns the product of the radices before it (N points,
 * after Govindaraju et al., "High performance discrete Fourier transforms on
 * graphics processors", SC'08): for j in 0 .. N/R-1, with jlo = j mod Ns,
 *   v[r] = in[j + r N/R] * w^(r jlo),   w = exp(s 2 pi i / (Ns R))
 *   v = DFT_R(v) (sign s)
 *   out[(j - jlo) R + jlo + r Ns] = v[r]
 * The twiddles w^(r jlo) (r = 1 .. R-1) are tabled per pass for s = -1; s = +1
 * uses their conjugates.
 */

typedef struct { FFT_REAL re, im; } FFT_NAME(cpx);

#define CX FFT_NAME(cpx)

static inline CX FFT_NAME(cmul)(CX a, CX b)
{
    CX r = { a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re };
    return r;
}

/* a * conj(b) when s > 0, a * b when s < 0 */
static inline CX FFT_NAME(twid)(CX a, CX w, int s)
{
    if (s > 0)
        w.im = -w.im;
    return FFT_NAME(cmul)(a, w);
}

/* multiply by s*i: (re, im) -> (-s im, s re) */
static inline CX FFT_NAME(rot)(CX a, int s)
{
    CX r = { s > 0 ? -a.im : a.im, s > 0 ? a.re : -a.re };
    return r;
}

static inline void FFT_NAME(dft2)(CX *v)
{
    CX a = v[0], b = v[1];
    v[0].re = a.re + b.re; v[0].im = a.im + b.im;
    v[1].re = a.re - b.re; v[1].im = a.im - b.im;
}

static inline void FFT_NAME(dft4)(CX *v, int s)
{
    CX a0 = v[0], a1 = v[1], a2 = v[2], a3 = v[3];
    CX t0 = { a0.re + a2.re, a0.im + a2.im }, t1 = { a0.re - a2.re, a0.im - a2.im };
    CX t2 = { a1.re + a3.re, a1.im + a3.im }, t3 = { a1.re - a3.re, a1.im - a3.im };
    t3 = FFT_NAME(rot)(t3, s);
    v[0].re = t0.re + t2.re; v[0].im = t0.im + t2.im;
    v[2].re = t0.re - t2.re; v[2].im = t0.im - t2.im;
    v[1].re = t1.re + t3.re; v[1].im = t1.im + t3.im;
    v[3].re = t1.re - t3.re; v[3].im = t1.im - t3.im;
}

static inline void FFT_NAME(dft8)(CX *v, int s)
{
    const FFT_REAL h = (FFT_REAL)0.70710678118654752440084436210484903928L;
    CX e[4] = { v[0], v[2], v[4], v[6] }, o[4] = { v[1], v[3], v[5], v[7] };
    FFT_NAME(dft4)(e, s);
    FFT_NAME(dft4)(o, s);
    /* o[k] *= exp(s 2 pi i k / 8) */
    CX o1 = { h * (o[1].re - s * o[1].im), h * (o[1].im + s * o[1].re) };
    CX o2 = FFT_NAME(rot)(o[2], s);
    CX o3 = { h * (-o[3].re - s * o[3].im), h * (-o[3].im + s * o[3].re) };
    o[1] = o1; o[2] = o2; o[3] = o3;
    for (int k = 0; k < 4; k++) {
        v[k].re = e[k].re + o[k].re; v[k].im = e[k].im + o[k].im;
        v[k + 4].re = e[k].re - o[k].re; v[k + 4].im = e[k].im - o[k].im;
    }
}

static inline void FFT_NAME(dft3)(CX *v, int s)
{
    const FFT_REAL c = (FFT_REAL)-0.5L, d = (FFT_REAL)(0.86602540378443864676372317075293618347L) * s;
    CX a = v[0], b = v[1], e = v[2];
    CX t = { b.re + e.re, b.im + e.im }, u = { b.re - e.re, b.im - e.im };
    CX m = { a.re + c * t.re, a.im + c * t.im };
    v[0].re = a.re + t.re; v[0].im = a.im + t.im;
    v[1].re = m.re - d * u.im; v[1].im = m.im + d * u.re;
    v[2].re = m.re + d * u.im; v[2].im = m.im - d * u.re;
}

static inline void FFT_NAME(dft5)(CX *v, int s)
{
    const FFT_REAL c1 = (FFT_REAL)0.30901699437494742410229341718281905886L;    /* cos(2pi/5) */
    const FFT_REAL c2 = (FFT_REAL)-0.80901699437494742410229341718281905886L;   /* cos(4pi/5) */
    const FFT_REAL s1 = (FFT_REAL)0.95105651629515357211643933337938214340L * s;  /* sin(2pi/5) */
    const FFT_REAL s2 = (FFT_REAL)0.58778525229247312916870595463907276860L * s;  /* sin(4pi/5) */
    CX a = v[0];
    CX p1 = { v[1].re + v[4].re, v[1].im + v[4].im }, m1 = { v[1].re - v[4].re, v[1].im - v[4].im };
    CX p2 = { v[2].re + v[3].re, v[2].im + v[3].im }, m2 = { v[2].re - v[3].re, v[2].im - v[3].im };
    CX r1 = { a.re + c1 * p1.re + c2 * p2.re, a.im + c1 * p1.im + c2 * p2.im };
    CX r2 = { a.re + c2 * p1.re + c1 * p2.re, a.im + c2 * p1.im + c1 * p2.im };
    CX i1 = { s1 * m1.re + s2 * m2.re, s1 * m1.im + s2 * m2.im };
    CX i2 = { s2 * m1.re - s1 * m2.re, s2 * m1.im - s1 * m2.im };
    v[0].re = a.re + p1.re + p2.re; v[0].im = a.im + p1.im + p2.im;
    v[1].re = r1.re - i1.im; v[1].im = r1.im + i1.re;
    v[4].re = r1.re + i1.im; v[4].im = r1.im - i1.re;
    v[2].re = r2.re - i2.im; v[2].im = r2.im + i2.re;
    v[3].re = r2.re + i2.im; v[3].im = r2.im - i2.re;
}

/* A naive DFT of odd prime length p; roots[k] = exp(-2 pi i k / p). */
static void FFT_NAME(dftp)(CX *v, int p, const CX *roots, int s, CX *tmp)
{
    for (int k = 0; k < p; k++) {
        FFT_REAL re = v[0].re, im = v[0].im;
        int idx = 0;
        for (int j = 1; j < p; j++) {
            idx += k;
            if (idx >= p)
                idx -= p;
            CX w = roots[idx];
            FFT_REAL wi = s > 0 ? -w.im : w.im;
            re += v[j].re * w.re - v[j].im * wi;
            im += v[j].re * wi + v[j].im * w.re;
        }
        tmp[k].re = re;
        tmp[k].im = im;
    }
    for (int k = 0; k < p; k++)
        v[k] = tmp[k];
}

/* One Stockham pass of a fixed radix (the butterfly and its loads unrolled
 * by the compiler). tw: twiddles per jlo, for s = -1. */
#define FFT_FIXED_PASS(R, DFT)                                                                  \
    static void FFT_NAME(pass##R)(const CX *restrict in, CX *restrict out, size_t n, size_t ns, \
                                  const CX *restrict tw, int s)                                 \
    {                                                                                           \
        size_t q = n / R, blocks = q / ns;                                                      \
        for (size_t jhi = 0; jhi < blocks; jhi++) {                                             \
            const CX *src = in + jhi * ns;                                                      \
            CX *dst = out + jhi * ns * R;                                                       \
            for (size_t jlo = 0; jlo < ns; jlo++) {                                             \
                const CX *w = tw + jlo * (R - 1);                                               \
                CX v[R];                                                                        \
                v[0] = src[jlo];                                                                \
                for (int r = 1; r < R; r++)                                                     \
                    v[r] = FFT_NAME(twid)(src[jlo + (size_t)r * q], w[r - 1], s);               \
                DFT;                                                                            \
                for (int r = 0; r < R; r++)                                                     \
                    dst[jlo + (size_t)r * ns] = v[r];                                           \
            }                                                                                   \
        }                                                                                       \
    }
FFT_FIXED_PASS(2, FFT_NAME(dft2)(v))
FFT_FIXED_PASS(3, FFT_NAME(dft3)(v, s))
FFT_FIXED_PASS(4, FFT_NAME(dft4)(v, s))
FFT_FIXED_PASS(5, FFT_NAME(dft5)(v, s))
FFT_FIXED_PASS(8, FFT_NAME(dft8)(v, s))
#undef FFT_FIXED_PASS

/* A pass of an odd prime radix up to FFT_MAX_GENERIC_RADIX, naive butterfly. */
static void FFT_NAME(passp)(const CX *restrict in, CX *restrict out, size_t n, int radix, size_t ns,
                            const CX *restrict tw, const CX *roots, int s)
{
    size_t q = n / (size_t)radix, blocks = q / ns;
    CX v[FFT_MAX_GENERIC_RADIX], tmp[FFT_MAX_GENERIC_RADIX];
    for (size_t jhi = 0; jhi < blocks; jhi++) {
        const CX *src = in + jhi * ns;
        CX *dst = out + jhi * ns * (size_t)radix;
        for (size_t jlo = 0; jlo < ns; jlo++) {
            const CX *w = tw + jlo * (size_t)(radix - 1);
            v[0] = src[jlo];
            for (int r = 1; r < radix; r++)
                v[r] = FFT_NAME(twid)(src[jlo + (size_t)r * q], w[r - 1], s);
            FFT_NAME(dftp)(v, radix, roots, s, tmp);
            for (int r = 0; r < radix; r++)
                dst[jlo + (size_t)r * ns] = v[r];
        }
    }
}

static void FFT_NAME(pass)(const CX *restrict in, CX *restrict out, size_t n, int radix, size_t ns,
                           const CX *restrict tw, const CX *roots, int s)
{
    switch (radix) {
    case 2: FFT_NAME(pass2)(in, out, n, ns, tw, s); break;
    case 3: FFT_NAME(pass3)(in, out, n, ns, tw, s); break;
    case 4: FFT_NAME(pass4)(in, out, n, ns, tw, s); break;
    case 5: FFT_NAME(pass5)(in, out, n, ns, tw, s); break;
    case 8: FFT_NAME(pass8)(in, out, n, ns, tw, s); break;
    default: FFT_NAME(passp)(in, out, n, radix, ns, tw, roots, s); break;
    }
}

#undef CX
