#!/bin/sh
# test_font_artwork.sh: `chromatype font --svg`: fonts from artwork (SVG drawings, one glyph
# each; docs/fonts.md).  Small drawings written here, named in each convention (Noto,
# Twemoji, uXXXX, U+XXXX, uniXXXX, a letter); every format and WOFF2 pass ots-sanitize;
# hb-shape makes one glyph of each sequence; --map as CSV and JSON; the refusals (bad XML,
# a filter, a name that maps to nothing, two files for one character, a missing or empty
# folder) get one line naming the file and leave no font; ct.save_font{svg=} from a script;
# a glyph drawn back by chromatype.
SUITE=font_artwork
. tests/cli/lib.sh
B=${CT_BUILD:-build}
CT=$PWD/$B/chromatype
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
have_ots=1; command -v ots-sanitize > /dev/null 2>&1 || { have_ots=0; bad "ots-sanitize missing (Debian opentype-sanitizer)"; }
have_py=1; /usr/bin/python3 -c 'import fontTools' 2> /dev/null || { have_py=0; bad "fontTools missing (Debian python3-fonttools)"; }
have_hb=1; command -v hb-shape > /dev/null 2>&1 || { have_hb=0; bad "hb-shape missing (Debian libharfbuzz-bin)"; }

sane() {   # FILE
  [ -s "$1" ] || { bad "$1 not written"; return; }
  if [ "$have_ots" = 1 ]; then
    if out=$(ots-sanitize "$1" "$t/ots.out" 2>&1); then ok; else bad "ots-sanitize $(basename "$1"): $out"; fi
  fi
}
glyphs() {   # FONT TEXT: the glyph names hb-shape gives, one per line
  hb-shape --no-positions --no-clusters "$1" "$2" | tr -d '[]' | tr '|' '\n'
}
svg() {   # FILE COLOR
  printf '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 36"><rect x="4" y="4" width="28" height="28" rx="4" fill="%s"/></svg>\n' "$2" > "$1"
}

a=$t/art
mkdir -p "$a" "$t/empty"
cat > "$a/1f600.svg" <<'SVG'
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 36">
  <circle cx="18" cy="18" r="18" fill="#FFCC4D"/>
  <ellipse cx="12" cy="14" rx="2.5" ry="4" fill="#664500"/><ellipse cx="24" cy="14" rx="2.5" ry="4" fill="#664500"/>
  <path d="M8 22 Q18 32 28 22" stroke="#664500" stroke-width="2" fill="none"/>
</svg>
SVG
svg "$a/emoji_u1f468.svg" '#3B88C3'
svg "$a/u1F469.svg" '#DD2E44'
svg "$a/U+1F44B.svg" '#FFDC5D'
svg "$a/uni2764.svg" '#BE1931'
svg "$a/A.svg" '#77B255'
svg "$a/1f44b-1f3fb.svg" '#F7DECE'
svg "$a/1F1FA-1f1f8.svg" '#1E50A0'
svg "$a/emoji_u1f468_200d_1f469.svg" '#AA8DD8'
cat > "$a/23-fe0f-20e3.svg" <<'SVG'
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 36"><defs>
  <linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#CCD6DD"/><stop offset="1" stop-color="#66757F"/></linearGradient>
</defs><rect width="36" height="36" rx="6" fill="url(#g)"/></svg>
SVG

# ---- the folder, TTF and WOFF2, every format ----------------------------------------
expect 0 "" "$CT" font --svg "$a" -o "$t/art.ttf"; sane "$t/art.ttf"
expect 0 "" "$CT" font --svg "$a" -o "$t/art.woff2"; sane "$t/art.woff2"
expect 0 "Family: *art" "$CT" info "$t/art.ttf"
expect 0 "Version: *Version 1.000" "$CT" info "$t/art.ttf"
# reproducible: SOURCE_DATE_EPOCH sets head's dates, the same sources give the same bytes
SOURCE_DATE_EPOCH=1700000000 "$CT" font --svg "$a" -o "$t/r1.ttf" && SOURCE_DATE_EPOCH=1700000000 "$CT" font --svg "$a" -o "$t/r2.ttf"
cmp -s "$t/r1.ttf" "$t/r2.ttf" && ok || bad "SOURCE_DATE_EPOCH: two builds differ"
if [ "$have_py" = 1 ]; then
  got=$(/usr/bin/python3 -c 'import sys; from fontTools.ttLib import TTFont; h = TTFont(sys.argv[1])["head"]; print(h.created - 2082844800, h.modified - 2082844800)' "$t/r1.ttf" 2>/dev/null)
  [ "$got" = "1700000000 1700000000" ] && ok || bad "head dates: '$got'"
