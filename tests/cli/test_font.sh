#!/bin/sh
# test_font.sh: `chromatype font`, judged by the tools of the field.  Every font written
# passes ots-sanitize (the sanitizer browsers run on web fonts) and reads back in fontTools
# and `chromatype info`; the exported Bungee stack (every palette), Twemoji with skin-tone
# palettes, a baked extrusion and an OT-SVG export draw, in Chromium and Firefox (the
# committed references of tests/fontmake/make_refs.sh), as chromatype draws their sources;
# the command's sources (a font, --layer, an XML document's stack, a Lua script's), formats,
# WOFF2 and subsets; bad input gets one line and no file.
SUITE=font
. tests/cli/lib.sh
B=${CT_BUILD:-build}
CT=$B/chromatype
PY=/usr/bin/python3
dir=tests/fontmake
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
. "$dir/fonts.sh"

have_ots=1
command -v ots-sanitize > /dev/null 2>&1 || { have_ots=0; bad "ots-sanitize missing (Debian opentype-sanitizer: make check installs it)"; }

# ots-sanitize, fontTools and chromatype info read FILE; fontTools must find TABLES.
sane() {   # FILE TABLES...
  f=$1; shift
  if [ "$have_ots" = 1 ]; then
    if out=$(ots-sanitize "$f" "$t/ots.out" 2>&1); then ok; else bad "ots-sanitize $(basename "$f"): $out"; fi
  fi
  if out=$($PY - "$f" "$@" 2>&1 <<'EOF'
import sys
from fontTools.ttLib import TTFont
f = TTFont(sys.argv[1])
for tag in sys.argv[2:]:
    assert tag in f, "no %s table" % tag
f.getGlyphOrder()
for tag in f.keys():
    if tag != "GlyphOrder":
        f[tag]          # decompile every table
if "COLR" in f and "CPAL" in f:
    n = len(f["CPAL"].palettes[0])
    c = f["COLR"]
    if c.version == 0:
        for base, layers in c.ColorLayers.items():
            for l in layers:
                assert l.colorID == 0xFFFF or l.colorID < n, "%s: palette entry %d of %d" % (base, l.colorID, n)
print("ok")
EOF
  ); then ok; else bad "fontTools $(basename "$f"): $out"; fi
  expect 0 "Color formats" "$CT" info "$f"
}

# ---- the fonts of the browser references ------------------------------------------------------
if ! out=$(export_fonts "$CT" "$t" 2>&1); then bad "export_fonts: $out"; fi
sane "$t/bungee-riso.ttf" COLR CPAL GSUB GPOS
sane "$t/bungee-riso-svg.ttf" "SVG " GPOS
sane "$t/twemoji-tones.ttf" COLR CPAL
sane "$t/bungee-extruded.ttf" COLR CPAL
# the references were made from these very files
for f in $FONTS; do
  want=$(grep " $f.ttf\$" "$dir/ref/SHA256SUMS" | cut -d' ' -f1)
  got=$(cd "$t" && sha256sum "$f.ttf" | cut -d' ' -f1)
  if [ -n "$want" ] && [ "$want" = "$got" ]; then ok
  else bad "$f.ttf is not the font tests/fontmake/ref was made from: run tests/fontmake/make_refs.sh (with ../shared/oracle)"; fi
done
# palettes, types, names and labels as written
expect 0 'palette 1 "Night" \[dark background\]' "$CT" info "$t/bungee-riso.ttf"
expect 0 'Bungee Hairline' "$CT" info "$t/bungee-riso.ttf"
expect 0 'palette 3 "Dark" \[light background\]' "$CT" info "$t/twemoji-tones.ttf"
expect 0 'Family: *Bungee Extruded' "$CT" info "$t/bungee-extruded.ttf"

