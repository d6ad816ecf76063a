#!/bin/sh
# A long streamed PDF finished in chunks and joined (src/write/pdf/pdfjoin.cc), judged against the
# same document written as one chunk: CHROMATYPE_PDF_CHUNK (a testing knob) makes a document
# of 25 pages three chunks.  qpdf --check, the page count, each page's text (pdftotext) and
# pixels (pdftoppm, imgcmp), the metadata and page boxes (pdfinfo), a spot ink's plates of a
# page of the second chunk (Ghostscript tiffsep), --cmyk, the file's size (objects repeated
# by every chunk written once), and a stream that fails halfway leaving no file behind.
SUITE=pdf_chunks
. tests/cli/lib.sh
B=${CT_BUILD:-build}
CT="$B/chromatype"
SEP="$B/tests/ctsep"
CMP="$B/tests/imgcmp"
E=$PWD/examples/fonts
EMOJI=$PWD/tests/fonts/twemoji-colr0.woff2
T=$(mktemp -d)
trap '[ -n "$KEEP" ] || rm -rf "$T"' EXIT

for tool in qpdf gs pdftotext pdftoppm pdfinfo; do
  command -v $tool >/dev/null 2>&1 || { bad "$tool is missing (scripts/install-deps.sh test installs it)"; finish; }
done
for t in "$SEP" "$CMP"; do [ -x "$t" ] || { bad "$t is missing (make $t)"; finish; }; done

# 25 A6 pages as bench/record.xml draws them (a headline in a three-font Bungee stack, a
# paragraph of DejaVu Sans, a row of COLRv0 emoji), with a bleed and crop marks; pages 10
# and 11, on either side of the first chunk boundary, are A7 landscape; a picture on pages 9,
# 12 and 21.  $1: extra document
# attributes; $2: an extra frame on page 15 (the second chunk).
document() {
  {
    echo "<document size=\"A6\" margin=\"10mm\" bleed=\"3mm\" crop-marks=\"yes\" background=\"#f4efe3\" $1>"
    cat <<EOF
  <stack name="wood" lead="2" warn="no">
    <layer font="$E/bungee-shade-latin.woff2" color="#1d3557"/>
    <layer font="$E/bungee-latin.woff2" color="#f1c453"/>
    <layer font="$E/bungee-inline-latin.woff2" color="#d62828"/>
  </stack>
  <style name="default" font="DejaVu Sans" size="9pt" leading="12pt" color="#1d3557"/>
  <style name="head" font="wood" size="24pt" align="center"/>
  <style name="emoji" font="$EMOJI" size="18pt" align="center"/>
EOF
    i=1
    while [ $i -le 25 ]; do
      case $i in 10|11) echo '  <page size="A7" orientation="landscape">' ;; *) echo '  <page>' ;; esac
      echo "    <frame y=\"4mm\" height=\"14mm\" style=\"head\"><p>PAGE $i</p></frame>"
      echo "    <frame y=\"20mm\" height=\"30mm\"><p>Record $i. Letters stacked from the Bungee family, a paragraph set by its line breaker, and emoji below.</p></frame>"
      echo "    <frame y=\"52mm\" height=\"12mm\" style=\"emoji\"><p>🌈🎨🦜🌻🍉</p></frame>"
      [ $i = 15 ] && echo "    $2"
      case $i in 9|12|21) echo "    <image src=\"$T/sun.png\" x=\"70mm\" y=\"66mm\" width=\"12mm\"/>" ;; esac
      echo '  </page>'
      i=$((i + 1))
    done
    echo '</document>'
  } > "$T/$3.xml"
}

# write NAME CHUNK OUT [OPTIONS...]: the document NAME.xml written with chunks of CHUNK pages
write() {
  name=$1 chunk=$2 out=$3; shift 3
  CHROMATYPE_PDF_CHUNK=$chunk "$CT" "$T/$name.xml" -o "$T/$out.pdf" "$@" 2> "$T/$out.log" && ok ||
    bad "$name.xml with chunks of $chunk: $(cat "$T/$out.log")"
}

