/* target.c: the C dialect's table (codegen.h's cg_target, c.h). */
#include "codegen/c/c.h"

void cg_target_c_init(cg_target *t)
{
    *t = (cg_target){
        .name = "c",
        .begin = c_unit_begin,
        .declare = c_unit_declare,
        .tables = c_unit_tables,
        .function = c_unit_function,
        .kernel = c_unit_kernel,
        .by_type = cg_emit_half,
    };
#define OP(id, name, minops, maxops, types, flags) t->op[PTX_OP_##id] = c_emit_##id;
#include "ptx/ops.def"
#undef OP
}
