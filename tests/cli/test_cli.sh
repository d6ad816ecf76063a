#!/bin/sh
# Command-line tests: chromatype view / info / scripts, their options, and bad input
# (one clear line naming the file and the problem, non-zero exit, no file left behind).
B=${CT_BUILD:-build}
CT="$B/chromatype"
F=tests/fonts
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "cli: FAIL: $*"; }

# expect STATUS PATTERN CMD...: exit status and a pattern in stdout+stderr
expect() {
  want=$1 pat=$2; shift 2
  out=$("$@" 2>&1); got=$?
  if [ "$got" -ne "$want" ]; then bad "$* -> exit $got, want $want: $out"; return; fi
  if [ -n "$pat" ] && ! printf '%s' "$out" | grep -q -- "$pat"; then bad "$* -> output lacks '$pat': $out"; return; fi
  ok
}

# errors are one line
one_line() {
  out=$("$@" 2>&1 >/dev/null)
  n=$(printf '%s\n' "$out" | wc -l)
  if [ "$n" -eq 1 ]; then ok; else bad "$* -> $n lines of error: $out"; fi
}

png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{print $3*256+$4 "x" $7*256+$8}'; }

# ---- help and version
expect 0 "usage: chromatype" "$CT" --help
expect 0 "chromatype 0" "$CT" --version
expect 0 "--font-palette" "$CT" view --help
expect 0 "--json" "$CT" info --help
expect 0 "chromatype 0" "$CT" view --version
expect 2 "usage" "$CT"

# ---- view: formats by extension and -O
expect 0 "" "$CT" view $F/ct-colr0.ttf ABCD -o "$T/a.png"
expect 0 "" "$CT" view $F/ct-colr0.ttf ABCD -o "$T/a.pdf"
expect 0 "" "$CT" view $F/ct-colr0.ttf ABCD -o "$T/a.svg"
expect 0 "" "$CT" view $F/ct-colr0.ttf ABCD -O svg -o "$T/a.out"
head -c 8 "$T/a.png" | od -An -c | grep -q 'P   N   G' && ok || bad "a.png is not a PNG"
head -c 5 "$T/a.pdf" | grep -q '%PDF-' && ok || bad "a.pdf is not a PDF"
grep -q '<svg' "$T/a.svg" && ok || bad "a.svg is not SVG"
grep -q '<svg' "$T/a.out" && ok || bad "-O svg ignored"
# hb-view geometry: margins 16 + advance 4*800 units at 256 pt = 819.2 pt, rounded up; height 16+256+16
[ "$(png_size "$T/a.png")" = "852x288" ] && ok || bad "a.png size $(png_size "$T/a.png"), want 852x288"
expect 0 "" "$CT" view $F/ct-colr0.ttf AB --font-size=100 --margin=0 -o "$T/b.png"
[ "$(png_size "$T/b.png")" = "160x100" ] && ok || bad "b.png size $(png_size "$T/b.png"), want 160x100"
expect 0 "" "$CT" view $F/ct-colr0.ttf AB --font-size 100 --margin 0 --dpi 144 -o "$T/b2.png"
[ "$(png_size "$T/b2.png")" = "320x200" ] && ok || bad "--dpi 144 size $(png_size "$T/b2.png")"
# stdout
"$CT" view $F/ct-colr0.ttf AB -o - > "$T/stdout.png" && head -c 4 "$T/stdout.png" | grep -q PNG && ok || bad "-o - did not write a PNG"
"$CT" view $F/ct-colr0.ttf AB -O pdf > "$T/stdout.pdf" && head -c 4 "$T/stdout.pdf" | grep -q PDF && ok || bad "-O pdf to stdout"

# ---- same input, same bytes (PNG, PDF, SVG; two processes)
for ext in png pdf svg; do
  "$CT" view $F/ct-colr0.ttf ABCD -o "$T/d1.$ext" && "$CT" view $F/ct-colr0.ttf ABCD -o "$T/d2.$ext"
  cmp -s "$T/d1.$ext" "$T/d2.$ext" && ok || bad "$ext output differs between runs"
done

