#!/bin/sh
# run.sh: `make bench`.  Measures chromatype and, side by side, headless Chromium (Debian's
# chromium, the alternative a user has on this machine) on the same work, and prints one
# report: the peer ratios, glyphs per second cold and warm, pages per second for a batch,
# PDF bytes per repeated glyph, and peak memory for 100 and 10,000 pages.
#   bench/run.sh      BENCH_RUNS=N (5): timed runs a line; BENCH_PAGES=N (10000): the long side
#                     of the memory lines
# Times are wall-clock seconds of a whole process (a fresh browser with a fresh profile for
# Chromium, as a command-line user runs it): after one untimed run of each side, the two
# sides run in turn BENCH_RUNS times, and each line gives min / median / max of each side and
# the ratio of the medians.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$here/..
ct=${CT:-$root/build/chromatype}
shared=$root/../shared/fonts/color-fonts
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
big=${BENCH_PAGES:-10000}
runs=${BENCH_RUNS:-5}
[ "$runs" -ge 1 ] 2>/dev/null || { echo "run.sh: BENCH_RUNS must be a number of runs" >&2; exit 2; }

now() { date +%s.%N; }
# one timed run of a command: its wall-clock seconds, appended to file $1
timed() {
  f=$1; shift
  t0=$(now); "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; return 1; }; t1=$(now)
  echo "$t0 $t1" | awk '{ printf "%.4f\n", $2 - $1 }' >> "$f"
}
# "min median max" of the numbers in a file
stats() {
  sort -g "$1" | awk '{ v[NR] = $1 } END {
    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.3f %.3f %.3f", v[1], m, v[NR] }'
}
# duel LABEL A B: the shell functions A and B (each one whole run) in turn, after one
# untimed run each; prints the line of the report (B empty: chromatype's side alone)
duel() {
  label=$1; a=$2; b=$3
  rm -f "$tmp/a" "$tmp/b"
  $a >/dev/null 2>&1 || true
  [ -n "$b" ] && { $b >/dev/null 2>&1 || true; }
  i=0
  while [ $i -lt "$runs" ]; do
    timed "$tmp/a" $a
    [ -n "$b" ] && timed "$tmp/b" $b
    i=$((i + 1))
  done
  sa=$(stats "$tmp/a")
  if [ -n "$b" ]; then
    sb=$(stats "$tmp/b")
    echo "$sa $sb" | awk -v l="$label" '{ printf "%-44s %6.3f %6.3f %6.3f   %6.3f %6.3f %6.3f  %6.1fx\n", l, $1, $2, $3, $4, $5, $6, $5 / $2 }'
  else
    echo "$sa" | awk -v l="$label" '{ printf "%-44s %6.3f %6.3f %6.3f   %s\n", l, $1, $2, $3, "(no chromium: scripts/install-deps.sh bench)" }'
  fi
}

sheet_font=$shared/twemoji_smiley-glyf_colr_1.ttf
[ -f "$sheet_font" ] || sheet_font=$root/tests/fonts/ct-colr1.ttf
# the full Twemoji (1,413 color glyphs): a sheet of 1,000 distinct ones, each drawn once
twemoji=$root/../shared/fonts/npm/twemoji-colr0.woff2
[ -f "$twemoji" ] || twemoji=$root/tests/fonts/twemoji-colr0.woff2

ct_distinct() { "$ct" "$here/sheet.lua" "$twemoji" "$tmp/ct-distinct.png" 1000 64 25 distinct; }
ct_sheet() { "$ct" "$here/sheet.lua" "$sheet_font" "$tmp/ct-sheet.png" 1000 64 25; }
ct_poster() { "$ct" "$here/poster.xml" -o "$tmp/ct-poster.pdf"; }
cr_distinct= cr_sheet= cr_poster=
if command -v "${CHROMIUM:-chromium}" >/dev/null 2>&1; then
  # the sheets' pages are made once, outside the timed runs
  size_distinct=$("$here/chromium.sh" sheet-html "$twemoji" "$tmp/distinct.html" 1000 64 25 distinct)
  size_sheet=$("$here/chromium.sh" sheet-html "$sheet_font" "$tmp/sheet.html" 1000 64 25)
  cr_distinct() { "$here/chromium.sh" shot "$tmp/distinct.html" "$tmp/cr-distinct.png" "$size_distinct"; }
  cr_sheet() { "$here/chromium.sh" shot "$tmp/sheet.html" "$tmp/cr-sheet.png" "$size_sheet"; }
  cr_poster() { "$here/chromium.sh" pdf "$here/poster.html" "$tmp/cr-poster.pdf"; }
  cr_distinct=cr_distinct cr_sheet=cr_sheet cr_poster=cr_poster
