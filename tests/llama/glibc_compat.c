/* glibc_compat.c: for a program built against glibc 2.38+ (Ubuntu 24.04, where
   the H200 machine builds llama.cpp) to run on glibc 2.36 (Debian 12): the C23
   strto and scanf entry points that 2.38 headers redirect to, strlcpy/strlcat,
   and fmod/fmodf bound to their GLIBC_2.2.5 versions. Linked into the program
   (static ggml, -static-libstdc++), so no reference needs a newer libc. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <wchar.h>
long __isoc23_strtol(const char *s, char **e, int b) { return strtol(s, e, b); }
unsigned long __isoc23_strtoul(const char *s, char **e, int b) { return strtoul(s, e, b); }
long long __isoc23_strtoll(const char *s, char **e, int b) { return strtoll(s, e, b); }
unsigned long long __isoc23_strtoull(const char *s, char **e, int b) { return strtoull(s, e, b); }
intmax_t __isoc23_strtoimax(const char *s, char **e, int b) { return strtoimax(s, e, b); }
uintmax_t __isoc23_strtoumax(const char *s, char **e, int b) { return strtoumax(s, e, b); }
long __isoc23_wcstol(const wchar_t *s, wchar_t **e, int b) { return wcstol(s, e, b); }
unsigned long __isoc23_wcstoul(const wchar_t *s, wchar_t **e, int b) { return wcstoul(s, e, b); }
long long __isoc23_wcstoll(const wchar_t *s, wchar_t **e, int b) { return wcstoll(s, e, b); }
unsigned long long __isoc23_wcstoull(const wchar_t *s, wchar_t **e, int b) { return wcstoull(s, e, b); }
int __isoc23_vsscanf(const char *s, const char *f, va_list a) { return vsscanf(s, f, a); }
int __isoc23_vfscanf(FILE *fp, const char *f, va_list a) { return vfscanf(fp, f, a); }
int __isoc23_vscanf(const char *f, va_list a) { return vscanf(f, a); }
int __isoc23_sscanf(const char *s, const char *f, ...) { va_list a; va_start(a, f); int r = vsscanf(s, f, a); va_end(a); return r; }
int __isoc23_fscanf(FILE *fp, const char *f, ...) { va_list a; va_start(a, f); int r = vfscanf(fp, f, a); va_end(a); return r; }
int __isoc23_scanf(const char *f, ...) { va_list a; va_start(a, f); int r = vscanf(f, a); va_end(a); return r; }
size_t strlcpy(char *d, const char *s, size_t n) { size_t l = strlen(s); if (n) { size_t c = l < n - 1 ? l : n - 1; memcpy(d, s, c); d[c] = 0; } return l; }
size_t strlcat(char *d, const char *s, size_t n) { size_t k = strnlen(d, n); if (k == n) return n + strlen(s); return k + strlcpy(d + k, s, n - k); }
extern double cb_old_fmod(double, double);
extern float cb_old_fmodf(float, float);
__asm__(".symver cb_old_fmod,fmod@GLIBC_2.2.5");
__asm__(".symver cb_old_fmodf,fmodf@GLIBC_2.2.5");
double fmod(double x, double y) { return cb_old_fmod(x, y); }
float fmodf(float x, float y) { return cb_old_fmodf(x, y); }
