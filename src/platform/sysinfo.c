/* sysinfo.c: host facts and child processes, POSIX (Linux /proc for the CPU
 * model and clock). */
#include "platform/sysinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int cb_sys_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (int)n;
}

/* Finds "key<spaces>: value" in /proc/cpuinfo; copies value into buf. */
static int cpuinfo_field(const char *key, char *buf, size_t len)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return -1;
    char line[512];
    size_t keylen = strlen(key);
    int found = -1;
    while (found < 0 && fgets(line, sizeof line, f)) {
        if (strncmp(line, key, keylen) != 0 || (line[keylen] != ' ' && line[keylen] != '\t' && line[keylen] != ':'))
            continue;
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        char *v = colon + 1;
        while (*v == ' ' || *v == '\t')
            v++;
        size_t n = strcspn(v, "\r\n");
        while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t'))
            n--;
        if (n == 0)
            continue;
        if (n >= len)
            n = len - 1;
        memcpy(buf, v, n);
        buf[n] = 0;
        found = 0;
    }
    fclose(f);
    return found;
}

void cb_sys_cpu_name(char *buf, size_t len)
{
    if (len == 0)
        return;
    if (cpuinfo_field("model name", buf, len) == 0)
        return;
    if (cpuinfo_field("Model", buf, len) == 0)   /* some ARM kernels */
        return;
    snprintf(buf, len, "CPU");
}

void cb_sys_cpu_identity(char *buf, size_t len)
{
    static const char *const keys[] = {"vendor_id", "cpu family", "model", "model name", "flags", "Features",
                                       "CPU implementer", "CPU part"};
    if (len == 0)
        return;
    buf[0] = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    size_t used = 0;
    char line[8192];
    unsigned seen = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '\n' && used)
            break;   /* the first CPU only */
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            size_t n = strlen(keys[k]);
            if ((seen >> k & 1) || strncmp(line, keys[k], n) != 0 || (line[n] != ' ' && line[n] != '\t' && line[n] != ':'))
                continue;
            seen |= 1u << k;
            line[strcspn(line, "\n")] = 0;
            int w = snprintf(buf + used, len - used, "%s%s", used ? "; " : "", line);
            if (w > 0)
                used = used + (size_t)w < len ? used + (size_t)w : len - 1;
        }
    }
    fclose(f);
}

int cb_sys_cpu_khz(void)
{
    char buf[64];
    if (cpuinfo_field("cpu MHz", buf, sizeof buf) != 0)
        return 0;
    double mhz = strtod(buf, NULL);
    if (!(mhz > 0 && mhz < 1e6))
        return 0;
    return (int)(mhz * 1000.0 + 0.5);
}

size_t cb_sys_physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES);
    long size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0)
        return 0;
    return (size_t)pages * (size_t)size;
}

size_t cb_sys_last_level_cache(void)
{
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return l3 > 0 ? (size_t)l3 : l2 > 0 ? (size_t)l2 : 0;
}

static uint64_t clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t cb_sys_monotonic_ns(void) { return clock_ns(CLOCK_MONOTONIC); }
uint64_t cb_sys_realtime_ns(void) { return clock_ns(CLOCK_REALTIME); }

/* Reads fd to EOF, keeping what fits in out. */
static void drain_into(int fd, char *out, size_t outlen)
{
    size_t used = 0;
    char chunk[4096];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        if (outlen > 0 && used < outlen - 1) {
            size_t take = (size_t)n < outlen - 1 - used ? (size_t)n : outlen - 1 - used;
            memcpy(out + used, chunk, take);
            used += take;
        }
    }
    if (outlen > 0)
        out[used] = 0;
}

int cb_sys_run(char *const argv[], char *out, size_t outlen, int *start_errno)
{
    int fds[2];
    *start_errno = 0;
    if (outlen > 0)
        out[0] = 0;
    if (pipe2(fds, O_CLOEXEC) != 0) {
        *start_errno = errno;
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        *start_errno = rc;
        return -1;
    }
    drain_into(fds[0], out, outlen);
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            *start_errno = errno;
            return -1;
        }
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return -1;
}
