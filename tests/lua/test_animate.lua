-- test_animate.lua: ct.animate (first slice of issue 15): APNG (acTL frame count and loop,
-- one fcTL per frame), animated WebP (RIFF/WEBP with ANIM and ANMF chunks), PNG frames by
-- pattern; refusals leave no file; OKLab mixing and easing.
local ct = require "chromatype"
local anim = require "chromatype.animate"

local function read(p)
  local f = io.open(p, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

local function count(s, pat)
  local n = 0
  for _ in s:gmatch(pat) do n = n + 1 end
  return n
end

local function draw(c, t, i, p)
  c:rect { x = 10 + 60 * p, y = 10, w = 20, h = 20, color = anim.mix("#ff0000", "#0000ff", p) }
end

return {
  { "APNG: acTL holds the frame count and loop, one fcTL per frame", function()
    local out = tmpname(".apng")
    assert(ct.animate { width = 100, height = 40, fps = 10, duration = 1.2, output = out, draw = draw, loop = 2 })
    local s = assert(read(out))
    eq(s:sub(1, 8), "\137PNG\r\n\26\n")
    local at = s:find("acTL", 1, true)
    eq({ string.unpack(">I4I4", s, at + 4) }, { 12, 2, at + 12 })
    eq(count(s, "fcTL"), 12)
    eq(count(s, "fdAT") >= 11, true)
  end },
  { "animated WebP: 8 frames", function()
    local out = tmpname(".webp")
    assert(ct.animate { width = 100, height = 40, fps = 8, frames = 8, output = out, draw = draw })
    local s = assert(read(out))
    eq({ s:sub(1, 4), s:sub(9, 12) }, { "RIFF", "WEBP" })
    assert(s:find("ANIM", 1, true))
    eq(count(s, "ANMF"), 8)
  end },
  { "PNG frames by pattern, numbered from 0", function()
    local base = tmpname("")
    local out = base .. "-%03d.png"
    assert(ct.animate { width = 50, height = 20, fps = 5, frames = 3, output = out, draw = draw })
    for i = 0, 2 do
      local name = out:format(i)
      assert(read(name), name)
      os.remove(name)
    end
  end },
  { "bad input: no file, one message", function()
    local out = tmpname(".apng")
    checkerr("fps: more than 0", ct.animate, { width = 10, height = 10, fps = 0, duration = 1, output = out, draw = draw })
    checkerr("duration: seconds", ct.animate, { width = 10, height = 10, duration = 1e9, output = out, draw = draw })
    checkerr("unknown field 'durration'", ct.animate, { width = 10, height = 10, durration = 1, output = out, draw = draw })
    local ok, err = ct.animate { width = 10, height = 10, frames = 2, output = tmpname("") .. "-%s.png", draw = draw }
    eq(ok, nil)
    assert(err:find("a frames pattern holds one number"), err)
    checkerr("boom", ct.animate, { width = 10, height = 10, frames = 3, output = out,
      draw = function(_, _, i) if i == 1 then error("boom") end end })
    eq(read(out), nil)
  end },
  { "OKLab mixing and easing", function()
    eq(anim.mix("#ff0000", "#0000ff", 0), "#ff0000ff")
    eq(anim.mix("#ff0000", "#0000ff", 1), "#0000ffff")
    assert(anim.mix("#000000", "#ffffff", 0.5) ~= ct.color("#808080"))   -- perceptual, not sRGB halfway
    eq(anim.ease.in_out(0.5), 0.5)
    eq(anim.ease.steps(4)(0.3), 0.25)
    eq(anim.lerp(0, 200, 0.25), 50.0)
  end },
}
