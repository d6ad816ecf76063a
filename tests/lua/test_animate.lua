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
  { "every core: the same file whatever the number of workers", function()
    local outs = {}
    for _, w in ipairs({ 1, 2, 3 }) do
      outs[w] = tmpname(".apng")
      assert(ct.animate { width = 100, height = 40, fps = 10, frames = 7, output = outs[w], draw = draw,
        workers = w, poster = 3 })
    end
    eq(read(outs[2]) == read(outs[1]), true)
    eq(read(outs[3]) == read(outs[1]), true)
    local w1, w2 = tmpname(".webp"), tmpname(".webp")
    assert(ct.animate { width = 100, height = 40, frames = 5, output = w1, draw = draw, workers = 1 })
    assert(ct.animate { width = 100, height = 40, frames = 5, output = w2, draw = draw, workers = 2 })
    eq(read(w1) == read(w2), true)
    checkerr("workers: an integer", ct.animate, { width = 10, height = 10, frames = 2, output = w1, draw = draw,
      workers = -1 })
  end },
  { "every core: an error in a worker's frame raises, leaves no file", function()
    for _, w in ipairs({ 1, 2 }) do
      local out = tmpname(".apng")
      local ok, err = pcall(ct.animate, { width = 20, height = 20, frames = 6, output = out, workers = w,
        draw = function(_, _, i) if i == 4 then error("frame four broke") end end })
      eq(ok, false)
      assert(tostring(err):find("frame four broke", 1, true), err)
      eq(read(out), nil)
      if w > 1 then   -- a worker that dies (here it exits) fails the animation
        local ok2, err2 = ct.animate { width = 20, height = 20, frames = 3, output = out, workers = w,
          draw = function(_, _, i) if i == 2 then os.exit(3) end end }
        eq(ok2, nil)
        assert(tostring(err2):find("worker process", 1, true), err2)
        eq(read(out), nil)
      end
    end
  end },
  { "every core: each warning once per animation", function()
    local f = assert(ct.open_font("tests/fonts/ct-colr0.ttf"))
    local got = {}
    local prev = ct.on_warning(function(m) got[#got + 1] = m end)
    local ok, err = pcall(ct.animate, { width = 60, height = 30, frames = 6, output = tmpname(".apng"), workers = 2,
      draw = function(c, _, i) c:text { "A\u{2603}", font = f, size = 12, x = 2, y = 20 } end })
    ct.on_warning(prev)
    assert(ok, err)
    eq(#got, 1)
    assert(got[1]:find("U+2603", 1, true), got[1])
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
