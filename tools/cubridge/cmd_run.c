/* cmd_run.c: `cubridge run`: prepares the environment so that the program
 * loads cubridge's libcuda.so.1 (and hands over PTX), then becomes it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define CLI_EXIT_NOT_FOUND 127
#define CLI_EXIT_CANNOT_EXEC 126

int cli_lib_dir(char *out, size_t outlen)
{
    const char *env = getenv("CUBRIDGE_LIB_DIR");
    if (env && env[0])
        return (size_t)snprintf(out, outlen, "%s", env) < outlen ? 0 : -1;
    char exe_dir[4096], installed[4200];
    if (cli_os_exe_dir(exe_dir, sizeof exe_dir) != 0)
        return -1;
    snprintf(installed, sizeof installed, "%s/../lib/cubridge/libcuda.so.1", exe_dir);
    if (cli_os_exists(installed))
        return (size_t)snprintf(out, outlen, "%s/../lib/cubridge", exe_dir) < outlen ? 0 : -1;
    return (size_t)snprintf(out, outlen, "%s/../lib", exe_dir) < outlen ? 0 : -1;
}

/* LD_LIBRARY_PATH = lib dir, the toolkit's lib64 (for libcudart.so.13
 * of `-cudart shared` programs), then whatever was there before. */
static int set_library_path(const char *lib_dir)
{
    const char *cuda_home = getenv("CUDA_HOME");
    if (!cuda_home || !cuda_home[0])
        cuda_home = "/usr/local/cuda";
    const char *old = getenv("LD_LIBRARY_PATH");
    size_t n = strlen(lib_dir) + strlen(cuda_home) + (old ? strlen(old) : 0) + 16;
    char *value = malloc(n);
    if (!value)
        return -1;
    snprintf(value, n, "%s:%s/lib64%s%s", lib_dir, cuda_home, old && old[0] ? ":" : "", old ? old : "");
    int rc = cli_os_setenv("LD_LIBRARY_PATH", value, 1);
    free(value);
    return rc;
}

/* Variables that make JIT clients hand over PTX or find our driver; a
 * value the user already set wins. docs/cli.md says why each is here. */
static int set_client_hints(const char *lib_dir)
{
    char driver[4200];
    snprintf(driver, sizeof driver, "%s/libcuda.so.1", lib_dir);
    int rc = 0;
    rc |= cli_os_setenv("CUDA_CACHE_DISABLE", "1", 0);
    rc |= cli_os_setenv("CUPY_COMPILE_WITH_PTX", "1", 0);
    rc |= cli_os_setenv("NUMBA_CUDA_DRIVER", driver, 0);
    /* CuPy's prebuilt CUB kernels carry SASS and only compute_120 PTX, and
     * CuPy ignores their launch errors (wrong sums, no error): use CuPy's
     * own reduction kernels, which it compiles to PTX with NVRTC. */
    rc |= cli_os_setenv("CUPY_ACCELERATORS", "", 0);
    /* PyCUDA's SourceModule runs `nvcc --cubin` and reads kernel.cubin; a
     * later --ptx wins, and -o keeps the file name, so it gets PTX. Its
     * cache would preprocess with the same flags (and -o), so it is off. */
    rc |= cli_os_setenv("PYCUDA_DEFAULT_NVCC_FLAGS", "--ptx -o kernel.cubin", 0);
    rc |= cli_os_setenv("PYCUDA_DISABLE_CACHE", "1", 0);
    /* NVTX 3 (header-only) hands its ranges to the library this names:
     * our libcuda.so.1 puts them in the inspector's trace (src/inspect/nvtx.c). */
    rc |= cli_os_setenv("NVTX_INJECTION64_PATH", driver, 0);
    return rc;
}

int cli_backend_known(const char *name)
{
#ifdef CUBRIDGE_OPENCL_BACKEND
    if (strcmp(name, "opencl") == 0)
        return 1;
#endif
    return strcmp(name, "cpu") == 0 || strcmp(name, "cuda") == 0;
}

