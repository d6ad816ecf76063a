#!/bin/sh
# Columns, boxes and rules in documents, judged from the files written: the words of a
# balanced three-column frame where pdftotext finds them in the PDF (column 1, 2, 3 in
# reading order), qpdf --check, a rule and a border in a spot ink's color on that ink's
# separation (Ghostscript tiffsep) and on no process plate, a rule in registration color on
# every plate, and one-line errors from the command line.
SUITE=frames
. tests/cli/lib.sh
B=${CT_BUILD:-build}
CT="$B/chromatype"
SEP="$B/tests/ctsep"
E=$PWD/examples/fonts
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

for tool in qpdf gs pdftotext; do
  command -v $tool >/dev/null 2>&1 || { bad "$tool is missing (scripts/install-deps.sh test installs it)"; finish; }
done
[ -x "$SEP" ] || { bad "$SEP is missing (make $SEP)"; finish; }

words() { i=$1; s=""; while [ "$i" -le "$2" ]; do s="$s W$(printf %02d "$i")"; i=$((i + 1)); done; echo "$s"; }

# ---- three balanced columns in a box, a column rule, rules: where pdftotext finds the words
# The frame: x 20..180 pt, border 2 + padding 8 = text box 30..170 (140 pt), columns of
# 40 pt with 10 pt gaps: column 1 is x 30..70, column 2 80..120, column 3 130..170.
cat > "$T/cols.xml" <<EOF
<document size="200pt x 300pt" margin="0">
  <style name="default" font="$E/bungee-latin.woff2" size="7pt"/>
  <page>
    <rule x="20" y="10" length="160" stroke="1"/>
    <frame x="20" y="20" width="160" height="200" columns="3" column-gap="10pt" column-fill="balance"
           column-rule="0.5pt #888" background="#fff3d0" border="2pt #c00" padding="8pt">
      <p>$(words 1 20)</p><rule length="50%"/><p>$(words 21 40)</p>
    </frame>
  </page>
</document>
EOF
"$CT" "$T/cols.xml" -o "$T/cols.pdf" 2> "$T/cols.log" && ok || bad "cols.xml did not render: $(cat "$T/cols.log")"
qpdf --check "$T/cols.pdf" > "$T/qpdf.log" 2>&1 && ok || bad "cols.pdf fails qpdf --check: $(grep -m3 -i 'warn\|error' "$T/qpdf.log")"
pdftotext -bbox "$T/cols.pdf" - | sed -n 's/.*xMin="\([0-9.]*\)".*yMin="\([0-9.]*\)".*>\(W[0-9]*\)<.*/\3 \1 \2/p' > "$T/words"
[ "$(wc -l < "$T/words")" = 40 ] && ok || bad "pdftotext found $(wc -l < "$T/words") words, not 40"
# each word's column from its x; the columns in reading order: never back to an earlier one
awk '{ c = ($2 < 75) ? 1 : ($2 < 125) ? 2 : 3; n[c]++; if (c < last) back = 1; last = c; col[$1] = c }
     END { printf "%d %d %d %d %d %d\n", n[1], n[2], n[3], back, col["W01"], col["W40"] }' "$T/words" > "$T/cols"
read n1 n2 n3 back c01 c40 < "$T/cols"
[ "$back" = 0 ] && ok || bad "the words do not go column 1, 2, 3 in order: $(tr '\n' ' ' < "$T/words")"
[ "$c01" = 1 ] && [ "$c40" = 3 ] && ok || bad "W01 is in column $c01, W40 in column $c40"
[ "$n1" -gt 0 ] && [ "$n2" -gt 0 ] && [ "$n3" -gt 0 ] && ok || bad "words per column: $n1 $n2 $n3"
# balanced (the text holds a rule): the columns' line counts (lines: the different tops of their words) within one
awk '{ c = ($2 < 75) ? 1 : ($2 < 125) ? 2 : 3; if (!((c, $3) in seen)) { seen[c, $3] = 1; n[c]++ } }
     END { lo = n[1]; hi = n[1]; for (c = 2; c <= 3; c++) { if (n[c] < lo) lo = n[c]; if (n[c] > hi) hi = n[c] }
           print (hi - lo <= 1) ? "ok" : "unbalanced: " n[1] ", " n[2] ", " n[3] " lines" }' "$T/words" > "$T/bal"
