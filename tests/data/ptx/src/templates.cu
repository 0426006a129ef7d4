// Templates: mangled names.
template <typename T> __global__ void add_const(T *p, T v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += v;
}
template <typename T, int N> __device__ T reduce_local(const T *p)
{
    T s = 0;
#pragma unroll
    for (int i = 0; i < N; i++) s += p[i];
    return s;
}
template <typename T> __global__ void sum4(const T *in, T *out)
{
    T loc[4];
    for (int i = 0; i < 4; i++) loc[i] = in[threadIdx.x * 4 + i] * (T)(threadIdx.x + 1);
    out[threadIdx.x] = reduce_local<T, 4>(loc);
}
template __global__ void add_const<int>(int *, int, int);
template __global__ void add_const<float>(float *, float, int);
template __global__ void add_const<double>(double *, double, int);
template __global__ void sum4<float>(const float *, float *);
template __global__ void sum4<long long>(const long long *, long long *);
