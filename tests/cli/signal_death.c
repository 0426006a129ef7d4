/* signal_death.c: prints a line into stdout's buffer (not flushed: stdout
 * is a pipe or a file), initialises the driver, then dies of the signal
 * named by argv[1]: "segv" (a null store), "abort", "term" (kill itself).
 * cubridge's driver must flush that line, say which signal ended the
 * program, print its summary line, and let the program die of the signal
 * (tests/cli/run_cli_test.sh, case signal). */
#include <cuda.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "segv";
    if (cuInit(0) != CUDA_SUCCESS)
        return 2;
    printf("buffered line before the %s\n", how);
    if (strcmp(how, "abort") == 0)
        abort();
    if (strcmp(how, "term") == 0)
        kill(getpid(), SIGTERM);
    volatile int *p = NULL;
    if (strcmp(how, "segv") == 0)
        *p = 1;
    sleep(5);
    return 1;
}
