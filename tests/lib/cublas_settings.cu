/* cublas_settings.cu: the cuBLAS handle and its settings, versions, status
 * texts, the API logger (file and callback), and the host <-> device
 * helpers Set/GetVector and Set/GetMatrix (synchronous, Async on a stream,
 * and the 64-bit forms), each checked. */
#include <unistd.h>

#include "lib_check.h"

static int log_lines = 0;
static bool log_named_sgemm = false;
static void log_callback(const char *msg) {
  log_lines++;
  if (strstr(msg, "Sgemm")) log_named_sgemm = true;
}

int main() {
  cublasHandle_t h;
  CHECK_BLAS(cublasCreate(&h));

  int version = 0;
  CHECK_BLAS(cublasGetVersion(h, &version));
  if (version / 10000 != CUBLAS_VER_MAJOR) { printf("FAIL cublasGetVersion %d\n", version); return 1; }
  int major = -1, minor = -1, patch = -1;
  CHECK_BLAS(cublasGetProperty(MAJOR_VERSION, &major));
  CHECK_BLAS(cublasGetProperty(MINOR_VERSION, &minor));
  CHECK_BLAS(cublasGetProperty(PATCH_LEVEL, &patch));
  if (major != CUBLAS_VER_MAJOR || minor < 0 || patch < 0) { printf("FAIL cublasGetProperty %d\n", major); return 1; }
  if (cublasGetCudartVersion() / 1000 != CUDART_VERSION / 1000) {
    printf("FAIL cublasGetCudartVersion %zu\n", cublasGetCudartVersion());
    return 1;
  }
  fprintf(stderr, "cuBLAS %d.%d.%d (version %d)\n", major, minor, patch, version);

  /* settings round-trip */
  cudaStream_t s, got_s = (cudaStream_t)1;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK_BLAS(cublasGetStream(h, &got_s));
  if (got_s != NULL) { printf("FAIL default stream is not NULL\n"); return 1; }
  CHECK_BLAS(cublasSetStream(h, s));
  CHECK_BLAS(cublasGetStream(h, &got_s));
  if (got_s != s) { printf("FAIL cublasGetStream\n"); return 1; }
  cublasPointerMode_t pm;
  CHECK_BLAS(cublasGetPointerMode(h, &pm));
  if (pm != CUBLAS_POINTER_MODE_HOST) { printf("FAIL default pointer mode\n"); return 1; }
  CHECK_BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
  CHECK_BLAS(cublasGetPointerMode(h, &pm));
  if (pm != CUBLAS_POINTER_MODE_DEVICE) { printf("FAIL cublasSetPointerMode\n"); return 1; }
  CHECK_BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
  cublasAtomicsMode_t am;
  CHECK_BLAS(cublasGetAtomicsMode(h, &am));
  if (am != CUBLAS_ATOMICS_NOT_ALLOWED) { printf("FAIL default atomics mode\n"); return 1; }
  CHECK_BLAS(cublasSetAtomicsMode(h, CUBLAS_ATOMICS_ALLOWED));
  CHECK_BLAS(cublasGetAtomicsMode(h, &am));
  if (am != CUBLAS_ATOMICS_ALLOWED) { printf("FAIL cublasSetAtomicsMode\n"); return 1; }
  cublasMath_t mm;
  CHECK_BLAS(cublasGetMathMode(h, &mm));
  if (mm != CUBLAS_DEFAULT_MATH) { printf("FAIL default math mode %d\n", (int)mm); return 1; }
  const cublasMath_t modes[] = {CUBLAS_PEDANTIC_MATH, CUBLAS_TF32_TENSOR_OP_MATH,
                                (cublasMath_t)(CUBLAS_DEFAULT_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION),
                                CUBLAS_DEFAULT_MATH};
  for (int i = 0; i < 4; i++) {
    CHECK_BLAS(cublasSetMathMode(h, modes[i]));
    CHECK_BLAS(cublasGetMathMode(h, &mm));
    if (mm != modes[i]) { printf("FAIL cublasSetMathMode %d -> %d\n", (int)modes[i], (int)mm); return 1; }
  }
  int sms = -1;
  CHECK_BLAS(cublasSetSmCountTarget(h, 4));
  CHECK_BLAS(cublasGetSmCountTarget(h, &sms));
  if (sms != 4) { printf("FAIL cublasGetSmCountTarget %d\n", sms); return 1; }
  CHECK_BLAS(cublasSetSmCountTarget(h, 0));
  cublasEmulationStrategy_t es;
  CHECK_BLAS(cublasSetEmulationStrategy(h, CUBLAS_EMULATION_STRATEGY_EAGER));
  CHECK_BLAS(cublasGetEmulationStrategy(h, &es));
  if (es != CUBLAS_EMULATION_STRATEGY_EAGER) { printf("FAIL cublasGetEmulationStrategy\n"); return 1; }
  CHECK_BLAS(cublasSetEmulationStrategy(h, CUBLAS_EMULATION_STRATEGY_DEFAULT));
  void *ws;
  CHECK(cudaMalloc(&ws, 1 << 20));
  CHECK_BLAS(cublasSetWorkspace(h, ws, 1 << 20));

  /* status texts */
  if (strcmp(cublasGetStatusName(CUBLAS_STATUS_NOT_SUPPORTED), "CUBLAS_STATUS_NOT_SUPPORTED") != 0 ||
      strcmp(cublasGetStatusName(CUBLAS_STATUS_SUCCESS), "CUBLAS_STATUS_SUCCESS") != 0) {
    printf("FAIL cublasGetStatusName\n");
    return 1;
  }
  if (!cublasGetStatusString(CUBLAS_STATUS_INVALID_VALUE) || !cublasGetStatusString(CUBLAS_STATUS_INVALID_VALUE)[0]) {
    printf("FAIL cublasGetStatusString\n");
    return 1;
  }

  /* Set/GetVector and Set/GetMatrix, with strides on both sides */
  const int n = 10, incx = 3, incy = 2;
  std::vector<float> hx(n * incx), back(n * incx, -1);
  for (int i = 0; i < n * incx; i++) hx[i] = (float)i;
  float *dy;
  CHECK(cudaMalloc((void **)&dy, n * incy * sizeof(float) * 2));
  CHECK(cudaMemset(dy, 0, n * incy * sizeof(float) * 2));
  for (int w = 0; w < 4; w++) {
    std::fill(back.begin(), back.end(), -1.0f);
    switch (w) {
    case 0:
      CHECK_BLAS(cublasSetVector(n, sizeof(float), hx.data(), incx, dy, incy));
      CHECK_BLAS(cublasGetVector(n, sizeof(float), dy, incy, back.data(), incx));
      break;
    case 1:
      CHECK_BLAS(cublasSetVector_64(n, sizeof(float), hx.data(), incx, dy, incy));
      CHECK_BLAS(cublasGetVector_64(n, sizeof(float), dy, incy, back.data(), incx));
      break;
    case 2:
      CHECK_BLAS(cublasSetVectorAsync(n, sizeof(float), hx.data(), incx, dy, incy, s));
      CHECK_BLAS(cublasGetVectorAsync(n, sizeof(float), dy, incy, back.data(), incx, s));
      CHECK(cudaStreamSynchronize(s));
      break;
    default:
      CHECK_BLAS(cublasSetVectorAsync_64(n, sizeof(float), hx.data(), incx, dy, incy, s));
      CHECK_BLAS(cublasGetVectorAsync_64(n, sizeof(float), dy, incy, back.data(), incx, s));
      CHECK(cudaStreamSynchronize(s));
      break;
    }
    for (int i = 0; i < n * incx; i++) {
      float want = i % incx == 0 ? hx[i] : -1.0f;
      if (back[i] != want) { printf("FAIL Set/GetVector form %d: [%d] = %g, expected %g\n", w, i, back[i], want); return 1; }
    }
  }
  const int rows = 5, cols = 4, lda = 7, ldb = 6;
  std::vector<double> hA(lda * cols), hB(lda * cols);
  for (int i = 0; i < lda * cols; i++) hA[i] = i * 0.5;
  double *dB;
  CHECK(cudaMalloc((void **)&dB, ldb * cols * sizeof(double)));
  for (int w = 0; w < 4; w++) {
    std::fill(hB.begin(), hB.end(), -7.0);
    switch (w) {
    case 0:
      CHECK_BLAS(cublasSetMatrix(rows, cols, sizeof(double), hA.data(), lda, dB, ldb));
      CHECK_BLAS(cublasGetMatrix(rows, cols, sizeof(double), dB, ldb, hB.data(), lda));
      break;
    case 1:
      CHECK_BLAS(cublasSetMatrix_64(rows, cols, sizeof(double), hA.data(), lda, dB, ldb));
      CHECK_BLAS(cublasGetMatrix_64(rows, cols, sizeof(double), dB, ldb, hB.data(), lda));
      break;
    case 2:
      CHECK_BLAS(cublasSetMatrixAsync(rows, cols, sizeof(double), hA.data(), lda, dB, ldb, s));
      CHECK_BLAS(cublasGetMatrixAsync(rows, cols, sizeof(double), dB, ldb, hB.data(), lda, s));
      CHECK(cudaStreamSynchronize(s));
      break;
    default:
      CHECK_BLAS(cublasSetMatrixAsync_64(rows, cols, sizeof(double), hA.data(), lda, dB, ldb, s));
      CHECK_BLAS(cublasGetMatrixAsync_64(rows, cols, sizeof(double), dB, ldb, hB.data(), lda, s));
      CHECK(cudaStreamSynchronize(s));
      break;
    }
    for (int j = 0; j < cols; j++)
      for (int i = 0; i < lda; i++) {
        double want = i < rows ? hA[i + j * lda] : -7.0;
        if (hB[i + j * lda] != want) { printf("FAIL Set/GetMatrix form %d: (%d,%d)\n", w, i, j); return 1; }
      }
  }
  EXPECT_STATUS(cublasSetVector(n, sizeof(float), hx.data(), 0, dy, 1), CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasSetMatrix(rows, cols, sizeof(double), hA.data(), rows - 1, dB, ldb), CUBLAS_STATUS_MAPPING_ERROR);

  /* the API logger: to a callback, and to a file */
  CHECK_BLAS(cublasSetLoggerCallback(log_callback));
  cublasLogCallback cb = NULL;
  CHECK_BLAS(cublasGetLoggerCallback(&cb));
  if (cb != log_callback) { printf("FAIL cublasGetLoggerCallback\n"); return 1; }
  char path[] = "/tmp/cublas_settings_logXXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) { printf("FAIL mkstemp\n"); return 1; }
  close(fd);
  CHECK_BLAS(cublasLoggerConfigure(1, 0, 0, path));
  float one = 1, *dA;
  CHECK(cudaMalloc((void **)&dA, 16 * sizeof(float)));
  CHECK(cudaMemset(dA, 0, 16 * sizeof(float)));
  CHECK_BLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, dA, 4, dA, 4, &one, dA, 4));
  CHECK(cudaDeviceSynchronize());
  CHECK_BLAS(cublasLoggerConfigure(0, 0, 0, NULL));
  CHECK_BLAS(cublasSetLoggerCallback(NULL));
  if (log_lines < 1 || !log_named_sgemm) { printf("FAIL logger callback: %d lines, Sgemm named %d\n", log_lines, log_named_sgemm); return 1; }
  FILE *f = fopen(path, "r");
  char buf[4096] = "";
  size_t got = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  buf[got] = 0;
  if (f) fclose(f);
  unlink(path);
  if (!strstr(buf, "Sgemm")) { printf("FAIL logger file has no Sgemm line\n"); return 1; }

  CHECK_BLAS(cublasDestroy(h));
  cudaFree(ws), cudaFree(dy), cudaFree(dB), cudaFree(dA);
  CHECK(cudaStreamDestroy(s));
  printf("PASS cublas_settings\n");
  return 0;
}
