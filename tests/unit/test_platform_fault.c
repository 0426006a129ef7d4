/* Fault recovery: a write to a PROT_NONE page inside cb_fault_run comes back
 * as CB_FAULT_SIGNAL with the address, repeatedly; cb_fault_unwind comes back
 * as CB_FAULT_UNWIND; a stack overflow on a fiber is caught on the alternate
 * stack; a fault outside any scope still kills the process (in a child). */
#include "platform/fault.h"
#include "platform/fiber.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static char *bad_page;

static void poke(void *arg)
{
    volatile char *p = (volatile char *)arg;
    *p = 1;
}

static void bail(void *arg)
{
    (void)arg;
    cb_fault_unwind();
}

static void nothing(void *arg) { (void)arg; }

static volatile int overflow_limit = 1 << 30;

__attribute__((noinline)) static long overflow(int n)
{
    volatile char pad[1024];
    pad[n & 1023] = (char)n;
    long below = n >= overflow_limit ? 0 : overflow(n + 1);
    return below + pad[(n * 7) & 1023];
}

static cb_fiber main_fiber, fiber;
static cb_fiber_stack stack;
static int fiber_rc;
static cb_fault_scope fiber_scope;

static void run_overflow(void *arg)
{
    (void)arg;
    overflow(0);
}

static void fiber_body(void *arg)
{
    (void)arg;
    fiber_rc = cb_fault_run(&fiber_scope, run_overflow, NULL);
    cb_fiber_forget_frames(&fiber);
    cb_fiber_switch_final(&fiber, &main_fiber);
}

int main(void)
{
    if (cb_fault_install() != 0 || cb_fault_thread_init() != 0) {
        perror("fault setup");
        return 1;
    }
    bad_page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cb_fault_scope scope;
    for (int i = 0; i < 3; i++) {
        int rc = cb_fault_run(&scope, poke, bad_page + 8 * i);
        if (rc != CB_FAULT_SIGNAL || scope.signo != SIGSEGV || scope.addr != bad_page + 8 * i) {
            fprintf(stderr, "FAIL fault %d: rc %d signo %d addr %p\n", i, rc, scope.signo, scope.addr);
            return 1;
        }
    }
    if (cb_fault_run(&scope, bail, NULL) != CB_FAULT_UNWIND || cb_fault_run(&scope, nothing, NULL) != CB_FAULT_NONE) {
        fprintf(stderr, "FAIL unwind/none\n");
        return 1;
    }

    cb_fiber_init_main(&main_fiber);
    cb_fiber_stack_alloc(&stack, 64 * 1024);
    cb_fiber_init(&fiber, &stack, fiber_body, NULL);
    cb_fiber_switch(&main_fiber, &fiber);
    char *guard = (char *)stack.lo - 4096;
    if (fiber_rc != CB_FAULT_SIGNAL || (char *)fiber_scope.addr < guard - 4096 ||
        (char *)fiber_scope.addr >= (char *)stack.lo) {
        fprintf(stderr, "FAIL overflow: rc %d addr %p guard %p\n", fiber_rc, fiber_scope.addr, (void *)guard);
        return 1;
    }

    /* Outside a scope the process dies of SIGSEGV as it would without us. */
    pid_t pid = fork();
    if (pid == 0) {
        fprintf(stderr, "(a crash report from a child process is expected here)\n");
        poke(bad_page);
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
#if defined(__SANITIZE_ADDRESS__)
    /* AddressSanitizer's own handler (the one chained to) reports and exits. */
    int died = (WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV) || (WIFEXITED(status) && WEXITSTATUS(status) != 0);
#else
    int died = WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV;
#endif
    if (!died) {
        fprintf(stderr, "FAIL unscoped fault: status 0x%x\n", status);
        return 1;
    }
    cb_fiber_stack_free(&stack);
    cb_fault_thread_fini();
    printf("ok\n");
    return 0;
}
