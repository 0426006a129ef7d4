/* test_core_vmm.c: stream-ordered allocation and pools, and the VMM API:
 * reserve / create / map / set access with data visible through two
 * mappings of one handle, inaccessible until access is set, error codes. */
#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures;
#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);                 \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)
#define OK(call) CHECK((call) == CUDA_SUCCESS)

/* 1 if reading one byte at p kills a child process. */
static int read_faults(volatile const unsigned char *p)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        volatile unsigned char v = *p;
        (void)v;
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_pools(void)
{
    CUmemoryPool def, cur;
    OK(cuDeviceGetDefaultMemPool(&def, 0));
    OK(cuDeviceGetMemPool(&cur, 0));
    CHECK(def == cur && def != NULL);
    CHECK(cuDeviceGetDefaultMemPool(&def, 7) == CUDA_ERROR_INVALID_DEVICE);
    cuuint64_t v = 1234;
    OK(cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &v));
    v = 0;
    OK(cuMemPoolGetAttribute(def, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &v));
    CHECK(v == 1234);
    CUstream s;
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr a, b;
    OK(cuMemAllocAsync(&a, 1000, s));
    OK(cuMemAllocAsync(&b, 3000, s));
    OK(cuMemsetD8Async(a, 1, 1000, s));
    OK(cuMemPoolGetAttribute(def, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v));
    CHECK(v == 4000);
    CUmemoryPool owner = NULL;
    OK(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, a));
    CHECK(owner == def);
    OK(cuMemFreeAsync(a, s));
    OK(cuMemFreeAsync(b, s));
    CHECK(cuMemFreeAsync(b, s) == CUDA_ERROR_INVALID_VALUE); /* double free */
    OK(cuStreamSynchronize(s));
    OK(cuMemPoolGetAttribute(def, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v));
    CHECK(v == 0);
    OK(cuMemPoolGetAttribute(def, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &v));
    CHECK(v == 4000);
    v = 0;
    OK(cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &v));
    OK(cuMemPoolGetAttribute(def, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &v));
    CHECK(v == 0);
    OK(cuMemPoolTrimTo(def, 0));
    /* an explicit pool */
    CUmemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = 0;
    CUmemoryPool pool;
    OK(cuMemPoolCreate(&pool, &props));
    OK(cuMemAllocFromPoolAsync(&a, 512, pool, s));
    OK(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &v));
    CHECK(v == 512);
    OK(cuDeviceSetMemPool(0, pool));
    OK(cuMemAllocAsync(&b, 256, NULL));
    OK(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, b));
    CHECK(owner == pool);
    OK(cuMemFree_v2(b)); /* cuMemFree also frees pool memory */
    OK(cuMemFreeAsync(a, s));
    OK(cuStreamSynchronize(s));
    OK(cuDeviceSetMemPool(0, def));
    OK(cuMemPoolDestroy(pool));
    CHECK(cuMemPoolDestroy(pool) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuMemPoolDestroy(def) == CUDA_ERROR_INVALID_VALUE); /* the default pool stays */
    /* use after a stream-ordered free faults once the free ran */
    OK(cuMemAllocAsync(&a, 4096, s));
    OK(cuMemFreeAsync(a, s));
    OK(cuStreamSynchronize(s));
    CHECK(read_faults((const unsigned char *)(uintptr_t)a));
    OK(cuStreamDestroy_v2(s));
}

