/* program_cache.c: OpenCL programs built through the compile cache
 * (opencl_internal.h; the files are backend/kernel_cache.c's, the same
 * directory, rules and CUBRIDGE_CACHE_MAX as the CPU's shared objects).
 *
 * An entry is <key>.clbin: the device's program binary
 * (clGetProgramInfo CL_PROGRAM_BINARIES after a build from source) and the
 * cache's trailer; <key>.cl beside it is the source, for people.
 * configuration = SHA-256 of the entry format, the platform's name and
 * version, the device's name, vendor and version, the driver version, the
 * build options, the address size, and for a CPU device the host CPU's
 * identity (its binaries can hold code for this CPU); key =
 * cb_kernel_cache_key of the configuration's hash and the SHA-256 of the
 * program's text (the backend's header of addresses, then the translation).
 * So a new driver, another device or other options is another key: a
 * miss, never a wrong hit.
 * On a hit the entry's trailer and hash are checked (kernel_cache.c) before
 * its bytes reach clCreateProgramWithBinary; a binary the driver refuses
 * (clCreateProgramWithBinary's status, or clBuildProgram on it) is reported
 * and rebuilt from the source, and the new binary replaces it.
 *
 * Process-wide state: the hit and miss counters below. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/opencl/opencl_internal.h"
#include "platform/log.h"
#include "platform/sha256.h"
#include "platform/sysinfo.h"

static atomic_uint program_hits, program_misses;

void ocl_program_cache_stats(unsigned *hits, unsigned *misses)
{
    if (hits)
        *hits = atomic_load(&program_hits);
    if (misses)
        *misses = atomic_load(&program_misses);
}

/* Hashes "label value\n" for a string query of the platform or the device. */
static void config_add(cb_sha256 *s, const char *label, const char *value)
{
    cb_sha256_update(s, label, strlen(label));
    cb_sha256_update(s, " ", 1);
    cb_sha256_update(s, value, strlen(value));
    cb_sha256_update(s, "\n", 1);
}

void ocl_program_cache_open(ocl_program_cache *pc, cl_platform_id plat, cl_device_id dev, const char *options)
{
    memset(pc, 0, sizeof *pc);
    pc->options = options;
    char pname[256] = "", pver[256] = "", dname[256] = "", vendor[256] = "", dver[256] = "", drv[256] = "";
    cl_device_type type = 0;
    cl_uint bits = 0;
    clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof pname - 1, pname, NULL);
    clGetPlatformInfo(plat, CL_PLATFORM_VERSION, sizeof pver - 1, pver, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof dname - 1, dname, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_VENDOR, sizeof vendor - 1, vendor, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof dver - 1, dver, NULL);
    clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof drv - 1, drv, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_ADDRESS_BITS, sizeof bits, &bits, NULL);
    snprintf(pc->device, sizeof pc->device, "%s", dname);
    cb_sha256 s;
    cb_sha256_init(&s);
    config_add(&s, "cubridge-opencl-program", "1");
    config_add(&s, "platform", pname);
    config_add(&s, "platform-version", pver);
    config_add(&s, "device", dname);
    config_add(&s, "vendor", vendor);
    config_add(&s, "device-version", dver);
    config_add(&s, "driver", drv);
    config_add(&s, "options", options);
    char num[32];
    snprintf(num, sizeof num, "%u", (unsigned)bits);
    config_add(&s, "address-bits", num);
    if (type & CL_DEVICE_TYPE_CPU) {
        char cpu[4096];
        cb_sys_cpu_identity(cpu, sizeof cpu);
        config_add(&s, "host-cpu", cpu);
    }
    cb_sha256_final(&s, pc->config);
    pc->open = cb_kernel_cache_open(&pc->files, &cb_kernel_cache_opencl) == 0;
    if (!pc->open)
        cb_log(CB_LOG_WARN, "opencl: no compile cache (no usable directory): every program is built from source");
}

void ocl_program_cache_close(ocl_program_cache *pc)
{
    if (pc->open)
        cb_kernel_cache_close(&pc->files);
    pc->open = 0;
}

/* The binary of prog (built for its one device), malloc'd, or NULL. */
static unsigned char *program_binary(cl_program prog, size_t *len)
{
    size_t size = 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS || size == 0)
        return NULL;
    unsigned char *bin = malloc(size);
    if (!bin)
        return NULL;
    unsigned char *bins[1] = {bin};
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) != CL_SUCCESS) {
        free(bin);
        return NULL;
    }
    *len = size;
    return bin;
}

/* The program of a cached binary, built; NULL (and why) when the driver
 * does not take it. */
