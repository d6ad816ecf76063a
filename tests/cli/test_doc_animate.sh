#!/bin/sh
# Motion posters from the command line (issue 15): `chromatype DOC.xml -o OUT.apng|.webp|%d.png`
# with <animate> elements, --fps/--duration/--at/--loop; frames read back with Python's PIL
# (/usr/bin/python3; skipped without it): frame counts and durations, the first and last
# frames equal to still renders at the start and end values; bad input: status 1, one line,
# no file left.
SUITE=doc_animate
. tests/cli/lib.sh
B=${CT_BUILD:-build}
CT="$B/chromatype"
T=$(mktemp -d)
[ -n "$KEEP" ] || trap 'rm -rf "$T"' EXIT
[ -n "$KEEP" ] && echo "$T"
PY=/usr/bin/python3
ROOTDIR=$(pwd)

# doc FILE DOC-ATTRS STYLE-ATTRS BODY [FONT]: a one-page document
doc() {
  cat > "$1" <<EOF
<document size="300pt x 80pt" margin="10pt" background="#fffaf0" $2>
  <style name="default" font="${5:-$ROOTDIR/tests/fonts/ct-colr1-var.ttf}" size="40pt" $3/>
  <page><frame>$4</frame></page>
</document>
EOF
}

BUNGEE="$ROOTDIR/examples/fonts/bungee-latin.woff2"
doc "$T/move.xml" 'duration="2s" fps="5"' 'variations="SWPS=0,ALPH=1"' \
  "<animate attribute=\"y\" from=\"10pt\" to=\"4pt\" dur=\"1s\"/>
   <p>&#xE000;&#xE003;&#xE004;<animate attribute=\"variations\" values=\"SWPS=0,ALPH=1;SWPS=90,ALPH=0.2\" dur=\"1s\"/>
   <animate attribute=\"palette\" values=\"0;1\" dur=\"1s\" ease=\"in\"/>
   <span font=\"$BUNGEE\" color=\"#e02020\">Hi<animate attribute=\"color\" from=\"#e02020\" to=\"teal\" dur=\"1s\"/>
   <animate attribute=\"size\" from=\"40pt\" to=\"30pt\" dur=\"1s\" ease=\"out\"/></span></p>"
doc "$T/start.xml" '' 'variations="SWPS=0,ALPH=1"' \
  "<p>&#xE000;&#xE003;&#xE004;<span font=\"$BUNGEE\" color=\"#e02020\">Hi</span></p>"
doc "$T/end.xml" '' 'variations="SWPS=90,ALPH=0.2"' \
  "<p><span palette=\"1\">&#xE000;&#xE003;&#xE004;</span><span font=\"$BUNGEE\" color=\"teal\" size=\"30pt\">Hi</span></p>"
sed -i 's/<frame>/<frame y="4pt">/' "$T/end.xml"

expect 0 "" "$CT" "$T/move.xml" -o "$T/move.apng"
expect 0 "" "$CT" "$T/move.xml" -o "$T/move.webp" --loop 3
expect 0 "" "$CT" "$T/move.xml" -o "$T/fast.apng" --fps 10 --duration 1.5
expect 0 "" "$CT" "$T/move.xml" -o "$T/f-%02d.png"
expect 0 "" "$CT" "$T/start.xml" -o "$T/start.png"
expect 0 "" "$CT" "$T/end.xml" -o "$T/end.png"
expect 0 "" "$CT" "$T/move.xml" -o "$T/still.png"
expect 0 "" "$CT" "$T/move.xml" -o "$T/at.png" --at 1.5s
expect 0 "" "$CT" "$T/move.xml" -o "$T/move.pdf"
# the writer's options, as view takes them
expect 0 "" "$CT" "$T/move.xml" -o "$T/lossy.webp" --quality 60 --effort 2 --jobs 1
expect 0 "" "$CT" "$T/move.xml" -o "$T/poster.apng" --poster 9 --jobs 3
expect 0 "" "$CT" "$T/move.xml" -o "$T/move.gif" --dither
if command -v ffprobe > /dev/null 2>&1; then
  expect 0 "" "$CT" "$T/move.xml" -o "$T/move.mp4" --matte '#fff6e0'
  n=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames,codec_name \
    -of csv=p=0 "$T/move.mp4")
  [ "$n" = "h264,10" ] && ok || bad "ffprobe move.mp4: want h264,10, got '$n'"
