-- test_svg_anim.lua: SMIL animation in OT-SVG glyphs (tests/fonts/ct-svg-anim.ttf, made by
-- make_svg.py): frames drawn at a time (canvas:set_time, ct.canvas{time =}) show the start,
-- midpoint and end values of fill animations, animateTransform rotations and translations,
-- set, animateColor with keyTimes, repeats, palette colors; static glyphs and still output
-- are unchanged; hostile documents are bounded.  Pixels are read back from written PNGs.
local ct = require "chromatype"

local anim = assert(ct.open_font(font_path("ct-svg-anim.ttf")))
local static = assert(ct.open_font(font_path("ct-svg.ttf")))

-- Draws one glyph at 100 pt with the pen at (10, 120) at time t (nil: no time set): font
-- unit (fx, fy) of the SVG (y down, baseline 0) is pixel (10 + fx/10, 120 + fy/10).
-- Returns px(fx, fy) -> r, g, b and the PNG's path.
local function draw(cp, t, opts, font)
  local c = ct.canvas { width = 120, height = 150 }
  c:background("#ffffff")
  if t then c:set_time(t) end
  local o = { utf8.char(cp), font = font or anim, size = 100, x = 10, y = 120, format = "svg" }
  for k, v in pairs(opts or {}) do o[k] = v end
  c:text(o)
  local path = tmpname(".png")
  assert(c:write(path))
  return function(fx, fy)
    local r, g, b = ct.read_png_pixel(path, math.floor(10 + fx / 10), math.floor(120 + fy / 10))
    return r, g, b
  end, path
end

-- Raises unless the pixel is within 2 of (r, g, b) on each channel.
local function near(px, fx, fy, r, g, b, what)
  local pr, pg, pb = px(fx, fy)
  if math.abs(pr - r) > 2 or math.abs(pg - g) > 2 or math.abs(pb - b) > 2 then
    error(("%s: pixel (%d, %d) is (%d, %d, %d), expected (%d, %d, %d)"):format(what or "color", fx, fy,
      pr, pg, pb, r, g, b), 2)
  end
end

local function bytes(path) return io.open(path, "rb"):read("a") end

local WHITE, BLACK = { 255, 255, 255 }, { 0, 0, 0 }
local function is(px, fx, fy, c, what) near(px, fx, fy, c[1], c[2], c[3], what) end

