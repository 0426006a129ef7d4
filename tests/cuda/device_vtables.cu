// device_vtables: device data that holds addresses.  nvcc turns each of these
// into a .global/.const variable with an address initialiser, which the
// loader must resolve when the module loads, before any launch:
//   - virtual functions: objects built on the device with `new` and with
//     placement new into cudaMalloc'd memory (used again by a later kernel);
//     CUDA does not allow calling virtual functions of objects built on the
//     host (their vtable pointers are host addresses), so none are;
//   - tables of __device__ function pointers, in __device__ and __constant__
//     memory, called from a kernel;
//   - a __device__ pointer to another global, and a linked list in device
//     data, read on the device and on the host (cudaMemcpyFromSymbol, where
//     the pointer must equal cudaGetSymbolAddress of its target).
#include <new>
#include "check.h"

struct Shape {
  int id;
  __device__ explicit Shape(int i) : id(i) {}
  __device__ virtual int area() const = 0;
  __device__ virtual int sides() const { return 0; }
  __device__ virtual ~Shape() {}
};
struct Square : Shape {
  int s;
  __device__ Square(int i, int s) : Shape(i), s(s) {}
  __device__ int area() const override { return s * s; }
  __device__ int sides() const override { return 4; }
};
struct Rect : Square {   // a second level: overrides area, inherits sides
  int h;
  __device__ Rect(int i, int w, int h) : Square(i, w), h(h) {}
  __device__ int area() const override { return s * h; }
};
struct Tri : Shape {
  int b, h;
  __device__ Tri(int i, int b, int h) : Shape(i), b(b), h(h) {}
  __device__ int area() const override { return b * h / 2; }
  __device__ int sides() const override { return 3 + Shape::sides(); }
};

__device__ int f_inc(int x) { return x + 1; }
__device__ int f_dbl(int x) { return 2 * x; }
__device__ int f_sq(int x) { return x * x; }
__device__ int f_neg(int x) { return -x; }
__device__ int (*table[])(int) = {f_inc, f_dbl, f_sq, f_neg};
__constant__ int (*ctable[])(int) = {f_neg, f_sq, f_dbl, f_inc};

__device__ int values[8] = {10, 11, 12, 13, 14, 15, 16, 17};
__device__ int *value_ptr = &values[5];
struct Node { int v; const Node *next; };
__device__ const Node node2 = {2, nullptr};   // a chain 4 -> 1 -> 3 -> 2 (nvcc refuses cycles)
__device__ const Node node3 = {3, &node2};
__device__ const Node node1 = {1, &node3};
__device__ const Node node4[2] = {{4, &node1}, {5, &node1}};

static int host_area(int i) {
  switch (i % 3) {
  case 0: return (i % 7) * (i % 7);
  case 1: return (i % 5) * (i % 4 + 1);
  default: return (i % 6) * (i % 9) / 2;
  }
}
static int host_sides(int i) { return i % 3 == 2 ? 3 : 4; }
static int host_fn(int k, int x) {
  switch (k & 3) {
  case 0: return x + 1;
  case 1: return 2 * x;
  case 2: return x * x;
  default: return -x;
  }
}

__device__ Shape *make(int i) {
  switch (i % 3) {
  case 0: return new Square(i, i % 7);
  case 1: return new Rect(i, i % 5, i % 4 + 1);
  default: return new Tri(i, i % 6, i % 9);
  }
}

// Objects made with device `new`, used and deleted in the same kernel.
__global__ void shapes_new(int *area, int *sides, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Shape *s = make(i);
  if (!s) { area[i] = -1; return; }
  area[i] = s->area() + 1000 * s->id;
  sides[i] = s->sides();
  delete s;
}

// Objects built by placement new in cudaMalloc'd memory by one kernel and
// called through their vtables by another.
union Slot { Square sq; Rect r; Tri t; __device__ Slot() {} };
__global__ void shapes_build(Slot *slots, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  switch (i % 3) {
  case 0: new (&slots[i]) Square(i, i % 7); break;
  case 1: new (&slots[i]) Rect(i, i % 5, i % 4 + 1); break;
  default: new (&slots[i]) Tri(i, i % 6, i % 9); break;
  }
}
__global__ void shapes_use(const Slot *slots, int *area, int *sides, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Shape *s = reinterpret_cast<const Shape *>(&slots[i]);
  area[i] = s->area() + 1000 * s->id;
  sides[i] = s->sides();
}

__global__ void call_tables(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[2 * i] = table[i & 3](i);
  out[2 * i + 1] = ctable[i & 3](i);
}

__global__ void read_pointers(int *out, unsigned long long *addrs) {
  out[0] = *value_ptr;
  out[1] = value_ptr[2];
  int sum = 0, hops = 0;
  for (const Node *p = &node4[0]; p; p = p->next) { sum = sum * 10 + p->v; hops++; }
  out[2] = sum;
  out[3] = hops;
  addrs[0] = (unsigned long long)(size_t)value_ptr;
  addrs[1] = (unsigned long long)(size_t)&values[5];
  addrs[2] = (unsigned long long)(size_t)table[1];
  addrs[3] = (unsigned long long)(size_t)&f_dbl;
}

