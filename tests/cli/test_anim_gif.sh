#!/bin/sh
# test_anim_gif.sh: animated GIF (gif.c), judged by other readers: PIL reads the frame count,
# the loop and the durations, and every frame is near the APNG of the same command (one
# shared palette: quantization) and the first near the still `view` PNG; flat colors, opaque
# and turning transparent, round-trip exactly (frame by frame against PNG frames of the same
# script); --dither writes another file that still reads back; ffprobe counts the frames;
# bad input (more than 50 fps, a full disk) gets one line and leaves no file.
SUITE=gif
. tests/cli/lib.sh
. tests/cli/animlib.sh
[ "$have_py" = 1 ] || echo "$SUITE: python3-PIL missing: frame checks skipped"

for ext in gif apng; do
  expect 0 "" "$CT" view "$VAR" "$TXT" --font-size 96 --animate SWPS=0:360 --animate palette=0:1 \
    --duration 2 --fps 10 --loop 3 -o "$T/move.$ext"
done
expect 0 "" "$CT" view "$VAR" "$TXT" --font-size 96 --animate SWPS=0:360 --animate palette=0:1 \
  --duration 2 --fps 10 --loop 3 --dither -o "$T/dither.gif"
expect 0 "" "$CT" view "$VAR" "$TXT" --font-size 96 --variations SWPS=0 -o "$T/start.png"
cmp -s "$T/move.gif" "$T/dither.gif" && bad "--dither wrote the same GIF" || ok

# flat colors: a square and a bar moving over a transparent ground (pixels turn transparent
# after being opaque), a square flashing, two frames alike; as GIF and as PNG frames
cat > "$T/flat.lua" <<'EOF'
local ct = require "chromatype"
local function draw(c, _, i)
  local j = i == 7 and 6 or i   -- frame 7 repeats frame 6
  c:rect { x = 5 + 7 * j, y = 5, w = 20, h = 20, color = "#e02020" }
  c:rect { x = 60, y = 3 + 4 * (j % 5), w = 12, h = 6, color = "#2040e0" }
  if j % 2 == 0 then c:rect { x = 80, y = 30, w = 8, h = 8, color = "#10a040" } end
end
for _, out in ipairs(arg) do
  assert(ct.animate { width = 100, height = 40, fps = 8, frames = 10, output = out, draw = draw })
end
EOF
expect 0 "" "$CT" "$T/flat.lua" "$T/flat.gif" "$T/flat-%02d.png"
# two colors on an opaque ground, frames added without samples (a:add)
cat > "$T/two.lua" <<'EOF'
local ct = require "chromatype"
local core = require "chromatype.core"
for _, out in ipairs(arg) do
  local a = assert(core.animation(out, { width = 50, height = 30, fps = 5 }))
  for i = 0, 5 do
    local c = ct.canvas { width = 50, height = 30 }
    c:background("#fff0c0")
    c:rect { x = 3 + 6 * i, y = 4 + i, w = 10, h = 10, color = "#102080" }
    assert(a:add(c))
  end
  assert(a:finish())
end
EOF
expect 0 "" "$CT" "$T/two.lua" "$T/two.gif" "$T/two-%02d.png"

if [ "$have_py" = 1 ]; then
  if out=$($PY - "$T" <<'EOF' 2>&1
import sys
from PIL import Image, ImageChops, ImageStat
t = sys.argv[1]

def frame(path, k):    # a fresh reader per frame: PIL 9.4 cannot always seek backwards
    im = Image.open(path)
    im.seek(k)
    return im.convert("RGBA")

def flat(im):          # as GIF shows it: alpha >= 128 opaque in its own color, else nothing,
    r, g, b, a = im.split()   # over white
    a = a.point(lambda v: 255 if v >= 128 else 0)
    white = Image.new("RGBA", im.size, (255, 255, 255, 255))
    return Image.composite(Image.merge("RGBA", (r, g, b, a)), white, a).convert("RGB")

def mean_diff(a, b):
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3

for name in ("move", "dither"):
    path = "%s/%s.gif" % (t, name)
    im = Image.open(path)
    assert im.n_frames == 20, (name, im.n_frames)
    assert im.info.get("loop") == 2, (name, im.info.get("loop"))   # 3 plays: 2 repeats
    total = 0
    for k in range(im.n_frames):
        im.seek(k)
        total += im.info["duration"]
    assert total == 2000, (name, total)
    worst = 0
    for k in range(20):
        g, a = flat(frame(path, k)), flat(frame("%s/move.apng" % t, k))
        assert g.size == a.size, (name, k, g.size, a.size)
        d = mean_diff(g, a)
        worst = max(worst, d)
        # one palette of 256 for 20 frames of gradients in two palettes
        assert d < 6, (name, k, d)
    print(name, "worst mean difference to the APNG: %.2f" % worst)
    s = flat(Image.open("%s/start.png" % t).convert("RGBA"))
    f = flat(frame(path, 0)).crop((0, 0, s.width, s.height))
    assert mean_diff(f, s) < 6, (name, "first frame vs the still", mean_diff(f, s))

# flat colors: exactly the drawn frames, transparency included
for name, n in (("flat", 10), ("two", 6)):
    path = "%s/%s.gif" % (t, name)
    assert Image.open(path).n_frames == n, (name, Image.open(path).n_frames)
    for k in range(n):
        g = frame(path, k)
        p = Image.open("%s/%s-%02d.png" % (t, name, k)).convert("RGBA")
        gp, pp = list(g.getdata()), list(p.getdata())
        for i, (x, y) in enumerate(zip(gp, pp)):
            if y[3] >= 128:
                assert x == y[:3] + (255,), (name, k, i % g.width, i // g.width, x, y)
            else:
                assert x[3] == 0, (name, k, i % g.width, i // g.width, x, y)
print("ok")
EOF
  ); then ok; echo "$out" | grep -v '^ok$'; else bad "PIL: $out"; fi
fi

# ---- ffprobe counts the frames ---------------------------------------------------------------------
if command -v ffprobe > /dev/null 2>&1; then
  for f in move dither flat; do
    n=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 \
      "$T/$f.gif" 2>&1)
    want=20
    [ $f = flat ] && want=10
    [ "$n" = $want ] && ok || bad "ffprobe: $f.gif has '$n' frames, want $want"
  done
else
  echo "$SUITE: ffprobe missing (Debian ffmpeg): its checks skipped"
fi

# ---- bad input: one line, status 1, no file ---------------------------------------------------------
expect 1 "GIF plays at most 50 frames per second" "$CT" view "$VAR" "$TXT" --animate SWPS=0:360 --frames 3 \
  --fps 60 -o "$T/fast.gif"
ls "$T" | grep -q "^fast\.gif" && bad "a refused GIF left $(ls "$T" | grep "^fast")" || ok
# a disk that fills: the file grows past the limit of `ulimit -f`; writes fail, nothing is left
expect 1 "cannot write\|File too large" sh -c "ulimit -f 16; trap '' XFSZ; exec \"$CT\" view \"$VAR\" \"$TXT\" \
  --font-size 200 --animate SWPS=0:360 --frames 30 -o \"$T/full.gif\""
ls "$T" | grep -q "^full\.gif" && bad "a full disk left $(ls "$T" | grep "^full")" || ok
finish
