#!/bin/sh
# test_font_axes.sh: effects as variable axes (chromatype font --axis, docs/fonts.md).  The
# fonts of tests/fontmake/axes.sh (an extrusion whose depth is an axis; a gradient whose
# angle is one, baked at four masters) are read back by ots-sanitize and fontTools (fvar,
# STAT, the COLR variation store, PaintVar* records), drawn by chromatype at five places of
# each axis against chromatype drawing the filters at the same values (exact at the masters)
# and against Chromium's drawings of the fonts (tests/fontmake/ref-axes/, made by
# make_axis_refs.sh); then the refusals.
SUITE=font_axes
. tests/cli/lib.sh
B=${CT_BUILD:-build}
CT=$B/chromatype
CMP=$B/tests/imgcmp
PY=/usr/bin/python3
dir=tests/fontmake
REF=$dir/ref-axes
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
. "$dir/fonts.sh"
. "$dir/axes.sh"

if out=$(export_axis_fonts "$CT" "$t" 2>&1); then ok; else bad "export_axis_fonts: $out $(cat "$t"/*.report)"; fi
same_sums "$REF" "$t" fonts "$dir/make_axis_refs.sh"
expect 0 "" grep -q "axis EXTR (Extrusion): baked at 2 points; the effect is linear between them" "$t/bungee-extrude-axis.report"
expect 0 "" grep -q "axis GANG (Gradient angle): baked at 4 points; sampled: halfway between them the font is up to" \
  "$t/bungee-gradient-axis.report"
if command -v ots-sanitize > /dev/null 2>&1; then
  for f in $AXIS_FONTS; do expect 0 "" ots-sanitize "$t/$f.ttf"; done
else bad "ots-sanitize missing (Debian opentype-sanitizer)"; fi

# fontTools: the axis, its name, STAT, the variation store and the variable paints
readback() {   # FONT TAG MIN DEFAULT MAX NAME MASTERS FORMATS
  $PY - "$@" <<'PY'
import sys
from fontTools.ttLib import TTFont
path, tag, lo, de, hi, name, masters, formats = sys.argv[1:]
f = TTFont(path)
for k in f.keys():
    if k != "GlyphOrder":
        f[k]
ax = f["fvar"].axes
assert [a.axisTag for a in ax] == [tag], ax
a = ax[0]
assert (a.minValue, a.defaultValue, a.maxValue) == (float(lo), float(de), float(hi)), (a.minValue, a.defaultValue, a.maxValue)
assert f["name"].getDebugName(a.axisNameID) == name, f["name"].getDebugName(a.axisNameID)
st = f["STAT"].table
assert [r.AxisTag for r in st.DesignAxisRecord.Axis] == [tag]
c = f["COLR"].table
vs = c.VarStore
assert vs is not None, "no ItemVariationStore"
assert vs.VarRegionList.RegionCount == int(masters), vs.VarRegionList.RegionCount
assert vs.VarData[0].ItemCount > 0
seen = set()
def walk(p, depth=0):
    seen.add(p.Format)
    for k in ("Paint", "SourcePaint", "BackdropPaint"):
        if hasattr(p, k) and getattr(p, k) is not None:
            walk(getattr(p, k), depth + 1)
    if p.Format == 1:
        for i in range(p.FirstLayerIndex, p.FirstLayerIndex + p.NumLayers):
            walk(c.LayerList.Paint[i], depth + 1)
for r in c.BaseGlyphList.BaseGlyphPaintRecord:
    walk(r.Paint)
for want in formats.split(","):
    assert int(want) in seen, "no paint of format %s (formats %s)" % (want, sorted(seen))
print("ok")
PY
}
expect 0 "^ok" readback "$t/bungee-extrude-axis.ttf" EXTR 0 0 100 Extrusion 1 15
expect 0 "^ok" readback "$t/bungee-gradient-axis.ttf" GANG 0 0 90 "Gradient angle" 3 5
expect 0 "EXTR" "$CT" info "$t/bungee-extrude-axis.ttf"

