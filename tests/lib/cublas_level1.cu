/* cublas_level1.cu: cuBLAS level 1 in S/D/C/Z, 32- and 64-bit entry points,
 * host and device pointer modes, positive and negative increments, n = 0
 * and alpha = 0, each result checked against a host computation in double.
 * Covers axpy, scal (and Csscal/Zdscal), copy, swap, dot/dotu/dotc, nrm2,
 * asum, iamax, iamin, rot (and Csrot/Zdrot), rotg, rotm, rotmg. */
#include "lib_check.h"

static bool use64 = false;
static bool devmode = false;   /* device pointer mode: results must be device memory */
static cublasHandle_t H;

/* One overload per type for each family, calling the 32- or 64-bit entry point. */
#define W_AXPY(T, S, s)                                                                                        \
  static cublasStatus_t axpy(int n, const T *a, const T *x, int ix, T *y, int iy) {                       \
    return use64 ? cublas##S##axpy_64(H, n, a, x, ix, y, iy) : cublas##S##axpy(H, n, a, x, ix, y, iy);     \
  }                                                                                                         \
  static cublasStatus_t scal(int n, const T *a, T *x, int ix) {                                            \
    return use64 ? cublas##S##scal_64(H, n, a, x, ix) : cublas##S##scal(H, n, a, x, ix);                   \
  }                                                                                                         \
  static cublasStatus_t copy(int n, const T *x, int ix, T *y, int iy) {                                    \
    return use64 ? cublas##S##copy_64(H, n, x, ix, y, iy) : cublas##S##copy(H, n, x, ix, y, iy);           \
  }                                                                                                         \
  static cublasStatus_t swap(int n, T *x, int ix, T *y, int iy) {                                          \
    return use64 ? cublas##S##swap_64(H, n, x, ix, y, iy) : cublas##S##swap(H, n, x, ix, y, iy);           \
  }                                                                                                         \
  static cublasStatus_t iamax(int n, const T *x, int ix, int *r) {                                         \
    if (!use64 || devmode) return cublasI##s##amax(H, n, x, ix, r);                                                    \
    int64_t r64 = -1;                                                                                       \
    cublasStatus_t s = cublasI##s##amax_64(H, n, x, ix, &r64);                                              \
    *r = (int)r64;                                                                                          \
    return s;                                                                                               \
  }                                                                                                         \
  static cublasStatus_t iamin(int n, const T *x, int ix, int *r) {                                         \
    if (!use64 || devmode) return cublasI##s##amin(H, n, x, ix, r);                                                    \
    int64_t r64 = -1;                                                                                       \
    cublasStatus_t s = cublasI##s##amin_64(H, n, x, ix, &r64);                                              \
    *r = (int)r64;                                                                                          \
    return s;                                                                                               \
  }
W_AXPY(float, S, s)
W_AXPY(double, D, d)
W_AXPY(cuComplex, C, c)
W_AXPY(cuDoubleComplex, Z, z)

#define W_RED(T, R, NRM, ASUM)                                                                              \
  static cublasStatus_t nrm2(int n, const T *x, int ix, R *r) {                                            \
    return use64 ? cublas##NRM##_64(H, n, x, ix, r) : cublas##NRM(H, n, x, ix, r);                         \
  }                                                                                                         \
  static cublasStatus_t asum(int n, const T *x, int ix, R *r) {                                            \
    return use64 ? cublas##ASUM##_64(H, n, x, ix, r) : cublas##ASUM(H, n, x, ix, r);                       \
  }
W_RED(float, float, Snrm2, Sasum)
W_RED(double, double, Dnrm2, Dasum)
W_RED(cuComplex, float, Scnrm2, Scasum)
W_RED(cuDoubleComplex, double, Dznrm2, Dzasum)

