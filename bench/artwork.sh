#!/bin/sh
# artwork.sh: the "fonts from artwork" lines of `make bench` (bench/run.sh).  The whole
# Twemoji SVG set (3,720 files, fetched once by tests/artwork/fetch-twemoji.sh) compiled to
# COLRv1, COLRv0 and OT-SVG: wall-clock seconds (min / median / max of BENCH_RUNS), the
# font's bytes (TrueType and WOFF2) and bytes per color glyph, next to Mozilla's Twemoji
# COLRv0 font (../shared/fonts/npm/twemoji-colr0.woff2: the same artwork, another compiler).
# Target: the whole set in under 10 s on two cores.
#   bench/artwork.sh CT TMPDIR RUNS
set -e
ct=$1 tmp=$2 runs=$3
here=$(cd "$(dirname "$0")" && pwd)
root=$here/..
set_dir=$root/build/twemoji
if ! sh "$root/tests/artwork/fetch-twemoji.sh" "$set_dir" > /dev/null 2> "$tmp/fetch.err"; then
  echo "(skipped: $(cat "$tmp/fetch.err"))"
  exit 0
fi
n=$(ls "$set_dir"/*.svg | wc -l)
now() { date +%s.%N; }
printf '%-30s %6s %6s %6s  %9s %9s  %11s %11s\n' "" min median max "TTF" "WOFF2" "TTF/glyph" "WOFF2/glyph"
for fmt in colr1 colr0 svg; do
  extra=
  [ "$fmt" = colr0 ] && extra=--keep-going   # COLRv0 holds no clip paths: 3 files skipped
  : > "$tmp/art.t"
  i=0
  while [ $i -lt "$runs" ]; do
    t0=$(now)
    "$ct" font --svg "$set_dir" --format "$fmt" $extra -o "$tmp/art.ttf" 2> "$tmp/art.err" || { cat "$tmp/art.err" >&2; exit 1; }
    t1=$(now)
    echo "$t0 $t1" | awk '{ printf "%.4f\n", $2 - $1 }' >> "$tmp/art.t"
    i=$((i + 1))
  done
  "$ct" font --svg "$set_dir" --format "$fmt" $extra -o "$tmp/art.woff2" 2> /dev/null
  glyphs=$((n - $(grep -c 'skipped' "$tmp/art.err" || true)))
  sort -g "$tmp/art.t" | awk -v f="$fmt" -v n="$glyphs" -v ttf="$(stat -c %s "$tmp/art.ttf")" \
    -v w2="$(stat -c %s "$tmp/art.woff2")" '{ v[NR] = $1 } END {
      m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      printf "%-30s %6.2f %6.2f %6.2f  %9d %9d  %11.0f %11.0f\n", "Twemoji " n " SVGs -> " f, v[1], m, v[NR], ttf, w2, ttf / n, w2 / n }'
done
moz=$root/../shared/fonts/npm/twemoji-colr0.woff2
if [ -f "$moz" ]; then
  echo "$(stat -c %s "$moz")" | awk '{ printf "%-30s %20s  %9s %9d  %11s %11.0f\n", "Mozilla twemoji-colr0.woff2", "", "", $1, "", $1 / 3720 }'
  if /usr/bin/python3 -c 'import fontTools' 2> /dev/null; then
    "$ct" font --svg "$set_dir" --format colr0 --keep-going -o "$tmp/art0.ttf" 2> /dev/null
    "$ct" font --svg "$set_dir" -o "$tmp/art1.ttf" 2> /dev/null
    /usr/bin/python3 - "$moz" "$tmp/art0.ttf" "$tmp/art1.ttf" <<'PY'
import sys, logging
logging.disable(logging.WARNING)
from fontTools.ttLib import TTFont
print("tables, bytes per color glyph:   glyf   COLR  points  layers  (upem)")
for label, path in zip(("Mozilla COLRv0", "chromatype COLRv0", "chromatype COLRv1"), sys.argv[1:]):
    f = TTFont(path)
    colr = f["COLR"]
    if colr.version == 0:
        n, layers = len(colr.ColorLayers), sum(len(v) for v in colr.ColorLayers.values())
    else:
        n, layers = colr.table.BaseGlyphList.BaseGlyphCount, None
    glyf = f["glyf"]
    pts = sum(len(glyf[g].coordinates) for g in f.getGlyphOrder() if glyf[g].numberOfContours > 0)
    print("  %-28s %6.0f %6.0f %7.0f %7s  (%d)" % (label, len(f.reader["glyf"]) / n, len(f.reader["COLR"]) / n,
          pts / n, "%.1f" % (layers / n) if layers else "-", f["head"].unitsPerEm))
PY
  fi
fi
echo "(target: the whole set in under 10 s on two cores; $(nproc) cores here)"