# chromatype's drawing of the font at a place of its axis against its drawing of the filter
# there; Chromium's drawing of the font against the filter too
drawn() {   # NAME FONT TAG VALUE FILTER LIMITS
  name=$1 font=$2 tag=$3 v=$4 filt=$5 lim=$6
  if ! out=$("$CT" "$dir/draw.lua" "$t/$name-font.png" 6 "$BUNGEE_TEXT" "$t/$font.ttf" "variations=$tag=$v" 2>&1) ||
     ! out=$("$CT" "$dir/draw.lua" "$t/$name-filter.png" 6 "$BUNGEE_TEXT" "$REGULAR" "filter=$filt" 2>&1); then
    bad "draw $name: $out"
    return
  fi
  # shellcheck disable=SC2086
  if r=$("$CMP" "$t/$name-font.png" "$t/$name-filter.png" $lim); then ok
  else bad "$name: chromatype's drawing of the font vs of the filter: $r (limits $lim)"; fi
  if r=$("$CMP" "$REF/$name.png" "$t/$name-filter.png" --max-mae 0.6 --max-percent 0.3 --min-psnr 36); then ok
  else bad "$name: Chromium's drawing of the font vs chromatype's of the filter: $r"; fi
}
EXACT="--max-mae 0.1 --max-percent 0 --min-psnr 48"
for v in $EXTR_VALUES; do
  o=$($PY -c "import sys; print('%.4gem' % (0.02 + 0.1 * float(sys.argv[1]) / 100))" "$v")
  drawn "extrude-EXTR$v" bungee-extrude-axis EXTR "$v" "$(EXTRUDE_AT "$o")" "$EXACT"
done
for v in $GANG_VALUES; do
  # the masters (0 30 60 90) exactly; 45 halfway between two, as the font blends them
  case $v in 45) lim="--max-mae 0.5 --max-percent 0.1 --min-psnr 40" ;; *) lim=$EXACT ;; esac
  drawn "gradient-GANG$v" bungee-gradient-axis GANG "$v" "$(GRADIENT_AT "$v")" "$lim"
done
# the font does vary: its ends differ
if "$CMP" "$t/extrude-EXTR0-font.png" "$t/extrude-EXTR100-font.png" > /dev/null; then bad "EXTR=0 and EXTR=100 draw alike"; else ok; fi

# a filter of one's own: an alpha along an axis is PaintVarSolid; a hue is refused
cat > "$t/fade.lua" <<'LUA'
local filter = require "chromatype.filter"
local o = filter.options(..., "fade")
local alpha = o:number("alpha", 1, 0, 1)
local hue = o:number("hue", nil, 0, 360)
o:check()
local function fade(p)
  if type(p) ~= "table" then return end
  if p.kind == "solid" then p.color = { rgba = "#000000", alpha = alpha } end
  for _, k in ipairs({ "child", "source", "backdrop" }) do fade(p[k]) end
  for _, c in ipairs(p.children or {}) do fade(c) end
end
return { Layer = function(layer)
  layer.color = hue and ("hsl(%g, 80%%, 45%%)"):format(hue) or "#1d3557"
  fade(layer.paint)
end }
LUA
expect 0 "axis FADE (Fade): baked at 2 points; the effect is linear" "$CT" font "$REGULAR" -f "$t/fade.lua:alpha=0.2..1@FADE" \
  --axis 'FADE=0:100:100,name=Fade' --text AB -o "$t/fade.ttf"
expect 0 "^ok" readback "$t/fade.ttf" FADE 0 100 100 Fade 1 3
if "$CT" "$dir/draw.lua" "$t/fade0.png" 2 "A,B" "$t/fade.ttf" variations=FADE=0 > "$t/out" 2>&1 &&
   "$CT" "$dir/draw.lua" "$t/fade0-f.png" 2 "A,B" "$REGULAR" "filter=$t/fade.lua:alpha=0.2" >> "$t/out" 2>&1 &&
   r=$("$CMP" "$t/fade0.png" "$t/fade0-f.png" $EXACT); then ok
