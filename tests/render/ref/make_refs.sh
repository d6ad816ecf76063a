#!/bin/sh
# Re-create the Chromium reference PNGs (+ layout JSON) in tests/render/ref/.
# Run from the project root, after ../shared/oracle/setup.sh (once per machine).
# See README.md here for the Chromium version these were made with.
set -e
O=../shared/oracle
R=tests/render/ref
F=tests/fonts
CF=../shared/fonts/color-fonts
[ -x "$O/grid.sh" ] || { echo "make_refs.sh: $O/grid.sh not found (needs ../shared)" >&2; exit 1; }
set -x
$O/grid.sh $F/ct-colr0.ttf $R/ct-colr0.chromium.png --codepoints U+41-U+44 --size 48 --cols 4 --layout $R/ct-colr0.chromium.json
$O/grid.sh $F/ct-colr0.ttf $R/ct-colr0-p1.chromium.png --codepoints U+41-U+44 --size 48 --cols 4 --palette 1 --layout $R/ct-colr0-p1.chromium.json
$O/grid.sh $F/ct-colr0.ttf $R/ct-colr0-p2.chromium.png --codepoints U+41-U+44 --size 48 --cols 4 --palette 2 --layout $R/ct-colr0-p2.chromium.json
$O/grid.sh $F/ct-colr0.ttf $R/ct-colr0-override.chromium.png --codepoints U+41-U+44 --size 48 --cols 4 --override '0=#00ff00ff,3=#ff000080' --layout $R/ct-colr0-override.chromium.json
$O/grid.sh $F/ct-colr0.ttf $R/ct-colr0-fg.chromium.png --codepoints U+41-U+44 --size 48 --cols 4 --fg '#0000ff' --layout $R/ct-colr0-fg.chromium.json
$O/grid.sh $F/ct-colr0-cff.otf $R/ct-colr0-cff.chromium.png --codepoints U+41-U+44 --size 48 --cols 4 --layout $R/ct-colr0-cff.chromium.json
$O/grid.sh $F/twemoji-colr0.woff2 $R/twemoji-colr0.chromium.png --codepoints U+263A,U+1F601,U+1F60D,U+1F60E,U+1F970,U+1F308,U+1F3A8,U+2764 --size 48 --cols 8 --layout $R/twemoji-colr0.chromium.json
$O/grid.sh $CF/twemoji-smiley-colr_0.ttf $R/twemoji-smiley-colr_0.chromium.png --size 48 --cols 8 --layout $R/twemoji-smiley-colr_0.chromium.json
$O/grid.sh $CF/samples-colr_0.ttf $R/samples-colr_0.chromium.png --strings simple_linear,simple_radial --size 48 --cols 8 --layout $R/samples-colr_0.chromium.json
# COLRv1: tests/fonts/ct-colr1*.ttf (made by tests/fonts/make_colr1.py)
$O/grid.sh $F/ct-colr1.ttf $R/ct-colr1.chromium.png --size 48 --cols 8 --layout $R/ct-colr1.chromium.json
$O/grid.sh $F/ct-colr1.ttf $R/ct-colr1-p1.chromium.png --size 48 --cols 8 --palette 1 --layout $R/ct-colr1-p1.chromium.json
$O/grid.sh $F/ct-colr1.ttf $R/ct-colr1-fg.chromium.png --size 48 --cols 8 --fg '#0000ff' --layout $R/ct-colr1-fg.chromium.json
$O/grid.sh $F/ct-colr1-var.ttf $R/ct-colr1-var.chromium.png --size 48 --cols 11 --layout $R/ct-colr1-var.chromium.json
$O/grid.sh $F/ct-colr1-var.ttf $R/ct-colr1-var-axes.chromium.png --size 48 --cols 11 --variations 'SWPS=90,ALPH=0.5' --layout $R/ct-colr1-var-axes.chromium.json
# COLRv1: googlefonts/color-fonts test_glyphs (all 220 cmap code points)
$O/grid.sh $CF/test_glyphs-glyf_colr_1.ttf $R/test_glyphs-glyf_colr_1.chromium.png --size 48 --cols 16 --layout $R/test_glyphs-glyf_colr_1.chromium.json
$O/grid.sh $CF/test_glyphs-glyf_colr_1_no_cliplist.ttf $R/test_glyphs-glyf_colr_1_no_cliplist.chromium.png --size 48 --cols 16 --layout $R/test_glyphs-glyf_colr_1_no_cliplist.chromium.json
$O/grid.sh $CF/test_glyphs-glyf_colr_1_variable.ttf $R/test_glyphs-glyf_colr_1_variable.chromium.png --size 48 --cols 16 --layout $R/test_glyphs-glyf_colr_1_variable.chromium.json
$O/grid.sh $CF/test_glyphs-glyf_colr_1_variable.ttf $R/test_glyphs-glyf_colr_1_variable-axes.chromium.png --size 48 --cols 16 --variations 'SWPS=45,ROTA=45,TLDX=200,GRX0=-300,APH1=-0.5' --layout $R/test_glyphs-glyf_colr_1_variable-axes.chromium.json
# cross-format: the same artwork as COLRv1 with glyf / CFF / CFF2 outlines and as sbix PNGs
# (strike 109 ppem in all three sets), at 48 px and at the strike size (-s109).  The 109 px
# grids have one column: wider, Chromium 156 cuts some unscaled sbix glyphs off at raster-tile
# edges (README.md); all four formats use the same layout so that they compare cell by cell.
SAMPLES=gradient_stop_opacity,linear_reflect,linear_repeat,linear_transform,radial_reflect,radial_repeat,radial_transform,simple_linear,simple_radial
HANDWRITING=U+270D,U+270D+U+1F3FB,U+270D+U+1F3FC,U+270D+U+1F3FD,U+270D+U+1F3FE,U+270D+U+1F3FF,U+1F3FB-U+1F3FF
for fmt in glyf_colr_1.ttf cff_colr_1.otf cff2_colr_1.otf sbix.ttf; do
  n=${fmt%.*}
  $O/grid.sh $CF/twemoji_smiley-$fmt $R/twemoji_smiley-$n.chromium.png --size 48 --cols 8 --layout $R/twemoji_smiley-$n.chromium.json
  $O/grid.sh $CF/samples-$fmt $R/samples-$n.chromium.png --strings $SAMPLES --size 48 --cols 9 --layout $R/samples-$n.chromium.json
  $O/grid.sh $CF/noto_handwriting-$fmt $R/noto_handwriting-$n.chromium.png --codepoints $HANDWRITING --size 48 --cols 6 --layout $R/noto_handwriting-$n.chromium.json
  $O/grid.sh $CF/twemoji_smiley-$fmt $R/twemoji_smiley-$n-s109.chromium.png --size 109 --cols 1 --layout $R/twemoji_smiley-$n-s109.chromium.json
  $O/grid.sh $CF/samples-$fmt $R/samples-$n-s109.chromium.png --strings $SAMPLES --size 109 --cols 1 --layout $R/samples-$n-s109.chromium.json
  $O/grid.sh $CF/noto_handwriting-$fmt $R/noto_handwriting-$n-s109.chromium.png --codepoints $HANDWRITING --size 109 --cols 1 --layout $R/noto_handwriting-$n-s109.chromium.json
done
# The sweep gradients of test_glyphs again at 144 px, where fine repeat/reflect stripes are
# resolved rather than aliased (the 48 px grid cannot tell them apart from errors).
$O/grid.sh $CF/test_glyphs-glyf_colr_1.ttf $R/test_glyphs-sweeps-144.chromium.png --codepoints U+F0200-U+F0245 --size 144 --cols 8 --layout $R/test_glyphs-sweeps-144.chromium.json
set +x
# Normalize the layout JSON so that it does not depend on the machine or run:
# project-relative paths, no timing ("ms").
/usr/bin/python3 - "$R"/*.chromium.json <<'PY'
import json, os, sys
for path in sys.argv[1:]:
    with open(path) as f:
        d = json.load(f)
    d.pop("ms", None)
    for k in ("font", "out"):
        if k in d:
            d[k] = os.path.relpath(d[k])
    with open(path, "w") as f:
        json.dump(d, f, ensure_ascii=False, indent=1)
        f.write("\n")
PY
echo "make_refs.sh: done"