int main(void) {
  const int n = 300;
  int *d_area, *d_sides, *d_out;
  Slot *d_slots;
  unsigned long long *d_addrs;
  CHECK(cudaMalloc(&d_area, n * sizeof(int)));
  CHECK(cudaMalloc(&d_sides, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, 2 * n * sizeof(int)));
  CHECK(cudaMalloc(&d_slots, n * sizeof(Slot)));
  CHECK(cudaMalloc(&d_addrs, 4 * sizeof(unsigned long long)));
  int *area = (int *)malloc(n * sizeof(int)), *sides = (int *)malloc(n * sizeof(int));
  int *want_area = (int *)malloc(n * sizeof(int)), *want_sides = (int *)malloc(n * sizeof(int));
  int *out = (int *)malloc(2 * n * sizeof(int)), *want_out = (int *)malloc(2 * n * sizeof(int));
  for (int i = 0; i < n; i++) {
    want_area[i] = host_area(i) + 1000 * i;
    want_sides[i] = host_sides(i);
    want_out[2 * i] = host_fn(i, i);
    want_out[2 * i + 1] = host_fn(3 - (i & 3), i);
  }

  // Host reads of address-holding data come before any launch: the loader
  // must have resolved them when the module loaded.
  int *host_value_ptr = nullptr;
  void *values_addr = nullptr;
  CHECK(cudaMemcpyFromSymbol(&host_value_ptr, value_ptr, sizeof host_value_ptr));
  CHECK(cudaGetSymbolAddress(&values_addr, values));
  if (host_value_ptr != (int *)values_addr + 5) fail("value_ptr read from the host is not &values[5]");
  void *host_table[4], *host_ctable[4];
  CHECK(cudaMemcpyFromSymbol(host_table, table, sizeof host_table));
  CHECK(cudaMemcpyFromSymbol(host_ctable, ctable, sizeof host_ctable));
  for (int k = 0; k < 4; k++) {
    if (!host_table[k] || !host_ctable[k]) fail("a function-pointer table entry read from the host is null");
    if (host_table[k] != host_ctable[3 - k]) fail("table and ctable name different functions");
  }
  Node host_nodes[2], host_node3, host_node2;
  void *node1_addr = nullptr, *node2_addr = nullptr;
  CHECK(cudaMemcpyFromSymbol(host_nodes, node4, sizeof host_nodes));
  CHECK(cudaMemcpyFromSymbol(&host_node3, node3, sizeof host_node3));
  CHECK(cudaMemcpyFromSymbol(&host_node2, node2, sizeof host_node2));
  CHECK(cudaGetSymbolAddress(&node1_addr, node1));
  CHECK(cudaGetSymbolAddress(&node2_addr, node2));
  if (host_nodes[0].next != node1_addr || host_nodes[1].next != node1_addr || host_node3.next != node2_addr ||
      host_node2.next != nullptr || host_nodes[1].v != 5 || host_node3.v != 3)
    fail("the list's next pointers read from the host are wrong");

  shapes_new<<<(n + 63) / 64, 64>>>(d_area, d_sides, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(area, d_area, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sides, d_sides, n * sizeof(int), cudaMemcpyDeviceToHost));
  check_i32("new: area", area, want_area, n);
  check_i32("new: sides", sides, want_sides, n);

  CHECK(cudaMemset(d_area, 0, n * sizeof(int)));
  CHECK(cudaMemset(d_sides, 0, n * sizeof(int)));
  shapes_build<<<(n + 127) / 128, 128>>>(d_slots, n);
  CHECK_LAUNCH();
  shapes_use<<<(n + 31) / 32, 32>>>(d_slots, d_area, d_sides, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(area, d_area, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sides, d_sides, n * sizeof(int), cudaMemcpyDeviceToHost));
  check_i32("placement new: area", area, want_area, n);
  check_i32("placement new: sides", sides, want_sides, n);

  call_tables<<<(n + 127) / 128, 128>>>(d_out, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out, d_out, 2 * n * sizeof(int), cudaMemcpyDeviceToHost));
  check_i32("function-pointer tables", out, want_out, 2 * n);

  unsigned long long addrs[4];
  read_pointers<<<1, 1>>>(d_out, d_addrs);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out, d_out, 4 * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(addrs, d_addrs, sizeof addrs, cudaMemcpyDeviceToHost));
  int want_ptrs[4] = {15, 17, 4132, 4};
  check_i32("pointers in device data", out, want_ptrs, 4);
  if (addrs[0] != addrs[1]) fail("value_ptr on the device is not &values[5]");
  if (addrs[0] != (unsigned long long)(size_t)host_value_ptr) fail("value_ptr differs between host and device");
  if (addrs[2] != addrs[3]) fail("table[1] on the device is not f_dbl");
  if (addrs[2] != (unsigned long long)(size_t)host_table[1]) fail("table[1] differs between host and device");

  // Writing a table entry from the host (a value read back from the device
  // data) keeps it callable: swap the first two entries.
  void *swapped[2] = {host_table[1], host_table[0]};
  CHECK(cudaMemcpyToSymbol(table, swapped, sizeof swapped));
  call_tables<<<1, 32>>>(d_out, 32);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out, d_out, 64 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 32; i++) {
    int k = i & 3, kk = k == 0 ? 1 : k == 1 ? 0 : k;
    want_out[2 * i] = host_fn(kk, i);
    want_out[2 * i + 1] = host_fn(3 - k, i);
  }
  check_i32("swapped function-pointer table", out, want_out, 64);

  CHECK(cudaFree(d_area));
  CHECK(cudaFree(d_sides));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_slots));
  CHECK(cudaFree(d_addrs));
  free(area); free(sides); free(want_area); free(want_sides); free(out); free(want_out);
  return pass("device_vtables");
}