static void test_vmm(void)
{
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    size_t gran = 0;
    OK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    CHECK(gran == (size_t)2 << 20);
    size_t size = 2 * gran;
    CUmemGenericAllocationHandle h;
    CHECK(cuMemCreate(&h, gran + 1, &prop, 0) == CUDA_ERROR_INVALID_VALUE);
    OK(cuMemCreate(&h, size, &prop, 0));
    size_t free_b, total;
    OK(cuMemGetInfo_v2(&free_b, &total));
    CHECK(total - free_b >= size);
    CUdeviceptr r1, r2;
    OK(cuMemAddressReserve(&r1, 4 * gran, 0, 0, 0));
    OK(cuMemAddressReserve(&r2, size, 0, 0, 0));
    CHECK(r1 % gran == 0 && r2 % gran == 0);
    OK(cuMemMap(r1 + gran, size, 0, h, 0));
    OK(cuMemMap(r2, size, 0, h, 0));
    CHECK(cuMemMap(r1 + gran, size, 0, h, 0) == CUDA_ERROR_INVALID_VALUE);     /* already mapped */
    CHECK(cuMemMap(r1 + 4096, gran, 0, h, 0) == CUDA_ERROR_INVALID_VALUE);     /* misaligned */
    CHECK(cuMemMap(r1, size, gran, h, 0) == CUDA_ERROR_INVALID_VALUE);        /* past the handle */
    /* no access until cuMemSetAccess */
    CHECK(read_faults((const unsigned char *)(uintptr_t)(r1 + gran)));
    CUmemLocation loc = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
    unsigned long long flags = 9;
    OK(cuMemGetAccess(&flags, &loc, r1 + gran));
    CHECK(flags == CU_MEM_ACCESS_FLAGS_PROT_NONE);
    char byte;
    CHECK(cuMemcpyDtoH_v2(&byte, r1 + gran, 1) == CUDA_ERROR_INVALID_VALUE);
    CUmemAccessDesc acc = { loc, CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
    OK(cuMemSetAccess(r1 + gran, size, &acc, 1));
    OK(cuMemSetAccess(r2, size, &acc, 1));
    CHECK(cuMemSetAccess(r1, size, &acc, 1) == CUDA_ERROR_INVALID_VALUE);       /* not all mapped */
    OK(cuMemGetAccess(&flags, &loc, r2 + 5));
    CHECK(flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    /* data written through one mapping is visible through the other */
    static unsigned words[1024];
    for (int i = 0; i < 1024; i++)
        words[i] = 0xabc00000u + (unsigned)i;
    OK(cuMemcpyHtoD_v2(r1 + gran + gran - 2048, words, sizeof words)); /* spans nothing odd */
    OK(cuMemsetD32_v2(r1 + gran, 77, 4));
    unsigned back[1024];
    OK(cuMemcpyDtoH_v2(back, r2 + gran - 2048, sizeof back));
    CHECK(memcmp(back, words, sizeof back) == 0);
    CHECK(*(unsigned *)(uintptr_t)(r2 + 8) == 77);
    CHECK(read_faults((const unsigned char *)(uintptr_t)r1)); /* the unmapped head of the reservation */
    /* pointer attributes and handle queries */
    unsigned mt = 0;
    OK(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, r2 + 100));
    CHECK(mt == CU_MEMORYTYPE_DEVICE);
    CUmemGenericAllocationHandle h2;
    OK(cuMemRetainAllocationHandle(&h2, (void *)(uintptr_t)(r2 + 100)));
    CHECK(h2 == h);
    OK(cuMemRelease(h2));
    CUmemAllocationProp got;
    OK(cuMemGetAllocationPropertiesFromHandle(&got, h));
    CHECK(got.type == CU_MEM_ALLOCATION_TYPE_PINNED && got.location.id == 0);
    CHECK(cuMemExportToShareableHandle(&h2, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0) ==
          CUDA_ERROR_NOT_SUPPORTED);
    /* release while mapped: the memory lives until the last unmap */
    OK(cuMemRelease(h));
    CHECK(cuMemRelease(h) == CUDA_ERROR_INVALID_VALUE);
    OK(cuMemcpyDtoH_v2(back, r1 + gran + gran - 2048, sizeof back));
    CHECK(memcmp(back, words, sizeof back) == 0);
    CHECK(cuMemUnmap(r1 + gran, gran) == CUDA_ERROR_INVALID_VALUE); /* part of a mapping */
    OK(cuMemUnmap(r1 + gran, size));
    CHECK(read_faults((const unsigned char *)(uintptr_t)(r1 + gran)));
    CHECK(cuMemcpyDtoH_v2(back, r1 + gran, 4) == CUDA_ERROR_INVALID_VALUE);
    OK(cuMemUnmap(r2, size));
    CHECK(cuMemUnmap(r2, size) == CUDA_ERROR_INVALID_VALUE);
    OK(cuMemGetInfo_v2(&free_b, &total));
    CHECK(total - free_b < size); /* the physical memory is gone */
    OK(cuMemAddressFree(r1, 4 * gran));
    OK(cuMemAddressFree(r2, size));
    CHECK(cuMemAddressFree(r2, size) == CUDA_ERROR_INVALID_VALUE);
    /* over the total: out of memory */
    CHECK(cuMemCreate(&h, (size_t)512 << 20, &prop, 0) == CUDA_ERROR_OUT_OF_MEMORY);
}

int main(void)
{
    setenv("CUBRIDGE_MEM", "256M", 1);
    if (cuInit(0) != CUDA_SUCCESS) {
        fprintf(stderr, "test_core_vmm: cuInit failed\n");
        return 1;
    }
    CUcontext ctx;
    OK(cuDevicePrimaryCtxRetain(&ctx, 0));
    OK(cuCtxSetCurrent(ctx));
    test_pools();
    test_vmm();
    OK(cuDevicePrimaryCtxRelease_v2(0));
    if (failures)
        fprintf(stderr, "test_core_vmm: %d failures\n", failures);
    else
        printf("test_core_vmm: ok\n");
    return failures ? 1 : 0;
}
