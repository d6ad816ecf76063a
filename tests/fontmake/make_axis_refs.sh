#!/bin/sh
# make_axis_refs.sh: the Chromium references of tests/cli/test_font_axes.sh.  Exports the
# variable fonts of axes.sh (the commands the test runs), has headless Chromium draw each at
# five places of its axis (../shared/oracle grid.sh --variations, 48 px, 72 px cells) and
# keeps the PNGs in tests/fontmake/ref-axes/ with the fonts' SHA-256 (the test checks that it
# still writes the fonts the references were made from).
#   sh tests/fontmake/make_axis_refs.sh          (from the project root, after make)
# Needs ../shared/oracle set up (its setup.sh).  Commit tests/fontmake/ref-axes/.
set -e
B=${CT_BUILD:-build}
ORACLE=${ORACLE:-../shared/oracle}
dir=tests/fontmake
ref=$dir/ref-axes
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$dir/fonts.sh"
. "$dir/axes.sh"
export_axis_fonts "$B/chromatype" "$out"
rm -rf "$ref"
mkdir -p "$ref"
for f in $AXIS_FONTS; do (cd "$out" && sha256sum "$f.ttf") >> "$ref/SHA256SUMS"; done
grid() {   # NAME FONT TAG VALUE
  "$ORACLE/grid.sh" "$out/$2.ttf" "$ref/$1.png" --strings "$BUNGEE_TEXT" --cols 6 --size 48 \
    --variations "$3=$4" --layout "$out/$1.json" > /dev/null
  echo "$1: $(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["browser"])' "$out/$1.json")"
}
for v in $EXTR_VALUES; do grid "extrude-EXTR$v" bungee-extrude-axis EXTR "$v"; done
for v in $GANG_VALUES; do grid "gradient-GANG$v" bungee-gradient-axis GANG "$v"; done
# Nabla with its new palette (7) at three places of its two axes
for loc in $NABLA_LOCATIONS; do
  name=nabla-teal-$(echo "$loc" | tr -d '=,')
  "$ORACLE/grid.sh" "$out/nabla-teal.ttf" "$ref/$name.png" --strings "$NABLA_TEXT" --cols 6 --size 48 --palette 7 \
    --variations "$loc" > /dev/null
  echo "$name"
done
for v in $WDTH_VALUES; do
  "$ORACLE/grid.sh" "$out/wdth-shadow.ttf" "$ref/wdth-shadow-$v.png" --strings "$WDTH_TEXT" --cols 6 --size 48 \
    --variations "wdth=$v" > /dev/null
  echo "wdth-shadow-$v"
done
for loc in $NABLA_LOCATIONS; do
  name=nabla-shadow-$(echo "$loc" | tr -d '=,')
  "$ORACLE/grid.sh" "$out/nabla-shadow.ttf" "$ref/$name.png" --strings "$NABLA_TEXT" --cols 6 --size 48 \
    --variations "$loc" > /dev/null
  echo "$name"
done
echo "references in $ref"