/* LD_AUDIT: the module that makes cubridge's libraries (libcublas.so.13 ...)
 * load even where a program or wheel pins NVIDIA's by RPATH/RUNPATH or by
 * path (docs/libraries.md). Not under the cuda pass-through, whose programs
 * must reach NVIDIA's libraries. */
static int set_library_audit(const char *lib_dir, const char *backend)
{
    char audit[4200];
    snprintf(audit, sizeof audit, "%s/libcubridge_audit.so", lib_dir);
    if ((backend && strcmp(backend, "cuda") == 0) || !cli_os_exists(audit))
        return 0;
    const char *old = getenv("LD_AUDIT");
    char value[8400];
    snprintf(value, sizeof value, "%s%s%s", audit, old && old[0] ? ":" : "", old ? old : "");
    return cli_os_setenv("LD_AUDIT", value, 1) | cli_os_setenv("CUBRIDGE_LIB_DIR", lib_dir, 0);
}

int cli_run_program(const char *who, const char *backend, const char *sm, const char *warp_size, char **prog)
{
    if (backend && !cli_backend_known(backend))
        return cli_usage_error(who, "unknown backend '%s' (this build has: " CLI_BACKENDS ")", backend);
    if (sm && !cli_parse_int(sm, 10, 1000, NULL))
        return cli_usage_error(who, "--sm wants a compute capability such as 86, not '%s'", sm);
    if (warp_size && strcmp(warp_size, "32") && strcmp(warp_size, "64"))
        return cli_usage_error(who, "--warp-size wants 32 or 64, not '%s'", warp_size);
    if (warp_size && !strcmp(warp_size, "64") && backend && strcmp(backend, "cpu"))
        return cli_usage_error(who, "--warp-size 64 runs on the cpu backend only, not on '%s'", backend);
    if (!prog[0])
        return cli_usage_error(who, "no program to run");
    char lib_dir[4096];
    if (cli_lib_dir(lib_dir, sizeof lib_dir) != 0) {
        fprintf(stderr, "cubridge %s: cannot find cubridge's lib directory; set CUBRIDGE_LIB_DIR\n", who);
        return CLI_EXIT_CANNOT_EXEC;
    }
    char driver[4200];
    snprintf(driver, sizeof driver, "%s/libcuda.so.1", lib_dir);
    if (!cli_os_exists(driver))
        fprintf(stderr, "cubridge %s: warning: %s does not exist; the program may not find a CUDA driver\n", who,
                driver);
    if (set_library_path(lib_dir) != 0 || set_client_hints(lib_dir) != 0 || set_library_audit(lib_dir, backend) != 0 ||
        cli_os_setenv("CUBRIDGE_BACKEND", backend ? backend : "cpu", backend != NULL) != 0 ||
        (sm && cli_os_setenv("CUBRIDGE_SM", sm, 1) != 0) ||
        (warp_size && cli_os_setenv("CUBRIDGE_WARP_SIZE", warp_size, 1) != 0) ||
        cli_os_setenv("CUBRIDGE_SUMMARY", "1", 0) != 0) {
        fprintf(stderr, "cubridge %s: cannot set the environment: %s\n", who, strerror(errno));
        return CLI_EXIT_CANNOT_EXEC;
    }
    fflush(NULL);
    cli_os_exec(prog);
    int err = errno;
    fprintf(stderr, "cubridge %s: cannot run '%s': %s\n", who, prog[0], strerror(err));
    return err == ENOENT || err == ENOTDIR ? CLI_EXIT_NOT_FOUND : CLI_EXIT_CANNOT_EXEC;
}

int cli_run(int argc, char **argv)
{
    cli_args a;
    int rc = cli_parse("run", argc, argv, &a);
    if (rc)
        return rc == 1 ? 0 : rc;
    return cli_run_program("run", cli_opt(&a, "backend"), cli_opt(&a, "sm"), cli_opt(&a, "warp-size"), argv + a.first);
}
