--- chromatype.animate: animations drawn frame by frame.
-- `ct.animate{ width =, height =, fps = 30, duration = 4 (or frames = N), output = "x.webp",
-- draw = function(canvas, t, frame, p) ... end }` calls `draw` once per frame on a fresh
-- canvas (`t` the time in seconds, `frame` from 0, `p` the progress from 0 at the first frame
-- to 1 at the last), rasterizes it at `dpi` and hands it to the core's encoder, which writes
-- it out before the next frame is drawn: memory does not grow with the frame count.  The
-- output format follows the extension: .apng or .png (APNG), .webp (animated WebP,
-- lossless unless `quality` is given), .gif (one palette for the animation, at most 50 fps),
-- or a pattern such as "frames/%04d.png" (one PNG per frame, numbered from 0).  Easing and interpolation helpers: `ease`, `lerp`, `mix` (colors
-- in OKLab), `mix_palettes`.
-- @module chromatype.animate

local ct = require "chromatype"
local core = require "chromatype.core"
local palette = require "chromatype.palette"

local M = {}

local FIELDS = { width = true, height = true, fps = true, duration = true, frames = true, draw = true,
  output = true, dpi = true, loop = true, quality = true, effort = true, format = true, background = true, poster = true,
  dither = true, matte = true,
  workers = true }

local function argerr(msg) error(("bad argument #1 to 'animate' (%s)"):format(msg), 3) end

-- ---- easing and interpolation ------------------------------------------------------------

--- Easing functions of progress t in 0..1.
M.ease = {
  linear = function(t) return t end,
  ["in"] = function(t) return t * t * t end,
  out = function(t) local u = 1 - t; return 1 - u * u * u end,
  in_out = function(t)
    if t < 0.5 then return 4 * t * t * t end
    local u = -2 * t + 2
    return 1 - u * u * u / 2
  end,
  --- `steps(n)`: n equal jumps (the first value held until 1/n, the last reached at 1).
  steps = function(n)
    if math.type(n) ~= "integer" or n < 1 then error("bad argument #1 to 'steps' (a positive integer expected)", 2) end
    return function(t) return t >= 1 and 1 or math.floor(t * n) / n end
  end,
}

--- a + (b - a) t.
function M.lerp(a, b, t) return a + (b - a) * t end

--- Two colors mixed in OKLab (perceptually even): t = 0 gives a, 1 gives b.
function M.mix(a, b, t) return palette.mix_colors(a, b, t, "oklab") end

--- Two palettes (lists of colors) mixed entry by entry in OKLab; as long as the shorter.
function M.mix_palettes(a, b, t)
  if type(a) ~= "table" or type(b) ~= "table" then error("bad argument to 'mix_palettes' (two lists of colors expected)", 2) end
  local out = {}
  for i = 1, math.min(#a, #b) do out[i] = M.mix(a[i], b[i], t) end
  return out
end

-- ---- the timeline ------------------------------------------------------------------------------

--- Writes one animation (see the module's description); returns true, or nil and a message.
--- Other options: `dpi` (72: a point is a pixel), `loop` (times to play, 0 = forever),
--- `quality` (WebP: 0..100 lossy, default lossless; video: 0..100 maps to the encoder's
--- CRF), `effort` (WebP: 0 fastest, the default, to 6 smallest), `format` ("apng", "webp", "gif",
--- "frames", "video"), `dither` (GIF: error diffusion to the shared palette), `matte` (video,
--- which has no transparency: the color under transparent pixels, white by default),
--- `background` (a color each frame starts from), `poster` (APNG: the frame readers without
--- animation show, by number), `workers` (processes drawing frames: 0, the default, one per
--- core; 1 draws them all in this process).  Errors in `draw` raise, after the unfinished file is removed.
function M.animate(t)
  if type(t) ~= "table" then argerr("table expected, got " .. type(t)) end
  for k in pairs(t) do
    if not FIELDS[k] then argerr(("unknown field '%s'"):format(tostring(k))) end
  end
  local w, h = t.width, t.height
  if type(w) ~= "number" or type(h) ~= "number" or not (w > 0 and h > 0) then
    argerr("width and height (points, more than 0) expected")
  end
  local fps = t.fps or 30
  if type(fps) ~= "number" or not (fps > 0 and fps <= 240) then argerr("fps: more than 0, at most 240 expected") end
  local n
  if t.frames ~= nil then
    if t.duration ~= nil then argerr("give duration or frames, not both") end
    n = t.frames
    if math.type(n) ~= "integer" or n < 1 or n > 100000 then argerr("frames: an integer from 1 to 100000 expected") end
  else
    local d = t.duration
    if type(d) ~= "number" or not (d > 0 and d <= 3600) then argerr("duration: seconds, more than 0, at most 3600 expected") end
    n = math.max(1, math.floor(d * fps + 0.5))
    if n > 100000 then argerr(("%g s at %g fps is more than 100000 frames"):format(d, fps)) end
  end
  if type(t.draw) ~= "function" then argerr("draw: a function(canvas, t, frame, p) expected") end
  if type(t.output) ~= "string" or t.output == "" then argerr("output: a file name expected") end
  local dpi = t.dpi or 72
  if type(dpi) ~= "number" or not (dpi > 0 and dpi <= 9600) then argerr("dpi: out of range") end
  if t.background ~= nil and not palette.color(t.background) then argerr("background: bad color") end
  if t.matte ~= nil and not palette.color(t.matte) then argerr("matte: bad color") end
  if t.poster ~= nil and (math.type(t.poster) ~= "integer" or t.poster < 0 or t.poster >= n) then
    argerr(("poster: a frame number from 0 to %d expected"):format(n - 1))
  end
  if t.workers ~= nil and (math.type(t.workers) ~= "integer" or t.workers < 0 or t.workers > 64) then
    argerr("workers: an integer from 0 (one per core) to 64 expected")
  end
  local pw, ph = math.ceil(w * dpi / 72 - 1e-6), math.ceil(h * dpi / 72 - 1e-6)
  local a, err = core.animation(t.output, { width = pw, height = ph, fps = fps, frames = n, loop = t.loop,
    quality = t.quality, effort = t.effort, format = t.format, dither = t.dither, matte = t.matte })
  if not a then return nil, err end

  -- Each frame is drawn on a fresh canvas by `draw` and rasterized, in worker processes (one
  -- per core): `draw` must depend only on its arguments.  Warnings of all frames reach the
  -- handler of ct.on_warning once each.
  local prev = ct.on_warning(function(msg)
    if not core.anim_warning(msg) then core.write_stderr("chromatype: warning: ", msg, "\n") end
  end)
  local function deliver(msg)
    if prev == nil then core.write_stderr("chromatype: warning: ", msg, "\n")
    elseif prev then prev(msg) end
  end
  local ok, res, e = pcall(a.render, a, {
    frames = n, poster = t.poster, workers = t.workers, dpi = dpi, warning = deliver,
    draw = function(i)
      local c = ct.canvas { width = w, height = h, time = i / fps }   -- SVG glyphs: their SMIL at t
      if t.background then c:background(t.background) end
      t.draw(c, i / fps, i, n > 1 and i / (n - 1) or 0)
      return c
    end })
  ct.on_warning(prev)
  if not ok then
    a:close()   -- nothing left on disk
    error(res, 0)
  end
  if not res then
    a:close()
    return nil, e
  end
  return a:finish()
end

return M
