/* cli_args.c: a subcommand's options, parsed with getopt_long from its
 * entry in the table of cli_spec.c. Both "--opt VALUE" and "--opt=VALUE"
 * work (and "-o VALUE" / "-oVALUE" for short names). For run and inspect
 * parsing stops at the first operand or at "--", so a program's own options
 * pass through. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_usage_error(const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "cubridge %s: ", name);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nusage: cubridge %s %s\n(cubridge %s --help lists the options)\n", name,
            cli_command_find(name) ? cli_command_find(name)->synopsis : "", name);
    return CLI_EXIT_USAGE;
}

int cli_parse_int(const char *s, long lo, long hi, long *v)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (!s[0] || *end || errno || x < lo || x > hi)
        return 0;
    if (v)
        *v = x;
    return 1;
}

int cli_parse(const char *name, int argc, char **argv, cli_args *out)
{
    const cli_command *c = cli_command_find(name);
    memset(out, 0, sizeof *out);
    out->cmd = c;
    struct option longs[CLI_MAX_OPTIONS + 2];
    /* "+": stop at the first operand; ':': missing arguments are reported as ':' */
    char shorts[3 * CLI_MAX_OPTIONS + 8];
    snprintf(shorts, sizeof shorts, "%s:h", c->program_operands ? "+" : "");
    size_t n = 0, ns = strlen(shorts);
    for (const cli_option *o = c->options; o && o->name && n < CLI_MAX_OPTIONS; o++, n++) {
        longs[n] = (struct option){o->name, o->arg ? required_argument : no_argument, NULL, 256 + (int)n};
        if (o->short_name) {
            shorts[ns++] = o->short_name;
            if (o->arg)
                shorts[ns++] = ':';
        }
    }
    shorts[ns] = 0;
    longs[n] = (struct option){"help", no_argument, NULL, 'h'};
    longs[n + 1] = (struct option){0, 0, 0, 0};
    optind = 0;   /* 0: glibc re-initialises (a second parse in one process) */
    opterr = 0;
    int ch, index = -1;
    while ((ch = getopt_long(argc, argv, shorts, longs, &index)) != -1) {
        if (ch == 'h') {
            cli_print_command_help(stdout, c);
            return 1;
        }
        if (ch == '?') {
            if (optopt)
                return cli_usage_error(name, "unknown option '-%c'", optopt);
            return cli_usage_error(name, "unknown option '%s'", argv[optind - 1]);
        }
        if (ch == ':')
            return cli_usage_error(name, "option '%s' needs an argument", argv[optind - 1]);
        size_t k = n;
        if (ch >= 256) {
            k = (size_t)(ch - 256);
        } else {
            for (k = 0; k < n && c->options[k].short_name != ch; k++)
                ;
        }
        if (k >= n)
            return cli_usage_error(name, "unknown option '%s'", argv[optind - 1]);
        out->value[k] = c->options[k].arg ? optarg : "";
    }
    out->first = optind;
    return 0;
}

const char *cli_opt(const cli_args *a, const char *name)
{
    for (size_t k = 0; a->cmd->options && a->cmd->options[k].name && k < CLI_MAX_OPTIONS; k++)
        if (strcmp(a->cmd->options[k].name, name) == 0)
            return a->value[k];
    return NULL;
}
