-- motion.lua: chromatic wood type coming into register.  Three fonts of the Bungee family
-- (Shade, Regular, Inline), one ink each, fly in from three sides and lock into register,
-- then "boil" on twos, a hair out of register as a hand-inked press run would be, while the
-- inks shift from day to night colors (mixed in OKLab).  Every frame depends only on its
-- time, so the frames are drawn on every core.
--   chromatype examples/motion.lua [OUT ...]
-- writes out/motion.webp, out/motion.apng and out/motion.gif by default (OUT.mp4 and OUT.webm
-- too when asked, through ffmpeg).
local ct = require "chromatype"
local anim = require "chromatype.animate"
local random = require "chromatype.random"

local outs = { ... }
if #outs == 0 then outs = { "out/motion.webp", "out/motion.apng", "out/motion.gif" } end
local here = (arg and arg[0] and arg[0]:match("^(.*)/")) or "examples"
local F = here .. "/fonts/"
local shade = assert(ct.open_font(F .. "bungee-shade-latin.woff2"))
local regular = assert(ct.open_font(F .. "bungee-latin.woff2"))
local inline = assert(ct.open_font(F .. "bungee-inline-latin.woff2"))

local DAY = { shade = "#1d3557", stripe = "#f1c453", body = "#d62828", paper = "#efe6d0" }
local NIGHT = { shade = "#0b132b", stripe = "#5bc0be", body = "#f25f5c", paper = "#1c2541" }
local SECONDS, FPS = 3, 24
local LOCK = 0.55   -- the part of the animation spent flying in

local function frame(c, t, i, p)
  local fly = 1 - anim.ease.out(math.min(1, p / LOCK))            -- 1 far out .. 0 in register
  local night = anim.ease.in_out(math.max(0, (p - LOCK) / (1 - LOCK)))
  local ink = {}
  for k, v in pairs(DAY) do ink[k] = anim.mix(v, NIGHT[k], night) end
  -- once in register, a new misregistration every second frame, keyed by it: the same
  -- frame number always draws the same numbers, whichever process draws it
  local jitter = { 0, 0, 0, 0, 0, 0 }
  if fly == 0 then
    local r = random.new(7):fork("boil", i // 2)
    for k = 1, 6 do jitter[k] = (r:random() - 0.5) * 0.012 end
  end
  c:background(ink.paper)
  local stack = ct.stack {
    { font = shade, color = ink.shade, offset = { -0.9 * fly + jitter[1], jitter[2] } },
    { font = regular, color = ink.stripe, offset = { jitter[3], -1.2 * fly + jitter[4] } },
    { font = inline, color = ink.body, offset = { 0.9 * fly + jitter[5], jitter[6] } },
    lead = 2, warn = false,
  }
  stack:draw(c, { "CHROMA", size = 140, x = 50, y = 290 })
  c:text { ("%.2f s"):format(t), font = regular, size = 18, x = 50, y = 400, color = ink.stripe }
end

for _, out in ipairs(outs) do
  assert(anim.animate { width = 800, height = 440, fps = FPS, duration = SECONDS, output = out, draw = frame,
    poster = out:match("%.apng$") and math.floor(SECONDS * FPS * 0.6) or nil })   -- APNG: a still for readers without animation
  print("motion: " .. out)
end
