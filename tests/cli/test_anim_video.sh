#!/bin/sh
# test_anim_video.sh: `chromatype view ... --animate -o x.mp4 / .webm / .mov` through the
# ffmpeg program, judged by ffprobe (codec, frame count, rate, duration, even size) and by
# the first frame decoded by ffmpeg against the still `view` PNG on white (PIL); the matte,
# --quality, odd sizes, --jobs; a missing, failing or dying ffmpeg (CHROMATYPE_FFMPEG)
# and a full disk give one error and leave no file.
SUITE=video
. tests/cli/lib.sh
. tests/cli/animlib.sh
if ! command -v ffmpeg > /dev/null 2>&1 || ! command -v ffprobe > /dev/null 2>&1; then
  echo "$SUITE: ffmpeg missing (Debian ffmpeg): video checks skipped"
  expect 1 "needs the ffmpeg program" "$CT" view "$VAR" "$TXT" --animate SWPS=0:360 --frames 2 -o "$T/x.mp4"
  finish
fi
have_py=0
$PY -c "import PIL" 2>/dev/null && have_py=1
[ "$have_py" = 1 ] || echo "$SUITE: python3-PIL missing: frame checks skipped"
unset CHROMATYPE_FFMPEG
MOVE="--font-size 96 --animate SWPS=0:360 --animate palette=0:1 --duration 2 --fps 10"

probe() {   # codec,width,height,rate,frames of the first video stream
  ffprobe -v error -count_frames -select_streams v:0 \
    -show_entries stream=codec_name,width,height,r_frame_rate,nb_read_frames -of csv=p=0 "$1" 2>&1
}
first() {   # the first frame of video $1 decoded to PNG $2
  rm -f "$2"
  ffmpeg -v error -i "$1" -frames:v 1 "$2" > /dev/null 2>&1 || bad "ffmpeg cannot decode $1"
}
# nothing of $1 (visible or hidden temporary) in $T
none_left() { ls -A "$T" | grep -q "^\.\{0,1\}$1" && bad "$2 left $(ls -A "$T" | grep "^\.\{0,1\}$1")" || ok; }

# ---- the three containers --------------------------------------------------------------------------
# shellcheck disable=SC2086
for ext in mp4 webm mov; do
  expect 0 "" "$CT" view "$VAR" "$TXT" $MOVE -o "$T/move.$ext"
  case $ext in webm) want=vp9 ;; *) want=h264 ;; esac
  p=$(probe "$T/move.$ext")
  [ "$p" = "$want,320,148,10/1,20" ] && ok || bad "ffprobe: $ext: '$p', want '$want,320,148,10/1,20'"
  d=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$T/move.$ext" 2>&1)
  awk -v d="$d" 'BEGIN { exit !(d > 1.99 && d < 2.01) }' && ok || bad "$ext lasts '$d' s, want 2"
  first "$T/move.$ext" "$T/first-$ext.png"
done
ls -A "$T" | grep -q '\.tmp-' && bad "temporary files left: $(ls -A "$T")" || ok
# shellcheck disable=SC2086
expect 0 "" "$CT" view "$VAR" "$TXT" $MOVE --quality 100 -o "$T/q100.mp4"
# shellcheck disable=SC2086
expect 0 "" "$CT" view "$VAR" "$TXT" $MOVE --quality 0 -o "$T/q0.mp4"
# shellcheck disable=SC2086
expect 0 "" "$CT" view "$VAR" "$TXT" --font-size 96 --variations SWPS=0 -o "$T/start.png"
# transparent frames: over the matte, white by default
# shellcheck disable=SC2086
expect 0 "" "$CT" view "$VAR" "$TXT" $MOVE --background 00000000 --matte '#000000' -o "$T/black.webm"
# shellcheck disable=SC2086
expect 0 "" "$CT" view "$VAR" "$TXT" $MOVE --background 00000000 -o "$T/clear.webm"
expect 0 "" "$CT" view "$VAR" "$TXT" --font-size 96 --variations SWPS=0 --background 00000000 -o "$T/clear.png"
first "$T/q100.mp4" "$T/first-q100.png"
first "$T/q0.mp4" "$T/first-q0.png"
first "$T/black.webm" "$T/first-black.png"
first "$T/clear.webm" "$T/first-clear.png"
[ "$(stat -c %s "$T/q100.mp4")" -gt "$(stat -c %s "$T/move.mp4")" ] &&
  [ "$(stat -c %s "$T/move.mp4")" -gt "$(stat -c %s "$T/q0.mp4")" ] && ok || bad "--quality does not size the files"
# an odd size (318 x 145): padded to 318 x 146 with the matte
# shellcheck disable=SC2086
expect 0 "" "$CT" view "$VAR" "$TXT" --font-size 95 --margin 16,17,15,16 --animate SWPS=0:360 --frames 3 -o "$T/odd.mp4"
expect 0 "" "$CT" view "$VAR" "$TXT" --font-size 95 --margin 16,17,15,16 --variations SWPS=0 -o "$T/odd.png"
p=$(probe "$T/odd.mp4")
[ "$p" = "h264,318,146,30/1,3" ] && ok || bad "ffprobe: odd size: '$p', want 'h264,318,146,30/1,3'"
first "$T/odd.mp4" "$T/first-odd.png"
# the frame workers do not hold ffmpeg's input: --jobs 3 ends, with every frame
# shellcheck disable=SC2086
expect 0 "" timeout 120 "$CT" view "$VAR" "$TXT" $MOVE --jobs 3 -o "$T/jobs.mp4"
p=$(probe "$T/jobs.mp4")
[ "$p" = "h264,320,148,10/1,20" ] && ok || bad "ffprobe: --jobs 3: '$p'"
# shellcheck disable=SC2086
expect 0 "" timeout 120 "$CT" view "$VAR" "$TXT" $MOVE --jobs 1 -o "$T/jobs1.mp4"
cmp -s "$T/jobs.mp4" "$T/jobs1.mp4" && ok || bad "1 and 3 worker processes wrote different videos"

