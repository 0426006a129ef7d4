// The host side of the two-file program whose .nv_fatbin section is kept.
#include <cstdio>
__global__ void add(float *a, const float *b, int n);
void launch_scale(float *a, int n);
int main() { printf("%d\n", (int)cudaDeviceSynchronize()); return 0; }
