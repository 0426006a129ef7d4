#!/usr/bin/env python3
"""check_report.py REPORT_DIR SHOT.png [--want-count STATUS]... [--want-kernels N] [--want-launches N]
                   [--want-text TEXT]... [--want-call ENTRY=STATUS]... [--open-first]

Renders REPORT_DIR/report.html in headless Chromium (1280x900) and checks
the page as a person would see it, with a small script added to a copy of
the page that measures the layout after the report's own script ran:

  - no JavaScript error;
  - no element wider than the viewport, and no horizontal scrolling;
  - the status card shows a count for each STATUS of --want-count (and the
    headline is not PASS when launches were skipped or failed);
  - the kernels table has N rows (--want-kernels) whose names are
    demangled (no "_Z" in the visible names), and the page knows N launches
    (--want-launches);
  - the header names the program, its exit status and the version;
  - each --want-text occurs in the rendered text;
  - the call table has a row ENTRY with STATUS for each --want-call (and,
    for PASS and DRIFT, a measured drift);
  - the screenshot exists and is not blank (its pixels, decoded from the
    PNG, are not one colour: text and tables were drawn).

With --open-first the first kernel's drill-down is opened (a click) before
measuring, so that the per-launch table is checked too. Saves a screenshot
of the (unmodified) page to SHOT.png. Exit 0 when every check holds; the
failures are printed otherwise.
"""
import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ERRORS = "<script>window.__errors=[];window.addEventListener('error',e=>window.__errors.push(String(e.message)))</script>"
CHECK = r"""<script>
(function(){
 if (window.__open_first && !document.querySelector('#kernels tr.detail')) { const tr = document.querySelector('#kernels tr.kernel'); if (tr) tr.click(); }
 const W = window.innerWidth, wide = [];
 document.querySelectorAll('body *').forEach(el => {
   const r = el.getBoundingClientRect();
   if (r.width > W + 1 || r.right > W + 1)
     wide.push(el.tagName + (el.id ? '#' + el.id : '') + ' ' + Math.round(r.width) + 'px');
 });
 const q = s => [...document.querySelectorAll(s)];
 const out = {
   viewport: W, scroll_width: document.documentElement.scrollWidth, wide: wide.slice(0, 12), nwide: wide.length,
   errors: window.__errors,
   head: (document.getElementById('status-head') || {}).textContent,
   counts: q('#status-counts [data-count]').map(e => e.textContent),
   kernels: q('#kernels tr.kernel td:first-child').map(e => e.textContent),
   launch_rows: q('#kernels tr.launch').length,
   calls: q('#calls tbody tr').map(tr => [...tr.cells].map(c => c.textContent)),
   prog: (document.getElementById('prog') || {}).textContent,
   sub: (document.getElementById('sub') || {}).textContent,
   text: document.body.innerText,
 };
 const pre = document.createElement('pre'); pre.id = 'layout-check'; pre.textContent = JSON.stringify(out);
 document.body.appendChild(pre);
})();
</script>"""


