#!/usr/bin/env python3
"""One export machine for every NVIDIA library facade (docs/libraries.md).

Given a library's name, its public header(s) and NVIDIA's real shared object,
writes into OUT_DIR, at build time:

  <name>_exports.h      export ids (CBL_<NAME>_<sym>), the count, the library
                        descriptor's declaration
  <name>_impl.h         for the facade's own sources: declares cb_impl_<sym>
                        with <sym>'s prototype for every export and renames
                        <sym> to cb_impl_<sym>, so that `cublasStatus_t
                        cublasSgemm_v2(...) {...}` defines the implementation
  <name>_exports.c      per export: a weak stub cb_impl_<sym> that returns the
                        library's NOT_SUPPORTED status through cbl_unsupported
                        (counted, logged, traced); the exported <sym>, a
                        forwarder to cb_impl_<sym> -- or, under the cuda
                        pass-through, to NVIDIA's function of the same name
                        -- through a trace wrapper when the inspector is on;
                        the names and enum tables; the descriptor
  <name>_exports.txt    the export list (one symbol a line), for coverage
  <soname>.map          a version script per soname: NVIDIA versions each
                        symbol with the soname (sym@@libcublas.so.13), so do we;
                        a soname given with --soname-exports SONAME=SOURCE
                        exports only SOURCE's functions (an ELF, or a text
                        file of names: cuDNN's sub-libraries, its v8 names)
  --status-filter F     every status an export returns passes through the
                        facade's int F(int) (cuDNN: version 8's codes)

The export list is the real library's ELF dynamic symbol table (functions).
Prototypes come from the header run through the C preprocessor; an export the
headers do not declare gets `int sym(void)` (its status in the return
register; nothing calls it with arguments that matter).

Usage (CMake runs it; see src/lib/CMakeLists.txt):
  gen_lib_exports.py --name cublas --header cublas.h --real .../libcublas.so.13
      --status-type cublasStatus_t --unsupported CUBLAS_STATUS_NOT_SUPPORTED
      --soname libcublas.so.13 --soname libcublas.so.12 --include DIR --out-dir DIR
"""
import argparse
import os
import re
import struct
import subprocess
import sys

# ---- NVIDIA's side: the ELF dynamic symbols -----------------------------------


