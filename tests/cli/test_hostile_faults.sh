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

finish