static cl_program program_from_binary(ocl_program_cache *pc, cl_context ctx, cl_device_id dev,
                                      const unsigned char *bin, size_t len, char *why, size_t whylen)
{
    cl_int status = CL_SUCCESS, e;
    cl_program prog = clCreateProgramWithBinary(ctx, 1, &dev, &len, &bin, &status, &e);
    if (e == CL_SUCCESS && status == CL_SUCCESS) {
        e = clBuildProgram(prog, 1, &dev, pc->options, NULL, NULL);
        if (e == CL_SUCCESS)
            return prog;
        snprintf(why, whylen, "clBuildProgram on the binary failed (%d)", (int)e);
    } else {
        snprintf(why, whylen, "clCreateProgramWithBinary refused it (%d, binary status %d)", (int)e, (int)status);
    }
    if (prog)
        clReleaseProgram(prog);
    return NULL;
}

/* Stores prog's binary as entry key; the n texts beside it, for people. */
static void program_store(ocl_program_cache *pc, cl_program prog, const char *key, const unsigned char src[32],
                          cl_uint n, const char **texts, const size_t *lens)
{
    size_t len = 0, total = 0;
    unsigned char *bin = program_binary(prog, &len);
    if (!bin) {
        cb_log(CB_LOG_WARN, "opencl: the driver gave no program binary: %s/%s.clbin is not stored", pc->files.dir, key);
        return;
    }
    for (cl_uint i = 0; i < n; i++)
        total += lens[i];
    char *text = malloc(total ? total : 1);
    if (text) {
        size_t at = 0;
        for (cl_uint i = 0; i < n; i++) {
            memcpy(text + at, texts[i], lens[i]);
            at += lens[i];
        }
    }
    if (cb_kernel_cache_store(&pc->files, key, src, pc->config, bin, len, text, total) != 0)
        cb_log(CB_LOG_WARN, "could not store JIT cache entry %s/%s.clbin: %s (the program runs; it will be built "
                            "again next time)", pc->files.dir, key, strerror(errno));
    else
        cb_kernel_cache_evict(&pc->files, key);
    free(text);
    free(bin);
}

cl_int ocl_program_build(ocl_program_cache *pc, cl_context ctx, cl_device_id dev, cl_uint n, const char **texts,
                         const size_t *lens, cl_program *prog)
{
    *prog = NULL;
    uint64_t t0 = cb_sys_monotonic_ns();
    unsigned char src[32];
    char key[65] = "";
    int found = 0;
    if (pc->open) {
        cb_sha256 s;
        cb_sha256_init(&s);
        for (cl_uint i = 0; i < n; i++)
            cb_sha256_update(&s, texts[i], lens[i]);
        cb_sha256_final(&s, src);
        cb_kernel_cache_key(pc->config, src, key);
        unsigned char *bin = NULL;
        size_t len = 0;
        found = cb_kernel_cache_lookup(&pc->files, key, src, pc->config, &bin, &len);
        if (found == 1) {
            char why[160];
            *prog = program_from_binary(pc, ctx, dev, bin, len, why, sizeof why);
            free(bin);
            if (*prog) {
                atomic_fetch_add(&program_hits, 1);
                cb_kernel_cache_stats_add(&pc->files, 1, 0, 0, 0, 0);
                cb_log(CB_LOG_DEBUG, "opencl: cache hit %s: program from its binary in %.1f ms", key,
                       (double)(cb_sys_monotonic_ns() - t0) / 1e6);
                return CL_SUCCESS;
            }
            cb_log(CB_LOG_WARN, "JIT cache entry %s/%s.clbin is refused: %s; rebuilding it", pc->files.dir, key, why);
            found = -1;
        }
        atomic_fetch_add(&program_misses, 1);
        cb_kernel_cache_stats_add(&pc->files, 0, 1, 0, 0, found < 0);
    }
    cl_int e;
    *prog = clCreateProgramWithSource(ctx, n, texts, lens, &e);
    if (e != CL_SUCCESS) {
        *prog = NULL;
        return e;
    }
    e = clBuildProgram(*prog, 1, &dev, pc->options, NULL, NULL);
    if (e != CL_SUCCESS)
        return e;
    if (pc->open) {
        double ms = (double)(cb_sys_monotonic_ns() - t0) / 1e6;
        program_store(pc, *prog, key, src, n, texts, lens);
        cb_log(CB_LOG_DEBUG, "opencl: cache miss %s: program built from source in %.1f ms (%s, options %s)", key, ms,
               pc->device, pc->options);
    }
    return CL_SUCCESS;
}
