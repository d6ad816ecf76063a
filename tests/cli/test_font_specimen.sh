#!/bin/sh
# test_font_specimen.sh: chromatype font --specimen, a font's specimen page (the font inside
# as a data: URL, its text in every palette, a slider per axis, the axes animated; #t=S
# stops the animation at S seconds).  The page of a stack font with three palettes and of an
# extrusion-axis font are checked as text, then drawn by headless Chromium: every palette's
# colors are on the page, and the animated line differs between two times.
SUITE=font_specimen
. tests/cli/lib.sh
B=${CT_BUILD:-build}
CT=$B/chromatype
PY=/usr/bin/python3
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
. tests/fontmake/fonts.sh
. tests/fontmake/axes.sh

expect 0 "" "$CT" font --layer "$SHADE=#0078bf" --layer "$REGULAR=#ffe800" --layer "$HAIRLINE=#ff48b0" --lead 2 \
  --palette 'Night:0=#1d3557,1=#f1faee,2=#e63946' --palette 'Mono:0=#999999,1=#ffffff,2=#000000' --palette-type dark \
  --family 'Bungee Riso' --text CHROMATIC -o "$t/riso.ttf" --specimen "$t/riso.html"
expect 0 "" "$CT" font "$REGULAR" -f "$EXTRUDE_AXIS" --axis 'EXTR=0:0:100,name=Extrusion' --text CHROMA \
  --family 'Bungee Extrude' -o "$t/extrude.woff2" --specimen "$t/extrude.html"
# the page: self-contained, the font's bytes inside, a palette rule each, a slider an axis
if out=$($PY - "$t" <<'PY' 2>&1
import base64, re, sys
t = sys.argv[1]
for name, font, mime, pals, axes in (("riso", "riso.ttf", "font/ttf", 3, 0), ("extrude", "extrude.woff2", "font/woff2", 1, 1)):
    h = open(f"{t}/{name}.html", encoding="utf-8").read()
    m = re.search(r"url\(data:([^;]+);base64,([A-Za-z0-9+/=]+)\)", h)
    assert m and m.group(1) == mime, (name, "no data: URL of " + mime)
    assert base64.b64decode(m.group(2)) == open(f"{t}/{font}", "rb").read(), (name, "the data: URL is not the font")
    assert len(re.findall(r"@font-palette-values --palette-\d+", h)) == pals, (name, "palette rules")
    assert len(re.findall(r'<input type="range"', h)) == axes, (name, "sliders")
    assert not re.search(r'(src|href)\s*=\s*"(https?:)?//', h), (name, "an outside resource")
    assert ("@keyframes axes { 0%, 100%" in h) == (axes > 0), (name, "animation")
print("ok")
PY
); then ok; else bad "the specimen pages: $out"; fi
expect 0 "Night (dark)" grep -o "Palette 1: Night (dark)" "$t/riso.html"

chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$chrome" ]; then
  shot() {   # PAGE#HASH OUT
    timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
      --window-size=900,700 --screenshot="$2" "file://$1" > /dev/null 2>&1
  }
  shot "$t/riso.html" "$t/riso.png"
  shot "$t/extrude.html#t=0" "$t/x0.png"
  shot "$t/extrude.html#t=1" "$t/x1.png"
  if out=$($PY - "$t" <<'PY' 2>&1
import sys
from PIL import Image
t = sys.argv[1]
im = Image.open(t + "/riso.png").convert("RGB")
px = list(im.getdata())
def near(c, tol=24):
    return sum(1 for p in px if all(abs(p[i] - c[i]) <= tol for i in range(3)))
# each palette's shade color (its deepest layer), drawn in its sample line
for name, c in (("0 (#0078bf)", (0x00, 0x78, 0xbf)), ("1 (#1d3557)", (0x1d, 0x35, 0x57)), ("2 (#999999)", (0x99, 0x99, 0x99))):
    n = near(c)
    assert n > 2000, "palette %s: %d pixels of its color" % (name, n)
a = Image.open(t + "/x0.png").convert("L")
b = Image.open(t + "/x1.png").convert("L")
diff = sum(1 for p, q in zip(a.getdata(), b.getdata()) if abs(p - q) > 48)
assert diff > 1000, "the animated line is the same at 0 s and 1 s (%d pixels differ)" % diff
print("ok")
PY
  ); then ok; else bad "Chromium's drawing of the specimens: $out"; fi
else
  echo "$SUITE: chromium missing: the browser checks skipped"
fi

# ---- bad input ------------------------------------------------------------------------
expect 2 "specimen" "$CT" font --svg tests/artwork/twemoji --specimen "$t/x.html" -o "$t/x.ttf"
expect 1 "specimen: .*cannot" "$CT" font "$REGULAR" -f "$(EXTRUDE_AT 0.05em)" --text A -o "$t/y.ttf" \
  --specimen "$t/no/such/dir/y.html"
[ ! -e "$t/no/such/dir/y.html" ] && ok || bad "a failed specimen left a page"
finish
