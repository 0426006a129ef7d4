// graph_conditional: conditional graph nodes (CUDA 12.4+) whose condition a
// kernel sets with cudaGraphSetConditional:
//   - IF: a kernel decides whether the body (a kernel) runs; with an else
//     body (cudaGraphCondTypeIf, size 2);
//   - WHILE: the body kernel decrements a counter and sets the condition
//     to counter != 0, so it runs as many times as the counter says; the
//     handle's default (cudaGraphCondAssignDefault) starts every launch;
//   - SWITCH: the body picked by the value;
//   - a graph launched several times, with the inputs changed between
//     launches, and the graph destroyed before its instantiation runs.
// Built with -arch=sm_90, run with CUBRIDGE_SM=90 (tests/cuda/CMakeLists.txt).
#include "check.h"

__global__ void set_if_positive(cudaGraphConditionalHandle h, const int *x) {
  if (threadIdx.x == 0) cudaGraphSetConditional(h, *x > 0);
}

__global__ void add_to(int *acc, int v) {
  if (threadIdx.x == 0) *acc += v;
}

// one loop iteration: acc += counter; counter -= 1; loop while counter != 0
__global__ void loop_body(cudaGraphConditionalHandle h, int *counter, int *acc) {
  if (threadIdx.x == 0) {
    *acc += *counter;
    *counter -= 1;
    cudaGraphSetConditional(h, *counter != 0);
  }
}

__global__ void set_value(cudaGraphConditionalHandle h, const int *x) {
  if (threadIdx.x == 0) cudaGraphSetConditional(h, (unsigned)*x);
}

static cudaGraphNode_t add_kernel(cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, void *fn, void **args) {
  cudaKernelNodeParams p = {};
  p.func = fn;
  p.gridDim = dim3(1);
  p.blockDim = dim3(32);
  p.kernelParams = args;
  cudaGraphNode_t n;
  CHECK(cudaGraphAddKernelNode(&n, g, deps, ndeps, &p));
  return n;
}

// x > 0 ? acc += 10 : acc += 1000 (if/else), as one graph
static cudaGraphExec_t make_if_graph(int *x, int *acc) {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
  void *set_args[] = {&h, &x};
  cudaGraphNode_t setter = add_kernel(g, NULL, 0, (void *)set_if_positive, set_args);
  cudaGraphNodeParams cp = {};
  cp.type = cudaGraphNodeTypeConditional;
  cp.conditional.handle = h;
  cp.conditional.type = cudaGraphCondTypeIf;
  cp.conditional.size = 2;
  cudaGraphNode_t cond;
  CHECK(cudaGraphAddNode(&cond, g, &setter, NULL, 1, &cp));
  int ten = 10, thousand = 1000;
  void *then_args[] = {&acc, &ten}, *else_args[] = {&acc, &thousand};
  add_kernel(cp.conditional.phGraph_out[0], NULL, 0, (void *)add_to, then_args);
  add_kernel(cp.conditional.phGraph_out[1], NULL, 0, (void *)add_to, else_args);
  cudaGraphExec_t e;
  CHECK(cudaGraphInstantiate(&e, g, 0));
  CHECK(cudaGraphDestroy(g));   // the instantiation keeps what it needs
  return e;
}

// while (counter != 0) { acc += counter; counter--; }, entered when the handle's default (1) says so
static cudaGraphExec_t make_while_graph(int *counter, int *acc) {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
  cudaGraphNodeParams cp = {};
  cp.type = cudaGraphNodeTypeConditional;
  cp.conditional.handle = h;
  cp.conditional.type = cudaGraphCondTypeWhile;
  cp.conditional.size = 1;
  cudaGraphNode_t cond;
  CHECK(cudaGraphAddNode(&cond, g, NULL, NULL, 0, &cp));
  void *args[] = {&h, &counter, &acc};
  add_kernel(cp.conditional.phGraph_out[0], NULL, 0, (void *)loop_body, args);
  cudaGraphExec_t e;
  CHECK(cudaGraphInstantiate(&e, g, 0));
  CHECK(cudaGraphDestroy(g));
  return e;
}