else
  echo "$SUITE: no ffmpeg: the document's MP4 not tried"
fi
[ -f "$T/f-00.png" ] && [ -f "$T/f-09.png" ] && [ ! -f "$T/f-10.png" ] && ok || bad "PNG frames f-00..f-09"
[ -f "$T/still.png" ] && ok || bad "an animated document to .png is a still"

if [ -x "$PY" ] && "$PY" -c "import PIL" 2>/dev/null; then
  # frames, durations, and pixel equality with the stills
  out=$("$PY" - "$T" <<'EOF' 2>&1
import sys
from PIL import Image
T = sys.argv[1]
def frames(p):
    im = Image.open(p)
    out = []
    for i in range(getattr(im, "n_frames", 1)):
        im.seek(i)
        out.append((im.convert("RGBA").tobytes(), im.info.get("duration")))
    return out
def px(p): return Image.open(p).convert("RGBA").tobytes()
a = frames(T + "/move.apng")
print("apng", len(a))
print("fast", len(frames(T + "/fast.apng")))
w = frames(T + "/move.webp")
print("webp-ms", int(sum(d for _, d in w)))
print("webp-loop", Image.open(T + "/move.webp").info.get("loop"))
print("first", a[0][0] == px(T + "/start.png"))
print("last", a[-1][0] == px(T + "/end.png"))
print("webp-last", w[-1][0] == px(T + "/end.png"))
print("moves", a[2][0] != a[0][0] and a[2][0] != a[-1][0])
print("still", px(T + "/still.png") == a[0][0])
print("at", px(T + "/at.png") == a[-1][0])
l = frames(T + "/lossy.webp")
print("lossy", len(l) == len(w), int(sum(d for _, d in l)))
# PIL counts an APNG's default image, here the poster (the last frame), as frame 0
p = frames(T + "/poster.apng")
print("poster", [f for f, _ in p[1:]] == [f for f, _ in a], p[0][0] == a[-1][0])
g = Image.open(T + "/move.gif")
gd = []
for i in range(g.n_frames):
    g = Image.open(T + "/move.gif"); g.seek(i); gd.append(g.info.get("duration"))
    if i in (0, 9):   # quantized to one palette: near the APNG's frame
        x, y = g.convert("RGB").tobytes(), Image.frombytes("RGBA", g.size, a[i][0]).convert("RGB").tobytes()
        gd_err = sum(abs(p - q) for p, q in zip(x, y)) / len(x)
        assert gd_err < 6, (i, gd_err)
print("gif", len(gd), int(sum(gd)))
print("pattern", px(T + "/f-09.png") == a[-1][0] and px(T + "/f-03.png") == a[3][0])
EOF
)
  for want in "apng 10" "fast 15" "webp-ms 2000" "webp-loop 3" "first True" "last True" "webp-last True" \
      "moves True" "still True" "at True" "pattern True" "lossy True 2000" "poster True True" "gif 10 2000"; do
    printf '%s\n' "$out" | grep -qx "$want" && ok || bad "PIL: want '$want', got: $out"
  done
else
  echo "$SUITE: no /usr/bin/python3 with PIL: frames not read back"
fi

