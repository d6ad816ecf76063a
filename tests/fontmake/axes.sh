# axes.sh: the variable fonts tests/cli/test_font_axes.sh exports and make_axis_refs.sh
# renders in Chromium at several places of their axes: effects baked as axes (sourced by
# both, after fonts.sh).
#   export_axis_fonts CHROMATYPE DIR    writes DIR/NAME.ttf for NAME in $AXIS_FONTS
AXIS_FONTS="bungee-extrude-axis bungee-gradient-axis nabla-teal wdth-shadow nabla-shadow"
# an extrusion whose depth is the axis EXTR (linear: two points are exact everywhere)
EXTRUDE_AXIS="shadow:steps=8,offset=0.02em 0.02em..0.12em 0.12em@EXTR,color=#7f1d1d,color2=#2b0a0a"
EXTRUDE_AT() { echo "shadow:steps=8,offset=$1 $1,color=#7f1d1d,color2=#2b0a0a"; }   # OFFSET
EXTR_VALUES="0 25 50 75 100"
# a gradient's angle as the axis GANG (not linear: four masters, 0 30 60 90)
GRADIENT_AXIS="gradient:per=glyph,angle=0..90@GANG,colors=#ff006e;#3a86ff"
GRADIENT_AT() { echo "gradient:per=glyph,angle=$1,colors=#ff006e;#3a86ff"; }   # ANGLE
GANG_VALUES="0 30 45 60 90"
# a variable color font given a new palette keeps its axes (Nabla: EDPT, EHLT in gvar)
NABLA=tests/fonts/fontsource/nabla-latin-full-normal.woff2
TEAL='0=#0b7285,1=#e6fcf5,2=#12b886,3=#087f5b,4=#38d9a9,5=#c3fae8,6=#20c997,7=#96f2d7,8=#e6fcf5,9=#ffffff'
NABLA_TEXT="N,A,B,L,A"
NABLA_LOCATIONS="EDPT=0,EHLT=0 EDPT=100,EHLT=12 EDPT=200,EHLT=24"
# a variable TrueType font with a filter baked in keeps its axis (COLRv1 over its own outlines)
WDTH=tests/fonts/ct-wdth.ttf
WDTH_SHADOW="shadow:steps=6,offset=0.05em 0.05em,color=#7f1d1d"
WDTH_TEXT="A,B,C,D,E"
WDTH_VALUES="50 75 100"
# a variable color font (WOFF2, COLRv1 over gvar) with a shadow baked in keeps its two axes
NABLA_SHADOW="shadow:steps=6,offset=0.04em 0.04em,color=#1d3557"
export_axis_fonts() {
  ct=$1 d=$2
  "$ct" font "$REGULAR" -f "$EXTRUDE_AXIS" --axis 'EXTR=0:0:100,name=Extrusion' --text 'CHROMA&42' \
    --family 'Bungee Extrude' -o "$d/bungee-extrude-axis.ttf" 2> "$d/bungee-extrude-axis.report"
  "$ct" font "$REGULAR" -f "$GRADIENT_AXIS" --axis 'GANG=0:0:90,name=Gradient angle' --masters 4 \
    --text 'CHROMA&42' --family 'Bungee Gradient' -o "$d/bungee-gradient-axis.ttf" 2> "$d/bungee-gradient-axis.report"
  "$ct" font "$NABLA" --palette "Teal:$TEAL" --palette-type dark --text NABLA --family 'Nabla Teal' -o "$d/nabla-teal.ttf"
  "$ct" font "$WDTH" -f "$WDTH_SHADOW" --family 'Width Shadow' -o "$d/wdth-shadow.ttf" 2> "$d/wdth-shadow.report"
  "$ct" font "$NABLA" -f "$NABLA_SHADOW" --text NABLA --family 'Nabla Shadow' -o "$d/nabla-shadow.ttf" \
    2> "$d/nabla-shadow.report"
}