else bad "fade at FADE=0 vs the filter at alpha 0.2: $r $(cat "$t/out")"; fi
expect 1 "a color changes" "$CT" font "$REGULAR" -f "$t/fade.lua:hue=0..120@HUEA" --axis 'HUEA=0:100' --text A -o "$t/no.ttf"
# a turn along an axis: PaintVarTransform, its 16.16 deltas past 16 bits (long deltas)
cat > "$t/turn.lua" <<'LUA'
local filter = require "chromatype.filter"
local o = filter.options(..., "turn")
local angle = o:number("angle", 0, -90, 90)
o:check()
return { Layer = function(layer, ctx)
  layer.paint = filter.turned(layer.paint, layer.font, ctx.glyph.advance, ctx.glyph.size, angle)
end }
LUA
expect 0 "axis TURN (Turn): baked at 5 points; sampled" "$CT" font "$REGULAR" -f "$t/turn.lua:angle=-30..30@TURN" \
  --axis 'TURN=-30:0:30,name=Turn' --masters 5 --text AB -o "$t/turn.ttf"
expect 0 "^ok" readback "$t/turn.ttf" TURN -30 0 30 Turn 4 13
expect 0 "^long" $PY -c "
import sys
from fontTools.ttLib import TTFont
d = TTFont(sys.argv[1])['COLR'].table.VarStore.VarData[0]
print('long' if max(abs(x) for row in d.Item for x in row) > 32767 else 'short')" "$t/turn.ttf"
if "$CT" "$dir/draw.lua" "$t/turn15.png" 2 "A,B" "$t/turn.ttf" variations=TURN=15 > "$t/out" 2>&1 &&
   "$CT" "$dir/draw.lua" "$t/turn15-f.png" 2 "A,B" "$REGULAR" "filter=$t/turn.lua:angle=15" >> "$t/out" 2>&1 &&
   r=$("$CMP" "$t/turn15.png" "$t/turn15-f.png" --max-mae 0.15 --max-percent 0.05 --min-psnr 44); then ok
else bad "turn at TURN=15 (a master) vs the filter at 15 degrees: $r $(cat "$t/out")"; fi

# a variable color font with a new palette keeps its design space: Chromium draws the
# exported Nabla with palette 7 at three places of EDPT and EHLT as chromatype draws the
# original there with palette 0's entries overridden by those colors
expect 0 "^ok" $PY - "$t/nabla-teal.ttf" <<'PY'
import sys
from fontTools.ttLib import TTFont
f = TTFont(sys.argv[1])
assert [a.axisTag for a in f["fvar"].axes] == ["EDPT", "EHLT"], f["fvar"].axes
for tag in ("gvar", "HVAR", "STAT", "COLR"):
    assert tag in f, "no " + tag
assert len(f["CPAL"].palettes) == 8, len(f["CPAL"].palettes)
print("ok")
PY
for loc in $NABLA_LOCATIONS; do
  name=nabla-teal-$(echo "$loc" | tr -d '=,')
  if out=$("$CT" "$dir/draw.lua" "$t/$name.png" 6 "$NABLA_TEXT" "$NABLA" "variations=$loc" \
             "override=$(echo "$TEAL" | tr , ';')" 2>&1) &&
     r=$("$CMP" "$t/$name.png" "$REF/$name.png" --max-mae 0.4 --max-percent 0.1 --min-psnr 42); then ok
  else bad "$name: chromatype's drawing of Nabla at $loc with the palette vs Chromium's of the export: $out $r"; fi
done

# a variable TrueType font with a filter baked in keeps its axis: its gvar, extended to the
# glyphs written, varies the outlines the COLRv1 graph paints; Chromium's drawing and
# chromatype's at three widths against chromatype drawing the filter on the original there
if [ -s "$t/wdth-shadow.report" ]; then bad "wdth-shadow: $(cat "$t/wdth-shadow.report")"; else ok; fi
expect 0 "^ok" $PY - "$t/wdth-shadow.ttf" <<'PY'
import sys
from fontTools.ttLib import TTFont
f = TTFont(sys.argv[1])
assert [a.axisTag for a in f["fvar"].axes] == ["wdth"], f["fvar"].axes
assert len(f["gvar"].variations) == f["maxp"].numGlyphs, (len(f["gvar"].variations), f["maxp"].numGlyphs)
assert f["COLR"].version == 1
print("ok")
PY
for v in $WDTH_VALUES; do
  if out=$("$CT" "$dir/draw.lua" "$t/wdth-$v-filter.png" 6 "$WDTH_TEXT" "$WDTH" "variations=wdth=$v" "filter=$WDTH_SHADOW" 2>&1) &&
     out=$("$CT" "$dir/draw.lua" "$t/wdth-$v-font.png" 6 "$WDTH_TEXT" "$t/wdth-shadow.ttf" "variations=wdth=$v" 2>&1) &&
     r=$("$CMP" "$t/wdth-$v-font.png" "$t/wdth-$v-filter.png" $EXACT) &&
     r=$("$CMP" "$REF/wdth-shadow-$v.png" "$t/wdth-$v-filter.png" --max-mae 0.2 --max-percent 0.05 --min-psnr 48); then ok
  else bad "wdth-shadow at wdth=$v: $out $r"; fi
