#!/bin/sh
# Faults of issue 33 seen from the command line: outputs that are devices or FIFOs (written
# through, never replaced; a full device is an error), sanitizer findings of the font
# builder, and messages that must name the file and the cause.  Never the real /dev/null
# or /dev/full as an output: nodes are made in a scratch folder (mknod, root only).
B=${CT_BUILD:-build}
CT="$(cd "$(dirname "$B/chromatype")" && pwd)/chromatype"
ROOT=$(pwd)
T=$(mktemp -d)
chmod 755 "$T"
READER=
trap '[ -n "$READER" ] && kill "$READER" 2>/dev/null; rm -rf "$T"' EXIT
SUITE=hostile_faults
. "$(dirname "$0")/lib.sh"

cp "$ROOT/tests/fonts/ct-colr0.ttf" "$T/"
cat > "$T/small.xml" <<'EOF'
<document size="40mm x 20mm" margin="2mm"><style name="default" font="ct-colr0.ttf" size="20pt"/><page><frame><p>AB</p></frame></page></document>
EOF
mkdir "$T/tmp"
TMPDIR=$T/tmp; export TMPDIR   # where the temporaries of nodes go: checked empty at the end
cd "$T" || exit 1

# ---- issue 33, item 13: an output that is a device, a FIFO or a socket -------------------

is_char() {   # is_char WHAT PATH: PATH is still a character device
  if [ -c "$2" ]; then ok; else bad "$1 replaced the device node $2: $(ls -l "$2")"; fi
}
if [ "$(id -u)" = 0 ]; then
  mkdir nodes
  for ext in png pdf svg ttf gif apng webp; do
    mknod "nodes/full.$ext" c 1 7
    mknod "nodes/null.$ext" c 1 3
  done
  for ext in png pdf svg; do
    expect 1 "nodes/full.$ext: cannot write: No space left on device" "$CT" small.xml -o "nodes/full.$ext"
    is_char "a full $ext" "nodes/full.$ext"
    expect 0 "" "$CT" small.xml -o "nodes/null.$ext"
    is_char "a $ext into a null device" "nodes/null.$ext"
  done
  for ext in gif apng webp; do
    expect 1 "nodes/full.$ext: cannot write: No space left on device" "$CT" small.xml -o "nodes/full.$ext" --duration 0.2 --fps 5
    is_char "a full $ext" "nodes/full.$ext"
    expect 0 "" "$CT" small.xml -o "nodes/null.$ext" --duration 0.2 --fps 5
    is_char "a $ext into a null device" "nodes/null.$ext"
  done
  expect 1 "nodes/full.ttf: cannot write: No space left on device" "$CT" font ct-colr0.ttf -o nodes/full.ttf
  is_char "a full font" nodes/full.ttf
  expect 0 "" "$CT" font ct-colr0.ttf -o nodes/null.ttf
  is_char "a font into a null device" nodes/null.ttf
  # write_file of a script: the same atomic writer
  printf 'local ct = require "chromatype"\nassert(ct.write_file(arg[1], "x"))\n' > wf.lua
  expect 1 "nodes/full.png: cannot write: No space left on device" "$CT" wf.lua nodes/full.png
  is_char "write_file" nodes/full.png
  # "-o -" into a full standard output: an error, not a silent exit 0
  mknod nodes/stdout c 1 7   # (this one held already on today's main)
  out=$("$CT" small.xml -o - --format png 2>&1 >nodes/stdout); st=$?
  if [ "$st" -eq 1 ] && printf '%s' "$out" | grep -q "No space left on device"; then ok; else bad "-o - into a full device -> $st: $out"; fi
  # sandboxed: a device in the working directory or outside it is refused, and left alone
  expect 1 "sandbox: writing 'nodes/null.png' refused (not a regular file" "$CT" --sandbox small.xml -o nodes/null.png
  is_char "a sandboxed run" nodes/null.png
  mkdir -p "$T/away" && mknod "$T/away/null.png" c 1 3
  mkdir -p sbx && cp small.xml ct-colr0.ttf sbx/
  expect 1 "refused (not a regular file" sh -c "cd sbx && '$CT' --sandbox small.xml -o '$T/away/null.png'"
  is_char "a sandboxed run outside its folder" "$T/away/null.png"
