#!/bin/sh
# test_font_randomize.sh: randomization inside the font (chromatype font --randomize N).
# The fonts of tests/fontmake/randomize.sh (Bungee through misregistration, and a layered
# Bungee whose layers each go out of register) carry three variants of each letter: GSUB
# calt cycles a run through the letter and its variants, rand offers the variants.  Checked:
# ots-sanitize and fontTools (the features, the lookups, the variants' glyphs), hb-shape of a
# repeated letter (at least three different glyphs in a row, with rand off and on), the
# variants' drawings differ, chromatype's drawing of the line against Chromium's
# (tests/fontmake/ref-random/, make_randomize_refs.sh; Chromium with rand on shows at least
# three different drawings in a row too), then the refusals.
SUITE=font_randomize
. tests/cli/lib.sh
B=${CT_BUILD:-build}
CT=$B/chromatype
CMP=$B/tests/imgcmp
PY=/usr/bin/python3
dir=tests/fontmake
REF=$dir/ref-random
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
. "$dir/fonts.sh"
. "$dir/randomize.sh"

if out=$(export_random_fonts "$CT" "$t" 2>&1); then ok; else bad "export_random_fonts: $out"; fi
same_sums "$REF" "$t" fonts "$dir/make_randomize_refs.sh"
for f in $RANDOM_FONTS; do
  if command -v ots-sanitize > /dev/null 2>&1; then expect 0 "" ots-sanitize "$t/$f.ttf"; fi
  expect 0 "^ok" $PY - "$t/$f.ttf" <<'PY'
import sys
from fontTools.ttLib import TTFont
f = TTFont(sys.argv[1])
g = f["GSUB"].table
tags = [r.FeatureTag for r in g.FeatureList.FeatureRecord]
assert "calt" in tags and "rand" in tags, tags
assert tags == sorted(tags), tags
order = f.getGlyphOrder()
assert "A.rand1" in order and "A.rand3" in order and "A.rand4" not in order, order[-6:]
alts = [l for l in g.LookupList.Lookup if l.LookupType == 3]
assert alts and alts[-1].SubTable[0].alternates["A"] == ["A.rand1", "A.rand2", "A.rand3"], alts[-1].SubTable[0].alternates.get("A")
for s in g.ScriptList.ScriptRecord:
    idx = s.Script.DefaultLangSys.FeatureIndex
    assert {tags[i] for i in idx} >= {"calt", "rand"}, (s.ScriptTag, idx)
colr = f["COLR"]
for n in ("A", "A.rand1", "A.rand2", "A.rand3"):
    assert n in colr.ColorLayers, n
print("ok")
PY
done

# hb-shape: a run of one letter gives at least three different glyphs in a row
for feat in "-rand" ""; do
  if g=$(hb-shape --no-positions --no-clusters ${feat:+--features=$feat} "$t/bungee-jitter.ttf" "$RANDOM_LINE" 2>&1); then
    if $PY -c "
import sys
g = sys.argv[1].strip('[]').split('|')
run = max(len(set(g[i:i + 3])) for i in range(len(g) - 2))
assert len(g) == 8 and run == 3, g
if sys.argv[2] == '-rand':
    assert g == ['A', 'A.rand1', 'A.rand2', 'A.rand3'] * 2, g
" "$g" "$feat"; then ok; else bad "hb-shape ${feat:-(rand on)}: $g"; fi
  else bad "hb-shape: $g"; fi
done

# the line: chromatype's drawing (calt, rand off) against Chromium's; Chromium's cells differ
set -- $RANDOM_GEOMETRY
for f in $RANDOM_FONTS; do
  if ! out=$("$CT" "$dir/line.lua" "$t/$f.png" "$t/$f.ttf" "$RANDOM_LINE" "$@" -rand 2>&1); then bad "line.lua $f: $out"; continue; fi
  # (the layered font's hairlines are where Skia's coverage and chromatype's part most)
  if r=$("$CMP" "$t/$f.png" "$REF/$f-calt.png" --max-mae 0.5 --max-percent 0.5 --min-psnr 36); then ok
  else bad "$f: chromatype's drawing of the line vs Chromium's: $r"; fi
  expect 0 "^ok" $PY - "$t/$f.png" "$REF/$f-calt.png" "$REF/$f-rand.png" "$1" "$4" <<'PY'