done
if "$CMP" "$t/wdth-50-font.png" "$t/wdth-100-font.png" > /dev/null; then bad "wdth=50 and wdth=100 draw alike"; else ok; fi
# Nabla (WOFF2, COLRv1 whose outlines gvar varies) with a shadow baked in keeps EDPT and EHLT:
# chromatype's drawing of it at three places equals the shadow baked into Nabla's instance
# there, and so does Chromium's (ref-axes/nabla-shadow-*)
if [ -s "$t/nabla-shadow.report" ]; then bad "nabla-shadow: $(cat "$t/nabla-shadow.report")"; else ok; fi
expect 0 "^ok" $PY - "$t/nabla-shadow.ttf" <<'PY'
import sys
from fontTools.ttLib import TTFont
f = TTFont(sys.argv[1])
assert [a.axisTag for a in f["fvar"].axes] == ["EDPT", "EHLT"], f["fvar"].axes
assert len(f["gvar"].variations) == f["maxp"].numGlyphs
assert "HVAR" in f and "STAT" in f
print("ok")
PY
for loc in $NABLA_LOCATIONS; do
  name=nabla-shadow-$(echo "$loc" | tr -d '=,')
  if out=$("$CT" font "$NABLA" --variations "$loc" -f "$NABLA_SHADOW" --text NABLA -o "$t/$name-static.ttf" 2>&1) &&
     out=$("$CT" "$dir/draw.lua" "$t/$name-static.png" 6 "$NABLA_TEXT" "$t/$name-static.ttf" 2>&1) &&
     out=$("$CT" "$dir/draw.lua" "$t/$name.png" 6 "$NABLA_TEXT" "$t/nabla-shadow.ttf" "variations=$loc" 2>&1) &&
     r=$("$CMP" "$t/$name.png" "$t/$name-static.png" $EXACT) &&
     r=$("$CMP" "$REF/$name.png" "$t/$name-static.png" --max-mae 0.4 --max-percent 0.2 --min-psnr 40); then ok
  else bad "$name: $out $r"; fi
done
# a place off the default, or a stack with layers of another font: written at the lead's
# location, saying so (the layers of the lead itself vary with it)
expect 0 "Chromatype Width is variable: the font written is its instance at wdth=100" "$CT" font \
  --layer "$REGULAR=#ff0000" --layer "$WDTH=#0000ff" --lead 2 --text AB -o "$t/stack2.ttf"
expect 1 "fvar" $PY -c "from fontTools.ttLib import TTFont; import sys; TTFont(sys.argv[1])['fvar']" "$t/stack2.ttf"
# a lead whose COLR paints vary (an ItemVariationStore) beside its gvar: read at one place, so
# instanced (ct-colr1-var.ttf given an empty gvar, so that only its COLR keeps it from staying)
$PY - tests/fonts/ct-colr1-var.ttf "$t/colr-gvar.ttf" <<'PY'
import sys
from fontTools.ttLib import TTFont, newTable
f = TTFont(sys.argv[1])
g = newTable("gvar")
g.version, g.reserved = 1, 0
g.variations = {n: [] for n in f.getGlyphOrder()}
f["gvar"] = g
f.save(sys.argv[2])
PY
expect 0 "is variable: the font written is its instance at" "$CT" font "$t/colr-gvar.ttf" -f shadow -o "$t/cv.ttf"
expect 1 "fvar" $PY -c "from fontTools.ttLib import TTFont; import sys; TTFont(sys.argv[1])['fvar']" "$t/cv.ttf"
expect 0 "" "$CT" font --layer "$WDTH=#ff0000" --layer "$WDTH=#0000ff" -o "$t/stack1.ttf"
expect 0 "^wdth" $PY -c "from fontTools.ttLib import TTFont; import sys; print(TTFont(sys.argv[1])['fvar'].axes[0].axisTag)" "$t/stack1.ttf"
expect 0 "Chromatype Width is variable: the font written is its instance at wdth=60" "$CT" font "$WDTH" -f "$WDTH_SHADOW" \
  --variations wdth=60 -o "$t/wdth60.ttf"
