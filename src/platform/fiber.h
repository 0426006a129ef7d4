/* fiber.h: cooperative user-space contexts (one per CUDA thread of a block
 * that uses barriers or warp collectives).
 *
 * A fiber runs on its own stack and gives up the CPU only by switching to
 * another fiber of the same OS thread. The context switch is hand-written
 * assembly on x86-64 and AArch64 (callee-saved registers and the stack
 * pointer) and ucontext elsewhere. Under AddressSanitizer every switch is
 * announced with __sanitizer_{start,finish}_switch_fiber, under
 * ThreadSanitizer with __tsan_switch_to_fiber (one TSan fiber per stack).
 */
#ifndef CB_PLATFORM_FIBER_H
#define CB_PLATFORM_FIBER_H

#include <stddef.h>

#if !defined(__x86_64__) && !defined(__aarch64__) || defined(CB_FIBER_UCONTEXT)
#define CB_FIBER_USE_UCONTEXT 1
#include <ucontext.h>
#endif

/* A stack: mmap'd, committed lazily by the OS as it is touched, with a
 * PROT_NONE guard page below it so an overflow faults. Reusable by any
 * number of fibers, one at a time. */
typedef struct cb_fiber_stack {
    void *map;             /* the whole mapping, guard page included */
    size_t map_size;
    void *lo;              /* lowest usable byte */
    size_t size;           /* usable bytes */
    void *tsan_fiber;      /* ThreadSanitizer's context for fibers on this stack */
} cb_fiber_stack;

typedef struct cb_fiber {
    void *sp;              /* saved stack pointer while switched out */
    void (*fn)(void *);
    void *arg;
    const void *stack_lo;  /* stack bounds (for AddressSanitizer); NULL for a thread's own stack */
    size_t stack_size;
    void *asan_fake_stack;
    void *tsan_fiber;
#ifdef CB_FIBER_USE_UCONTEXT
    ucontext_t uc;
#endif
} cb_fiber;

/* Maps a stack of at least size usable bytes (rounded up to pages) plus a
 * guard page. Returns 0, or -1 with errno. */
int cb_fiber_stack_alloc(cb_fiber_stack *s, size_t size);
/* Unmaps a stack. A zeroed stack is allowed. */
void cb_fiber_stack_free(cb_fiber_stack *s);

/* Makes f stand for the calling OS thread's current context, so that other
 * fibers can switch back to it. */
void cb_fiber_init_main(cb_fiber *f);
/* Prepares f to run fn(arg) on stack s when first switched to. fn must never
 * return: it ends by switching to another fiber for good (the process aborts
 * if it returns). Any fiber that used s before must be finished or abandoned. */
void cb_fiber_init(cb_fiber *f, cb_fiber_stack *s, void (*fn)(void *), void *arg);
/* Saves the current context into from and resumes to. Returns when some
 * fiber switches back to from. Both belong to the calling OS thread. */
void cb_fiber_switch(cb_fiber *from, cb_fiber *to);
/* Like cb_fiber_switch, for a fiber that will never be resumed (its fn is
 * done). */
void cb_fiber_switch_final(cb_fiber *from, cb_fiber *to);
/* For a fiber that landed back in an outer frame through a non-local jump
 * (a caught fault): forgets the sanitizer state of the frames it abandoned
 * below the caller's frame. A no-op without AddressSanitizer. */
void cb_fiber_forget_frames(cb_fiber *f);

#endif
