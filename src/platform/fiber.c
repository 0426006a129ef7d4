/* fiber.c: the context switch (x86-64 and AArch64 assembly, ucontext
 * elsewhere), fiber stacks, and the AddressSanitizer annotations. */
#include "platform/fiber.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define CB_FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CB_FIBER_ASAN 1
#endif
#endif

#if defined(__SANITIZE_THREAD__)
#define CB_FIBER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CB_FIBER_TSAN 1
#endif
#endif

#ifdef CB_FIBER_TSAN
#include <sanitizer/tsan_interface.h>
#endif

#ifdef CB_FIBER_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

/* The fiber that switched away most recently on this OS thread: the one
 * whose stack bounds the sanitizer hands back after a switch. */
static _Thread_local cb_fiber *fiber_prev;

__attribute__((visibility("hidden"), noreturn)) void cb_fiber_trampoline(cb_fiber *f);

/* ---- the raw switch ------------------------------------------------------ */

#if !defined(CB_FIBER_USE_UCONTEXT)
/* Pushes the callee-saved state on the current stack, stores the stack
 * pointer in *from_sp, loads to_sp and pops the state saved there. */
__attribute__((visibility("hidden"))) void cb_fiber_swap_raw(void **from_sp, void *to_sp);
/* The first code a new fiber runs: calls cb_fiber_trampoline(fiber) with the
 * fiber pointer that cb_fiber_init left in a callee-saved register. */
__attribute__((visibility("hidden"))) void cb_fiber_entry_raw(void);
#endif

#if defined(__x86_64__) && !defined(CB_FIBER_USE_UCONTEXT)
__asm__(
    ".text\n"
    ".p2align 4\n"
    ".globl cb_fiber_swap_raw\n"
    ".hidden cb_fiber_swap_raw\n"
    ".type cb_fiber_swap_raw,@function\n"
    "cb_fiber_swap_raw:\n"
    "  pushq %rbp\n"
    "  pushq %rbx\n"
    "  pushq %r12\n"
    "  pushq %r13\n"
    "  pushq %r14\n"
    "  pushq %r15\n"
    "  subq $8, %rsp\n"
    "  stmxcsr (%rsp)\n"
    "  fnstcw 4(%rsp)\n"
    "  movq %rsp, (%rdi)\n"
    "  movq %rsi, %rsp\n"
    "  ldmxcsr (%rsp)\n"
    "  fldcw 4(%rsp)\n"
    "  addq $8, %rsp\n"
    "  popq %r15\n"
    "  popq %r14\n"
    "  popq %r13\n"
    "  popq %r12\n"
    "  popq %rbx\n"
    "  popq %rbp\n"
    "  ret\n"
    ".size cb_fiber_swap_raw, .-cb_fiber_swap_raw\n"
    ".p2align 4\n"
    ".globl cb_fiber_entry_raw\n"
    ".hidden cb_fiber_entry_raw\n"
    ".type cb_fiber_entry_raw,@function\n"
    "cb_fiber_entry_raw:\n"
    "  movq %r12, %rdi\n"
    "  call cb_fiber_trampoline\n"
    "  ud2\n"
    ".size cb_fiber_entry_raw, .-cb_fiber_entry_raw\n");

/* Frame popped by the first switch to a new fiber, from its sp upwards:
 * mxcsr|fpucw, r15, r14, r13, r12 (= fiber), rbx, rbp, return address
 * (= cb_fiber_entry_raw), then 16 bytes so that the entry sees the stack as
 * a function does after a call. */
static void *initial_frame(cb_fiber *f, char *top)
{
    uint64_t *slot = (uint64_t *)(top - 80);
    uint32_t mxcsr;
    uint16_t fpucw;
    __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
    __asm__ volatile("fnstcw %0" : "=m"(fpucw));
    memset(slot, 0, 80);
    memcpy(&slot[0], &mxcsr, 4);
    memcpy((char *)&slot[0] + 4, &fpucw, 2);
    slot[4] = (uint64_t)(uintptr_t)f;                       /* r12 */
    slot[7] = (uint64_t)(uintptr_t)&cb_fiber_entry_raw;     /* return address */
    return slot;
}
#endif

