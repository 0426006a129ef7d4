// A small kernel for the fatbin tests (regen.sh builds the inputs from it).
__global__ void add(float *a, const float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] += b[i];
}
