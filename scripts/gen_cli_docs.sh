#!/usr/bin/env bash
# scripts/gen_cli_docs.sh CUBRIDGE [--check]
#
# The command line is described once, in tools/cubridge/cli_spec.c. This
# writes what the built CUBRIDGE prints from it into the two documents:
#   docs/cubridge.1   `cubridge help --man`, the whole file
#   docs/cli.md       `cubridge help --markdown`, between the lines
#                     <!-- BEGIN cli reference --> and <!-- END cli reference -->
# With --check it changes nothing and exits 1 if either document differs
# from the table (the ctest `cli.docs` runs it so).
set -euo pipefail
cd "$(dirname "$0")/.."
cli=$1
check=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cli" help --man > "$tmp/cubridge.1"
"$cli" help --markdown > "$tmp/ref.md"
python3 - "$tmp/ref.md" docs/cli.md "$tmp/cli.md" <<'PY'
import sys
ref = open(sys.argv[1]).read()
doc = open(sys.argv[2]).read()
begin, end = "<!-- BEGIN cli reference -->\n", "<!-- END cli reference -->"
i, j = doc.find(begin), doc.find(end)
if i < 0 or j < i:
    sys.exit("docs/cli.md has no BEGIN/END cli reference markers")
open(sys.argv[3], "w").write(doc[:i + len(begin)] + ref + doc[j:])
PY
if [ "$check" = --check ]; then
    status=0
    diff -u docs/cubridge.1 "$tmp/cubridge.1" || { echo "docs/cubridge.1 differs from tools/cubridge/cli_spec.c: run scripts/gen_cli_docs.sh $cli"; status=1; }
    diff -u docs/cli.md "$tmp/cli.md" || { echo "docs/cli.md differs from tools/cubridge/cli_spec.c: run scripts/gen_cli_docs.sh $cli"; status=1; }
    [ $status = 0 ] && echo "docs/cubridge.1 and docs/cli.md match the command table"
    exit $status
fi
cp "$tmp/cubridge.1" docs/cubridge.1
cp "$tmp/cli.md" docs/cli.md
echo "wrote docs/cubridge.1 and the reference section of docs/cli.md"
