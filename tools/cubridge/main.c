/* main.c: `cubridge COMMAND ...`, dispatched through the table of
 * cli_spec.c. */
#include <string.h>

#include "cli.h"

int cli_version(int argc, char **argv)
{
    cli_args a;
    int rc = cli_parse("version", argc, argv, &a);
    if (rc)
        return rc == 1 ? 0 : rc;
    if (a.first < argc)
        return cli_usage_error("version", "unexpected argument '%s'", argv[a.first]);
    printf("cubridge %s\n", CUBRIDGE_VERSION);
    return 0;
}

int cli_help(int argc, char **argv)
{
    cli_args a;
    int rc = cli_parse("help", argc, argv, &a);
    if (rc)
        return rc == 1 ? 0 : rc;
    if (cli_opt(&a, "man")) {
        cli_print_man(stdout);
        return 0;
    }
    if (cli_opt(&a, "markdown")) {
        cli_print_markdown(stdout);
        return 0;
    }
    if (a.first + 1 < argc)
        return cli_usage_error("help", "at most one command, not '%s'", argv[a.first + 1]);
    if (a.first < argc) {
        const cli_command *c = cli_command_find(argv[a.first]);
        if (!c || c->hidden)
            return cli_usage_error("help", "unknown command '%s'", argv[a.first]);
        cli_print_command_help(stdout, c);
        return 0;
    }
    cli_print_usage(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        cli_print_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
        name = "help";
    else if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0)
        name = "version";
    const cli_command *c = cli_command_find(name);
    if (!c) {
        fprintf(stderr, "cubridge: unknown command '%s'\n\n", name);
        cli_print_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (!c->run) {
        fprintf(stderr, "cubridge: '%s' is not available in this build; for unsupported calls and drift use "
                        "`cubridge inspect --verify --strict -- PROGRAM`\n", name);
        return CLI_EXIT_USAGE;
    }
    /* The command sees its own name as argv[0]. */
    return c->run(argc - 1, argv + 1);
}