# chromatype's drawing of each source against the browsers' drawing of the font made from it
cmp_ref() {   # NAME LIMITS -- draw.lua arguments
  name=$1 limits=$2; shift 3
  if ! out=$("$CT" "$dir/draw.lua" "$t/$name.png" 6 "$@" 2>&1); then bad "draw $name: $out"; return; fi
  # shellcheck disable=SC2086
  if res=$("$B/tests/imgcmp" "$t/$name.png" "$dir/ref/$name.png" $limits); then ok
  else bad "$name against the browser: $res (limits $limits)"; fi
}
FLAT="--max-mae 0.8 --min-psnr 34 --max-percent 0.5"
cmp_ref bungee-riso-p0 "$FLAT" -- "$BUNGEE_TEXT" "$RISO_STACK"
cmp_ref bungee-riso-p1 "$FLAT" -- "$BUNGEE_TEXT" "$RISO_STACK_P1"
cmp_ref bungee-riso-p2 "$FLAT" -- "$BUNGEE_TEXT" "$RISO_STACK_P2"
cmp_ref bungee-riso-svg "$FLAT" -- "$BUNGEE_TEXT" "$RISO_STACK"
cmp_ref twemoji-tones-p0 "$FLAT" -- "$EMOJI_TEXT" "$TWEMOJI"
cmp_ref twemoji-tones-p1 "$FLAT" -- "$EMOJI_TEXT" "$TWEMOJI" "recolor=$TONE_LIGHT"
cmp_ref twemoji-tones-p2 "$FLAT" -- "$EMOJI_TEXT" "$TWEMOJI" "recolor=$TONE_MEDIUM"
cmp_ref twemoji-tones-p3 "$FLAT" -- "$EMOJI_TEXT" "$TWEMOJI" "recolor=$TONE_DARK"
cmp_ref bungee-extruded "$FLAT" -- "$BUNGEE_TEXT" "$REGULAR" "filter=$EXTRUSION"
# ... and a wrong palette is caught: palette 1 of the stack is not palette 0's drawing
"$CT" "$dir/draw.lua" "$t/wrong.png" 6 "$BUNGEE_TEXT" "$RISO_STACK" > /dev/null 2>&1
if "$B/tests/imgcmp" "$t/wrong.png" "$dir/ref/bungee-riso-p1.png" $FLAT > /dev/null; then
  bad "palette 0's drawing passes for palette 1's"; else ok; fi

# ---- sources, formats, outputs ------------------------------------------------------------------
cat > "$t/doc.xml" <<EOF
<document><stack name="riso" lead="2" warn="no"><layer font="$PWD/$SHADE" color="#0078bf"/>
<layer font="$PWD/$REGULAR" color="#ffe800"/></stack>
<stack name="solo"><layer font="$PWD/$REGULAR" color="#ff0000"/></stack>
<page><frame><p>x</p></frame></page></document>
EOF
expect 0 "" "$CT" font "$t/doc.xml" --stack riso --format colr0,colr1 -o "$t/xml.ttf"
sane "$t/xml.ttf" COLR CPAL
expect 0 "COLRv1" "$CT" info "$t/xml.ttf"
expect 1 "defines 2 stacks (riso, solo): choose one with --stack" "$CT" font "$t/doc.xml" -o "$t/x.ttf"
expect 1 "no stack 'nope' (it defines riso, solo)" "$CT" font "$t/doc.xml" --stack nope -o "$t/x.ttf"
cat > "$t/stack.lua" <<EOF
local ct = require "chromatype"
return ct.stack { { font = "$PWD/$SHADE", color = "#222222", offset = { 0.01, 0.01 } }, { font = "$PWD/$REGULAR", color = "#ff8800" }, lead = 2 }
EOF
expect 0 "" "$CT" font "$t/stack.lua" -o "$t/lua.woff2" --text 'AB'
sane "$t/lua.woff2" COLR CPAL
expect 0 "Container: *WOFF2" "$CT" info "$t/lua.woff2"
expect 0 "" "$CT" font --layer tests/fonts/ct-colr0-cff.otf=#ff0000 --layer tests/fonts/ct-colr0.ttf=#0000ff -o "$t/cff.ttf"
sane "$t/cff.ttf" COLR CPAL glyf
expect 0 "Container: *TrueType" "$CT" info "$t/cff.ttf"
expect 0 "" "$CT" font tests/fonts/ct-colr1.ttf --format svg -o "$t/nosweep.ttf" --text "$(printf '\356\200\200\356\200\201')"
sane "$t/nosweep.ttf" "SVG "
expect 0 "" "$CT" font tests/fonts/ct-colr0.ttf --format colr1,svg -o "$t/colr0-as-v1.ttf"
sane "$t/colr0-as-v1.ttf" COLR "SVG "
expect 0 "" "$CT" font tests/fonts/ct-colr0.ttf --palette 'Warm:0=#ff8800' --palette-type light --label '0=Skin' --label '2=Ink' -o "$t/labels.ttf"
sane "$t/labels.ttf" CPAL
expect 0 "#FF8800FF  Skin" "$CT" info "$t/labels.ttf"
expect 0 'palette 3 "Warm" \[light background\]' "$CT" info "$t/labels.ttf"
expect 0 "Usage: chromatype font" "$CT" font --help