#if defined(__aarch64__) && !defined(CB_FIBER_USE_UCONTEXT)
__asm__(
    ".text\n"
    ".p2align 4\n"
    ".globl cb_fiber_swap_raw\n"
    ".hidden cb_fiber_swap_raw\n"
    ".type cb_fiber_swap_raw,%function\n"
    "cb_fiber_swap_raw:\n"
    "  sub sp, sp, #160\n"
    "  stp x19, x20, [sp, #0]\n"
    "  stp x21, x22, [sp, #16]\n"
    "  stp x23, x24, [sp, #32]\n"
    "  stp x25, x26, [sp, #48]\n"
    "  stp x27, x28, [sp, #64]\n"
    "  stp x29, x30, [sp, #80]\n"
    "  stp d8, d9, [sp, #96]\n"
    "  stp d10, d11, [sp, #112]\n"
    "  stp d12, d13, [sp, #128]\n"
    "  stp d14, d15, [sp, #144]\n"
    "  mov x2, sp\n"
    "  str x2, [x0]\n"
    "  mov sp, x1\n"
    "  ldp x19, x20, [sp, #0]\n"
    "  ldp x21, x22, [sp, #16]\n"
    "  ldp x23, x24, [sp, #32]\n"
    "  ldp x25, x26, [sp, #48]\n"
    "  ldp x27, x28, [sp, #64]\n"
    "  ldp x29, x30, [sp, #80]\n"
    "  ldp d8, d9, [sp, #96]\n"
    "  ldp d10, d11, [sp, #112]\n"
    "  ldp d12, d13, [sp, #128]\n"
    "  ldp d14, d15, [sp, #144]\n"
    "  add sp, sp, #160\n"
    "  ret\n"
    ".size cb_fiber_swap_raw, .-cb_fiber_swap_raw\n"
    ".p2align 4\n"
    ".globl cb_fiber_entry_raw\n"
    ".hidden cb_fiber_entry_raw\n"
    ".type cb_fiber_entry_raw,%function\n"
    "cb_fiber_entry_raw:\n"
    "  mov x0, x19\n"
    "  bl cb_fiber_trampoline\n"
    "  brk #0\n"
    ".size cb_fiber_entry_raw, .-cb_fiber_entry_raw\n");

/* Frame popped by the first switch: x19 (= fiber) .. x28, x29 = 0,
 * x30 = cb_fiber_entry_raw, d8..d15 = 0. */
static void *initial_frame(cb_fiber *f, char *top)
{
    uint64_t *slot = (uint64_t *)(top - 160);
    memset(slot, 0, 160);
    slot[0] = (uint64_t)(uintptr_t)f;                        /* x19 */
    slot[11] = (uint64_t)(uintptr_t)&cb_fiber_entry_raw;     /* x30 */
    return slot;
}
#endif

#ifdef CB_FIBER_USE_UCONTEXT
/* makecontext passes ints: the fiber pointer travels in two halves. */
static void fiber_entry_ucontext(unsigned hi, unsigned lo)
{
    cb_fiber_trampoline((cb_fiber *)(uintptr_t)(((uint64_t)hi << 32) | lo));
}
#endif

/* ---- sanitizer bookkeeping ----------------------------------------------- */

static void switch_begin(cb_fiber *from, cb_fiber *to, int final)
{
    fiber_prev = from;
#ifdef CB_FIBER_TSAN
    __tsan_switch_to_fiber(to->tsan_fiber, 0);
#endif
#ifdef CB_FIBER_ASAN
    __sanitizer_start_switch_fiber(final ? NULL : &from->asan_fake_stack, to->stack_lo, to->stack_size);
#else
    (void)to;
    (void)final;
#endif
}

static void switch_end(cb_fiber *self)
{
#ifdef CB_FIBER_ASAN
    cb_fiber *prev = fiber_prev;
    __sanitizer_finish_switch_fiber(self ? self->asan_fake_stack : NULL, &prev->stack_lo, &prev->stack_size);
#else
    (void)self;
#endif
}

void cb_fiber_trampoline(cb_fiber *f)
{
    switch_end(NULL);
    f->fn(f->arg);
    abort(); /* fn must switch away for good instead of returning */
}

