/* target.c: the C dialect's table (codegen.h's cg_target, c.h). */
#include "codegen/c/c.h"

/* Instructions handled by their types before their opcode's emitter: cvt
 * of the fp4/fp6/ue8m0 pairs (narrow.c), half precision (half.c), then
 * packed integer and f32x2 forms (simd.c). */
static int c_by_type(cg *c, const ptx_instr *in)
{
    return cg_emit_cvt_narrow(c, in) || cg_emit_half(c, in) || cg_emit_packed(c, in);
}

void cg_target_c_init(cg_target *t)
{
    *t = (cg_target){
        .name = "c",
        .checks_access = 1,   /* device memory is host memory: a kernel could reach the host's */
        .begin = c_unit_begin,
        .declare = c_unit_declare,
        .tables = c_unit_tables,
        .function = c_unit_function,
        .kernel = c_unit_kernel,
        .by_type = c_by_type,
    };
#define OP(id, name, minops, maxops, types, flags) t->op[PTX_OP_##id] = c_emit_##id;
#include "ptx/ops.def"
#undef OP
}