# ---- palettes, overrides, foreground, format: each changes the image
"$CT" view $F/ct-colr0.ttf A --font-size 50 --margin 0 -o "$T/p0.png"
for opt in --font-palette=1 --font-palette=dark --font-palette=Light "--custom-palette=0=00FF00FF" --foreground=FF0000 --format=mono "--background=00000000"; do
  "$CT" view $F/ct-colr0.ttf A --font-size 50 --margin 0 "$opt" -o "$T/p.png" || bad "$opt failed"
  cmp -s "$T/p0.png" "$T/p.png" && bad "$opt did not change the image" || ok
done
"$CT" view $F/ct-colr0.ttf A --font-size 50 --margin 0 --font-palette=2 -o "$T/p2.png"
"$CT" view $F/ct-colr0.ttf A --font-size 50 --margin 0 --font-palette=dark -o "$T/pd.png"
cmp -s "$T/p2.png" "$T/pd.png" && ok || bad "--font-palette=dark is not palette 2"
"$CT" view $F/ct-colr0.ttf A --font-size 50 --margin 0 --font-palette=Dark -o "$T/pn.png"
cmp -s "$T/p2.png" "$T/pn.png" && ok || bad "--font-palette=Dark (by name) is not palette 2"
# an override of an entry A does not use changes nothing
"$CT" view $F/ct-colr0.ttf A --font-size 50 --margin 0 --custom-palette=3=123456FF -o "$T/p3.png"
cmp -s "$T/p0.png" "$T/p3.png" && ok || bad "override of an unused entry changed A"

# ---- unicodes, features, variations, face index, containers
expect 0 "" "$CT" view $F/ct-colr0.ttf --unicodes=U+41,U+42 -o "$T/u.png"
"$CT" view $F/ct-colr0.ttf AB -o "$T/ab.png"; cmp -s "$T/u.png" "$T/ab.png" && ok || bad "--unicodes U+41,U+42 != AB"
expect 0 "" "$CT" view $F/ct-colr0.ttf AB --features=-kern,+liga -o "$T/f.png"
expect 0 "" "$CT" view $F/ct-collection.ttc AB --face-index=1 -o "$T/c1.png"
cmp -s "$T/c1.png" "$T/ab.png" && bad "--face-index=1 drew face 0" || ok
for f in ct-colr0-cff.otf ct-colr0.woff ct-colr0.woff2 twemoji-colr0.woff2; do
  expect 0 "" "$CT" view $F/$f --unicodes=U+41,U+263A -o "$T/x.png"
done

# ---- COLRv1 variations follow --variations; the COLRv0 records are not used
"$CT" view $F/ct-colr1-var.ttf --unicodes=U+E000,U+E003,U+E006 --font-size 64 -o "$T/v0.png"
"$CT" view $F/ct-colr1-var.ttf --unicodes=U+E000,U+E003,U+E006 --font-size 64 --variations=SWPS=90,ALPH=0.5 -o "$T/v1.png"
cmp -s "$T/v0.png" "$T/v1.png" && bad "--variations did not change COLRv1 glyphs" || ok
"$CT" view $F/ct-colr1-var.ttf --unicodes=U+E000,U+E003,U+E006 --font-size 64 --variations=SWPS=0,ALPH=1 -o "$T/v2.png"
cmp -s "$T/v0.png" "$T/v2.png" && ok || bad "default axis values differ from no --variations"
expect 1 "has no axis 'wdth'" "$CT" view $F/ct-colr1-var.ttf --unicodes=U+E000 --variations=wdth=80 -o "$T/e.png"
expect 0 "COLRv1" "$CT" info $F/ct-colr1.ttf
expect 0 "SWPS  0..360, default 0" "$CT" info $F/ct-colr1-var.ttf

# ---- info
expect 0 "Family:        Chromatype Test" "$CT" info $F/ct-colr0.ttf
expect 0 'palette 2 "Dark" \[dark background\]' "$CT" info $F/ct-colr0.ttf
expect 0 "#FFE08080  Sun" "$CT" info $F/ct-colr0.ttf
expect 0 "Color formats: COLRv0" "$CT" info $F/ct-colr0.ttf
expect 0 "Container:     WOFF2" "$CT" info $F/ct-colr0.woff2
expect 0 "Chromatype Test Two" "$CT" info $F/ct-collection.ttc --face-index 1
expect 0 '"type": "light", "name": "Light"' "$CT" info --json $F/ct-colr0.ttf
if command -v python3 >/dev/null; then
  "$CT" info --json $F/ct-colr0.ttf | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["palettes"][2]["colors"][3]=="FFE08080"; assert d["palette_entry_labels"]==["Fill","Accent","Leaf","Sun"]; assert d["color_formats"]==["COLRv0"]' && ok || bad "info --json is not the expected JSON"