# same ONE MANY WHAT: pages of two PDFs the same: count, text, pixels, boxes
same() {
  one=$T/$1.pdf many=$T/$2.pdf what=$3
  qpdf --check "$many" > "$T/qpdf.log" 2>&1 && ok || bad "$what: qpdf --check: $(grep -m3 -i 'warn\|error' "$T/qpdf.log")"
  n=$(pdfinfo "$many" | sed -n 's/^Pages: *//p')
  [ "$n" = 25 ] && ok || bad "$what: $n pages, not 25"
  pdftotext -layout "$one" "$T/one.txt" && pdftotext -layout "$many" "$T/many.txt"
  cmp -s "$T/one.txt" "$T/many.txt" && ok || bad "$what: the text differs: $(diff "$T/one.txt" "$T/many.txt" | head -5)"
  [ "$(tr -cd '\f' < "$T/many.txt" | wc -c)" = 25 ] && ok || bad "$what: pdftotext found no 25 pages"
  grep -q "Record 25\." "$T/many.txt" && grep -q "PAGE 11" "$T/many.txt" && ok || bad "$what: the text of pages 11 and 25 is missing"
  pdfinfo -f 1 -l 25 -box "$one" | grep '^Page ' > "$T/one.box"
  pdfinfo -f 1 -l 25 -box "$many" | grep '^Page ' > "$T/many.box"
  cmp -s "$T/one.box" "$T/many.box" && ok || bad "$what: page sizes or boxes differ: $(diff "$T/one.box" "$T/many.box" | head -4)"
  awk '$2 == 10 && $3 == "TrimBox:" { printf "%.2f x %.2f\n", $6 - $4, $7 - $5 }' "$T/many.box" > "$T/a7"
  [ "$(cat "$T/a7")" = "297.64 x 209.76" ] && ok || bad "$what: page 10's trim is $(cat "$T/a7"), not A7 landscape"
  rm -rf "$T/r1" "$T/r2" && mkdir "$T/r1" "$T/r2"
  pdftoppm -r 50 -png "$one" "$T/r1/p" && pdftoppm -r 50 -png "$many" "$T/r2/p"
  worst=""
  for f in "$T"/r1/p-*.png; do
    g=$T/r2/$(basename "$f")
    res=$("$CMP" "$f" "$g" --max-mae 0.02 -t 8 --max-percent 0.05) || worst="$worst $(basename "$f"): $res;"
  done
  [ "$(ls "$T/r2" | wc -l)" = 25 ] && [ -z "$worst" ] && ok || bad "$what: rendered pages differ:$worst"
}

# a picture with an alpha channel (an image and its soft mask) on pages 9, 12 and 21
"$CT" view "$EMOJI" "🌻" --font-size 64 --background 00000000 -o "$T/sun.png" && ok || bad "sun.png was not made"

