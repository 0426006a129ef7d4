/* codegen_c_prelude_int.c: helpers for the integer instructions of
 * codegen_c_int.c (mul24/mad24, dp4a/dp2a, bmsk, szext, prmt modes, packed
 * 16-bit min/max), emitted after the main prelude in every generated C unit.
 */
#include "codegen/codegen.h"

const char cb_codegen_c_prelude_int[] =
"/* ---- more integer instructions ---- */\n"
"/* mul24: the 48-bit product of the low 24 bits; .hi is bits 16..47 */\n"
"CB_INL int64_t cb_mul24_s(uint32_t a, uint32_t b) { return (int64_t)((int32_t)(a << 8) >> 8) * (int64_t)((int32_t)(b << 8) >> 8); }\n"
"CB_INL uint64_t cb_mul24_u(uint32_t a, uint32_t b) { return (uint64_t)(a & 0xffffffu) * (b & 0xffffffu); }\n"
"/* dp4a/dp2a: byte (and half) dot products; sa/sb say which inputs are signed */\n"
"CB_INL int64_t cb_ext8(uint32_t v, int i, int s) { uint32_t b = (v >> (8 * i)) & 0xffu; return s ? (int64_t)(int8_t)b : (int64_t)b; }\n"
"CB_INL int64_t cb_ext16(uint32_t v, int i, int s) { uint32_t h = (v >> (16 * i)) & 0xffffu; return s ? (int64_t)(int16_t)h : (int64_t)h; }\n"
"CB_INL uint32_t cb_dp4a(uint32_t a, uint32_t b, uint32_t c, int sa, int sb) { int64_t s = 0;\n"
"  for (int i = 0; i < 4; i++) s += cb_ext8(a, i, sa) * cb_ext8(b, i, sb); return c + (uint32_t)s; }\n"
"CB_INL uint32_t cb_dp2a(uint32_t a, uint32_t b, uint32_t c, int sa, int sb, int hi) { int64_t s = 0;\n"
"  for (int i = 0; i < 2; i++) s += cb_ext16(a, i, sa) * cb_ext8(b, i + 2 * hi, sb); return c + (uint32_t)s; }\n"
"/* bmsk: b ones starting at bit a (.wrap: both mod 32, .clamp: at most 32) */\n"
"CB_INL uint32_t cb_bmsk(uint32_t a, uint32_t b, int wrap) { if (wrap) { a &= 31u; b &= 31u; }\n"
"  if (a >= 32u) return 0; uint64_t m = b >= 32u ? 0xffffffffull : ((uint64_t)1 << b) - 1u; return (uint32_t)(m << a); }\n"
"/* szext: keep the low b bits of a, sign- or zero-extended */\n"
"CB_INL uint32_t cb_szext(uint32_t a, uint32_t b, int wrap, int s) { uint32_t n = wrap ? b & 31u : (b > 32u ? 32u : b);\n"
"  if (n >= 32u) return a; if (n == 0) return 0; uint32_t m = (1u << n) - 1u, v = a & m;\n"
"  return (s && ((v >> (n - 1)) & 1u)) ? v | ~m : v; }\n"
"/* prmt modes: the byte selector of each mode for c & 3 */\n"
"CB_INL uint32_t cb_prmt_mode(uint32_t a, uint32_t b, uint32_t c, int mode) {\n"
"  static const uint16_t sel[6][4] = {{0x3210, 0x4321, 0x5432, 0x6543}, {0x5670, 0x6701, 0x7012, 0x0123},\n"
"    {0x0000, 0x1111, 0x2222, 0x3333}, {0x3210, 0x3211, 0x3222, 0x3333}, {0x0000, 0x1110, 0x2210, 0x3210},\n"
"    {0x1010, 0x3232, 0x1010, 0x3232}};\n"
"  return cb_prmt(a, b, sel[mode][c & 3u]); }\n"
"/* packed 16-bit min/max; relu clamps each signed result at 0 */\n"
"CB_INL uint32_t cb_minmax16x2(uint32_t a, uint32_t b, int mx, int s, int relu) { uint32_t r = 0;\n"
"  for (int i = 0; i < 2; i++) { int32_t x = (int32_t)cb_ext16(a, i, s), y = (int32_t)cb_ext16(b, i, s);\n"
"    int32_t v = mx ? (x > y ? x : y) : (x < y ? x : y); if (relu && v < 0) v = 0; r |= ((uint32_t)v & 0xffffu) << (16 * i); }\n"
"  return r; }\n";
