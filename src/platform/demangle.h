/* demangle.h: C++ names as people read them, through libstdc++'s
 * __cxa_demangle (the Itanium C++ ABI demangler that nvcc's host compiler
 * uses; kernel names in PTX are mangled the same way). */
#ifndef CB_PLATFORM_DEMANGLE_H
#define CB_PLATFORM_DEMANGLE_H

#include <stddef.h>

/* Writes the demangled form of name ("_Z5saxpyifPKfPf" -> "saxpy(int, float,
 * float const*, float*)") into out, truncated to len. A name that is not
 * mangled (an extern "C" kernel) or cannot be demangled is copied as it is.
 * Returns out. Thread-safe; allocates (not for signal handlers). */
const char *cb_demangle(const char *name, char *out, size_t len);

#endif
