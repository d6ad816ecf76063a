-- test_svg.lua: OT-SVG glyphs of tests/fonts/ct-svg.ttf (made by make_svg.py): palette
-- entries through var(--colorN, fallback) in attributes, style attributes and <style>, the
-- fallback when the palette has no entry N, overrides, currentColor; layers that Lua can
-- hide, recolor and move; bitmap glyphs.  Pixels are read back from written PNGs.
local ct = require "chromatype"

local svg = assert(ct.open_font(font_path("ct-svg.ttf")))

-- Draws one glyph at 100 pt with the pen at (10, 120): font unit (fx, fy) of the SVG
-- (y down, baseline 0) is pixel (10 + fx/10, 120 + fy/10).
local function draw(cp, opts)
  local c = ct.canvas { width = 120, height = 150 }
  c:background("#ffffff")
  local t = { utf8.char(cp), font = svg, size = 100, x = 10, y = 120, format = "svg" }
  for k, v in pairs(opts or {}) do t[k] = v end
  c:text(t)
  local path = tmpname(".png")
  assert(c:write(path))
  return function(fx, fy)
    local r, g, b = ct.read_png_pixel(path, math.floor(10 + fx / 10), math.floor(120 + fy / 10))
    return ("#%02X%02X%02X"):format(r, g, b)
  end
end

local P0 = { "#E02020", "#2040E0", "#20A040" }
local P1 = { "#F0A000", "#8020C0" }

return {
  { "var() in fill attributes takes the palette entries", function()
    local px = draw(0xE100)
    eq(px(80, -670), P0[1])     -- the full square: --color0
    eq(px(400, -570), P0[2])    -- the circle: --color1
    eq(px(400, -300), P0[3])    -- the triangle: --color2
  end },
  { "another palette changes exactly those entries", function()
    local px = draw(0xE100, { palette = 1 })
    eq(px(80, -670), P1[1])
    eq(px(400, -570), P1[2])
  end },
  { "overrides win over the palette", function()
    local px = draw(0xE100, { overrides = { [1] = "#00ff00" } })
    eq(px(80, -670), P0[1])
    eq(px(400, -570), "#00FF00")
  end },
  { "var() in style attributes and <style> rules", function()
    local px = draw(0xE101)
    eq(px(200, -600), P0[2])    -- style="fill: var(--color1)"
    eq(px(600, -600), P0[3])    -- .ct-leaf { fill: var(--color2) }
    eq(px(600, -350), P0[1])    -- #ct-bar { fill: var(--color0) }
  end },
  { "an entry the palette lacks shows the fallback", function()
    local px = draw(0xE102)
    eq(px(80, -670), "#123456") -- var(--color7, #123456)
    eq(px(400, -400), P0[1])    -- var(--color0, ...): in the palette
    eq(px(200, -100), "#FF8000") -- var(--color3, #ff8000) in a style attribute
  end },
  { "currentColor is the text color", function()
    local px = draw(0xE103, { color = "#0000ff" })
    eq(px(80, -670), "#0000FF")
    eq(px(400, -350), P0[3])
  end },
  { "layers: untouched draws as the whole glyph; hidden, recolored, moved change it", function()
    local g = svg:glyph(0xE100)
    local function png(tree)
      local c = ct.canvas { width = 120, height = 150 }
      c:background("#ffffff")
      c:paint(tree, { font = svg, size = 100, x = 10, y = 120 })
      local path = tmpname(".png")
      assert(c:write(path))
      return path
    end
    local whole = svg:paint(g, { format = "svg" })
    eq(whole.kind, "svg")
    eq(#whole.layers, 3)
    local a = io.open(png(whole), "rb"):read("a")
    local b = io.open(png(svg:paint(g, { format = "svg" })), "rb"):read("a")
    assert(a == b, "untouched layers draw differently")
    -- hide the square, recolor the circle, move the triangle 300 units right
    local t = svg:paint(g, { format = "svg" })
    local circle, triangle = t.layers[2], t.layers[3]
    t.layers = {
      { kind = "composite", mode = "src_in", source = { kind = "solid", color = { rgba = "#000000ff", alpha = 1 } },
        backdrop = circle },
      { kind = "transform", matrix = { 1, 0, 0, 1, 300, 0 }, child = triangle },
    }
    local path = png(t)
    local function px(fx, fy)
      local r, gg, bb = ct.read_png_pixel(path, math.floor(10 + fx / 10), math.floor(120 + fy / 10))
      return ("#%02X%02X%02X"):format(r, gg, bb)
    end
    eq(px(80, -670), "#FFFFFF")   -- the square is gone
    eq(px(400, -570), "#000000")  -- the circle is black
    eq(px(700, -300), P0[3])      -- the triangle moved right (the font's y is up)
  end },
  { "an svg node needs a handle from font:paint", function()
    local c = ct.canvas { width = 10, height = 10 }
    checkerr("handle of an svg node", c.paint, c, { kind = "svg", gid = 2 }, { font = svg, size = 10, x = 0, y = 0 })
  end },
  { "bitmap glyphs: sbix and CBDT of the same PNGs agree", function()
    local function grid(file)
      local f = assert(ct.open_font(font_path(file)))
      local c = ct.canvas { width = 200, height = 80 }
      c:background("#ffffff")
      c:text { "\u{E300}\u{E301}\u{E302}", font = f, size = 64, x = 4, y = 64 }
      local path = tmpname(".png")
      assert(c:write(path))
      return io.open(path, "rb"):read("a"), f:paint(f:glyph(0xE300)).kind
    end
    local a, ka = grid("ct-sbix.ttf")
    local b, kb = grid("ct-cbdt.ttf")
    eq(ka, "bitmap"); eq(kb, "bitmap")
    assert(a == b, "sbix and CBDT draw differently")
  end },
}