import sys
from PIL import Image
import numpy as np
size, x0 = int(sys.argv[4]), int(sys.argv[5])
adv = round(size * 0.73)   # Bungee's A: 730 units of 1000
def cells(path):
    a = np.asarray(Image.open(path).convert("RGB"), float)
    return [a[:, x0 + i * adv:x0 + (i + 1) * adv] for i in range(8)]
def distinct(cs, i):   # how many of cells i, i+1, i+2 differ from each other
    out = []
    for c in cs[i:i + 3]:
        if all(np.abs(c - d).mean() > 2 for d in out): out.append(c)
    return len(out)
for p in sys.argv[1:4]:
    cs = cells(p)
    assert max(distinct(cs, i) for i in range(6)) == 3, (p, "no three different drawings in a row")
ours, calt = cells(sys.argv[1]), cells(sys.argv[2])
assert np.abs(ours[0] - ours[4]).mean() < 2, "the rotation does not come round after four"
print("ok")
PY
done

# ---- refusals: one line, exit 1, no font --------------------------------------------------
x=$t/no.ttf
expect 1 "randomize: the filters draw nothing random" "$CT" font "$REGULAR" -f 'shadow' --randomize 3 --text A -o "$x"
cat > "$t/where.lua" <<'LUA'
return { Glyph = function(g, ctx) g.color = g.x > 10 and "#ff0000" or "#0000ff" end }
LUA
expect 1 "reads glyph.x (its position)" "$CT" font "$REGULAR" -f "$t/where.lua" --randomize 2 --text A -o "$x"
expect 1 "randomize: goes with filters baked into a font" "$CT" font "$REGULAR" -f 'shadow:offset=0.02em..0.1em@EXTR' \
  --axis 'EXTR=0:100' -f misregistration:per=glyph --randomize 2 --text A -o "$x"
expect 1 "randomize: no filter" "$CT" font "$REGULAR" --randomize 2 --text A -o "$x"
expect 2 "randomize" "$CT" font "$REGULAR" -f misregistration:per=glyph --randomize 0 -o "$x"
expect 2 "randomize" "$CT" font --svg tests/artwork/twemoji --randomize 2 -o "$x"
# a hostile GSUB in the lead: truncated, offsets past its end, an unknown version
if $PY - "$t/riso-source.ttf" "$t" <<'PY'
import struct, sys
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables.DefaultTable import DefaultTable
for name, data in (("trunc", b"\x00\x01\x00\x00\x00"), ("badoff", struct.pack(">HHHHH", 1, 0, 0xFFF0, 0xFFF0, 0xFFF0)),
                   ("badver", struct.pack(">HHHHH", 2, 0, 10, 10, 10))):
    f = TTFont(sys.argv[1])
    g = DefaultTable("GSUB")
    g.data = data
    f["GSUB"] = g
    f.save(f"{sys.argv[2]}/hostile-{name}.ttf")
PY
then
  expect 1 "hostile-trunc.ttf: a truncated GSUB (5 bytes)" "$CT" font "$t/hostile-trunc.ttf" -f misregistration:per=glyph \
    --randomize 2 -o "$x"
  expect 1 "hostile-badoff.ttf: a GSUB whose offsets point past its end" "$CT" font "$t/hostile-badoff.ttf" \
    -f misregistration:per=glyph --randomize 2 -o "$x"
  expect 1 "hostile-badver.ttf: a GSUB of an unknown version (2.0)" "$CT" font "$t/hostile-badver.ttf" \
    -f misregistration:per=glyph --randomize 2 -o "$x"
else bad "fontTools could not write the hostile fonts"; fi
[ ! -e "$x" ] && ok || bad "a refused run left a font"
finish
