/* test_core_memory.c: the memory driver API with a real context: copies of
 * every shape, memsets, validation errors, double free, OOM and recovery,
 * pinned/registered host memory, pointer attributes. */
#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);                 \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)
#define OK(call) CHECK((call) == CUDA_SUCCESS)

static void test_roundtrip(void)
{
    enum { N = 1000 };
    int host[N], back[N];
    for (int i = 0; i < N; i++)
        host[i] = i * 3 + 1;
    CUdeviceptr a, b;
    OK(cuMemAlloc_v2(&a, sizeof host));
    OK(cuMemAlloc_v2(&b, sizeof host));
    CHECK(a % 256 == 0 && b % 256 == 0);
    OK(cuMemcpyHtoD_v2(a, host, sizeof host));
    OK(cuMemcpyDtoD_v2(b, a, sizeof host));
    memset(back, 0, sizeof back);
    OK(cuMemcpyDtoH_v2(back, b, sizeof back));
    CHECK(memcmp(host, back, sizeof host) == 0);
    /* unified cuMemcpy infers the direction */
    memset(back, 0, sizeof back);
    OK(cuMemcpy((CUdeviceptr)(uintptr_t)back, a, sizeof back));
    CHECK(memcmp(host, back, sizeof host) == 0);
    /* per-thread-default-stream twins */
    OK(cuMemcpyHtoD_v2_ptds(a, back, sizeof back));
    OK(cuMemcpyDtoH_v2_ptds(back, a, sizeof back));
    CHECK(memcmp(host, back, sizeof host) == 0);
    /* async forms on the NULL stream */
    OK(cuMemcpyHtoDAsync_v2(b, host, sizeof host, NULL));
    OK(cuMemcpyDtoHAsync_v2(back, b, sizeof back, NULL)); /* pageable: returns when done */
    CHECK(memcmp(host, back, sizeof host) == 0);
    /* memsets */
    OK(cuMemsetD32_v2(a, 0xdeadbeefu, N));
    OK(cuMemcpyDtoH_v2(back, a, sizeof back));
    CHECK((unsigned)back[0] == 0xdeadbeefu && (unsigned)back[N - 1] == 0xdeadbeefu);
    OK(cuMemsetD16_v2(a, 0x1234, 2 * N));
    OK(cuMemcpyDtoH_v2(back, a, sizeof back));
    CHECK((unsigned)back[5] == 0x12341234u);
    OK(cuMemsetD8_v2(a + 1, 0x7f, 2));
    OK(cuMemcpyDtoH_v2(back, a, sizeof back));
    CHECK((unsigned)back[0] == 0x127f7f34u);
    OK(cuMemsetD8Async(a, 0, sizeof host, NULL));
    OK(cuMemcpyDtoH_v2(back, a, sizeof back));
    CHECK(back[0] == 0 && back[N - 1] == 0);
    CHECK(cuMemsetD32_v2(a + 2, 0, 4) == CUDA_ERROR_INVALID_VALUE); /* misaligned */
    OK(cuMemFree_v2(a));
    OK(cuMemFree_v2(b));
}

static void test_2d_3d(void)
{
    CUdeviceptr d;
    size_t pitch;
    OK(cuMemAllocPitch_v2(&d, &pitch, 100, 8, 4));
    CHECK(pitch >= 100 && pitch % 256 == 0);
    CHECK(cuMemAllocPitch_v2(&d, &pitch, 100, 8, 3) == CUDA_ERROR_INVALID_VALUE);
    unsigned char src[8][100], dst[8][100];
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 100; x++)
            src[y][x] = (unsigned char)(y * 100 + x);
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_HOST, c.srcHost = src, c.srcPitch = 100;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE, c.dstDevice = d, c.dstPitch = pitch;
    c.WidthInBytes = 100, c.Height = 8;
    OK(cuMemcpy2D_v2(&c));
    OK(cuMemsetD2D8_v2(d + 10, pitch, 0xee, 5, 8)); /* a 5-wide stripe in every row */
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE, c.srcDevice = d, c.srcPitch = pitch;
    c.dstMemoryType = CU_MEMORYTYPE_HOST, c.dstHost = dst, c.dstPitch = 100;
    c.WidthInBytes = 100, c.Height = 8;
    OK(cuMemcpy2DAsync_v2(&c, NULL));
    int ok = 1;
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 100; x++)
            ok &= dst[y][x] == (x >= 10 && x < 15 ? 0xee : src[y][x]);
    CHECK(ok);
    /* a 3D copy of a 4x3x2 box out of the pitched rows into linear host memory */
    CUDA_MEMCPY3D c3;
    memset(&c3, 0, sizeof c3);
    c3.srcMemoryType = CU_MEMORYTYPE_DEVICE, c3.srcDevice = d, c3.srcPitch = pitch, c3.srcHeight = 4;
    c3.srcXInBytes = 20, c3.srcY = 1;
    unsigned char box[2][3][4];
    c3.dstMemoryType = CU_MEMORYTYPE_HOST, c3.dstHost = box, c3.dstPitch = 4, c3.dstHeight = 3;
    c3.WidthInBytes = 4, c3.Height = 3, c3.Depth = 2;
    OK(cuMemcpy3D_v2(&c3));
    ok = 1;
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 4; x++)
                ok &= box[z][y][x] == src[z * 4 + 1 + y][20 + x];
    CHECK(ok);
    /* an array side needs a live CUDA array (core/texture.c) */
    c3.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    CHECK(cuMemcpy3D_v2(&c3) == CUDA_ERROR_INVALID_HANDLE);
    /* a 2D copy that runs past the allocation */
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_HOST, c.srcHost = src, c.srcPitch = 100;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE, c.dstDevice = d, c.dstPitch = pitch;
    c.WidthInBytes = 100, c.Height = 9;
    CHECK(cuMemcpy2D_v2(&c) == CUDA_ERROR_INVALID_VALUE);
    OK(cuMemFree_v2(d));
}