fi

echo "chromatype bench: $(nproc) cores, $(uname -m), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "chromatype $("$ct" --version 2>/dev/null | head -1); $("${CHROMIUM:-chromium}" --version 2>/dev/null || echo 'no chromium')"
echo
echo "== against headless Chromium (same work; wall-clock seconds of $runs runs of each side in turn) =="
printf '%-44s %20s   %20s  %7s\n' "" "chromatype" "chromium" "ratio"
printf '%-44s %6s %6s %6s   %6s %6s %6s  %7s\n' "" min median max min median max "medians"
duel "sheet: 1,000 distinct emoji, 64 px, PNG" ct_distinct "$cr_distinct"
duel "sheet: 1,000 repeated COLRv1 emoji, PNG" ct_sheet "$cr_sheet"
duel "poster: A3, Bungee stack + emoji, PDF" ct_poster "$cr_poster"
echo "(distinct sheet: the first 1,000 color glyphs of $(basename "$twemoji"), each once, on $(nproc) threads;"
echo " repeated sheet: the $(basename "$sheet_font") cmap over and over, which the sprite cache draws once a glyph)"
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
echo "== animation: 4 s at 30 fps, 1080 x 1080 px, five glyphs of a variable COLRv1 font (median of $runs) =="
echo "(faster than real time: under 4 s; 'peak' is the encoding process's, the frames' workers hold one frame each)"
echo 'os.exit(require("chromatype.core").animation(arg[1], { width = 1, height = 1 }) and 0 or 1)' > "$tmp/can.lua"
for fmt in apng webp gif mp4; do
  case $fmt in
    gif) "$ct" "$tmp/can.lua" "$tmp/can.gif" > /dev/null 2>&1 || { echo "gif: (not built)"; continue; } ;;
    mp4) command -v ffmpeg > /dev/null 2>&1 || { echo "mp4: (no ffmpeg)"; continue; } ;;
  esac
  for w in 1 0; do
    rm -f "$tmp/t"
    i=0
    while [ $i -lt "$runs" ]; do timed "$tmp/t" "$ct" "$here/anim.lua" "$tmp/anim.$fmt" 4 "$w"; i=$((i + 1)); done
    s=$(stats "$tmp/t" | awk '{ print $2 }')
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
echo "== fonts from artwork: the Twemoji SVG set compiled (wall-clock seconds of $runs runs) =="
sh "$here/artwork.sh" "$ct" "$tmp" "$runs"

echo
echo "== PDF bytes a repeated glyph adds =="
"$ct" "$here/repeat.lua" "$sheet_font" "$tmp"

echo
echo "== peak memory (VmHWM of the process) =="
mem() {   # mem LABEL MODE: 100 pages against $big
  "$ct" "$here/pages.lua" 100 "$2" "$tmp" > "$tmp/m100"
  "$ct" "$here/pages.lua" "$big" "$2" "$tmp" > "$tmp/mbig"
  awk -v n="$big" -v l="$1" 'NR == FNR { a = $4; t = $6; next } {
    printf "%-34s 100 pages %6d KiB, %d pages %6d KiB: %.2fx (%.1f s)\n", l, a, n, $4, $4 / a, $6 }' "$tmp/m100" "$tmp/mbig"
}
mem "batch of one-page records:" records
mem "one document (Lua, doc:stream):" document
mem "one XML document:" xml
mem "one XML document, -f tint.lua:" xml-filter
mem "one canvas streamed (c:stream):" canvas
