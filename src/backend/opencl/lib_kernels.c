/* lib_kernels.c: our own OpenCL kernels for the library interface where
 * CLBlast has no routine or does not keep cuBLAS's rules (opencl_lib.h):
 * C = beta C (beta == 0: zeros, C not read), vectors at any increments,
 * iamax, triangular banded/packed solves, complex symmetric symv/syr/syr2,
 * syrkx/herkx, rot, rotm, geam and dgmm, in F32, F64, C32 and C64 (the
 * 64-bit ones where the device has fp64), and rotg/rotmg, which are host
 * arithmetic on host scalars; the LU pieces of cuBLAS's batched forms
 * (getrf, getrs, getri, matinv: LAPACK's unblocked algorithms, a matrix a
 * call); and cuDNN's convolution (dnn_conv, every direction, f32/TF32,
 * f16, bf16 and f64) by direct gathering loops.
 *
 * One program per OpenCL context, built on first use from the text below
 * (each kernel written once over a type macro) and kept for the process's
 * life. A kernel object's arguments and its enqueue are one step under the
 * program's lock. Element i of a vector with a negative increment is at
 * (n - 1 - i) |inc|, as BLAS counts.
 *
 * Process-wide state: the programs, one per context (progs, under
 * progs_lock).
 */
#include "backend/opencl/opencl_lib.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "backend/blas_elem.h"
#include "platform/log.h"
#include "platform/thread.h"

