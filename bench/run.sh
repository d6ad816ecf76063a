#!/bin/sh
# run.sh: `make bench`.  Measures chromatype and, side by side, headless Chromium (Debian's
# chromium, the alternative a user has on this machine) on the same work, and prints one
# report: the peer ratios, glyphs per second cold and warm, pages per second for a batch,
# PDF bytes per repeated glyph, and peak memory for 100 and 10,000 pages.
#   bench/run.sh [QUICK]      (QUICK=1: 1,000 instead of 10,000 pages for the memory line)
# Times are wall-clock seconds, the best of three runs of a whole process (a fresh browser
# with a fresh profile for Chromium, as a command-line user runs it).
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$here/..
ct=${CT:-$root/build/chromatype}
shared=$root/../shared/fonts/color-fonts
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
big=${BENCH_PAGES:-10000}

now() { date +%s.%N; }
# best of 3 wall-clock seconds of a command
best() {
  b=
  for _ in 1 2 3; do
    t0=$(now); "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; return 1; }; t1=$(now)
    b=$(echo "$t0 $t1 ${b:-999999}" | awk '{ d = $2 - $1; print (d < $3 ? d : $3) }')
  done
  echo "$b"
}
ratio() { echo "$1 $2" | awk '{ printf "%.1fx", $2 / $1 }'; }

sheet_font=$shared/twemoji_smiley-glyf_colr_1.ttf
[ -f "$sheet_font" ] || sheet_font=$root/tests/fonts/ct-colr1.ttf
# the full Twemoji (1,413 color glyphs): a sheet of 1,000 distinct ones, each drawn once
twemoji=$root/../shared/fonts/npm/twemoji-colr0.woff2
[ -f "$twemoji" ] || twemoji=$root/tests/fonts/twemoji-colr0.woff2

echo "chromatype bench: $(nproc) cores, $(uname -m); chromatype $("$ct" --version 2>/dev/null | head -1)"
echo
echo "== against headless Chromium (same work; wall-clock, best of 3) =="
printf '%-46s %10s %10s %8s\n' "" "chromatype" "chromium" "ratio"
ct_distinct=$(best "$ct" "$here/sheet.lua" "$twemoji" "$tmp/ct-distinct.png" 1000 64 25 distinct)
ct_sheet=$(best "$ct" "$here/sheet.lua" "$sheet_font" "$tmp/ct-sheet.png" 1000 64 25)
ct_poster=$(best "$ct" "$here/poster.xml" -o "$tmp/ct-poster.pdf")
if command -v "${CHROMIUM:-chromium}" >/dev/null 2>&1; then
  cr_distinct=$(best "$here/chromium.sh" sheet "$twemoji" "$tmp/cr-distinct.png" 1000 64 25 distinct)
  cr_sheet=$(best "$here/chromium.sh" sheet "$sheet_font" "$tmp/cr-sheet.png" 1000 64 25)
  cr_poster=$(best "$here/chromium.sh" pdf "$here/poster.html" "$tmp/cr-poster.pdf")
  printf '%-46s %9.3fs %9.3fs %8s\n' "glyph sheet: 1,000 distinct emoji at 64 px, PNG" "$ct_distinct" "$cr_distinct" "$(ratio "$ct_distinct" "$cr_distinct")"
  printf '%-46s %9.3fs %9.3fs %8s\n' "glyph sheet: 1,000 COLRv1 emoji at 64 px, PNG" "$ct_sheet" "$cr_sheet" "$(ratio "$ct_sheet" "$cr_sheet")"
  printf '%-46s %9.3fs %9.3fs %8s\n' "poster: A3, stacked Bungee + emoji, PDF" "$ct_poster" "$cr_poster" "$(ratio "$ct_poster" "$cr_poster")"
else
  printf '%-46s %9.3fs %10s\n' "glyph sheet: 1,000 distinct emoji at 64 px, PNG" "$ct_distinct" "(no chromium: scripts/install-deps.sh bench)"
  printf '%-46s %9.3fs\n' "glyph sheet: 1,000 COLRv1 emoji at 64 px, PNG" "$ct_sheet"
  printf '%-46s %9.3fs\n' "poster: A3, stacked Bungee + emoji, PDF" "$ct_poster"
fi
echo "(distinct sheet: the first 1,000 color glyphs of $(basename "$twemoji"), each once, on $(nproc) threads;"
echo " repeated sheet: the $(basename "$sheet_font") cmap over and over)"

