/* cublas_streams.cu: cuBLAS calls ordered on streams with kernels, copies
 * and events, and captured into a CUDA graph:
 *   1. kernel writes x, cublasSaxpy reads it, kernel reads y -- one stream;
 *   2. two streams joined by an event: the cuBLAS call on the second waits
 *      for the first's kernel;
 *   3. a graph captured from kernel -> cublasSgemm -> kernel, launched
 *      three times (each launch feeds the next);
 *   4. device pointer mode with the scalar written by a kernel just before.
 * Each result is checked on the host. */
#include "lib_check.h"

__global__ void fill(float *p, int n, float base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + i;
}

__global__ void add_one(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1.0f;
}

__global__ void spin_then_fill(float *p, int n, float v) {
  /* a little work, so that a missing dependency would show */
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (int k = 0; k < 2000; k++) acc += 1e-9f * k;
  if (i < n) p[i] = v + acc * 0;
}

__global__ void set_scalar(float *p, float v) { *p = v; }

int main() {
  cublasHandle_t h;
  CHECK_BLAS(cublasCreate(&h));
  const int n = 1000;
  float *x, *y;
  CHECK(cudaMalloc((void **)&x, n * sizeof(float)));
  CHECK(cudaMalloc((void **)&y, n * sizeof(float)));
  std::vector<float> hy(n);

  /* 1. one stream: kernel, axpy, kernel */
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  CHECK_BLAS(cublasSetStream(h, s1));
  float a = 2;
  fill<<<(n + 255) / 256, 256, 0, s1>>>(x, n, 1);
  fill<<<(n + 255) / 256, 256, 0, s1>>>(y, n, 100);
  CHECK_BLAS(cublasSaxpy(h, n, &a, x, 1, y, 1));
  add_one<<<(n + 255) / 256, 256, 0, s1>>>(y, n);
  CHECK(cudaMemcpyAsync(hy.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost, s1));
  CHECK(cudaStreamSynchronize(s1));
  for (int i = 0; i < n; i++)
    if (hy[i] != 100 + i + 2 * (1 + i) + 1) { printf("FAIL stream order: y[%d] = %g\n", i, hy[i]); return 1; }

  /* 2. two streams and an event: s1's kernel writes x, s2's scal reads it */
  cudaEvent_t ev;
  CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
  spin_then_fill<<<(n + 255) / 256, 256, 0, s1>>>(x, n, 3);
  CHECK(cudaEventRecord(ev, s1));
  CHECK(cudaStreamWaitEvent(s2, ev, 0));
  CHECK_BLAS(cublasSetStream(h, s2));
  float three = 3;
  CHECK_BLAS(cublasSscal(h, n, &three, x, 1));
  CHECK(cudaMemcpyAsync(hy.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost, s2));
  CHECK(cudaStreamSynchronize(s2));
  for (int i = 0; i < n; i++)
    if (hy[i] != 9) { printf("FAIL event order: x[%d] = %g\n", i, hy[i]); return 1; }

  /* 3. a captured graph: C = A B (A, B from a kernel), then +1; three launches */
  const int m = 8;
  float *A, *B, *C;
  CHECK(cudaMalloc((void **)&A, m * m * sizeof(float)));
  CHECK(cudaMalloc((void **)&B, m * m * sizeof(float)));
  CHECK(cudaMalloc((void **)&C, m * m * sizeof(float)));
  CHECK(cudaMemsetAsync(C, 0, m * m * sizeof(float), s1));
  CHECK(cudaStreamSynchronize(s1));
  CHECK_BLAS(cublasSetStream(h, s1));
  float one = 1;
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  fill<<<1, m * m, 0, s1>>>(A, m * m, 0);
  add_one<<<1, m * m, 0, s1>>>(B, m * m);   /* B += 1 each launch */
  CHECK_BLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &one, A, m, B, m, &one, C, m));   /* C += A B */
  add_one<<<1, m * m, 0, s1>>>(C, m * m);
  CHECK(cudaStreamEndCapture(s1, &graph));
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(graph, NULL, &nodes));
  if (nodes < 4) { printf("FAIL graph has %zu nodes, expected at least 4\n", nodes); return 1; }
  fprintf(stderr, "captured graph: %zu nodes\n", nodes);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaMemsetAsync(B, 0, m * m * sizeof(float), s1));
  std::vector<double> Cw(m * m, 0);
  for (int launch = 1; launch <= 3; launch++) {
    CHECK(cudaGraphLaunch(exec, s1));
    for (int j = 0; j < m; j++)
      for (int i = 0; i < m; i++) {
        double s = 0;
        for (int l = 0; l < m; l++) s += (double)(i + l * m) * launch;   /* B is all `launch` */
        Cw[i + j * m] += s + 1;
      }
  }
  std::vector<float> hc(m * m);
  CHECK(cudaMemcpyAsync(hc.data(), C, m * m * sizeof(float), cudaMemcpyDeviceToHost, s1));
  CHECK(cudaStreamSynchronize(s1));
  for (int i = 0; i < m * m; i++)
    if (fabs(hc[i] - Cw[i]) > 1e-3 * fabs(Cw[i])) { printf("FAIL graph replay: C[%d] = %g, expected %g\n", i, hc[i], Cw[i]); return 1; }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));

  /* 4. device pointer mode: the scalar comes from a kernel on the same stream */
  float *dalpha;
  CHECK(cudaMalloc((void **)&dalpha, sizeof(float)));
  CHECK_BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
  fill<<<(n + 255) / 256, 256, 0, s1>>>(y, n, 0);
  set_scalar<<<1, 1, 0, s1>>>(dalpha, 0.5f);
  CHECK_BLAS(cublasSscal(h, n, dalpha, y, 1));
  float *dres;
  CHECK(cudaMalloc((void **)&dres, sizeof(float)));
  CHECK_BLAS(cublasSasum(h, n, y, 1, dres));
  float res = 0;
  CHECK(cudaMemcpyAsync(&res, dres, sizeof(float), cudaMemcpyDeviceToHost, s1));
  CHECK(cudaStreamSynchronize(s1));
  double want = 0.5 * (n - 1) * n / 2.0;
  if (fabs(res - want) > 1e-4 * want) { printf("FAIL device pointer mode: asum %g, expected %g\n", res, want); return 1; }

  CHECK_BLAS(cublasDestroy(h));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaEventDestroy(ev));
  cudaFree(x), cudaFree(y), cudaFree(A), cudaFree(B), cudaFree(C), cudaFree(dalpha), cudaFree(dres);
  printf("PASS cublas_streams\n");
  return 0;
}
