#!/bin/sh
# make_stroke_refs.sh: the Chromium references of tests/cli/test_artwork_strokes.sh.  Writes
# the set of gen_strokes.py, has headless Chromium draw each SVG as an <img> in the test's
# geometry (strokes_chromium.mjs: a 144 px page, the image 96 px high at (24, 36)) and keeps
# the PNGs in tests/artwork/ref-strokes/ with the SHA-256 of the SVGs they were drawn from
# (the test checks that the generator still writes those) and the browser's version.
#   sh tests/artwork/make_stroke_refs.sh          (from the project root)
# Needs Chromium (Debian chromium) and puppeteer-core from ../shared/oracle/setup.sh
# ($ORACLE_HOME, default ~/.cache/color-oracle).  Commit tests/artwork/ref-strokes/.
set -e
dir=tests/artwork
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
/usr/bin/python3 "$dir/gen_strokes.py" "$out/svg"
rm -rf "$dir/ref-strokes"
mkdir -p "$dir/ref-strokes"
node "$dir/strokes_chromium.mjs" "$dir/ref-strokes" 144 24 36 96 "$out"/svg/*.svg > "$dir/ref-strokes/chromium.json"
(cd "$out/svg" && sha256sum -- *.svg cases.txt) > "$dir/ref-strokes/SHA256SUMS"
echo "$(find "$dir/ref-strokes" -name '*.png' | wc -l) references in $dir/ref-strokes ($(cat "$dir/ref-strokes/chromium.json"))"