def chrome():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def png_colours(path):
    """The number of distinct pixel values in an 8-bit RGB/RGBA PNG (any filter), or 0."""
    import struct
    import zlib
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return 0
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            channels = {2: 3, 6: 4}.get(ctype, 0) if depth == 8 else 0
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    if not channels:
        return 0
    raw, stride, prev, seen = zlib.decompress(idat), width * channels, bytearray(width * channels), set()
    for y in range(0, height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if y % 8 == 0:   # every 8th row is enough to tell a page from a blank
            for x in range(0, stride, channels * 2):
                seen.add(bytes(line[x:x + 3]))
        prev = line
    return len(seen)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report_dir")
    ap.add_argument("shot")
    ap.add_argument("--want-count", action="append", default=[])
    ap.add_argument("--want-kernels", type=int)
    ap.add_argument("--want-launches", type=int)
    ap.add_argument("--want-text", action="append", default=[])
    ap.add_argument("--want-call", action="append", default=[])
    ap.add_argument("--open-first", action="store_true")
    a = ap.parse_args()
    exe = chrome()
    if not exe:
        print("FAIL: chromium is not installed")
        return 1
    page = open(os.path.join(a.report_dir, "report.html")).read()
    if re.search(r"https?://", page):
        print("FAIL: report.html refers to the network")
        return 1
    report = json.load(open(os.path.join(a.report_dir, "report.json")))
    tmp = tempfile.mkdtemp(prefix="cb-report-check.")
    try:
        test_page = page.replace("<head>", "<head>" + ERRORS, 1)
        test_page = test_page.replace("</body>", ("<script>window.__open_first=1</script>" if a.open_first else "")
                                      + CHECK + "</body>", 1)
        probe = os.path.join(tmp, "check.html")
        open(probe, "w").write(test_page)
        env = dict(os.environ)
        env.pop("LD_PRELOAD", None)
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
                 "--user-data-dir=" + os.path.join(tmp, "profile"), "--window-size=1280,900",
                 "--virtual-time-budget=10000"]
        dom = subprocess.run([exe] + flags + ["--dump-dom", "file://" + probe], env=env, capture_output=True,
                             text=True, timeout=180).stdout
        m = re.search(r'<pre id="layout-check">(.*?)</pre>', dom, re.S)
        if not m:
            print("FAIL: the page did not render (no layout check in the DOM)")
            return 1
        got = json.loads(html.unescape(m.group(1)))
        flags[flags.index("--window-size=1280,900")] = "--window-size=1280,2600"
        subprocess.run([exe] + flags + ["--screenshot=" + a.shot, "file://" + os.path.join(a.report_dir, "report.html")],
                       env=env, capture_output=True, timeout=180)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    bad = []
    if got["errors"]:
        bad.append("JavaScript errors: %s" % got["errors"])
    if got["nwide"] or got["scroll_width"] > got["viewport"]:
        bad.append("wider than the %dpx viewport (page %dpx): %s" % (got["viewport"], got["scroll_width"], got["wide"]))
    counts = " ".join(got["counts"])
    for s in a.want_count:
        if not re.search(r"\b%s \d+" % re.escape(s), counts):
            bad.append("the status card has no %s count: %r" % (s, counts))
    lc = report["summary"]["status_counts"]["launches"]
    if (lc["SKIPPED"] or lc["FAILED"]) and got["head"] == "PASS":
        bad.append("the status says PASS while launches were skipped or failed")
    if a.want_kernels is not None and len(got["kernels"]) != a.want_kernels:
        bad.append("%d kernel rows, want %d" % (len(got["kernels"]), a.want_kernels))
    if any(k.startswith("_Z") for k in got["kernels"]):
        bad.append("mangled kernel names shown: %s" % got["kernels"])
    if a.want_launches is not None and report["summary"]["launches"] != a.want_launches:
        bad.append("%d launches in the report, want %d" % (report["summary"]["launches"], a.want_launches))
    if a.open_first and got["launch_rows"] == 0:
        bad.append("the first kernel's drill-down shows no launch")
    argv = report["program"]["argv"]
    if not argv or os.path.basename(argv[0]) not in got["prog"]:
        bad.append("the header does not name the program: %r" % got["prog"])
    if "exit status" not in got["sub"] or report["version"] not in got["sub"]:
        bad.append("the header lacks the exit status or the version: %r" % got["sub"])
    for t in a.want_text:
        if t not in got["text"]:
            bad.append("the page does not show %r" % t)
    for w in a.want_call:
        entry, status = w.rsplit("=", 1)
        rows = [r for r in got["calls"] if r and r[0] == entry]
        if not rows:
            bad.append("the call table has no row %r" % entry)
        elif rows[0][3] != status:
            bad.append("the call table's row %r says %r, want %s" % (entry, rows[0][3], status))
        elif status in ("PASS", "DRIFT") and not re.match(r"^[0-9.]+(e[-+]?[0-9]+)?$", rows[0][4].strip()):
            bad.append("the call table's row %r has no measured drift: %r" % (entry, rows[0][4]))
    colours = png_colours(a.shot) if os.path.exists(a.shot) else -1
    if colours < 0:
        bad.append("no screenshot %s" % a.shot)
    elif colours < 8:
        bad.append("the screenshot %s is blank (%d colours)" % (a.shot, colours))
    for b in bad:
        print("FAIL: " + b)
    if not bad:
        print("page ok: %d kernels, %d call rows, status %s (%s), %d launch rows open, screenshot %s (%d colours)"
              % (len(got["kernels"]), len(got["calls"]), got["head"], counts, got["launch_rows"], a.shot, colours))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
