/* cmd_inspect.c: `cubridge inspect [--verify] [--strict] [--report DIR]
 * [--backend NAME] [--] PROGRAM [ARGS...]`: `cubridge run` with the
 * inspector on. It sets CUBRIDGE_INSPECT (trace, or verify), CUBRIDGE_STRICT
 * and CUBRIDGE_INSPECT_DIR, then runs the program exactly as `run` does (it
 * becomes the program). The driver writes the reports when the program exits
 * (docs/inspector.md). */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void inspect_usage(void)
{
    fprintf(stderr, "usage: cubridge inspect [--verify] [--strict] [--report DIR] [--backend NAME] [--sm N] "
                    "[--] PROGRAM [ARGS...]\n");
}

int cli_inspect(int argc, char **argv)
{
    int verify = 0, strict = 0, i = 0;
    const char *dir = NULL;
    /* run's own options pass through: --backend NAME, --sm N */
    char *pass[8];
    int npass = 0;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (argv[i][0] != '-')
            break;
        if (strcmp(argv[i], "--verify") == 0) {
            verify = 1;
        } else if (strcmp(argv[i], "--strict") == 0) {
            strict = 1;
        } else if (strcmp(argv[i], "--report") == 0 && i + 1 < argc) {
            dir = argv[++i];
        } else if ((strcmp(argv[i], "--backend") == 0 || strcmp(argv[i], "--sm") == 0) && i + 1 < argc && npass < 6) {
            pass[npass++] = argv[i];
            pass[npass++] = argv[++i];
        } else {
            fprintf(stderr, "cubridge inspect: unknown or incomplete option '%s'\n", argv[i]);
            inspect_usage();
            return CLI_EXIT_USAGE;
        }
    }
    if (i >= argc || (strcmp(argv[i], "--") == 0 && i + 1 >= argc)) {
        inspect_usage();
        return CLI_EXIT_USAGE;
    }
    if (cli_os_setenv("CUBRIDGE_INSPECT", verify ? "verify" : "trace", 1) != 0 ||
        (strict && cli_os_setenv("CUBRIDGE_STRICT", "1", 1) != 0) ||
        (dir && cli_os_setenv("CUBRIDGE_INSPECT_DIR", dir, 1) != 0)) {
        fprintf(stderr, "cubridge inspect: cannot set the environment\n");
        return CLI_EXIT_USAGE;
    }
    /* cli_run(argv: [--backend X] [--sm N] -- PROGRAM ARGS) */
    char *args[64 + 8];
    int n = 0;
    for (int k = 0; k < npass; k++)
        args[n++] = pass[k];
    if (strcmp(argv[i], "--") != 0)
        args[n++] = "--";
    if (argc - i > 64) {
        fprintf(stderr, "cubridge inspect: too many program arguments (at most 63)\n");
        return CLI_EXIT_USAGE;
    }
    for (int k = i; k < argc; k++)
        args[n++] = argv[k];
    args[n] = NULL;
    return cli_run(n, args);
}
