/* progress.h: a progress line on stderr while modules are translated and
 * compiled, when that takes long (module.c calls it).
 *
 * Only when stderr is a terminal and CUBRIDGE_PROGRESS is not 0: once a
 * module has been loading for CUBRIDGE_PROGRESS_AFTER seconds (default 2),
 * one line is kept up to date in place ("cubridge: translating module 3,
 * 52 kernels: compiling the C (6 s)"), and ends with what was done. On a
 * pipe or a file nothing is ever printed. Process-wide state: the module
 * loading now (one at a time is shown) and a ticker thread, started on
 * the first module when the line is enabled, under the progress lock. */
#ifndef CB_CORE_PROGRESS_H
#define CB_CORE_PROGRESS_H

/* A module (name: for the log only) starts loading; returns its number in
 * this process (1, 2, ...). */
unsigned cb_progress_begin(const char *name);
/* It has reached stage ("translating the PTX", "compiling the C"); kernels
 * is its kernel count once known (0 before). */
void cb_progress_stage(unsigned module, const char *stage, unsigned kernels);
/* It is loaded (ok 1) or failed. */
void cb_progress_end(unsigned module, int ok);

#endif
