/* lib_fail.h: what a failed check in a tests/lib program does.
 *
 * Normally the program stops at its first difference (exit 1). With
 * LIB_CHECK_ALL=1 in the environment it goes on, printing every difference,
 * and exits 1 at the end with a count: one run on a GPU then lists them all
 * (a program that goes on past a failed call may crash further on). */
#ifndef CUBRIDGE_TESTS_LIB_FAIL_H
#define CUBRIDGE_TESTS_LIB_FAIL_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int lib_failures;

static void lib_fail_report(void)
{
  if (lib_failures) {
    printf("%d checks failed\n", lib_failures);
    fflush(stdout);
    _exit(1);
  }
}

static inline void lib_fail(void)
{
  static int keep = -1;
  if (keep < 0) {
    keep = getenv("LIB_CHECK_ALL") != NULL;
    if (keep) atexit(lib_fail_report);
  }
  if (!keep) exit(1);
  lib_failures++;
}

#endif