static const char kernel_text[] =
    "#define IDX(i, inc, n) ((inc) >= 0 ? (long)(i) * (inc) : ((long)(n) - 1 - (long)(i)) * -(inc))\n"
    "#define RMUL(a, b) ((a) * (b))\n"
    "#define CMUL(a, b) ((a) * (b).x + (TC)(-(a).y * (b).y, (a).x * (b).y))\n"
    "#define CONJ_R(a) (a)\n"
    "#define CONJ_C(a) ((TC)((a).x, -(a).y))\n"
    "#define DIAG_R(a) (a)\n"
    "#define ABS1_R(a) fabs(a)\n"
    "#define ABS1_C(a) (fabs((a).x) + fabs((a).y))\n"
    "#define DIV_R(a, b) ((a) / (b))\n"
    "#define DIV_C(a, b) (CMUL(a, CONJ_C(b)) / ((b).x * (b).x + (b).y * (b).y))\n"
    "#define DIAG_C(a) ((TC)((a).x, 0))\n"
    "#define AEL(i, j) (form == 0 ? A[(i) + (j) * lda] : form == 1 ? (upper ? A[k + (i) - (j) + (j) * lda] : A[(i) - (j) + (j) * lda])"
    "                  : (upper ? A[(i) + (j) * ((j) + 1) / 2] : A[(i) + (2 * n - (j) - 1) * (j) / 2]))\n"
    "#define KERNELS(S, T, R, MUL, CONJ, DIAG, ABS1, DIV)\n"
    "__kernel void cb_scale_##S(__global uchar *heap, ulong off, long rows, long cols, long ld, long stride,\n"
    "                           T beta, int part, int zero) {\n"
    "  long i = get_global_id(0), j = get_global_id(1), e = get_global_id(2);\n"
    "  if (i >= rows || j >= cols || (part == 1 && i < j) || (part == 2 && i > j)) return;\n"
    "  __global T *p = (__global T *)(heap + off) + e * stride + i + j * ld;\n"
    "  *p = zero ? (T)0 : MUL(beta, *p);\n"
    "}\n"
    "__kernel void cb_vec_##S(__global uchar *heap, long n, T alpha, ulong xo, long incx, ulong yo, long incy, int mode) {\n"
    "  long i = get_global_id(0);\n"
    "  if (i >= n) return;\n"
    "  __global T *x = (__global T *)(heap + xo) + IDX(i, incx, n), *y = (__global T *)(heap + yo) + IDX(i, incy, n);\n"
    "  if (mode == 0) { *y = *x; }\n"
    "  else if (mode == 1) { *y = *y + MUL(alpha, *x); }\n"
    "  else { T a = *x; *x = *y; *y = a; }\n"
    "}\n"
    "__kernel void cb_iamax_##S(__global uchar *heap, long n, ulong xo, long incx, int min, ulong ro) {\n"
    "  __global T *x = (__global T *)(heap + xo);\n"
    "  R best = 0;\n"
    "  long bi = 0;\n"
    "  for (long i = 0; i < n; i++) {\n"
    "    R v = ABS1(x[i * incx]);\n"
    "    if (i == 0 || (min ? v < best : v > best)) { best = v; bi = i; }\n"
    "  }\n"
    "  *(__global long *)(heap + ro) = bi + 1;\n"
    "}\n"
    "__kernel void cb_tsolve_##S(__global uchar *heap, long n, long k, ulong ao, long lda, int form, int upper,\n"
    "                            int trans, int unit, ulong xo, long incx) {\n"
    "  __global T *A = (__global T *)(heap + ao), *x = (__global T *)(heap + xo);\n"
    "  long band = form == 1 ? k : n;\n"
    "  int forward = trans ? upper : !upper;\n"
    "  for (long s = 0; s < n; s++) {\n"
    "    long i = forward ? s : n - 1 - s;\n"
    "    T v = x[i * incx];\n"
    "    long lo = forward ? max(0L, i - band) : i + 1, hi = forward ? i - 1 : min(n - 1, i + band);\n"
    "    for (long j = lo; j <= hi; j++) {\n"
    "      T a = trans ? AEL(j, i) : AEL(i, j);\n"
    "      v = v - MUL(trans == 2 ? CONJ(a) : a, x[j * incx]);\n"
    "    }\n"
    "    if (!unit) { T d = AEL(i, i); v = DIV(v, trans == 2 ? CONJ(d) : d); }\n"
    "    x[i * incx] = v;\n"
    "  }\n"
    "}\n"
    "__kernel void cb_symv_##S(__global uchar *heap, long n, T alpha, ulong ao, long lda, int upper, ulong xo, long incx,\n"
    "                          T beta, int beta0, ulong yo, long incy) {\n"
    "  long i = get_global_id(0);\n"
    "  if (i >= n) return;\n"
    "  __global T *A = (__global T *)(heap + ao), *x = (__global T *)(heap + xo), *y = (__global T *)(heap + yo);\n"
    "  T acc = (T)0;\n"
    "  for (long j = 0; j < n; j++)\n"
    "    acc = acc + MUL((upper ? i <= j : i >= j) ? A[i + j * lda] : A[j + i * lda], x[j * incx]);\n"
    "  T v = MUL(alpha, acc);\n"
    "  y[i * incy] = beta0 ? v : v + MUL(beta, y[i * incy]);\n"
    "}\n"
    "__kernel void cb_syr2_##S(__global uchar *heap, long n, T alpha, ulong xo, long incx, ulong yo, long incy,\n"
    "                          ulong ao, long lda, int upper, int two) {\n"
    "  long i = get_global_id(0), j = get_global_id(1);\n"
    "  if (i >= n || j >= n || (upper ? i > j : i < j)) return;\n"
    "  __global T *A = (__global T *)(heap + ao), *x = (__global T *)(heap + xo), *y = (__global T *)(heap + yo);\n"
    "  T v = MUL(x[i * incx], y[j * incy]);\n"
    "  if (two) v = v + MUL(y[i * incy], x[j * incx]);\n"
    "  A[i + j * lda] = A[i + j * lda] + MUL(alpha, v);\n"
    "}\n"
    "__kernel void cb_rot_##S(__global uchar *heap, long n, ulong xo, long incx, ulong yo, long incy, R c, T s) {\n"
    "  long i = get_global_id(0);\n"
    "  if (i >= n) return;\n"
    "  __global T *x = (__global T *)(heap + xo) + IDX(i, incx, n), *y = (__global T *)(heap + yo) + IDX(i, incy, n);\n"
    "  T a = *x, b = *y;\n"
    "  *x = c * a + MUL(s, b);\n"
    "  *y = c * b - MUL(CONJ(s), a);\n"
    "}\n"
    "__kernel void cb_rotm_##S(__global uchar *heap, long n, ulong xo, long incx, ulong yo, long incy,\n"
    "                          R h11, R h12, R h21, R h22) {\n"
    "  long i = get_global_id(0);\n"
    "  if (i >= n) return;\n"
    "  __global T *x = (__global T *)(heap + xo) + IDX(i, incx, n), *y = (__global T *)(heap + yo) + IDX(i, incy, n);\n"
    "  T a = *x, b = *y;\n"
    "  *x = h11 * a + h12 * b;\n"
    "  *y = h21 * a + h22 * b;\n"
    "}\n"
    "__kernel void cb_geam_##S(__global uchar *heap, long m, long n, T alpha, ulong ao, long lda, int ta, int use_a,\n"
    "                          T beta, ulong bo, long ldb, int tb, int use_b, ulong co, long ldc) {\n"
    "  long i = get_global_id(0), j = get_global_id(1);\n"
    "  if (i >= m || j >= n) return;\n"
    "  T v = (T)0;\n"
    "  if (use_a) {\n"
    "    T a = ((__global T *)(heap + ao))[ta ? j + i * lda : i + j * lda];\n"
    "    v = MUL(alpha, ta == 2 ? CONJ(a) : a);\n"
    "  }\n"
    "  if (use_b) {\n"
    "    T b = ((__global T *)(heap + bo))[tb ? j + i * ldb : i + j * ldb];\n"
    "    v = v + MUL(beta, tb == 2 ? CONJ(b) : b);\n"
    "  }\n"
    "  ((__global T *)(heap + co))[i + j * ldc] = v;\n"
    "}\n"
    "__kernel void cb_gemmt_##S(__global uchar *heap, long n, long k, T alpha, ulong ao, long lda, int ta,\n"
    "                           ulong bo, long ldb, int tb, T beta, int beta0, ulong co, long ldc, int part, int herm) {\n"
    "  long i = get_global_id(0), j = get_global_id(1);\n"
    "  if (i >= n || j >= n || (part == 1 && i < j) || (part == 2 && i > j)) return;\n"
    "  __global T *A = (__global T *)(heap + ao), *B = (__global T *)(heap + bo);\n"
    "  T acc = (T)0;\n"
    "  for (long l = 0; l < k; l++) {\n"
    "    T a = ta ? A[l + i * lda] : A[i + l * lda], b = tb ? B[j + l * ldb] : B[l + j * ldb];\n"
    "    acc = acc + MUL(ta == 2 ? CONJ(a) : a, tb == 2 ? CONJ(b) : b);\n"
    "  }\n"
    "  __global T *c = (__global T *)(heap + co) + i + j * ldc;\n"
    "  T v = MUL(alpha, acc);\n"
    "  if (!beta0) v = v + MUL(beta, *c);\n"
    "  *c = herm && i == j ? DIAG(v) : v;\n"
    "}\n"
    "__kernel void cb_dgmm_##S(__global uchar *heap, long m, long n, ulong ao, long lda, ulong xo, long incx, int right,\n"
    "                          ulong co, long ldc) {\n"
    "  long i = get_global_id(0), j = get_global_id(1);\n"
    "  if (i >= m || j >= n) return;\n"
    "  T x = ((__global T *)(heap + xo))[right ? IDX(j, incx, n) : IDX(i, incx, m)];\n"
    "  ((__global T *)(heap + co))[i + j * ldc] = MUL(((__global T *)(heap + ao))[i + j * lda], x);\n"
    "}\n"
    /* LU with partial pivoting (LAPACK's getf2: the first largest |re| + |im|; a zero pivot is counted
     * in info, its column not scaled), one work-item for the matrix; piv 0: no pivoting */
    "__kernel void cb_getrf_##S(__global uchar *heap, long n, ulong ao, long lda, ulong po, int piv, ulong io) {\n"
    "  __global T *A = (__global T *)(heap + ao);\n"
    "  __global int *P = (__global int *)(heap + po);\n"
    "  int inf = 0;\n"
    "  for (long k = 0; k < n; k++) {\n"
    "    long p = k;\n"
    "    if (piv) {\n"
    "      R best = ABS1(A[k + k * lda]);\n"
    "      for (long i = k + 1; i < n; i++) { R v = ABS1(A[i + k * lda]); if (v > best) { best = v; p = i; } }\n"
    "      P[k] = (int)p + 1;\n"
    "      if (p != k) for (long j = 0; j < n; j++) { T t = A[k + j * lda]; A[k + j * lda] = A[p + j * lda]; A[p + j * lda] = t; }\n"
    "    }\n"
    "    T d = A[k + k * lda];\n"
    "    if (ABS1(d) == (R)0) { if (!inf) inf = (int)k + 1; }\n"
    "    else for (long i = k + 1; i < n; i++) A[i + k * lda] = DIV(A[i + k * lda], d);\n"
    "    for (long j = k + 1; j < n; j++) { T u = A[k + j * lda];\n"
    "      for (long i = k + 1; i < n; i++) A[i + j * lda] = A[i + j * lda] - MUL(A[i + k * lda], u); }\n"
    "  }\n"
    "  *(__global int *)(heap + io) = inf;\n"
    "}\n"
    /* op(A) X = B from getrf's factors, a work-item per column of B: A = P^T L U, so A^T = U^T L^T P */
    "__kernel void cb_getrs_##S(__global uchar *heap, long n, long nrhs, ulong ao, long lda, ulong po, int piv,\n"
    "                           int trans, ulong bo, long ldb) {\n"
    "  long c = get_global_id(0);\n"
    "  if (c >= nrhs) return;\n"
    "  __global T *A = (__global T *)(heap + ao), *X = (__global T *)(heap + bo) + c * ldb;\n"
    "  __global int *P = (__global int *)(heap + po);\n"
    "  if (trans == 0) {\n"
    "    if (piv) for (long i = 0; i < n; i++) { long p = P[i] - 1; if (p != i) { T t = X[i]; X[i] = X[p]; X[p] = t; } }\n"
    "    for (long i = 0; i < n; i++) { T v = X[i]; for (long j = 0; j < i; j++) v = v - MUL(A[i + j * lda], X[j]); X[i] = v; }\n"
    "    for (long i = n - 1; i >= 0; i--) { T v = X[i];\n"
    "      for (long j = i + 1; j < n; j++) v = v - MUL(A[i + j * lda], X[j]); X[i] = DIV(v, A[i + i * lda]); }\n"
    "  } else {\n"
    "    for (long i = 0; i < n; i++) { T v = X[i];\n"
    "      for (long j = 0; j < i; j++) { T a = A[j + i * lda]; v = v - MUL(trans == 2 ? CONJ(a) : a, X[j]); }\n"
    "      T d = A[i + i * lda]; X[i] = DIV(v, trans == 2 ? CONJ(d) : d); }\n"
    "    for (long i = n - 1; i >= 0; i--) { T v = X[i];\n"
    "      for (long j = i + 1; j < n; j++) { T a = A[j + i * lda]; v = v - MUL(trans == 2 ? CONJ(a) : a, X[j]); } X[i] = v; }\n"
    "    if (piv) for (long i = n - 1; i >= 0; i--) { long p = P[i] - 1; if (p != i) { T t = X[i]; X[i] = X[p]; X[p] = t; } }\n"
    "  }\n"
    "}\n"
    /* C = A^-1 from getrf's factors, a work-item per column of C (e_j through P, L and U); work-item 0
     * writes info: the first zero diagonal element of U */
    "__kernel void cb_getri_##S(__global uchar *heap, long n, ulong ao, long lda, ulong po, int piv, ulong co, long ldc,\n"
    "                           ulong io) {\n"
    "  long c = get_global_id(0);\n"
    "  if (c >= n) return;\n"
    "  __global T *A = (__global T *)(heap + ao), *X = (__global T *)(heap + co) + c * ldc;\n"
    "  __global int *P = (__global int *)(heap + po);\n"
    "  if (c == 0) { int inf = 0; for (long i = n - 1; i >= 0; i--) if (ABS1(A[i + i * lda]) == (R)0) inf = (int)i + 1;\n"
    "    *(__global int *)(heap + io) = inf; }\n"
    "  for (long i = 0; i < n; i++) X[i] = (T)0;\n"
    "  X[c] = DIAG((T)1);\n"
    "  if (piv) for (long i = 0; i < n; i++) { long p = P[i] - 1; if (p != i) { T t = X[i]; X[i] = X[p]; X[p] = t; } }\n"
    "  for (long i = 0; i < n; i++) { T v = X[i]; for (long j = 0; j < i; j++) v = v - MUL(A[i + j * lda], X[j]); X[i] = v; }\n"
    "  for (long i = n - 1; i >= 0; i--) { T v = X[i];\n"
    "    for (long j = i + 1; j < n; j++) v = v - MUL(A[i + j * lda], X[j]); X[i] = DIV(v, A[i + i * lda]); }\n"
    "}\n";

/* One convolution (backend_dnn.h), one work-item per element of what it writes, which it sums alone
 * (no atomics): y[n, k, o] for FWD, dx[n, c, i] for BWD_DATA, dw[k, c, r] for BWD_FILTER. g: the
 * geometry (conv_geometry below); positions are row-major over the spatial dimensions. CONV(S, ST, T)
 * for data stored as ST and computed in T; LD(p, i) reads element i as T (with rnd: rounded to TF32),
 * STORE(p, v) writes v, rounded once to ST. */
