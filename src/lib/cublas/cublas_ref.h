/* cublas_ref.h: the C references of the cuBLAS facade (ref_level*.c),
 * each (op, operands) on the host copies of a checked call (check.h),
 * reading the operands in the order its routine's operand list gives. */
#ifndef CBL_CUBLAS_REF_H
#define CBL_CUBLAS_REF_H

#include "lib/common/check.h"

void cublas_ref_axpy(void *o, cbl_operand *ops);
void cublas_ref_scal(void *o, cbl_operand *ops);
void cublas_ref_copy(void *o, cbl_operand *ops);
void cublas_ref_swap(void *o, cbl_operand *ops);
void cublas_ref_dot(void *o, cbl_operand *ops);
void cublas_ref_nrm2(void *o, cbl_operand *ops);
void cublas_ref_asum(void *o, cbl_operand *ops);
void cublas_ref_iamax(void *o, cbl_operand *ops);
void cublas_ref_rot(void *o, cbl_operand *ops);
void cublas_ref_rotm(void *o, cbl_operand *ops);
void cublas_ref_rotg(void *o, cbl_operand *ops);
void cublas_ref_rotmg(void *o, cbl_operand *ops);

void cublas_ref_gemv(void *o, cbl_operand *ops);
void cublas_ref_ger(void *o, cbl_operand *ops);
void cublas_ref_symv(void *o, cbl_operand *ops);
void cublas_ref_syr(void *o, cbl_operand *ops);
void cublas_ref_trmv(void *o, cbl_operand *ops);

void cublas_ref_gemm(void *o, cbl_operand *ops);
void cublas_ref_symm(void *o, cbl_operand *ops);
void cublas_ref_syrk(void *o, cbl_operand *ops);
void cublas_ref_trmm(void *o, cbl_operand *ops);
void cublas_ref_geam(void *o, cbl_operand *ops);
void cublas_ref_dgmm(void *o, cbl_operand *ops);

#endif