static void test_validation(void)
{
    char buf[64];
    CUdeviceptr d;
    OK(cuMemAlloc_v2(&d, 64));
    CHECK(cuMemcpyHtoD_v2(d, buf, 65) == CUDA_ERROR_INVALID_VALUE);       /* past the end */
    CHECK(cuMemcpyDtoH_v2(buf, d + 8, 64) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuMemcpyHtoD_v2(0x1000, buf, 4) == CUDA_ERROR_INVALID_VALUE);  /* unknown */
    CHECK(cuMemsetD8_v2(d, 0, 65) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuMemAlloc_v2(&d, 0) == CUDA_ERROR_INVALID_VALUE);
    OK(cuMemFree_v2(d));
    CHECK(cuMemFree_v2(d) == CUDA_ERROR_INVALID_VALUE);                  /* double free */
    CHECK(cuMemcpyHtoD_v2(d, buf, 4) == CUDA_ERROR_INVALID_VALUE);       /* freed */
    CHECK(cuMemcpyDtoH_v2(buf, d, 4) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuMemcpy(d, (CUdeviceptr)(uintptr_t)buf, 4) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuMemsetD32Async(d, 0, 1, NULL) == CUDA_ERROR_INVALID_VALUE);
    OK(cuMemFree_v2(0));
}

static void test_oom(void)
{
    size_t free_b, total;
    OK(cuMemGetInfo_v2(&free_b, &total));
    CHECK(total == (size_t)256 << 20);
    CUdeviceptr big, small;
    CHECK(cuMemAlloc_v2(&big, total + 1) == CUDA_ERROR_OUT_OF_MEMORY);
    OK(cuMemAlloc_v2(&big, free_b - ((size_t)1 << 20)));
    CHECK(cuMemAlloc_v2(&small, (size_t)4 << 20) == CUDA_ERROR_OUT_OF_MEMORY);
    size_t after;
    OK(cuMemGetInfo_v2(&after, &total));
    CHECK(after < ((size_t)2 << 20));
    OK(cuMemFree_v2(big));
    OK(cuMemAlloc_v2(&small, (size_t)4 << 20));
    OK(cuMemFree_v2(small));
    OK(cuMemGetInfo_v2(&after, &total));
    CHECK(after == free_b);
}

