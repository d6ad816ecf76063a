#!/bin/sh
# Re-create the Chromium reference PNGs (+ layout JSON) in tests/render/ref/.
# Run from the project root, after ../shared/oracle/setup.sh (once per machine).
# See README.md here for the Chromium version these were made with.
set -e
O=../shared/oracle
R=tests/render/ref
F=tests/fonts
CF=../shared/fonts/color-fonts
[ -x "$O/grid.sh" ] || { echo "make_refs.sh: $O/grid.sh not found (needs ../shared)" >&2; exit 1; }
set -x
$O/grid.sh $F/ct-colr0.ttf $R/ct-colr0.chromium.png --codepoints U+41-U+44 --size 48 --cols 4 --layout $R/ct-colr0.chromium.json
$O/grid.sh $F/ct-colr0.ttf $R/ct-colr0-p1.chromium.png --codepoints U+41-U+44 --size 48 --cols 4 --palette 1 --layout $R/ct-colr0-p1.chromium.json
$O/grid.sh $F/ct-colr0.ttf $R/ct-colr0-p2.chromium.png --codepoints U+41-U+44 --size 48 --cols 4 --palette 2 --layout $R/ct-colr0-p2.chromium.json
$O/grid.sh $F/ct-colr0.ttf $R/ct-colr0-override.chromium.png --codepoints U+41-U+44 --size 48 --cols 4 --override '0=#00ff00ff,3=#ff000080' --layout $R/ct-colr0-override.chromium.json
$O/grid.sh $F/ct-colr0.ttf $R/ct-colr0-fg.chromium.png --codepoints U+41-U+44 --size 48 --cols 4 --fg '#0000ff' --layout $R/ct-colr0-fg.chromium.json
$O/grid.sh $F/ct-colr0-cff.otf $R/ct-colr0-cff.chromium.png --codepoints U+41-U+44 --size 48 --cols 4 --layout $R/ct-colr0-cff.chromium.json
$O/grid.sh $F/twemoji-colr0.woff2 $R/twemoji-colr0.chromium.png --codepoints U+263A,U+1F601,U+1F60D,U+1F60E,U+1F970,U+1F308,U+1F3A8,U+2764 --size 48 --cols 8 --layout $R/twemoji-colr0.chromium.json
$O/grid.sh $CF/twemoji-smiley-colr_0.ttf $R/twemoji-smiley-colr_0.chromium.png --size 48 --cols 8 --layout $R/twemoji-smiley-colr_0.chromium.json
$O/grid.sh $CF/samples-colr_0.ttf $R/samples-colr_0.chromium.png --strings simple_linear,simple_radial --size 48 --cols 8 --layout $R/samples-colr_0.chromium.json
set +x
# Normalize the layout JSON so that it does not depend on the machine or run:
# project-relative paths, no timing ("ms").
/usr/bin/python3 - "$R"/*.chromium.json <<'PY'
import json, os, sys
for path in sys.argv[1:]:
    with open(path) as f:
        d = json.load(f)
    d.pop("ms", None)
    for k in ("font", "out"):
        if k in d:
            d[k] = os.path.relpath(d[k])
    with open(path, "w") as f:
        json.dump(d, f, ensure_ascii=False, indent=1)
        f.write("\n")
PY
echo "make_refs.sh: done"
