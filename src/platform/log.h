/* log.h: cubridge's diagnostics on stderr, one logger for every layer.
 *
 * CUBRIDGE_LOG=0..3 (error, warn, info, debug; default 1) is read once.
 * Each message is one line, "cubridge: <level>: <text>", written with one
 * call so that lines from different threads stay whole.
 */
#ifndef CB_PLATFORM_LOG_H
#define CB_PLATFORM_LOG_H

#define CB_LOG_ERROR 0
#define CB_LOG_WARN 1
#define CB_LOG_INFO 2
#define CB_LOG_DEBUG 3

/* The level from CUBRIDGE_LOG. */
int cb_log_level(void);
/* Prints the message when level <= cb_log_level(). */
void cb_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
