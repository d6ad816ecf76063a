#!/bin/sh
# Re-create the browser references of the real-font suite (tests/cli/test_realfonts.sh) in
# tests/realfonts/ref/: the fonts of tests/fonts/fontsource (npm @fontsource and
# @fontsource-variable packages) drawn by headless Chromium (COLR fonts) or Firefox (SVG
# fonts) through the development oracle, at default and at non-default axis values.
# Run from the project root after ../shared/oracle/setup.sh (once per machine).
set -e
O=../shared/oracle
R=tests/realfonts/ref
F=tests/fonts/fontsource
[ -x "$O/grid.sh" ] || { echo "make_refs.sh: $O/grid.sh not found (needs ../shared)" >&2; exit 1; }
SAMPLE=U+41,U+42,U+43,U+47,U+4B,U+52,U+61,U+67,U+33,U+26   # A B C G K R a g 3 &
# Where the Latin subset colors only some glyphs, the sample is those (in the font's case):
ACCENTS=U+41,U+E1,U+E9,U+F1,U+F6,U+FC,U+C5,U+D1,U+69,U+6A   # Reem Kufi Fun: colored accents, dots
CAIRO=U+48,U+C7,U+E1,U+E9,U+F1,U+F6,U+33,U+37,U+BD,U+6B     # Cairo Play: accents, digits, fractions
PUNCT=U+21,U+28,U+29,U+7B,U+7D,U+AB,U+BB,U+201C,U+201D,U+2026   # Aref Ruqaa Ink: its SVG glyphs
# name | font | oracle options (besides the size and columns; --codepoints \$SAMPLE unless given)
# Without font-variation-settings a browser sets wght from CSS font-weight (normal = 400) and
# wdth from font-stretch (100): for Foldit and Kalnia Glaze, whose fvar defaults are wght 100,
# the *-css references are that browser default and the plain ones set the fvar default.
while IFS='|' read -r name font opts; do
  name=$(echo "$name" | tr -d ' ')
  case "$name" in ''|'#'*) continue ;; esac
  font=$(echo "$font" | tr -d ' ')
  b=chromium
  case "$opts" in *firefox*) b=firefox ;; esac
  # shellcheck disable=SC2086
  case "$opts" in *--codepoints*) cps= ;; *) cps="--codepoints $SAMPLE" ;; esac
  opts=$(eval "echo \"$opts\"")   # expands $ACCENTS and the like
  (set -x; $O/grid.sh "$F/$font" "$R/$name.$b.png" $cps --size 48 --cols 10 $opts \
    --layout "$R/$name.$b.json")
done <<'CASES'
nabla                      | nabla-latin-full-normal.woff2                 |
nabla-edpt200-ehlt24       | nabla-latin-full-normal.woff2                 | --variations EDPT=200,EHLT=24
nabla-edpt30-ehlt0         | nabla-latin-full-normal.woff2                 | --variations EDPT=30,EHLT=0
nabla-p3                   | nabla-latin-full-normal.woff2                 | --palette 3
nabla-svg                  | nabla-latin-full-normal.woff2                 | --browser firefox
honk                       | honk-latin-full-normal.woff2                  |
honk-morf45-shln100        | honk-latin-full-normal.woff2                  | --variations MORF=45,SHLN=100
honk-morf0-shln50          | honk-latin-full-normal.woff2                  | --variations MORF=0,SHLN=50
kalnia-glaze               | kalnia-glaze-latin-standard-normal.woff2      | --variations wght=100,wdth=100
kalnia-glaze-css           | kalnia-glaze-latin-standard-normal.woff2      |
kalnia-glaze-wght700-wdth125 | kalnia-glaze-latin-standard-normal.woff2    | --variations wght=700,wdth=125
kalnia-glaze-wght400-wdth112 | kalnia-glaze-latin-standard-normal.woff2    | --variations wght=400,wdth=112
foldit                     | foldit-latin-wght-normal.woff2                | --variations wght=100
foldit-css                 | foldit-latin-wght-normal.woff2                |
foldit-wght900             | foldit-latin-wght-normal.woff2                | --variations wght=900
foldit-wght500             | foldit-latin-wght-normal.woff2                | --variations wght=500
cairo-play                 | cairo-play-latin-standard-normal.woff2        | --codepoints $CAIRO
cairo-play-wght1000-slnt-11 | cairo-play-latin-standard-normal.woff2       | --codepoints $CAIRO --variations wght=1000,slnt=-11
cairo-play-wght200-slnt11  | cairo-play-latin-standard-normal.woff2        | --codepoints $CAIRO --variations wght=200,slnt=11
reem-kufi-fun              | reem-kufi-fun-latin-wght-normal.woff2         | --codepoints $ACCENTS
reem-kufi-fun-wght700      | reem-kufi-fun-latin-wght-normal.woff2         | --codepoints $ACCENTS --variations wght=700
bitcount-prop-single-ink   | bitcount-prop-single-ink-latin-full-normal.woff2 |
bitcount-prop-single-ink-a | bitcount-prop-single-ink-latin-full-normal.woff2 | --variations wght=900,ELSH=100,CRSV=1
bitcount-prop-single-ink-b | bitcount-prop-single-ink-latin-full-normal.woff2 | --variations ELXP=100,SZP1=100,XPN1=100,YPN2=-100
bitcount-grid-double-ink   | bitcount-grid-double-ink-latin-full-normal.woff2 |
bitcount-grid-double-ink-a | bitcount-grid-double-ink-latin-full-normal.woff2 | --variations wght=100,ELXP=50,slnt=-8,SZP2=100
sixtyfour-convergence      | sixtyfour-convergence-latin-full-normal.woff2 |
sixtyfour-convergence-a    | sixtyfour-convergence-latin-full-normal.woff2 | --variations SCAN=100,BLED=100
sixtyfour-convergence-b    | sixtyfour-convergence-latin-full-normal.woff2 | --variations XELA=100,YELA=-100,SCAN=-53
bungee-tint                | bungee-tint-latin-400-normal.woff2            |
bungee-tint-p4             | bungee-tint-latin-400-normal.woff2            | --palette 4
aref-ruqaa-ink             | aref-ruqaa-ink-latin-400-normal.woff2         | --codepoints $PUNCT --browser firefox
CASES
# Normalize the layout JSON so that it does not depend on the machine or run:
# project-relative paths, no timing ("ms").
/usr/bin/python3 - "$R"/*.json <<'PY'
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