else
  echo "$SUITE: skipped the device nodes (mknod needs root)"
fi

# A FIFO with a reader: the bytes arrive and the FIFO stays one.
fifo_case() {   # fifo_case WHAT MAGIC ARGS...: writes into fifo.EXT; the reader gets MAGIC
  what=$1 magic=$2; shift 2
  rm -f fifo got
  mkfifo fifo
  cat fifo > got & READER=$!
  out=$(timeout 60 "$CT" "$@" 2>&1); st=$?
  n=0
  while kill -0 "$READER" 2>/dev/null && [ $n -lt 50 ]; do sleep 0.2; n=$((n + 1)); done
  kill "$READER" 2>/dev/null; wait "$READER" 2>/dev/null; READER=
  if [ "$st" -eq 0 ]; then ok; else bad "$what into a FIFO -> exit $st: $out"; fi
  if [ -p fifo ]; then ok; else bad "$what replaced the FIFO: $(ls -l fifo)"; fi
  if head -c 8 got | grep -q "$magic"; then ok; else bad "$what: the reader got $(wc -c < got) bytes, not a $magic"; fi
}
fifo_case "a PNG" PNG small.xml -o fifo --format png
fifo_case "a PDF" %PDF small.xml -o fifo --format pdf
rm -f fifo; mkfifo fifo
expect 1 "sandbox: writing 'fifo' refused (not a regular file" timeout 60 "$CT" --sandbox small.xml -o fifo --format png
if [ -p fifo ]; then ok; else bad "a sandboxed run replaced the FIFO"; fi
left=$(ls -A "$TMPDIR"); [ -z "$left" ] && ok || bad "temporaries left behind: $left"

# ---- issue 33, item 14: the font builder under the sanitizers -----------------------------
# A font whose name table has no records (qsort was given NULL) and COLRv0 fonts written as
# COLRv1 (NULL + 0 in sfnt.c's buffer).  The sanitizer build (CT_BUILD=build-asan CT_ASAN=1)
# aborts on either; the plain build checks the fonts written.
PY=/usr/bin/python3
has_colr() {   # has_colr WHAT FONT FORMAT
  out=$("$CT" info "$2" 2>&1)
  if printf '%s' "$out" | grep -q "^Color formats: .*$3"; then ok; else bad "$1: $2 has no $3: $out"; fi
}
for f in ct-colr0.ttf ct-colr0-cff.otf ct-colr0.woff2 twemoji-colr0.woff2; do
  expect 0 "" "$CT" font "$ROOT/tests/fonts/$f" --format colr1 -o "c1-$f.ttf"
  has_colr "$f as COLRv1" "c1-$f.ttf" COLRv1
done
if "$PY" -c "import fontTools" 2>/dev/null; then
  "$PY" - "$ROOT/tests/fonts" <<'PYEOF'
import sys
from fontTools.ttLib import TTFont
src = sys.argv[1] + "/"
for name, out in (("ct-colr0.ttf", "noname-colr0.ttf"), ("ct-kern.ttf", "noname-plain.ttf")):
    f = TTFont(src + name)
    f["name"].names = []      # a name table without records
    f.save(out)
PYEOF
  expect 0 "" "$CT" font noname-plain.ttf -o nn-plain.ttf
  expect 0 "Glyphs:" "$CT" info nn-plain.ttf
  expect 0 "" "$CT" font noname-colr0.ttf -o nn-colr0.ttf
  has_colr "a nameless COLRv0 font" nn-colr0.ttf COLRv0
  # (issue 33, item 15: the family of a font written from a nameless one is its file's
  # name, not " Color")
  expect 0 "" "$CT" font noname-colr0.ttf --format colr1 -o nn-colr1.ttf
  expect 0 "^Family: *noname-colr0 Color$" sh -c "'$CT' info nn-colr1.ttf | grep '^Family'"
  has_colr "a nameless COLRv0 font as COLRv1" nn-colr1.ttf COLRv1
