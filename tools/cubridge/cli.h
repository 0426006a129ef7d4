/* cli.h: the cubridge command line.
 *
 * Every subcommand, its options and its help text are described once, in
 * the table of cli_spec.c; `cubridge COMMAND --help`, `cubridge help --man`
 * (docs/cubridge.1) and `cubridge help --markdown` (the reference section of
 * docs/cli.md) are printed from it, and options are parsed from it with
 * getopt_long (cli_args.c). Each subcommand is one function
 * cli_<name>(argc, argv) that gets its own name as argv[0] and the
 * arguments after it, and returns the process exit status. */
#ifndef CB_CLI_H
#define CB_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CLI_EXIT_USAGE 2

/* ---- the table (cli_spec.c) -------------------------------------------- */

typedef struct cli_option {
    const char *name;   /* long name without dashes: "backend" */
    char short_name;    /* 'o', or 0 for none */
    const char *arg;    /* the argument's name ("NAME"), or NULL for a flag */
    const char *help;   /* what it does, one sentence or more */
} cli_option;

typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv); /* NULL: not available in this build */
    const char *synopsis;    /* after "cubridge NAME ": "[OPTIONS] [--] PROGRAM [ARGS...]" */
    const char *summary;     /* one line */
    const char *description; /* paragraphs separated by "\n\n" */
    const cli_option *options; /* ends with {0}; -h/--help is implied */
    const char *exit_status; /* what its exit status means */
    int hidden;              /* not listed (reserved for a later step) */
    int program_operands;    /* options stop at the first operand (a program and its own options) */
} cli_command;

extern const cli_command cli_commands[];
extern const size_t cli_command_count;

/* The environment variables of the ENVIRONMENT section. */
typedef struct cli_envvar {
    const char *name, *value, *help;
} cli_envvar;
extern const cli_envvar cli_envvars[];
extern const size_t cli_envvar_count;

const cli_command *cli_command_find(const char *name);
/* The top-level usage (cubridge --help). */
void cli_print_usage(FILE *out);
/* `cubridge NAME --help`. */
void cli_print_command_help(FILE *out, const cli_command *c);
/* The whole reference as a man page (roff) or as Markdown. */
void cli_print_man(FILE *out);
void cli_print_markdown(FILE *out);

/* ---- options (cli_args.c) ---------------------------------------------- */

enum { CLI_MAX_OPTIONS = 16 };

typedef struct cli_args {
    const cli_command *cmd;
    const char *value[CLI_MAX_OPTIONS]; /* per option of cmd: its argument, "" for a flag given, NULL if absent */
    int first;                          /* argv index of the first operand */
} cli_args;

/* Parses argv (argv[0] is the command's name) against the command's table
 * entry with getopt_long. For commands that run a program, parsing stops at
 * the first operand or "--" (the program's own options are left alone);
 * for the others options and operands may come in any order. Returns 0 with *out filled; 1 if
 * -h/--help was given (the help is printed on stdout: exit 0); or
 * CLI_EXIT_USAGE after printing the error on stderr. */
int cli_parse(const char *name, int argc, char **argv, cli_args *out);
/* The value of option `name` (long name), or NULL if it was not given. */
const char *cli_opt(const cli_args *a, const char *name);
/* Prints "cubridge NAME: message" and the hint to use --help on stderr;
 * returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* 1 if s is a decimal integer in [lo, hi] (into *v). */
int cli_parse_int(const char *s, long lo, long hi, long *v);

/* ---- the subcommands ---------------------------------------------------- */

int cli_run(int argc, char **argv);       /* cmd_run.c */
int cli_devices(int argc, char **argv);   /* cmd_devices.c */
int cli_cache(int argc, char **argv);     /* cmd_cache.c */
int cli_ptx(int argc, char **argv);       /* cmd_ptx.c */
int cli_inspect(int argc, char **argv);   /* cmd_inspect.c */
int cli_audit(int argc, char **argv);     /* cmd_audit.c */
int cli_coverage(int argc, char **argv);  /* cmd_coverage.c */
int cli_help(int argc, char **argv);      /* cmd_help.c */
int cli_version(int argc, char **argv);   /* cmd_help.c */

/* What `run` does after its options (cmd_run.c), shared with `inspect`:
 * checks backend (NULL: keep CUBRIDGE_BACKEND, else cpu), sm and warp_size
 * (NULL: keep CUBRIDGE_WARP_SIZE; 64 only on the cpu backend), sets the
 * environment and becomes prog (NULL-terminated). Returns only on failure,
 * with the exit status. who names the command in messages. */
int cli_run_program(const char *who, const char *backend, const char *sm, const char *warp_size, char **prog);
/* What `inspect` does after its options (cmd_inspect.c), shared with
 * `audit`: checks the settings, sets the inspector's environment
 * (CUBRIDGE_INSPECT ...) and runs prog as cli_run_program does. NULL
 * fields are left alone. Returns only on failure, with the exit status. */
typedef struct cli_inspect_settings {
    int verify, strict;
    const char *report_dir, *error_exitcode, *junit, *backend, *sm;
    const char *warp_size;         /* --warp-size: 32 or 64 (sets CUBRIDGE_WARP_SIZE) */
} cli_inspect_settings;
int cli_inspect_program(const char *who, const cli_inspect_settings *s, char **prog);
/* 1 if name is a backend of this build (CLI_BACKENDS). */
int cli_backend_known(const char *name);
#ifdef CUBRIDGE_OPENCL_BACKEND
#define CLI_BACKENDS "cpu, cuda, opencl"
#else
#define CLI_BACKENDS "cpu, cuda"
#endif
/* cubridge's lib directory: $CUBRIDGE_LIB_DIR, else ../lib/cubridge next
 * to this executable (an installed tree) when it holds libcuda.so.1, else
 * ../lib (the build tree). Returns 0, or -1 if it cannot be found. */
int cli_lib_dir(char *out, size_t outlen);

/* ---- what the CLI needs from the OS (cli_os.c) ----------------------- */

/* The directory holding the running executable (from /proc/self/exe),
 * written into out. Returns 0, or -1 if it cannot be found. */
int cli_os_exe_dir(char *out, size_t outlen);
/* 1 if path names an existing file or directory. */
int cli_os_exists(const char *path);
/* The user's home directory ($HOME, else the password database), or NULL. */
const char *cli_os_home_dir(void);
/* Sets (overwrite=1) or defaults (overwrite=0) an environment variable.
 * Returns 0 or -1. */
int cli_os_setenv(const char *name, const char *value, int overwrite);
/* Replaces the process with argv[0] (searched in PATH). Returns only on
 * failure, with errno set. */
int cli_os_exec(char **argv);

/* Totals of a directory tree (symbolic links are counted, not followed). */
typedef struct cli_tree_stats {
    uint64_t files;
    uint64_t shared_objects; /* files named *.so */
    uint64_t bytes;          /* apparent size of the files */
} cli_tree_stats;

/* Adds up the files under dir. Returns 0, or -1 (errno ENOENT if dir is
 * missing). */
int cli_os_tree_stats(const char *dir, cli_tree_stats *out);
/* Removes everything inside dir (not dir itself), without following
 * symbolic links. Returns 0, or -1 on the first failure. */
int cli_os_empty_dir(const char *dir);

#endif