def elf_functions(path):
    """Names of the functions (STT_FUNC, STT_GNU_IFUNC) a 64-bit LE ELF defines in .dynsym."""
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        sys.exit(f"gen_lib_exports: {path}: not a 64-bit little-endian ELF")
    shoff, = struct.unpack_from("<Q", data, 40)
    shentsize, shnum = struct.unpack_from("<HH", data, 58)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names = set()
    for sh in sections:
        if sh[1] != 11:   # SHT_DYNSYM
            continue
        off, size, link, entsize = sh[4], sh[5], sh[6], sh[9]
        stroff, strsize = sections[link][4], sections[link][5]
        for k in range(1, size // entsize):
            name, info, _, shndx = struct.unpack_from("<IBBH", data, off + k * entsize)
            if shndx == 0 or (info & 15) not in (2, 10):
                continue
            end = data.index(b"\0", stroff + name)
            names.add(data[stroff + name:end].decode())
    return sorted(names)


def library_exports(real, prefixes=None):
    """The export list of NVIDIA's library at path real (functions only)."""
    syms = elf_functions(real)
    if prefixes:
        syms = [s for s in syms if s.startswith(tuple(prefixes))]
    return syms


def names_of(source, prefixes=None):
    """The export names of SOURCE: an ELF's functions, or a text file of
    names (one a line, '#' starts a comment)."""
    with open(source, "rb") as f:
        elf = f.read(4) == b"\x7fELF"
    if elf:
        return library_exports(source, prefixes)
    names = [ln.split("#", 1)[0].strip() for ln in open(source)]
    names = [n for n in names if n]
    if prefixes:
        names = [n for n in names if n.startswith(tuple(prefixes))]
    return sorted(set(names))


def header_aliases(include_dir, headers):
    """`#define X Y` lines of the headers (cublas_v2.h: cublasSgemm -> cublasSgemm_v2)."""
    out = {}
    for h in headers:
        path = os.path.join(include_dir, h)
        if not os.path.exists(path):
            continue
        for m in re.finditer(r"^\s*#\s*define\s+(\w+)\s+(\w+)\s*$", open(path, errors="replace").read(), re.M):
            out[m.group(1)] = m.group(2)
    return out

# ---- the header: prototypes, enums, typedefs -----------------------------------


def preprocess(cc, include_dirs, headers, defines):
    src = "".join(f"#include <{h}>\n" for h in headers)
    cmd = [cc, "-E", "-P", "-x", "c", "-"] + [f"-I{d}" for d in include_dirs] + [f"-D{d}" for d in defines]
    r = subprocess.run(cmd, input=src, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"gen_lib_exports: preprocessing {headers} failed:\n{r.stderr}")
    return r.stdout


def strip_attributes(text):
    out, i = [], 0
    for m in re.finditer(r"__attribute__\s*\(\(|__declspec\s*\(", text):
        if m.start() < i:
            continue
        out.append(text[i:m.start()])
        depth, j = 0, m.start()
        while j < len(text):
            if text[j] == "(":
                depth += 1
            elif text[j] == ")":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        i = j + 1
    out.append(text[i:])
    return "".join(out)


def statements(text):
    """Top-level declarations, split at ';' outside braces; function bodies dropped."""
    text = re.sub(r"\s+", " ", strip_attributes(text))
    out, cur, depth, i = [], [], 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                head = "".join(cur)
                body_start = head.find("{")
                if body_start >= 0 and head[:body_start].rstrip().endswith(")") and "=" not in head[:body_start]:
                    cur = []   # an inline function definition
                    i += 1
                    continue
        if ch == ";" and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
        i += 1
    return out


def split_top(s, sep=","):
    parts, depth, cur = [], 0, []
    for ch in s:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def eval_enum(expr, known):
    e = expr.strip()
    for k in sorted(known, key=len, reverse=True):
        e = re.sub(rf"\b{re.escape(k)}\b", f"({known[k]})", e)
    e = re.sub(r"(?<=\d)[uUlL]+\b", "", e)
    if not re.fullmatch(r"[\s\d+\-*/()<>|&~xXa-fA-F]+", e):
        return None
    try:
        return int(eval(e, {"__builtins__": {}}))   # a constant integer expression of the header
    except Exception:
        return None


class Header:
    def __init__(self, text):
        self.protos = {}      # name -> (ret, [(type, name)])
        self.enums = {}       # enum tag or typedef name -> [(value, name)]
        self.typedefs = {}    # name -> underlying type text
        for st in statements(text):
            self._statement(st)

    def _enum_body(self, body):
        items, known, nxt = [], {}, 0
        for part in split_top(body):
            if not part:
                continue
            if "=" in part:
                name, expr = part.split("=", 1)
                v = eval_enum(expr, known)
                if v is None:
                    continue
                nxt = v
            else:
                name = part
            name = name.strip()
            known[name] = nxt
            items.append((nxt, name))
            nxt += 1
        return items

    def _statement(self, st):
        m = re.match(r"^(typedef\s+)?enum\s*(\w+)?\s*\{(.*)\}\s*(\w+)?\s*$", st)
        if m:
            items = self._enum_body(m.group(3))
            for key in (m.group(2), m.group(4)):
                if key:
                    self.enums[key] = items
            if m.group(1) and m.group(4):
                self.typedefs[m.group(4)] = f"enum {m.group(2) or m.group(4)}"
            return
        if st.startswith("typedef"):
            body = st[len("typedef"):].strip()
            fm = re.match(r"^(.*)\(\s*\*\s*(\w+)\s*\)\s*\((.*)\)$", body)
            if fm:
                self.typedefs[fm.group(2)] = "fnptr"
                return
            if "{" in body:
                tm = re.match(r"^(struct|union)\s*(\w+)?\s*\{.*\}\s*(.*)$", body)
                if tm:
                    for d in split_top(tm.group(3)):
                        d = d.strip()
                        nm = re.search(r"(\w+)\s*$", d)
                        if nm:
                            self.typedefs[nm.group(1)] = ("pointer" if "*" in d else f"{tm.group(1)} {tm.group(2) or nm.group(1)}")
                return
            dm = re.match(r"^(.*?)(\w+)\s*(\[.*\])?$", body)
            if dm:
                self.typedefs[dm.group(2)] = dm.group(1).strip() + (" *" if dm.group(3) else "")
            return
        if "{" in st or "(" not in st:
            return
        st = re.sub(r"^(extern|static|inline)\s+", "", st)
        depth, start = 0, None
        for i, ch in enumerate(st):
            if ch == "(":
                if depth == 0 and start is None:
                    start = i
                depth += 1
            elif ch == ")":
                depth -= 1
        if start is None or not st.endswith(")"):
            return
        head = st[:start].rstrip()
        nm = re.search(r"(\w+)$", head)
        if not nm:
            return
        name, ret = nm.group(1), head[:nm.start()].strip()
        if not ret or ret in ("return",):
            return
        params = self._params(st[start + 1:-1])
        if params is not None:
            self.protos[name] = (ret, params)

    BASIC = {"int", "char", "short", "long", "float", "double", "void", "unsigned", "signed", "const",
             "volatile", "struct", "enum", "union", "_Bool", "restrict", "__restrict"}

    def _params(self, s):
        s = s.strip()
        if s in ("", "void"):
            return []
        out = []
        for i, p in enumerate(split_top(s)):
            if p == "...":
                return None   # variadic: no forwarder can pass it on
            fm = re.match(r"^(.*)\(\s*\*\s*(\w*)\s*\)\s*\((.*)\)$", p)
            if fm:
                name = fm.group(2) or f"arg{i}"
                out.append((f"{fm.group(1)}(*@)({fm.group(3)})", name))
                continue
            am = re.match(r"^(.*?)(\w+)\s*(\[[^\]]*\])+$", p)
            if am and am.group(1).strip() and am.group(1).strip().split()[-1] not in ("struct", "enum", "union"):
                out.append((am.group(1).strip() + " *@", am.group(2)))
                continue
            tm = re.match(r"^(.*?[\s*])(\w+)$", p)
            if tm and tm.group(2) not in self.BASIC and tm.group(1).strip() not in ("", "struct", "enum", "union") \
                    and tm.group(1).strip().split()[-1] not in ("struct", "enum", "union"):
                typ, name = tm.group(1).strip(), tm.group(2)
            else:
                typ, name = p, f"arg{i}"
            out.append((typ + " @", name))
        return out

    # ---- classification, for returns and trace formatting ------------------

    def known(self, t):
        """1 if every name in type t is declared in the C view (or basic)."""
        t = re.sub(r"\(\*@\)\(.*\)", "", t.replace("@", ""))
        for w in re.findall(r"[A-Za-z_]\w*", t):
            if w not in self.BASIC and w not in self.typedefs and w not in self.enums and \
                    not re.fullmatch(r"u?int(8|16|32|64)_t|size_t|ssize_t|ptrdiff_t|u?intptr_t", w):
                return False
        return True

    def resolve(self, t, depth=0):
        """A type's category: void, pointer, fnptr, enum:<key>, int, uint, float, char, struct:<name>."""
        t = re.sub(r"\b(const|volatile|restrict|__restrict)\b", "", t.replace("@", "")).strip()
        if "(*" in t:
            return "fnptr"
        if "*" in t:
            return "pointer"
        t = re.sub(r"\s+", " ", t)
        if t == "void":
            return "void"
        if t in ("float", "double"):
            return "float"
        if t in ("char", "signed char", "unsigned char"):
            return "char"
        if re.fullmatch(r"(unsigned |signed )?(short|int|long|long long|long int|long long int|short int)"
                        r"|unsigned|signed|_Bool|size_t|ssize_t|ptrdiff_t|u?int(8|16|32|64)_t|uintptr_t|intptr_t", t):
            return "uint" if t.startswith(("unsigned", "uint", "size_t", "uintptr")) or t == "_Bool" else "int"
        if t.startswith("enum "):
            key = t[5:].strip()
            return f"enum:{key}" if key in self.enums else "int"
        if t.startswith(("struct ", "union ")):
            return f"struct:{t}"
        if t in self.typedefs and depth < 20:
            u = self.typedefs[t]
            if u == "fnptr":
                return "fnptr"
            if u == "pointer":
                return "pointer"
            r = self.resolve(u, depth + 1)
            if r.startswith("enum:") and t in self.enums:
                return f"enum:{t}"
            return r
        if t in self.enums:
            return f"enum:{t}"
        return f"struct:{t}"

# ---- emission ------------------------------------------------------------------


def decl(typ, name):
    return typ.replace("@", name)


def raw_prototypes(include_dirs, headers, names, replace, hdr):
    """Prototypes the C view lacks (C++-only blocks, headers that cannot be
    included with the others), read from the header text itself: a
    declaration `RET [MACRO...] name(params);`. Uppercase words (CUBLASWINAPI,
    CUBLASAPI) are macros that expand to nothing on Linux. Kept only when
    every type is known to the C view after the --c-replace substitutions;
    otherwise only the return type is kept (the stub ignores its arguments)."""
    text = ""
    for h in headers:
        for d in include_dirs:
            path = os.path.join(d, h)
            if os.path.exists(path):
                text += re.sub(r"/\*.*?\*/|//[^\n]*", " ", open(path, errors="replace").read(), flags=re.S) + "\n"
                break
    for old, new in replace:
        text = re.sub(rf"\b{re.escape(old)}\b", new, text)
    found = {}
    for name in names:
        m = re.search(rf"(?:^|[;}}\n])\s*([A-Za-z_][\w\s*]*?)\b{re.escape(name)}\s*\(([^;{{}}]*)\)\s*;", text)
        if not m:
            continue
        ret = " ".join(w for w in m.group(1).split() if not re.fullmatch(r"[A-Z][A-Z0-9_]+", w)).strip()
        if not ret or not hdr.known(ret):
            continue
        params = hdr._params(re.sub(r"\s+", " ", m.group(2)))
        if params is not None and all(hdr.known(t) for t, _ in params):
            found[name] = (ret, params, True)
        else:
            found[name] = (ret, [], False)
    return found


def emit(a, syms, hdr, aliases):
    lib, up = a.name, re.sub(r"\W", "_", a.name).upper()
    status_cat = hdr.resolve(a.status_type)
    enum_keys = []

    def enum_index(cat):
        key = cat.split(":", 1)[1]
        if key not in enum_keys:
            enum_keys.append(key)
        return enum_keys.index(key)

    enum_index("enum:" + a.status_type) if status_cat.startswith("enum:") else None
    protos, declare = {}, {}
    raw = raw_prototypes(a.include, a.raw_header, [s for s in syms if s not in hdr.protos],
                         [r.split("=", 1) for r in a.c_replace], hdr)
    for s in syms:
        if s in hdr.protos:
            protos[s] = hdr.protos[s]
        elif s in raw:
            protos[s] = raw[s][:2]
            declare[s] = raw[s][2]   # True: full prototype, False: return type only
        else:
            protos[s] = None
    # ---- <name>_exports.h
    h = [f"/* {lib}_exports.h: the exports of NVIDIA's {os.path.basename(a.real)}.",
         " * Generated by scripts/gen_lib_exports.py at build time; do not edit. */",
         f"#ifndef CBL_{up}_EXPORTS_H", f"#define CBL_{up}_EXPORTS_H", '#include "lib/common/facade.h"',
         f"#define CBL_{up}_COUNT {len(syms)}", "enum {"]
    h += [f"    CBL_{up}_{s} = {i}," for i, s in enumerate(syms)]
    h += ["};", f"extern cbl_library cbl_{lib}_library;", "#endif", ""]
    # ---- <name>_impl.h
    hdrs = "".join(f"#include <{x}>\n" for x in a.impl_header)
    im = [f"/* {lib}_impl.h: for the {lib} facade's sources. Generated by scripts/gen_lib_exports.py; do not edit.",
          " * Declares cb_impl_<sym> with <sym>'s prototype (as the header spells it) and renames <sym> to it, so that the",
          " * facade defines the implementation under the header's name. Exported: `cubridge",
          " * coverage` reads its binding (strong: implemented, weak: the NOT_SUPPORTED stub). */",
          f"#ifndef CBL_{up}_IMPL_H", f"#define CBL_{up}_IMPL_H", hdrs.rstrip(),
          f'#include "{lib}_exports.h"']
    for s in syms:
        ret, params = protos[s] or ("int", [])
        plist = ", ".join(decl(t, n) for t, n in params) or "void"
        im.append(f"extern __attribute__((visibility(\"default\"))) {ret} cb_impl_{s}({plist});")
    im += [f"#define {s} cb_impl_{s}" for s in syms]
    im += ["#endif", ""]
    # ---- <name>_exports.c
    c = [f"/* {lib}_exports.c: stubs, forwarders and trace wrappers for every export of {os.path.basename(a.real)}.",
         " * Generated by scripts/gen_lib_exports.py at build time; do not edit. */",
         "".join(f"#include <{x}>\n" for x in a.header).rstrip(),
         f'#include "{lib}_exports.h"', ""]
    if a.status_filter:
        c += [f"int {a.status_filter}(int status);", ""]
    unknown = 0
    for i, s in enumerate(syms):
        p = protos[s]
        if p is None:
            unknown += 1
            ret, params = "int", []
            c.append(f"int {s}(void);")
        else:
            ret, params = p
            if s in declare:
                unknown += not declare[s]
                c.append(f"{ret} {s}({', '.join(decl(t, n) for t, n in params) or 'void'});")
        rcat = hdr.resolve(ret + " @")
        plist = ", ".join(decl(t, n) for t, n in params) or "void"
        args = ", ".join(n for _, n in params)
        is_status = p is None or hdr.resolve(ret + " @") == status_cat
        # the stub
        if rcat == "void":
            body = f"cbl_unsupported(&cbl_{lib}_library, {i});"
        elif is_status:
            body = f"return ({ret})cbl_unsupported(&cbl_{lib}_library, {i});"
        elif rcat.startswith("struct:"):
            body = f"{ret} r_; memset(&r_, 0, sizeof r_); cbl_unsupported(&cbl_{lib}_library, {i}); return r_;"
        else:
            body = f"cbl_unsupported(&cbl_{lib}_library, {i}); return ({ret})0;"
        unused = " ".join(f"(void){n};" for _, n in params)
        c.append(f"static {ret} cb_stub_{s}({plist}) {{ {unused} {body} }}")
        c.append(f"extern __typeof__(cb_stub_{s}) cb_impl_{s} __attribute__((weak, alias(\"cb_stub_{s}\"), "
                 f"visibility(\"default\")));")
        # the trace wrapper: calls fn_ (cubridge's implementation, or NVIDIA's
        # function under the cuda pass-through) and records the call
        fparams = f"{ret} (*fn_)({plist})" + (", " + plist if params else "")
        w = [f"static __attribute__((noinline, cold)) {ret} cbl_trace_{s}({fparams})", "{",
             "    cbl_call c_;", f"    cbl_call_begin(&c_, &cbl_{lib}_library, {i});"]
        if rcat == "void":
            w.append(f"    fn_({args});")
        else:
            w.append(f"    {ret} r_ = fn_({args});")
        w.append("    cbl_call_timed(&c_);")
        for t, n in params:
            cat = hdr.resolve(t)
            if cat in ("pointer", "fnptr"):
                is_str = re.sub(r"\s+", "", t.replace("@", "")) == "constchar*"
                w.append(f'    cbl_arg_{"str" if is_str else "ptr"}(&c_, "{n}", (const void *){n});')
            elif cat == "int":
                w.append(f'    cbl_arg_i64(&c_, "{n}", (long long){n});')
            elif cat == "uint":
                w.append(f'    cbl_arg_u64(&c_, "{n}", (unsigned long long){n});')
            elif cat == "char":
                w.append(f'    cbl_arg_char(&c_, "{n}", (int){n});')
            elif cat == "float":
                w.append(f'    cbl_arg_f64(&c_, "{n}", (double){n});')
            elif cat.startswith("enum:"):
                w.append(f'    cbl_arg_enum(&c_, "{n}", (long long){n}, {enum_index(cat)});')
            else:
                w.append(f'    cbl_arg_opaque(&c_, "{n}", "{cat.split(":", 1)[-1]}");')
        if rcat == "void":
            w += ["    cbl_call_end(&c_, 0, 0);", "}"]
        elif is_status:
            w += ["    cbl_call_end(&c_, (int)r_, 1);", "    return r_;", "}"]
        else:
            w += ["    cbl_call_end(&c_, 0, 0);", "    return r_;", "}"]
        c += w
        # the slow path: the pass-through's target, and tracing
        targs = "fn_" + (", " + args if args else "")
        sl = [f"static __attribute__((noinline, cold)) {ret} cbl_slow_{s}({plist})", "{",
              f"    {ret} (*fn_)({plist}) = cb_impl_{s};",
              "    if (cbl_forward) {",
              f"        fn_ = ({ret} (*)({plist}))cbl_real_symbol(&cbl_{lib}_library, {i});",
              "        if (!fn_)",
              f"            fn_ = cb_stub_{s};",
              "    }"]
        if rcat == "void":
            sl += ["    if (cbl_trace_flags)", f"        cbl_trace_{s}({targs});", "    else",
                   f"        fn_({args});", "}"]
        else:
            sl += [f"    return cbl_trace_flags ? cbl_trace_{s}({targs}) : fn_({args});", "}"]
        c += sl
        # the exported symbol
        if rcat == "void":
            c.append(f"__attribute__((visibility(\"default\"))) void {s}({plist}) {{ "
                     f"if (__builtin_expect((cbl_trace_flags | cbl_forward) != 0, 0)) {{ cbl_slow_{s}({args}); return; }} "
                     f"cb_impl_{s}({args}); }}")
        else:
            c.append(f"__attribute__((visibility(\"default\"))) {ret} {s}({plist}) {{ "
                     f"if (__builtin_expect((cbl_trace_flags | cbl_forward) != 0, 0)) return cbl_slow_{s}({args}); "
                     f"return cb_impl_{s}({args}); }}")
        if a.status_filter and is_status and rcat != "void":
            # every status goes out through the filter (cuDNN 8's codes under libcudnn.so.8)
            head = f"__attribute__((visibility(\"default\"))) {ret} {s}("
            c[-1] = c[-1].replace(head, f"static inline {ret} cbl_export_{s}(", 1)
            c.append(f"{head}{plist}) {{ return ({ret}){a.status_filter}((int)cbl_export_{s}({args})); }}")
        if p is None or (s in declare and not declare[s]):
            # no prototype: on x86-64 the symbol is an entry that forwards the call as made (facade.h,
            # CBL_FORWARD_ENTRY); the C export above becomes its own entry
            head = f"__attribute__((visibility(\"default\"))) {ret} {s}("
            own = c[-1].replace(head, f"static __attribute__((used)) {ret} cbl_entry_{s}(", 1)
            c[-1:] = ["#if defined(__x86_64__)", own, f"CBL_FORWARD_ENTRY({s}, cbl_{lib}_library, {i});", "#else",
                      c[-1], "#endif"]
        c.append("")
    c.append(f"static const char *const cbl_{lib}_names[] = {{")
    c += [f'    "{s}",' for s in syms]
    c.append("};")
    c.append(f"static _Atomic unsigned long long cbl_{lib}_unsupported_calls[{len(syms)}];")
    tables = []
    for k, key in enumerate(enum_keys):
        items = hdr.enums.get(key, [])
        c.append(f"static const cbl_enumerator cbl_{lib}_enum{k}[] = {{")
        c += [f'    {{{v}, "{n}"}},' for v, n in items]
        if not items:
            c.append('    {0, NULL},')
        c.append("};")
        tables.append(f'    {{"{key}", cbl_{lib}_enum{k}, {len(items)}}},')
    c.append(f"static const cbl_enum_table cbl_{lib}_enums[] = {{")
    c += tables or ['    {"", NULL, 0},']
    c.append("};")
    c += [f"cbl_library cbl_{lib}_library = {{",
          f'    .name = "{lib}",',
          f"    .names = cbl_{lib}_names,",
          f"    .count = {len(syms)},",
          f"    .unsupported_calls = cbl_{lib}_unsupported_calls,",
          f"    .status_unsupported = (int){a.unsupported},",
          f"    .enums = cbl_{lib}_enums,",
          f"    .status_enum = {0 if status_cat.startswith('enum:') else -1},",
          "};", ""]
    write(os.path.join(a.out_dir, f"{lib}_exports.h"), "\n".join(h))
    write(os.path.join(a.out_dir, f"{lib}_impl.h"), "\n".join(im))
    write(os.path.join(a.out_dir, f"{lib}_exports.c"), "\n".join(c))
    write(os.path.join(a.out_dir, f"{lib}_exports.txt"), "".join(s + "\n" for s in syms))
    for so in a.soname:
        vs = [f"/* {so}: version script, generated by scripts/gen_lib_exports.py */", f"{so} {{", "  global:"]
        vs += [f"    {s};" for s in (a.soname_syms.get(so) or syms)]
        vs += ["    cb_impl_*;", "  local:", "    *;", "};", ""]
        write(os.path.join(a.out_dir, f"{so}.map"), "\n".join(vs))
    return unknown


def write(path, text):
    if os.path.exists(path) and open(path).read() == text:
        return
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", required=True)
    ap.add_argument("--header", action="append", required=True, help="header(s) with every prototype")
    ap.add_argument("--impl-header", action="append", help="header(s) the facade's sources include (default: --header)")
    ap.add_argument("--alias-header", action="append", default=[], help="headers whose #defines rename exports")
    ap.add_argument("--raw-header", action="append", default=[],
                    help="headers read as text for prototypes the C view lacks (C++-only blocks)")
    ap.add_argument("--c-replace", action="append", default=[], help="OLD=NEW type substitution for --raw-header")
    ap.add_argument("--real", required=True, help="NVIDIA's shared object")
    ap.add_argument("--prefix", action="append", help="only exports starting with these")
    ap.add_argument("--status-type", required=True)
    ap.add_argument("--unsupported", required=True)
    ap.add_argument("--soname", action="append", default=[])
    ap.add_argument("--soname-exports", action="append", default=[],
                    help="SONAME=SOURCE: that soname exports only SOURCE's names (an ELF or a names file); "
                         "the export list is the union of --real and every SOURCE")
    ap.add_argument("--status-filter", help="a function int f(int) every returned status passes through")
    ap.add_argument("--include", action="append", default=[])
    ap.add_argument("--define", action="append", default=[])
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--out-dir", required=True)
    a = ap.parse_args()
    a.impl_header = a.impl_header or a.header
    os.makedirs(a.out_dir, exist_ok=True)
    syms = library_exports(a.real, a.prefix)
    a.soname_syms = {}
    for spec in a.soname_exports:
        so, source = spec.split("=", 1)
        a.soname_syms[so] = names_of(source, a.prefix)
        if so not in a.soname:
            a.soname.append(so)
    syms = sorted(set(syms).union(*a.soname_syms.values()))
    hdr = Header(preprocess(a.cc, a.include, a.header, a.define))
    aliases = header_aliases(a.include[0] if a.include else "/usr/local/cuda/include", a.alias_header)
    unknown = emit(a, syms, hdr, aliases)
    print(f"gen_lib_exports: {a.name}: {len(syms)} exports of {os.path.basename(a.real)}, "
          f"{len(syms) - unknown} with a prototype")


if __name__ == "__main__":
    main()
