/* runtime_services.c: the non-collective runtime callbacks (printf, assert, trap,
 * clocks, device malloc) and the cb_runtime table handed to kernels. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cpu/cpu_internal.h"
#include "backend/device_printf.h"
#include "platform/sysinfo.h"

static int32_t rt_vprintf(cb_thread *t, const char *fmt, const void *args)
{
    (void)t;
    char *text;
    size_t len;
    int nargs = cb_device_printf_format(fmt, args, NULL, NULL, &text, &len);
    if (nargs < 0)
        return nargs;
    /* One write under the stdio lock: lines of concurrent threads never mix. */
    flockfile(stdout);
    fwrite(text, 1, len, stdout);
    funlockfile(stdout);
    free(text);
    return nargs;
}

static void rt_assert_fail(cb_thread *t, const char *message, const char *file, uint32_t line, const char *function,
                           uint64_t charsize)
{
    (void)charsize;
    const cb_block *blk = t->blk;
    flockfile(stderr);
    fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
            file ? file : "?", line, function ? function : "?", blk->ctaid.x, blk->ctaid.y, blk->ctaid.z, t->tid.x,
            t->tid.y, t->tid.z, message ? message : "?");
    funlockfile(stderr);
    cb_cpu_thread_fail(t, CUDA_ERROR_ASSERT, "device-side assertion `%s` failed at %s:%u", message ? message : "?",
                       file ? file : "?", line);
}

static void rt_trap(cb_thread *t)
{
    cb_cpu_thread_fail(t, CUDA_ERROR_LAUNCH_FAILED, "trap instruction executed");
}

static void rt_unsupported(cb_thread *t, const char *what)
{
    cb_cpu_thread_fail(t, CUDA_ERROR_NOT_SUPPORTED, "the CPU backend does not support %s", what ? what : "?");
}

/* %clock64: a counter at the reported clock rate (the monotonic clock
 * scaled to cpu MHz, or 1 GHz). */
static uint64_t rt_clock64(cb_thread *t)
{
    static const uint64_t ns_per_s = 1000000000u;
    uint64_t khz = (uint64_t)cpu_block_of(t)->worker->pool->clock_khz;
    uint64_t ns = cb_sys_monotonic_ns();
    return ns / ns_per_s * khz * 1000u + ns % ns_per_s * khz / 1000000u;
}

static uint64_t rt_globaltimer(cb_thread *t)
{
    (void)t;
    return cb_sys_realtime_ns();
}

/* Device-side malloc: host heap blocks the device may reach (access_check.c),
 * each with its size in the 16 bytes before it. */
static void *rt_malloc(cb_thread *t, uint64_t size)
{
    (void)t;
    if (!size || size > SIZE_MAX - 16)
        return NULL;
    unsigned char *p = malloc((size_t)size + 16);
    if (!p)
        return NULL;
    memcpy(p, &size, sizeof size);
    if (cb_cpu_host_map((uint64_t)(uintptr_t)p + 16, (size_t)size) != 0) {
        free(p);
        return NULL;
    }
    return p + 16;
}

static void rt_free(cb_thread *t, void *ptr)
{
    (void)t;
    if (!ptr)
        return;
    unsigned char *p = (unsigned char *)ptr - 16;
    uint64_t size;
    memcpy(&size, p, sizeof size);
    cb_cpu_host_unmap((uint64_t)(uintptr_t)ptr, (size_t)size);
    free(p);
}

const cb_runtime cb_cpu_runtime = {
    .bar_sync = cb_cpu_bar_sync,
    .bar_arrive = cb_cpu_bar_arrive,
    .bar_red = cb_cpu_bar_red,
    .warp_sync = cb_cpu_warp_sync,
    .shfl = cb_cpu_shfl,
    .vote = cb_cpu_vote,
    .activemask = cb_cpu_activemask,
    .vprintf = rt_vprintf,
    .assert_fail = rt_assert_fail,
    .trap = rt_trap,
    .clock64 = rt_clock64,
    .globaltimer = rt_globaltimer,
    .malloc = rt_malloc,
    .free = rt_free,
    .unsupported = rt_unsupported,
    .warp_converge = cb_cpu_warp_converge,
    .warp_exchange = cb_cpu_warp_exchange,
    .yield = cb_cpu_yield,
    .spin = cb_cpu_spin,
    .mbar_wait = cb_cpu_mbar_wait,
    .mbar_signal = cb_cpu_mbar_signal,
    .fail = cb_cpu_fail,
    .converge = cb_cpu_converge,
    .cluster_arrive = cb_cpu_cluster_arrive,
    .cluster_wait = cb_cpu_cluster_wait,
    .check_access = cb_cpu_check_access,
    .warp_gone = cb_cpu_warp_gone,
    .warp_not_member = cb_cpu_warp_not_member,
};
