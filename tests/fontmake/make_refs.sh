#!/bin/sh
# make_refs.sh: the browser references of tests/cli/test_font.sh.  Exports the fonts of
# fonts.sh with `chromatype font` (the same commands the test runs), renders them with
# ../shared/oracle (Chromium for COLR, Firefox for OT-SVG: grid.sh, 48 px, 72 px cells) and
# keeps the PNGs and layouts in tests/fontmake/ref/, with the SHA-256 of each exported font
# (the test checks that it still writes the fonts the references were made from).
#   sh tests/fontmake/make_refs.sh          (from the project root, after make)
# Needs ../shared/oracle set up (its setup.sh).  Commit tests/fontmake/ref/.
set -e
B=${CT_BUILD:-build}
ORACLE=${ORACLE:-../shared/oracle}
dir=tests/fontmake
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir -p "$dir/ref"
. "$dir/fonts.sh"
export_fonts "$B/chromatype" "$out"
: > "$dir/ref/SHA256SUMS"
for f in $FONTS; do (cd "$out" && sha256sum "$f.ttf") >> "$dir/ref/SHA256SUMS"; done

grid() {   # NAME FONT BROWSER ITEMS [oracle options]
  name=$1 font=$2 browser=$3 items=$4; shift 4
  "$ORACLE/grid.sh" "$out/$font.ttf" "$dir/ref/$name.png" --browser "$browser" --strings "$items" \
    --cols 6 --size 48 --layout "$dir/ref/$name.json" "$@" > /dev/null
  echo "$name: $browser"
}
grid bungee-riso-p0 bungee-riso chromium "$BUNGEE_TEXT"
grid bungee-riso-p1 bungee-riso chromium "$BUNGEE_TEXT" --palette 1
grid bungee-riso-p2 bungee-riso chromium "$BUNGEE_TEXT" --palette 2
grid bungee-riso-svg bungee-riso-svg firefox "$BUNGEE_TEXT"
grid twemoji-tones-p0 twemoji-tones chromium "$EMOJI_TEXT"
grid twemoji-tones-p1 twemoji-tones chromium "$EMOJI_TEXT" --palette 1
grid twemoji-tones-p2 twemoji-tones chromium "$EMOJI_TEXT" --palette 2
grid twemoji-tones-p3 twemoji-tones chromium "$EMOJI_TEXT" --palette 3
grid bungee-extruded bungee-extruded chromium "$BUNGEE_TEXT"
# the line shown in docs/fonts.md
"$ORACLE/render.sh" "$out/bungee-riso.ttf" "$dir/ref/bungee-riso-line.png" --text "CHROMATIC" --size 96 \
  --width 700 --height 140 --layout "$dir/ref/bungee-riso-line.json" > /dev/null
echo "references in $dir/ref"

# the pictures of docs/fonts.md: chromatype's drawing of each source beside the browser's
d="$out/draw"
mkdir -p "$d"
draw() {   # NAME ITEMS SOURCE [OPTION]
  "$B/chromatype" "$dir/draw.lua" "$d/$1.png" 6 "$2" "$3" ${4:+"$4"}
}
draw bungee-riso-p0 "$BUNGEE_TEXT" "$RISO_STACK"
draw bungee-riso-p1 "$BUNGEE_TEXT" "$RISO_STACK_P1"
draw bungee-riso-p2 "$BUNGEE_TEXT" "$RISO_STACK_P2"
draw twemoji-tones-p0 "$EMOJI_TEXT" "$TWEMOJI"
draw twemoji-tones-p1 "$EMOJI_TEXT" "$TWEMOJI" "recolor=$TONE_LIGHT"
draw twemoji-tones-p2 "$EMOJI_TEXT" "$TWEMOJI" "recolor=$TONE_MEDIUM"
draw twemoji-tones-p3 "$EMOJI_TEXT" "$TWEMOJI" "recolor=$TONE_DARK"
draw bungee-extruded "$BUNGEE_TEXT" "$REGULAR" "filter=$EXTRUSION"
py=/usr/bin/python3
$py "$dir/docs_images.py" docs/images/fontmake-bungee.png \
  "$d/bungee-riso-p0.png" "$dir/ref/bungee-riso-p0.png" "$d/bungee-riso-p1.png" "$dir/ref/bungee-riso-p1.png" \
  "$d/bungee-riso-p2.png" "$dir/ref/bungee-riso-p2.png" "$d/bungee-riso-p0.png" "$dir/ref/bungee-riso-svg.png"
$py "$dir/docs_images.py" docs/images/fontmake-twemoji.png \
  "$d/twemoji-tones-p0.png" "$dir/ref/twemoji-tones-p0.png" "$d/twemoji-tones-p1.png" "$dir/ref/twemoji-tones-p1.png" \
  "$d/twemoji-tones-p2.png" "$dir/ref/twemoji-tones-p2.png" "$d/twemoji-tones-p3.png" "$dir/ref/twemoji-tones-p3.png"
$py "$dir/docs_images.py" docs/images/fontmake-extruded.png "$d/bungee-extruded.png" "$dir/ref/bungee-extruded.png"
echo "pictures in docs/images/fontmake-*.png"