return {
  { "fill from red to blue: start, midpoint (sRGB), end frozen", function()
    near(draw(0xE500, 0), 400, -350, 255, 0, 0, "t=0")
    near(draw(0xE500, 1), 400, -350, 128, 0, 128, "t=1")
    near(draw(0xE500, 2), 400, -350, 0, 0, 255, "t=2")
    near(draw(0xE500, 30), 400, -350, 0, 0, 255, "t=30")
  end },
  { "animateTransform rotate: a bar turns 45 degrees by 1 s and 90 by 2 s", function()
    local px = draw(0xE501, 0)
    is(px, 150, -350, BLACK, "t=0 left end")
    is(px, 400, -600, WHITE, "t=0 above the center")
    px = draw(0xE501, 1)                  -- rotate(45) turns +x toward +y (down): clockwise
    is(px, 506, -244, BLACK, "t=1 on the diagonal")
    is(px, 294, -456, BLACK, "t=1 on the diagonal")
    is(px, 506, -456, WHITE, "t=1 off the diagonal")
    is(px, 150, -350, WHITE, "t=1 the old left end")
    px = draw(0xE501, 2)
    is(px, 400, -600, BLACK, "t=2 vertical")
    is(px, 150, -350, WHITE, "t=2 the old left end")
  end },
  { "set switches at 1 s", function()
    near(draw(0xE502, 0), 400, -350, 128, 128, 128, "t=0")
    near(draw(0xE502, 0.99), 400, -350, 128, 128, 128, "t=0.99")
    near(draw(0xE502, 1), 400, -350, 0, 160, 0, "t=1")
    near(draw(0xE502, 100), 400, -350, 0, 160, 0, "t=100")
  end },
  { "animateColor with values and keyTimes", function()
    near(draw(0xE503, 0), 400, -350, 255, 0, 0, "t=0")
    near(draw(0xE503, 0.5), 400, -350, 0, 255, 0, "t=0.5 (keyTime 0.25)")
    near(draw(0xE503, 1), 400, -350, 0, 170, 85, "t=1 (a third into the second interval)")
    near(draw(0xE503, 2), 400, -350, 0, 0, 255, "t=2")
  end },
  { "repeatCount indefinite cycles every second", function()
    near(draw(0xE504, 0), 400, -350, 0, 0, 0, "t=0")
    near(draw(0xE504, 0.5), 400, -350, 128, 128, 128, "t=0.5")
    near(draw(0xE504, 1.25), 400, -350, 64, 64, 64, "t=1.25")
    near(draw(0xE504, 2), 400, -350, 0, 0, 0, "t=2")
    near(draw(0xE504, 3599.5), 400, -350, 128, 128, 128, "t=3599.5")
  end },
  { "palette colors animate between the resolved entries", function()
    near(draw(0xE505, 1), 400, -350, 128, 0, 128, "palette 0, t=1")
    near(draw(0xE505, 0, { palette = 1 }), 400, -350, 0, 192, 0, "palette 1, t=0")
    near(draw(0xE505, 1, { palette = 1 }), 400, -350, 96, 96, 96, "palette 1, t=1")
    near(draw(0xE505, 1, { overrides = { [1] = "#ffffff" } }), 400, -350, 255, 128, 128, "override, t=1")
  end },
  { "spline translation: half way at half time (a symmetric ease)", function()
    local px = draw(0xE507, 0)
    near(px, 100, -350, 0, 0, 255, "t=0")
    px = draw(0xE507, 1)
    is(px, 100, -350, WHITE, "t=1 left")
    near(px, 300, -350, 0, 0, 255, "t=1 moved 200 units")
    px = draw(0xE507, 0.5)                -- ease in-out: 52 units (linear would be 100)
    is(px, 90, -350, WHITE, "t=0.5 left the start")
    near(px, 160, -350, 0, 0, 255, "t=0.5 still near the start")
  end },
  { "an animated fill wins over the element's style property", function()
    near(draw(0xE508, 0), 400, -350, 255, 0, 0, "t=0")
    near(draw(0xE508, 1), 400, -350, 128, 0, 128, "t=1")
  end },
  { "hostile: over the limits, removed with warnings; the rest draws, never red", function()
    local warnings = {}
    ct.on_warning(function(m) warnings[#warnings + 1] = m end)
    local ok, err = pcall(function()
      for _, t in ipairs { 0, 0.5, 1, 3, 7, 3599 } do
        local px, path = draw(0xE506, t)
        near(px, 100, -650, 128, 128, 128, "gray square")
        near(px, 400, -350, 0, 160, 0, "green square")
        local w, h, pixels = ct.read_png(path)
        for i = 1, w * h * 4, 4 do
          local r, g, b = pixels:byte(i, i + 2)
          assert(not (r > 200 and g < 60 and b < 60), "a red pixel")
        end
      end
    end)
    ct.on_warning(nil)
    assert(ok, err)
    local all = table.concat(warnings, "\n")
    assert(all:find("dur > 3600 s", 1, true), all)
    assert(all:find("animations past the limit of 256", 1, true), all)
  end },
  { "a static SVG glyph draws the same at any time", function()
    local _, p0 = draw(0xE100, 0, nil, static)
    local _, p1 = draw(0xE100, 1, nil, static)
    local _, p2 = draw(0xE101, 1000, nil, static)
    local _, p3 = draw(0xE101, nil, nil, static)
    assert(bytes(p0) == bytes(p1), "static glyph changed with time")
    assert(bytes(p2) == bytes(p3), "static glyph changed with time")
  end },
  { "still output (no time set) is the frame at t = 0", function()
    for cp = 0xE500, 0xE508 do
      local _, a = draw(cp, nil)
      local _, b = draw(cp, 0)
      assert(bytes(a) == bytes(b), ("U+%04X: still differs from t=0"):format(cp))
    end
    local _, a = draw(0xE500, nil)
    local _, b = draw(0xE500, 1)
    assert(bytes(a) ~= bytes(b), "t=1 draws like t=0")
  end },
  { "time is per drawing: one canvas, the same glyph at two times (sprites keyed by time)", function()
    local c = ct.canvas { width = 240, height = 150, time = 0 }
    eq(c:time(), 0)
    c:background("#ffffff")
    for i = 0, 2 do   -- several draws so the sprite cache is used
      c:text { "\u{E500}", font = anim, size = 100, x = 10, y = 120, format = "svg" }
    end
    eq(c:set_time(2), c)
    eq(c:time(), 2)
    c:text { "\u{E500}", font = anim, size = 100, x = 130, y = 120, format = "svg" }
    local path = tmpname(".png")
    assert(c:write(path))
    local r, g, b = ct.read_png_pixel(path, 50, 85)
    eq({ r, g, b }, { 255, 0, 0 })
    r, g, b = ct.read_png_pixel(path, 170, 85)
    eq({ r, g, b }, { 0, 0, 255 })
    eq(ct.canvas { width = 10, height = 10, time = 1.5 }:time(), 1.5)
  end },
  { "vector output samples too: a PDF at t=1 differs from t=0; a static glyph's does not", function()
    local function pdf(font, cp, t)
      local c = ct.canvas { width = 120, height = 150, time = t }
      c:text { utf8.char(cp), font = font, size = 100, x = 10, y = 120, format = "svg" }
      c:text { utf8.char(cp), font = font, size = 100, x = 10, y = 120, format = "svg" }
      local path = tmpname(".pdf")
      assert(c:write(path))
      return bytes(path)
    end
    assert(pdf(anim, 0xE500, 0) ~= pdf(anim, 0xE500, 1), "animated PDF frames are equal")
    assert(pdf(static, 0xE100, 0) == pdf(static, 0xE100, 1), "static PDF changed with time")
  end },
  { "font:svg_animation: counts and simple durations", function()
    local function q(cp) return { anim:svg_animation(anim:glyph(cp)) } end
    eq(q(0xE500), { 1, 2.0 })
    eq(q(0xE502), { 1, 1.0 })             -- a set at 1 s
    eq(q(0xE504), { 1, 1.0 })             -- an indefinite repeat counts one cycle
    eq(q(0xE506), { 256, 7.0 })           -- capped at 256
    local n, d = anim:svg_animation()
    eq(d, 7.0)
    assert(n >= 256 + 8, "font-wide count " .. n)
    eq({ static:svg_animation() }, { 0, 0.0 })
    eq({ static:svg_animation(static:glyph(0xE100)) }, { 0, 0.0 })
    local colr = assert(ct.open_font(font_path("ct-colr0.ttf")))
    eq({ colr:svg_animation() }, { 0, 0.0 })
  end },
  { "bad times raise", function()
    local c = ct.canvas { width = 10, height = 10 }
    checkerr("out of range", c.set_time, c, -1)
    checkerr("out of range", c.set_time, c, 0 / 0)
    checkerr("out of range", c.set_time, c, math.huge)
    checkerr("number expected", c.set_time, c, "soon")
    checkerr("time", ct.canvas, { width = 10, height = 10, time = -2 })
    checkerr("glyph id", anim.svg_animation, anim, 70000)
  end },
}
