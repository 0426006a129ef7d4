#!/usr/bin/env python3
"""Writes src/inspect/trace_wrappers.inc: one tracing wrapper per driver export.

The inspector (src/inspect) hands these wrappers out from cuGetProcAddress
when CUBRIDGE_INSPECT is set. Each wrapper times the real entry point (through
CBI_TARGET: the function cuGetProcAddress handed in, cubridge's own or, under
the cuda backend, NVIDIA's), then records its name, its arguments in readable
form and its result.

Inputs: the CUDA toolkit's cuda.h and cudaProfiler.h, run through the C
preprocessor with __CUDA_API_VERSION_INTERNAL (the view src/driver uses: every
versioned and per-thread symbol under its own name), and
src/driver/exports.inc (which symbols exist).

Each parameter is classified from its declared type, through typedefs:
  enum typedef          -> cbi_arg_enum  (printed by enumerator name)
  CUdeviceptr[_v1|_v2]  -> cbi_arg_dptr  (tagged device/host/...)
  CUfunction, CUkernel  -> cbi_arg_func  (printed with the kernel's name)
  const char *          -> cbi_arg_str   (the string: symbol, kernel and file names)
  const CUuuid *        -> cbi_arg_uuid  (the UUID: cuGetExportTable's table)
  other pointers        -> cbi_arg_ptr   (tagged device/host/...); a non-const
                           pointer to a scalar or handle also prints the value
                           it holds after a successful call (an output)
  float/double          -> cbi_arg_f64
  signed integers       -> cbi_arg_i64, unsigned -> cbi_arg_u64
  structs by value      -> cbi_arg_opaque
Also writes the enum name tables (CBI_ENUM_<typedef>).

It also writes the two files of the exported-symbol forwarders (src/driver/
forward.c, docs/inspector.md "The cuda backend"):
  src/driver/forwarders.inc  CB_FORWARD(sym, (params), (args)) per export: the
                             exported symbol, which calls NVIDIA's entry point
                             under the cuda pass-through, else cb_impl_<sym>;
  src/driver/impl_names.h    `#define sym cb_impl_sym` per export (and a
                             declaration of each, typed from cuda.h), so that
                             src/driver defines its implementations under
                             those names.

Usage: scripts/gen_trace_wrappers.py [--cuda /usr/local/cuda] [--cc cc]
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def preprocess(cuda, cc):
    src = "#define __CUDA_API_VERSION_INTERNAL 1\n#include <cuda.h>\n#include <cudaProfiler.h>\n"
    out = subprocess.run([cc, "-E", "-P", "-I", os.path.join(cuda, "include"), "-"], input=src,
                         capture_output=True, text=True, check=True).stdout
    return re.sub(r"\s+", " ", out)


def exports():
    text = open(os.path.join(ROOT, "src/driver/exports.inc")).read()
    return re.findall(r"^CB_EXPORT_FN\((\w+)\)", text, re.M)


def parse_enums(text):
    """(typedef names, enum tag names) -> list of enumerator names."""
    enums = []
    for m in re.finditer(r"typedef enum (\w*) ?\{([^}]*)\} ?(\w+) ?;", text):
        names = []
        for item in m.group(2).split(","):
            item = item.strip()
            if item:
                names.append(item.split("=")[0].strip())
        enums.append((m.group(3), m.group(1), names))
    return enums


def parse_typedefs(text):
    """name -> kind ('ptr', 'struct', 'enum', 'float', 'signed', 'unsigned', 'fnptr')."""
    kinds = {}
    for m in re.finditer(r"typedef enum (\w*) ?\{[^}]*\} ?(\w+) ?;", text):
        kinds[m.group(2)] = "enum"
    for m in re.finditer(r"typedef (struct|union) (\w*) ?\{", text):
        pass
    # typedef struct X {...} Y;  (bodies may nest one level of braces)
    for m in re.finditer(r"typedef (?:struct|union) \w* ?\{(?:[^{}]|\{[^{}]*\})*\} ?(\w+) ?;", text):
        kinds.setdefault(m.group(1), "struct")
    for m in re.finditer(r"typedef (?:struct|union) (\w+) ?(\*?) ?(\w+) ?;", text):
        kinds.setdefault(m.group(3), "ptr" if m.group(2) else "struct")
    for m in re.finditer(r"typedef [^;{}()]*?\( ?\* ?(\w+) ?\)", text):
        kinds.setdefault(m.group(1), "ptr")
    for m in re.finditer(r"typedef ((?:\w+ )+?)(\**) ?(\w+) ?;", text):
        base, star, name = m.group(1).strip(), m.group(2), m.group(3)
        if name in kinds:
            continue
        kinds[name] = "ptr" if star else ("alias:" + base)
    return kinds


def resolve(tname, kinds, depth=0):
    """Kind of a type written without '*' (qualifiers stripped)."""
    words = [w for w in tname.split() if w not in ("const", "volatile", "struct", "enum", "union")]
    if not words:
        return "unsigned"
    if "float" in words or "double" in words:
        return "float"
    if words[-1] in ("char", "short", "int", "long", "signed", "unsigned", "size_t", "uint64_t", "uint32_t",
                     "int64_t", "int32_t", "uint8_t", "uint16_t", "int8_t", "int16_t", "uintptr_t"):
        if "unsigned" in words or words[-1].startswith("u") or words[-1] == "size_t":
            return "unsigned"
        return "signed"
    name = words[-1]
    k = kinds.get(name)
    if k is None:
        return "unsigned"
    if k.startswith("alias:") and depth < 10:
        return resolve(k[6:], kinds, depth + 1)
    return k


def parse_prototypes(text, wanted):
    protos = {}
    for m in re.finditer(r"\b(CUresult) (cu\w+) ?\(([^;{}()]*(?:\([^;{}()]*\)[^;{}()]*)*)\) ?;", text):
        name = m.group(2)
        if name in wanted and name not in protos:
            protos[name] = m.group(3).strip()
    return protos


def split_params(plist):
    if plist in ("", "void"):
        return []
    out, depth, cur = [], 0, ""
    for ch in plist:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    out.append(cur.strip())
    return out


def param_name_type(p):
    m = re.match(r"^(.*?)(\w+)\s*(\[\s*\d*\s*\])?$", p)
    ty, name, arr = m.group(1).strip(), m.group(2), m.group(3)
    if arr:
        ty += " *"
    return name, ty


def arg_call(name, ty, kinds, enum_ids):
    stars = ty.count("*")
    base = ty.replace("*", " ").strip()
    bare = [w for w in base.split() if w not in ("const", "volatile")]
    last = bare[-1] if bare else "int"
    if stars == 0:
        if last in ("CUdeviceptr", "CUdeviceptr_v2"):
            return f'cbi_arg_dptr(&c, "{name}", (unsigned long long)({name}));'
        if last in ("CUfunction", "CUkernel"):
            return f'cbi_arg_func(&c, "{name}", (const void *)({name}));'
        k = resolve(base, kinds)
        if k == "enum":
            if last in enum_ids:
                return f'cbi_arg_enum(&c, "{name}", (long long)({name}), {enum_ids[last]});'
            return f'cbi_arg_i64(&c, "{name}", (long long)({name}));'
        if k in ("ptr", "fnptr"):
            return f'cbi_arg_ptr(&c, "{name}", (const void *)({name}), 0);'
        if k == "struct":
            return f'cbi_arg_opaque(&c, "{name}", "{last}");'
        if k == "float":
            return f'cbi_arg_f64(&c, "{name}", (double)({name}));'
        if k == "signed":
            return f'cbi_arg_i64(&c, "{name}", (long long)({name}));'
        return f'cbi_arg_u64(&c, "{name}", (unsigned long long)({name}));'
    if stars == 1 and "const" in base.split() and last == "char":
        return f'cbi_arg_str(&c, "{name}", {name});'
    if stars == 1 and "const" in base.split() and last == "CUuuid":
        return f'cbi_arg_uuid(&c, "{name}", {name});'
    # a pointer: when it points to one scalar or handle and is not const, it is an output
    if stars == 1 and "const" not in base.split() and last not in ("void", "char"):
        if last in ("CUdeviceptr", "CUdeviceptr_v2"):
            return f'cbi_arg_out_u64(&c, "{name}", {name}, r, 1);'
        k = resolve(base, kinds)
        if k in ("ptr", "fnptr"):
            return f'cbi_arg_out_ptr(&c, "{name}", (const void *const *)(const void *)({name}), r);'
        if k in ("signed", "unsigned") and re.search(r"\b(size_t|int|long|cuuint64_t|cuuint32_t|CUdevice|CUdevice_v1|CUdeviceptr_v1)\b", base):
            sz = f"sizeof *({name})"
            return f'cbi_arg_out_int(&c, "{name}", {name}, {sz}, {1 if k == "signed" else 0}, r);'
        if k == "enum" and last in enum_ids:
            return f'cbi_arg_out_enum(&c, "{name}", {name}, sizeof *({name}), {enum_ids[last]}, r);'
    return f'cbi_arg_ptr(&c, "{name}", (const void *)({name}), 0);'


def write_if_changed(path, text):
    if not (os.path.exists(path) and open(path).read() == text):
        with open(path, "w") as f:
            f.write(text)


def forwarders(cuda, syms, protos):
    """src/driver/forwarders.inc: one CB_FORWARD line per export."""
    lines = [
        "/* forwarders.inc: the exported driver symbols, one CB_FORWARD(sym, (params), (args))",
        f" * per export. Generated by scripts/gen_trace_wrappers.py from {cuda}/include/cuda.h;",
        " * do not edit, rerun the script. Included by src/driver/forward.c. */",
    ]
    for s in syms:
        params = [param_name_type(p) for p in split_params(protos[s])]
        decl = ", ".join(f"{ty} {n}" if not ty.endswith("*") else f"{ty}{n}" for n, ty in params) or "void"
        args = ", ".join(n for n, _ in params)
        lines.append(f"CB_FORWARD({s}, ({decl}), ({args}))")
    return "\n".join(lines) + "\n"


def impl_names(cuda, syms):
    """src/driver/impl_names.h: the implementations' names."""
    lines = [
        "/* impl_names.h: the names src/driver defines its entry points under.",
        f" * Generated by scripts/gen_trace_wrappers.py from {cuda}/include/cuda.h;",
        " * do not edit, rerun the script.",
        " *",
        " * Included by driver/driver.h right after cuda.h (NVIDIA's internal view,",
        " * so every export has its prototype): declares cb_impl_<sym> with sym's",
        " * type for every export, then, unless CB_DRIVER_NO_RENAME is defined,",
        " * renames sym to cb_impl_<sym>. The exported symbols themselves are the",
        " * forwarders of src/driver/forward.c (which defines CB_DRIVER_NO_RENAME). */",
        "#ifndef CB_DRIVER_IMPL_NAMES_H",
        "#define CB_DRIVER_IMPL_NAMES_H",
        "#include <cudaProfiler.h>",
    ]
    lines += [f"extern __typeof__({s}) cb_impl_{s};" for s in syms]
    lines.append("#ifndef CB_DRIVER_NO_RENAME")
    lines += [f"#define {s} cb_impl_{s}" for s in syms]
    lines += ["#endif", "#endif"]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuda", default=os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--out", default=os.path.join(ROOT, "src/inspect/trace_wrappers.inc"))
    ap.add_argument("--forward-out", default=os.path.join(ROOT, "src/driver/forwarders.inc"))
    ap.add_argument("--names-out", default=os.path.join(ROOT, "src/driver/impl_names.h"))
    a = ap.parse_args()
    text = preprocess(a.cuda, a.cc)
    syms = exports()
    kinds = parse_typedefs(text)
    enums = parse_enums(text)
    enum_ids = {}
    lines = [
        "/* trace_wrappers.inc: tracing wrappers for every driver export with a prototype.",
        f" * Generated by scripts/gen_trace_wrappers.py from {a.cuda}/include/cuda.h;",
        " * do not edit, rerun the script. Included by src/inspect/trace_wrappers.c. */",
        "",
        "/* ---- enum name tables ---- */",
    ]
    tables = []
    seen_types = set()
    for tname, tag, names in enums:
        if tname in seen_types or not names:
            continue
        seen_types.add(tname)
        idx = len(tables)
        enum_ids[tname] = idx
        lines.append(f"static const cbi_enumerator cbi_enum_{idx}[] = {{")
        for n in names:
            lines.append(f'    {{(long long){n}, "{n}"}},')
        lines.append("};")
        tables.append((tname, idx, len(names)))
    lines.append("const cbi_enum_table cbi_enum_tables[] = {")
    for tname, idx, n in tables:
        lines.append(f'    {{"{tname}", cbi_enum_{idx}, {n}}},')
    lines.append("};")
    lines.append(f"const int cbi_enum_table_count = {len(tables)};")
    lines.append(f"#define CBI_ENUM_CUresult {enum_ids.get('CUresult', -1)}")
    lines.append("")
    protos = parse_prototypes(text, set(syms))
    lines.append("/* ---- wrappers ---- */")
    wrapped = []
    for s in syms:
        if s not in protos:
            continue
        params = [param_name_type(p) for p in split_params(protos[s])]
        decl = ", ".join(f"{ty} {n}" if not ty.endswith("*") else f"{ty}{n}" for n, ty in params) or "void"
        args = ", ".join(n for n, _ in params)
        lines.append(f"static CUresult cbi_w_{s}({decl})")
        lines.append("{")
        lines.append("    cbi_call c;")
        lines.append(f"    cbi_call_begin(&c, CB_EXP_{s});")
        lines.append(f"    CUresult r = CBI_TARGET({s})({args});")
        lines.append("    cbi_call_timed(&c);")
        for n, ty in params:
            lines.append("    " + arg_call(n, ty, kinds, enum_ids))
        lines.append("    cbi_call_end(&c, r);")
        lines.append("    return r;")
        lines.append("}")
        wrapped.append(s)
    lines.append("")
    lines.append("/* Wrapper of each export, in exports.inc order; NULL where cuda.h has no prototype. */")
    lines.append("const cb_export_fn cbi_wrappers[CB_EXP__COUNT] = {")
    ws = set(wrapped)
    for s in syms:
        lines.append(f"    (cb_export_fn)cbi_w_{s}," if s in ws else f"    NULL, /* {s}: no prototype */")
    lines.append("};")
    lines.append("")
    write_if_changed(a.out, "\n".join(lines))
    print(f"{a.out}: {len(wrapped)} wrappers of {len(syms)} exports, {len(tables)} enum tables")
    missing = [s for s in syms if s not in ws]
    if missing:
        sys.exit("gen_trace_wrappers: no prototype (every export needs one to be forwarded): " + " ".join(missing))
    write_if_changed(a.forward_out, forwarders(a.cuda, syms, protos))
    write_if_changed(a.names_out, impl_names(a.cuda, syms))
    print(f"{a.forward_out}, {a.names_out}: {len(syms)} forwarders")


if __name__ == "__main__":
    main()
