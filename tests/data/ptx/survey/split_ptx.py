#!/usr/bin/env python3
"""split_ptx.py IN.ptx OUTDIR: write one PTX module per .entry of IN.ptx
(OUTDIR/<entry>.ptx), each holding the module's header, every declaration,
global and .func, and that one entry, so a translator that stops at the
first error reports every kernel's first error."""
import os, re, sys

def items(text):
    """Top-level items: (kind, name, text). kind is 'entry' or 'other'."""
    out, i, n = [], 0, len(text)
    while i < n:
        m = re.compile(r'\S').search(text, i)
        if not m:
            break
        j = m.start()
        if text.startswith('//', j):
            k = text.find('\n', j)
            i = n if k < 0 else k + 1
            continue
        # an item ends at ';' at depth 0 before any '{', or at the '}' closing its body
        depth, k, seen_brace = 0, j, False
        while k < n:
            c = text[k]
            if text.startswith('//', k):
                k = text.find('\n', k)
                k = n if k < 0 else k
                continue
            if c == '"':
                k = text.find('"', k + 1) + 1
                continue
            if c == '{':
                depth += 1; seen_brace = True
            elif c == '}':
                depth -= 1
                if depth == 0 and seen_brace:
                    k += 1
                    break
            elif c == ';' and depth == 0 and not seen_brace:
                k += 1
                break
            elif c == '\n' and depth == 0 and not seen_brace and re.match(r'\s*\.(version|target|address_size|file|loc)\b', text[j:k]):
                break
            k += 1
        body = text[j:k]
        em = re.match(r'\s*(?:\.visible\s+|\.weak\s+)*\.entry\s+([A-Za-z0-9_$]+)', body)
        out.append(('entry', em.group(1), body) if em else ('other', None, body))
        i = k
    return out

def main():
    src, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    its = items(open(src).read())
    common = [t for k, _, t in its if k == 'other']
    for k, name, t in its:
        if k == 'entry':
            with open(os.path.join(outdir, name + '.ptx'), 'w') as f:
                f.write('\n'.join(common) + '\n' + t + '\n')

main()