if [ "$have_py" = 1 ]; then
  if out=$($PY - "$T" <<'EOF' 2>&1
import sys
from PIL import Image, ImageChops, ImageStat
t = sys.argv[1]
def on(path, color):
    s = Image.open(path).convert("RGBA")
    return Image.alpha_composite(Image.new("RGBA", s.size, color), s).convert("RGB")
def mean_diff(a, b):
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3
still = on(t + "/start.png", (255, 255, 255, 255))
d = {}
for name in ("mp4", "webm", "mov", "q100", "q0"):
    f = Image.open("%s/first-%s.png" % (t, name)).convert("RGB")
    assert f.size == still.size, (name, f.size, still.size)
    d[name] = mean_diff(f, still)
    # the background: white, as the matte is
    assert min(f.getpixel((2, 2))) >= 250, (name, f.getpixel((2, 2)))
for name in ("mp4", "webm", "mov", "q100"):
    assert d[name] < 6, (name, d)   # lossy, 4:2:0: a few levels at colored edges
assert d["q100"] < d["mp4"] < d["q0"], d
# transparent frames: on white by default; a black matte: the background black, the
# glyphs as on black
assert Image.open(t + "/clear.png").getpixel((2, 2))[3] == 0
f = Image.open(t + "/first-clear.png").convert("RGB")
assert mean_diff(f, on(t + "/clear.png", (255, 255, 255, 255))) < 6
f = Image.open(t + "/first-black.png").convert("RGB")
assert max(f.getpixel((2, 2))) <= 5 and max(f.getpixel((f.width - 3, f.height - 3))) <= 5, f.getpixel((2, 2))
k = on(t + "/clear.png", (0, 0, 0, 255))
assert mean_diff(f, k) < 6, mean_diff(f, k)
assert mean_diff(f, still) > 50, mean_diff(f, still)
# the odd size: the frame on top, the padding row below it white
f = Image.open(t + "/first-odd.png").convert("RGB")
s = on(t + "/odd.png", (255, 255, 255, 255))
assert s.size == (318, 145) and f.size == (318, 146), (s.size, f.size)
assert mean_diff(f.crop((0, 0, 318, 145)), s) < 6
assert all(min(f.getpixel((x, 145))) >= 245 for x in range(0, 318, 7))
print("ok")
EOF
  ); then ok; else bad "PIL: $out"; fi
fi

# ---- a missing, failing or dying ffmpeg; a full disk: one error, no file ------------------------------
expect 1 "x.mp4: video needs the ffmpeg program (Debian package ffmpeg), not found" \
  env CHROMATYPE_FFMPEG=/nonexistent "$CT" view "$VAR" "$TXT" --animate SWPS=0:360 --frames 3 -o "$T/x.mp4"
none_left x. "a missing ffmpeg"
expect 1 "needs the ffmpeg program" env -u CHROMATYPE_FFMPEG PATH="$T/nowhere" "$B/chromatype" view "$VAR" "$TXT" \
  --animate SWPS=0:360 --frames 3 -o "$T/x.webm"
none_left x. "ffmpeg not in PATH"
printf '#!/bin/sh\necho boom >&2\nexit 1\n' > "$T/boom.sh"
printf '#!/bin/sh\nhead -c 1000 > /dev/null\nexit 3\n' > "$T/dies.sh"
chmod +x "$T/boom.sh" "$T/dies.sh"
for n in 3 60; do   # before the first frame is sent, or while frames are sent
  expect 1 "boom.mp4: ffmpeg failed: boom" env CHROMATYPE_FFMPEG="$T/boom.sh" timeout 60 "$CT" view "$VAR" "$TXT" \
    --animate SWPS=0:360 --frames $n -o "$T/boom.mp4"
  none_left boom.mp4 "a failing ffmpeg"
  expect 1 "dies.mov: ffmpeg" env CHROMATYPE_FFMPEG="$T/dies.sh" timeout 60 "$CT" view "$VAR" "$TXT" \
    --animate SWPS=0:360 --frames $n -o "$T/dies.mov"
  none_left dies.mov "an ffmpeg dying mid-stream"
  expect 1 "dies.mp4: ffmpeg" env CHROMATYPE_FFMPEG="$T/dies.sh" timeout 60 "$CT" view "$VAR" "$TXT" \
    --animate SWPS=0:360 --frames $n --jobs 3 -o "$T/dies.mp4"
  none_left dies.mp4 "an ffmpeg dying mid-stream (--jobs 3)"
done
# a disk that fills: ffmpeg cannot write (ulimit -f, inherited), nothing is left
expect 1 "ffmpeg failed" sh -c "ulimit -f 8; trap '' XFSZ; exec \"$CT\" view \"$VAR\" \"$TXT\" --font-size 200 \
  --animate SWPS=0:360 --animate palette=0:1 --quality 100 --frames 30 -o \"$T/full.mp4\""
none_left full.mp4 "a full disk"
finish
