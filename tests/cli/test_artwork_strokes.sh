#!/bin/sh
# test_artwork_strokes.sh: the stroke proof of fonts from artwork.  The stroke-heavy set of
# tests/artwork/gen_strokes.py (joins, miter limits, caps, zero-length subpaths, dashes,
# widths, transforms, opacity, curves) is compiled to a COLRv1 font, each glyph drawn by
# chromatype at 96 px and compared with librsvg's drawing of its SVG (rsvg-convert, at the
# same size and place) and with Chromium's (tests/artwork/ref-strokes/, from
# make_stroke_refs.sh; no browser runs here).  Limits and what they catch:
# tests/artwork/STROKES.md.  CT_STROKES_TABLE=1 prints every file's numbers; on a failure
# the three drawings and the difference images are kept in $CT_BUILD/artwork-strokes/.
SUITE=artwork_strokes
. tests/cli/lib.sh
B=${CT_BUILD:-build}
CT=$B/chromatype
CMP=$B/tests/imgcmp
GRID=$B/tests/ctgrid
REF=tests/artwork/ref-strokes
t=$(mktemp -d)
rm -rf "$B/artwork-strokes"
trap 'rm -rf "$t"' EXIT

# Geometry: 96 px, upem 2048 with ascent 1536 and descent 512, so the viewBox's height is
# the em and its top is 72 px above the baseline; ctgrid's cell is 144 px with the pen at
# (24, 108): the drawing's box is x 24..120, y 36..132, on whole pixels.
SIZE=96 PAGE=144 LEFT=24 TOP=36

# Limits, per file: MAE (0..255 per channel, over the 144 x 144 cell) and the share of
# pixels that differ by more than 64 in a channel (in %; 0.02 % is 4 pixels).
limits() {   # NAME -> rsvg_mae rsvg_pct chromium_mae chromium_pct
  case $1 in
    # librsvg (cairo) turns the square dots of zero-length subpaths under rotate() wrongly
    zero-length-rotated) echo 5.0 3.0 0.5 0.2 ;;
    # Chromium draws the square dots of zero-length dashes unturned by the path's direction
    dotted-square) echo 0.3 0.02 3.8 2.5 ;;
    # cairo and Chromium leave a hole in a circle stroked wider than its diameter
    thick-circle) echo 1.6 0.8 1.8 0.8 ;;
    # Chromium's small round dots carry 5 % more ink than cairo's and chromatype's
    dotted) echo 0.3 0.02 1.3 0.6 ;;
    # Chromium puts the dashes on a circle a little further round than cairo and chromatype
    dash-closed) echo 0.3 0.02 1.0 0.25 ;;
    *) echo 0.3 0.02 1.0 0.1 ;;
  esac
}

command -v rsvg-convert > /dev/null 2>&1 || bad "rsvg-convert missing (Debian librsvg2-bin: make check installs it)"
command -v ots-sanitize > /dev/null 2>&1 || bad "ots-sanitize missing (Debian opentype-sanitizer)"
if ! /usr/bin/python3 tests/artwork/gen_strokes.py "$t/svg"; then
  bad "gen_strokes.py failed"
  finish
fi
# the Chromium references were drawn from exactly these files
same_sums "$REF" "$t/svg" SVGs "tests/artwork/make_stroke_refs.sh"
n=$(wc -l < "$t/svg/cases.txt")
if [ "$n" -ge 40 ]; then ok; else bad "only $n cases"; fi
expect 0 "" "$CT" font --svg "$t/svg" -o "$t/strokes.ttf" --upem 2048 --ascent 1536 --descent 512
expect 0 "COLRv1" "$CT" info "$t/strokes.ttf"
if command -v ots-sanitize > /dev/null 2>&1; then expect 0 "" ots-sanitize "$t/strokes.ttf"; fi

failed_files=
while read -r cp rest; do
  name=${rest%%:*}
  limits "$name" > "$t/limits"
  read -r rmae rpct cmae cpct < "$t/limits"
  if ! "$GRID" "$t/strokes.ttf" -o "$t/$cp.ct.png" --cols 1 --codepoints "U+$cp" --size $SIZE > "$t/out" 2>&1; then
    bad "$cp $name: ctgrid: $(cat "$t/out")"
    continue
  fi
  line="$cp $name"
  if command -v rsvg-convert > /dev/null 2>&1 &&
     rsvg-convert -h $SIZE --left $LEFT --top $TOP --page-width $PAGE --page-height $PAGE -b white \
       "$t/svg/$cp.svg" -o "$t/$cp.rsvg.png"; then
    if r=$("$CMP" "$t/$cp.ct.png" "$t/$cp.rsvg.png" -t 64 --max-mae "$rmae" --max-percent "$rpct" --min-psnr 0 \
             --diff "$t/$cp.rsvg-diff.png"); then ok
    else bad "$cp $name vs librsvg: $r (limits mae $rmae, over_64 $rpct %)"; failed_files="$failed_files $cp"; fi
    line="$line | rsvg: $r"
  else
    bad "$cp $name: rsvg-convert failed"
  fi
  if r=$("$CMP" "$t/$cp.ct.png" "$REF/$cp.png" -t 64 --max-mae "$cmae" --max-percent "$cpct" --min-psnr 0 \
           --diff "$t/$cp.chromium-diff.png"); then ok
  else bad "$cp $name vs Chromium: $r (limits mae $cmae, over_64 $cpct %)"; failed_files="$failed_files $cp"; fi
  [ -n "$CT_STROKES_TABLE" ] && echo "$line | chromium: $r"
done < "$t/svg/cases.txt"

if [ -n "$failed_files" ]; then
  keep=$B/artwork-strokes
  rm -rf "$keep"
  mkdir -p "$keep"
  for cp in $failed_files; do
    cp "$t/svg/$cp.svg" "$t/$cp".*.png "$keep/" 2> /dev/null
    cp "$REF/$cp.png" "$keep/$cp.chromium.png"
  done
  echo "$SUITE: the drawings of the failed files are in $keep"
fi
finish
