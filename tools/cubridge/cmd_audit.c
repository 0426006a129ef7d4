/* cmd_audit.c: `cubridge audit --preset NAME [OPTIONS]`: cubridge's
 * built-in workloads (tools/audit, the program cubridge-workloads in the
 * lib directory) run under `cubridge inspect --verify`, so each of their
 * calls ends in the inspector's reports (terminal table, report.json,
 * report.html) with its status and measured drift (docs/audit.md). */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char *const audit_presets[] = {"gemm",    "conv2d-fwd", "conv2d-bwd", "sdpa",
                                            "softmax", "layernorm",  "reduce",     "fft"};

static int known_preset(const char *name)
{
    for (size_t i = 0; i < sizeof audit_presets / sizeof audit_presets[0]; i++)
        if (strcmp(audit_presets[i], name) == 0)
            return 1;
    return 0;
}

int cli_audit(int argc, char **argv)
{
    cli_args a;
    int rc = cli_parse("audit", argc, argv, &a);
    if (rc)
        return rc == 1 ? 0 : rc;
    const char *preset = cli_opt(&a, "preset"), *precision = cli_opt(&a, "precision");
    const char *batch = cli_opt(&a, "batch"), *seq = cli_opt(&a, "seq"), *warp = cli_opt(&a, "warp-size");
    if (a.first < argc)
        return cli_usage_error("audit", "unexpected operand '%s'", argv[a.first]);
    if (!preset)
        return cli_usage_error("audit", "--preset is required (gemm, conv2d-fwd, conv2d-bwd, sdpa, softmax, "
                                        "layernorm, reduce, fft)");
    if (!known_preset(preset))
        return cli_usage_error("audit", "unknown preset '%s' (gemm, conv2d-fwd, conv2d-bwd, sdpa, softmax, "
                                        "layernorm, reduce, fft)", preset);
    if (precision && strcmp(precision, "fp32") && strcmp(precision, "fp16") && strcmp(precision, "bf16"))
        return cli_usage_error("audit", "--precision wants fp32, fp16 or bf16, not '%s'", precision);
    if (batch && !cli_parse_int(batch, 1, 4096, NULL))
        return cli_usage_error("audit", "--batch wants a number from 1 to 4096, not '%s'", batch);
    if (seq && !cli_parse_int(seq, 1, 4096, NULL))
        return cli_usage_error("audit", "--seq wants a number from 1 to 4096, not '%s'", seq);
    if (warp && strcmp(warp, "32") && strcmp(warp, "64"))
        return cli_usage_error("audit", "--warp-size wants 32 or 64, not '%s'", warp);
    char lib_dir[4096], program[4200];
    if (cli_lib_dir(lib_dir, sizeof lib_dir) != 0) {
        fprintf(stderr, "cubridge audit: cannot find cubridge's lib directory; set CUBRIDGE_LIB_DIR\n");
        return 126;
    }
    snprintf(program, sizeof program, "%s/cubridge-workloads", lib_dir);
    if (!cli_os_exists(program)) {
        fprintf(stderr, "cubridge audit: %s is missing: this cubridge was built without its workloads "
                        "(they need the cuBLAS, cuDNN and cuFFT facades)\n", program);
        return 127;
    }
    char *prog[12];
    int n = 0;
    prog[n++] = program;
    prog[n++] = "--preset";
    prog[n++] = (char *)preset;
    if (precision)
        prog[n++] = "--precision", prog[n++] = (char *)precision;
    if (batch)
        prog[n++] = "--batch", prog[n++] = (char *)batch;
    if (seq)
        prog[n++] = "--seq", prog[n++] = (char *)seq;
    prog[n] = NULL;
    cli_inspect_settings s = {
        .verify = 1, .report_dir = cli_opt(&a, "report"), .error_exitcode = cli_opt(&a, "error-exitcode"),
        .backend = cli_opt(&a, "backend"), .sm = cli_opt(&a, "sm"), .warp_size = warp,
    };
    return cli_inspect_program("audit", &s, prog);
}
