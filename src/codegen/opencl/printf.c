/* printf.c: CUDA's device printf, vprintf(fmt, args), in the OpenCL dialect
 * (opencl.h).
 *
 * OpenCL C 1.2's own printf cannot take a format that is data, so a call
 * appends a record to the printf FIFO, a region of the heap the backend
 * sets aside (CB_PRINTF_OFF, CB_PRINTF_CAP bytes; the bytes claimed so far
 * are the uint at heap byte CB_PRINTF_CTR, in the launch status area). After
 * the launch the backend formats the records in the order they were claimed
 * with the CPU backend's formatter (src/backend/device_printf.c;
 * src/backend/opencl/printf_fifo.c) and empties the FIFO. A record, 8-byte
 * aligned:
 *
 *     uint total, fmt_bytes, arg_bytes, str_bytes     16 bytes
 *     the format with its NUL                         fmt_bytes, padded to 8
 *     the argument buffer                             arg_bytes, padded to 8
 *     the %s strings with their NULs                  str_bytes
 *
 * The device walks the format as the formatter will (flags, width with '*',
 * a '.*' precision printed as written and taking no argument, length modifiers, the conversion: each argument at the
 * next offset aligned to its size, 4 or 8 bytes) to learn how many argument
 * bytes to copy and which are %s pointers; each of those is copied into the
 * record and its slot holds the string's offset in the record (0 for NULL or
 * an address outside the device's memory: "(null)"). A record that does not
 * fit in what is left of the FIFO is dropped, as CUDA drops output beyond
 * cudaLimitPrintfFifoSize; the backend says so on stderr. The call returns
 * the number of arguments, as CUDA's does.
 */
#include "codegen/opencl/opencl.h"
#include "codegen/c/ops.h"

