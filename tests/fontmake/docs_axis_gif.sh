#!/bin/sh
# docs_axis_gif.sh: the picture of docs/fonts.md "Effects as axes": the extrusion axis font
# of axes.sh drawn by headless Chromium at 13 places of EXTR, there and back, as a GIF.
#   sh tests/fontmake/docs_axis_gif.sh      (from the project root, after make; needs
#                                            ../shared/oracle set up and ffmpeg)
# Writes docs/images/fontmake-extrude-axis.gif; commit it.
set -e
B=${CT_BUILD:-build}
ORACLE=${ORACLE:-../shared/oracle}
dir=tests/fontmake
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
. "$dir/fonts.sh"
. "$dir/axes.sh"
export_axis_fonts "$B/chromatype" "$t"
n=0
for v in 0 8 17 25 33 42 50 58 67 75 83 92 100 92 83 75 67 58 50 42 33 25 17 8; do
  "$ORACLE/render.sh" "$t/bungee-extrude-axis.ttf" "$t/f$(printf %03d $n).png" --text "CHROMA" --size 72 \
    --width 480 --height 110 --variations "EXTR=$v" > /dev/null
  n=$((n + 1))
done
ffmpeg -loglevel error -y -framerate 12 -i "$t/f%03d.png" \
  -vf "split[a][b];[a]palettegen=max_colors=32[p];[b][p]paletteuse=dither=none" -loop 0 docs/images/fontmake-extrude-axis.gif
echo "docs/images/fontmake-extrude-axis.gif: $(wc -c < docs/images/fontmake-extrude-axis.gif) bytes"