static cublasStatus_t dot(int n, const float *x, int ix, const float *y, int iy, float *r, bool) {
  return use64 ? cublasSdot_64(H, n, x, ix, y, iy, r) : cublasSdot(H, n, x, ix, y, iy, r);
}
static cublasStatus_t dot(int n, const double *x, int ix, const double *y, int iy, double *r, bool) {
  return use64 ? cublasDdot_64(H, n, x, ix, y, iy, r) : cublasDdot(H, n, x, ix, y, iy, r);
}
static cublasStatus_t dot(int n, const cuComplex *x, int ix, const cuComplex *y, int iy, cuComplex *r, bool c) {
  if (c) return use64 ? cublasCdotc_64(H, n, x, ix, y, iy, r) : cublasCdotc(H, n, x, ix, y, iy, r);
  return use64 ? cublasCdotu_64(H, n, x, ix, y, iy, r) : cublasCdotu(H, n, x, ix, y, iy, r);
}
static cublasStatus_t dot(int n, const cuDoubleComplex *x, int ix, const cuDoubleComplex *y, int iy,
                          cuDoubleComplex *r, bool c) {
  if (c) return use64 ? cublasZdotc_64(H, n, x, ix, y, iy, r) : cublasZdotc(H, n, x, ix, y, iy, r);
  return use64 ? cublasZdotu_64(H, n, x, ix, y, iy, r) : cublasZdotu(H, n, x, ix, y, iy, r);
}

/* rot with an s of the vector's type (Crot) and with a real s (Csrot). */
static cublasStatus_t rot(int n, float *x, int ix, float *y, int iy, const float *c, const float *s) {
  return use64 ? cublasSrot_64(H, n, x, ix, y, iy, c, s) : cublasSrot(H, n, x, ix, y, iy, c, s);
}
static cublasStatus_t rot(int n, double *x, int ix, double *y, int iy, const double *c, const double *s) {
  return use64 ? cublasDrot_64(H, n, x, ix, y, iy, c, s) : cublasDrot(H, n, x, ix, y, iy, c, s);
}
static cublasStatus_t rot(int n, cuComplex *x, int ix, cuComplex *y, int iy, const float *c, const cuComplex *s) {
  return use64 ? cublasCrot_64(H, n, x, ix, y, iy, c, s) : cublasCrot(H, n, x, ix, y, iy, c, s);
}
static cublasStatus_t rot(int n, cuComplex *x, int ix, cuComplex *y, int iy, const float *c, const float *s) {
  return use64 ? cublasCsrot_64(H, n, x, ix, y, iy, c, s) : cublasCsrot(H, n, x, ix, y, iy, c, s);
}
static cublasStatus_t rot(int n, cuDoubleComplex *x, int ix, cuDoubleComplex *y, int iy, const double *c,
                          const cuDoubleComplex *s) {
  return use64 ? cublasZrot_64(H, n, x, ix, y, iy, c, s) : cublasZrot(H, n, x, ix, y, iy, c, s);
}
static cublasStatus_t rot(int n, cuDoubleComplex *x, int ix, cuDoubleComplex *y, int iy, const double *c,
                          const double *s) {
  return use64 ? cublasZdrot_64(H, n, x, ix, y, iy, c, s) : cublasZdrot(H, n, x, ix, y, iy, c, s);
}
static cublasStatus_t rscal(int n, const float *a, cuComplex *x, int ix) {
  return use64 ? cublasCsscal_64(H, n, a, x, ix) : cublasCsscal(H, n, a, x, ix);
}
static cublasStatus_t rscal(int n, const double *a, cuDoubleComplex *x, int ix) {
  return use64 ? cublasZdscal_64(H, n, a, x, ix) : cublasZdscal(H, n, a, x, ix);
}

/* A scalar argument in the handle's pointer mode: host memory, or a device copy. */
template <class S> struct scalar {
  S v;
  S *d;
  bool dev;
  scalar(S value, bool device) : v(value), d(NULL), dev(device) {
    if (dev) {
      CHECK(cudaMalloc((void **)&d, sizeof(S)));
      CHECK(cudaMemcpy(d, &v, sizeof(S), cudaMemcpyHostToDevice));
    }
  }
  ~scalar() { if (d) cudaFree(d); }
  S *p() { return dev ? d : &v; }
  S get() {
    if (dev) CHECK(cudaMemcpy(&v, d, sizeof(S), cudaMemcpyDeviceToHost));
    return v;
  }
};

