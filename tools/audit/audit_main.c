/* audit_main.c: cubridge-workloads, the program `cubridge audit` runs under
 * the inspector (docs/audit.md).
 *
 *   cubridge-workloads --preset NAME [--precision fp32|fp16|bf16] [--batch N] [--seq N]
 *
 * Prints one line per case (name, status, relative L1 drift, what was
 * checked) on stdout and a summary; exits 0 when every case is PASS or
 * UNSUPPORTED, 1 when one is DRIFT or FAIL, 2 on a usage error. The
 * inspector's reports (terminal table, report.json, report.html) are
 * written by cubridge's libcuda.so.1 when it exits. */
#include "audit.h"

#include <dlfcn.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    int (*run)(audit_run *r);
} presets[] = {
    {"gemm", audit_gemm},       {"conv2d-fwd", audit_conv2d_fwd}, {"conv2d-bwd", audit_conv2d_bwd},
    {"sdpa", audit_sdpa},       {"softmax", audit_softmax},       {"layernorm", audit_layernorm},
    {"reduce", audit_reduce},   {"fft", audit_fft},
};

static int usage(const char *why)
{
    fprintf(stderr, "cubridge-workloads: %s\nusage: cubridge-workloads --preset NAME [--precision fp32|fp16|bf16] "
                    "[--batch N] [--seq N]\n", why);
    return 2;
}

static int positive(const char *s, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!s[0] || *end || v < 1 || v > 4096)
        return 0;
    *out = (int)v;
    return 1;
}

static int start_driver(void)
{
    CUdevice dev;
    CUcontext ctx;
    CUresult rc = cuInit(0);
    if (rc == CUDA_SUCCESS)
        rc = cuDeviceGet(&dev, 0);
    if (rc == CUDA_SUCCESS)
        rc = cuDevicePrimaryCtxRetain(&ctx, dev);
    if (rc == CUDA_SUCCESS)
        rc = cuCtxSetCurrent(ctx);
    if (rc != CUDA_SUCCESS) {
        const char *s = NULL;
        cuGetErrorName(rc, &s);
        fprintf(stderr, "cubridge-workloads: the driver did not start: %s\n", s ? s : "?");
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"preset", required_argument, 0, 'p'}, {"precision", required_argument, 0, 'P'},
        {"batch", required_argument, 0, 'b'},  {"seq", required_argument, 0, 's'},
        {0, 0, 0, 0},
    };
    audit_run r = {.prec = AUDIT_FP32};
    const char *preset = NULL;
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 'p')
            preset = optarg;
        else if (c == 'P') {
            if (!strcmp(optarg, "fp32"))
                r.prec = AUDIT_FP32;
            else if (!strcmp(optarg, "fp16"))
                r.prec = AUDIT_FP16;
            else if (!strcmp(optarg, "bf16"))
                r.prec = AUDIT_BF16;
            else
                return usage("--precision wants fp32, fp16 or bf16");
            r.prec_given = 1;
        } else if (c == 'b') {
            if (!positive(optarg, &r.batch))
                return usage("--batch wants a number from 1 to 4096");
        } else if (c == 's') {
            if (!positive(optarg, &r.seq))
                return usage("--seq wants a number from 1 to 4096");
        } else
            return usage("unknown option");
    }
    if (optind != argc || !preset)
        return usage(preset ? "unexpected operand" : "no --preset");
    int (*run)(audit_run *) = NULL;
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (!strcmp(presets[i].name, preset))
            run = presets[i].run;
    if (!run)
        return usage("unknown preset");
    if (start_driver() != 0)
        return 1;
    /* cubridge's libcuda.so.1 offers the inspector; NVIDIA's does not. */
    cb_lib_services_fn services = (cb_lib_services_fn)(uintptr_t)dlsym(RTLD_DEFAULT, CB_LIB_SERVICES_SYMBOL);
    r.svc = services ? services(CB_LIB_SERVICES_VERSION) : NULL;
    if (!r.svc || !(r.svc->inspect_flags() & CB_INSPECT_VERIFY))
        fprintf(stderr, "cubridge-workloads: the inspector is not verifying (run me through `cubridge audit`); "
                        "verdicts are this program's own\n");
    int warp = 32;   /* what kernels run with (cubridge audit --warp-size, CUBRIDGE_WARP_SIZE) */
    CUdevice dev;
    if (cuCtxGetDevice(&dev) != CUDA_SUCCESS || cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev) != CUDA_SUCCESS)
        warp = 32;
    printf("cubridge audit: preset %s, precision %s%s\n", preset,
           !r.prec_given && !strcmp(preset, "sdpa") ? "fp32, fp16, bf16" : audit_precision_name(r.prec),
           warp == 64 ? ", 64-lane warps" : "");
    printf("%-44s %-11s %-9s %s\n", "case", "status", "drift", "what was checked");
    fflush(stdout);
    run(&r);
    printf("cubridge audit: %s: %d PASS, %d DRIFT, %d UNSUPPORTED, %d FAIL\n", preset, r.pass, r.drift, r.unsupported,
           r.failed);
    return r.drift || r.failed ? 1 : 0;
}
