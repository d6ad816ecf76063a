#!/bin/sh
# docs_image.sh: the picture of docs/fonts.md "Fonts from artwork": twelve of the Twemoji
# files of tests/artwork/twemoji (the font is made of all of them) drawn from their SVG by
# librsvg (rsvg-convert, top row), then the fonts chromatype compiles from them drawn by Chromium (COLRv1), Firefox (OT-SVG) and
# chromatype itself (COLRv1), 64 px, 96 px cells, the same pen in every row.
#   sh tests/artwork/docs_image.sh      (from the project root, after make; needs
#                                        ../shared/oracle set up, rsvg-convert and PIL)
# Writes docs/images/artwork-twemoji.png; commit it.
set -e
B=${CT_BUILD:-build}
ORACLE=${ORACLE:-../shared/oracle}
src=tests/artwork/twemoji
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
files="1f600 1f60d 1f44b-1f3fd 1f468-200d-1f469-200d-1f467 1f1fa-1f1f8 1f3f4-e0067-e0062-e0065-e006e-e0067-e007f
       23-20e3 1f308 1f984 1f355 1faae 1f6dc"
cps= ; for f in $files; do cps="$cps${cps:+,}U+$(echo "$f" | sed 's/-/+U+/g')"; done
# the em from ascent 768 to descent 256: at 64 px the drawing's box is 64 x 64 from y = 24
"$B/chromatype" font --svg "$src" --ascent 768 --descent 256 -o "$t/colr1.ttf"
"$B/chromatype" font --svg "$src" --ascent 768 --descent 256 --format svg -o "$t/svg.ttf"
n=0
for f in $files; do rsvg-convert -w 64 -h 64 "$src/$f.svg" -o "$t/src-$n.png"; n=$((n + 1)); done
"$ORACLE/grid.sh" "$t/colr1.ttf" "$t/chromium.png" --codepoints "$cps" --cols 12 --size 64 > /dev/null
"$ORACLE/grid.sh" "$t/svg.ttf" "$t/firefox.png" --browser firefox --codepoints "$cps" --cols 12 --size 64 > /dev/null
"$B/tests/ctgrid" "$t/colr1.ttf" "$t/chromatype.png" --cols 12 --size 64 --codepoints "$cps"
/usr/bin/python3 - "$t" docs/images/artwork-twemoji.png <<'PY'
import sys
from PIL import Image, ImageDraw
t, out = sys.argv[1], sys.argv[2]
rows = [("SVG files (librsvg)", None), ("COLRv1 font, Chromium", "chromium"),
        ("OT-SVG font, Firefox", "firefox"), ("COLRv1 font, chromatype", "chromatype")]
cell, label_w = 96, 190
img = Image.new("RGB", (label_w + 12 * cell, 4 * cell), (255, 255, 255))
d = ImageDraw.Draw(img)
for r, (label, name) in enumerate(rows):
    if name:
        img.paste(Image.open("%s/%s.png" % (t, name)).convert("RGB").crop((0, 0, 12 * cell, cell)), (label_w, r * cell))
    else:
        for i in range(12):
            s = Image.open("%s/src-%d.png" % (t, i)).convert("RGBA")
            img.paste(s, (label_w + i * cell + 16, r * cell + 24), s)
    d.text((8, r * cell + 42), label, fill=(60, 60, 60))
img.save(out, optimize=True)
PY
echo "docs/images/artwork-twemoji.png"
