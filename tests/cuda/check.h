/* check.h: shared helpers for the tests/cuda programs.
 *
 * Every program checks its own results against a host computation, prints one
 * line "PASS <name>" and exits 0, or prints the first mismatch (index, got,
 * expected) and exits 1.  Output other than that line goes to stderr, so that
 * stdout is the same on a real GPU and under cubridge. */
#ifndef CUBRIDGE_TESTS_CHECK_H
#define CUBRIDGE_TESTS_CHECK_H

#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CHECK(call): a CUDA runtime call that must succeed; else print and exit 1. */
#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t check_err_ = (call);                                         \
    if (check_err_ != cudaSuccess) {                                         \
      printf("FAIL %s:%d: %s returned %s (%s)\n", __FILE__, __LINE__, #call, \
             cudaGetErrorName(check_err_), cudaGetErrorString(check_err_)); \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

/* CHECK_LAUNCH(): the launch just made was accepted and ran without error. */
#define CHECK_LAUNCH()                    \
  do {                                    \
    CHECK(cudaGetLastError());            \
    CHECK(cudaDeviceSynchronize());       \
  } while (0)

/* expect_error: a call that must fail with exactly `want`. */
#define EXPECT_ERROR(call, want)                                              \
  do {                                                                        \
    cudaError_t check_err_ = (call);                                          \
    if (check_err_ != (want)) {                                               \
      printf("FAIL %s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, \
             #call, cudaGetErrorName(check_err_), cudaGetErrorName(want));    \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

/* fail: print a message and exit 1. */
static inline void fail(const char *what) {
  printf("FAIL %s\n", what);
  exit(1);
}

/* pass: print the one success line and return 0 (for `return pass(...)`). */
static inline int pass(const char *name) {
  printf("PASS %s\n", name);
  fflush(stdout);
  return 0;
}

/* The check_* functions compare n values and exit 1 at the first mismatch. */
static inline void check_i32(const char *what, const int *got, const int *want, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) {
      printf("FAIL %s: index %zu: got %d, expected %d\n", what, i, got[i], want[i]);
      exit(1);
    }
}

static inline void check_u32(const char *what, const unsigned *got, const unsigned *want, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) {
      printf("FAIL %s: index %zu: got %u (0x%08x), expected %u (0x%08x)\n", what, i,
             got[i], got[i], want[i], want[i]);
      exit(1);
    }
}

static inline void check_i64(const char *what, const long long *got, const long long *want, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) {
      printf("FAIL %s: index %zu: got %lld, expected %lld\n", what, i, got[i], want[i]);
      exit(1);
    }
}

static inline void check_u64(const char *what, const unsigned long long *got,
                      const unsigned long long *want, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) {
      printf("FAIL %s: index %zu: got %llu (0x%016llx), expected %llu (0x%016llx)\n", what,
             i, got[i], got[i], want[i], want[i]);
      exit(1);
    }
}

/* Bit-exact float comparison (NaNs compare equal to NaNs). */
static inline void check_f32_exact(const char *what, const float *got, const float *want, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i] && !(isnan(got[i]) && isnan(want[i]))) {
      printf("FAIL %s: index %zu: got %.9g, expected %.9g\n", what, i, got[i], want[i]);
      exit(1);
    }
}

/* |got - want| <= abs_tol + rel_tol * |want|. */
static inline void check_f32_tol(const char *what, const float *got, const float *want, size_t n,
                          double rel_tol, double abs_tol) {
  for (size_t i = 0; i < n; i++) {
    double d = fabs((double)got[i] - (double)want[i]);
    if (!(d <= abs_tol + rel_tol * fabs((double)want[i]))) {
      printf("FAIL %s: index %zu: got %.9g, expected %.9g (diff %.3g)\n", what, i, got[i],
             want[i], d);
      exit(1);
    }
  }
}

static inline void check_f64_exact(const char *what, const double *got, const double *want, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i] && !(isnan(got[i]) && isnan(want[i]))) {
      printf("FAIL %s: index %zu: got %.17g, expected %.17g\n", what, i, got[i], want[i]);
      exit(1);
    }
}

static inline void check_f64_tol(const char *what, const double *got, const double *want, size_t n,
                          double rel_tol, double abs_tol) {
  for (size_t i = 0; i < n; i++) {
    double d = fabs(got[i] - want[i]);
    if (!(d <= abs_tol + rel_tol * fabs(want[i]))) {
      printf("FAIL %s: index %zu: got %.17g, expected %.17g (diff %.3g)\n", what, i, got[i],
             want[i], d);
      exit(1);
    }
  }
}

/* ulp_distance: how many representable floats lie between a and b. */
static inline long long ulp_distance(float a, float b) {
  int32_t ia, ib;
  memcpy(&ia, &a, 4);
  memcpy(&ib, &b, 4);
  if (ia < 0) ia = (int32_t)(0x80000000u - (uint32_t)ia);
  if (ib < 0) ib = (int32_t)(0x80000000u - (uint32_t)ib);
  long long d = (long long)ia - (long long)ib;
  return d < 0 ? -d : d;
}

/* A small deterministic generator (xorshift32), the same on every machine. */
static inline unsigned test_rand(unsigned *state) {
  unsigned x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *state = x;
  return x;
}

#endif
