#!/bin/sh
# PNG pages drawn in bands and compressed in pieces on several threads (src/page/bands.c,
# png.c, deflate.c): the same bytes for 1, 2 and 4 threads and the default, for a sheet of
# 1,000 distinct emoji and for a page that takes every drawing path (tests/cli/threads/
# page.lua) at 300 dpi, opaque (RGB) and without a background (RGBA), through --threads,
# CHROMATYPE_THREADS and c:write's threads=; the files decode (libpng checks every CRC, zlib
# the Adler-32); --threads's errors.
SUITE=threads
. tests/cli/lib.sh
B=${CT_BUILD:-build}
CT="$B/chromatype"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# same NAME CMD...: CMD (with THREADS in it) run with 1, 2, 4 threads and the default must
# write the same $T/NAME-*.png, which decodes
same() {
  name=$1; shift
  for t in 1 2 4 default; do
    if [ $t = default ]; then cmd=$(echo "$*" | sed "s/--threads THREADS//; s/THREADS/0/")
    else cmd=$(echo "$*" | sed "s/THREADS/$t/"); fi
    # shellcheck disable=SC2086
    sh -c "$cmd" > "$T/log" 2>&1 || { bad "$name with $t threads: $(cat "$T/log")"; return; }
    mv "$T/out.png" "$T/$name-$t.png"
  done
  for t in 2 4 default; do
    cmp -s "$T/$name-1.png" "$T/$name-$t.png" && ok || bad "$name: $t threads wrote other bytes than 1"
  done
  echo 'local ct = require "chromatype"; assert(ct.read_png(arg[1]))' > "$T/read.lua"
  "$CT" "$T/read.lua" "$T/$name-1.png" > "$T/log" 2>&1 && ok || bad "$name: the PNG does not decode: $(cat "$T/log")"
}

same sheet "$CT --threads THREADS bench/sheet.lua tests/fonts/twemoji-colr0.woff2 $T/out.png 1000 64 25 distinct"
same page "$CT --threads THREADS tests/cli/threads/page.lua $T/out.png 300"
same page-rgba "$CT --threads THREADS tests/cli/threads/page.lua $T/out.png 130 none"
same env "CHROMATYPE_THREADS=THREADS $CT tests/cli/threads/page.lua $T/out.png 97"
cmp -s "$T/page-1.png" "$T/page-rgba-1.png" && bad "the page without a background wrote the same file" || ok

# a page with a background is compressed band by band as it is drawn; one whose background
# is two rectangles is drawn whole first: the same pixels, so the same bytes
cat > "$T/two.lua" <<'LUA'
local ct = require "chromatype"
local f = assert(ct.open_font("tests/fonts/twemoji-colr0.woff2"))
local c = ct.canvas { width = 400, height = 300 }
if arg[2] == "one" then c:rect { x = 0, y = 0, w = 400, h = 300, color = "#f0f0ff" }
else c:rect { x = 0, y = 0, w = 400, h = 150, color = "#f0f0ff" }; c:rect { x = 0, y = 150, w = 400, h = 150, color = "#f0f0ff" } end
c:text { "🌈🎨❤🌈", font = f, size = 90, x = 10, y = 160 }
assert(c:write(arg[1], { dpi = 144 }))
LUA
"$CT" "$T/two.lua" "$T/one.png" one && "$CT" "$T/two.lua" "$T/two.png" two && cmp -s "$T/one.png" "$T/two.png" && ok ||
  bad "a page drawn band by band and the same page drawn whole wrote other bytes"

