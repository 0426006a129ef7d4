/* cmd_run.c: `cubridge run`: prepares the environment so that the program
 * loads cubridge's libcuda.so.1 (and hands over PTX), then becomes it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define CLI_EXIT_NOT_FOUND 127
#define CLI_EXIT_CANNOT_EXEC 126

/* Our lib directory: $CUBRIDGE_LIB_DIR, else <dir of this executable>/../lib. */
static int find_lib_dir(char *out, size_t outlen)
{
    const char *env = getenv("CUBRIDGE_LIB_DIR");
    if (env && env[0])
        return (size_t)snprintf(out, outlen, "%s", env) < outlen ? 0 : -1;
    char exe_dir[4096];
    if (cli_os_exe_dir(exe_dir, sizeof exe_dir) != 0)
        return -1;
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

static int is_number_in(const char *s, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return s[0] && *end == 0 && errno == 0 && v >= lo && v <= hi;
}

static void run_usage(void)
{
    fprintf(stderr, "usage: cubridge run [--backend NAME] [--sm N] [--] PROGRAM [ARGS...]\n");
}

int cli_run(int argc, char **argv)
{
    const char *backend = NULL, *sm = NULL;
    int i = 0;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        if (argv[i][0] != '-')
            break;
        if ((strcmp(argv[i], "--backend") == 0 || strcmp(argv[i], "--sm") == 0) && i + 1 < argc) {
            *(argv[i][2] == 'b' ? &backend : &sm) = argv[i + 1];
            i++;
        } else {
            fprintf(stderr, "cubridge run: unknown or incomplete option '%s'\n", argv[i]);
            run_usage();
            return CLI_EXIT_USAGE;
        }
    }
    if (i >= argc) {
        run_usage();
        return CLI_EXIT_USAGE;
    }
    if (sm && !is_number_in(sm, 10, 1000)) {
        fprintf(stderr, "cubridge run: --sm wants a compute capability such as 86, not '%s'\n", sm);
        return CLI_EXIT_USAGE;
    }
    char lib_dir[4096];
    if (find_lib_dir(lib_dir, sizeof lib_dir) != 0) {
        fprintf(stderr, "cubridge run: cannot find cubridge's lib directory; set CUBRIDGE_LIB_DIR\n");
        return CLI_EXIT_CANNOT_EXEC;
    }
    char driver[4200];
    snprintf(driver, sizeof driver, "%s/libcuda.so.1", lib_dir);
    if (!cli_os_exists(driver))
        fprintf(stderr, "cubridge run: warning: %s does not exist; the program may not find a CUDA driver\n",
                driver);
    if (set_library_path(lib_dir) != 0 || set_client_hints(lib_dir) != 0 ||
        cli_os_setenv("CUBRIDGE_BACKEND", backend ? backend : "cpu", backend != NULL) != 0 ||
        (sm && cli_os_setenv("CUBRIDGE_SM", sm, 1) != 0) ||
        cli_os_setenv("CUBRIDGE_SUMMARY", "1", 0) != 0) {
        fprintf(stderr, "cubridge run: cannot set the environment: %s\n", strerror(errno));
        return CLI_EXIT_CANNOT_EXEC;
    }
    fflush(NULL);
    cli_os_exec(argv + i);
    int err = errno;
    fprintf(stderr, "cubridge run: cannot run '%s': %s\n", argv[i], strerror(err));
    return err == ENOENT || err == ENOTDIR ? CLI_EXIT_NOT_FOUND : CLI_EXIT_CANNOT_EXEC;
}
