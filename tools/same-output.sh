#!/bin/sh
# same-output.sh OLD NEW: what two builds of chromatype write, compared byte for byte, for a
# change that must not change behaviour (a refactor).  OLD and NEW are executables (each
# with its tests/ctgrid beside it in BUILD/tests/, for the golden render cases).  Runs, with
# each: the demo (make demo-run, into out/), the golden render cases of tests/render and
# tests/realfonts (ctgrid), and a corpus of view/font commands over every kind of glyph;
# then compares every file written and prints "same-output: N same, N differ".
# Run from the project root; the user's out/ is set aside and put back.
set -u
OLD=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
NEW=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
T=$(mktemp -d)
[ -e out ] && mv out "$T/user-out"
trap 'rm -rf out; [ -e "$T/user-out" ] && mv "$T/user-out" out; [ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT

corpus() {   # corpus CT DIR: view and font commands writing into DIR
  ct=$1 o=$2
  mkdir -p "$o"
  "$ct" view tests/fonts/twemoji-colr0.woff2 --unicodes=U+1F308,U+263A -o "$o/twemoji.png"
  "$ct" view tests/fonts/ct-colr0.woff2 ABCD --font-palette=dark -o "$o/colr0-dark.pdf"
  "$ct" view tests/fonts/ct-colr0.ttf ABCD --custom-palette=0=00FF00FF -o "$o/colr0.svg"
  "$ct" view tests/fonts/ct-colr0.ttf ABCD -o "$o/colr0.png"
  "$ct" info --json tests/fonts/ct-collection.ttc --face-index 1 > "$o/info.json"
  "$ct" view tests/fonts/ct-svg-layouts.ttf --unicodes=U+E600,U+E608,U+E60A,U+E611,U+E612 -o "$o/layouts.pdf"
  "$ct" view tests/fonts/hostile-svg.ttf --unicodes=U+E200,U+E201,U+E202,U+E203,U+E204,U+E205,U+E206,U+E207,U+E208,U+E209,U+E20A,U+E20B,U+E20C,U+E20D,U+E20E,U+E20F,U+E210,U+E211 -o "$o/hostile-svg.png" 2> "$o/hostile-svg.err"
  "$ct" view tests/fonts/ct-svg.ttf --unicodes=U+E100,U+E101,U+E105,U+E107,U+E108,U+E109,U+E10C,U+E10D --font-palette=1 -o "$o/svg.pdf"
  "$ct" view tests/fonts/ct-svg.ttf --unicodes=U+E100,U+E101,U+E105,U+E107,U+E108,U+E109,U+E10C,U+E10D -o "$o/svg.png"
  "$ct" view tests/fonts/ct-colr1.ttf --unicodes=U+E000,U+E013,U+E029,U+E045 -o "$o/colr1.pdf"
  "$ct" view tests/fonts/ct-colr1.ttf "$(printf '\356\200\200\356\200\201\356\200\202\356\200\203\356\200\204\356\200\205\356\200\206\356\200\207')" -o "$o/colr1.png"
  "$ct" view tests/fonts/ct-svg-anim.ttf --unicodes=U+E500,U+E501,U+E503,U+E505,U+E506,U+E507 -o "$o/anim.png"
  "$ct" view tests/fonts/ct-colr1-var.ttf --unicodes=U+E003,U+E001 --font-size 48 --animate SWPS=0:360 \
    --animate palette=0:1 --frames 3 --fps 10 --jobs 1 --dither -o "$o/var.gif"
  "$ct" view tests/fonts/ct-colr1-var.ttf --unicodes=U+E003,U+E001 --font-size 48 --animate SWPS=0:360 \
    --frames 4 --fps 10 -o "$o/var.webp"
  "$ct" view tests/fonts/ct-cbdt.ttf --unicodes=U+E300,U+E301,U+E302 -o "$o/cbdt.pdf"
  "$ct" view tests/fonts/ct-cbdt.ttf --unicodes=U+E300,U+E301,U+E302 -o "$o/cbdt.png"
  "$ct" view tests/fonts/ct-colr1.ttf --unicodes=U+E005,U+E000,U+E001 --ink "Red=#e02020" --ink "Blue=#2040e0" \
    --ink "Gold=#f0c000,overprint" -o "$o/inks.pdf"
  "$ct" font --layer examples/fonts/bungee-shade-latin.woff2=#0078bf --layer examples/fonts/bungee-latin.woff2=#ffe800 \
    --lead 2 --palette 'N:0=#000000' --format colr0,colr1 --text 'AB' -o "$o/stack.woff2"
  "$ct" font tests/fonts/ct-colr0-cff.otf -f 'shadow:steps=3' -o "$o/shadow.ttf"
  "$ct" font tests/fonts/ct-colr1.ttf --format svg --text "$(printf '\356\200\200\356\200\201\356\200\207')" -o "$o/otsvg.ttf"
} > /dev/null 2>&1

run() {   # run CT NAME: everything, with CT, into $T/NAME
  ct=$1 d=$T/$2
  rm -rf out
  make -s demo-run DEMO_CT="$ct" > "$T/$2.demo.log" 2>&1 || echo "same-output: the demo failed with $ct (see below)"
  mv out "$d" 2>/dev/null || mkdir -p "$d"
  for dir in tests/render tests/realfonts; do
    CT_RENDER_KEEP=1 CT_BUILD=$(dirname "$ct") sh tests/render/run.sh "$dir" > /dev/null 2>&1
    mkdir -p "$d/$dir" && cp "$dir"/out/*.png "$d/$dir/" 2>/dev/null
    rm -rf "$dir/out" "$dir/diff" "$dir/index.html"
  done
  corpus "$ct" "$d/corpus"
}
echo "same-output: in $T" >&2
run "$OLD" old
run "$NEW" new

same=0 differ=0 seen=
for f in $(cd "$T/old" && find . -type f | sort) $(cd "$T/new" && find . -type f | sort); do
  case " $seen " in *" $f "*) continue ;; esac
  seen="$seen $f"
  if cmp -s "$T/old/$f" "$T/new/$f"; then same=$((same + 1)); else
    differ=$((differ + 1)); echo "same-output: differs: $f"; fi
done
echo "same-output: $same same, $differ differ"
[ "$differ" -eq 0 ]