template <class T> static void test_type(bool dev) {
  typedef typename real_of<T>::type R;
  const int n = 37;
  const int incs[][2] = {{1, 1}, {2, 3}, {-2, 1}, {1, -3}};
  char what[96];
  for (int c = 0; c < 4; c++) {
    int ix = incs[c][0], iy = incs[c][1];
    size_t nx = 1 + (n - 1) * abs(ix), ny = 1 + (n - 1) * abs(iy);
    snprintf(what, sizeof what, "%saxpy incx %d incy %d%s%s", T_<T>::name(), ix, iy, use64 ? " _64" : "",
             dev ? " device" : "");
    {  /* axpy */
      dbuf<T> x(nx), y(ny);
      scalar<T> a(rnd_val<T>(), dev);
      CHECK_BLAS(axpy(n, a.p(), x.d, ix, y.d, iy));
      std::vector<cd> want = as_cd(y.h);
      for (int i = 0; i < n; i++) want[vi(i, n, iy)] += T_<T>::get(a.v) * x.at(vi(i, n, ix));
      compare(what, y.down(), want);
    }
    {  /* scal (as BLAS, a negative increment does nothing), copy, swap */
      dbuf<T> x(nx), y(ny);
      scalar<T> a(rnd_val<T>(), dev);
      CHECK_BLAS(scal(n, a.p(), x.d, ix));
      std::vector<cd> want = as_cd(x.h);
      for (int i = 0; i < n && ix > 0; i++) want[vi(i, n, ix)] *= T_<T>::get(a.v);
      compare("scal", x.down(), want);
      x.h = x.down();
      CHECK_BLAS(copy(n, x.d, ix, y.d, iy));
      std::vector<cd> wy = as_cd(y.h);
      for (int i = 0; i < n; i++) wy[vi(i, n, iy)] = x.at(vi(i, n, ix));
      compare("copy", y.down(), wy);
      y.h = y.down();
      dbuf<T> z(ny);
      CHECK_BLAS(swap(n, x.d, ix, z.d, iy));
      std::vector<cd> wx = as_cd(x.h), wz = as_cd(z.h);
      for (int i = 0; i < n; i++) std::swap(wx[vi(i, n, ix)], wz[vi(i, n, iy)]);
      compare("swap x", x.down(), wx);
      compare("swap y", z.down(), wz);
    }
    for (int conj = 0; conj <= (T_<T>::cplx ? 1 : 0); conj++) {  /* dot, dotu, dotc */
      dbuf<T> x(nx), y(ny);
      scalar<T> r(T_<T>::put(cd(99, 99)), dev);
      CHECK_BLAS(dot(n, x.d, ix, y.d, iy, r.p(), conj));
      cd want = 0;
      for (int i = 0; i < n; i++) {
        cd xv = x.at(vi(i, n, ix));
        want += (conj ? std::conj(xv) : xv) * y.at(vi(i, n, iy));
      }
      compare1(conj ? "dotc" : "dot", r.get(), want, sum_scale(n));
    }
    {  /* rot: c, s real (and complex s for C/Z) */
      dbuf<T> x(nx), y(ny);
      scalar<R> cc((R)0.6, dev), ss((R)0.8, dev);
      CHECK_BLAS(rot(n, x.d, ix, y.d, iy, cc.p(), ss.p()));
      std::vector<cd> wx = as_cd(x.h), wy = as_cd(y.h);
      for (int i = 0; i < n; i++) {
        cd a = x.at(vi(i, n, ix)), b = y.at(vi(i, n, iy));
        wx[vi(i, n, ix)] = 0.6 * a + 0.8 * b;
        wy[vi(i, n, iy)] = 0.6 * b - 0.8 * a;
      }
      compare("rot x", x.down(), wx);
      compare("rot y", y.down(), wy);
    }
  }
  {  /* reductions: positive increments only (incx <= 0 gives 0) */
    dbuf<T> x(1 + (n - 1) * 2);
    scalar<R> r((R)-1, dev);
    CHECK_BLAS(nrm2(n, x.d, 2, r.p()));
    double s = 0, a = 0;
    for (int i = 0; i < n; i++) {
      s += std::norm(x.at(2 * i));
      a += fabs(x.at(2 * i).real()) + fabs(x.at(2 * i).imag());
    }
    compare1("nrm2", r.get(), cd(sqrt(s), 0), sum_scale(n));
    CHECK_BLAS(asum(n, x.d, 2, r.p()));
    compare1("asum", r.get(), cd(a, 0), sum_scale(n));
    CHECK_BLAS(nrm2(n, x.d, -1, r.p()));
    compare1("nrm2 incx < 0 is 0", r.get(), cd(0, 0));
    CHECK_BLAS(asum(0, x.d, 1, r.p()));
    compare1("asum n = 0 is 0", r.get(), cd(0, 0));
    /* iamax / iamin: the first extreme of |re| + |im|, 1-based */
    x.h[2 * 5] = T_<T>::put(cd(3, T_<T>::cplx ? -2 : 0));
    x.h[2 * 9] = T_<T>::put(cd(-3, T_<T>::cplx ? 2 : 0));
    x.h[2 * 11] = T_<T>::put(cd(0, 0));
    x.h[2 * 30] = T_<T>::put(cd(0, 0));
    x.up();
    scalar<int> k(-7, dev);
    CHECK_BLAS(iamax(n, x.d, 2, k.p()));
    if (k.get() != 6) { printf("FAIL %samax: got %d, expected 6\n", T_<T>::name(), k.v); lib_fail(); }
    CHECK_BLAS(iamin(n, x.d, 2, k.p()));
    if (k.get() != 12) { printf("FAIL %samin: got %d, expected 12\n", T_<T>::name(), k.v); lib_fail(); }
    CHECK_BLAS(iamax(0, x.d, 1, k.p()));
    if (k.get() != 0) { printf("FAIL iamax n = 0: got %d\n", k.v); lib_fail(); }
  }
  {  /* n = 0 and alpha = 0 leave y alone */
    dbuf<T> x(8), y(8);
    scalar<T> a(T_<T>::put(cd(0, 0)), dev);
    CHECK_BLAS(axpy(0, a.p(), x.d, 1, y.d, 1));
    CHECK_BLAS(axpy(8, a.p(), x.d, 1, y.d, 1));
    compare("axpy alpha 0", y.down(), as_cd(y.h));
  }
}