fi

# ---- bad input: one line naming the file and problem, exit non-zero, no output file
expect 1 "nope.ttf: cannot open: No such file" "$CT" view nope.ttf A -o "$T/e.png"
expect 1 "not-a-font.ttf: not a font file" "$CT" view $F/not-a-font.ttf A -o "$T/e.png"
expect 1 "ct-truncated.ttf: truncated" "$CT" view $F/ct-truncated.ttf A -o "$T/e.png"
expect 1 "ct-colr0.ttf: palette 7 out of range (the font has 3 palettes)" "$CT" view $F/ct-colr0.ttf A --font-palette=7 -o "$T/e.png"
expect 1 "no palette named 'Nope'" "$CT" view $F/ct-colr0.ttf A --font-palette=Nope -o "$T/e.png"
expect 1 "face index 3 out of range" "$CT" view $F/ct-collection.ttc A --face-index=3 -o "$T/e.png"
expect 1 "/no/such/dir/e.png: cannot write" "$CT" view $F/ct-colr0.ttf A -o /no/such/dir/e.png
expect 1 "has no axes" "$CT" view $F/ct-colr0.ttf A --variations=wght=700 -o "$T/e.png"
expect 2 "unknown option '--bogus'" "$CT" view $F/ct-colr0.ttf A --bogus -o "$T/e.png"
expect 2 "bad color 'red'" "$CT" view $F/ct-colr0.ttf A --foreground=red -o "$T/e.png"
expect 2 "bad value 'x' for --font-size" "$CT" view $F/ct-colr0.ttf A --font-size=x -o "$T/e.png"
expect 2 "bad value '0' for --font-size" "$CT" view $F/ct-colr0.ttf A --font-size=0 -o "$T/e.png"
expect 2 "bad value 'gif' for --output-format" "$CT" view $F/ct-colr0.ttf A -O gif -o "$T/e.png"
expect 2 "bad code point 'XYZ'" "$CT" view $F/ct-colr0.ttf --unicodes=U+41,XYZ -o "$T/e.png"
expect 2 "bad --custom-palette entry" "$CT" view $F/ct-colr0.ttf A --custom-palette=FF0000 -o "$T/e.png"
expect 2 "needs a value" "$CT" view $F/ct-colr0.ttf A -o
expect 2 "no text given" "$CT" view $F/ct-colr0.ttf -o "$T/e.png"
expect 2 "unknown option '--bogus'" "$CT" info --bogus $F/ct-colr0.ttf
expect 1 "nope.ttf: cannot open" "$CT" info nope.ttf
expect 1 "bad feature '=x'" "$CT" view $F/ct-colr0.ttf A --features='+liga,=x' -o "$T/e.png"
[ -e "$T/e.png" ] && bad "a failed run left $T/e.png" || ok
ls "$T" | grep -q 'tmp-' && bad "a temporary file was left: $(ls "$T")" || ok
one_line "$CT" view $F/ct-truncated.ttf A -o "$T/e.png"
one_line "$CT" view $F/ct-colr0.ttf A --bogus
one_line "$CT" view /no/font A

# ---- a character the font lacks: .notdef drawn, one warning naming it and the font
expect 0 "warning: tests/fonts/ct-colr0.ttf: no glyph for U+005A 'Z'" "$CT" view $F/ct-colr0.ttf AZZ -o "$T/w.png"
n=$("$CT" view $F/ct-colr0.ttf AZZ -o "$T/w.png" 2>&1 | grep -c 'no glyph')
[ "$n" -eq 1 ] && ok || bad "missing character warned $n times, want once"

