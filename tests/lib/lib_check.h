/* lib_check.h: shared helpers for the tests/lib programs (cuBLAS, cuBLASLt).
 *
 * Each program checks every library call it makes against its own host
 * computation in (complex) double, prints "PASS <name>" and exits 0, or
 * prints the first mismatch and exits 1. stdout is the same on a real GPU
 * and under cubridge; timings and device names go to stderr.
 *
 * Per type: traits T_ (to and from std::complex<double>, a tolerance), a
 * deterministic generator, device buffers that keep a host copy, and
 * compare() with |got - want| <= tol * (1 + |want|).
 */
#ifndef CUBRIDGE_TESTS_LIB_CHECK_H
#define CUBRIDGE_TESTS_LIB_CHECK_H

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <complex>
#include <vector>

#include "lib_fail.h"

typedef std::complex<double> cd;

#define CHECK(call)                                                                                  \
  do {                                                                                               \
    cudaError_t cb_err_ = (call);                                                                         \
    if (cb_err_ != cudaSuccess) {                                                                         \
      printf("FAIL %s:%d: %s returned %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(cb_err_));      \
      lib_fail();                                                                                       \
    }                                                                                                \
  } while (0)

#define CHECK_BLAS(call)                                                                             \
  do {                                                                                               \
    cublasStatus_t cb_status_ = (call);                                                                      \
    if (cb_status_ != CUBLAS_STATUS_SUCCESS) {                                                             \
      printf("FAIL %s:%d: %s returned %d\n", __FILE__, __LINE__, #call, (int)cb_status_);                   \
      lib_fail();                                                                                       \
    }                                                                                                \
  } while (0)

#define EXPECT_STATUS(call, want)                                                                    \
  do {                                                                                               \
    cublasStatus_t cb_status_ = (call);                                                                      \
    if (cb_status_ != (want)) {                                                                            \
      printf("FAIL %s:%d: %s returned %d, expected %d (%s)\n", __FILE__, __LINE__, #call, (int)cb_status_, \
             (int)(want), #want);                                                                    \
      lib_fail();                                                                                       \
    }                                                                                                \
  } while (0)

/* ---- type traits ----------------------------------------------------------------- */

template <class T> struct T_;
template <> struct T_<float> {
  static cd get(float v) { return cd(v, 0); }
  static float put(cd v) { return (float)v.real(); }
  static const bool cplx = false;
  static double tol() { return 2e-5; }
  static const char *name() { return "S"; }
};
template <> struct T_<double> {
  static cd get(double v) { return cd(v, 0); }
  static double put(cd v) { return v.real(); }
  static const bool cplx = false;
  static double tol() { return 1e-12; }
  static const char *name() { return "D"; }
};
template <> struct T_<cuComplex> {
  static cd get(cuComplex v) { return cd(v.x, v.y); }
  static cuComplex put(cd v) { return make_cuComplex((float)v.real(), (float)v.imag()); }
  static const bool cplx = true;
  static double tol() { return 2e-5; }
  static const char *name() { return "C"; }
};
template <> struct T_<cuDoubleComplex> {
  static cd get(cuDoubleComplex v) { return cd(v.x, v.y); }
  static cuDoubleComplex put(cd v) { return make_cuDoubleComplex(v.real(), v.imag()); }
  static const bool cplx = true;
  static double tol() { return 1e-12; }
  static const char *name() { return "Z"; }
};
template <> struct T_<__half> {
  static cd get(__half v) { return cd(__half2float(v), 0); }
  static __half put(cd v) { return __float2half((float)v.real()); }
  static const bool cplx = false;
  static double tol() { return 2e-3; }
  static const char *name() { return "H"; }
};

/* The real type of T (for nrm2, asum, herk's scalars). */
template <class T> struct real_of { typedef T type; };
template <> struct real_of<cuComplex> { typedef float type; };
template <> struct real_of<cuDoubleComplex> { typedef double type; };

/* ---- deterministic data ------------------------------------------------------------ */

static uint32_t lcg_state = 12345;
static inline double rnd() {   /* in [-1, 1), 1/1024 steps: exact in every type */
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return ((int)((lcg_state >> 16) % 2048) - 1024) / 1024.0;
}
template <class T> static T rnd_val() {
  return T_<T>::put(T_<T>::cplx ? cd(rnd(), rnd()) : cd(rnd(), 0));
}

/* A device buffer with a host copy. */
template <class T> struct dbuf {
  std::vector<T> h;
  T *d;
  explicit dbuf(size_t n, bool random = true) : h(n ? n : 1), d(NULL) {
    for (size_t i = 0; i < h.size(); i++) h[i] = random ? rnd_val<T>() : T_<T>::put(cd(0, 0));
    CHECK(cudaMalloc((void **)&d, h.size() * sizeof(T)));
    up();
  }
  ~dbuf() { cudaFree(d); }
  void up() { CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice)); }
  std::vector<T> down() const {
    std::vector<T> r(h.size());
    CHECK(cudaMemcpy(r.data(), d, h.size() * sizeof(T), cudaMemcpyDeviceToHost));
    return r;
  }
  cd at(size_t i) const { return T_<T>::get(h[i]); }
};

/* ---- comparison ----------------------------------------------------------------- */

static int compared_values = 0;

template <class T>
static void compare(const char *what, const std::vector<T> &got, const std::vector<cd> &want, double scale = 1) {
  double tol = T_<T>::tol() * scale;
  for (size_t i = 0; i < want.size(); i++) {
    cd g = T_<T>::get(got[i]);
    double err = std::abs(g - want[i]);
    bool both_nan = (std::isnan(g.real()) || std::isnan(g.imag())) && (std::isnan(want[i].real()) || std::isnan(want[i].imag()));
    if (!both_nan && !(err <= tol * (1 + std::abs(want[i])))) {
      printf("FAIL %s: element %zu: got (%.9g, %.9g), expected (%.9g, %.9g)\n", what, i, g.real(), g.imag(),
             want[i].real(), want[i].imag());
      lib_fail();
    }
    compared_values++;
  }
}

template <class T> static void compare1(const char *what, T got, cd want, double scale = 1) {
  compare<T>(what, std::vector<T>(1, got), std::vector<cd>(1, want), scale);
}

/* The expected contents: a copy of h as complex doubles. */
template <class T> static std::vector<cd> as_cd(const std::vector<T> &h) {
  std::vector<cd> r(h.size());
  for (size_t i = 0; i < h.size(); i++) r[i] = T_<T>::get(h[i]);
  return r;
}

/* BLAS's vector element i of n with increment inc. */
static inline size_t vi(long i, long n, long inc) { return (size_t)(inc >= 0 ? i * inc : (n - 1 - i) * -inc); }

static inline double sum_scale(long k) { return k > 1 ? sqrt((double)k) : 1; }

#endif