static const char conv_text[] =
    "static inline float cb_tf32(float f) { uint x = as_uint(f);\n"
    "  if ((x & 0x7f800000u) != 0x7f800000u) { x += 0xfffu + ((x >> 13) & 1u); x &= 0xffffe000u; } return as_float(x); }\n"
    "static inline float cb_bf16_f(ushort h) { return as_float((uint)h << 16); }\n"
    "static inline ushort cb_f_bf16(float f) { uint x = as_uint(f);\n"
    "  if ((x & 0x7fffffffu) > 0x7f800000u) return (ushort)0x7fffu; return (ushort)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16); }\n"
    "#define CONV(S, ST, T)\n"
    /* One convolution (backend_dnn.h), one work-item per element of what it writes, which it sums
     * alone (no atomics): y[n, k, o] for FWD, dx[n, c, i] for BWD_DATA, dw[k, c, r] for BWD_FILTER.
     * g: the geometry (conv_geometry below); positions are row-major over the spatial dimensions. */
    "__kernel void cb_conv_##S(__global uchar *heap, __global const long *g, ulong xo, ulong wo, ulong yo, T alpha,\n"
    "                          T beta, int beta0, long total) {\n"
    "  long id = get_global_id(0);\n"
    "  if (id >= total) return;\n"
    "  __global ST *X = (__global ST *)(heap + xo), *W = (__global ST *)(heap + wo), *Y = (__global ST *)(heap + yo), *dst;\n"
    "  int dir = (int)g[0], flip = (int)g[1], nsp = (int)g[3], rnd = (int)g[7];\n"
    "  (void)rnd;\n"
    "  long N = g[4], C = g[5], K = g[6], Cg = C / g[2], Kg = K / g[2];\n"
    "  __global const long *pad = g + 8, *str = g + 14, *dil = g + 20, *in = g + 26, *out = g + 32, *fl = g + 38;\n"
    "  __global const long *xs = g + 44, *ws = g + 52, *ys = g + 60;\n"
    "  long cnt_in = g[68], cnt_out = g[69], cnt_f = g[70], p[6];\n"
    "  T acc = (T)0;\n"
    "  if (dir == 0) {\n"
    "    long o = id % cnt_out, t = id / cnt_out, k = t % K, n = t / K, grp = k / Kg, ya = n * ys[0] + k * ys[1];\n"
    "    for (int d = nsp - 1; d >= 0; d--) { p[d] = o % out[d]; o /= out[d]; ya += p[d] * ys[2 + d]; }\n"
    "    for (long cc = 0; cc < Cg; cc++)\n"
    "      for (long r = 0; r < cnt_f; r++) {\n"
    "        long rem = r, xa = n * xs[0] + (grp * Cg + cc) * xs[1], wa = k * ws[0] + cc * ws[1]; int inside = 1;\n"
    "        for (int d = nsp - 1; d >= 0; d--) { long rd = rem % fl[d]; rem /= fl[d];\n"
    "          long i = p[d] * str[d] + rd * dil[d] - pad[d]; inside = inside && i >= 0 && i < in[d];\n"
    "          xa += i * xs[2 + d]; wa += (flip ? fl[d] - 1 - rd : rd) * ws[2 + d]; }\n"
    "        if (inside) acc = acc + LD(X, xa) * LD(W, wa);\n"
    "      }\n"
    "    dst = Y + ya;\n"
    "  } else if (dir == 1) {\n"
    "    long i = id % cnt_in, t = id / cnt_in, ch = t % C, n = t / C, grp = ch / Cg, cc = ch % Cg;\n"
    "    long xa = n * xs[0] + ch * xs[1];\n"
    "    for (int d = nsp - 1; d >= 0; d--) { p[d] = i % in[d]; i /= in[d]; xa += p[d] * xs[2 + d]; }\n"
    "    for (long kk = 0; kk < Kg; kk++)\n"
    "      for (long r = 0; r < cnt_f; r++) {\n"
    "        long k = grp * Kg + kk, rem = r, ya = n * ys[0] + k * ys[1], wa = k * ws[0] + cc * ws[1]; int inside = 1;\n"
    "        for (int d = nsp - 1; d >= 0; d--) { long rd = rem % fl[d]; rem /= fl[d];\n"
    "          long s = p[d] + pad[d] - rd * dil[d], o = s / str[d];\n"
    "          inside = inside && s >= 0 && s % str[d] == 0 && o < out[d];\n"
    "          ya += o * ys[2 + d]; wa += (flip ? fl[d] - 1 - rd : rd) * ws[2 + d]; }\n"
    "        if (inside) acc = acc + LD(Y, ya) * LD(W, wa);\n"
    "      }\n"
    "    dst = X + xa;\n"
    "  } else {\n"
    "    long r = id % cnt_f, t = id / cnt_f, cc = t % Cg, k = t / Cg, grp = k / Kg, ch = grp * Cg + cc;\n"
    "    long wa = k * ws[0] + cc * ws[1];\n"
    "    for (int d = nsp - 1; d >= 0; d--) { p[d] = r % fl[d]; r /= fl[d]; wa += (flip ? fl[d] - 1 - p[d] : p[d]) * ws[2 + d]; }\n"
    "    for (long n = 0; n < N; n++)\n"
    "      for (long o = 0; o < cnt_out; o++) {\n"
    "        long rem = o, xa = n * xs[0] + ch * xs[1], ya = n * ys[0] + k * ys[1]; int inside = 1;\n"
    "        for (int d = nsp - 1; d >= 0; d--) { long od = rem % out[d]; rem /= out[d];\n"
    "          long i = od * str[d] + p[d] * dil[d] - pad[d]; inside = inside && i >= 0 && i < in[d];\n"
    "          xa += i * xs[2 + d]; ya += od * ys[2 + d]; }\n"
    "        if (inside) acc = acc + LD(X, xa) * LD(Y, ya);\n"
    "      }\n"
    "    dst = W + wa;\n"
    "  }\n"
    "  T v = alpha * acc;\n"
    "  STORE(dst, beta0 ? v : v + beta * LD(dst, 0));\n"
    "}\n";

/* A product with mixed real types (cb_blas_gemm): D = alpha op(A) op(B) + beta C, then the bias, RELU or
 * GELU epilogue, one work-item per element of D (global: m, n, batch), accumulated in f32 as the CPU
 * backend accumulates (f16/bf16/int8 inputs widened after the input rounding). g, as longs: 0 m, 1 n, 2 k,
 * 3 lda, 4 ldb, 5 ldc, 6 ldd, 7 trans_a, 8 trans_b, 9..12 the types of A, B, C, D (cb_blas_type), 13 the
 * input rounding, 14 use C (beta != 0), 15 the epilogue bits, 16 the bias type, 17..21 the strides of A,
 * B, C, D and the bias between batch entries (elements). */
static const char gemm_text[] =
    "static inline float cb_gx(__global const uchar *p, long i, int t) {\n"
    "  switch (t) { case 4: return vload_half((size_t)i, (__global const half *)p);\n"
    "  case 5: return cb_bf16_f(((__global const ushort *)p)[i]); case 6: return (float)((__global const char *)p)[i];\n"
    "  default: return ((__global const float *)p)[i]; } }\n"
    "static inline void cb_gs(__global uchar *p, long i, int t, float v) {\n"
    "  switch (t) { case 4: vstore_half_rte(v, (size_t)i, (__global half *)p); break;\n"
    "  case 5: ((__global ushort *)p)[i] = cb_f_bf16(v); break; default: ((__global float *)p)[i] = v; } }\n"
    "static inline float cb_gr(float v, int r) {\n"
    "  if (r == 1) return cb_tf32(v);\n"
    "  if (r == 2) { ushort h[1]; vstore_half_rte(v, 0, (half *)h); return vload_half(0, (const half *)h); }\n"
    "  if (r == 3) return cb_bf16_f(cb_f_bf16(v));\n"
    "  return v; }\n"
    "__kernel void cb_gemm_mixed(__global uchar *heap, __global const long *g, ulong ao, ulong bo, ulong co, ulong dof,\n"
    "                            ulong biaso, float alpha, float beta) {\n"
    "  long i = get_global_id(0), j = get_global_id(1), e = get_global_id(2);\n"
    "  long m = g[0], n = g[1], k = g[2], lda = g[3], ldb = g[4];\n"
    "  if (i >= m || j >= n) return;\n"
    "  int ta = (int)g[7], tb = (int)g[8], at = (int)g[9], bt = (int)g[10], rnd = (int)g[13], epi = (int)g[15];\n"
    "  __global const uchar *A = heap + ao, *B = heap + bo;\n"
    "  long abase = e * g[17], bbase = e * g[18];\n"
    "  float acc = 0.0f;\n"
    "  for (long l = 0; l < k; l++) {\n"
    "    float x = cb_gr(cb_gx(A, abase + (ta ? l + i * lda : i + l * lda), at), rnd);\n"
    "    float y = cb_gr(cb_gx(B, bbase + (tb ? j + l * ldb : l + j * ldb), bt), rnd);\n"
    "    acc = acc + x * y;\n"
    "  }\n"
    "  float v = alpha * acc;\n"
    "  if (g[14]) v = v + beta * cb_gx(heap + co, e * g[19] + i + j * g[5], (int)g[11]);\n"
    "  if ((epi & 4) && biaso) v = v + cb_gx(heap + biaso, e * g[21] + i, (int)g[16]);\n"
    "  if (epi & 2) v = v > 0.0f ? v : 0.0f;\n"
    "  else if (epi & 32) v = 0.5f * v * (1.0f + tanh(0.7978845608028654f * (v + 0.044715f * v * v * v)));\n"
    "  cb_gs(heap + dof, e * g[20] + i + j * g[6], (int)g[12], v);\n"
    "}\n";

