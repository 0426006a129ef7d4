/* kernel_abi_text.c: kernel_abi.h as text (kernel_abi_text.h).
 *
 * The build turns src/codegen/c/kernel_abi.h into kernel_abi.h.inc, its bytes
 * as an initialiser list (CMakeLists.txt, scripts/embed_text.cmake), in the
 * build's generated/codegen/c/. Including the header itself here as well
 * checks that it compiles on its own, as it must inside every unit.
 */
#include "codegen/c/kernel_abi.h"
#include "codegen/c/kernel_abi_text.h"

const char cb_kernel_abi_text[] = {
#include "codegen/c/kernel_abi.h.inc"
};
