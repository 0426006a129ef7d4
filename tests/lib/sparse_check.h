/* sparse_check.h: what the cuSPARSE test programs share (with lib_check.h):
 * the status check and a deterministic random sparse matrix kept on the
 * host as CSR, with its dense copy for the expected results. */
#ifndef CUBRIDGE_TESTS_SPARSE_CHECK_H
#define CUBRIDGE_TESTS_SPARSE_CHECK_H

#include <cusparse.h>

#include "lib_check.h"

#define CHECK_SP(call)                                                                               \
  do {                                                                                               \
    cusparseStatus_t s_ = (call);                                                                    \
    if (s_ != CUSPARSE_STATUS_SUCCESS) {                                                             \
      printf("FAIL %s:%d: %s returned %s\n", __FILE__, __LINE__, #call, cusparseGetErrorName(s_));   \
      lib_fail();                                                                                       \
    }                                                                                                \
  } while (0)

/* A host sparse matrix: CSR (0-based) and its dense column-major copy. */
template <class T> struct hsparse {
  int m, n;
  std::vector<int> rowptr, col;
  std::vector<T> val;
  std::vector<cd> dense;   /* m x n, ld m */
  hsparse(int m_, int n_, int permille) : m(m_), n(n_), rowptr(m_ + 1, 0), dense((size_t)m_ * n_) {
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < n; j++) {
        lcg_state = lcg_state * 1664525u + 1013904223u;
        if ((int)((lcg_state >> 8) % 1000) >= permille) continue;
        T v = rnd_val<T>();
        if (T_<T>::get(v) == cd(0, 0)) v = T_<T>::put(cd(0.5, 0));
        col.push_back(j);
        val.push_back(v);
        dense[i + (size_t)j * m] = T_<T>::get(v);
      }
      rowptr[i + 1] = (int)col.size();
    }
  }
  int nnz() const { return (int)col.size(); }
  std::vector<int> rows() const {   /* COO row indices */
    std::vector<int> r;
    for (int i = 0; i < m; i++)
      for (int k = rowptr[i]; k < rowptr[i + 1]; k++) r.push_back(i);
    return r;
  }
};

/* A device copy of a host vector. */
template <class T> static T *to_dev(const std::vector<T> &h) {
  T *d;
  CHECK(cudaMalloc((void **)&d, (h.size() ? h.size() : 1) * sizeof(T)));
  if (h.size()) CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <class T> static std::vector<T> from_dev(const T *d, size_t n) {
  std::vector<T> h(n);
  if (n) CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

template <class T> struct dtype_of;
template <> struct dtype_of<float> { static const cudaDataType v = CUDA_R_32F; };
template <> struct dtype_of<double> { static const cudaDataType v = CUDA_R_64F; };
template <> struct dtype_of<cuComplex> { static const cudaDataType v = CUDA_C_32F; };
template <> struct dtype_of<cuDoubleComplex> { static const cudaDataType v = CUDA_C_64F; };

#endif