# ---- round trips: a color font read into paint trees and written again draws as it did --------
expect 0 "" "$CT" font tests/fonts/ct-colr1.ttf --format colr1 -o "$t/colr1-again.ttf"
sane "$t/colr1-again.ttf" COLR CPAL
"$B/tests/ctgrid" tests/fonts/ct-colr1.ttf "$t/colr1-orig.png" --cols 8 --codepoints U+E000-U+E04F 2> /dev/null
"$B/tests/ctgrid" "$t/colr1-again.ttf" "$t/colr1-again.png" --cols 8 --codepoints U+E000-U+E04F 2> /dev/null
# every paint format, extend, composite mode and clip box of ct-colr1: the same pixels ...
if res=$("$B/tests/imgcmp" "$t/colr1-again.png" "$t/colr1-orig.png" --max-mae 0.05 --cell 72 --cell-max-mae 0.1); then ok
else bad "ct-colr1 written again: $res"; fi
# ... and within the render goldens' limits of Chromium's drawing of the original
if res=$("$B/tests/imgcmp" "$t/colr1-again.png" tests/render/ref/ct-colr1.chromium.png --max-mae 0.8 --min-psnr 33 \
    --max-percent 0.8 --cell 72 --cell-max-mae 2.0 --loose 10,21 --loose-max-mae 8); then ok
else bad "ct-colr1 written again against Chromium: $res"; fi
# the COLRv1 conformance glyphs (../shared), where present
conf=../shared/fonts/color-fonts/test_glyphs-glyf_colr_1.ttf
if [ -f "$conf" ]; then
  expect 0 "" "$CT" font "$conf" --format colr1 -o "$t/conf-again.ttf"
  sane "$t/conf-again.ttf" COLR CPAL
  cps=U+F0100-U+F0103,U+F0200-U+F0247,U+F0300-U+F0305,U+F0500-U+F0508,U+F0600-U+F0603,U+F0700-U+F0705,U+F0800-U+F0803,U+F0900-U+F0906,U+F0A00-U+F0A1B,U+F0B00-U+F0B07,U+F0C00-U+F0C0A,U+F0D00,U+F0E00-U+F0E01,U+F0F00-U+F0F06,U+F1000,U+F1100-U+F1101,U+F1200,U+F1300-U+F1317,U+F1400-U+F140F
  "$B/tests/ctgrid" "$conf" "$t/conf-orig.png" --cols 8 --codepoints "$cps" 2> /dev/null
  "$B/tests/ctgrid" "$t/conf-again.ttf" "$t/conf-again.png" --cols 8 --codepoints "$cps" 2> /dev/null
  if res=$("$B/tests/imgcmp" "$t/conf-again.png" "$t/conf-orig.png" --max-mae 0.05 --cell 72 --cell-max-mae 0.2); then ok
  else bad "COLRv1 conformance glyphs written again: $res"; fi
