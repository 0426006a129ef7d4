/* cli.h: the cubridge command line. Each subcommand is one function
 * cli_<name>(argc, argv) that gets the arguments after its name and
 * returns the process exit status. */
#ifndef CB_CLI_H
#define CB_CLI_H

#include <stddef.h>
#include <stdint.h>

#define CLI_EXIT_USAGE 2

int cli_run(int argc, char **argv);
int cli_devices(int argc, char **argv);
int cli_cache(int argc, char **argv);
int cli_ptx(int argc, char **argv); /* cmd_ptx.c */
int cli_inspect(int argc, char **argv);  /* cmd_inspect.c */
int cli_coverage(int argc, char **argv); /* cmd_coverage.c */

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
