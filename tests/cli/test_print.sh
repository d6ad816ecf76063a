#!/bin/sh
# Print-true PDFs, judged by the tools of print: qpdf --check on the PDFs we write (cairo 1.16
# repeated resource keys), the text layer truly invisible (Ghostscript's separations are the
# same with and without it, and pdftotext still reads it), spot inks as separations (tiffsep
# plates named after the inks, each inked where its layer is, knockout holes or overprint),
# tints, --inks-only, --cmyk keeping the inks, and plates with their preview.
SUITE=print
. tests/cli/lib.sh
B=${CT_BUILD:-build}
CT="$B/chromatype"
SEP="$B/tests/ctsep"
F=tests/fonts
E=$PWD/examples/fonts
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

for tool in qpdf gs pdftotext; do
  command -v $tool >/dev/null 2>&1 || { bad "$tool is missing (scripts/install-deps.sh test installs it)"; finish; }
done

# qpdf --check: exit 0 (3 is "warnings", such as a dictionary with a key twice)
valid() { qpdf --check "$1" > "$T/qpdf.log" 2>&1 && ok || bad "$1 fails qpdf --check: $(grep -m3 -i 'warn\|error' "$T/qpdf.log")"; }
# the separations of a PDF at 100 dpi: $2(NAME).tif for every colorant
seps() { rm -f "$2"*.tif; gs -q -dSAFER -dBATCH -dNOPAUSE -sDEVICE=tiffsep -r100 -o "$2.tif" "$1"; }
inked() { "$SEP" "$1" | sed 's/inked //'; }

# ---- every PDF valid ------------------------------------------------------------------
# a color glyph drawn many times is one form XObject used many times: the case cairo 1.16
# listed once per use in the page's resources
"$CT" view $F/twemoji-colr0.woff2 --text="🌈🌈🎨🌈🎨🎨❤❤" --font-size=40 -o "$T/rep.pdf" && valid "$T/rep.pdf"
"$CT" view $F/ct-colr1.ttf --unicodes=U+E005,U+E005,U+E006,U+E00C,U+E00C,U+E010 --font-size=40 -o "$T/c1.pdf" && valid "$T/c1.pdf"
for f in ct-colr0.ttf ct-svg.ttf ct-sbix.ttf ct-cbdt.ttf noto-color-emoji-svg-subset.woff2; do
  "$CT" view $F/$f --text="ABAB" --font-size=30 -o "$T/v.pdf" 2>/dev/null && valid "$T/v.pdf"
