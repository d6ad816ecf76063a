#!/bin/sh
# test_realfonts.sh: fonts as browsers read them.  The real color fonts of npm's @fontsource
# and @fontsource-variable packages (tests/fonts/fontsource, fetched by its fetch.sh) open
# with the formats and axes they carry, and draw as Chromium (COLR) or Firefox (SVG) draws
# them, at default and non-default axis values and palettes (tests/realfonts: committed
# references of ../shared/oracle, compared by tests/render/run.sh); WOFF2 decoding: the font
# with the overlapSimple bitmap draws as its TTF, hostile WOFF2 files get one line and a
# non-zero exit.  With the oracle set up, one reference is also re-made live.
SUITE=realfonts
. tests/cli/lib.sh
B=${CT_BUILD:-build}
CT=$B/chromatype
F=tests/fonts/fontsource
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# the fonts: sha256 as fetched, and what `chromatype info` finds in each
if (cd $F && sha256sum -c --quiet SHA256SUMS); then ok; else bad "tests/fonts/fontsource: sha256 mismatch"; fi
while read -r font formats axes; do
  out=$($CT info --json "$F/$font" 2>&1) || { bad "info $font: $out"; continue; }
  got=$(printf '%s' "$out" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
print(",".join(d["color_formats"]), ",".join(a["tag"] for a in d.get("axes", [])) or "-")')
  if [ "$got" = "$formats $axes" ]; then ok; else bad "info $font: '$got', want '$formats $axes'"; fi
done <<'EOF'
nabla-latin-full-normal.woff2                    COLRv1,SVG EDPT,EHLT
honk-latin-full-normal.woff2                     COLRv1 MORF,SHLN
kalnia-glaze-latin-standard-normal.woff2         COLRv1 wght,wdth
foldit-latin-wght-normal.woff2                   COLRv1 wght
cairo-play-latin-standard-normal.woff2           COLRv0 wght,slnt
reem-kufi-fun-latin-wght-normal.woff2            COLRv0 wght
bitcount-prop-single-ink-latin-full-normal.woff2 COLRv1 wght,ELXP,ELSH,slnt,CRSV,SZP1,XPN1,YPN1,SZP2,XPN2,YPN2
bitcount-grid-double-ink-latin-full-normal.woff2 COLRv1 wght,ELXP,ELSH,slnt,CRSV,SZP1,XPN1,YPN1,SZP2,XPN2,YPN2
sixtyfour-convergence-latin-full-normal.woff2    COLRv1 SCAN,BLED,XELA,YELA
bungee-tint-latin-400-normal.woff2               COLRv0 -
aref-ruqaa-ink-latin-400-normal.woff2            SVG -
EOF

# against the browsers (the references' own suite runner; its counts are folded into ours)
out=$(sh tests/render/run.sh tests/realfonts 2>&1)
printf '%s\n' "$out" | grep -v ': [0-9]* passed, [0-9]* failed'
p=$(printf '%s\n' "$out" | sed -n 's/^realfonts: \([0-9]*\) passed, \([0-9]*\) failed.*/\1/p')
f=$(printf '%s\n' "$out" | sed -n 's/^realfonts: \([0-9]*\) passed, \([0-9]*\) failed.*/\2/p')
if [ -z "$p" ]; then bad "tests/render/run.sh tests/realfonts printed no summary"; else
  pass=$((pass + p)); fail=$((fail + f)); fi

# `chromatype view --variations` on a real variable font: the fvar defaults given explicitly
# draw the unstyled image, other values another one
N=$F/nabla-latin-full-normal.woff2
$CT view $N 'Nabla' --font-size 64 -o "$t/n0.png" && $CT view $N 'Nabla' --font-size 64 --variations EDPT=100,EHLT=12 -o "$t/n1.png" &&
  $CT view $N 'Nabla' --font-size 64 --variations EDPT=200,EHLT=24 -o "$t/n2.png" || bad "view --variations $N"
if res=$($B/tests/imgcmp "$t/n1.png" "$t/n0.png" --max-mae 0 --max-percent 0); then ok; else bad "explicit default axes differ from none: $res"; fi
if $B/tests/imgcmp "$t/n2.png" "$t/n0.png" --max-mae 2 > /dev/null; then bad "EDPT=200,EHLT=24 draws as the defaults"; else ok; fi

# the glyf transform with the overlapSimple bitmap draws exactly as the TTF it was made from
$CT view tests/fonts/ct-overlap.ttf '+OC' --font-size 96 -o "$t/ttf.png" &&
  $CT view tests/fonts/ct-overlap.woff2 '+OC' --font-size 96 -o "$t/woff2.png" || bad "view ct-overlap"
if res=$($B/tests/imgcmp "$t/woff2.png" "$t/ttf.png" --max-mae 0 --max-percent 0); then ok; else
  bad "ct-overlap.woff2 draws unlike ct-overlap.ttf: $res"; fi

# hostile WOFF2: one line naming the file, non-zero exit, for info and for view
for h in size directory truncated corrupt; do
  f=tests/fonts/hostile-woff2-$h.woff2
  for cmd in info view; do
    if [ $cmd = info ]; then out=$($CT info "$f" 2>&1); else out=$($CT view "$f" A -o "$t/h.png" 2>&1); fi
    rc=$?
    if [ $rc -ne 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s' "$out" | grep -q "$f: .*WOFF2"; then
      ok; else bad "$cmd $f: exit $rc: $out"; fi
  done
done
[ ! -e "$t/h.png" ] && ok || bad "view of a hostile WOFF2 wrote a file"

# live: one reference re-made by the browser, when the oracle is set up on this machine
O=../shared/oracle
if [ -x "$O/grid.sh" ] && { [ -d "$O/node_modules" ] || [ -d "${ORACLE_HOME:-$HOME/.cache/color-oracle}/node_modules" ]; }; then
  if $O/grid.sh $F/nabla-latin-full-normal.woff2 "$t/live.png" --codepoints U+41,U+42,U+43,U+47,U+4B,U+52,U+61,U+67,U+33,U+26 \
       --size 48 --cols 10 --variations EDPT=200,EHLT=24 > /dev/null 2>&1; then
    if res=$($B/tests/imgcmp "$t/live.png" tests/realfonts/ref/nabla-edpt200-ehlt24.chromium.png --max-mae 0.4 --min-psnr 40); then ok; else
      bad "the live Chromium no longer draws the committed reference (browser updated? re-run tests/realfonts/make_refs.sh): $res"; fi
  else
    bad "oracle grid.sh failed"
  fi
else
  echo "$SUITE: skip: live browser check (../shared/oracle not set up; the committed references are used)"
fi
finish