# ---- fonts by name through fontconfig (Debian's Noto Color Emoji and DejaVu are test packages)
if fc-list : family 2>/dev/null | grep -q "Noto Color Emoji"; then
  expect 0 "Color formats: CBDT" "$CT" info "Noto Color Emoji"
  expect 0 "" "$CT" view "Noto Color Emoji" --unicodes=U+1F600 -o "$T/fc.png"
fi
expect 1 "no font named 'No Such Family Zz'" "$CT" info "No Such Family Zz"
one_line "$CT" info "No Such Family Zz"

# ---- paint: the tree as text
expect 0 "# glyph 2 A" "$CT" paint $F/ct-colr0.ttf A
expect 0 "solid palette 1 alpha 1" "$CT" paint $F/ct-colr0.ttf A
expect 0 "solid foreground alpha 1" "$CT" paint $F/ct-colr0.ttf A --format=mono
expect 0 "paint FONT TEXT" "$CT" paint --help
expect 2 "unknown option '--nope'" "$CT" paint $F/ct-colr0.ttf A --nope
expect 1 "cannot open" "$CT" paint nope.ttf A

# ---- scripts
printf 'local ct = require "chromatype"\nprint("args", ...)\nprint(arg[0])\n' > "$T/s.lua"
expect 0 "args	one	two" "$CT" "$T/s.lua" one two
expect 0 "s.lua" "$CT" "$T/s.lua"
printf 'error("boom")\n' > "$T/e.lua"
expect 1 "e.lua:1: boom" "$CT" "$T/e.lua"
expect 1 "cannot open" "$CT" "$T/missing.lua"
printf 'x = = 1\n' > "$T/syntax.lua"
expect 1 "syntax.lua:1:" "$CT" "$T/syntax.lua"

# ---- PDF and SVG draw what PNG draws (poppler rasterizes the PDF; vectors, no bitmaps)
if command -v pdftoppm >/dev/null 2>&1; then
  "$CT" view $F/twemoji-colr0.woff2 --unicodes=U+1F308,U+263A,U+2764 --font-size=48 -o "$T/v.png"
  "$CT" view $F/twemoji-colr0.woff2 --unicodes=U+1F308,U+263A,U+2764 --font-size=48 -o "$T/v.pdf"
  pdftoppm -r 72 -png -singlefile "$T/v.pdf" "$T/vpdf"
  res=$("$B/tests/imgcmp" "$T/v.png" "$T/vpdf.png" --max-mae 1.0 --min-psnr 32) && ok || bad "PDF differs from PNG: $res"
  pdfimages -list "$T/v.pdf" | awk 'NR > 2' | grep -q . && bad "PDF holds raster images" || ok
fi

