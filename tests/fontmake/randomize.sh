# randomize.sh: the randomized fonts test_font_randomize.sh exports and make_randomize_refs.sh
# has Chromium draw (sourced by both, after fonts.sh).
#   export_random_fonts CHROMATYPE DIR    writes DIR/NAME.ttf for NAME in $RANDOM_FONTS
RANDOM_FONTS="bungee-jitter bungee-riso-jitter"
# the line both draw: at 100 px Bungee's A advances 73 px, so every glyph sits on whole pixels
RANDOM_LINE="AAAAAAAA"
RANDOM_GEOMETRY="100 616 150 16 115"   # size, width, height, pen x, baseline
export_random_fonts() {
  ct=$1 d=$2
  "$ct" font "$REGULAR" -f 'misregistration:amount=0.04em,per=glyph,angle=6' --randomize 3 --seed 7 \
    --text 'CHROMA' --family 'Bungee Jitter' -o "$d/bungee-jitter.ttf"
  # each layer of a layered font out of register on its own, variant by variant
  "$ct" font --layer "$SHADE=#0078bf" --layer "$REGULAR=#ffe800" --layer "$HAIRLINE=#ff48b0" --lead 2 \
    --family 'Bungee Riso' --text 'CHROMATIC' -o "$d/riso-source.ttf"
  "$ct" font "$d/riso-source.ttf" -f 'misregistration:amount=0.03em,per=glyph' --randomize 3 --seed 7 \
    --family 'Bungee Riso Jitter' -o "$d/bungee-riso-jitter.ttf"
}
