/* stubs.c: a weak stub for every libcuda export, and the export registry.
 *
 * Deliberately does not include cuda.h (see registry.h). Each stub is a
 * static function with a weak alias cb_impl_<export> (the name src/driver
 * defines its implementations under, impl_names.h); a strong definition
 * elsewhere wins at link time and the alias is dropped. The exported
 * symbols are the forwarders of forward.c; the cb_impl_ names are exported
 * too, so that their binding (weak: stub) still tells `cubridge coverage`
 * what is implemented (src/inspect/coverage.c).
 *
 * Static links (unit tests) pull archive members by undefined symbol; this
 * file sorts last among src/driver so that strong members are preferred.
 */
#include "driver/registry.h"

#define CB_EXPORT_FN(sym)                                                                                   \
    static int cb_stub_##sym(void) { return cb_driver_unsupported(CB_EXP_##sym); }                           \
    extern int cb_impl_##sym(void) __attribute__((weak, alias("cb_stub_" #sym), visibility("default")));
#include "driver/exports.inc"
#undef CB_EXPORT_FN

const cb_export cb_exports[CB_EXP__COUNT] = {
#define CB_EXPORT_FN(sym) {#sym, (cb_export_fn)cb_impl_##sym, (cb_export_fn)cb_stub_##sym},
#include "driver/exports.inc"
#undef CB_EXPORT_FN
};