[ "$(cat "$T/bal")" = ok ] && ok || bad "columns: $(cat "$T/bal")"

# ---- a rule and a border in a spot ink separate onto its plate ----------------------------
cat > "$T/spot.xml" <<EOF
<document size="200pt x 100pt" margin="0">
  <ink name="Riso Teal" color="#00838a"/>
  <page>
    <rule x="50" y="30" length="100" stroke="4" color="#00838a"/>
    <frame x="20" y="50" width="160" height="40" border="2pt #00838a"/>
  </page>
</document>
EOF
"$CT" "$T/spot.xml" -o "$T/spot.pdf" --inks-only 2> "$T/spot.log" && ok || bad "spot.xml with --inks-only: $(cat "$T/spot.log")"
qpdf --check "$T/spot.pdf" > "$T/qpdf.log" 2>&1 && ok || bad "spot.pdf fails qpdf --check"
rm -f "$T"/s*.tif
# at 300 dpi (a point is 4.17 px, 17.4 px²): the rule 100 x 4 pt (6944 px), the border
# 160 x 40 - 156 x 36 pt (13611 px); Ghostscript's fill rule inks every pixel an edge
# touches, a few percent more
gs -q -dSAFER -dBATCH -dNOPAUSE -sDEVICE=tiffsep -r300 -o "$T/s.tif" "$T/spot.pdf"
n=$("$SEP" "$T/s(Riso Teal).tif" | sed 's/inked //')
[ "$n" -gt 20500 ] && [ "$n" -lt 23000 ] && ok || bad "the Riso Teal plate has $n inked pixels (want about 20555 and a little more)"
for p in Cyan Magenta Yellow Black; do
  [ "$("$SEP" "$T/s($p).tif" | sed 's/inked //')" = 0 ] && ok || bad "process plate $p is not blank"
done
# the rule alone: the plate of a document with only the rule (same page) is inked exactly there
sed '/<frame/d' "$T/spot.xml" > "$T/rule.xml"
"$CT" "$T/rule.xml" -o "$T/rule.pdf" && gs -q -dSAFER -dBATCH -dNOPAUSE -sDEVICE=tiffsep -r300 -o "$T/r.tif" "$T/rule.pdf"
n=$("$SEP" "$T/r(Riso Teal).tif" | sed 's/inked //')
[ "$n" -gt 6900 ] && [ "$n" -lt 7700 ] && ok || bad "the rule alone inks $n pixels of Riso Teal (want about 6944)"
set -- $("$SEP" "$T/r(Riso Teal).tif" "$T/s(Riso Teal).tif")
[ "$6" = "$2" ] && ok || bad "the rule is not on the full document's plate: $*"

# a rule in registration color prints on every plate
sed -e '/<ink/d' -e '/<rule/s/color="#00838a"/color="registration"/' "$T/rule.xml" > "$T/reg.xml"
grep -q registration "$T/reg.xml" || bad "reg.xml was not made"
"$CT" "$T/reg.xml" -o "$T/reg.pdf" && gs -q -dSAFER -dBATCH -dNOPAUSE -sDEVICE=tiffsep -r300 -o "$T/g.tif" "$T/reg.pdf"
for p in Cyan Magenta Yellow Black; do
  set -- $("$SEP" "$T/g($p).tif" "$T/r(Riso Teal).tif")
  [ "$2" -gt 6900 ] && [ "$2" = "$6" ] && ok || bad "the registration rule on plate $p: $*"
done

# ---- errors: one line naming the file, the line and the element, exit 1 ---------------------
printf '<document>\n<page>\n<frame columns="0"/>\n</page>\n</document>\n' > "$T/bad.xml"
expect 1 "bad.xml:3: <frame>: columns: expected a whole number from 1 to 64, got '0'" "$CT" "$T/bad.xml" -o "$T/bad.pdf"
printf '<document>\n<page>\n<rule direction="up"/>\n</page>\n</document>\n' > "$T/bad.xml"
expect 1 "bad.xml:3: <rule>: direction: expected horizontal, vertical, got 'up'" "$CT" "$T/bad.xml" -o "$T/bad.pdf"
[ -e "$T/bad.pdf" ] && bad "a file was written for a bad document" || ok
finish
