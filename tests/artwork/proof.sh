#!/bin/sh
# proof.sh: the browser proof of fonts from artwork (issue 28).  A folder of Twemoji-named SVGs
# (default: the whole set, by fetch-twemoji.sh) is compiled to COLRv1 and to OT-SVG; Chromium
# draws the COLRv1 font and Firefox the OT-SVG font (../shared/oracle grid.sh, one file per
# cell: sequences, flags, keycaps, tags are one cell each), each browser draws the source files
# as images at the same places (svgimg.mjs), and compare.py --cells measures every cell.
# chromatype's own drawings of both fonts (build/tests/ctgrid) are compared with the same
# browser drawings of the sources, and the two browsers' drawings of the sources with each other
# (how far apart two correct renderers are).  A baseline from another compiler: Mozilla's
# Twemoji COLRv0 font (../shared/fonts/npm/twemoji-colr0.woff2, $MOZ) drawn by Chromium in the
# same cells (its em's top is 448/512, 6 px higher at 48 px: moved down 6 px) against the same
# drawings of the sources; its cells that are not one glyph of it are counted apart.
#   sh tests/artwork/proof.sh [DIR] [-o OUT] [--chunk N]      (project root, after make)
# Geometry: 48 px, upem 1024, --ascent 768 --descent 256, so a 36x36 viewBox is a 48x48 image
# at (pen x, baseline - 36): whole pixels in both drawings.  N cells (default 400, 20 columns)
# per image.  Writes OUT/report.md (default build/artwork-proof) and OUT/worst-*.png (the
# worst cells, source | font | difference x4).  Dev tool: needs the oracle (its setup.sh).
set -e
B=${CT_BUILD:-build}
ORACLE=${ORACLE:-../shared/oracle}
MOZ=${MOZ:-../shared/fonts/npm/twemoji-colr0.woff2}
PY=/usr/bin/python3
here=tests/artwork
dir= out=$B/artwork-proof chunk=400 cols=20
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=$2; shift 2 ;;
    --chunk) chunk=$2; shift 2 ;;
    -*) echo "proof.sh: unknown option $1" >&2; exit 2 ;;
    *) dir=$1; shift ;;
  esac
done
if [ -z "$dir" ]; then
  dir=$(sh "$here/fetch-twemoji.sh" "${TMPDIR:-/tmp}/twemoji-15.0.0") || exit 1
fi
[ -d "$dir" ] || { echo "proof.sh: $dir: no such folder" >&2; exit 2; }
[ -x "$ORACLE/grid.sh" ] || { echo "proof.sh: no oracle at $ORACLE (set ORACLE)" >&2; exit 2; }
[ "$cols" -le "$chunk" ] || cols=$chunk
rm -rf "$out"; mkdir -p "$out/cells"
font_opts="--ascent 768 --descent 256"
# shellcheck disable=SC2086
"$B/chromatype" font --svg "$dir" -o "$out/colr1.ttf" --format colr1 $font_opts
# shellcheck disable=SC2086
"$B/chromatype" font --svg "$dir" -o "$out/svg.ttf" --format svg $font_opts

# the files in name order, split into chunks; a file's cell is its code point sequence
find "$dir" -maxdepth 1 -name '*.svg' | LC_ALL=C sort > "$out/files"
total=$(wc -l < "$out/files")
split -l "$chunk" -d -a 3 "$out/files" "$out/cells/list."
echo "proof.sh: $total files, $(ls "$out"/cells/list.* | wc -l) chunks of up to $chunk cells"
cps() {   # LIST -> U+1F468+U+200D+U+1F469,... (the file names' code points)
  sed 's|.*/||; s|\.svg$||' "$1" | tr a-f A-F | sed 's/^/U+/; s/-/+U+/g' | paste -sd, -
}
for list in "$out"/cells/list.*; do
  n=${list##*.}; c=$out/cells/$n
  items=$(cps "$list")
  "$ORACLE/grid.sh" "$out/colr1.ttf" "$c-font-cr.png" --codepoints "$items" --size 48 --cols $cols \
    --layout "$c-font-cr.json" > /dev/null
  "$ORACLE/grid.sh" "$out/svg.ttf" "$c-font-ff.png" --codepoints "$items" --size 48 --cols $cols \
    --browser firefox --layout "$c-font-ff.json" > /dev/null
  node "$here/svgimg.mjs" "$list" "$c-src-cr.png" --browser chromium --layout "$c-font-cr.json" \
    --out-layout "$c-src-cr.json" 2>> "$out/warnings"
  node "$here/svgimg.mjs" "$list" "$c-src-ff.png" --browser firefox --layout "$c-font-ff.json" \
    --out-layout "$c-src-ff.json" 2>> "$out/warnings"
 if [ -f "$MOZ" ]; then
    "$ORACLE/grid.sh" "$MOZ" "$c-moz-raw.png" --codepoints "$items" --size 48 --cols $cols \
      --layout "$c-moz.json" > /dev/null
    $PY -c 'import sys; from PIL import Image; a = Image.open(sys.argv[1]).convert("RGB"); b = Image.new("RGB", a.size, "white"); b.paste(a, (0, 6)); b.save(sys.argv[2])' \
      "$c-moz-raw.png" "$c-moz.png"
  fi
  "$B/tests/ctgrid" "$out/colr1.ttf" -o "$c-ct-colr1.png" --cols $cols --codepoints "$items" 2>> "$out/warnings"
  "$B/tests/ctgrid" "$out/svg.ttf" -o "$c-ct-svg.png" --cols $cols --codepoints "$items" 2>> "$out/warnings"
  # compare.py exits 1 when a cell is over its thresholds: that is what the report counts
  cmp() { $PY "$ORACLE/compare.py" "$c-$1.png" "$c-$2.png" --cells "$c-$3.json" --json > "$c-$4.cmp.json" || [ $? -eq 1 ]; }
  cmp font-cr src-cr font-cr chromium
  cmp font-ff src-ff font-ff firefox
  cmp ct-colr1 src-cr font-cr ct-colr1
  cmp ct-svg src-ff font-cr ct-svg
  cmp src-cr src-ff font-cr browsers
  [ -f "$c-moz.png" ] && cmp moz src-cr font-cr mozilla
  echo "proof.sh: chunk $n done"
done
$PY "$here/proof_report.py" "$out" "$dir"
echo "proof.sh: $out/report.md"