/* ---- the public API ------------------------------------------------------ */

/* Makes the page at p fault on access. A guard region (Linux 6.13+) keeps
 * the stack one mapping, which the kernel merges with its neighbours, so
 * many stacks (a cooperative grid keeps every thread's) do not run into
 * vm.max_map_count; older kernels get a PROT_NONE page (a mapping of its
 * own). */
static int stack_guard(void *p, size_t page)
{
#ifdef __linux__
    if (madvise(p, page, 102 /* MADV_GUARD_INSTALL */) == 0)
        return 0;
#endif
    return mprotect(p, page, PROT_NONE);
}

int cb_fiber_stack_alloc(cb_fiber_stack *s, size_t size)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t usable = (size + page - 1) / page * page;
    if (usable < 4 * page)
        usable = 4 * page;
    void *map = mmap(NULL, usable + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                     -1, 0);
    if (map == MAP_FAILED)
        return -1;
    if (stack_guard(map, page) != 0) {
        munmap(map, usable + page);
        return -1;
    }
    s->map = map;
    s->map_size = usable + page;
    s->lo = (char *)map + page;
    s->size = usable;
    s->tsan_fiber = NULL;
#ifdef CB_FIBER_TSAN
    s->tsan_fiber = __tsan_create_fiber(0);
#endif
    return 0;
}

void cb_fiber_stack_free(cb_fiber_stack *s)
{
    if (s->map)
        munmap(s->map, s->map_size);
#ifdef CB_FIBER_TSAN
    if (s->tsan_fiber)
        __tsan_destroy_fiber(s->tsan_fiber);
#endif
    memset(s, 0, sizeof *s);
}

void cb_fiber_init_main(cb_fiber *f)
{
    memset(f, 0, sizeof *f);
#ifdef CB_FIBER_TSAN
    f->tsan_fiber = __tsan_get_current_fiber();
#endif
}

void cb_fiber_init(cb_fiber *f, cb_fiber_stack *s, void (*fn)(void *), void *arg)
{
    f->fn = fn;
    f->arg = arg;
    f->stack_lo = s->lo;
    f->stack_size = s->size;
    f->asan_fake_stack = NULL;
    f->tsan_fiber = s->tsan_fiber;
#ifdef CB_FIBER_ASAN
    /* Frames of an abandoned earlier fiber may have left poison behind. */
    __asan_unpoison_memory_region(s->lo, s->size);
#endif
#ifdef CB_FIBER_USE_UCONTEXT
    getcontext(&f->uc);
    f->uc.uc_stack.ss_sp = s->lo;
    f->uc.uc_stack.ss_size = s->size;
    f->uc.uc_link = NULL;
    uint64_t p = (uint64_t)(uintptr_t)f;
    makecontext(&f->uc, (void (*)(void))fiber_entry_ucontext, 2, (unsigned)(p >> 32), (unsigned)p);
    f->sp = NULL;
#else
    char *top = (char *)((uintptr_t)((char *)s->lo + s->size) & ~(uintptr_t)15);
    f->sp = initial_frame(f, top);
#endif
}

static void fiber_swap(cb_fiber *from, cb_fiber *to)
{
#ifdef CB_FIBER_USE_UCONTEXT
    swapcontext(&from->uc, &to->uc);
#else
    cb_fiber_swap_raw(&from->sp, to->sp);
#endif
}

void cb_fiber_switch(cb_fiber *from, cb_fiber *to)
{
    switch_begin(from, to, 0);
    fiber_swap(from, to);
    switch_end(from);
}

void cb_fiber_switch_final(cb_fiber *from, cb_fiber *to)
{
    switch_begin(from, to, 1);
    fiber_swap(from, to);
    abort(); /* a finished fiber is never resumed */
}

void cb_fiber_forget_frames(cb_fiber *f)
{
#ifdef CB_FIBER_ASAN
    char here;
    const char *lo = f->stack_lo;
    if (lo && &here > lo && &here <= lo + f->stack_size)
        __asan_unpoison_memory_region((void *)lo, (size_t)(&here - lo));
#else
    (void)f;
#endif
}