const char cb_codegen_opencl_prelude_printf[] =
"/* ---- printf (codegen/opencl/printf.c): a record per call in the heap's printf FIFO ---- */\n"
"#define CB_PF_LD(a) cb_ldn_u8(cb_heap, cb_smem, cb_stk, (a))\n"
"CB_INL int cb_pf_ok_h(__global uchar *cb_heap, ulong a) { (void)cb_heap;\n"
"  return a - CB_HEAP_BASE < CB_HEAP_SIZE || cb_is_sh(a) || cb_is_lo(a); }\n"
"#define cb_pf_ok(a) cb_pf_ok_h(cb_heap, (a))\n"
"CB_INL int cb_pf_flag(uint ch) { return ch == '-' || ch == '+' || ch == ' ' || ch == '#' || ch == '0' || ch == 39u; }\n"
"CB_INL int cb_pf_digit(uint ch) { return ch >= '0' && ch <= '9'; }\n"
"/* the characters that end a conversion printed as written (device_printf.c's '.*') */\n"
"CB_INL int cb_pf_conv(uint ch) { switch (ch) { case 'd': case 'i': case 'o': case 'u': case 'x': case 'X': case 'c':\n"
"  case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': case 's': case 'p': case '%': return 1;\n"
"  default: return 0; } }\n"
"CB_INL int cb_pf_len(uint ch) { return ch == 'h' || ch == 'l' || ch == 'L' || ch == 'j' || ch == 'z' || ch == 't' || ch == 'q'; }\n"
"/* the characters of %d of v: what the formatter adds to its spec for a '*' */\n"
"CB_INL uint cb_pf_ndig(int v) { uint n = v < 0 ? 2u : 1u, u = v < 0 ? 0u - (uint)v : (uint)v; while (u >= 10u) { u /= 10u; n++; } return n; }\n"
"/* the next argument of size bytes: its offset, aligned to its size */\n"
"CB_INL uint cb_pf_take(uint *off, uint size) { uint o = (*off + size - 1u) / size * size; *off = o + size; return o; }\n"
"CB_INL uint cb_pf_arg32(__global uchar *cb_heap, __local uchar *cb_smem, uchar *cb_stk, ulong args, uint o) {\n"
"  uint v = 0; for (uint i = 0; args && i < 4u; i++) v |= (uint)CB_PF_LD(args + o + i) << (8u * i); return v; }\n"
"CB_INL ulong cb_pf_arg64(__global uchar *cb_heap, __local uchar *cb_smem, uchar *cb_stk, ulong args, uint o) {\n"
"  ulong v = 0; for (uint i = 0; args && i < 8u; i++) v |= (ulong)CB_PF_LD(args + o + i) << (8u * i); return v; }\n"
"/* the bytes of the string at a with its NUL (0: NULL or outside the device's memory) */\n"
"CB_INL uint cb_pf_strlen(__global uchar *cb_heap, __local uchar *cb_smem, uchar *cb_stk, ulong a) {\n"
"  if (!a || !cb_pf_ok(a)) return 0; uint n = 0; while (n < CB_PRINTF_CAP && cb_pf_ok(a + n) && CB_PF_LD(a + n)) n++;\n"
"  return n + 1u; }\n"
"/* One walk of the format (as src/backend/device_printf.c walks it). Measures: sz[0] the format's bytes,\n"
"   sz[1] the arguments', sz[2] the strings'; returns the number of arguments. With rec, also writes each %s\n"
"   string at rec + str_at and its offset into the record's copy of the arguments at rec + arg_at. */\n"
"static int cb_pf_walk(__global uchar *cb_heap, __local uchar *cb_smem, uchar *cb_stk, ulong fmt, ulong args,\n"
"                      uint *sz, __global uchar *rec, uint arg_at, uint str_at) {\n"
"  uint off = 0, strs = 0; int nargs = 0; ulong p = fmt;\n"
"  for (;;) {\n"
"    uint ch = CB_PF_LD(p);\n"
"    if (!ch) break;\n"
"    if (ch != '%') { p++; continue; }\n"
"    if (CB_PF_LD(p + 1) == '%') { p += 2; continue; }\n"
"    ulong q = p + 1; uint n = 1;\n"
"    while (cb_pf_flag(CB_PF_LD(q)) && n < 8u) { n++; q++; }\n"
"    if (CB_PF_LD(q) == '*') {\n"
"      int w = (int)cb_pf_arg32(cb_heap, cb_smem, cb_stk, args, cb_pf_take(&off, 4u)); nargs++; n += cb_pf_ndig(w); q++;\n"
"    } else { while (cb_pf_digit(CB_PF_LD(q)) && n < 24u) { n++; q++; } }\n"
"    if (CB_PF_LD(q) == '.') {\n"
"      n++; q++;\n"
"      if (CB_PF_LD(q) == '*') {   /* printed as written, taking no argument (device_printf.c) */\n"
"        while (CB_PF_LD(q) && !cb_pf_conv(CB_PF_LD(q))) q++;\n"
"        p = CB_PF_LD(q) ? q + 1 : q; continue;\n"
"      } else { while (cb_pf_digit(CB_PF_LD(q)) && n < 40u) { n++; q++; } }\n"
"    }\n"
"    ulong ls = q; while (cb_pf_len(CB_PF_LD(q))) q++;\n"
"    uint ln = (uint)(q - ls), l0 = CB_PF_LD(ls);\n"
"    int wide = ln > 0u && l0 != 'h' && !(ln == 1u && l0 == 'L');\n"
"    uint conv = CB_PF_LD(q);\n"
"    if (!conv) { p = q; break; }   /* a dangling '%...': printed as written */\n"
"    p = q + 1;\n"
"    switch (conv) {\n"
"    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'c':\n"
"      (void)cb_pf_take(&off, wide && conv != 'c' ? 8u : 4u); nargs++; break;\n"
"    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': case 'p': case 'n':\n"
"      (void)cb_pf_take(&off, 8u); nargs++; break;\n"
"    case 's': {\n"
"      uint o = cb_pf_take(&off, 8u); nargs++;\n"
"      ulong a = cb_pf_arg64(cb_heap, cb_smem, cb_stk, args, o);\n"
"      uint len = cb_pf_strlen(cb_heap, cb_smem, cb_stk, a);\n"
"      if (rec) {\n"
"        ulong slot = len ? (ulong)(str_at + strs) : 0ul;\n"
"        for (uint i = 0; i < 8u; i++) rec[arg_at + o + i] = (uchar)(slot >> (8u * i));\n"
"        for (uint i = 0; i + 1u < len; i++) rec[str_at + strs + i] = CB_PF_LD(a + i);\n"
"        if (len) rec[str_at + strs + len - 1u] = 0;\n"
"      }\n"
"      strs += len; break;\n"
"    }\n"
"    default: break;   /* not a conversion: printed as written */\n"
"    }\n"
"  }\n"
"  sz[0] = (uint)(p - fmt) + 1u; while (CB_PF_LD(fmt + sz[0] - 1u)) sz[0]++;\n"
"  sz[1] = off; sz[2] = strs; return nargs; }\n"
"static int cb_vprintf(__global uchar *cb_heap, __local uchar *cb_smem, uchar *cb_stk, ulong fmt, ulong args) {\n"
"  if (!fmt) return -1;\n"
"  if (!cb_pf_ok(fmt)) return -2;\n"
"  uint sz[3];\n"
"  int nargs = cb_pf_walk(cb_heap, cb_smem, cb_stk, fmt, args, sz, 0, 0u, 0u);\n"
"  uint fb = (sz[0] + 7u) & ~7u, ab = (sz[1] + 7u) & ~7u, total = (16u + fb + ab + sz[2] + 7u) & ~7u;\n"
"  if (total > CB_PRINTF_CAP) return nargs;\n"
"  uint at = atomic_add((volatile __global uint *)(cb_heap + CB_PRINTF_CTR), total);\n"
"  if (at > CB_PRINTF_CAP - total) return nargs;   /* the FIFO is full: dropped, as CUDA drops it */\n"
"  __global uchar *rec = cb_heap + CB_PRINTF_OFF + at;\n"
"  __global uint *h = (__global uint *)rec;\n"
"  h[0] = total; h[1] = sz[0]; h[2] = sz[1]; h[3] = sz[2];\n"
"  for (uint i = 0; i < sz[0]; i++) rec[16u + i] = CB_PF_LD(fmt + i);\n"
"  rec[16u + sz[0] - 1u] = 0;\n"
"  for (uint i = 0; i < sz[1]; i++) rec[16u + fb + i] = args ? CB_PF_LD(args + i) : (uchar)0;\n"
"  (void)cb_pf_walk(cb_heap, cb_smem, cb_stk, fmt, args, sz, rec, 16u + fb, 16u + fb + ab);\n"
"  return nargs; }\n";

/* call (ret), vprintf, (fmt, args): the record (cb_vprintf above); ret gets the number of arguments */
void ocl_emit_vprintf(cg *c, const ptx_instr *in)
{
    const ptx_operand *rets = &in->ops[0], *args = &in->ops[2];
    if (args->nelems != 2 || rets->nelems > 1)
        cg_fail(c, "vprintf takes a format and an argument buffer");
    if (rets->nelems)
        cg_printf(c, "*(int *)%s = ", c->f->vars[rets->elems[0].sym.index].cname);
    cg_printf(c, "cb_vprintf(cb_heap, cb_smem, cb_stk, *(ulong *)%s, *(ulong *)%s);\n",
              c->f->vars[args->elems[0].sym.index].cname, c->f->vars[args->elems[1].sym.index].cname);
}