expect 1 "fvar" $PY -c "from fontTools.ttLib import TTFont; import sys; TTFont(sys.argv[1])['fvar']" "$t/wdth60.ttf"

# a hostile gvar in such a lead: one line, no font
if $PY - "$WDTH" "$t" <<'PY'
import sys
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables.DefaultTable import DefaultTable
raw = TTFont(sys.argv[1]).reader["gvar"]
for name, data in (("short", raw[:12]), ("offsets", raw[:20] + b"\xff" * (len(raw) - 20)), ("version", b"\x00\x02" + raw[2:])):
    f = TTFont(sys.argv[1])
    g = DefaultTable("gvar")
    g.data = data
    f["gvar"] = g
    f.save(f"{sys.argv[2]}/gvar-{name}.ttf")
PY
then
  expect 1 "gvar-short.ttf: a truncated gvar (12 bytes)" "$CT" font "$t/gvar-short.ttf" -f shadow -o "$t/gv.ttf"
  expect 1 "gvar-offsets.ttf: a truncated gvar" "$CT" font "$t/gvar-offsets.ttf" -f shadow -o "$t/gv.ttf"
  expect 1 "gvar-version.ttf: a gvar of an unknown version (2)" "$CT" font "$t/gvar-version.ttf" -f shadow -o "$t/gv.ttf"
  [ ! -e "$t/gv.ttf" ] && ok || bad "a hostile gvar left a font"
else bad "fontTools could not write the hostile fonts"; fi

# ---- refusals: one line, exit 1, no font --------------------------------------------------
x=$t/no.ttf
expect 1 "shadow: color: a range needs numbers of one form at both ends" "$CT" font "$REGULAR" \
  -f 'shadow:color=#333333..#ffffff@EXTR' --axis 'EXTR=0:100' -o "$x"
expect 1 "a filter option ranges over EXTR, but there is no axis EXTR" "$CT" font "$REGULAR" \
  -f 'shadow:offset=0.02em..0.1em@EXTR' --axis 'DPTH=0:100' -o "$x"
expect 1 "axis DPTH: no filter option ranges over it" "$CT" font "$REGULAR" \
  -f 'shadow:offset=0.02em..0.1em@EXTR' --axis 'EXTR=0:100' --axis 'DPTH=0:100' -o "$x"
expect 1 "a range (LO..HI@TAG) needs an axis" "$CT" font "$REGULAR" -f 'shadow:offset=0.02em..0.1em@EXTR' -o "$x"
expect 1 "the number of layers changes" "$CT" font "$REGULAR" -f 'shadow:steps=2..8@EXTR' --axis 'EXTR=0:100' \
  --masters 7 --text A -o "$x"
expect 1 "axis wdth: .* has an axis wdth already" "$CT" font tests/fonts/ct-wdth.ttf \
  -f 'shadow:offset=0.02em..0.1em@wdth' --axis 'wdth=0:100' -o "$x"
expect 1 "axis EXTR: MIN <= DEFAULT <= MAX" "$CT" font "$REGULAR" -f 'shadow:offset=0.02em..0.1em@EXTR' \
  --axis 'EXTR=100:0' -o "$x"
expect 1 "COLRv1 alone" "$CT" font "$REGULAR" -f 'shadow:offset=0.02em..0.1em@EXTR' --axis 'EXTR=0:100' \
  --format colr0 --text A -o "$x"
expect 2 "masters" "$CT" font "$REGULAR" -f 'shadow:offset=0.02em..0.1em@EXTR' --axis 'EXTR=0:100' --masters 1 -o "$x"
printf '<document size="40mm x 20mm"><page><frame><p>Hi</p></frame></page></document>\n' > "$t/doc.xml"
expect 1 "is an effect axis of a font" "$CT" -f 'shadow:offset=0.02em..0.1em@EXTR' "$t/doc.xml" -o "$t/p.png"
[ ! -e "$t/p.png" ] && ok || bad "a refused document left a PNG"
[ ! -e "$x" ] && ok || bad "a refused run left a font"
finish