else
  echo "font: skip the conformance round trip: $conf not found (../shared absent)"
fi

# ---- bad input: one line, exit 1 (2 for usage), no file ----------------------------------------
nofile() {   # STATUS PATTERN OUT -- CMD...: fails as said and leaves no OUT (nor a temporary)
  st=$1 pat=$2 o=$3; shift 4
  expect "$st" "$pat" "$@"
  if ls "$o"* > /dev/null 2>&1; then bad "$o (or a temporary of it) left behind by: $*"; else ok; fi
}
nofile 1 "cannot open font\|No such file" "$t/a.ttf" -- "$CT" font "$t/missing.ttf" -o "$t/a.ttf"
nofile 1 "layer 2 (ct-cbdt.ttf) has none of the lead's glyphs" "$t/b.ttf" -- \
  "$CT" font --layer tests/fonts/ct-colr0.ttf --layer tests/fonts/ct-cbdt.ttf=#ff0000 -o "$t/b.ttf"
if [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then
  nofile 1 "has 2048 units per em and the lead (ct-colr0.ttf) has 1000" "$t/c.ttf" -- \
    "$CT" font --layer tests/fonts/ct-colr0.ttf --layer /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf=#ff0000 -o "$t/c.ttf"
fi
nofile 1 "filter misregistration: Layer: cannot be baked into a font: it reads ctx" "$t/d.ttf" -- \
  "$CT" font "$REGULAR" -f misregistration -o "$t/d.ttf"
nofile 1 "COLRv0 cannot hold glyph .*: it fills a glyph with a gradient" "$t/e.ttf" -- \
  "$CT" font "$REGULAR" -f 'gradient:per=glyph' --format colr0 -o "$t/e.ttf"
nofile 1 "OT-SVG cannot hold glyph .*sweep gradients have no SVG equivalent" "$t/f.ttf" -- \
  "$CT" font tests/fonts/ct-colr1.ttf --format svg -o "$t/f.ttf"
nofile 1 "has no palette to start from" "$t/g.ttf" -- "$CT" font "$REGULAR" --palette 'x:0=#ff0000' -o "$t/g.ttf"
nofile 1 "entry 7 out of range (the font's palettes have entries 0..2)" "$t/h.ttf" -- \
  "$CT" font --layer "$SHADE=#000" --layer "$REGULAR=#f00" --layer "$HAIRLINE=#00f" --palette 'x:7=#ff0000' -o "$t/h.ttf"
nofile 2 "unknown format 'colr2'" "$t/i.ttf" -- "$CT" font "$REGULAR" --format colr2 -o "$t/i.ttf"
nofile 2 "--palette-type: expected light or dark" "$t/j.ttf" -- "$CT" font "$REGULAR" --palette-type dusk -o "$t/j.ttf"
nofile 2 "-o OUT.ttf is required" "$t/k.ttf" -- "$CT" font "$REGULAR"
nofile 1 "--label '7': IDX=TEXT expected" "$t/k2.ttf" -- "$CT" font tests/fonts/ct-colr0.ttf --label 7 -o "$t/k2.ttf"
nofile 1 "--lead goes with --layer" "$t/l.ttf" -- "$CT" font "$REGULAR" --lead 2 -o "$t/l.ttf"
nofile 1 "give either SOURCE or --layer" "$t/m.ttf" -- "$CT" font "$REGULAR" --layer "$REGULAR" -o "$t/m.ttf"
printf 'not a font' > "$t/junk.ttf"
nofile 1 "junk.ttf" "$t/n.ttf" -- "$CT" font "$t/junk.ttf" -o "$t/n.ttf"
nofile 1 "cannot write" "$t/nodir/o.ttf" -- "$CT" font "$REGULAR" -f shadow -o "$t/nodir/o.ttf"
finish