/* Csscal/Zdscal and the real-s rot of complex vectors. */
template <class T> static void test_complex_real_scalars(bool dev) {
  typedef typename real_of<T>::type R;
  const int n = 19;
  dbuf<T> x(n), y(n);
  scalar<R> a((R)-1.5, dev);
  CHECK_BLAS(rscal(n, a.p(), x.d, 1));
  std::vector<cd> want = as_cd(x.h);
  for (int i = 0; i < n; i++) want[i] *= -1.5;
  compare("real scal", x.down(), want);
  x.h = x.down();
  scalar<R> c((R)0.8, dev);
  scalar<T> s(T_<T>::put(cd(0.36, 0.48)), dev);
  CHECK_BLAS(rot(n, x.d, 1, y.d, 1, c.p(), s.p()));
  std::vector<cd> wx = as_cd(x.h), wy = as_cd(y.h);
  cd sv(0.36, 0.48);
  for (int i = 0; i < n; i++) {
    wx[i] = 0.8 * x.at(i) + sv * y.at(i);
    wy[i] = 0.8 * y.at(i) - std::conj(sv) * x.at(i);
  }
  compare("complex-s rot x", x.down(), wx);
  compare("complex-s rot y", y.down(), wy);
}

/* rotg (S/D/C/Z), rotm and rotmg (S/D): small inputs away from rescaling. */
static void test_rotg(bool dev) {
  scalar<float> a(3, dev), b(4, dev), c(0, dev), s(0, dev);
  CHECK_BLAS(cublasSrotg(H, a.p(), b.p(), c.p(), s.p()));
  compare1("Srotg r", a.get(), cd(5, 0));
  compare1("Srotg c", c.get(), cd(0.6, 0));
  compare1("Srotg s", s.get(), cd(0.8, 0));
  compare1("Srotg z", b.get(), cd(1 / 0.6, 0));
  scalar<double> da(-4, dev), db(3, dev), dc(0, dev), ds(0, dev);
  CHECK_BLAS(cublasDrotg(H, da.p(), db.p(), dc.p(), ds.p()));
  compare1("Drotg r", da.get(), cd(-5, 0));
  compare1("Drotg c", dc.get(), cd(0.8, 0));
  compare1("Drotg s", ds.get(), cd(-0.6, 0));
  compare1("Drotg z", db.get(), cd(-0.6, 0));
  scalar<cuComplex> ca(make_cuComplex(3, 0), dev), cb(make_cuComplex(0, 4), dev), cs(make_cuComplex(0, 0), dev);
  scalar<float> cc(0, dev);
  CHECK_BLAS(cublasCrotg(H, ca.p(), cb.p(), cc.p(), cs.p()));
  compare1("Crotg r", ca.get(), cd(5, 0));
  compare1("Crotg c", cc.get(), cd(0.6, 0));
  compare1("Crotg s", cs.get(), cd(0, -0.8));
  scalar<cuDoubleComplex> za(make_cuDoubleComplex(0, 3), dev), zb(make_cuDoubleComplex(4, 0), dev),
      zs(make_cuDoubleComplex(0, 0), dev);
  scalar<double> zc(0, dev);
  CHECK_BLAS(cublasZrotg(H, za.p(), zb.p(), zc.p(), zs.p()));
  compare1("Zrotg r", za.get(), cd(0, 5));
  compare1("Zrotg c", zc.get(), cd(0.6, 0));
  compare1("Zrotg s", zs.get(), cd(0, 0.8));
  /* rotm with each flag */
  const int n = 11;
  for (int f = -2; f <= 1; f++) {
    dbuf<float> x(n), y(n);
    float p[5] = {(float)f, 0.5f, -0.25f, 0.75f, 1.5f};
    dbuf<float> pd(5);
    pd.h.assign(p, p + 5);
    pd.up();
    if (dev) CHECK_BLAS(use64 ? cublasSrotm_64(H, n, x.d, 1, y.d, 1, pd.d) : cublasSrotm(H, n, x.d, 1, y.d, 1, pd.d));
    else CHECK_BLAS(use64 ? cublasSrotm_64(H, n, x.d, 1, y.d, 1, p) : cublasSrotm(H, n, x.d, 1, y.d, 1, p));
    double h11 = p[1], h21 = p[2], h12 = p[3], h22 = p[4];
    if (f == 0) h11 = h22 = 1;
    if (f == 1) h21 = -1, h12 = 1;
    if (f == -2) h11 = h22 = 1, h12 = h21 = 0;
    std::vector<cd> wx(n), wy(n);
    for (int i = 0; i < n; i++) {
      wx[i] = h11 * x.at(i) + h12 * y.at(i);
      wy[i] = h21 * x.at(i) + h22 * y.at(i);
    }
    compare("Srotm x", x.down(), wx);
    compare("Srotm y", y.down(), wy);
    dbuf<double> dx(n), dy(n);
    double q[5] = {(double)f, 0.5, -0.25, 0.75, 1.5};
    dbuf<double> qd(5);
    qd.h.assign(q, q + 5);
    qd.up();
    if (dev) CHECK_BLAS(use64 ? cublasDrotm_64(H, n, dx.d, 1, dy.d, 1, qd.d) : cublasDrotm(H, n, dx.d, 1, dy.d, 1, qd.d));
    else CHECK_BLAS(use64 ? cublasDrotm_64(H, n, dx.d, 1, dy.d, 1, q) : cublasDrotm(H, n, dx.d, 1, dy.d, 1, q));
    for (int i = 0; i < n; i++) {
      wx[i] = h11 * dx.at(i) + h12 * dy.at(i);
      wy[i] = h21 * dx.at(i) + h22 * dy.at(i);
    }
    compare("Drotm x", dx.down(), wx);
    compare("Drotm y", dy.down(), wy);
  }
  /* rotmg: (d1, d2, x1, y1) = (2, 1, 1, 0.5): |q1| > |q2|, flag 0, h21 = -0.5, h12 = 0.25 */
  scalar<float> d1(2, dev), d2(1, dev), x1(1, dev), y1(0.5f, dev);
  dbuf<float> prm(5, false);
  float hp[5] = {0, 0, 0, 0, 0};
  CHECK_BLAS(cublasSrotmg(H, d1.p(), d2.p(), x1.p(), y1.p(), dev ? prm.d : hp));
  if (dev) { std::vector<float> v = prm.down(); memcpy(hp, v.data(), sizeof hp); }
  compare1("Srotmg flag", hp[0], cd(0, 0));
  compare1("Srotmg h21", hp[2], cd(-0.5, 0));
  compare1("Srotmg h12", hp[3], cd(0.25, 0));
  compare1("Srotmg d1", d1.get(), cd(2 / 1.125, 0));
  compare1("Srotmg d2", d2.get(), cd(1 / 1.125, 0));
  compare1("Srotmg x1", x1.get(), cd(1.125, 0));
  scalar<double> e1(1, dev), e2(2, dev), f1(0.5, dev), g1(1, dev);
  dbuf<double> eprm(5, false);
  double ep[5] = {0, 0, 0, 0, 0};
  CHECK_BLAS(cublasDrotmg(H, e1.p(), e2.p(), f1.p(), g1.p(), dev ? eprm.d : ep));
  if (dev) { std::vector<double> v = eprm.down(); memcpy(ep, v.data(), sizeof ep); }
  /* |q1| = 0.25 <= |q2| = 2: flag 1, h11 = p1/p2 = 0.25, h22 = x1/y1 = 0.5, u = 1.125 */
  compare1("Drotmg flag", ep[0], cd(1, 0));
  compare1("Drotmg h11", ep[1], cd(0.25, 0));
  compare1("Drotmg h22", ep[4], cd(0.5, 0));
  compare1("Drotmg d1", e1.get(), cd(2 / 1.125, 0));
  compare1("Drotmg d2", e2.get(), cd(1 / 1.125, 0));
  compare1("Drotmg x1", f1.get(), cd(1.125, 0));
}