static const char conv_instances_32[] =
    "#define LD(p, i) (rnd ? cb_tf32((p)[i]) : (p)[i])\n#define STORE(p, v) (*(p) = (v))\n"
    "CONV_F(f32, float, float)\n#undef LD\n#undef STORE\n"
    "#define LD(p, i) vload_half((size_t)(i), (__global half *)(p))\n"
    "#define STORE(p, v) vstore_half_rte((v), 0, (__global half *)(p))\n"
    "CONV_F(f16, ushort, float)\n#undef LD\n#undef STORE\n"
    "#define LD(p, i) cb_bf16_f((p)[i])\n#define STORE(p, v) (*(p) = cb_f_bf16(v))\n"
    "CONV_F(bf16, ushort, float)\n#undef LD\n#undef STORE\n";
static const char conv_instances_64[] =
    "#define LD(p, i) ((p)[i])\n#define STORE(p, v) (*(p) = (v))\n"
    "CONV_F(f64, double, double)\n#undef LD\n#undef STORE\n";

/* The kernels' instantiations: one macro per type, so that the text above
 * stays one definition (the OpenCL C preprocessor pastes the names). */
static const char kernel_instances_32[] =
    "#define TC float2\n"
    "KERNELS_F(f32, float, float, RMUL, CONJ_R, DIAG_R, ABS1_R, DIV_R)\n"
    "KERNELS_F(c32, float2, float, CMUL, CONJ_C, DIAG_C, ABS1_C, DIV_C)\n"
    "#undef TC\n";
static const char kernel_instances_64[] =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define TC double2\n"
    "KERNELS_F(f64, double, double, RMUL, CONJ_R, DIAG_R, ABS1_R, DIV_R)\n"
    "KERNELS_F(c64, double2, double, CMUL, CONJ_C, DIAG_C, ABS1_C, DIV_C)\n"
    "#undef TC\n";

enum { K_SCALE, K_VEC, K_IAMAX, K_TSOLVE, K_SYMV, K_SYR2, K_ROT, K_ROTM, K_GEAM, K_GEMMT, K_DGMM, K_GETRF, K_GETRS,
       K_GETRI, K_COUNT };
static const char *const kernel_names[K_COUNT] = {"cb_scale", "cb_vec", "cb_iamax", "cb_tsolve", "cb_symv", "cb_syr2", "cb_rot", "cb_rotm", "cb_geam", "cb_gemmt", "cb_dgmm", "cb_getrf", "cb_getrs", "cb_getri"};

/* The convolution's instances (conv_instances_*). */
enum { CONV_F32, CONV_F16, CONV_BF16, CONV_F64, CONV_COUNT };
static const char *const conv_names[CONV_COUNT] = {"cb_conv_f32", "cb_conv_f16", "cb_conv_bf16", "cb_conv_f64"};

typedef struct ocl_lib_program {
    cl_context ctx;
    int ok, fp64;
    cl_program prog;
    cl_kernel k[4][K_COUNT];   /* [F32, F64, C32, C64][kernel] */
    cl_kernel conv[CONV_COUNT];
    cl_kernel gemm_mixed;
    cb_mutex lock;
} ocl_lib_program;

#define MAX_PROGRAMS 8
static ocl_lib_program progs[MAX_PROGRAMS];
static int nprogs;
static cb_mutex progs_lock = CB_MUTEX_INIT;

static const char *type_suffix(int ti) { return (const char *[]){"f32", "f64", "c32", "c64"}[ti]; }

static int type_index(cb_blas_type t)
{
    switch (t) {
    case CB_BLAS_F32: return 0;
    case CB_BLAS_F64: return 1;
    case CB_BLAS_C32: return 2;
    case CB_BLAS_C64: return 3;
    default: return -1;
    }
}

/* Appends text to o with the macro that begins at its line "#define NAME(" made one logical line:
 * that line is replaced by head, and each line after it ends in a backslash. Returns the new end. */
static char *append_macro(char *o, const char *text, const char *name, const char *head)
{
    const char *body = strstr(text, name);
    o += sprintf(o, "%.*s%s\n", (int)(body - text), text, head);
    for (const char *p = strchr(body, '\n') + 1; *p; p++) {
        if (*p == '\n') {
            *o++ = ' ';
            *o++ = '\\';
        }
        *o++ = *p;
    }
    *o++ = '\n';
    *o = 0;
    return o;
}

/* The program: kernel_text as KERNELS_F, conv_text as CONV_F, their instances, and gemm_text. */
static char *program_text(int fp64)
{
    size_t cap = 2 * (sizeof kernel_text + sizeof conv_text) + sizeof kernel_instances_32 + sizeof kernel_instances_64 +
                 sizeof conv_instances_32 + sizeof conv_instances_64 + sizeof gemm_text + 256;
    char *s = malloc(cap), *o = s;
    if (!s)
        return NULL;
    o = append_macro(o, kernel_text, "#define KERNELS(", "#define KERNELS_F(S, T, R, MUL, CONJ, DIAG, ABS1, DIV) \\");
    o = append_macro(o, conv_text, "#define CONV(", "#define CONV_F(S, ST, T) \\");
    sprintf(o, "%s%s%s%s%s", kernel_instances_32, fp64 ? kernel_instances_64 : "", conv_instances_32,
            fp64 ? conv_instances_64 : "", gemm_text);
    return s;
}

