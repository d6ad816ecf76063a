-- test_svg.lua: OT-SVG glyphs of tests/fonts/ct-svg.ttf (made by make_svg.py): palette
-- entries through var(--colorN, fallback) in attributes, style attributes and <style>, the
-- fallback when the palette has no entry N, overrides, currentColor; layers that Lua can
-- hide, recolor and move; bitmap glyphs.  Pixels are read back from written PNGs.
local ct = require "chromatype"

local svg = assert(ct.open_font(font_path("ct-svg.ttf")))
local layouts = assert(ct.open_font(font_path("ct-svg-layouts.ttf")))   -- upem 2048
local hostile = assert(ct.open_font(font_path("hostile-svgroot.ttf")))

-- Draws one glyph at 100 pt with the pen at (10, 120): (fx, fy) in thousandths of an em
-- (font units of the 1000-upem fonts; SVG y down, baseline 0) is pixel (10 + fx/10,
-- 120 + fy/10).
local function draw(cp, opts, font)
  local c = ct.canvas { width = 120, height = 150 }
  c:background("#ffffff")
  local t = { utf8.char(cp), font = font or svg, size = 100, x = 10, y = 120, format = "svg" }
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
  -- ---- document layouts (ct-svg-layouts.ttf; make_svg.py, tests/fonts/README-svg.md) ----
  { "the glyph id on the root <svg>: the whole document, art above the baseline", function()
    local px = draw(0xE600, nil, layouts)
    eq(px(80, -670), "#E02020")   -- square, y -700..0 (negative y: above the baseline)
    eq(px(400, -350), "#2040E0")  -- disc
    eq(px(80, 100), "#FFFFFF")    -- nothing below the baseline
  end },
  { "a root viewBox maps onto the em square; its origin moves the art", function()
    local px = draw(0xE601, nil, layouts)   -- viewBox 0 0 100 100: 5..75 -> 50..750
    eq(px(80, -670), "#F08000"); eq(px(400, -350), "#8020C0"); eq(px(770, -350), "#FFFFFF")
    px = draw(0xE602, nil, layouts)         -- viewBox 0 -100 100 100: art at -170..-100
    eq(px(80, -670), "#20A0A0"); eq(px(400, -350), "#E02020")
    px = draw(0xE605, nil, layouts)         -- width/height 100 without viewBox: the same scale
    eq(px(80, -670), "#20A040"); eq(px(400, -350), "#F0C000")
  end },
  { "a document for a glyph range: the root glyph draws all, inner ones alone", function()
    local px = draw(0xE60A, nil, layouts)
    eq(px(80, -670), "#F0C000"); eq(px(400, -620), "#2040E0"); eq(px(400, -200), "#20A040")
    px = draw(0xE60B, nil, layouts)         -- <g id>: the disc only
    eq(px(80, -670), "#FFFFFF"); eq(px(400, -620), "#2040E0")
    px = draw(0xE60C, nil, layouts)         -- <path id>: the triangle only
    eq(px(400, -620), "#FFFFFF"); eq(px(400, -200), "#20A040")
    px = draw(0xE60E, nil, layouts)         -- shared <defs>: the star, never the black square
    eq(px(400, -350), "#2040E0"); eq(px(80, -670), "#FFFFFF")
  end },
  { "a root-id glyph has its children as layers, drawn through the root's viewBox", function()
    local function second_layer(cp)         -- the glyph with its second layer alone
      local t = layouts:paint(layouts:glyph(cp), { format = "svg" })
      eq(#t.layers, 2)
      t.layers = { t.layers[2] }
      local c = ct.canvas { width = 120, height = 150 }
      c:background("#ffffff")
      c:paint(t, { font = layouts, size = 100, x = 10, y = 120 })
      local path = tmpname(".png")
      assert(c:write(path))
      return function(fx, fy) return ("#%02X%02X%02X"):format(ct.read_png_pixel(path, math.floor(10 + fx / 10), math.floor(120 + fy / 10))) end
    end
    local px = second_layer(0xE600)         -- the disc without the square
    eq(px(80, -670), "#FFFFFF"); eq(px(400, -350), "#2040E0")
    px = second_layer(0xE603)               -- viewBox 0 0 200 100: the disc at (400, -175)
    eq(px(400, -175), "#F0C000"); eq(px(400, -350), "#FFFFFF"); eq(px(80, -100), "#FFFFFF")
  end },
  { "groups with opacity stay in PNG and PDF (root id, and inner glyph with a root viewBox)", function()
    local c = ct.canvas { width = 230, height = 150 }
    c:background("#ffffff")
    c:text { "\u{E608}\u{E612}", font = layouts, size = 100, x = 10, y = 120, format = "svg" }
    local png, pdf = tmpname(".png"), tmpname(".pdf")
    assert(c:write(png)); assert(c:write(pdf))
    local p = assert(io.popen("pdftoppm -r 72 -png -singlefile " .. pdf .. " " .. pdf:gsub("%.pdf$", "-r") .. " 2>&1"))
    local out = p:read("a")
    assert(p:close(), "pdftoppm: " .. out)
    local r = pdf:gsub("%.pdf$", "-r.png")
    for _, file in ipairs { png, r } do   -- disc centers: blue over red, red over green, at 50 %
      for _, want in ipairs { { 50, 0x80, 0x30, 0x80 }, { 130, 0x80, 0x60, 0x30 } } do
        local got = { ct.read_png_pixel(file, want[1], 85) }   -- (400, -350) of each glyph
        for i = 1, 3 do
          assert(math.abs(got[i] - want[i + 1]) <= 2, ("%s: the disc at x %d is #%02X%02X%02X"):format(file,
            want[1], got[1], got[2], got[3]))
        end
      end
    end
    os.remove(r)
  end },
  { "hostile root geometry: drawn when ignorable, else nothing, one warning each", function()
    local got = {}
    local prev = ct.on_warning(function(m) got[#got + 1] = m end)
    local blank, drawn = draw(0xE260, nil, hostile), draw(0xE261, nil, hostile)   -- zero / negative viewBox
    local tiny, nan = draw(0xE262, nil, hostile), draw(0xE264, nil, hostile)
    local huge = draw(0xE269, nil, hostile)                                        -- 60,002 elements
    ct.on_warning(prev)
    eq(blank(400, -350), "#FFFFFF"); eq(tiny(400, -350), "#FFFFFF")
    eq(drawn(400, -350), "#00A000"); eq(nan(400, -350), "#00A000")                -- the green square, 1:1
    eq(huge(75, -350), "#000000"); eq(huge(400, -350), "#FFFFFF")                 -- the outline: a frame
    eq(#got, 5)
    assert(got[1]:find("hostile-svgroot.ttf: glyph 2: SVG root <svg>: viewBox \"0 0 0 0\"", 1, true), got[1])
    assert(got[5]:find("more than 50000 elements", 1, true), got[5])
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