// switch (*x) { case 0: acc += 1; case 1: acc += 20; case 2: acc += 300; } (no fall-through)
static cudaGraphExec_t make_switch_graph(int *x, int *acc) {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
  void *set_args[] = {&h, &x};
  cudaGraphNode_t setter = add_kernel(g, NULL, 0, (void *)set_value, set_args);
  cudaGraphNodeParams cp = {};
  cp.type = cudaGraphNodeTypeConditional;
  cp.conditional.handle = h;
  cp.conditional.type = cudaGraphCondTypeSwitch;
  cp.conditional.size = 3;
  cudaGraphNode_t cond;
  CHECK(cudaGraphAddNode(&cond, g, &setter, NULL, 1, &cp));
  static int vals[3] = {1, 20, 300};
  for (int k = 0; k < 3; k++) {
    void *args[] = {&acc, &vals[k]};
    add_kernel(cp.conditional.phGraph_out[k], NULL, 0, (void *)add_to, args);
  }
  cudaGraphExec_t e;
  CHECK(cudaGraphInstantiate(&e, g, 0));
  CHECK(cudaGraphDestroy(g));
  return e;
}

static int read_int(const int *d) {
  int v;
  CHECK(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost));
  return v;
}

static void write_int(int *d, int v) { CHECK(cudaMemcpy(d, &v, sizeof v, cudaMemcpyHostToDevice)); }

int main() {
  int *x, *acc, *counter;
  CHECK(cudaMalloc(&x, sizeof(int)));
  CHECK(cudaMalloc(&acc, sizeof(int)));
  CHECK(cudaMalloc(&counter, sizeof(int)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));

  // IF with an else body
  cudaGraphExec_t eif = make_if_graph(x, acc);
  const int xs[4] = {5, -2, 0, 9};
  int want = 0;
  write_int(acc, 0);
  for (int i = 0; i < 4; i++) {
    write_int(x, xs[i]);
    CHECK(cudaGraphLaunch(eif, s));
    CHECK(cudaStreamSynchronize(s));
    want += xs[i] > 0 ? 10 : 1000;
    if (read_int(acc) != want) {
      printf("FAIL if/else: launch %d (x = %d): acc %d, expected %d\n", i, xs[i], read_int(acc), want);
      return 1;
    }
  }
  printf("if/else: acc = %d after 4 launches\n", want);

  // WHILE: counter n gives acc = n + (n-1) + ... + 1
  cudaGraphExec_t ewh = make_while_graph(counter, acc);
  const int ns[3] = {4, 1, 10};
  for (int i = 0; i < 3; i++) {
    write_int(counter, ns[i]);
    write_int(acc, 0);
    CHECK(cudaGraphLaunch(ewh, s));
    CHECK(cudaStreamSynchronize(s));
    int got = read_int(acc), w = ns[i] * (ns[i] + 1) / 2;
    if (got != w || read_int(counter) != 0) {
      printf("FAIL while: counter %d: acc %d, expected %d (counter now %d)\n", ns[i], got, w, read_int(counter));
      return 1;
    }
    printf("while: counter %d -> acc %d\n", ns[i], got);
  }

  // SWITCH: values 0..2 pick a body, 3 picks none
  cudaGraphExec_t esw = make_switch_graph(x, acc);
  write_int(acc, 0);
  want = 0;
  for (int v = 0; v < 4; v++) {
    write_int(x, v);
    CHECK(cudaGraphLaunch(esw, s));
    CHECK(cudaStreamSynchronize(s));
    want += v == 0 ? 1 : v == 1 ? 20 : v == 2 ? 300 : 0;
  }
  if (read_int(acc) != want) {
    printf("FAIL switch: acc %d, expected %d\n", read_int(acc), want);
    return 1;
  }
  printf("switch: acc = %d\n", want);

  // errors: a size of 3 for an IF node, a handle of another graph
  cudaGraph_t g1, g2;
  CHECK(cudaGraphCreate(&g1, 0));
  CHECK(cudaGraphCreate(&g2, 0));
  cudaGraphConditionalHandle h1;
  CHECK(cudaGraphConditionalHandleCreate(&h1, g1, 0, 0));
  cudaGraphNodeParams bad = {};
  bad.type = cudaGraphNodeTypeConditional;
  bad.conditional.handle = h1;
  bad.conditional.type = cudaGraphCondTypeIf;
  bad.conditional.size = 3;
  cudaGraphNode_t n;
  EXPECT_ERROR(cudaGraphAddNode(&n, g1, NULL, NULL, 0, &bad), cudaErrorInvalidValue);
  CHECK(cudaGraphDestroy(g1));
  CHECK(cudaGraphDestroy(g2));

  CHECK(cudaGraphExecDestroy(eif));
  CHECK(cudaGraphExecDestroy(ewh));
  CHECK(cudaGraphExecDestroy(esw));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(x));
  CHECK(cudaFree(acc));
  CHECK(cudaFree(counter));
  return pass("graph_conditional");
}
