// A second translation unit for the multi-fatbin tests.
__global__ void scale(float *a, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] *= s;
}
void launch_scale(float *a, int n) { scale<<<1, 32>>>(a, 2.0f, n); }