/* The *Ex forms over cudaDataType: f16/bf16 vectors executed in f32 with
 * f32 alpha, and the BLAS types through the same entry points. */
static void test_ex(bool w) {
  const int n = 40;
  {  /* AxpyEx f16, f32 alpha */
    dbuf<__half> x(n), y(n);
    float a = 0.5f;
    if (w) CHECK_BLAS(cublasAxpyEx_64(H, n, &a, CUDA_R_32F, x.d, CUDA_R_16F, 1, y.d, CUDA_R_16F, 1, CUDA_R_32F));
    else CHECK_BLAS(cublasAxpyEx(H, n, &a, CUDA_R_32F, x.d, CUDA_R_16F, 1, y.d, CUDA_R_16F, 1, CUDA_R_32F));
    std::vector<cd> want(n);
    for (int i = 0; i < n; i++) want[i] = 0.5 * x.at(i) + y.at(i);
    compare("AxpyEx f16", y.down(), want);
  }
  {  /* AxpyEx c64 (all the vector's type) */
    dbuf<cuDoubleComplex> x(n), y(n);
    cuDoubleComplex a = make_cuDoubleComplex(0.25, -1);
    CHECK_BLAS(cublasAxpyEx(H, n, &a, CUDA_C_64F, x.d, CUDA_C_64F, 1, y.d, CUDA_C_64F, 1, CUDA_C_64F));
    std::vector<cd> want(n);
    for (int i = 0; i < n; i++) want[i] = cd(0.25, -1) * x.at(i) + y.at(i);
    compare("AxpyEx c64", y.down(), want);
  }
  {  /* ScalEx: f16 with f32 alpha; c32 with a real alpha is NOT_SUPPORTED (the H200's answer) */
    dbuf<__half> x(n);
    float a = -2;
    if (w) CHECK_BLAS(cublasScalEx_64(H, n, &a, CUDA_R_32F, x.d, CUDA_R_16F, 1, CUDA_R_32F));
    else CHECK_BLAS(cublasScalEx(H, n, &a, CUDA_R_32F, x.d, CUDA_R_16F, 1, CUDA_R_32F));
    std::vector<cd> want(n);
    for (int i = 0; i < n; i++) want[i] = -2.0 * x.at(i);
    compare("ScalEx f16", x.down(), want);
    dbuf<cuComplex> z(n);
    EXPECT_STATUS(cublasScalEx(H, n, &a, CUDA_R_32F, z.d, CUDA_C_32F, 1, CUDA_C_32F), CUBLAS_STATUS_NOT_SUPPORTED);
    for (int i = 0; i < n; i++) want[i] = z.at(i);
    compare("ScalEx c32 real alpha (refused: x unchanged)", z.down(), want);
  }
  {  /* DotEx f16 and bf16 (results in the vectors' type), DotcEx c32 */
    dbuf<__half> x(n), y(n);
    __half r;
    if (w) CHECK_BLAS(cublasDotEx_64(H, n, x.d, CUDA_R_16F, 1, y.d, CUDA_R_16F, 1, &r, CUDA_R_16F, CUDA_R_32F));
    else CHECK_BLAS(cublasDotEx(H, n, x.d, CUDA_R_16F, 1, y.d, CUDA_R_16F, 1, &r, CUDA_R_16F, CUDA_R_32F));
    cd want = 0;
    for (int i = 0; i < n; i++) want += x.at(i) * y.at(i);
    compare1("DotEx f16", r, want, sum_scale(n) * 2);
    dbuf<cuComplex> p(n), q(n);
    cuComplex c;
    if (w) CHECK_BLAS(cublasDotcEx_64(H, n, p.d, CUDA_C_32F, 1, q.d, CUDA_C_32F, 1, &c, CUDA_C_32F, CUDA_C_32F));
    else CHECK_BLAS(cublasDotcEx(H, n, p.d, CUDA_C_32F, 1, q.d, CUDA_C_32F, 1, &c, CUDA_C_32F, CUDA_C_32F));
    want = 0;
    for (int i = 0; i < n; i++) want += std::conj(p.at(i)) * q.at(i);
    compare1("DotcEx c32", c, want, sum_scale(n));
  }
  {  /* Nrm2Ex: f16 -> f16 (f32 execution), c32 -> f32 */
    dbuf<__half> x(n);
    __half r;
    if (w) CHECK_BLAS(cublasNrm2Ex_64(H, n, x.d, CUDA_R_16F, 1, &r, CUDA_R_16F, CUDA_R_32F));
    else CHECK_BLAS(cublasNrm2Ex(H, n, x.d, CUDA_R_16F, 1, &r, CUDA_R_16F, CUDA_R_32F));
    double s = 0;
    for (int i = 0; i < n; i++) s += std::norm(x.at(i));
    compare1("Nrm2Ex f16", r, cd(sqrt(s), 0), sum_scale(n));
    dbuf<cuComplex> z(n);
    float fr;
    CHECK_BLAS(cublasNrm2Ex(H, n, z.d, CUDA_C_32F, 1, &fr, CUDA_R_32F, CUDA_R_32F));
    s = 0;
    for (int i = 0; i < n; i++) s += std::norm(z.at(i));
    compare1("Nrm2Ex c32", fr, cd(sqrt(s), 0), sum_scale(n));
  }
}

int main() {
  CHECK_BLAS(cublasCreate(&H));
  for (int dev = 0; dev < 2; dev++) {
    CHECK_BLAS(cublasSetPointerMode(H, dev ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST));
    devmode = dev;
    for (int w = 0; w < 2; w++) {
      use64 = w;
      test_type<float>(dev);
      test_type<double>(dev);
      test_type<cuComplex>(dev);
      test_type<cuDoubleComplex>(dev);
      test_complex_real_scalars<cuComplex>(dev);
      test_complex_real_scalars<cuDoubleComplex>(dev);
    }
    use64 = false;
    test_rotg(dev);
  }
  CHECK_BLAS(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST));
  for (int w = 0; w < 2; w++) {
    devmode = false;
    test_ex(w);
  }
  CHECK(cudaDeviceSynchronize());
  CHECK_BLAS(cublasDestroy(H));
  fprintf(stderr, "cublas_level1: %d values compared\n", compared_values);
  printf("PASS cublas_level1\n");
  return 0;
}
