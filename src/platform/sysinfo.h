/* sysinfo.h: facts about the host (CPU, memory, clocks) and running host
 * tools such as the C compiler. */
#ifndef CB_PLATFORM_SYSINFO_H
#define CB_PLATFORM_SYSINFO_H

#include <stddef.h>
#include <stdint.h>

/* Number of online CPUs, at least 1. */
int cb_sys_cpu_count(void);
/* Copies the host CPU's model name (from /proc/cpuinfo) into buf; "CPU"
 * when the host does not say. */
void cb_sys_cpu_name(char *buf, size_t len);
/* What code built for this CPU (cc -march=native) depends on: the vendor,
 * family, model and feature flags of the first CPU (/proc/cpuinfo), as one
 * line in buf; "" when the host does not say. */
void cb_sys_cpu_identity(char *buf, size_t len);
/* The CPU clock in kHz from /proc/cpuinfo, or 0 when unknown. */
int cb_sys_cpu_khz(void);
/* Physical memory in bytes, or 0 when unknown. */
size_t cb_sys_physical_memory(void);
/* Bytes of the CPU's last-level cache (L3, else L2), or 0 when unknown. */
size_t cb_sys_last_level_cache(void);
/* A monotonic clock in nanoseconds. */
uint64_t cb_sys_monotonic_ns(void);
/* Wall-clock time in nanoseconds since the Unix epoch. */
uint64_t cb_sys_realtime_ns(void);

/* Runs argv[0] (searched in PATH) with argv, waits for it, and captures its
 * stdout and stderr together into out (NUL-terminated, truncated to outlen).
 * Returns the exit status (0..255), 128+N if killed by signal N, or -1 when
 * it could not start, with the reason's errno in *start_errno (ENOENT: no such
 * program). */
int cb_sys_run(char *const argv[], char *out, size_t outlen, int *start_errno);

#endif
