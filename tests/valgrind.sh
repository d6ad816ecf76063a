#!/bin/sh
# valgrind memcheck over the C unit tests, the command line and the Lua tests.
# Any invalid read/write, use of uninitialised memory or definite leak fails the run.
# (Lua tests run in the chromatype executable, which closes its Lua state and so frees
# everything; "still reachable" blocks of FreeType/fontconfig/cairo caches are not leaks.)
B=${CT_BUILD:-build}
ROOT=$(pwd)
VG="valgrind -q --suppressions=$ROOT/tests/valgrind.supp --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite"
pass=0 fail=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
run() {
  if $VG "$@" > "$T/out" 2>&1; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "valgrind: FAIL: $*"; tail -30 "$T/out"; fi
}
for t in "$B"/tests/*/test_*; do case "$t" in *.d) continue ;; esac; run "$t"; done
run "$B/chromatype" view tests/fonts/twemoji-colr0.woff2 --unicodes=U+1F308,U+263A -o "$T/a.png"
run "$B/chromatype" view tests/fonts/ct-colr0.woff2 ABCD --font-palette=dark -o "$T/a.pdf"
run "$B/chromatype" view tests/fonts/ct-colr0.ttf ABCD --custom-palette=0=00FF00FF -o "$T/a.svg"
run "$B/chromatype" info --json tests/fonts/ct-collection.ttc --face-index 1
run "$B/chromatype" view tests/fonts/ct-svg-layouts.ttf --unicodes=U+E600,U+E608,U+E60A,U+E611,U+E612 -o "$T/l.pdf"
run "$B/chromatype" view tests/fonts/hostile-svg.ttf --unicodes=U+E200,U+E201,U+E202,U+E203,U+E204,U+E205,U+E206,U+E207,U+E208,U+E209,U+E20A,U+E20B,U+E20C,U+E20D,U+E20E,U+E20F,U+E210,U+E211 -o "$T/h.png"
run "$B/chromatype" view tests/fonts/ct-svg.ttf --unicodes=U+E100,U+E101,U+E105,U+E107,U+E108,U+E109,U+E10C,U+E10D --font-palette=1 -o "$T/s.pdf"
run "$B/chromatype" view tests/fonts/ct-colr1.ttf --unicodes=U+E000,U+E013,U+E029,U+E045 -o "$T/c.pdf"
# animated SVG glyphs (SMIL sampled at a time), including the hostile one, on their own
run "$B/chromatype" view tests/fonts/ct-svg-anim.ttf --unicodes=U+E500,U+E501,U+E503,U+E505,U+E506,U+E507 -o "$T/m.png"
run "$B/chromatype" tests/lua/run.lua tests/lua/test_svg_anim.lua
# a GIF of three frames: the palette from the samples, changed rectangles, dithering
run "$B/chromatype" view tests/fonts/ct-colr1-var.ttf --unicodes=U+E003,U+E001 --font-size 48 --animate SWPS=0:360 --animate palette=0:1 --frames 3 --fps 10 --jobs 1 --dither -o "$T/a.gif"
# video: frames drawn by two workers piped to ffmpeg (a child, not traced)
run "$B/chromatype" view tests/fonts/ct-colr1-var.ttf --unicodes=U+E003,U+E001 --font-size 48 --animate SWPS=0:360 --frames 4 --jobs 2 -o "$T/v.mp4"
run "$B/chromatype" view tests/fonts/ct-cbdt.ttf --unicodes=U+E300,U+E301,U+E302 -o "$T/b.pdf"
# spot inks: the PDF pass rewriting every stream and shading, and plates (gs runs outside valgrind)
run "$B/chromatype" view tests/fonts/ct-colr1.ttf --unicodes=U+E005,U+E000,U+E001 --ink "Red=#e02020" --ink "Blue=#2040e0" --ink "Gold=#f0c000,overprint" --plates "$T/plates" -o "$T/i.pdf"
# the font writer: a stack to COLRv0 and v1, a subset in WOFF2 (hb-subset and the
# WOFF2 encoder), a baked filter, a COLRv1 font to OT-SVG
run "$B/chromatype" font --layer examples/fonts/bungee-shade-latin.woff2=#0078bf --layer examples/fonts/bungee-latin.woff2=#ffe800 --lead 2 --palette 'N:0=#000000' --format colr0,colr1 --text 'AB' -o "$T/f.woff2"
run "$B/chromatype" font tests/fonts/ct-colr0-cff.otf -f 'shadow:steps=3' -o "$T/g.ttf"
run "$B/chromatype" font tests/fonts/ct-colr1.ttf --format svg --text "$(printf '\356\200\200\356\200\201\356\200\207')" -o "$T/h.ttf"
# fonts from artwork: the committed Twemoji files read in parallel, COLRv1 and OT-SVG
run "$B/chromatype" font --svg tests/artwork/twemoji --format colr1,svg -o "$T/art.ttf"
# an effect axis (masters, a variable COLRv1 through hb-subset), its specimen, drawn at a place
run "$B/chromatype" font examples/fonts/bungee-latin.woff2 -f 'shadow:steps=4,offset=0.02em..0.1em@EXTR' \
  --axis 'EXTR=0:100' --masters 3 --text AB -o "$T/axis.ttf" --specimen "$T/axis.html"
run "$B/chromatype" view "$T/axis.ttf" AB --variations=EXTR=40 -o "$T/axis.png"
# a randomized font: variants, GSUB merged with calt and rand
run "$B/chromatype" font examples/fonts/bungee-latin.woff2 -f 'misregistration:per=glyph' --randomize 2 --text AB \
  -o "$T/rand.ttf"
run "$B/chromatype" tests/lua/run.lua
# the sandbox: a confined child forked by the command (valgrind knows neither Landlock nor
# seccomp, so the run says so and goes on with the path rules), a font read, a PNG written
mkdir "$T/sb" && cp tests/fonts/ct-colr0.ttf "$T/sb/"
printf 'local ct = require "chromatype"\nlocal f = assert(ct.open_font("ct-colr0.ttf"))\nlocal c = ct.canvas { width = 200, height = 80 }\nc:text { "AB", font = f, x = 10, y = 60, size = 48 }\nassert(c:write("sb.png"))\nassert(#ct.read_file("sb.png") > 100)\n' > "$T/sb/sb.lua"
CT=$(cd "$(dirname "$B/chromatype")" && pwd)/chromatype
cd "$T/sb" || exit 1
run "$CT" --sandbox sb.lua
cd "$ROOT" || exit 1
[ -s "$T/sb/sb.png" ] || { fail=$((fail + 1)); echo "valgrind: FAIL: the sandboxed run wrote no sb.png"; }
echo "valgrind: $pass passed, $fail failed"