# ---- PDF text can be copied and searched: pdftotext gives back the typed text, in order,
# for COLRv0, COLRv1, SVG and emoji glyphs, with and without a page background
if command -v pdftotext >/dev/null 2>&1; then
  roundtrip() {   # FONT TEXT [view options]
    font=$1 text=$2; shift 2
    "$CT" view "$font" --text="$text" "$@" -o "$T/rt.pdf" 2>/dev/null
    got=$(pdftotext "$T/rt.pdf" - 2>/dev/null | tr -d '\f' | sed '/^$/d')
    [ "$got" = "$text" ] && ok || bad "pdftotext of $font gave '$got', want '$text'"
  }
  roundtrip $F/ct-colr0.ttf "ABC DAB"
  roundtrip $F/ct-colr0.ttf "ABC DAB" --background=00000000
  roundtrip $F/twemoji-colr0.woff2 "🌈☺❤😎"
  roundtrip $F/twemoji-colr0.woff2 "🌈☺❤😎" --background=00000000
  roundtrip $F/nabla-svg-latin.woff2 "Nabla 123"
  roundtrip $F/bungee-spice-latin.woff2 "SPICE UP"
  roundtrip $F/noto-color-emoji-svg-subset.woff2 "😀🚀👍" --format=svg
  roundtrip $F/ct-colr1.ttf "$(printf '\356\200\200\356\200\223')"
  roundtrip $F/nabla-svg-latin.woff2 "Nabla" --font-size=46 --margin=16,16,16,16   # integer positions
  # right to left (Hebrew, Arabic with a space: clusters in logical order); pdftotext wraps
  # RTL text in embedding marks, removed here
  if fc-list : family 2>/dev/null | grep -q "DejaVu Sans"; then
    for rtl in "שלום עולם" "اكتب بكل"; do
      "$CT" view "DejaVu Sans" --text="$rtl" -o "$T/rtl.pdf" && ok || bad "RTL PDF failed"
      got=$(pdftotext "$T/rtl.pdf" - | /usr/bin/python3 -c 'import sys; print(sys.stdin.read().translate({c: None for c in range(0x202A, 0x202F)}).strip())')
      [ "$got" = "$rtl" ] && ok || bad "pdftotext of RTL gave '$got', want '$rtl'"
    done
  fi
  # a bitmap-only CBDT font: a stand-in glyph carries the text (pdftotext may add spaces)
  if [ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ]; then
    "$CT" view /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf --unicodes=U+1F600,U+1F308 -o "$T/cb.pdf"
    [ "$(pdftotext "$T/cb.pdf" - | tr -d ' \f\n')" = "😀🌈" ] && ok || bad "CBDT text not copyable: $(pdftotext "$T/cb.pdf" -)"
  fi
  # the text layer does not show: a pixel changes by one level at most
  "$CT" view $F/ct-colr0.ttf "ABCD" --font-size=48 -o "$T/tl.pdf"
  "$CT" view $F/ct-colr0.ttf "ABCD" --font-size=48 --no-text-layer -o "$T/tl0.pdf"
  pdftoppm -r 72 -png -singlefile "$T/tl.pdf" "$T/tlp"
  pdftoppm -r 72 -png -singlefile "$T/tl0.pdf" "$T/tlp0"
  res=$("$B/tests/imgcmp" "$T/tlp.png" "$T/tlp0.png" --max-mae 0.5 -t 1 --max-percent 0) && ok || bad "the text layer shows: $res"
  [ -z "$(pdftotext "$T/tl0.pdf" - | tr -d '\f\n')" ] && ok || bad "--no-text-layer still has text"
fi

# ---- spot inks: --ink (checked when parsed: a bad one is a one-line usage error, exit 2,
# no file), --inks-only, --overprint, --plates, for view and documents (also through -f and
# --watch), seen in the plates (a file per ink) and in --inks-only's refusals
expect 0 "--ink NAME=#RRGGBB" "$CT" --help
expect 0 "--inks-only" "$CT" --help
expect 0 "--plates DIR" "$CT" --help
for opt in "--ink=NAME=#RRGGBB" --inks-only --overprint --plates=DIR; do expect 0 "$opt" "$CT" view --help; done
printf '<document size="A7" margin="5mm"><style name="default" font="%s" size="20pt"/>\n<page><frame><p>AB</p></frame></page></document>\n' \
  "$F/ct-colr0.ttf" > "$T/ink.xml"
printf 'return { Glyph = function() end }\n' > "$T/nop.lua"
for spec in "Black=#000000" "Pink" "=#ff0000" "W=#ffffff" "A=#ff000080" "A=#ff0000,knockout" "A=#ff0000,cmyk=1/2/3" "A=nocolor"; do
  expect 2 "chromatype: --ink: " "$CT" view $F/ct-colr0.ttf AB --ink "$spec" -o "$T/inkbad.pdf"
  expect 2 "chromatype: --ink: " "$CT" "$T/ink.xml" --ink "$spec" -o "$T/inkbad.pdf"
  one_line "$CT" "$T/ink.xml" --ink "$spec" -o "$T/inkbad.pdf"
  one_line "$CT" view $F/ct-colr0.ttf AB --ink="$spec" -o "$T/inkbad.pdf"
