-- anim.lua: an animation of issue 15's target: 1080 x 1080 px, 30 fps, five glyphs of a
-- variable COLRv1 font (tests/fonts/ct-colr1-var.ttf: sweep, linear, radial gradients, a
-- transform and a rotation) whose SWPS axis turns 0..360 and whose palette blends 0 -> 1.
--   chromatype bench/anim.lua OUT SECONDS [WORKERS]
-- Prints "frames N seconds S fps F peak_rss_kib K" (K: this process, the encoder's side).
local ct = require "chromatype"
local anim = require "chromatype.animate"
local palette = require "chromatype.palette"

local out = arg[1] or error("anim: OUT expected", 0)
local seconds = tonumber(arg[2]) or 4
local workers = math.tointeger(tonumber(arg[3] or "0")) or 0
local here = arg[0]:match("^(.*)/") or "bench"
local f = assert(ct.open_font(here .. "/../tests/fonts/ct-colr1-var.ttf"))
local text = "\u{e003}\u{e001}\u{e002}\u{e004}\u{e007}"

local function peak_kib()
  local h = io.open("/proc/self/status")
  if not h then return -1 end
  local s = h:read("a")
  h:close()
  return tonumber(s:match("VmHWM:%s*(%d+)")) or -1
end

local n = math.floor(seconds * 30 + 0.5)
assert(anim.animate {
  width = 1080, height = 1080, fps = 30, frames = n, output = out, workers = workers, background = "#f4efe3",
  draw = function(c, _, _, p)
    f:set_variations { SWPS = 360 * anim.ease.in_out(p) }
    c:text { text, font = f, size = 200, x = 20, y = 620, overrides = palette.mix(f, 0, 1, p, "oklab") }
  end,
})
print(("frames %d peak_rss_kib %d"):format(n, peak_kib()))
