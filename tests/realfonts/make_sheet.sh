#!/bin/sh
# docs/images/realfonts-*.png: for each case named, chromatype's drawing (build/tests/ctgrid,
# as tests/cli/test_realfonts.sh draws it) above the browser's committed reference, with a
# label.  usage: sh tests/realfonts/make_sheet.sh OUT.png CASE...   (from the project root)
set -e
B=${CT_BUILD:-build}
out=$1; shift
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
for n in "$@"; do
  j=$(ls tests/realfonts/ref/"$n".*.json | head -1)
  extra=$(grep "^$n *|" tests/realfonts/cases.txt | cut -d'|' -f2)
  args=$(/usr/bin/python3 tests/render/args.py "$j")
  eval "\"$B/tests/ctgrid\" $args $extra -o \"$t/$n.png\""
done
/usr/bin/python3 - "$out" "$t" "$@" <<'PY'
import glob, json, sys
from PIL import Image, ImageDraw
out, tmp, names = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = []
for n in names:
    j = glob.glob("tests/realfonts/ref/%s.*.json" % n)[0]
    d = json.load(open(j))
    browser = "Firefox" if "firefox" in j else "Chromium"
    what = d.get("variations") or ("palette %s" % d["palette"] if d.get("palette") else "no settings")
    extra = [l.split("|")[1].strip() for l in open("tests/realfonts/cases.txt") if l.split("|")[0].strip() == n]
    ours = "chromatype %s" % extra[0] if extra and extra[0] else "chromatype"
    rows.append(("%s (%s): %s above, %s below" % (n, what, ours, browser),
                 Image.open("%s/%s.png" % (tmp, n)).convert("RGB"), Image.open(j[:-5] + ".png").convert("RGB")))
w = max(r[1].size[0] for r in rows)
h = sum(16 + r[1].size[1] + r[2].size[1] + 6 for r in rows)
sheet = Image.new("RGB", (w, h), "white")
draw = ImageDraw.Draw(sheet)
y = 0
for label, a, b in rows:
    draw.text((4, y + 2), label, fill=(60, 60, 60))
    y += 16
    sheet.paste(a, (0, y)); y += a.size[1]
    sheet.paste(b, (0, y)); y += b.size[1]
    draw.line((0, y + 3, w, y + 3), fill=(190, 190, 190))
    y += 6
sheet.save(out, optimize=True)
print("make_sheet.sh: wrote %s (%dx%d)" % (out, w, h))
PY
