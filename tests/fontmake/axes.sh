# axes.sh: the variable fonts tests/cli/test_font_axes.sh exports and make_axis_refs.sh
# renders in Chromium at several places of their axes: effects baked as axes (sourced by
# both, after fonts.sh).
#   export_axis_fonts CHROMATYPE DIR    writes DIR/NAME.ttf for NAME in $AXIS_FONTS
AXIS_FONTS="bungee-extrude-axis bungee-gradient-axis"
# an extrusion whose depth is the axis EXTR (linear: two points are exact everywhere)
EXTRUDE_AXIS="shadow:steps=8,offset=0.02em 0.02em..0.12em 0.12em@EXTR,color=#7f1d1d,color2=#2b0a0a"
EXTRUDE_AT() { echo "shadow:steps=8,offset=$1 $1,color=#7f1d1d,color2=#2b0a0a"; }   # OFFSET
EXTR_VALUES="0 25 50 75 100"
# a gradient's angle as the axis GANG (not linear: four masters, 0 30 60 90)
GRADIENT_AXIS="gradient:per=glyph,angle=0..90@GANG,colors=#ff006e;#3a86ff"
GRADIENT_AT() { echo "gradient:per=glyph,angle=$1,colors=#ff006e;#3a86ff"; }   # ANGLE
GANG_VALUES="0 30 45 60 90"
export_axis_fonts() {
  ct=$1 d=$2
  "$ct" font "$REGULAR" -f "$EXTRUDE_AXIS" --axis 'EXTR=0:0:100,name=Extrusion' --text 'CHROMA&42' \
    --family 'Bungee Extrude' -o "$d/bungee-extrude-axis.ttf" 2> "$d/bungee-extrude-axis.report"
  "$ct" font "$REGULAR" -f "$GRADIENT_AXIS" --axis 'GANG=0:0:90,name=Gradient angle' --masters 4 \
    --text 'CHROMA&42' --family 'Bungee Gradient' -o "$d/bungee-gradient-axis.ttf" 2> "$d/bungee-gradient-axis.report"
}