done
expect 2 "the name of a process colorant" "$CT" "$T/ink.xml" --ink=Black=#000000 -o "$T/inkbad.pdf"
expect 2 "white is the paper" "$CT" view $F/ct-colr0.ttf AB --ink=W=#fff -o "$T/inkbad.pdf"
expect 2 "option '--ink' needs a value" "$CT" view $F/ct-colr0.ttf AB --ink
expect 2 "option '--ink' needs a value" "$CT" "$T/ink.xml" --ink
expect 2 "--plates needs a directory" "$CT" view $F/ct-colr0.ttf AB --plates= -o "$T/inkbad.pdf"
expect 2 "--plates needs a directory" "$CT" "$T/ink.xml" --plates= -o "$T/inkbad.pdf"
expect 2 "option '--overprint' takes no value" "$CT" view $F/ct-colr0.ttf AB --overprint=yes
many=""; i=0; while [ $i -lt 33 ]; do i=$((i + 1)); many="$many --ink=Ink$i=#ff0000"; done
# shellcheck disable=SC2086
expect 2 "--ink: more than 32 inks" "$CT" view $F/ct-colr0.ttf AB $many -o "$T/inkbad.pdf"
# shellcheck disable=SC2086
expect 2 "--ink: more than 32 inks" "$CT" "$T/ink.xml" $many -o "$T/inkbad.pdf"
ls "$T" | grep -q inkbad && bad "a refused --ink left a file" || ok
# the same name twice is one ink (the later), not two
same=""; i=0; while [ $i -lt 40 ]; do i=$((i + 1)); same="$same --ink=Pink=#ff48b0"; done
# shellcheck disable=SC2086
expect 0 "" "$CT" view $F/ct-colr0.ttf AB $same -o "$T/inksame.pdf"
plates_are() {   # DIR FILES...: the plate directory holds exactly these files
  dir=$1; shift
  got=$(ls "$dir" 2>/dev/null | tr '\n' ' ')
  [ "$got" = "$* " ] && ok || bad "plates in $dir: '$got', want '$* '"
}
expect 0 "" "$CT" view $F/ct-colr0.ttf AB --format=mono --foreground=ff48b0 --ink 'Fluorescent Pink=#ff48b0,overprint,cmyk=0/70/0/0' \
  --ink=Teal=#008080 --inks-only --overprint --plates "$T/vplates" -o "$T/inkv.pdf"
head -c 5 "$T/inkv.pdf" | grep -q '%PDF-' && ok || bad "view --ink wrote no PDF"
plates_are "$T/vplates" Fluorescent-Pink.pdf Teal.pdf preview.png
expect 1 "no ink prints.*(--inks-only)" "$CT" view $F/ct-colr0.ttf AB --ink Teal=#008080 --inks-only -o "$T/inkbad.pdf"
expect 0 "" "$CT" "$T/ink.xml" --ink 'Fluorescent Pink=#ff48b0,overprint,cmyk=0/70/0/0' --ink=Teal=#008080 \
  --overprint --plates="$T/dplates" -o "$T/inkd.pdf"
head -c 5 "$T/inkd.pdf" | grep -q '%PDF-' && ok || bad "DOC.xml --ink wrote no PDF"
plates_are "$T/dplates" Fluorescent-Pink.pdf Teal.pdf preview.png
if command -v python3 >/dev/null 2>&1; then
  python3 -c "
import re, sys, zlib
d = open(sys.argv[1], 'rb').read()
s = d + b''.join(zlib.decompress(m.group(1)) for m in re.finditer(rb'stream\r?\n(.*?)endstream', d, re.S) if m.group(1)[:2] == b'x\x9c')
sys.exit(0 if b'/Separation /Fluorescent#20Pink' in s and b'/Separation /Teal' in s else 1)" "$T/inkd.pdf" && ok || bad "DOC.xml --ink: no Separation color spaces"
fi
printf '<document size="A7"><ink name="Riso Blue" color="#0078bf"/><style name="default" font="%s" size="20pt"/>\n<page><frame><p>AB</p></frame></page></document>\n' \
  "$F/ct-colr0.ttf" > "$T/inkx.xml"