done
"$CT" view $F/twemoji-colr0.woff2 --text="🌈🌈🎨" --font-size=40 --cmyk -o "$T/repk.pdf" && valid "$T/repk.pdf"
for x in examples/*.xml; do
  "$CT" "$x" -o "$T/ex.pdf" 2>/dev/null && valid "$T/ex.pdf" || bad "$x did not render"
done

# ---- the text layer: rendering mode 3, no transparency --------------------------------
qpdf --qdf --object-streams=disable "$T/rep.pdf" "$T/rep.qdf"
grep -a -q " Tr$\|^3 Tr" "$T/rep.qdf" && ok || bad "the text layer is not in text rendering mode 3"
grep -a -q "/ca 0.004" "$T/rep.qdf" && bad "the text layer's transparency is still there" || ok
[ "$(pdftotext "$T/rep.pdf" - | tr -d ' \f\n')" = "🌈🌈🎨🌈🎨🎨❤❤" ] && ok || bad "the text layer lost its text: $(pdftotext "$T/rep.pdf" -)"
# no transparency left on an opaque page (cairo groups every page); kept where it is used
grep -a -q "/S /Transparency" "$T/rep.qdf" && bad "an opaque page keeps a transparency group" || ok
"$CT" view $F/ct-colr1.ttf --unicodes=U+E001 --font-size=40 -o "$T/alpha.pdf" && qpdf --qdf "$T/alpha.pdf" "$T/alpha.qdf"
grep -a -q "/S /Transparency" "$T/alpha.qdf" && ok || bad "a page drawn with an alpha lost its transparency group"

# ---- a document in three inks: a Bungee stack (Shade, Regular, Hairline), one ink a layer ----
doc() {   # doc NAME [ALPHA0 ALPHA1 ALPHA2] [EXTRA]: the stack document; alpha 00 hides a layer
  cat > "$T/$1.xml" <<EOF
<document size="120mm x 40mm" margin="4mm" $5>
  <ink name="Shade Blue" color="#1d3557"/>
  <ink name="Face Red" color="#e63946"/>
  <ink name="Inline Gold" color="#f1c453"/>
  <stack name="wood" lead="2" warn="no">
    <layer font="$E/bungee-shade-latin.woff2" color="#1d3557${2:-}"/>
    <layer font="$E/bungee-latin.woff2" color="#e63946${3:-}"/>
    <layer font="$E/bungee-hairline-latin.woff2" color="#f1c453${4:-}"/>
  </stack>
  <style name="default" font="wood" size="40pt"/>
  <page><frame><p>WOOD TYPE</p></frame></page>
</document>
EOF
}
doc full
"$CT" "$T/full.xml" -o "$T/full.pdf" --inks-only 2> "$T/full.log" && ok || bad "the three-ink document failed: $(cat "$T/full.log")"
[ -s "$T/full.log" ] && bad "warnings for a document whose colors are all inks: $(cat "$T/full.log")" || ok
valid "$T/full.pdf"
[ "$(pdftotext "$T/full.pdf" - | tr -s ' \f\n' ' ' | sed 's/ $//')" = "WOOD TYPE" ] && ok || bad "pdftotext: '$(pdftotext "$T/full.pdf" -)'"
seps "$T/full.pdf" "$T/k"
spots=$(cd "$T" && ls k\(*\).tif | grep -v -e '(Cyan)' -e '(Magenta)' -e '(Yellow)' -e '(Black)' | tr '\n' ',')
[ "$spots" = "k(Face Red).tif,k(Inline Gold).tif,k(Shade Blue).tif," ] && ok || bad "spot plates: $spots"
for p in Cyan Magenta Yellow Black; do
  [ "$(inked "$T/k($p).tif")" = 0 ] && ok || bad "process plate $p is not blank: $(inked "$T/k($p).tif") pixels"
done

# the same page without the text layer: the very same plates (pixel for pixel: tiffsep's
# files differ by their time stamps)
"$CT" "$T/full.xml" -o "$T/notext.pdf" --no-text-layer && seps "$T/notext.pdf" "$T/n"
for p in "Shade Blue" "Face Red" "Inline Gold" Cyan Magenta Yellow Black; do
  set -- $("$SEP" "$T/k($p).tif" "$T/n($p).tif")
  [ "$8" = 0 ] && ok || bad "plate $p differs with the text layer: $*"
done

# each layer drawn alone (the others at alpha 0): where its ink must be
doc blue "" 00 00; doc red 00 "" 00; doc gold 00 00 ""
for l in blue red gold; do "$CT" "$T/$l.xml" -o "$T/$l.pdf" 2>/dev/null && seps "$T/$l.pdf" "$T/$l"; done
# the top layer is whole; the ones under it have holes where upper layers knock them out
set -- $("$SEP" "$T/k(Inline Gold).tif" "$T/gold(Inline Gold).tif")
[ "$2" -gt 1000 ] && [ "$2" = "$4" ] && [ "$2" = "$6" ] && ok || bad "the top ink is not its layer: $*"
for pair in "Face Red:red" "Shade Blue:blue"; do
  ink=${pair%%:*} l=${pair##*:}
  set -- $("$SEP" "$T/k($ink).tif" "$T/$l($ink).tif")
  [ "$2" = "$6" ] && [ "$2" -lt "$4" ] && [ "$2" -gt 100 ] && ok || bad "$ink: no knockout holes (full/alone/both): $*"
done
# overprint: every plate is its whole layer
"$CT" "$T/full.xml" -o "$T/op.pdf" --overprint && seps "$T/op.pdf" "$T/o"
for pair in "Face Red:red" "Shade Blue:blue" "Inline Gold:gold"; do
  ink=${pair%%:*} l=${pair##*:}
  set -- $("$SEP" "$T/o($ink).tif" "$T/$l($ink).tif")
  [ "$2" = "$4" ] && [ "$2" = "$6" ] && ok || bad "$ink with --overprint is not its whole layer: $*"
done
# per ink: overprint="yes" on every ink is --overprint; on the top ink alone, the layer under
# it is whole and the bottom one still has the holes the middle one knocks out
sed -e 's|name="[^"]*" color="#[0-9a-f]*"|& overprint="yes"|' "$T/full.xml" > "$T/opall.xml"
"$CT" "$T/opall.xml" -o "$T/opall.pdf" && seps "$T/opall.pdf" "$T/oa"
for p in "Shade Blue" "Face Red" "Inline Gold"; do
  set -- $("$SEP" "$T/o($p).tif" "$T/oa($p).tif")
  [ "$8" = 0 ] && ok || bad "overprint=\"yes\" on every ink differs from --overprint on $p: $*"
done
sed -e 's|name="Inline Gold" color="#f1c453"|& overprint="yes"|' "$T/full.xml" > "$T/optop.xml"
"$CT" "$T/optop.xml" -o "$T/optop.pdf" && seps "$T/optop.pdf" "$T/ot"
set -- $("$SEP" "$T/ot(Face Red).tif" "$T/red(Face Red).tif")
[ "$2" = "$4" ] && [ "$2" = "$6" ] && ok || bad "under an overprinting top ink the middle layer is not whole: $*"
set -- $("$SEP" "$T/ot(Shade Blue).tif" "$T/blue(Shade Blue).tif")
[ "$2" = "$6" ] && [ "$2" -lt "$4" ] && ok || bad "the bottom layer lost its knockout holes: $*"

# ---- tints, alphas, colors no ink prints -------------------------------------------------
cat > "$T/tint.xml" <<EOF
<document size="80mm x 30mm" margin="3mm" background="#f8c4c8">
  <ink name="Face Red" color="#e63946"/>
  <style name="default" font="DejaVu Sans" size="20pt" color="#e63946"/>
  <page><frame><p>Red <span color="#e6394680">half</span> <span color="#000000">black</span></p></frame></page>
</document>
EOF
"$CT" "$T/tint.xml" -o "$T/tint.pdf" 2> "$T/tint.log" && ok || bad "tint document failed: $(cat "$T/tint.log")"
grep -q "1 color no ink prints, left in process: #000000" "$T/tint.log" && ok || bad "process colors not reported: $(cat "$T/tint.log")"
qpdf --qdf --object-streams=disable "$T/tint.pdf" "$T/tint.qdf"
grep -a -q -E "^/ctInk0 cs 0\.(29|30)[0-9]* scn" "$T/tint.qdf" && ok || bad "the background is not a 30 % tint of the ink"
grep -a -q -E "^/ctInk0 cs 0\.50[0-9]* scn" "$T/tint.qdf" && ok || bad "the ink at alpha 0.5 is not a 50 % tint"
grep -a -q "/Separation" "$T/tint.qdf" && grep -a -q "/Face#20Red" "$T/tint.qdf" && ok || bad "no Separation named Face Red"
rm -f "$T/io.pdf"
expect 1 "#000000" "$CT" "$T/tint.xml" -o "$T/io.pdf" --inks-only
[ -e "$T/io.pdf" ] && bad "--inks-only left a file" || ok
ls "$T" | grep -q "io.pdf.tmp" && bad "--inks-only left a temporary file" || ok

# a gradient between two inks is a DeviceN shading, from an ink to paper a Separation one
"$CT" view $F/ct-colr1.ttf --unicodes=U+E005 --font-size=60 --ink 'Red=#e02020' --ink 'Blue=#2040e0' \
  --ink 'Gold=#f0c000' --inks-only -o "$T/grad.pdf" 2> "$T/grad.log" && ok || bad "gradient in inks: $(cat "$T/grad.log")"
valid "$T/grad.pdf"
qpdf --qdf --object-streams=disable "$T/grad.pdf" "$T/grad.qdf"
grep -a -q "/DeviceN" "$T/grad.qdf" && grep -a -q "/Colorants" "$T/grad.qdf" && ok || bad "no DeviceN shading for the ink gradient"
seps "$T/grad.pdf" "$T/g"
for p in Red Blue Gold; do [ "$(inked "$T/g($p).tif")" -gt 100 ] && ok || bad "gradient plate $p is empty"; done
for p in Cyan Magenta Yellow Black; do [ "$(inked "$T/g($p).tif")" = 0 ] && ok || bad "gradient: process plate $p is not blank"; done

# ---- --cmyk keeps the inks ----------------------------------------------------------------
"$CT" "$T/full.xml" -o "$T/cmyk.pdf" --cmyk && valid "$T/cmyk.pdf"
seps "$T/cmyk.pdf" "$T/c"
for p in "Shade Blue" "Face Red" "Inline Gold"; do
  set -- $("$SEP" "$T/k($p).tif" "$T/c($p).tif")
  [ "$2" -gt 100 ] && [ "$2" = "$6" ] && [ "$4" = "$6" ] && ok || bad "--cmyk changed the $p plate: $*"
done
[ "$(pdftotext "$T/cmyk.pdf" - | tr -s ' \f\n' ' ' | sed 's/ $//')" = "WOOD TYPE" ] && ok || bad "--cmyk lost the text"
# gradients keep their inks too, and nothing is left in RGB (process colors, pictures, groups)
"$CT" view $F/ct-colr1.ttf --unicodes=U+E005,U+E00C,U+E001 --font-size=60 --ink 'Red=#e02020' --ink 'Blue=#2040e0' \
  --ink 'Gold=#f0c000' --cmyk -o "$T/gk.pdf" 2>/dev/null && valid "$T/gk.pdf"
qpdf --qdf --object-streams=disable "$T/gk.pdf" "$T/gk.qdf"
grep -a -q "/DeviceN" "$T/gk.qdf" && ok || bad "--cmyk lost the DeviceN gradient"
grep -a -q "DeviceRGB\| rg$" "$T/gk.qdf" && bad "--cmyk left RGB in the file" || ok
seps "$T/gk.pdf" "$T/gks"
for p in Red Blue Gold; do [ "$(inked "$T/gks($p).tif")" -gt 100 ] && ok || bad "--cmyk: gradient plate $p is empty"; done
"$CT" view $F/ct-cbdt.ttf --unicodes=U+E300 --font-size=60 --cmyk -o "$T/bk.pdf" 2>/dev/null && valid "$T/bk.pdf"
qpdf --qdf --object-streams=disable "$T/bk.pdf" "$T/bk.qdf"
grep -a -q "DeviceRGB" "$T/bk.qdf" && bad "--cmyk left a picture in RGB" || ok

# ---- plates: one grayscale file per ink, with marks, and the preview ----------------------
doc marked "" "" "" 'bleed="3mm" crop-marks="yes"'
"$CT" "$T/marked.xml" -o "$T/marked.pdf" --plates "$T/plates" && ok || bad "--plates failed"
for p in Shade-Blue Face-Red Inline-Gold; do
  [ -s "$T/plates/$p.pdf" ] && valid "$T/plates/$p.pdf" || bad "no plate $p.pdf"
done
[ -s "$T/plates/preview.png" ] && ok || bad "no preview.png"
seps "$T/marked.pdf" "$T/m"
# the marks are in registration color: on every separation, process ones included
[ "$(inked "$T/m(Cyan).tif")" -gt 20 ] && [ "$(inked "$T/m(Cyan).tif")" = "$(inked "$T/m(Black).tif")" ] && ok \
  || bad "the marks are not on every separation"
# a plate is its separation: our PDF plate drawn in gray by Ghostscript against tiffsep's
for pair in "Shade-Blue:Shade Blue" "Face-Red:Face Red" "Inline-Gold:Inline Gold"; do
  f=${pair%%:*} ink=${pair##*:}
  gs -q -dSAFER -dBATCH -dNOPAUSE -sDEVICE=pnggray -r100 -o "$T/pl.png" "$T/plates/$f.pdf"
  set -- $("$SEP" "$T/pl.png" "$T/m($ink).tif")
  [ "$2" -gt 100 ] && [ $(( $2 - $6 )) -le $(( $2 / 100 )) ] && [ $(( $4 - $6 )) -le $(( $4 / 100 )) ] && ok \
    || bad "plate $f differs from Ghostscript's separation (plate/separation/both): $*"
done
# PNG output: PNG plates at the output's resolution; a page without marks gets a slug with them
"$CT" "$T/full.xml" -o "$T/full.png" --dpi 100 --plates "$T/pp" && ok || bad "--plates with PNG output failed"
for p in Shade-Blue Face-Red Inline-Gold preview; do [ -s "$T/pp/$p.png" ] && ok || bad "no $p.png"; done
# the PNG header's color type (byte 25): 0 is grayscale
[ "$(od -An -tu1 -j25 -N1 "$T/pp/Face-Red.png" | tr -d ' ')" = 0 ] && ok || bad "the PNG plate is not grayscale"
# bad plates: no inks, or a file where the directory should be
expect 1 "plates need inks" "$CT" view $F/ct-colr0.ttf --text=A -o "$T/x.pdf" --plates "$T/none"
: > "$T/afile"
expect 1 "afile: not a directory" "$CT" "$T/full.xml" -o "$T/y.pdf" --plates "$T/afile"
[ -e "$T/y.pdf" ] && bad "a failed --plates left the PDF" || ok

finish
