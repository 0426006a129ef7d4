/* vm.c: virtual memory on POSIX (Linux: memfd_create, MAP_NORESERVE). */
#include "platform/vm.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static int vm_prot(int access)
{
    switch (access) {
    case CB_VM_READ: return PROT_READ;
    case CB_VM_READWRITE: return PROT_READ | PROT_WRITE;
    default: return PROT_NONE;
    }
}

size_t cb_vm_page_size(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

uint64_t cb_vm_physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES);
    if (pages <= 0)
        return 0;
    return (uint64_t)pages * cb_vm_page_size();
}

void *cb_vm_reserve(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void *cb_vm_reserve_at(void *addr, size_t bytes)
{
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000   /* Linux 4.17; older kernels take it as a hint (checked below) */
#endif
    void *p = mmap(addr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    if (p != addr) {
        munmap(p, bytes);
        return NULL;
    }
    return p;
}

void cb_vm_release(void *addr, size_t bytes)
{
    munmap(addr, bytes);
}

int cb_vm_commit(void *addr, size_t bytes)
{
    return mprotect(addr, bytes, PROT_READ | PROT_WRITE) == 0 ? 0 : -1;
}

int cb_vm_decommit(void *addr, size_t bytes)
{
    madvise(addr, bytes, MADV_DONTNEED);
    return mprotect(addr, bytes, PROT_NONE) == 0 ? 0 : -1;
}

int cb_vm_protect(void *addr, size_t bytes, int access)
{
    return mprotect(addr, bytes, vm_prot(access)) == 0 ? 0 : -1;
}

int cb_vm_shm_create(const char *name, size_t bytes)
{
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    if (ftruncate(fd, (off_t)bytes) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

void cb_vm_shm_close(int fd)
{
    if (fd >= 0)
        close(fd);
}

int cb_vm_map_shm(void *addr, size_t bytes, int fd, uint64_t offset, int access)
{
    void *p = mmap(addr, bytes, vm_prot(access), MAP_SHARED | MAP_FIXED, fd, (off_t)offset);
    return p == MAP_FAILED ? -1 : 0;
}

int cb_vm_unmap_to_reserved(void *addr, size_t bytes)
{
    void *p = mmap(addr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    return p == MAP_FAILED ? -1 : 0;
}

uint64_t cb_vm_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
