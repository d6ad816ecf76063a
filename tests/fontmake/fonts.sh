# fonts.sh: the fonts tests/cli/test_font.sh exports and tests/fontmake/make_refs.sh renders
# in the browsers, and how chromatype draws their sources (sourced by both).
#   export_fonts CHROMATYPE DIR    writes DIR/NAME.ttf for NAME in $FONTS
FONTS="bungee-riso bungee-riso-svg twemoji-tones bungee-extruded"
BUNGEE_TEXT="C,H,R,O,M,A,&,4,2"
EMOJI_TEXT="👍,👋,🙌,😀,👶,🎅"
SHADE=examples/fonts/bungee-shade-latin.woff2
REGULAR=examples/fonts/bungee-latin.woff2
HAIRLINE=examples/fonts/bungee-hairline-latin.woff2
TWEMOJI=tests/fonts/twemoji-colr0.woff2
# the stack as tests/fontmake/draw.lua takes it, and its palettes 1 and 2 as stacks
RISO_STACK="stack:$SHADE=#0078bf;$REGULAR=#ffe800;$HAIRLINE=#ff48b0"
RISO_STACK_P1="stack:$SHADE=#1d3557;$REGULAR=#f1faee;$HAIRLINE=#e63946"
RISO_STACK_P2="stack:$SHADE=#999999;$REGULAR=#ffffff;$HAIRLINE=#000000"
EXTRUSION="shadow:offset=0.06em 0.06em,steps=8,color=#7f1d1d,color2=#2b0a0a"
# Twemoji's skin yellows (faces #FFCC4D, people #FFDC5D, hands #FFDB5E) in the three tones
TONE_LIGHT="#FFCC4D:#F7DECE;#FFDC5D:#F7DECE;#FFDB5E:#F7DECE"
TONE_MEDIUM="#FFCC4D:#C68642;#FFDC5D:#C68642;#FFDB5E:#C68642"
TONE_DARK="#FFCC4D:#8D5524;#FFDC5D:#8D5524;#FFDB5E:#8D5524"

export_fonts() {
  ct=$1 d=$2
  "$ct" font --layer "$SHADE=#0078bf" --layer "$REGULAR=#ffe800" --layer "$HAIRLINE=#ff48b0" --lead 2 \
    --palette 'Night:0=#1d3557,1=#f1faee,2=#e63946' --palette 'Mono:0=#999999,1=#ffffff,2=#000000' \
    --palette-type dark --family 'Bungee Riso' -o "$d/bungee-riso.ttf"
  "$ct" font --layer "$SHADE=#0078bf" --layer "$REGULAR=#ffe800" --layer "$HAIRLINE=#ff48b0" --lead 2 \
    --format svg --family 'Bungee Riso SVG' -o "$d/bungee-riso-svg.ttf"
  "$ct" font "$TWEMOJI" --text '👍👋🙌😀👶🎅' --palette-type light \
    --palette 'Light:#FFCC4D=#F7DECE,#FFDC5D=#F7DECE,#FFDB5E=#F7DECE' \
    --palette 'Medium:#FFCC4D=#C68642,#FFDC5D=#C68642,#FFDB5E=#C68642' \
    --palette 'Dark:#FFCC4D=#8D5524,#FFDC5D=#8D5524,#FFDB5E=#8D5524' -o "$d/twemoji-tones.ttf"
  "$ct" font "$REGULAR" -f "$EXTRUSION" --format colr1 --text 'CHROMA&42' --family 'Bungee Extruded' \
    -o "$d/bungee-extruded.ttf"
}