echo
echo "== glyph drawing, cold (fresh font) and warm (cached trees, outlines, sprites) =="
"$ct" "$here/colr.lua" 5

echo
echo "== batch: chromatype batch of 1,000 one-page records (A6: a Bungee stack, a paragraph, emoji) =="
{
  echo "id,name"
  i=1
  while [ $i -le 1000 ]; do echo "$i,PAGE $i"; i=$((i + 1)); done
} > "$tmp/records.csv"
for jobs in 1 $(nproc); do
  rm -rf "$tmp/batch"
  t0=$(now)
  "$ct" batch "$here/record.xml" --data "$tmp/records.csv" -o "$tmp/batch/{id}.pdf" --jobs "$jobs" -q 2>/dev/null
  t1=$(now)
  echo "$t0 $t1 $jobs $(ls "$tmp/batch" | wc -l)" |
    awk '{ printf "%d worker%s: %.1f pages/s (%d files)\n", $3, $3 == 1 ? " " : "s", $4 / ($2 - $1), $4 }'
  [ "$jobs" = "$(nproc)" ] && break
done
echo
echo "== animation: 4 s at 30 fps, 1080 x 1080 px, five glyphs of a variable COLRv1 font (best of 3) =="
echo "(faster than real time: under 4 s; 'peak' is the encoding process's, the frames' workers hold one frame each)"
echo 'os.exit(require("chromatype.core").animation(arg[1], { width = 1, height = 1 }) and 0 or 1)' > "$tmp/can.lua"
for fmt in apng webp gif mp4; do
  case $fmt in
    gif) "$ct" "$tmp/can.lua" "$tmp/can.gif" > /dev/null 2>&1 || { echo "gif: (not built)"; continue; } ;;
    mp4) command -v ffmpeg > /dev/null 2>&1 || { echo "mp4: (no ffmpeg)"; continue; } ;;
  esac
  for w in 1 0; do
    s=$(best "$ct" "$here/anim.lua" "$tmp/anim.$fmt" 4 "$w")
    peak=$("$ct" "$here/anim.lua" "$tmp/anim.$fmt" 4 "$w" | awk '{ print $4 }')
    echo "$s $w $peak $(stat -c %s "$tmp/anim.$fmt")" | awk -v f="$fmt" -v c="$(nproc)" '{
      printf "%-5s %-9s %6.2fs  %6.1f frames/s  peak %6d KiB  %7.1f MiB\n", f,
        ($2 == 1 ? "1 process" : c " cores"), $1, 120 / $1, $3, $4 / 1048576 }'
  done
done
m4=$("$ct" "$here/anim.lua" "$tmp/anim.webp" 4 | awk '{ print $4 }')
m16=$("$ct" "$here/anim.lua" "$tmp/anim.webp" 16 | awk '{ print $4 }')
m4a=$("$ct" "$here/anim.lua" "$tmp/anim.apng" 4 | awk '{ print $4 }')
m16a=$("$ct" "$here/anim.lua" "$tmp/anim.apng" 16 | awk '{ print $4 }')
echo "$m4 $m16 $m4a $m16a" | awk '{ printf "peak memory, 120 -> 480 frames: WebP %d -> %d KiB (%.2fx), APNG %d -> %d KiB (%.2fx)\n", $1, $2, $2 / $1, $3, $4, $4 / $3 }'

echo
echo "== PDF bytes a repeated glyph adds =="
"$ct" "$here/repeat.lua" "$sheet_font" "$tmp"

echo
echo "== peak memory (VmHWM) =="
"$ct" "$here/pages.lua" 100 records "$tmp" > "$tmp/r100"
"$ct" "$here/pages.lua" "$big" records "$tmp" > "$tmp/rbig"
awk -v n="$big" 'NR == FNR { a = $4; next } { printf "batch of records: 100 pages %d KiB, %d pages %d KiB: %.2fx\n", a, n, $4, $4 / a }' "$tmp/r100" "$tmp/rbig"
"$ct" "$here/pages.lua" 100 document "$tmp" > "$tmp/d100"
"$ct" "$here/pages.lua" "$big" document "$tmp" > "$tmp/dbig"
awk -v n="$big" 'NR == FNR { a = $4; next } { printf "one document:     100 pages %d KiB, %d pages %d KiB: %.2fx (%.1f KiB a page)\n", a, n, $4, $4 / a, ($4 - a) / (n - 100) }' "$tmp/d100" "$tmp/dbig"
