#!/bin/sh
# test_artwork_twemoji.sh: the browser proof of fonts from artwork, on the committed Twemoji
# files (tests/artwork/twemoji).  They are compiled to COLRv1 and to OT-SVG, each glyph drawn
# by chromatype (build/tests/ctgrid, 48 px, 10 columns of 72 px cells) and compared, cell by
# cell, with headless Chromium's and Firefox's drawings of the source SVG files as images at
# the same place (tests/artwork/ref-twemoji/, made by tests/artwork/make_refs.sh; no browser
# runs here).  The whole set against the browsers drawing the fonts: tests/artwork/proof.sh
# and PROOF.md.  On a failure the drawings are kept in $CT_BUILD/artwork-twemoji/.
SUITE=artwork_twemoji
. tests/cli/lib.sh
B=${CT_BUILD:-build}
CT=$B/chromatype
CMP=$B/tests/imgcmp
GRID=$B/tests/ctgrid
SRC=tests/artwork/twemoji
REF=tests/artwork/ref-twemoji
t=$(mktemp -d)
rm -rf "$B/artwork-twemoji"
trap 'rm -rf "$t"' EXIT

# Limits: compare.py's defaults per cell (MAE 1.5) and over the whole grid (MAE 1.5, 1 % of
# pixels over 32), tightened where the measure allows: chromatype draws the cells 0.35 from the
# browsers on average, 1.26 at worst (1faae's fine teeth, the flags' stripes: Skia's coverage
# is not exact area, chromatype's and librsvg's is; chromatype vs librsvg on the US flag: 0.19).
CELL_MAE=1.5 MAE=0.6 PCT=0.3

# the references were drawn from exactly these files, in this order
same_sums "$REF" "$SRC" SVGs "tests/artwork/make_refs.sh"
(cd "$SRC" && ls -- *.svg | LC_ALL=C sort) > "$t/names"
if cmp -s "$t/names" "$REF/names"; then ok; else bad "$SRC has other files than $REF/names (run tests/artwork/make_refs.sh)"; fi
cps=$(sed 's/\.svg$//' "$REF/names" | tr a-f A-F | sed 's/^/U+/; s/-/+U+/g' | paste -sd, -)

for fmt in colr1 svg; do
  expect 0 "" "$CT" font --svg "$SRC" --format $fmt --ascent 768 --descent 256 -o "$t/$fmt.ttf"
  if command -v ots-sanitize > /dev/null 2>&1; then expect 0 "" ots-sanitize "$t/$fmt.ttf"; fi
  if ! "$GRID" "$t/$fmt.ttf" -o "$t/$fmt.png" --cols 10 --size 48 --codepoints "$cps" > "$t/out" 2>&1; then
    bad "ctgrid $fmt: $(cat "$t/out")"
  fi
done
kept=
check() {   # FORMAT BROWSER: chromatype's drawing of the font vs the browser's of the sources
  if r=$("$CMP" "$t/$1.png" "$REF/$2.png" -t 32 --max-mae $MAE --max-percent $PCT --min-psnr 28 \
           --cell 72 --cell-max-mae $CELL_MAE --diff "$t/$1-$2-diff.png"); then ok
  else
    bad "$1 font vs $2's drawing of the sources: $r (cells of 72 px in $REF/names order; limits: cell MAE $CELL_MAE, MAE $MAE, $PCT % over 32)"
    kept="$kept $1 $1-$2-diff"
  fi
  [ -n "$CT_ARTWORK_TABLE" ] && echo "$1 vs $2: $r"
}
check colr1 chromium
check svg firefox
check colr1 firefox
check svg chromium
if [ -n "$kept" ]; then
  mkdir -p "$B/artwork-twemoji"
  for f in $kept; do cp "$t/$f.png" "$B/artwork-twemoji/"; done
  echo "$SUITE: the drawings are in $B/artwork-twemoji"
fi
finish