fi
expect 0 "COLRv1" "$CT" info "$t/art.ttf"   # a gradient: COLRv1 by default
for f in colr1 svg colr0,colr1 colr1,svg colr0,colr1,svg; do
  expect 0 "" "$CT" font --svg "$a" --format "$f" -o "$t/f.ttf"; sane "$t/f.ttf"
done
# OT-SVG: the drawings' colors are the palette's entries, var(--colorN, fallback)
if [ "$have_py" = 1 ]; then
  "$CT" font --svg "$a" --format colr1,svg -o "$t/both.ttf"
  got=$(/usr/bin/python3 -c 'import sys; from fontTools.ttLib import TTFont; f = TTFont(sys.argv[1])
docs = "".join(d[0] for d in f["SVG "].docList)
print(docs.count("var(--color"), docs.count("=\"#"), len(f["CPAL"].palettes[0]))' "$t/both.ttf")
  set -- $got
  [ "${1:-0}" -gt 10 ] && [ "$2" = 0 ] && [ "${3:-0}" -ge 10 ] && ok || bad "OT-SVG colors not on the palette: '$got'"
fi
expect 0 "" "$CT" font --svg "$a" --format colr0 --flatten-gradients -o "$t/f0.ttf"; sane "$t/f0.ttf"
expect 0 "COLRv0" "$CT" info "$t/f0.ttf"
rm -f "$t/no.ttf"
expect 1 "23-fe0f-20e3.svg" "$CT" font --svg "$a" --format colr0 -o "$t/no.ttf"
[ ! -e "$t/no.ttf" ] && ok || bad "a refused COLRv0 font left a file"
expect 0 "" "$CT" font --svg "$a/A.svg" "$a/1f600.svg" --upem 2048 --ascent 1600 --descent 448 --advance 2048 \
  --family 'Two Glyphs' -o "$t/two.ttf"; sane "$t/two.ttf"
expect 0 "Units per em:  2048" "$CT" info "$t/two.ttf"
expect 0 "Descender:     -448" "$CT" info "$t/two.ttf"

# ---- shaping: one glyph per sequence -------------------------------------------------
if [ "$have_hb" = 1 ]; then
  for s in "👨‍👩:u1F468_200D_1F469" "#️⃣:u0023_FE0F_20E3" "#⃣:u0023_FE0F_20E3" "🇺🇸:u1F1FA_1F1F8" \
           "👋🏻:u1F44B_1F3FB" "👋:u1F44B" "A:A" "❤:uni2764"; do
    text=${s%%:*} want=${s#*:}
    got=$(glyphs "$t/art.ttf" "$text")
    [ "$got" = "$want" ] && ok || bad "hb-shape '$text': got '$got', want '$want'"
  done
  got=$(glyphs "$t/art.ttf" "👨👩" | wc -l)
  [ "$got" -eq 2 ] && ok || bad "no ZWJ: $got glyphs"
fi

# ---- maps ------------------------------------------------------------------------------
m=$t/mapped; mkdir -p "$m"
svg "$m/smile.svg" '#FFCC4D'; svg "$m/family.svg" '#AA8DD8'; svg "$m/star.svg" '#FFAC33'
cat > "$t/map.csv" <<'CSV'
file,characters,glyph name
smile.svg,U+1F600,smiley
family.svg,"U+1F468 U+200D U+1F469",
star.svg,,star.alt
CSV
expect 0 "" "$CT" font --svg "$m" --map "$t/map.csv" -o "$t/csv.ttf"; sane "$t/csv.ttf"
cat > "$t/map.json" <<'JSON'
{"smile.svg": "😀", "family.svg": {"chars": "U+1F468 U+200D U+1F469", "name": "couple"}, "star.svg": {"name": "star"}}
JSON
expect 0 "" "$CT" font --svg "$m" --map "$t/map.json" -o "$t/json.ttf"; sane "$t/json.ttf"
if [ "$have_hb" = 1 ]; then
  got=$(glyphs "$t/csv.ttf" "😀👨‍👩" | tr '\n' ' ')
  [ "$got" = "smiley u1F468_200D_1F469 " ] && ok || bad "--map CSV: '$got'"
  got=$(glyphs "$t/json.ttf" "😀👨‍👩" | tr '\n' ' ')
  [ "$got" = "u1F600 couple " ] && ok || bad "--map JSON: '$got'"
fi
printf '{"smile.svg": "U+D800"}' > "$t/bad.json"
expect 1 "surrogate" "$CT" font --svg "$m" --map "$t/bad.json" -o "$t/no.ttf"
printf '{"smile.svg": "U+1F600",}' > "$t/bad2.json"
expect 1 "bad2.json" "$CT" font --svg "$m" --map "$t/bad2.json" -o "$t/no.ttf"

# ---- refusals --------------------------------------------------------------------------
x=$t/bad; mkdir -p "$x"
svg "$x/1f600.svg" '#FFCC4D'
printf '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 36"><rect width="10" height="10"' > "$x/1f601.svg"
expect 1 "1f601.svg" "$CT" font --svg "$x" -o "$t/no.ttf"
[ ! -e "$t/no.ttf" ] && ok || bad "a malformed SVG left a font"
rm "$x/1f601.svg"
cat > "$x/1f602.svg" <<'SVG'
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 36"><filter id="b"><feGaussianBlur stdDeviation="2"/></filter>
<rect width="36" height="36" fill="red" filter="url(#b)"/></svg>
SVG
expect 1 "1f602.svg.*filter" "$CT" font --svg "$x" -o "$t/no.ttf"
[ ! -e "$t/no.ttf" ] && ok || bad "a refused filter left a font"
expect 0 "1f602.svg: skipped" "$CT" font --svg "$x" --keep-going -o "$t/kept.ttf"; sane "$t/kept.ttf"
rm "$x/1f602.svg"
# COLRv0 alone: a clip is refused per file, skipped with --keep-going
cat > "$x/1f603.svg" <<'SVG'
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 36"><clipPath id="c"><circle cx="18" cy="18" r="9"/></clipPath>
<rect width="36" height="36" fill="red" clip-path="url(#c)"/></svg>
SVG
expect 0 "" "$CT" font --svg "$x" -o "$t/clip1.ttf"; sane "$t/clip1.ttf"
expect 1 "1f603.svg: <rect> (line 2): clip-path cannot be expressed in COLRv0" "$CT" font --svg "$x" --format colr0 -o "$t/no.ttf"
expect 0 "1f603.svg: skipped" "$CT" font --svg "$x" --format colr0 --keep-going -o "$t/clip0.ttf"; sane "$t/clip0.ttf"
rm "$x/1f603.svg"
# bombs: deep nesting, a million elements, an absurd viewBox or stroke width: one line, no font
deep() {   # N: N nested groups
  i=0; printf '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 36">'
  while [ $i -lt "$1" ]; do printf '<g>'; i=$((i + 1)); done
  i=0; while [ $i -lt "$1" ]; do printf '</g>'; i=$((i + 1)); done; printf '</svg>\n'
}
deep 5000 > "$x/1f604.svg"
expect 1 "1f604.svg: not well-formed XML" "$CT" font --svg "$x" -o "$t/no.ttf"
awk 'BEGIN { printf "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 36 36\">"
  for (i = 0; i < 1000001; i++) printf "<g/>"; print "</svg>" }' > "$x/1f604.svg"
expect 1 "1f604.svg: .*over 1000000 elements" "$CT" font --svg "$x" -o "$t/no.ttf"
printf '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1e-30 1e-30"><rect width="1" height="1"/></svg>\n' > "$x/1f604.svg"
expect 1 "1f604.svg: .*the drawing reaches" "$CT" font --svg "$x" -o "$t/no.ttf"
printf '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 36"><path d="M0 0H9" stroke="red" stroke-width="1e15"/></svg>\n' > "$x/1f604.svg"
expect 1 "1f604.svg: .*absurd viewBox or stroke width" "$CT" font --svg "$x" -o "$t/no.ttf"
printf '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 36"><blink/></svg>\n' > "$x/1f604.svg"
expect 1 "1f604.svg: <blink> (line 1)" "$CT" font --svg "$x" -o "$t/no.ttf"
[ ! -e "$t/no.ttf" ] && ok || bad "a refused drawing left a font"
rm "$x/1f604.svg"
# a skin-tone sequence without its base: built, with a warning naming the base
mkdir -p "$t/tone"; svg "$t/tone/1f44b-1f3fd.svg" '#C68642'
expect 0 "1f44b-1f3fd.svg: U.1F44B has no drawing of its own" "$CT" font --svg "$t/tone" -o "$t/tone.ttf"; sane "$t/tone.ttf"
# so for an emoji-presentation sequence (U+FE0F second), not for a plain ZWJ sequence
mkdir -p "$t/vs"; svg "$t/vs/1f3f3-fe0f-200d-1f308.svg" '#E40303'; svg "$t/vs/1f469-200d-1f52c.svg" '#000000'
expect 0 "1f3f3-fe0f-200d-1f308.svg: U.1F3F3 has no drawing of its own" "$CT" font --svg "$t/vs" -o "$t/vs.ttf"
if printf "%s" "$out" | grep -q "U+1F469"; then bad "a ZWJ sequence's base warned of"; else ok; fi
svg "$x/hello world.svg" '#000000'
expect 1 "hello world.svg: no character or glyph name in its name (see --map)" "$CT" font --svg "$x" -o "$t/no.ttf"
rm "$x/hello world.svg"
svg "$x/emoji_u1f600.svg" '#000000'
expect 1 "1f600.svg and emoji_u1f600.svg both give U+1F600" "$CT" font --svg "$x" -o "$t/no.ttf"
expect 1 "missing" "$CT" font --svg "$t/missing" -o "$t/no.ttf"
expect 1 "no .svg files" "$CT" font --svg "$t/empty" -o "$t/no.ttf"
[ ! -e "$t/no.ttf" ] && ok || bad "a refused run left a font"
expect 2 "16384" "$CT" font --svg "$a" --upem 8 -o "$t/no.ttf"
expect 2 "go with --svg" "$CT" font --upem 1000 -o "$t/no.ttf"
expect 2 "--svg goes alone" "$CT" font "$t/art.ttf" --svg "$a" -o "$t/no.ttf"

# ---- from Lua ----------------------------------------------------------------------------
cat > "$t/make.lua" <<LUA
local ct = require "chromatype"
assert(ct.save_font({ svg = "$a" }, "$t/lua.ttf", { family = "Lua Art", formats = "colr1,svg" }))
local ok, err = ct.save_font({ svg = { "$a/A.svg", "$a/A.svg" } }, "$t/no.ttf")
assert(not ok and err:find("both give"), err)
assert(not pcall(ct.save_font, { svg = "$a" }, "$t/no.ttf", { palettes = {} }))
local f = assert(ct.open_font("$t/lua.ttf"))
assert(f:info().family == "Lua Art")
print("lua ok")
LUA
expect 0 "lua ok" "$CT" "$t/make.lua"; sane "$t/lua.ttf"

# ---- the whole Twemoji set, when npm can fetch it (cached) -------------------------------------
if tw=$(sh tests/artwork/fetch-twemoji.sh "$B/twemoji" 2> "$t/fetch.err"); then
  for f in colr1 svg; do
    expect 0 "" "$CT" font --svg "$tw" --format "$f" -o "$t/tw-$f.ttf"; sane "$t/tw-$f.ttf"
  done
  expect 0 "Glyphs: *14[0-9][0-9][0-9]" "$CT" info "$t/tw-colr1.ttf"
  if [ "$have_hb" = 1 ]; then
    for s in "👨‍👩‍👧‍👦" "🏴󠁧󠁢󠁥󠁮󠁧󠁿" "#️⃣" "🇯🇵" "👋🏽" "❤️‍🔥" "🧑🏾‍💻"; do
      for f in colr1 svg; do
        got=$(glyphs "$t/tw-$f.ttf" "$s" | wc -l)
        [ "$got" -eq 1 ] && ok || bad "Twemoji $f: '$s' shapes to $got glyphs"
      done
    done
  fi
else
  echo "font_artwork: skipped the whole Twemoji set: $(cat "$t/fetch.err")"
fi

# ---- drawn back ------------------------------------------------------------------------------
expect 0 "" "$CT" view "$t/art.ttf" "😀👨‍👩#️⃣" --font-size 96 -o "$t/view.png"
[ -s "$t/view.png" ] && ok || bad "view wrote no PNG"
finish
