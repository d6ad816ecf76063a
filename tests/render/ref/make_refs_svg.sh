#!/bin/sh
# Re-create the OT-SVG references (headless Firefox ESR: the only browser that draws SVG glyphs)
# and the sbix / CBDT references of our fonts and Noto Color Emoji (headless Chromium) in
# tests/render/ref/.
# Run from the project root, after ../shared/oracle/setup.sh (once per machine) and
# /usr/bin/python3 tests/fonts/make_svg.py.  See README-svg.md here for what each file shows,
# the browser versions and what Firefox gets wrong.
set -e
O=../shared/oracle
R=tests/render/ref
F=tests/fonts
CF=../shared/fonts/color-fonts
NOTO=/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf
[ -x "$O/grid.sh" ] || { echo "make_refs_svg.sh: $O/grid.sh not found (needs ../shared)" >&2; exit 1; }
[ -f "$F/ct-svg.ttf" ] || { echo "make_refs_svg.sh: run /usr/bin/python3 $F/make_svg.py first" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# 16 common emoji (one a flag sequence), present in both Noto builds
EMOJI=U+1F600,U+1F602,U+1F60D,U+1F622,U+1F914,U+1F44D,U+2764,U+1F525,U+1F389,U+1F680,U+1F308,U+1F431,U+1F355,U+2B50,U+1F30D,U+1F1FA+U+1F1F8
LETTERS=U+41,U+42,U+43,U+61,U+62,U+63,U+31,U+32,U+33
SAMPLES=gradient_stop_opacity,linear_reflect,linear_repeat,linear_transform,radial_reflect,radial_repeat,radial_transform,simple_linear,simple_radial
HAND=U+270D,U+270D+U+1F3FB,U+270D+U+1F3FC,U+270D+U+1F3FD,U+270D+U+1F3FE,U+270D+U+1F3FF,U+1F3FB-U+1F3FF
OVR='0=#00ff00ff,2=#ff000080'

# "Expected" variants of ct-svg.ttf (never committed): var(--colorN, fallback) resolved to the
# palette entry (with overrides), currentColor to --fg, the viewBox document as a transform, so
# that Firefox (which ignores CPAL, the text color and the root viewBox in SVG glyphs) draws
# what the OT-SVG spec asks for.  The same --palette/--override/--fg are passed to the oracle
# too (no effect on Firefox's SVG glyphs; they land in the layout JSON for tests/render/args.py).
/usr/bin/python3 $F/make_svg.py --expected 0 "$T/expected.ttf"
/usr/bin/python3 $F/make_svg.py --expected 1 "$T/expected-p1.ttf"
/usr/bin/python3 $F/make_svg.py --expected 0 --override "$OVR" "$T/expected-override.ttf"
/usr/bin/python3 $F/make_svg.py --expected 0 --fg '#0000ff' "$T/expected-fg.ttf"

# Firefox decodes the <image href="data:image/png..."> of U+E108 asynchronously and sometimes
# (about 1 run in 6) takes the screenshot before it is drawn: redo a ct-svg grid until cell 8
# (U+E108, top-left quadrant at pixel (22, 100)) is not white.
ctsvg_grid() {
  n=0
  while :; do
    $O/grid.sh "$@"
    /usr/bin/python3 -c 'import sys; from PIL import Image
sys.exit(Image.open(sys.argv[1]).convert("RGB").getpixel((22, 100)) == (255, 255, 255))' "$2" && return 0
    n=$((n + 1))
    [ $n -lt 10 ] || { echo "make_refs_svg.sh: $2: U+E108 never drawn" >&2; return 1; }
    echo "make_refs_svg.sh: $2: Firefox drew U+E108 (embedded PNG) blank; again" >&2
  done
}

set -x
# ---- OT-SVG, Firefox
FX="--browser firefox --size 48"
ctsvg_grid $F/ct-svg.ttf $R/ct-svg.firefox.png $FX --cols 8 --layout $R/ct-svg.firefox.json
ctsvg_grid $F/ct-svg.ttf $R/ct-svg-p1.firefox.png $FX --cols 8 --palette 1 --layout $R/ct-svg-p1.firefox.json
ctsvg_grid $F/ct-svg.ttf $R/ct-svg-override.firefox.png $FX --cols 8 --override "$OVR" --layout $R/ct-svg-override.firefox.json
ctsvg_grid $F/ct-svg.ttf $R/ct-svg-fg.firefox.png $FX --cols 8 --fg '#0000ff' --layout $R/ct-svg-fg.firefox.json
ctsvg_grid "$T/expected.ttf" $R/ct-svg-expected.firefox.png $FX --cols 8 --layout $R/ct-svg-expected.firefox.json
ctsvg_grid "$T/expected-p1.ttf" $R/ct-svg-expected-p1.firefox.png $FX --cols 8 --palette 1 --layout $R/ct-svg-expected-p1.firefox.json
ctsvg_grid "$T/expected-override.ttf" $R/ct-svg-expected-override.firefox.png $FX --cols 8 --override "$OVR" --layout $R/ct-svg-expected-override.firefox.json
ctsvg_grid "$T/expected-fg.ttf" $R/ct-svg-expected-fg.firefox.png $FX --cols 8 --fg '#0000ff' --layout $R/ct-svg-expected-fg.firefox.json
$O/grid.sh $F/nabla-svg-latin.woff2 $R/nabla-svg-latin.firefox.png $FX --cols 9 --codepoints $LETTERS --layout $R/nabla-svg-latin.firefox.json
$O/grid.sh $F/bungee-spice-latin.woff2 $R/bungee-spice-latin.firefox.png $FX --cols 9 --codepoints $LETTERS --layout $R/bungee-spice-latin.firefox.json
$O/grid.sh $F/noto-color-emoji-svg-subset.woff2 $R/noto-color-emoji-svg-subset.firefox.png $FX --cols 8 --codepoints $EMOJI --layout $R/noto-color-emoji-svg-subset.firefox.json
for v in picosvg picosvgz untouchedsvg untouchedsvgz; do
  $O/grid.sh $CF/twemoji_smiley-$v.ttf $R/twemoji_smiley-$v.firefox.png $FX --cols 8 --layout $R/twemoji_smiley-$v.firefox.json
done
$O/grid.sh $CF/samples-picosvg.ttf $R/samples-picosvg.firefox.png $FX --cols 9 --strings $SAMPLES --layout $R/samples-picosvg.firefox.json
$O/grid.sh $CF/noto_handwriting-picosvg.ttf $R/noto_handwriting-picosvg.firefox.png $FX --cols 6 --codepoints $HAND --layout $R/noto_handwriting-picosvg.firefox.json
# every layout of glyph documents (ct-svg-layouts.ttf, upem 2048: id on the root <svg> or
# inside, viewBox, width/height, ranges, shared <defs>, gzip), at 48 and 96 px
$O/grid.sh $F/ct-svg-layouts.ttf $R/ct-svg-layouts.firefox.png $FX --cols 8 --layout $R/ct-svg-layouts.firefox.json
$O/grid.sh $F/ct-svg-layouts.ttf $R/ct-svg-layouts-96.firefox.png --browser firefox --size 96 --cols 6 --layout $R/ct-svg-layouts-96.firefox.json

# ---- sbix and CBDT, Chromium (our fonts; the color-fonts sbix builds twemoji_smiley-sbix,
# samples-sbix, noto_handwriting-sbix at 48 px and at their 109-ppem strike (-s109) are made by
# make_refs.sh).  At the strike sizes 64 / 128 one column only: Chromium 156 loses the part of a
# large (>= ~100 px) bitmap glyph that lies right of a raster-tile edge in a wider page (see
# README-svg.md); at 48 px it does not happen.
$O/grid.sh $F/ct-sbix.ttf $R/ct-sbix.chromium.png --size 48 --cols 3 --layout $R/ct-sbix.chromium.json
$O/grid.sh $F/ct-cbdt.ttf $R/ct-cbdt.chromium.png --size 48 --cols 3 --layout $R/ct-cbdt.chromium.json
for s in 64 128; do
  $O/grid.sh $F/ct-sbix.ttf $R/ct-sbix-$s.chromium.png --size $s --cols 1 --layout $R/ct-sbix-$s.chromium.json
  $O/grid.sh $F/ct-cbdt.ttf $R/ct-cbdt-$s.chromium.png --size $s --cols 1 --layout $R/ct-cbdt-$s.chromium.json
done
$O/grid.sh $NOTO $R/noto-color-emoji-cbdt.chromium.png --size 48 --cols 8 --codepoints $EMOJI --layout $R/noto-color-emoji-cbdt.chromium.json
set +x

# Normalize the layout JSON written above (as make_refs.sh does): project-relative paths (system
# fonts absolute), no timing ("ms").  The ct-svg-expected-* grids were drawn from temporary fonts: their "font" is
# set to tests/fonts/ct-svg.ttf (what a renderer must draw to match them, with the palette /
# override / fg recorded in the JSON) and "oracle_font" records the make_svg.py command.
/usr/bin/python3 - "$T" <<'PY'
import json, os, sys
tmp = os.path.realpath(sys.argv[1])
made = {
    "expected.ttf": "tests/fonts/make_svg.py --expected 0",
    "expected-p1.ttf": "tests/fonts/make_svg.py --expected 1",
    "expected-override.ttf": "tests/fonts/make_svg.py --expected 0 --override '0=#00ff00ff,2=#ff000080'",
    "expected-fg.ttf": "tests/fonts/make_svg.py --expected 0 --fg '#0000ff'",
}
names = ["ct-svg", "ct-svg-p1", "ct-svg-override", "ct-svg-fg", "ct-svg-expected",
         "ct-svg-expected-p1", "ct-svg-expected-override", "ct-svg-expected-fg",
         "nabla-svg-latin", "bungee-spice-latin", "noto-color-emoji-svg-subset",
         "twemoji_smiley-picosvg", "twemoji_smiley-picosvgz", "twemoji_smiley-untouchedsvg",
         "twemoji_smiley-untouchedsvgz", "samples-picosvg", "noto_handwriting-picosvg",
         "ct-svg-layouts", "ct-svg-layouts-96"]
paths = ["tests/render/ref/%s.firefox.json" % n for n in names]
names = ["ct-sbix", "ct-cbdt", "ct-sbix-64", "ct-cbdt-64", "ct-sbix-128", "ct-cbdt-128",
         "noto-color-emoji-cbdt"]
paths += ["tests/render/ref/%s.chromium.json" % n for n in names]
for path in paths:
    with open(path) as f:
        d = json.load(f)
    d.pop("ms", None)
    for k in ("font", "out"):
        if k in d:
            rel = os.path.relpath(d[k])
            # system fonts (/usr/share/fonts) stay absolute; the project and ../shared relative
            d[k] = d[k] if rel.startswith("../..") else rel
    font = os.path.realpath(os.path.join(os.getcwd(), d["font"]))
    if os.path.dirname(font) == tmp:
        d["oracle_font"] = made[os.path.basename(font)] + " (temporary, not committed)"
        d["font"] = "tests/fonts/ct-svg.ttf"
    with open(path, "w") as f:
        json.dump(d, f, ensure_ascii=False, indent=1)
        f.write("\n")
PY
echo "make_refs_svg.sh: done"
