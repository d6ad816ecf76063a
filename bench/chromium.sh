#!/bin/sh
# chromium.sh: the peer side of `make bench`: headless Chromium (Debian's chromium) drawing
# the glyph sheet of bench/sheet.lua to PNG, or a poster page to PDF, each a fresh browser
# process with a fresh profile, as a command-line user runs it.  The sheet's page is made
# once, before the timed runs (sheet-html), so that a run times the browser alone.
#   bench/chromium.sh sheet-html FONT OUT.html [COUNT [SIZE [COLS [WHICH]]]]   (WHICH: cmap or distinct)
#       writes the page and prints its size, WIDTHxHEIGHT
#   bench/chromium.sh shot PAGE.html OUT.png WIDTHxHEIGHT
#   bench/chromium.sh pdf PAGE.html OUT.pdf
set -e
here=$(dirname "$0")
ct=${CT:-$here/../build/chromatype}
browser=${CHROMIUM:-chromium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags="--headless=new --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-extensions
  --force-device-scale-factor=1 --font-render-hinting=none --user-data-dir=$tmp/profile"

case "$1" in
sheet-html)
  font=$(realpath "$2"); out=$3; count=${4:-1000}; size=${5:-64}; cols=${6:-25}; which=${7:-cmap}
  cell=$((size * 3 / 2)); rows=$(( (count + cols - 1) / cols ))
  {
    printf '<!doctype html><html><head><meta charset="utf-8"><style>\n'
    printf '@font-face { font-family: "Sheet"; src: url("file://%s"); font-display: block; }\n' "$font"
    printf 'html, body { margin: 0; background: #fff; }\n'
    printf '.g { display: grid; grid-template-columns: repeat(%d, %dpx); grid-auto-rows: %dpx; ' "$cols" "$cell" "$cell"
    printf 'font: %dpx/%dpx "Sheet"; color: #000; }\n.g span { padding-left: %dpx; }\n' "$size" "$cell" $((size / 4))
    printf '</style></head><body><div class="g">'
    "$ct" "$here/sheet-codepoints.lua" "$font" "$count" "$which" | while read -r cp; do printf '<span>&#x%s;</span>' "$cp"; done
    printf '</div></body></html>\n'
  } > "$out"
  echo "$((cols * cell))x$((rows * cell))"
  exit 0
  ;;
shot)
  page=$(realpath "$2"); out=$3; size=$4
  # shellcheck disable=SC2086
  $browser $flags --window-size="$(echo "$size" | tr x ,)" --virtual-time-budget=10000 \
    --screenshot="$(realpath -m "$out")" "file://$page" >/dev/null 2>"$tmp/log" ||
    { cat "$tmp/log" >&2; exit 1; }
  ;;
pdf)
  page=$(realpath "$2"); out=$3
  # shellcheck disable=SC2086
  $browser $flags --no-pdf-header-footer --virtual-time-budget=10000 \
    --print-to-pdf="$(realpath -m "$out")" "file://$page" >/dev/null 2>"$tmp/log" ||
    { cat "$tmp/log" >&2; exit 1; }
  ;;
*)
  echo "usage: chromium.sh sheet-html FONT OUT.html [COUNT [SIZE [COLS [WHICH]]]] | shot PAGE.html OUT.png WxH | pdf PAGE.html OUT.pdf" >&2
  exit 2
  ;;
esac
[ -s "$out" ] || { echo "chromium.sh: $browser wrote no $out" >&2; exit 1; }
