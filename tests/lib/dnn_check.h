/* dnn_check.h: shared helpers for the tests/lib programs of cuDNN.
 *
 * Host tensors of any cuDNN data type (float, double, half, bfloat16, int8,
 * int32) with any dims and strides: values in logical (row-major) order as
 * doubles, the device bytes laid out by the strides, and the bytes between
 * strided elements filled with a sentinel so that a call that writes where
 * it must not is caught. Each program compares every output element with a
 * host computation in double and exits 1 at the first mismatch, or prints
 * "PASS <name>". stdout is the same on a real GPU and under cubridge.
 */
#ifndef CUBRIDGE_TESTS_DNN_CHECK_H
#define CUBRIDGE_TESTS_DNN_CHECK_H

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cudnn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "lib_fail.h"

#define CHECK(call)                                                                                        \
  do {                                                                                                     \
    cudaError_t e_ = (call);                                                                               \
    if (e_ != cudaSuccess) {                                                                               \
      printf("FAIL %s:%d: %s returned %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_));             \
      lib_fail();                                                                                             \
    }                                                                                                      \
  } while (0)

#define CHECK_DNN(call)                                                                                    \
  do {                                                                                                     \
    cudnnStatus_t s_ = (call);                                                                             \
    if (s_ != CUDNN_STATUS_SUCCESS) {                                                                      \
      printf("FAIL %s:%d: %s returned %s\n", __FILE__, __LINE__, #call, cudnnGetErrorString(s_));          \
      lib_fail();                                                                                             \
    }                                                                                                      \
  } while (0)

#define EXPECT_DNN(call, want)                                                                             \
  do {                                                                                                     \
    cudnnStatus_t s_ = (call);                                                                             \
    if (s_ != (want)) {                                                                                    \
      printf("FAIL %s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, #call, cudnnGetErrorString(s_), \
             #want);                                                                                       \
      lib_fail();                                                                                             \
    }                                                                                                      \
  } while (0)

static uint32_t dnn_lcg = 2024;
/* In [-1, 1), steps of 1/64: exact in every floating type, bf16 included. */
static inline double dnn_rnd() {
  dnn_lcg = dnn_lcg * 1664525u + 1013904223u;
  return ((int)((dnn_lcg >> 16) % 128) - 64) / 64.0;
}

static inline size_t dnn_type_size(cudnnDataType_t t) {
  switch (t) {
  case CUDNN_DATA_DOUBLE: return 8;
  case CUDNN_DATA_HALF: case CUDNN_DATA_BFLOAT16: return 2;
  case CUDNN_DATA_INT8: case CUDNN_DATA_UINT8: return 1;
  default: return 4;
  }
}

static inline double dnn_load(cudnnDataType_t t, const unsigned char *p) {
  switch (t) {
  case CUDNN_DATA_FLOAT: { float v; memcpy(&v, p, 4); return v; }
  case CUDNN_DATA_DOUBLE: { double v; memcpy(&v, p, 8); return v; }
  case CUDNN_DATA_HALF: { __half v; memcpy(&v, p, 2); return __half2float(v); }
  case CUDNN_DATA_BFLOAT16: { __nv_bfloat16 v; memcpy(&v, p, 2); return __bfloat162float(v); }
  case CUDNN_DATA_INT8: return (double)*(const int8_t *)p;
  case CUDNN_DATA_UINT8: return (double)*p;
  case CUDNN_DATA_INT32: { int32_t v; memcpy(&v, p, 4); return v; }
  default: return 0;
  }
}

static inline void dnn_store(cudnnDataType_t t, unsigned char *p, double v) {
  switch (t) {
  case CUDNN_DATA_FLOAT: { float f = (float)v; memcpy(p, &f, 4); break; }
  case CUDNN_DATA_DOUBLE: memcpy(p, &v, 8); break;
  case CUDNN_DATA_HALF: { __half h = __float2half((float)v); memcpy(p, &h, 2); break; }
  case CUDNN_DATA_BFLOAT16: { __nv_bfloat16 h = __float2bfloat16((float)v); memcpy(p, &h, 2); break; }
  case CUDNN_DATA_INT8: *(int8_t *)p = (int8_t)v; break;
  case CUDNN_DATA_UINT8: *p = (uint8_t)v; break;
  case CUDNN_DATA_INT32: { int32_t i = (int32_t)v; memcpy(p, &i, 4); break; }
  default: break;
  }
}

/* A host tensor mirrored on the device. */
struct HT {
  cudnnDataType_t type;
  int nd;
  int dim[8];
  int stride[8];
  size_t count, extent;          /* elements; elements the strides reach */
  std::vector<double> v;         /* logical order */
  std::vector<unsigned char> bytes;
  void *d;

  HT(cudnnDataType_t t, int n, const int *dims, const int *strides) : type(t), nd(n), d(NULL) {
    count = 1;
    size_t last = 0;
    for (int i = 0; i < n; i++) {
      dim[i] = dims[i];
      stride[i] = strides[i];
      count *= (size_t)dims[i];
      last += (size_t)(dims[i] - 1) * (size_t)strides[i];
    }
    extent = last + 1;
    v.assign(count, 0);
    bytes.assign(extent * dnn_type_size(t), 0);
    for (size_t e = 0; e < extent; e++) dnn_store(t, &bytes[e * dnn_type_size(t)], 7.0);   /* the sentinel */
    CHECK(cudaMalloc(&d, bytes.size()));
  }
  ~HT() { cudaFree(d); }
  size_t off(size_t e) const {   /* element offset of logical index e */
    size_t o = 0;
    for (int i = nd - 1; i >= 0; i--) {
      o += (e % (size_t)dim[i]) * (size_t)stride[i];
      e /= (size_t)dim[i];
    }
    return o;
  }
  void fill(double scale = 1) {
    for (size_t e = 0; e < count; e++) {
      unsigned char *p = &bytes[off(e) * dnn_type_size(type)];
      dnn_store(type, p, dnn_rnd() * scale);
      v[e] = dnn_load(type, p);   /* exactly what the device holds */
    }
    up();
  }
  void up() { CHECK(cudaMemcpy(d, bytes.data(), bytes.size(), cudaMemcpyHostToDevice)); }
  /* Reads the device copy back; the values into got, and checks that the
   * bytes no element owns were not written. */
  std::vector<double> down(const char *what) const {
    std::vector<unsigned char> b(bytes.size());
    CHECK(cudaMemcpy(b.data(), d, b.size(), cudaMemcpyDeviceToHost));
    std::vector<double> got(count);
    std::vector<char> owned(extent, 0);
    for (size_t e = 0; e < count; e++) {
      got[e] = dnn_load(type, &b[off(e) * dnn_type_size(type)]);
      owned[off(e)] = 1;
    }
    for (size_t e = 0; e < extent; e++)
      if (!owned[e] && memcmp(&b[e * dnn_type_size(type)], &bytes[e * dnn_type_size(type)], dnn_type_size(type))) {
        printf("FAIL %s: wrote between strided elements (offset %zu)\n", what, e);
        lib_fail();
      }
    return got;
  }
};

/* Packed strides of dims in NCHW (format 0) or NHWC (channels fastest). */
static inline void dnn_packed(int nd, const int *dim, cudnnTensorFormat_t f, int *stride) {
  int s = 1;
  if (f == CUDNN_TENSOR_NHWC) {
    stride[1] = 1;
    s = dim[1];
    for (int i = nd - 1; i >= 2; i--) { stride[i] = s; s *= dim[i]; }
    stride[0] = s;
    return;
  }
  for (int i = nd - 1; i >= 0; i--) { stride[i] = s; s *= dim[i]; }
}

static long dnn_compared = 0;

/* |got - want| <= tol * (1 + |want|) for every element. */
static inline void dnn_compare(const char *what, const std::vector<double> &got, const std::vector<double> &want,
                               double tol) {
  for (size_t i = 0; i < want.size(); i++) {
    double err = fabs(got[i] - want[i]);
    if (!(err <= tol * (1 + fabs(want[i])))) {
      printf("FAIL %s: element %zu: got %.9g, expected %.9g (tolerance %.3g)\n", what, i, got[i], want[i], tol);
      lib_fail();
    }
    dnn_compared++;
  }
}

#endif
