-- test_anim_gif.lua: animated GIF (gif.c): the file's blocks walked here (frames, delays in
-- hundredths adding up to the frame times, NETSCAPE2.0 loop count, changed rectangles,
-- disposal, one global palette), refusals (fps over 50, absurd sizes) leaving no file, an
-- animation closed unfinished leaving nothing, frames added one by one without samples.
-- The pixels are read back by PIL in tests/cli/test_anim_gif.sh.
local ct = require "chromatype"
local core = require "chromatype.core"
local anim = require "chromatype.animate"

local function read(p)
  local f = io.open(p, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

-- The GIF's structure: { width, height, palette = entries, loop = repeat count or nil,
-- frames = { {delay, disposal, transparent, x, y, w, h}, ... } }; raises on a malformed file.
local function walk(s)
  assert(s:sub(1, 6) == "GIF89a", "not a GIF89a")
  local g = { frames = {} }
  local flags
  g.width, g.height, flags = string.unpack("<I2I2B", s, 7)
  local at = 14
  if flags & 0x80 ~= 0 then
    g.palette = 2 << (flags & 7)
    at = at + 3 * g.palette
  end
  local function skip_blocks()   -- data sub-blocks up to the empty one; returns their bytes
    local parts = {}
    while true do
      local n = s:byte(at)
      assert(n, "truncated")
      at = at + 1
      if n == 0 then return table.concat(parts) end
      parts[#parts + 1] = s:sub(at, at + n - 1)
      at = at + n
    end
  end
  local gce
  while true do
    local b = s:byte(at)
    assert(b, "no trailer")
    at = at + 1
    if b == 0x3B then break end
    if b == 0x21 then
      local label = s:byte(at)
      at = at + 1
      local data = skip_blocks()
      if label == 0xF9 then
        local pf, delay, ti = string.unpack("<BI2B", data)
        gce = { delay = delay, disposal = (pf >> 2) & 7, transparent = pf & 1 == 1 and ti or nil }
      elseif label == 0xFF and data:sub(1, 11) == "NETSCAPE2.0" then
        g.loop = string.unpack("<I2", data, 13)
      end
    elseif b == 0x2C then
      local x, y, w, h, f = string.unpack("<I2I2I2I2B", s, at)
      at = at + 9
      assert(f & 0x80 == 0, "a local palette")
      at = at + 1   -- LZW code size
      skip_blocks()
      assert(gce, "a frame without its control block")
      gce.x, gce.y, gce.w, gce.h = x, y, w, h
      g.frames[#g.frames + 1] = gce
      gce = nil
    else
      error(("unknown block 0x%02x at %d"):format(b, at - 1))
    end
  end
  return g
end

local function delays(g)
  local d, sum = {}, 0
  for i, f in ipairs(g.frames) do
    d[i] = f.delay
    sum = sum + f.delay
  end
  return d, sum
end

local function draw(c, t, i, p)
  c:background("#ffffff")
  c:rect { x = 10 + 60 * p, y = 10, w = 20, h = 20, color = anim.mix("#ff0000", "#0000ff", p) }
end

-- No file by that name, nor a temporary one next to it.
local function nothing_at(path)
  eq(read(path), nil, path)
  local dir, base = path:match("^(.*)/([^/]*)$")
  local p = assert(io.popen("ls -a '" .. dir .. "'"))
  for name in p:lines() do
    if name:sub(1, #base) == base then error("left " .. dir .. "/" .. name) end
  end
  p:close()
end

return {
  { "ct.animate to .gif: frames, delays, loop forever, one palette, changed rectangles", function()
    local out = tmpname(".gif")
    assert(ct.animate { width = 100, height = 40, fps = 10, duration = 1.2, output = out, draw = draw })
    local g = walk(assert(read(out)))
    eq({ g.width, g.height, #g.frames, g.loop }, { 100, 40, 12, 0 })
    local d, sum = delays(g)
    eq(sum, 120)
    eq(d[1], 10)
    eq({ g.frames[1].x, g.frames[1].y, g.frames[1].w, g.frames[1].h }, { 0, 0, 100, 40 })
    for i = 2, 12 do
      local f = g.frames[i]
      -- only the square moved: a rectangle around it, never the whole frame
      assert(f.w < 100 and f.h <= 22 and f.y >= 9, ("frame %d: %dx%d+%d+%d"):format(i, f.w, f.h, f.x, f.y))
      eq(f.disposal, 1)
    end
    assert(g.palette and g.palette <= 256)
  end },
  { "delays in hundredths add up to the frame times; loop counts", function()
    local out = tmpname(".gif")
    assert(ct.animate { width = 30, height = 20, fps = 30, frames = 30, output = out, draw = draw, loop = 1 })
    local g = walk(assert(read(out)))
    local d, sum = delays(g)
    eq(#d, 30)
    eq(sum, 100)   -- 30 frames at 30 fps: one second
    for i = 1, 30 do assert(d[i] == 3 or d[i] == 4, d[i]) end
    eq(g.loop, nil)  -- played once: no NETSCAPE2.0 block
    assert(ct.animate { width = 30, height = 20, fps = 7, frames = 7, output = out, draw = draw, loop = 3 })
    g = walk(assert(read(out)))
    d, sum = delays(g)
    eq({ #d, sum, g.loop }, { 7, 100, 2 })   -- three plays: two repeats
    assert(ct.animate { width = 30, height = 20, fps = 50, frames = 5, output = out, draw = draw })
    d, sum = delays(walk(assert(read(out))))
    eq(d, { 2, 2, 2, 2, 2 })
  end },
  { "refused: more than 50 fps, absurd sizes; no file left", function()
    local out = tmpname(".gif")
    local ok, err = ct.animate { width = 30, height = 20, fps = 60, frames = 3, output = out, draw = draw }
    eq(ok, nil)
    assert(err:find("GIF plays at most 50 frames per second", 1, true), err)
    nothing_at(out)
    local a, e = core.animation(out, { width = 30000, height = 30000, fps = 10 })
    eq(a, nil)
    assert(e:find("exceed the limit", 1, true), e)
    checkerr("width", core.animation, out, { width = 1e9, height = 10 })
    a, e = core.animation(out, { width = 10, height = 10, fps = 0.001 })
    eq(a, nil)
    assert(e:find("at most 655 seconds", 1, true), e)
    nothing_at(out)
    checkerr("boom", ct.animate, { width = 10, height = 10, frames = 3, output = out,
      draw = function(_, _, i) if i == 1 then error("boom") end end })
    nothing_at(out)
  end },
  { "closed unfinished: no file, no temporary file", function()
    local out = tmpname(".gif")
    local a = assert(core.animation(out, { width = 20, height = 20, fps = 10 }))
    local c = ct.canvas { width = 20, height = 20 }
    c:rect { x = 2, y = 2, w = 5, h = 5, color = "#00ff00" }
    assert(a:add(c))
    assert(a:add(c))
    a:close()
    nothing_at(out)
  end },
  { "frames added one by one (no samples): palette from the first, an unchanged frame is one pixel", function()
    local out = tmpname(".gif")
    local a = assert(core.animation(out, { width = 40, height = 30, fps = 4, loop = 2 }))
    for i = 0, 3 do
      local c = ct.canvas { width = 40, height = 30 }
      c:background("#202080")
      c:rect { x = i == 3 and 10 or 10 + 5 * i, y = 5, w = 10, h = 10, color = "#ffcc00" }
      assert(a:add(c))
    end
    eq(a:finish(), true)
    local g = walk(assert(read(out)))
    eq({ #g.frames, g.loop, g.palette }, { 4, 1, 4 })   -- two colors and the transparent index
    local d, sum = delays(g)
    eq({ d, sum }, { { 25, 25, 25, 25 }, 100 })
    local f = g.frames[3]
    eq({ f.x, f.y, f.w, f.h }, { 15, 5, 15, 10 })           -- 15..19 left, 25..29 reached
    eq({ f.transparent }, { 2 })
    f = g.frames[4]                                          -- back to where frame 1 had it
    eq({ f.x, f.y, f.w, f.h }, { 10, 5, 20, 10 })
  end },
  { "transparency: pixels turning transparent dispose of the frame before to the background", function()
    local out = tmpname(".gif")
    assert(ct.animate { width = 60, height = 20, fps = 10, frames = 4, output = out,
      draw = function(c, _, i) c:rect { x = 5 + 10 * i, y = 5, w = 10, h = 10, color = "#e02020" } end })
    local g = walk(assert(read(out)))
    eq(#g.frames, 4)
    for i = 1, 3 do eq(g.frames[i].disposal, 2, "frame " .. i) end   -- the square leaves its place each time
    eq(g.frames[4].disposal, 1)
    for i = 1, 4 do eq(g.frames[i].transparent, 1) end              -- one color, then transparency
  end },
  { "dither: another file, same structure", function()
    local plain, dith = tmpname(".gif"), tmpname(".gif")
    local function grad(c, _, i)   -- 512 colors a frame: more than a palette holds
      for x = 0, 63 do
        for j = 0, 7 do
          c:rect { x = x, y = 6 * j, w = 1, h = 6, color = ("#%02x%02x%02x"):format(x * 4, j * 30 + i, 255 - x * 3) }
        end
      end
    end
    assert(ct.animate { width = 64, height = 48, fps = 10, frames = 3, output = plain, draw = grad })
    assert(ct.animate { width = 64, height = 48, fps = 10, frames = 3, output = dith, draw = grad, dither = true })
    local a, b = assert(read(plain)), assert(read(dith))
    assert(a ~= b, "dithering changed nothing")
    eq(#walk(a).frames, 3)
    eq(#walk(b).frames, 3)
  end },
}
