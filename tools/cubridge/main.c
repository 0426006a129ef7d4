/* main.c: `cubridge COMMAND ...`, dispatched through the table of
 * cli_spec.c. */
#include <string.h>

#include "cli.h"

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
