/* cmd_inspect.c: `cubridge inspect [OPTIONS] [--] PROGRAM [ARGS...]`:
 * `cubridge run` with the inspector on. It sets CUBRIDGE_INSPECT (trace,
 * or verify), CUBRIDGE_STRICT, CUBRIDGE_INSPECT_DIR, CUBRIDGE_ERROR_EXITCODE
 * and CUBRIDGE_JUNIT, then runs the program exactly as `run` does (it
 * becomes the program). The driver writes the reports, and sets the exit
 * status, when the program exits (docs/inspector.md). `cubridge audit`
 * runs its workloads through the same function. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cli_inspect_program(const char *who, const cli_inspect_settings *s, char **prog)
{
    if (s->error_exitcode && !cli_parse_int(s->error_exitcode, 0, 255, NULL))
        return cli_usage_error(who, "--error-exitcode wants a status from 0 to 255, not '%s'", s->error_exitcode);
    if (s->report_dir && !s->report_dir[0])
        return cli_usage_error(who, "--report wants a directory");
    if (s->junit && !s->junit[0])
        return cli_usage_error(who, "--junit wants a file name");
    if (cli_os_setenv("CUBRIDGE_INSPECT", s->verify ? "verify" : "trace", 1) != 0 ||
        (s->strict && cli_os_setenv("CUBRIDGE_STRICT", "1", 1) != 0) ||
        (s->report_dir && cli_os_setenv("CUBRIDGE_INSPECT_DIR", s->report_dir, 1) != 0) ||
        (s->error_exitcode && cli_os_setenv("CUBRIDGE_ERROR_EXITCODE", s->error_exitcode, 1) != 0) ||
        (s->junit && cli_os_setenv("CUBRIDGE_JUNIT", s->junit, 1) != 0)) {
        fprintf(stderr, "cubridge %s: cannot set the environment\n", who);
        return CLI_EXIT_USAGE;
    }
    return cli_run_program(who, s->backend, s->sm, s->warp_size, prog);
}

int cli_inspect(int argc, char **argv)
{
    cli_args a;
    int rc = cli_parse("inspect", argc, argv, &a);
    if (rc)
        return rc == 1 ? 0 : rc;
    cli_inspect_settings s = {
        .verify = cli_opt(&a, "verify") != NULL, .strict = cli_opt(&a, "strict") != NULL,
        .report_dir = cli_opt(&a, "report"), .error_exitcode = cli_opt(&a, "error-exitcode"),
        .junit = cli_opt(&a, "junit"), .backend = cli_opt(&a, "backend"), .sm = cli_opt(&a, "sm"),
        .warp_size = cli_opt(&a, "warp-size"),
    };
    return cli_inspect_program("inspect", &s, argv + a.first);
}
