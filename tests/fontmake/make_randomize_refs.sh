#!/bin/sh
# make_randomize_refs.sh: the Chromium references of tests/cli/test_font_randomize.sh.
# Exports the fonts of randomize.sh, has headless Chromium draw $RANDOM_LINE in each with
# rand off (calt alone: the rotation) and as it comes (rand on, as browsers shape it), and
# keeps the PNGs in tests/fontmake/ref-random/ with the fonts' SHA-256.
#   sh tests/fontmake/make_randomize_refs.sh          (from the project root, after make)
# Needs ../shared/oracle set up (its setup.sh).  Commit tests/fontmake/ref-random/.
set -e
B=${CT_BUILD:-build}
ORACLE=${ORACLE:-../shared/oracle}
dir=tests/fontmake
ref=$dir/ref-random
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$dir/fonts.sh"
. "$dir/randomize.sh"
export_random_fonts "$B/chromatype" "$out"
rm -rf "$ref"
mkdir -p "$ref"
for f in $RANDOM_FONTS; do (cd "$out" && sha256sum "$f.ttf") >> "$ref/SHA256SUMS"; done
set -- $RANDOM_GEOMETRY
for f in $RANDOM_FONTS; do
  "$ORACLE/render.sh" "$out/$f.ttf" "$ref/$f-calt.png" --text "$RANDOM_LINE" --size "$1" --width "$2" --height "$3" \
    --x "$4" --baseline "$5" --features 'rand=0' > /dev/null
  "$ORACLE/render.sh" "$out/$f.ttf" "$ref/$f-rand.png" --text "$RANDOM_LINE" --size "$1" --width "$2" --height "$3" \
    --x "$4" --baseline "$5" > /dev/null
  echo "$f: calt, rand"
done
echo "references in $ref"
# the picture of docs/fonts.md "Randomization inside the font": the four lines, rand off then on
/usr/bin/python3 - "$ref" docs/images/fontmake-randomize.png <<'PY'
import sys
from PIL import Image
ref, out = sys.argv[1], sys.argv[2]
names = ("bungee-jitter-calt", "bungee-jitter-rand", "bungee-riso-jitter-calt", "bungee-riso-jitter-rand")
ims = [Image.open(f"{ref}/{n}.png").convert("RGB") for n in names]
o = Image.new("RGB", (616, 4 * 130), "white")
for i, im in enumerate(ims):
    o.paste(im.crop((0, 10, 616, 140)), (0, 130 * i))
o.resize((462, 390), Image.LANCZOS).save(out, optimize=True)
PY
echo "picture in docs/images/fontmake-randomize.png"
