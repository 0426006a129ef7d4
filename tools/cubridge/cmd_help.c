/* cmd_help.c: `cubridge help [--man|--markdown] [COMMAND]` and
 * `cubridge version`, printed from the table of cli_spec.c. */
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
