/* main.c: `cubridge SUBCOMMAND ...`, dispatched through one table. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv); /* NULL: not implemented yet */
    const char *usage;
    const char *summary;
} cli_command;

static int cli_version(int argc, char **argv);
static int cli_help(int argc, char **argv);

static const cli_command commands[] = {
    {"run", cli_run, "run [--backend NAME] [--sm N] [--] PROGRAM [ARGS...]",
     "run a CUDA program on cubridge's libcuda.so.1"},
    {"devices", cli_devices, "devices", "list the devices cubridge reports"},
    {"cache", cli_cache, "cache [dir|stats|clear]", "show, measure or clear the kernel cache"},
    {"inspect", cli_inspect, "inspect [--verify] [--strict] [--report DIR] -- PROGRAM [ARGS...]", "trace and verify every routed call"},
    {"coverage", cli_coverage, "coverage [LIBRARY] [--list]", "NVIDIA exports mapped by cubridge"},
    {"ptx", cli_ptx, "ptx FILE.ptx [--out FILE.c]", "translate PTX and show the C, or the error"},
    {"audit", NULL, "audit -- PROGRAM [ARGS...]", "report unsupported calls and drift"},
    {"version", cli_version, "version", "print the version"},
    {"help", cli_help, "help", "print this help"},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void print_usage(FILE *out)
{
    fprintf(out, "usage: cubridge COMMAND [ARGS...]\n\ncommands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(out, "  %-50s %s%s\n", commands[i].usage, commands[i].summary,
                commands[i].run ? "" : " (not implemented yet)");
    fprintf(out, "\nenvironment: CUBRIDGE_BACKEND, CUBRIDGE_SM, CUBRIDGE_LOG, CUBRIDGE_CACHE_DIR,\n"
                 "CUBRIDGE_LIB_DIR, CUBRIDGE_SUMMARY, CUBRIDGE_THREADS, CUBRIDGE_HOST_CC (see docs/cli.md)\n");
}

static int cli_version(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("cubridge %s\n", CUBRIDGE_VERSION);
    return 0;
}

static int cli_help(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    print_usage(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
        name = "help";
    if (strcmp(name, "--version") == 0)
        name = "version";
    for (size_t i = 0; i < N_COMMANDS; i++) {
        if (strcmp(name, commands[i].name) != 0)
            continue;
        if (!commands[i].run) {
            fprintf(stderr, "cubridge: '%s' is not implemented yet\n", name);
            return CLI_EXIT_USAGE;
        }
        return commands[i].run(argc - 2, argv + 2);
    }
    fprintf(stderr, "cubridge: unknown command '%s'\n\n", name);
    print_usage(stderr);
    return CLI_EXIT_USAGE;
}
