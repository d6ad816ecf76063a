#!/bin/sh
# OT-SVG and bitmap glyphs from the command line: hostile documents are contained (their
# safe part drawn, one warning each, bounded time, and nothing outside the font read:
# checked with strace), gzip bombs refused, real SVG and bitmap fonts render.
B=${CT_BUILD:-build}
CT="$B/chromatype"
F=tests/fonts
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "svg: FAIL: $*"; }

HOSTILE=U+E200,U+E201,U+E202,U+E203,U+E204,U+E205,U+E206,U+E207,U+E208,U+E209,U+E20A,U+E20B,U+E20C,U+E20D,U+E20E,U+E20F,U+E210,U+E211
MARK=$(cat $F/secret.txt)

# every hostile glyph draws, in bounded time, with warnings naming what was removed
for fmt in png pdf svg; do
  if timeout 60 "$CT" view $F/hostile-svg.ttf --unicodes=$HOSTILE --font-size=48 -o "$T/h.$fmt" 2> "$T/h.log"; then ok; else bad "hostile-svg.ttf to $fmt failed: $(head -3 "$T/h.log")"; fi
  grep -a -q "$MARK" "$T/h.$fmt" && bad "the secret file's content is in the $fmt output" || ok
done
for w in "removed <script>" "onload" "<foreignObject>" "<image> (external)" "@import/url() rules" \
         "fill url()" "has a DOCTYPE" "entity reference loop" "nested deeper than 256" "<text>" "<a>"; do
  grep -q -- "$w" "$T/h.log" && ok || bad "no warning with '$w'"
done
grep -q "hostile-svg.ttf: glyph" "$T/h.log" && ok || bad "warnings do not name the font and glyph"

# nothing outside the font is opened, and no socket is made
if command -v strace >/dev/null 2>&1; then
  strace -f -qq -e trace=open,openat,connect,socket -o "$T/trace" \
    "$CT" view $F/hostile-svg.ttf --unicodes=$HOSTILE --font-size=48 -o "$T/s.png" 2>/dev/null
  if grep -E 'secret\.txt|/etc/hostname|/etc/passwd' "$T/trace" >/dev/null; then
    bad "a file outside the font was opened: $(grep -E 'secret|hostname|passwd' "$T/trace" | head -3)"
  else ok; fi
  if grep -E '^[0-9]+ +(connect|socket)\(' "$T/trace" | grep -v AF_UNIX >/dev/null; then
    bad "a network socket was made: $(grep -E 'connect|socket' "$T/trace" | head -3)"
  else ok; fi
else
  echo "svg: skip the strace checks: strace not installed"
fi

# a gzip bomb: refused at the cap, quickly, with one line; the next glyph still draws
timeout 30 "$CT" view $F/hostile-svgz.ttf --unicodes=U+E240,U+E241 --font-size=48 -o "$T/z.png" 2> "$T/z.log" && ok || bad "hostile-svgz.ttf failed"
grep -q "inflates past the limit" "$T/z.log" && ok || bad "no gzip-bomb warning: $(cat "$T/z.log")"
[ "$(grep -c . "$T/z.log")" -eq 1 ] && ok || bad "gzip bomb: $(grep -c . "$T/z.log") warning lines"

# real SVG fonts: fast, colored, and --format picks the representation
for f in nabla-svg-latin.woff2:Nabla bungee-spice-latin.woff2:SPICE; do
  font=${f%%:*} text=${f#*:}
  "$CT" view $F/$font "$text" --font-size 64 -o "$T/a.png" 2> "$T/a.log" && ok || bad "$font failed"
  "$CT" view $F/$font "$text" --font-size 64 --format=mono -o "$T/m.png" 2>/dev/null
  cmp -s "$T/a.png" "$T/m.png" && bad "$font: SVG glyphs look like the plain outlines" || ok
  [ -s "$T/a.log" ] && bad "$font: unexpected warnings: $(head -2 "$T/a.log")" || ok
done
"$CT" view $F/noto-color-emoji-svg-subset.woff2 --unicodes=U+1F600,U+1F308,U+2764,U+1F680 --font-size 64 -o "$T/n.png" 2> "$T/n.log" && ok || bad "Noto SVG failed"
[ -s "$T/n.log" ] && bad "Noto SVG: unexpected warnings: $(head -2 "$T/n.log")" || ok

# bitmaps: sbix and CBDT of the same PNGs draw the same; PDF embeds each bitmap once
"$CT" view $F/ct-sbix.ttf --unicodes=U+E300,U+E301,U+E302 --font-size 64 -o "$T/sbix.png" && ok || bad "ct-sbix failed"
"$CT" view $F/ct-cbdt.ttf --unicodes=U+E300,U+E301,U+E302 --font-size 64 -o "$T/cbdt.png" && ok || bad "ct-cbdt failed"
if command -v pdfimages >/dev/null 2>&1; then
  "$CT" view $F/ct-cbdt.ttf --unicodes=U+E300,U+E300,U+E300,U+E301 --font-size 64 -o "$T/b.pdf"
  n=$(pdfimages -list "$T/b.pdf" | awk 'NR > 2 && $3 == "image"' | awk '{print $11}' | sort -u | wc -l)
  [ "$n" -eq 2 ] && ok || bad "PDF holds $n distinct bitmap images for 2 distinct glyphs"
fi

echo "svg: $pass passed, $fail failed"