else
  echo "$SUITE: skipped the nameless fonts (no fontTools for $PY)"
fi

# ---- issue 33, item 15: messages name the file and the cause -------------------------------

# (a) a folder the run may not write: every format says so (as a user: root writes anywhere)
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && command -v su >/dev/null 2>&1; then
  chmod 1777 "$T"
  mkdir ro && chmod 555 ro
  chmod 644 small.xml ct-colr0.ttf
  printf 'id,t\n1,a\n' > r.csv && chmod 644 r.csv
  as_nobody() { su nobody -s /bin/sh -c "cd '$T' && $*"; }
  for o in ro/x.pdf ro/x.png ro/x.svg; do
    expect 1 "^chromatype: $o: cannot write: Permission denied" as_nobody "'$CT' small.xml -o $o"
  done
  for o in ro/x.gif ro/x.apng ro/x.webp; do
    expect 1 "^chromatype: $o: cannot write: Permission denied" as_nobody "'$CT' small.xml -o $o --duration 0.2"
  done
  expect 1 "^chromatype: ro/x.ttf: cannot write: Permission denied" as_nobody "'$CT' font ct-colr0.ttf -o ro/x.ttf"
  expect 3 "ro/1.pdf: cannot write: Permission denied" as_nobody "'$CT' batch small.xml --data r.csv -o 'ro/{id}.pdf'"
  # the document API returns the error as write does (nil, msg, "io"), for a PDF too
  printf 'local d = require "chromatype.document"\nprint(select(3, d.render_file("small.xml", "ro/y.pdf")))\n' > rf.lua
  chmod 644 rf.lua
  expect 0 "^ro/y.pdf: cannot write: Permission denied" as_nobody "'$CT' rf.lua"
else
  echo "$SUITE: skipped the read-only folder (needs root and a user nobody)"
fi

# (b) read_png of what is not a PNG, or of a damaged one (cairo says "out of memory")
printf 'local ct = require "chromatype"\nprint(ct.read_png(arg[1]))\n' > rp.lua
expect 0 "small.xml: cannot read PNG: not a PNG file" "$CT" rp.lua small.xml
"$CT" small.xml -o good.png
{ head -c 40 good.png; head -c 20 /dev/zero; tail -c +61 good.png; } > bad.png   # IDAT's bytes zeroed
expect 0 "bad.png: cannot read PNG: damaged or truncated PNG data" "$CT" rp.lua bad.png

# (c) font-build errors: a reason always, a name always
cat > gid0.lua <<'EOF'
local ct = require "chromatype"
local core = require "chromatype.core"
local lead = assert(ct.open_font(arg[1]))
local b = core.font_builder(lead)
b:set_glyph(0, { kind = "glyph", gid = 999, child = { kind = "solid", color = { palette = 0 } } })
print(select(2, b:write("gid0.ttf", { formats = { arg[2] } })))
EOF
expect 0 "COLRv0 cannot hold glyph 0 ('.notdef'): it paints glyph 999, and ct-colr0.ttf has 10 glyphs" "$CT" gid0.lua ct-colr0.ttf colr0
expect 0 "COLRv1 cannot hold glyph 0 ('.notdef'): it paints glyph 999, and ct-colr0.ttf has 10 glyphs" "$CT" gid0.lua ct-colr0.ttf colr1
if [ -f noname-plain.ttf ]; then
  expect 1 "^chromatype: noname-plain.ttf has no color glyphs to write as colr1" "$CT" font noname-plain.ttf --format colr1 -o x.ttf
  expect 1 "palettes: noname-plain.ttf has no palette to start from" "$CT" font noname-plain.ttf --palette 'x:0=#ff0000' -o x.ttf
  cat > mem.lua <<'EOF'
local ct = require "chromatype"
local core = require "chromatype.core"
local f = assert(ct.font_from_data(core.read_file("noname-plain.ttf")))
print(ct.save_font(f, "m.ttf", { formats = "colr1" }))
EOF
  expect 0 "<memory> has no color glyphs to write as colr1" "$CT" mem.lua
fi

finish
