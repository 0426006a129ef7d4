/* vm.h: virtual memory: reserve, commit, protect, shared memory objects.
 *
 * The only place that names mmap/mprotect/madvise/memfd. The arena
 * (backend/cpu/arena.c), pinned host memory (core/hostmem.c) and the VMM API
 * (core/vmm.c) build on it. Sizes and addresses given to these functions
 * must be page aligned unless stated otherwise.
 */
#ifndef CB_PLATFORM_VM_H
#define CB_PLATFORM_VM_H

#include <stddef.h>
#include <stdint.h>

enum { CB_VM_NONE = 0, CB_VM_READ = 1, CB_VM_READWRITE = 3 };

/* The page size (bytes), a power of two. */
size_t cb_vm_page_size(void);

/* Physical RAM of the machine in bytes (0 if unknown). */
uint64_t cb_vm_physical_memory(void);

/* Reserves bytes of address space, inaccessible (PROT_NONE) and not backed
 * by memory or swap. Returns NULL on failure. */
void *cb_vm_reserve(size_t bytes);

/* As cb_vm_reserve, but exactly at addr (page aligned) when that range is
 * free; NULL, with nothing reserved, when it is not (or the system, or a
 * sanitizer's allocator, would place it elsewhere). */
void *cb_vm_reserve_at(void *addr, size_t bytes);

/* Gives a reservation (or part of one) back to the OS. */
void cb_vm_release(void *addr, size_t bytes);

/* Makes reserved pages readable and writable; they read as zero until
 * written if they were never committed or were decommitted. Returns 0. */
int cb_vm_commit(void *addr, size_t bytes);

/* Drops the pages' contents and makes them inaccessible again (any access
 * faults). Returns 0 on success. */
int cb_vm_decommit(void *addr, size_t bytes);

/* Changes the access of committed or mapped pages (CB_VM_*). Returns 0. */
int cb_vm_protect(void *addr, size_t bytes, int access);

/* Creates an anonymous shared memory object of bytes (memfd); returns its
 * descriptor or -1. */
int cb_vm_shm_create(const char *name, size_t bytes);
void cb_vm_shm_close(int fd);

/* Maps [offset, offset+bytes) of shm object fd at addr (inside a
 * reservation, replacing what was there) with access. Returns 0. */
int cb_vm_map_shm(void *addr, size_t bytes, int fd, uint64_t offset, int access);

/* Replaces whatever is mapped at [addr, addr+bytes) with a fresh
 * reservation (PROT_NONE, unbacked). Returns 0. */
int cb_vm_unmap_to_reserved(void *addr, size_t bytes);

/* Monotonic clock in nanoseconds. */
uint64_t cb_vm_clock_ns(void);

#endif
