#!/bin/sh
# OT-SVG glyph document layouts (tests/fonts/ct-svg-layouts.ttf, made by make_svg.py): the
# glyph id on the root <svg> or on an inner element, viewBox, glyph ranges, shared <defs>.
# Hostile root documents (hostile-svgroot.ttf: zero, negative, non-numeric or absurd viewBox
# and sizes, too many elements, a range whose other glyphs have no element) draw what they
# can, with one warning each, in bounded time.  When ../shared/oracle is there, the layouts
# are also drawn by Firefox now and compared with ours (else one "skip" line: the committed
# references of tests/render/ref are compared by tests/render/run.sh either way).
B=${CT_BUILD:-build}
CT="$B/chromatype"
F=tests/fonts
O=${CT_ORACLE:-../shared/oracle}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "svg-layouts: FAIL: $*"; }

LAYOUTS=U+E600,U+E601,U+E602,U+E603,U+E604,U+E605,U+E606,U+E607,U+E608,U+E609,U+E60A,U+E60B,U+E60C,U+E60D,U+E60E,U+E60F,U+E610,U+E611,U+E612
HOSTILE=U+E260,U+E261,U+E262,U+E263,U+E264,U+E265,U+E266,U+E267,U+E268,U+E269,U+E26A,U+E26B,U+E26C

# the layouts draw without a warning, and not as the plain outlines
"$CT" view $F/ct-svg-layouts.ttf --unicodes=$LAYOUTS --font-size 48 -o "$T/l.png" 2> "$T/l.log" && ok || bad "ct-svg-layouts.ttf failed: $(head -2 "$T/l.log")"
[ -s "$T/l.log" ] && bad "ct-svg-layouts.ttf: unexpected warnings: $(head -2 "$T/l.log")" || ok
"$CT" view $F/ct-svg-layouts.ttf --unicodes=$LAYOUTS --font-size 48 --format=mono -o "$T/m.png" 2>/dev/null
cmp -s "$T/l.png" "$T/m.png" && bad "ct-svg-layouts.ttf: SVG glyphs look like the plain outlines" || ok

# hostile root documents: every output format, bounded time, one warning per bad glyph
for fmt in png pdf svg; do
  if timeout 60 "$CT" view $F/hostile-svgroot.ttf --unicodes=$HOSTILE --font-size=48 -o "$T/h.$fmt" 2> "$T/h.log"; then ok
  else bad "hostile-svgroot.ttf to $fmt failed (status $?): $(head -3 "$T/h.log")"; fi
  [ -s "$T/h.$fmt" ] && ok || bad "hostile-svgroot.ttf: no $fmt written"
done
while IFS='|' read -r gid what; do
  grep -q "hostile-svgroot.ttf: glyph $gid: .*$what" "$T/h.log" && ok || bad "glyph $gid: no warning with '$what': $(grep "glyph $gid:" "$T/h.log")"
done <<'EOF'
2|viewBox "0 0 0 0" has a zero width or height: nothing drawn
3|viewBox "0 0 -100 100" is not four numbers with a positive width and height: ignored
4|viewBox "0 0 1e-30 1e-30" scales the em square by 1e+33
5|viewBox "1e30 1e30 100 100" .* moves it over 10,000 em: nothing drawn
6|viewBox "nan nan nan nan" is not four numbers
7|width and height 1e+09 x 1e+09 scale the em square by 1e-06
8|width and height 1e-09 x 1000 scale the em square by 1e+12
9|preserveAspectRatio "bogus" is not valid: ignored
11|more than 50000 elements in the glyph (its root <svg> is the glyph: the whole document); drawing the plain outline
13|its document (shared by 3 glyphs) has no element with id="glyph13"; drawing the plain outline
14|its document (shared by 3 glyphs) has no element with id="glyph14"; drawing the plain outline
EOF
n=$(grep -c "hostile-svgroot.ttf: glyph" "$T/h.log")
[ "$n" -eq 11 ] && ok || bad "hostile-svgroot.ttf: $n warnings, expected 11: $(cat "$T/h.log")"
grep -q "glyph 10:\|glyph 12:" "$T/h.log" && bad "warnings for the valid glyphs 10 or 12" || ok

# live Firefox (../shared/oracle): its drawing of the layouts now against ours, and against
# the committed reference (a stale one means make_refs_svg.sh was not re-run)
LIMITS="--max-mae 0.5 --min-psnr 36 --max-percent 0.3 --cell 72 --cell-max-mae 1.0"
if [ ! -x "$O/grid.sh" ]; then
  echo "svg-layouts: skip the live Firefox comparison: $O/grid.sh not found (the committed references are compared by tests/render/run.sh)"
elif ! "$O/grid.sh" $F/ct-svg-layouts.ttf "$T/ff.png" --browser firefox --size 48 --cols 8 --layout "$T/ff.json" > "$T/ff.log" 2>&1; then
  echo "svg-layouts: skip the live Firefox comparison: the oracle did not run ($(tail -1 "$T/ff.log"); run $O/setup.sh)"
else
  args=$(/usr/bin/python3 tests/render/args.py "$T/ff.json")
  eval "\"$B/tests/ctgrid\" $args --format svg -o \"$T/ours.png\"" 2> "$T/g.log" && ok || bad "ctgrid failed: $(head -2 "$T/g.log")"
  # shellcheck disable=SC2086
  if res=$("$B/tests/imgcmp" "$T/ours.png" "$T/ff.png" $LIMITS); then ok; echo "svg-layouts: live Firefox vs ours: $(echo "$res" | tail -1)"
  else bad "ours differs from live Firefox: $(echo "$res" | tr '\n' ' ')"; fi
  # shellcheck disable=SC2086
  if res=$("$B/tests/imgcmp" "$T/ff.png" tests/render/ref/ct-svg-layouts.firefox.png --max-mae 0.3 --cell 72 --cell-max-mae 0.5); then ok
  else bad "live Firefox differs from tests/render/ref/ct-svg-layouts.firefox.png (re-run tests/render/ref/make_refs_svg.sh?): $(echo "$res" | tail -1)"; fi
fi

echo "svg-layouts: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