expect 0 "" "$CT" "$T/inkx.xml" --ink Teal=#008080 --plates "$T/xplates" -o "$T/inkx.png"
plates_are "$T/xplates" Riso-Blue.png Teal.png preview.png
expect 1 "^chromatype: $T/inkbad.pdf: 4 colors no ink prints, left in process: .* (--inks-only)$" "$CT" "$T/inkx.xml" --inks-only -o "$T/inkbad.pdf"
one_line "$CT" "$T/inkx.xml" --inks-only -o "$T/inkbad.pdf"
expect 1 "^chromatype: $T/inkbad.png: plates need inks" "$CT" "$T/ink.xml" --plates "$T/noplates" -o "$T/inkbad.png"
expect 0 "" "$CT" -f "$T/nop.lua" "$T/inkx.xml" --ink Teal=#008080 --overprint --plates "$T/fplates" -o "$T/inkf.pdf"
plates_are "$T/fplates" Riso-Blue.pdf Teal.pdf preview.png
expect 1 "no ink prints.*(--inks-only)" "$CT" -f "$T/nop.lua" "$T/inkx.xml" --inks-only -o "$T/inkbad.pdf"
expect 2 "chromatype: --ink: ink 'Black'" "$CT" -f "$T/nop.lua" "$T/ink.xml" --ink Black=#000 -o "$T/inkf2.pdf"
expect 0 "rendered" env CHROMATYPE_WATCH_RUNS=1 "$CT" --watch "$T/inkx.xml" --ink Teal=#008080 --plates "$T/wplates" -o "$T/inkw.pdf"
plates_are "$T/wplates" Riso-Blue.pdf Teal.pdf preview.png
expect 2 "chromatype: --ink: ink 'W'" env CHROMATYPE_WATCH_RUNS=1 "$CT" --watch "$T/ink.xml" --ink W=#fff -o "$T/inkw2.pdf"
ls "$T" | grep -q inkbad && bad "a failed --inks-only left a file" || ok

# ---- CMYK PDFs (the PDF pass, through Ghostscript's CMYK profile): DeviceCMYK colors, text
# still copyable, same bytes on repeat, and a clear error (no file left) without the profile
if [ -f /usr/share/color/icc/ghostscript/default_cmyk.icc ]; then
  "$CT" view $F/ct-colr0.ttf ABCD --cmyk -o "$T/k1.pdf" && "$CT" view $F/ct-colr0.ttf ABCD --cmyk -o "$T/k2.pdf" && ok || bad "--cmyk failed"
  cmp -s "$T/k1.pdf" "$T/k2.pdf" && ok || bad "--cmyk output differs between runs"
  [ "$(pdftotext "$T/k1.pdf" - | tr -d '\f\n')" = "ABCD" ] && ok || bad "--cmyk lost the text layer"
  /usr/bin/python3 -c "
import re, sys, zlib
d = open(sys.argv[1], 'rb').read()
ops = b''.join(zlib.decompress(m.group(1)) for m in re.finditer(rb'stream\r?\n(.*?)endstream', d, re.S) if m.group(1)[:2] == b'x\x9c')
sys.exit(0 if re.search(rb'[0-9.]+ [0-9.]+ [0-9.]+ [0-9.]+ k\n', ops) and not re.search(rb' rg\n', ops) else 1)" "$T/k1.pdf" && ok || bad "--cmyk output has no CMYK fills, or still RGB ones"
  CHROMATYPE_CMYK_PROFILE=/nonexistent.icc "$CT" view $F/ct-colr0.ttf ABCD --cmyk -o "$T/k3.pdf" 2> "$T/k3.log"; st=$?
  [ $st -eq 1 ] && grep -q "no CMYK profile at /nonexistent.icc" "$T/k3.log" && [ "$(wc -l < "$T/k3.log")" = 1 ] && ok \
    || bad "missing profile: exit $st, $(cat "$T/k3.log")"
  ls "$T" | grep -q "k3.pdf" && bad "a failed --cmyk left a file: $(ls "$T" | grep k3)" || ok
fi

# ---- make install honours PREFIX and DESTDIR; the installed module loads in plain Lua
if [ -z "$CT_ASAN" ]; then
  make -s install B="$B" DESTDIR="$T/root" PREFIX=/opt/ct > "$T/install.log" 2>&1 || bad "make install failed: $(tail -3 "$T/install.log")"
  [ -x "$T/root/opt/ct/bin/chromatype" ] && ok || bad "no installed chromatype"
  LUA_CPATH="$T/root/opt/ct/lib/lua/5.4/?.so;;" LUA_PATH="$T/root/opt/ct/share/lua/5.4/?/init.lua;;" \
    lua5.4 -e "local ct = require 'chromatype'; assert(ct.open_font('$F/ct-colr0.ttf'):info().family == 'Chromatype Test')" \
    && ok || bad "installed module does not load"
fi

echo "cli: $pass passed, $fail failed"
