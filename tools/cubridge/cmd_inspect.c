/* cmd_inspect.c: `cubridge inspect [OPTIONS] [--] PROGRAM [ARGS...]`:
 * `cubridge run` with the inspector on. It sets CUBRIDGE_INSPECT (trace,
 * or verify), CUBRIDGE_STRICT, CUBRIDGE_INSPECT_DIR, CUBRIDGE_ERROR_EXITCODE
 * and CUBRIDGE_JUNIT, then runs the program exactly as `run` does (it
 * becomes the program). The driver writes the reports, and sets the exit
 * status, when the program exits (docs/inspector.md). */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cli_inspect(int argc, char **argv)
{
    cli_args a;
    int rc = cli_parse("inspect", argc, argv, &a);
    if (rc)
        return rc == 1 ? 0 : rc;
    const char *dir = cli_opt(&a, "report"), *code = cli_opt(&a, "error-exitcode"), *junit = cli_opt(&a, "junit");
    if (code && !cli_parse_int(code, 0, 255, NULL))
        return cli_usage_error("inspect", "--error-exitcode wants a status from 0 to 255, not '%s'", code);
    if (dir && !dir[0])
        return cli_usage_error("inspect", "--report wants a directory");
    if (junit && !junit[0])
        return cli_usage_error("inspect", "--junit wants a file name");
    if (cli_os_setenv("CUBRIDGE_INSPECT", cli_opt(&a, "verify") ? "verify" : "trace", 1) != 0 ||
        (cli_opt(&a, "strict") && cli_os_setenv("CUBRIDGE_STRICT", "1", 1) != 0) ||
        (dir && cli_os_setenv("CUBRIDGE_INSPECT_DIR", dir, 1) != 0) ||
        (code && cli_os_setenv("CUBRIDGE_ERROR_EXITCODE", code, 1) != 0) ||
        (junit && cli_os_setenv("CUBRIDGE_JUNIT", junit, 1) != 0)) {
        fprintf(stderr, "cubridge inspect: cannot set the environment\n");
        return CLI_EXIT_USAGE;
    }
    return cli_run_program("inspect", cli_opt(&a, "backend"), cli_opt(&a, "sm"), argv + a.first);
}
