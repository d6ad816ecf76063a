#!/bin/sh
# make_refs.sh: the browser references of tests/cli/test_artwork_twemoji.sh.  Headless
# Chromium and Firefox each draw the committed Twemoji files (tests/artwork/twemoji/*.svg, in
# name order) as <img> elements in the oracle's grid geometry (svgimg.mjs: 48 px, 10 columns
# of 72 px cells, the pen at (12, 54) in each; the image of a 36x36 file is 48x48 at
# (pen x, baseline - 36), where the glyph of `chromatype font --ascent 768 --descent 256` is).
# Writes tests/artwork/ref-twemoji/{chromium,firefox}.png, the list of files drawn, their
# SHA-256 (the test checks them) and the browsers' versions.  Commit that folder.
#   sh tests/artwork/make_refs.sh          (from the project root)
# Needs Chromium, Firefox ESR and the oracle's puppeteer-core (../shared/oracle/setup.sh).
set -e
here=tests/artwork
ref=$here/ref-twemoji
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
(cd "$here/twemoji" && ls -- *.svg | LC_ALL=C sort) > "$t/names"
sed "s|^|$here/twemoji/|" "$t/names" > "$t/list"
for b in chromium firefox; do
  node "$here/svgimg.mjs" "$t/list" "$t/$b.png" --browser "$b" --cols 10 --out-layout "$t/$b.json"
done
rm -rf "$ref"
mkdir -p "$ref"
cp "$t/chromium.png" "$t/firefox.png" "$t/names" "$ref/"
(cd "$here/twemoji" && sha256sum -- $(cat "$t/names")) > "$ref/SHA256SUMS"
/usr/bin/python3 -c 'import json, sys; print(json.dumps({b: json.load(open(f"{sys.argv[1]}/{b}.json"))["browser"] for b in ("chromium", "firefox")}))' "$t" > "$ref/browsers.json"
echo "$(wc -l < "$ref/names") files drawn into $ref ($(cat "$ref/browsers.json"))"