# a filter that reads the time; boil
cat > "$T/blink.lua" <<'EOF'
return { Glyph = function(g, ctx) g.color = ctx.frame_number % 2 == 0 and "#ff0000" or "#0000ff" end }
EOF
doc "$T/hi.xml" 'duration="0.4s" fps="10"' "" "<p>Hi</p>" "$BUNGEE"
expect 0 "" "$CT" -f "$T/blink.lua" "$T/hi.xml" -o "$T/blink-%d.png"
cmp -s "$T/blink-0.png" "$T/blink-1.png" && bad "a filter reading ctx.frame_number: frames 0 and 1 equal" || ok
cmp -s "$T/blink-0.png" "$T/blink-2.png" && ok || bad "a filter reading ctx.frame_number: frames 0 and 2 differ"
expect 0 "" "$CT" -f misregistration:amount=4pt,per=glyph "$T/hi.xml" -o "$T/fixed-%d.png"
cmp -s "$T/fixed-0.png" "$T/fixed-3.png" && ok || bad "misregistration without boil: frames differ"
expect 0 "" "$CT" -f misregistration:amount=4pt,per=glyph,boil=1 "$T/hi.xml" -o "$T/boil-%d.png"
cmp -s "$T/boil-0.png" "$T/boil-1.png" && bad "misregistration boil=1: frames 0 and 1 equal" || ok
expect 0 "" "$CT" -f misregistration:amount=4pt,per=glyph,boil=2 "$T/hi.xml" -o "$T/two-%d.png"
cmp -s "$T/two-0.png" "$T/two-1.png" && cmp -s "$T/two-2.png" "$T/two-3.png" && ! cmp -s "$T/two-1.png" "$T/two-2.png" \
  && ok || bad "misregistration boil=2: on twos"

# bad input: status 1, one line naming the file (and line), no file left
doc "$T/bad1.xml" 'duration="0"' '' '<p>&#xE000;</p>'
expect 1 "bad1.xml:1: <document>: duration: more than 0" "$CT" "$T/bad1.xml" -o "$T/bad.apng"
doc "$T/bad2.xml" 'duration="1"' '' '<p>&#xE000;<animate attribute="variations" values="wdth=50;wdth=100"/></p>'
expect 1 "bad2.xml:3: <animate>: variations: no font here has the axis 'wdth'" "$CT" "$T/bad2.xml" -o "$T/bad.apng"
doc "$T/bad3.xml" 'duration="1"' '' '<p>&#xE000;<animate attribute="palette" values="0;2"/></p>'
expect 1 "bad3.xml:3: <animate>: palette: .*has no palette '2' (it has 2: 0..1)" "$CT" "$T/bad3.xml" -o "$T/bad.webp"
doc "$T/bad4.xml" '' '' '<p>&#xE000;<animate attribute="colour" values="red;blue" dur="1"/></p>'
expect 1 "bad4.xml:3: <animate>: attribute: expected variations, palette, size, tracking, color, got 'colour'" \
  "$CT" "$T/bad4.xml" -o "$T/bad.apng"
doc "$T/ok.xml" 'duration="1"' '' '<p>&#xE000;</p>'
expect 1 "fps: more than 0, at most 240" "$CT" "$T/ok.xml" -o "$T/bad.apng" --fps 0
expect 1 "is 360000 frames (at most 100000)" "$CT" "$T/ok.xml" -o "$T/bad.apng" --fps 100 --duration 3600
expect 1 "duration: more than 0" "$CT" "$T/ok.xml" -o "$T/bad.apng" --duration -1
expect 1 "fps: expected a number" "$CT" "$T/ok.xml" -o "$T/bad.apng" --fps many
expect 1 "fps: for animations" "$CT" "$T/ok.xml" -o "$T/bad.png" --fps 10
expect 1 "cmyk: not for animations" "$CT" "$T/ok.xml" -o "$T/bad.apng" --cmyk
expect 1 "quality: for animations" "$CT" "$T/ok.xml" -o "$T/bad.png" --quality 50
expect 2 "a document says what moves with <animate>" "$CT" "$T/ok.xml" -o "$T/bad.apng" --animate wght=1:9
expect 2 "bad value '9' for --effort" "$CT" "$T/ok.xml" -o "$T/bad.webp" --effort 9
ls "$T"/bad.* >/dev/null 2>&1 && bad "a refused animation left a file: $(ls "$T"/bad.*)" || ok
# an error in a frame's filter: nothing left behind
cat > "$T/fail.lua" <<'EOF'
return { Glyph = function(g, ctx) if ctx.frame_number == 5 then error("frame five") end end }
EOF
expect 1 "frame five" "$CT" -f "$T/fail.lua" "$T/ok.xml" -o "$T/half.apng"
[ -f "$T/half.apng" ] && bad "half-written animation left on disk" || ok
n=$("$CT" "$T/bad1.xml" -o "$T/bad.apng" 2>&1 | wc -l)
[ "$n" -eq 1 ] && ok || bad "error is $n lines"

finish