# c:write's threads= and ct.set_threads, from Lua; a document with --threads after it
cat > "$T/w.lua" <<'LUA'
local ct = require "chromatype"
local f = assert(ct.open_font("tests/fonts/ct-colr1.ttf"))
local c = ct.canvas { width = 300, height = 200 }
c:background("#ffffff")
c:text { utf8.char(0xE005, 0xE006, 0xE00C, 0xE010), font = f, size = 60, x = 10, y = 120 }
assert(c:write(arg[1] .. "-w1.png", { dpi = 200, threads = 1 }))
assert(c:write(arg[1] .. "-w3.png", { dpi = 200, threads = 3 }))
assert(ct.set_threads(2) == 2 and ct.threads() == 2)
assert(c:write(arg[1] .. "-w2.png", { dpi = 200 }))
LUA
"$CT" "$T/w.lua" "$T/lua" > "$T/log" 2>&1 || bad "threads from Lua: $(cat "$T/log")"
cmp -s "$T/lua-w1.png" "$T/lua-w3.png" && ok || bad "c:write threads=3 wrote other bytes than threads=1"
cmp -s "$T/lua-w1.png" "$T/lua-w2.png" && ok || bad "ct.set_threads(2) wrote other bytes than threads=1"
# (two pages: d1-1.png, d1-2.png)
"$CT" examples/programme.xml -o "$T/d1.png" --dpi 150 --threads 1 > /dev/null 2>&1 &&
  "$CT" examples/programme.xml -o "$T/d2.png" --dpi 150 --threads 2 > /dev/null 2>&1 &&
  cmp -s "$T/d1-1.png" "$T/d2-1.png" && cmp -s "$T/d1-2.png" "$T/d2-2.png" && ok ||
  bad "a document's PNGs with --threads 1 and 2 differ (or failed)"

# what is read back is what was drawn: odd widths (the row conversion's tails), a page taller
# than a band, RGB and RGBA, colors at both ends of every row
cat > "$T/rt.lua" <<'LUA'
local ct = require "chromatype"
for _, w in ipairs { 1, 2, 3, 5, 7, 13, 17, 31, 333 } do
  for _, bg in ipairs { "#123456", false } do
    local c = ct.canvas { width = w, height = 150 }
    if bg then c:background(bg) end
    c:rect { x = 0, y = 0, w = 1, h = 150, color = "#ff8000" }
    c:rect { x = w - 1, y = 70, w = 1, h = 80, color = "#00ff80" }
    assert(c:write(arg[1], { threads = 2 }))
    local W, H = ct.read_png(arg[1])
    assert(W == w and H == 150, "size")
    local function px(x, y) return table.concat({ ct.read_png_pixel(arg[1], x, y) }, ",") end
    assert(px(0, 0) == "255,128,0,255", w .. ": " .. px(0, 0))
    assert(px(w - 1, 149) == "0,255,128,255", w .. ": " .. px(w - 1, 149))
    if w > 2 then assert(px(1, 10) == (bg and "18,52,86,255" or "0,0,0,0"), w .. ": " .. px(1, 10)) end
  end
end
LUA
"$CT" "$T/rt.lua" "$T/rt.png" > "$T/log" 2>&1 && ok || bad "a PNG read back is not what was drawn: $(cat "$T/log")"

# ---- the option's errors: one line naming it, exit status 2 -------------------------------
echo 'print("ran")' > "$T/ran.lua"
expect 2 "--threads: '0' is not a number of threads (1..64)" "$CT" --threads 0 "$T/ran.lua"
expect 2 "--threads: 'abc' is not a number of threads (1..64)" "$CT" --threads abc "$T/ran.lua"
expect 2 "--threads: '65' is not a number of threads (1..64)" "$CT" --threads=65 "$T/ran.lua"
expect 2 "--threads: '-1' is not a number of threads" "$CT" --threads -1 "$T/ran.lua"
expect 2 "--threads needs a number of threads" "$CT" --threads
expect 0 "ran" "$CT" --threads 3 "$T/ran.lua"
for v in 0 abc; do
  n=$("$CT" --threads $v "$T/ran.lua" 2>&1 | wc -l)
  [ "$n" -eq 1 ] && ok || bad "--threads $v: $n lines of error, want 1"
done
# a bad CHROMATYPE_THREADS is not an error: the default applies
expect 0 "ran" env CHROMATYPE_THREADS=zero "$CT" "$T/ran.lua"
echo 'local ct = require "chromatype"; print(pcall(ct.set_threads, 65)); print(pcall(ct.set_threads, 1.5))
local c = ct.canvas { width = 10, height = 10 }; print(pcall(c.write, c, arg[1], { threads = 0 }))' > "$T/bad.lua"
expect 0 "threads out of range (1..64, 0 for the default)" "$CT" "$T/bad.lua" "$T/x.png"
expect 0 "field 'threads': 0 out of range (1..64)" "$CT" "$T/bad.lua" "$T/x.png"
expect 0 "number has no integer representation" "$CT" "$T/bad.lua" "$T/x.png"
finish