static void test_host_memory(CUcontext ctx)
{
    void *p;
    OK(cuMemAllocHost_v2(&p, 5000));
    CUdeviceptr dp;
    OK(cuMemHostGetDevicePointer_v2(&dp, p, 0));
    CHECK(dp == (CUdeviceptr)(uintptr_t)p);
    unsigned flags;
    OK(cuMemHostGetFlags(&flags, p));
    CHECK(flags & CU_MEMHOSTALLOC_DEVICEMAP);
    void *q;
    OK(cuMemHostAlloc(&q, 100, CU_MEMHOSTALLOC_WRITECOMBINED | CU_MEMHOSTALLOC_PORTABLE));
    OK(cuMemHostGetFlags(&flags, q));
    CHECK(flags == (CU_MEMHOSTALLOC_WRITECOMBINED | CU_MEMHOSTALLOC_PORTABLE));
    CHECK(cuMemHostAlloc(&q, 100, 0x80) == CUDA_ERROR_INVALID_VALUE);
    /* pinned memory works as either side of a copy */
    CUdeviceptr d;
    OK(cuMemAlloc_v2(&d, 5000));
    memset(p, 0x5a, 5000);
    OK(cuMemcpyHtoDAsync_v2(d, p, 5000, NULL));
    OK(cuMemsetD8_v2(dp, 0, 5000));
    OK(cuMemcpyDtoH_v2(p, d, 5000));
    CHECK(((unsigned char *)p)[4999] == 0x5a);
    /* pointer attributes */
    unsigned mt = 0;
    OK(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d));
    CHECK(mt == CU_MEMORYTYPE_DEVICE);
    OK(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, dp + 10));
    CHECK(mt == CU_MEMORYTYPE_HOST);
    CUcontext pc = NULL;
    OK(cuPointerGetAttribute(&pc, CU_POINTER_ATTRIBUTE_CONTEXT, d + 100));
    CHECK(pc == ctx);
    CUdeviceptr start = 0;
    size_t range = 0;
    OK(cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, d + 100));
    OK(cuPointerGetAttribute(&range, CU_POINTER_ATTRIBUTE_RANGE_SIZE, d + 100));
    CHECK(start == d && range == 5000);
    unsigned long long id1 = 0, id2 = 0;
    OK(cuPointerGetAttribute(&id1, CU_POINTER_ATTRIBUTE_BUFFER_ID, d));
    OK(cuPointerGetAttribute(&id2, CU_POINTER_ATTRIBUTE_BUFFER_ID, dp));
    CHECK(id1 != 0 && id2 != 0 && id1 != id2);
    void *hp = (void *)1;
    CHECK(cuPointerGetAttribute(&hp, CU_POINTER_ATTRIBUTE_HOST_POINTER, d) == CUDA_ERROR_INVALID_VALUE);
    OK(cuPointerGetAttribute(&hp, CU_POINTER_ATTRIBUTE_HOST_POINTER, dp));
    CHECK(hp == p);
    int local = 0, ordinal = 7;
    CHECK(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)&local) ==
          CUDA_ERROR_INVALID_VALUE);
    /* the plural form answers defaults for unknown memory */
    CUpointer_attribute attrs[4] = { CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_CONTEXT,
                                     CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, CU_POINTER_ATTRIBUTE_IS_MANAGED };
    int managed = 5;
    mt = 9;
    pc = ctx;
    void *data[4] = { &mt, &pc, &ordinal, &managed };
    OK(cuPointerGetAttributes(4, attrs, data, (CUdeviceptr)(uintptr_t)&local));
    CHECK(mt == 0 && pc == NULL && ordinal == -2 && managed == 0);
    OK(cuPointerGetAttributes(4, attrs, data, d));
    CHECK(mt == CU_MEMORYTYPE_DEVICE && pc == ctx && ordinal == 0 && managed == 0);
    CUdeviceptr m;
    OK(cuMemAllocManaged(&m, 100, CU_MEM_ATTACH_GLOBAL));
    OK(cuPointerGetAttributes(4, attrs, data, m));
    CHECK(managed == 1);
    *(int *)(uintptr_t)m = 42; /* managed memory is host-accessible */
    OK(cuMemFree_v2(m));
    CUdeviceptr base;
    size_t size;
    OK(cuMemGetAddressRange_v2(&base, &size, d + 4999));
    CHECK(base == d && size == 5000);
    CHECK(cuMemGetAddressRange_v2(&base, &size, d + 5000) == CUDA_ERROR_NOT_FOUND);
    OK(cuMemFree_v2(d));
    OK(cuMemFreeHost(p));
    OK(cuMemFreeHost(q));
    CHECK(cuMemFreeHost(p) == CUDA_ERROR_INVALID_VALUE);
    /* registration */
    static char buf[8192];
    OK(cuMemHostRegister_v2(buf, 4096, CU_MEMHOSTREGISTER_DEVICEMAP));
    CHECK(cuMemHostRegister_v2(buf + 100, 10, 0) == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    OK(cuMemHostGetDevicePointer_v2(&dp, buf + 8, 0));
    CHECK(dp == (CUdeviceptr)(uintptr_t)(buf + 8));
    CHECK(cuMemHostUnregister(buf + 8) == CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
    OK(cuMemHostUnregister(buf));
    CHECK(cuMemHostUnregister(buf) == CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
    CHECK(cuMemHostGetDevicePointer_v2(&dp, buf, 0) == CUDA_ERROR_INVALID_VALUE);
}

int main(void)
{
    setenv("CUBRIDGE_MEM", "256M", 1);
    CHECK(cuMemAlloc_v2(NULL, 4) == CUDA_ERROR_NOT_INITIALIZED);
    if (cuInit(0) != CUDA_SUCCESS) {
        fprintf(stderr, "test_core_memory: cuInit failed\n");
        return 1;
    }
    CUcontext ctx;
    OK(cuDevicePrimaryCtxRetain(&ctx, 0));
    OK(cuCtxSetCurrent(ctx));
    test_roundtrip();
    test_2d_3d();
    test_validation();
    test_oom();
    test_host_memory(ctx);
    OK(cuDevicePrimaryCtxRelease_v2(0));
    if (failures)
        fprintf(stderr, "test_core_memory: %d failures\n", failures);
    else
        printf("test_core_memory: ok\n");
    return failures ? 1 : 0;
}
