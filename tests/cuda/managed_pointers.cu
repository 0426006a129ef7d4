// managed_pointers: pointers that the host and the device share, as programs
// that use unified memory write them.
//   1. the host builds a linked list of nodes in one cudaMallocManaged pool,
//      with next pointers written on the host; a kernel walks it (one thread
//      per list, pointer chasing through memory), sums each list and appends
//      a node of its own; the host walks the lists again through the
//      pointers the kernel wrote;
//   2. a struct of arrays whose members are device pointers, itself in
//      managed memory: a kernel reads the pointers out of the struct and does
//      pointer arithmetic on them (offsets, differences, comparisons);
//   3. a __managed__ pointer variable set on the host to managed memory and
//      dereferenced in a kernel.
// A device address here must be the same number in the host and in the
// kernel: on the OpenCL backend this needs shared virtual memory (SVM).
#include "check.h"

struct Node {
  int value;
  int list;
  Node *next;
};

struct Soa {
  float *x, *y;
  int *idx;
  long long n;
};

__managed__ int *managed_target;

#define LISTS 64
#define PER_LIST 37

__global__ void walk_lists(Node **heads, Node *spare, int *sums, int *lengths) {
  int l = blockIdx.x * blockDim.x + threadIdx.x;
  if (l >= LISTS) return;
  int sum = 0, len = 0;
  Node *last = NULL;
  for (Node *p = heads[l]; p; p = p->next) {
    if (p->list != l) { sum = -1000000; break; }   // a pointer that leads elsewhere
    sum += p->value;
    len++;
    last = p;
  }
  sums[l] = sum;
  lengths[l] = len;
  Node *mine = &spare[l];   // appended on the device: the host follows this pointer
  mine->value = 1000 + l;
  mine->list = l;
  mine->next = NULL;
  if (last) last->next = mine;
}

__global__ void soa_kernel(const Soa *s, float *out, long long *diffs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= s->n) return;
  const float *xp = s->x + s->idx[i];   // a gather through a pointer read from memory
  const float *yp = s->y + i;
  out[i] = *xp * 2.0f + *yp;
  if (i == 0) {
    diffs[0] = (long long)(s->y - s->x);                      // element difference of two pointers
    diffs[1] = (const char *)(s->x + s->n) == (const char *)s->x + s->n * sizeof(float);
    diffs[2] = (long long)((unsigned long long)s->idx & 255); // CUDA's 256-byte alignment
  }
}

__global__ void bump_target(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) managed_target[i] += i * i;
}

int main(void) {
  // 1. linked lists built on the host, walked and extended on the device
  Node *pool, *spare, **heads;
  int *sums, *lengths;
  CHECK(cudaMallocManaged(&pool, LISTS * PER_LIST * sizeof(Node)));
  CHECK(cudaMallocManaged(&spare, LISTS * sizeof(Node)));
  CHECK(cudaMallocManaged(&heads, LISTS * sizeof(Node *)));
  CHECK(cudaMallocManaged(&sums, LISTS * sizeof(int)));
  CHECK(cudaMallocManaged(&lengths, LISTS * sizeof(int)));
  // node k of list l sits at a scattered place in the pool, so that the walk jumps around
  for (int l = 0; l < LISTS; l++) {
    Node *prev = NULL;
    for (int k = 0; k < PER_LIST; k++) {
      int slot = (int)(((long long)(l * PER_LIST + k) * 2654435761LL) % (LISTS * PER_LIST));
      Node *nd = &pool[slot];
      nd->value = l * 3 + k;
      nd->list = l;
      nd->next = NULL;
      if (prev) prev->next = nd; else heads[l] = nd;
      prev = nd;
    }
  }
  walk_lists<<<2, 32>>>(heads, spare, sums, lengths);
  CHECK_LAUNCH();
  for (int l = 0; l < LISTS; l++) {
    int want = 0;
    for (int k = 0; k < PER_LIST; k++) want += l * 3 + k;
    if (sums[l] != want || lengths[l] != PER_LIST) {
      printf("FAIL list %d: sum %d length %d, expected %d and %d\n", l, sums[l], lengths[l], want, PER_LIST);
      return 1;
    }
    int len = 0, last = -1;
    for (Node *p = heads[l]; p; p = p->next) len++, last = p->value;   // through the kernel's pointer
    if (len != PER_LIST + 1 || last != 1000 + l) {
      printf("FAIL list %d on the host after the kernel: length %d, last value %d\n", l, len, last);
      return 1;
    }
  }

  // 2. a struct of device pointers in managed memory
  const int n = 5000;
  Soa *s;
  float *out;
  long long *diffs;
  CHECK(cudaMallocManaged(&s, sizeof(Soa)));
  CHECK(cudaMallocManaged(&s->x, 2 * n * sizeof(float)));   // x and y in one allocation
  s->y = s->x + n;
  CHECK(cudaMallocManaged(&s->idx, n * sizeof(int)));
  CHECK(cudaMallocManaged(&out, n * sizeof(float)));
  CHECK(cudaMallocManaged(&diffs, 3 * sizeof(long long)));
  s->n = n;
  for (int i = 0; i < n; i++) {
    s->x[i] = 0.25f * (float)(i % 101);
    s->y[i] = -1.0f * (float)(i % 13);
    s->idx[i] = (i * 7919) % n;
  }
  soa_kernel<<<(n + 127) / 128, 128>>>(s, out, diffs);
  CHECK_LAUNCH();
  for (int i = 0; i < n; i++) {
    float want = s->x[s->idx[i]] * 2.0f + s->y[i];
    if (out[i] != want) {
      printf("FAIL soa[%d] = %g, expected %g\n", i, out[i], want);
      return 1;
    }
  }
  if (diffs[0] != n || diffs[1] != 1 || diffs[2] != 0) {
    printf("FAIL pointer arithmetic: difference %lld, end %lld, alignment %lld\n", diffs[0], diffs[1], diffs[2]);
    return 1;
  }

  // 3. a __managed__ pointer to managed memory
  int *target;
  CHECK(cudaMallocManaged(&target, 300 * sizeof(int)));
  for (int i = 0; i < 300; i++) target[i] = i;
  managed_target = target;
  bump_target<<<3, 128>>>(300);
  CHECK_LAUNCH();
  for (int i = 0; i < 300; i++)
    if (target[i] != i + i * i) {
      printf("FAIL managed_target[%d] = %d\n", i, target[i]);
      return 1;
    }

  CHECK(cudaFree(target));
  CHECK(cudaFree(diffs));
  CHECK(cudaFree(out));
  CHECK(cudaFree(s->idx));
  CHECK(cudaFree(s->x));
  CHECK(cudaFree(s));
  CHECK(cudaFree(lengths));
  CHECK(cudaFree(sums));
  CHECK(cudaFree(heads));
  CHECK(cudaFree(spare));
  CHECK(cudaFree(pool));
  return pass("managed_pointers");
}