static int build_program(ocl_lib_program *p, const ocl_device_view *v)
{
    p->fp64 = ocl_device_has_extension(v->dev, "cl_khr_fp64");
    char *text = program_text(p->fp64);
    if (!text)
        return -1;
    const char *texts[1] = {text};
    cl_int e;
    p->prog = clCreateProgramWithSource(v->ctx, 1, texts, NULL, &e);
    free(text);
    if (e != CL_SUCCESS)
        return -1;
    e = clBuildProgram(p->prog, 1, &v->dev, "-cl-std=CL1.2", NULL, NULL);
    if (e != CL_SUCCESS) {
        char log[2048] = "";
        clGetProgramBuildInfo(p->prog, v->dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        cb_log(CB_LOG_ERROR, "opencl: the library kernels did not build (%d): %s", (int)e, log);
        return -1;
    }
    for (int ti = 0; ti < 4; ti++) {
        if ((ti == 1 || ti == 3) && !p->fp64)
            continue;
        for (int k = 0; k < K_COUNT; k++) {
            char name[64];
            snprintf(name, sizeof name, "%s_%s", kernel_names[k], type_suffix(ti));
            p->k[ti][k] = clCreateKernel(p->prog, name, &e);
            if (e != CL_SUCCESS) {
                cb_log(CB_LOG_ERROR, "opencl: library kernel %s: error %d", name, (int)e);
                return -1;
            }
        }
    }
    p->gemm_mixed = clCreateKernel(p->prog, "cb_gemm_mixed", &e);
    if (e != CL_SUCCESS) {
        cb_log(CB_LOG_ERROR, "opencl: library kernel cb_gemm_mixed: error %d", (int)e);
        return -1;
    }
    for (int c = 0; c < CONV_COUNT; c++) {
        if (c == CONV_F64 && !p->fp64)
            continue;
        p->conv[c] = clCreateKernel(p->prog, conv_names[c], &e);
        if (e != CL_SUCCESS) {
            cb_log(CB_LOG_ERROR, "opencl: library kernel %s: error %d", conv_names[c], (int)e);
            return -1;
        }
    }
    return 0;
}

/* The program of v's context, built on first use; NULL when it cannot be. */
static ocl_lib_program *program_of(const ocl_device_view *v)
{
    ocl_lib_program *p = NULL;
    cb_mutex_lock(&progs_lock);
    for (int i = 0; i < nprogs && !p; i++)
        if (progs[i].ctx == v->ctx)
            p = &progs[i];
    if (!p && nprogs < MAX_PROGRAMS) {
        p = &progs[nprogs++];
        p->ctx = v->ctx;
        cb_mutex_init(&p->lock);
        p->ok = build_program(p, v) == 0;
    }
    cb_mutex_unlock(&progs_lock);
    return p && p->ok ? p : NULL;
}

typedef struct karg {
    size_t size;
    const void *value;
} karg;

/* Runs kern of p over global (3 dimensions) with its arguments after the heap; waits for it. */
static CUresult run_cl(ocl_lib_program *p, const ocl_device_view *v, cl_kernel kern, const size_t global[3],
                       const karg *args, int nargs)
{
    if (!global[0] || !global[1] || !global[2])
        return CUDA_SUCCESS;
    cl_event ev = NULL;
    cb_mutex_lock(&p->lock);
    cl_int e = clSetKernelArg(kern, 0, sizeof(cl_mem), &v->heap);
    for (int i = 0; i < nargs && e == CL_SUCCESS; i++)
        e = clSetKernelArg(kern, (cl_uint)i + 1, args[i].size, args[i].value);
    if (e == CL_SUCCESS)
        e = clEnqueueNDRangeKernel(v->q, kern, 3, NULL, global, NULL, 0, NULL, &ev);
    cb_mutex_unlock(&p->lock);
    return e != CL_SUCCESS ? ocl_result(e) : ocl_wait(ev);
}

/* Runs kernel k for type t over global (3 dimensions) with its arguments
 * after the heap; waits for it. */
static CUresult run_kernel(cb_backend *b, cb_blas_type t, int k, const size_t global[3], const karg *args, int nargs)
{
    int ti = type_index(t);
    if (ti < 0)
        return CUDA_ERROR_NOT_SUPPORTED;
    ocl_device_view v;
    ocl_view(b, &v);
    ocl_lib_program *p = program_of(&v);
    if (!p || !p->k[ti][k])
        return CUDA_ERROR_NOT_SUPPORTED;   /* no fp64 on the device, or the program did not build */
    return run_cl(p, &v, p->k[ti][k], global, args, nargs);
}

#define A(x) {sizeof(x), &(x)}

/* The heap offset of device address a (the facade checked the extents). */
static cl_ulong heap_off(cb_backend *b, uint64_t a)
{
    ocl_device_view v;
    ocl_view(b, &v);
    return (cl_ulong)(a - v.heap_base);
}

/* A host scalar of t as the kernel's argument (16 bytes hold any). */
typedef struct scalar_arg {
    unsigned char bytes[16];
    size_t size;
} scalar_arg;

static scalar_arg scalar_of(cb_blas_type t, const void *p)
{
    scalar_arg s = {{0}, cb_blas_type_size(t)};
    if (p)
        memcpy(s.bytes, p, s.size);
    return s;
}

static int is_zero(cb_blas_type t, const void *p)
{
    static const unsigned char z[16];
    if (t == CB_BLAS_F32 || t == CB_BLAS_C32) {
        float f[2] = {0, 0};
        memcpy(f, p, t == CB_BLAS_F32 ? 4 : 8);
        return f[0] == 0 && f[1] == 0;
    }
    if (t == CB_BLAS_F64 || t == CB_BLAS_C64) {
        double d[2] = {0, 0};
        memcpy(d, p, t == CB_BLAS_F64 ? 8 : 16);
        return d[0] == 0 && d[1] == 0;
    }
    return !memcmp(p, z, cb_blas_type_size(t));
}

CUresult ocl_k_scale_batch(cb_backend *b, cb_blas_type t, int64_t rows, int64_t cols, uint64_t m, int64_t ld,
                           const void *beta, int part, int64_t batch, int64_t stride)
{
    if (type_index(t) < 0)
        return CUDA_ERROR_NOT_SUPPORTED;
    cl_ulong off = heap_off(b, m);
    if (off % cb_blas_type_size(t))
        return CUDA_ERROR_NOT_SUPPORTED;
    cl_long r = rows, c = cols, l = ld, st = stride;
    scalar_arg be = scalar_of(t, beta);
    cl_int pt = part, zero = is_zero(t, beta);
    karg args[] = {A(off), A(r), A(c), A(l), A(st), {be.size, be.bytes}, A(pt), A(zero)};
    size_t global[3] = {(size_t)rows, (size_t)cols, (size_t)batch};
    return run_kernel(b, t, K_SCALE, global, args, 8);
}

CUresult ocl_k_scale(cb_backend *b, cb_blas_type t, int64_t rows, int64_t cols, uint64_t m, int64_t ld,
                     const void *beta, int part)
{
    return ocl_k_scale_batch(b, t, rows, cols, m, ld, beta, part, 1, 0);
}

CUresult ocl_k_vec(cb_backend *b, cb_blas_type t, int mode, int64_t n, const void *alpha, uint64_t x, int64_t incx,
                   uint64_t y, int64_t incy)
{
    if (type_index(t) < 0)
        return CUDA_ERROR_NOT_SUPPORTED;
    if (n <= 0)
        return CUDA_SUCCESS;
    cl_long nn = n, ix = incx, iy = incy;
    cl_ulong xo = heap_off(b, x), yo = heap_off(b, y);
    cl_int md = mode;
    scalar_arg al = scalar_of(t, alpha);
    karg args[] = {A(nn), {al.size, al.bytes}, A(xo), A(ix), A(yo), A(iy), A(md)};
    size_t global[3] = {(size_t)n, 1, 1};
    return run_kernel(b, t, K_VEC, global, args, 7);
}

CUresult ocl_k_iamax(cb_backend *b, cb_blas_type t, int min, int64_t n, uint64_t x, int64_t incx, uint64_t result)
{
    if (type_index(t) < 0)
        return CUDA_ERROR_NOT_SUPPORTED;
    cl_long nn = n, ix = incx;
    cl_ulong xo = heap_off(b, x), ro = heap_off(b, result);
    cl_int mn = min;
    karg args[] = {A(nn), A(xo), A(ix), A(mn), A(ro)};
    size_t global[3] = {1, 1, 1};
    return run_kernel(b, t, K_IAMAX, global, args, 5);
}

CUresult ocl_k_tsolve(cb_backend *b, cb_blas_type t, int form, int uplo, int trans, int diag, int64_t n, int64_t k,
                      uint64_t a, int64_t lda, uint64_t x, int64_t incx)
{
    if (type_index(t) < 0)
        return CUDA_ERROR_NOT_SUPPORTED;
    if (n <= 0)
        return CUDA_SUCCESS;
    cl_long nn = n, kk = k, la = lda, ix = incx;
    cl_ulong ao = heap_off(b, a), xo = heap_off(b, x);
    cl_int fm = form, up = uplo == CB_BLAS_UPPER, unit = diag == CB_BLAS_UNIT;
    cl_int tr = trans == CB_BLAS_OP_N ? 0 : trans == CB_BLAS_OP_C && cb_blas_type_complex(t) ? 2 : 1;
    karg args[] = {A(nn), A(kk), A(ao), A(la), A(fm), A(up), A(tr), A(unit), A(xo), A(ix)};
    size_t global[3] = {1, 1, 1};
    return run_kernel(b, t, K_TSOLVE, global, args, 10);
}

CUresult ocl_k_symv(cb_backend *b, cb_blas_type t, int uplo, int64_t n, const void *alpha, uint64_t a, int64_t lda,
                    uint64_t x, int64_t incx, const void *beta, uint64_t y, int64_t incy)
{
    if (type_index(t) < 0)
        return CUDA_ERROR_NOT_SUPPORTED;
    if (n <= 0)
        return CUDA_SUCCESS;
    cl_long nn = n, la = lda, ix = incx, iy = incy;
    cl_ulong ao = heap_off(b, a), xo = heap_off(b, x), yo = heap_off(b, y);
    cl_int up = uplo == CB_BLAS_UPPER, beta0 = is_zero(t, beta);
    scalar_arg al = scalar_of(t, alpha), be = scalar_of(t, beta);
    karg args[] = {A(nn), {al.size, al.bytes}, A(ao), A(la), A(up), A(xo), A(ix), {be.size, be.bytes}, A(beta0),
                   A(yo), A(iy)};
    size_t global[3] = {(size_t)n, 1, 1};
    return run_kernel(b, t, K_SYMV, global, args, 11);
}

CUresult ocl_k_syr2(cb_backend *b, cb_blas_type t, int uplo, int two, int64_t n, const void *alpha, uint64_t x,
                    int64_t incx, uint64_t y, int64_t incy, uint64_t a, int64_t lda)
{
    if (type_index(t) < 0)
        return CUDA_ERROR_NOT_SUPPORTED;
    if (n <= 0)
        return CUDA_SUCCESS;
    cl_long nn = n, la = lda, ix = incx, iy = incy;
    cl_ulong ao = heap_off(b, a), xo = heap_off(b, x), yo = heap_off(b, y);
    cl_int up = uplo == CB_BLAS_UPPER, tw = two;
    scalar_arg al = scalar_of(t, alpha);
    karg args[] = {A(nn), {al.size, al.bytes}, A(xo), A(ix), A(yo), A(iy), A(ao), A(la), A(up), A(tw)};
    size_t global[3] = {(size_t)n, (size_t)n, 1};
    return run_kernel(b, t, K_SYR2, global, args, 10);
}

CUresult ocl_k_gemmt(cb_backend *b, cb_blas_type t, int uplo, int herm, int trans_a, int trans_b, int64_t n,
                     int64_t k, const void *alpha, uint64_t a, int64_t lda, uint64_t bb, int64_t ldb, const void *beta,
                     uint64_t c, int64_t ldc)
{
    if (type_index(t) < 0)
        return CUDA_ERROR_NOT_SUPPORTED;
    if (n <= 0)
        return CUDA_SUCCESS;
    cl_long nn = n, kk = k, la = lda, lb = ldb, lc = ldc;
    cl_ulong ao = heap_off(b, a), bo = heap_off(b, bb), co = heap_off(b, c);
    int complex = cb_blas_type_complex(t);
    cl_int ta = trans_a == CB_BLAS_OP_N ? 0 : trans_a == CB_BLAS_OP_C && complex ? 2 : 1;
    cl_int tb = trans_b == CB_BLAS_OP_N ? 0 : trans_b == CB_BLAS_OP_C && complex ? 2 : 1;
    cl_int beta0 = is_zero(t, beta), part = uplo + 1, hm = herm && complex;
    scalar_arg al = scalar_of(t, alpha), be = scalar_of(t, beta);
    karg args[] = {A(nn), A(kk), {al.size, al.bytes}, A(ao), A(la), A(ta), A(bo), A(lb), A(tb),
                   {be.size, be.bytes}, A(beta0), A(co), A(lc), A(part), A(hm)};
    size_t global[3] = {(size_t)n, (size_t)n, 1};
    return run_kernel(b, t, K_GEMMT, global, args, 15);
}

/* ---- the entries ---- */


static CUresult k_rot(cb_backend *b, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, uint64_t y, int64_t incy,
                      const void *c, const void *s, int s_real)
{
    if (type_index(t) < 0)
        return CUDA_ERROR_NOT_SUPPORTED;
    if (n <= 0)
        return CUDA_SUCCESS;
    cl_long nn = n, ix = incx, iy = incy;
    cl_ulong xo = heap_off(b, x), yo = heap_off(b, y);
    scalar_arg ca = scalar_of(cb_blas_type_real(t), c), sa = scalar_of(s_real ? cb_blas_type_real(t) : t, s);
    sa.size = cb_blas_type_size(t);   /* a real s of a complex rotation: (s, 0) */
    karg args[] = {A(nn), A(xo), A(ix), A(yo), A(iy), {ca.size, ca.bytes}, {sa.size, sa.bytes}};
    size_t global[3] = {(size_t)n, 1, 1};
    return run_kernel(b, t, K_ROT, global, args, 7);
}

/* rotm: x' = h11 x + h12 y, y' = h21 x + h22 y with BLAS's param (flag -1:
 * the four entries; 0: h11 = h22 = 1; 1: h12 = 1, h21 = -1; -2: identity). */
static CUresult k_rotm(cb_backend *b, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, uint64_t y, int64_t incy,
                       const void *param)
{
    if (t != CB_BLAS_F32 && t != CB_BLAS_F64)
        return CUDA_ERROR_NOT_SUPPORTED;
    double p[5];
    for (int i = 0; i < 5; i++)
        p[i] = t == CB_BLAS_F64 ? ((const double *)param)[i] : ((const float *)param)[i];
    if (n <= 0 || p[0] == -2)
        return CUDA_SUCCESS;
    double h11 = p[1], h21 = p[2], h12 = p[3], h22 = p[4];
    if (p[0] == 0)
        h11 = h22 = 1;
    else if (p[0] == 1)
        h12 = 1, h21 = -1;
    else if (p[0] != -1)
        return CUDA_ERROR_NOT_SUPPORTED;
    cl_long nn = n, ix = incx, iy = incy;
    cl_ulong xo = heap_off(b, x), yo = heap_off(b, y);
    float hf[4] = {(float)h11, (float)h12, (float)h21, (float)h22};
    double hd[4] = {h11, h12, h21, h22};
    size_t hs = t == CB_BLAS_F64 ? 8 : 4;
    const void *h = t == CB_BLAS_F64 ? (const void *)hd : (const void *)hf;
    karg args[] = {A(nn), A(xo), A(ix), A(yo), A(iy), {hs, h}, {hs, (const char *)h + hs},
                   {hs, (const char *)h + 2 * hs}, {hs, (const char *)h + 3 * hs}};
    size_t global[3] = {(size_t)n, 1, 1};
    return run_kernel(b, t, K_ROTM, global, args, 9);
}

static CUresult k_geam(cb_backend *b, cb_blas_type t, int trans_a, int trans_b, int64_t m, int64_t n,
                       const void *alpha, uint64_t a, int64_t lda, const void *beta, uint64_t bb, int64_t ldb,
                       uint64_t c, int64_t ldc)
{
    if (type_index(t) < 0)
        return CUDA_ERROR_NOT_SUPPORTED;
    if (m <= 0 || n <= 0)
        return CUDA_SUCCESS;
    cl_long mm = m, nn = n, la = lda, lb = ldb, lc = ldc;
    cl_ulong ao = heap_off(b, a), bo = heap_off(b, bb), co = heap_off(b, c);
    int complex = cb_blas_type_complex(t);
    cl_int ta = trans_a == CB_BLAS_OP_N ? 0 : trans_a == CB_BLAS_OP_C && complex ? 2 : 1;
    cl_int tb = trans_b == CB_BLAS_OP_N ? 0 : trans_b == CB_BLAS_OP_C && complex ? 2 : 1;
    cl_int use_a = !is_zero(t, alpha), use_b = !is_zero(t, beta);
    scalar_arg al = scalar_of(t, alpha), be = scalar_of(t, beta);
    karg args[] = {A(mm), A(nn), {al.size, al.bytes}, A(ao), A(la), A(ta), A(use_a),
                   {be.size, be.bytes}, A(bo), A(lb), A(tb), A(use_b), A(co), A(lc)};
    size_t global[3] = {(size_t)m, (size_t)n, 1};
    return run_kernel(b, t, K_GEAM, global, args, 14);
}

static CUresult k_dgmm(cb_backend *b, cb_blas_type t, int side, int64_t m, int64_t n, uint64_t a, int64_t lda,
                       uint64_t x, int64_t incx, uint64_t c, int64_t ldc)
{
    if (type_index(t) < 0)
        return CUDA_ERROR_NOT_SUPPORTED;
    if (m <= 0 || n <= 0)
        return CUDA_SUCCESS;
    cl_long mm = m, nn = n, la = lda, ix = incx, lc = ldc;
    cl_ulong ao = heap_off(b, a), xo = heap_off(b, x), co = heap_off(b, c);
    cl_int right = side == CB_BLAS_RIGHT;
    karg args[] = {A(mm), A(nn), A(ao), A(la), A(xo), A(ix), A(right), A(co), A(lc)};
    size_t global[3] = {(size_t)m, (size_t)n, 1};
    return run_kernel(b, t, K_DGMM, global, args, 9);
}

/* ---- LU for cuBLAS's batched forms (getrf/getrs/getri/matinv; one matrix a call) ------------ */

/* Runs kernel k, which writes an int at heap offset *io (its last argument, args holding io), on
 * scratch of the backend's own memory; *info is that int. */
static CUresult run_with_info(cb_backend *b, cb_blas_type t, int k, const size_t global[3], const karg *args,
                              int nargs, cl_ulong *io, int *info)
{
    cb_device_mem m;
    CUresult r = b->mem_alloc(b, sizeof(int), 0, &m);
    if (r != CUDA_SUCCESS)
        return r;
    *io = heap_off(b, m.addr);
    r = run_kernel(b, t, k, global, args, nargs);
    if (r == CUDA_SUCCESS)
        r = b->copy_dtoh(b, info, m.addr, sizeof *info);
    b->mem_free(b, &m);
    return r;
}

static CUresult k_getrf(cb_backend *b, cb_blas_type t, int64_t n, uint64_t a, int64_t lda, uint64_t pivots, int *info)
{
    if (type_index(t) < 0)
        return CUDA_ERROR_NOT_SUPPORTED;
    *info = 0;
    if (n <= 0)
        return CUDA_SUCCESS;
    cl_long nn = n, la = lda;
    cl_ulong ao = heap_off(b, a), po = pivots ? heap_off(b, pivots) : 0, io = 0;
    cl_int piv = pivots != 0;
    karg args[] = {A(nn), A(ao), A(la), A(po), A(piv), A(io)};
    size_t global[3] = {1, 1, 1};
    return run_with_info(b, t, K_GETRF, global, args, 6, &io, info);
}

static CUresult k_getrs(cb_backend *b, cb_blas_type t, int trans, int64_t n, int64_t nrhs, uint64_t a, int64_t lda,
                        uint64_t pivots, uint64_t bb, int64_t ldb)
{
    if (type_index(t) < 0)
        return CUDA_ERROR_NOT_SUPPORTED;
    if (n <= 0 || nrhs <= 0)
        return CUDA_SUCCESS;
    cl_long nn = n, nr = nrhs, la = lda, lb = ldb;
    cl_ulong ao = heap_off(b, a), po = pivots ? heap_off(b, pivots) : 0, bo = heap_off(b, bb);
    cl_int piv = pivots != 0;
    cl_int tr = trans == CB_BLAS_OP_N ? 0 : trans == CB_BLAS_OP_C && cb_blas_type_complex(t) ? 2 : 1;
    karg args[] = {A(nn), A(nr), A(ao), A(la), A(po), A(piv), A(tr), A(bo), A(lb)};
    size_t global[3] = {(size_t)nrhs, 1, 1};
    return run_kernel(b, t, K_GETRS, global, args, 9);
}

static CUresult k_getri(cb_backend *b, cb_blas_type t, int64_t n, uint64_t a, int64_t lda, uint64_t pivots, uint64_t c,
                        int64_t ldc, int *info)
{
    if (type_index(t) < 0)
        return CUDA_ERROR_NOT_SUPPORTED;
    *info = 0;
    if (n <= 0)
        return CUDA_SUCCESS;
    cl_long nn = n, la = lda, lc = ldc;
    cl_ulong ao = heap_off(b, a), po = pivots ? heap_off(b, pivots) : 0, co = heap_off(b, c), io = 0;
    cl_int piv = pivots != 0;
    karg args[] = {A(nn), A(ao), A(la), A(po), A(piv), A(co), A(lc), A(io)};
    size_t global[3] = {(size_t)n, 1, 1};
    return run_with_info(b, t, K_GETRI, global, args, 8, &io, info);
}

/* C = A^-1 with A unchanged: getrf on a packed copy (geam's kernel copies it), then getri from it. */
static CUresult k_matinv(cb_backend *b, cb_blas_type t, int64_t n, uint64_t a, int64_t lda, uint64_t c, int64_t ldc,
                         int *info)
{
    if (type_index(t) < 0)
        return CUDA_ERROR_NOT_SUPPORTED;
    *info = 0;
    if (n <= 0)
        return CUDA_SUCCESS;
    size_t es = cb_blas_type_size(t);
    cb_device_mem lu, piv;
    CUresult r = b->mem_alloc(b, (size_t)(n * n) * es, 0, &lu);
    if (r != CUDA_SUCCESS)
        return r;
    if ((r = b->mem_alloc(b, (size_t)n * sizeof(int), 0, &piv)) != CUDA_SUCCESS) {
        b->mem_free(b, &lu);
        return r;
    }
    static const double one[2] = {1, 0}, zero[2] = {0, 0};
    static const float onef[2] = {1, 0}, zerof[2] = {0, 0};
    int single = t == CB_BLAS_F32 || t == CB_BLAS_C32;
    r = k_geam(b, t, CB_BLAS_OP_N, CB_BLAS_OP_N, n, n, single ? (const void *)onef : (const void *)one, a, lda,
               single ? (const void *)zerof : (const void *)zero, 0, n, lu.addr, n);
    if (r == CUDA_SUCCESS)
        r = k_getrf(b, t, n, lu.addr, n, piv.addr, info);
    if (r == CUDA_SUCCESS && *info == 0) {
        int info2 = 0;
        r = k_getri(b, t, n, lu.addr, n, piv.addr, c, ldc, &info2);
    }
    b->mem_free(b, &piv);
    b->mem_free(b, &lu);
    return r;
}

/* rotg on host scalars: the reference BLAS's real rotg and LAPACK's complex
 * one (netlib's documented algorithms). */
static CUresult k_rotg(cb_backend *b, cb_blas_type t, void *pa, void *pb, void *pc, void *ps)
{
    (void)b;
    double a[2] = {0, 0}, bv[2] = {0, 0};
    int dbl = t == CB_BLAS_F64 || t == CB_BLAS_C64, cx = cb_blas_type_complex(t);
    if (type_index(t) < 0)
        return CUDA_ERROR_NOT_SUPPORTED;
    for (int i = 0; i < (cx ? 2 : 1); i++) {
        a[i] = dbl ? ((double *)pa)[i] : ((float *)pa)[i];
        bv[i] = dbl ? ((double *)pb)[i] : ((float *)pb)[i];
    }
    double c, s[2] = {0, 0}, out_a[2] = {0, 0}, out_b = 0;
    if (!cx) {
        double roe = fabs(a[0]) > fabs(bv[0]) ? a[0] : bv[0], scale = fabs(a[0]) + fabs(bv[0]), r, z;
        if (scale == 0) {
            c = 1, r = 0, z = 0;
        } else {
            r = scale * sqrt((a[0] / scale) * (a[0] / scale) + (bv[0] / scale) * (bv[0] / scale));
            r = roe < 0 ? -fabs(r) : fabs(r);
            c = a[0] / r;
            s[0] = bv[0] / r;
            z = 1;
            if (fabs(a[0]) > fabs(bv[0]))
                z = s[0];
            if (fabs(bv[0]) >= fabs(a[0]) && c != 0)
                z = 1 / c;
        }
        out_a[0] = r;
        out_b = z;
    } else {
        double aa = hypot(a[0], a[1]), ab = hypot(bv[0], bv[1]);
        if (aa == 0) {
            c = 0;
            s[0] = 1;
            out_a[0] = bv[0], out_a[1] = bv[1];
        } else {
            double scale = aa + ab, norm = scale * sqrt((aa / scale) * (aa / scale) + (ab / scale) * (ab / scale));
            double al[2] = {a[0] / aa, a[1] / aa};
            c = aa / norm;
            s[0] = (al[0] * bv[0] + al[1] * bv[1]) / norm;   /* alpha conj(b) / norm */
            s[1] = (al[1] * bv[0] - al[0] * bv[1]) / norm;
            out_a[0] = al[0] * norm, out_a[1] = al[1] * norm;
        }
    }
    for (int i = 0; i < (cx ? 2 : 1); i++) {
        if (dbl) {
            ((double *)pa)[i] = out_a[i];
            ((double *)ps)[i] = s[i];
        } else {
            ((float *)pa)[i] = (float)out_a[i];
            ((float *)ps)[i] = (float)s[i];
        }
    }
    if (!cx) {   /* b of a real rotation: z; a complex one leaves b */
        if (dbl)
            *(double *)pb = out_b;
        else
            *(float *)pb = (float)out_b;
    }
    if (dbl)
        *(double *)pc = c;
    else
        *(float *)pc = (float)c;
    return CUDA_SUCCESS;
}

/* rotmg on host scalars: the reference BLAS's modified Givens construction
 * (netlib's documented algorithm, in double), real types only. */
static CUresult k_rotmg(cb_backend *b, cb_blas_type t, void *pd1, void *pd2, void *px1, const void *py1, void *param)
{
    (void)b;
    if (t != CB_BLAS_F32 && t != CB_BLAS_F64)
        return CUDA_ERROR_NOT_SUPPORTED;
    int dbl = t == CB_BLAS_F64;
#define LD(p, i) (dbl ? ((const double *)(p))[i] : (double)((const float *)(p))[i])
    double d1 = LD(pd1, 0), d2 = LD(pd2, 0), x1 = LD(px1, 0), y1 = LD(py1, 0), prm[5];
    for (int i = 0; i < 5; i++)
        prm[i] = LD(param, i);
#undef LD
    const double gam = 4096, gamsq = gam * gam, rgamsq = 1 / gamsq;
    double flag = -1, h11 = 0, h12 = 0, h21 = 0, h22 = 0;
    if (d1 < 0) {
        d1 = d2 = x1 = 0;
    } else if (d2 * y1 == 0) {
        flag = -2;
        goto store;
    } else {
        double p2 = d2 * y1, p1 = d1 * x1, q2 = p2 * y1, q1 = p1 * x1;
        if (fabs(q1) > fabs(q2)) {
            h21 = -y1 / x1;
            h12 = p2 / p1;
            double u = 1 - h12 * h21;
            if (u > 0) {
                flag = 0;
                d1 /= u;
                d2 /= u;
                x1 *= u;
            } else {
                h12 = h21 = 0;
                d1 = d2 = x1 = 0;
            }
        } else if (q2 < 0) {
            d1 = d2 = x1 = 0;
        } else {
            flag = 1;
            h11 = p1 / p2;
            h22 = x1 / y1;
            double u = 1 + h11 * h22, tmp = d2 / u;
            d2 = d1 / u;
            d1 = tmp;
            x1 = y1 * u;
        }
        while (d1 != 0 && (d1 <= rgamsq || d1 >= gamsq)) {   /* rescale d1 into range, H in the full form */
            if (flag == 0)
                h11 = 1, h22 = 1;
            else
                h21 = -1, h12 = 1;
            flag = -1;
            if (d1 <= rgamsq)
                d1 *= gamsq, x1 /= gam, h11 /= gam, h12 /= gam;
            else
                d1 /= gamsq, x1 *= gam, h11 *= gam, h12 *= gam;
        }
        while (d2 != 0 && (fabs(d2) <= rgamsq || fabs(d2) >= gamsq)) {
            if (flag == 0)
                h11 = 1, h22 = 1;
            else
                h21 = -1, h12 = 1;
            flag = -1;
            if (fabs(d2) <= rgamsq)
                d2 *= gamsq, h21 /= gam, h22 /= gam;
            else
                d2 /= gamsq, h21 *= gam, h22 *= gam;
        }
    }
    if (flag < 0)
        prm[1] = h11, prm[2] = h21, prm[3] = h12, prm[4] = h22;
    else if (flag == 0)
        prm[2] = h21, prm[3] = h12;
    else
        prm[1] = h11, prm[4] = h22;
    if (dbl)
        *(double *)pd1 = d1, *(double *)pd2 = d2, *(double *)px1 = x1;
    else
        *(float *)pd1 = (float)d1, *(float *)pd2 = (float)d2, *(float *)px1 = (float)x1;
store:
    prm[0] = flag;
    for (int i = 0; i < 5; i++) {
        if (dbl)
            ((double *)param)[i] = prm[i];
        else
            ((float *)param)[i] = (float)prm[i];
    }
    return CUDA_SUCCESS;
}

/* ---- DNN: one convolution (backend_dnn.h) -------------------------------------------- */

/* The geometry cb_conv reads, as longs: 0 direction, 1 flip, 2 groups, 3 spatial dimensions, 4 N,
 * 5 C, 6 K, 7 TF32 rounding; 8.. pad, 14.. stride, 20.. dilation, 26.. input, 32.. output, 38..
 * filter extents (6 each); 44.. x's, 52.. w's, 60.. y's strides (8 each, in elements); 68 input,
 * 69 output, 70 filter positions. */
enum { GEO_LONGS = 71 };

static void conv_geometry(const cb_dnn_conv *c, cl_long g[GEO_LONGS])
{
    memset(g, 0, sizeof(cl_long) * GEO_LONGS);
    g[0] = c->direction;
    g[1] = c->flip;
    g[2] = c->groups;
    g[3] = c->nsp;
    g[4] = c->x.dim[0];
    g[5] = c->x.dim[1];
    g[6] = c->y.dim[1];
    g[7] = c->round == CB_BLAS_ROUND_TF32;
    g[68] = g[69] = g[70] = 1;
    for (int d = 0; d < c->nsp; d++) {
        g[8 + d] = c->pad[d];
        g[14 + d] = c->stride[d];
        g[20 + d] = c->dilation[d];
        g[26 + d] = c->x.dim[2 + d];
        g[32 + d] = c->y.dim[2 + d];
        g[38 + d] = c->w.dim[2 + d];
        g[68] *= c->x.dim[2 + d];
        g[69] *= c->y.dim[2 + d];
        g[70] *= c->w.dim[2 + d];
    }
    for (int d = 0; d < c->x.nd; d++) {
        g[44 + d] = c->x.stride[d];
        g[52 + d] = c->w.stride[d];
        g[60 + d] = c->y.stride[d];
    }
}

/* Convolutions whose three tensors share one type: f32 (with TF32 inputs where asked) and f16 and
 * bf16 accumulated in f32, f64 in f64 (where the device has fp64). Integer and mixed types and the
 * f16/bf16 rounding of f32 inputs are refused. */
static CUresult k_dnn_conv(cb_backend *b, const cb_dnn_conv *c)
{
    cb_blas_type t = (cb_blas_type)c->x.type;
    int inst = t == CB_BLAS_F32 ? CONV_F32 : t == CB_BLAS_F16 ? CONV_F16 : t == CB_BLAS_BF16 ? CONV_BF16
               : t == CB_BLAS_F64 ? CONV_F64 : -1;
    int acc = inst == CONV_F64 ? CB_BLAS_F64 : CB_BLAS_F32;
    if (inst < 0 || c->w.type != (int)t || c->y.type != (int)t || c->accumulate != acc || c->nsp < 1 ||
        c->nsp > CB_DNN_MAX_SPATIAL || c->x.nd != c->nsp + 2 ||
        (c->round != CB_BLAS_ROUND_NONE && !(c->round == CB_BLAS_ROUND_TF32 && t == CB_BLAS_F32)))
        return CUDA_ERROR_NOT_SUPPORTED;
    size_t es = cb_blas_type_size(t);
    cl_ulong xo = heap_off(b, c->x.addr), wo = heap_off(b, c->w.addr), yo = heap_off(b, c->y.addr);
    if (xo % es || wo % es || yo % es)
        return CUDA_ERROR_NOT_SUPPORTED;
    cl_long g[GEO_LONGS];
    conv_geometry(c, g);
    int64_t Cg = g[5] / c->groups;
    cl_long total = c->direction == CB_DNN_CONV_FWD ? g[4] * g[6] * g[69]
                    : c->direction == CB_DNN_CONV_BWD_DATA ? g[4] * g[5] * g[68] : g[6] * Cg * g[70];
    if (total <= 0)
        return CUDA_SUCCESS;
    ocl_device_view v;
    ocl_view(b, &v);
    ocl_lib_program *p = program_of(&v);
    if (!p || !p->conv[inst])
        return CUDA_ERROR_NOT_SUPPORTED;   /* no fp64 on the device, or the program did not build */
    cl_int e;
    cl_mem geo = clCreateBuffer(v.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof g, g, &e);
    if (e != CL_SUCCESS)
        return ocl_result(e);
    float af = (float)c->alpha, bf = (float)c->beta;
    double ad = c->alpha, bd = c->beta;
    int wide = inst == CONV_F64;
    size_t ss = wide ? sizeof ad : sizeof af;
    cl_int beta0 = c->beta == 0;
    karg args[] = {A(geo), A(xo), A(wo), A(yo), {ss, wide ? (const void *)&ad : (const void *)&af},
                   {ss, wide ? (const void *)&bd : (const void *)&bf}, A(beta0), A(total)};
    size_t global[3] = {(size_t)total, 1, 1};
    CUresult r = run_cl(p, &v, p->conv[inst], global, args, 8);
    clReleaseMemObject(geo);
    return r;
}

/* ---- mixed precision products (cb_blas_gemm) ------------------------------------------ */

static int mixed_input(cb_blas_type t)
{
    return t == CB_BLAS_F32 || t == CB_BLAS_F16 || t == CB_BLAS_BF16 || t == CB_BLAS_I8;
}

static int mixed_output(cb_blas_type t) { return t == CB_BLAS_F32 || t == CB_BLAS_F16 || t == CB_BLAS_BF16; }

/* D = alpha op(A) op(B) + beta C over real f32/f16/bf16/int8 inputs, accumulated in f32 (compute F32,
 * or F16, which the CPU backend accumulates in f32 too), f32/f16/bf16 outputs, with the bias, RELU and
 * GELU epilogues. The rest (products of one BLAS type go to CLBlast first, lib_clblast.c; integer
 * compute, complex mixed types, aux outputs and gradients) answers NOT_SUPPORTED. */
CUresult ocl_k_gemm_mixed(cb_backend *b, const cb_blas_gemm *g)
{
    unsigned epi = g->epilogue & ~1u;
    if (!mixed_input(g->a_type) || !mixed_input(g->b_type) || !mixed_output(g->c_type) || !mixed_output(g->d_type) ||
        (g->compute != CB_BLAS_F32 && g->compute != CB_BLAS_F16) ||
        (g->scale != CB_BLAS_F32 && g->scale != CB_BLAS_F16) ||
        (epi & ~(unsigned)(CB_BLAS_EPI_BIAS | CB_BLAS_EPI_RELU | CB_BLAS_EPI_GELU)) ||
        ((epi & CB_BLAS_EPI_RELU) && (epi & CB_BLAS_EPI_GELU)) ||
        ((epi & CB_BLAS_EPI_BIAS) && !mixed_output(g->bias_type)) || g->m < 0 || g->n < 0 || g->k < 0 ||
        g->batch < 0)
        return CUDA_ERROR_NOT_SUPPORTED;
    if (g->m == 0 || g->n == 0 || g->batch == 0)
        return CUDA_SUCCESS;
    float alpha = (float)cb_blas_load(g->scale, g->alpha, 0).re, beta = (float)cb_blas_load(g->scale, g->beta, 0).re;
    ocl_device_view v;
    ocl_view(b, &v);
    ocl_lib_program *p = program_of(&v);
    if (!p || !p->gemm_mixed)
        return CUDA_ERROR_NOT_SUPPORTED;
    cl_long geo[22] = {g->m, g->n, g->k, g->lda, g->ldb, g->ldc, g->ldd, g->trans_a != CB_BLAS_OP_N,
                       g->trans_b != CB_BLAS_OP_N, g->a_type, g->b_type, g->c_type, g->d_type, g->round, beta != 0,
                       (cl_long)epi, g->bias_type, g->stride_a, g->stride_b, g->stride_c, g->stride_d,
                       g->stride_bias};
    int arrays = g->a_array != NULL;   /* gemmBatched: one launch per entry, its own addresses */
    int64_t launches = arrays ? g->batch : 1;
    size_t global[3] = {(size_t)g->m, (size_t)g->n, arrays ? 1 : (size_t)g->batch};
    cl_int e;
    cl_mem gm = clCreateBuffer(v.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof geo, geo, &e);
    if (e != CL_SUCCESS)
        return ocl_result(e);
    CUresult r = CUDA_SUCCESS;
    for (int64_t i = 0; i < launches && r == CUDA_SUCCESS; i++) {
        cl_ulong ao = heap_off(b, arrays ? g->a_array[i] : g->a), bo = heap_off(b, arrays ? g->b_array[i] : g->b);
        cl_ulong co = heap_off(b, arrays ? g->c_array[i] : g->c), dof = heap_off(b, arrays ? g->d_array[i] : g->d);
        cl_ulong biaso = (epi & CB_BLAS_EPI_BIAS) && g->bias ? heap_off(b, g->bias) : 0;
        karg args[] = {A(gm), A(ao), A(bo), A(co), A(dof), A(biaso), A(alpha), A(beta)};
        r = run_cl(p, &v, p->gemm_mixed, global, args, 8);
    }
    clReleaseMemObject(gm);
    return r;
}

void ocl_kernels_fill(cb_backend_lib *lib)
{
    lib->dnn_conv = k_dnn_conv;
    lib->getrf = k_getrf;
    lib->getrs = k_getrs;
    lib->getri = k_getri;
    lib->matinv = k_matinv;
    lib->rotmg = k_rotmg;
    lib->rot = k_rot;
    lib->rotm = k_rotm;
    lib->rotg = k_rotg;
    lib->geam = k_geam;
    lib->dgmm = k_dgmm;
}
