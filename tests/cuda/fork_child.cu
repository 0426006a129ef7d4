// fork_child: the process uses CUDA, then forks.  In the child the first
// CUDA call returns cudaErrorInitializationError at once (CUDA does not
// survive fork); it must never hang.  The parent waits at most 30 s for the
// child, then goes on using CUDA.
#include "check.h"

#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }

static int use_cuda(int v) {
  int *d, h[32];
  CHECK(cudaMalloc(&d, sizeof h));
  fill<<<1, 32>>>(d, v);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));
  for (int i = 0; i < 32; i++)
    if (h[i] != v)
      return 0;
  return 1;
}

int main(void) {
  if (!use_cuda(1))
    fail("parent before fork");
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0)
    fail("fork");
  if (pid == 0) {
    alarm(20);                      // a hang ends the child with SIGALRM
    void *d;
    cudaError_t e = cudaMalloc(&d, 64);
    fprintf(stderr, "child: cudaMalloc returned %s\n", cudaGetErrorName(e));
    _exit(e == cudaErrorInitializationError ? 0 : 10 + (int)e % 100);
  }
  int status = 0;
  pid_t got = 0;
  for (int i = 0; i < 300 && got == 0; i++) {   // up to 30 s
    got = waitpid(pid, &status, WNOHANG);
    if (got == 0) {
      struct timespec ts = {0, 100 * 1000 * 1000};
      nanosleep(&ts, NULL);
    }
  }
  if (got == 0) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    fail("the child hung in its first CUDA call");
  }
  if (WIFSIGNALED(status)) {
    printf("FAIL the child died of signal %d\n", WTERMSIG(status));
    return 1;
  }
  if (WEXITSTATUS(status) != 0) {
    printf("FAIL the child's cudaMalloc did not return cudaErrorInitializationError (exit %d)\n",
           WEXITSTATUS(status));
    return 1;
  }
  printf("child: cudaErrorInitializationError\n");
  if (!use_cuda(2))
    fail("parent after fork");
  return pass("fork_child");
}