# ---- a document of three chunks against the same in one ------------------------------------
document 'title="Chunks and joins" author="A. Tester" subject="streaming"' "" doc
write doc 1000 one
write doc 10 many
write doc 25 exact
same one many "chunks of 10"
cmp -s "$T/one.pdf" "$T/exact.pdf" && ok || bad "a document of exactly one chunk is not written as before"
cmp -s "$T/one.pdf" "$T/many.pdf" && bad "chunks of 10 wrote the one-chunk file: the knob or the chunks do nothing" || ok
for k in Title Author Subject; do
  a=$(pdfinfo "$T/one.pdf" | grep "^$k:") b=$(pdfinfo "$T/many.pdf" | grep "^$k:")
  [ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "$k: '$a' vs '$b'"
done
grep -q "Chunks and joins" "$T/many.txt" 2>/dev/null; pdfinfo "$T/many.pdf" | grep -q '^Title: *Chunks and joins$' && ok || bad "the title is lost"
# what every chunk repeats (font programs of the same glyphs, recorded glyphs, graphics
# states) is written once: the joined file within 3 % of the one-chunk file (without
# sharing, it was 70 % larger)
s1=$(wc -c < "$T/one.pdf") s2=$(wc -c < "$T/many.pdf")
[ $((s2 * 100)) -le $((s1 * 103)) ] && ok || bad "the joined file is $s2 bytes, the one-chunk file $s1"
# repeatable: the same bytes again (the /ID a digest of the file)
write doc 10 again
cmp -s "$T/many.pdf" "$T/again.pdf" && ok || bad "the joined file differs from one run to the next"
# one page a chunk: 25 chunks
write doc 1 single
same one single "chunks of 1"

# ---- spot inks: a page of the second chunk separates the same -------------------------------
document 'title="Inks"' '<frame y="66mm" height="10mm"><p><span color="#00838a">Riso Teal only on page 15</span></p></frame>' ink
write ink 1000 ink1 --ink 'Riso Teal=#00838a'
write ink 10 ink3 --ink 'Riso Teal=#00838a'
same ink1 ink3 "spot ink, chunks of 10"
# the passes' reports merged: the same warning, once
[ "$(sed 's/ink1\.pdf/X/' "$T/ink1.log")" = "$(sed 's/ink3\.pdf/X/' "$T/ink3.log")" ] && ok ||
  bad "the warnings differ: $(cat "$T/ink1.log") | $(cat "$T/ink3.log")"
grep -q "ink 'Riso Teal' is not used" "$T/ink3.log" && bad "the ink used in the second chunk is reported unused" || ok
for f in ink1 ink3; do
  gs -q -dSAFER -dBATCH -dNOPAUSE -sDEVICE=tiffsep -r100 -dFirstPage=15 -dLastPage=15 -o "$T/$f.tif" "$T/$f.pdf"
done
for p in "Riso Teal" Cyan Magenta Yellow Black; do
  set -- $("$SEP" "$T/ink1($p).tif" "$T/ink3($p).tif")
  [ "$8" = 0 ] && ok || bad "page 15's $p plate differs: $*"
  [ "$p" != "Riso Teal" ] || { [ "$2" -gt 100 ] && ok || bad "page 15's Riso Teal plate is blank: $*"; }
done

# --inks-only: the same one-line error, from the first chunk that paints in process; no file
for c in 1000 10; do
  CHROMATYPE_PDF_CHUNK=$c "$CT" "$T/ink.xml" -o "$T/only$c.pdf" --ink 'Riso Teal=#00838a' --inks-only > "$T/only$c.log" 2>&1 &&
    bad "--inks-only with chunks of $c: written" || ok
  [ ! -e "$T/only$c.pdf" ] && ok || bad "--inks-only with chunks of $c left a file"
done
# (the pictures counted up to the chunk that stopped it)
[ "$(sed 's/only1000\.pdf/X/; s/; .*//' "$T/only1000.log")" = "$(sed 's/only10\.pdf/X/; s/; .*//' "$T/only10.log")" ] &&
  grep -q "^chromatype: $T/only10.pdf: 26 colors no ink prints.*(--inks-only)$" "$T/only10.log" && ok ||
  bad "--inks-only errors differ: $(cat "$T/only1000.log") | $(cat "$T/only10.log")"

# ---- --cmyk: every chunk through the pass ------------------------------------------------
write doc 1000 cmyk1 --cmyk
write doc 10 cmyk3 --cmyk
same cmyk1 cmyk3 "--cmyk, chunks of 10"
# the last chunk's pages are in DeviceCMYK too: page 25 renders as the one-chunk file's, not as the RGB one's
pdftoppm -r 50 -png -f 25 -l 25 "$T/cmyk3.pdf" "$T/c3" && pdftoppm -r 50 -png -f 25 -l 25 "$T/one.pdf" "$T/rgb"
"$CMP" "$T/c3-25.png" "$T/rgb-25.png" --max-mae 0.3 > /dev/null && bad "page 25 of --cmyk renders as RGB" || ok

# ---- plates: made from cairo's whole file, so a stream with plates is one chunk ------------
write ink 10 plated --ink 'Riso Teal=#00838a' --plates "$T/plates"
cmp -s "$T/ink1.pdf" "$T/plated.pdf" && ok || bad "with plates the file is not the one-chunk file"
[ -s "$T/plates/Riso-Teal.pdf" ] && ok || bad "no plate: $(ls "$T/plates")"

# ---- a stream that fails halfway leaves no file and no temporaries -------------------------
mkdir "$T/abort"
cat > "$T/abort/fail.lua" <<EOF
local ct = require "chromatype"
local f = assert(ct.open_font("DejaVu Sans"))
local c = ct.canvas { width = 200, height = 100 }
c:stream("$T/abort/out.pdf", { title = "never" })
for i = 1, 12 do
  if i > 1 then c:new_page() end
  c:text { ("page %d"):format(i), font = f, size = 12, x = 10, y = 40 }
end
error("stopped after 12 pages")
EOF
CHROMATYPE_PDF_CHUNK=5 "$CT" "$T/abort/fail.lua" > "$T/abort.log" 2>&1 && bad "fail.lua succeeded" || ok
grep -q "stopped after 12 pages" "$T/abort.log" && ok || bad "fail.lua: $(cat "$T/abort.log")"
[ "$(ls -A "$T/abort")" = fail.lua ] && ok || bad "left behind: $(ls -A "$T/abort")"
# the same, closed explicitly after two chunks were joined
sed 's/^error(.*/c:close()/' "$T/abort/fail.lua" > "$T/abort/close.lua"
CHROMATYPE_PDF_CHUNK=5 "$CT" "$T/abort/close.lua" > "$T/abort.log" 2>&1 && ok || bad "close.lua: $(cat "$T/abort.log")"
[ "$(ls -A "$T/abort" | tr '\n' ' ')" = "close.lua fail.lua " ] && ok || bad "left behind after close: $(ls -A "$T/abort")"
# and a write error at any point (a file size limit: writes past it fail with EFBIG): an
# error naming the file, no file, no temporaries
for kib in 8 40 150; do
  mkdir "$T/full"
  (trap '' XFSZ; ulimit -f $((kib * 2)); CHROMATYPE_PDF_CHUNK=5 exec "$CT" "$T/doc.xml" -o "$T/full/out.pdf") > "$T/full.log" 2>&1 &&
    bad "a file limit of $kib KiB: written" || ok
  grep -q "^chromatype: $T/full/out.pdf: cannot write: " "$T/full.log" && ok || bad "a file limit of $kib KiB: $(cat "$T/full.log")"
  [ -z "$(ls -A "$T/full")" ] && ok || bad "a file limit of $kib KiB left: $(ls -A "$T/full")"
  rm -rf "$T/full"
done

finish
