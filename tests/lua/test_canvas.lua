-- test_canvas.lua: chromatype.Canvas (pages, rectangles, text with palettes and
-- overrides, writing PNG/PDF/SVG, determinism, warnings) and the module helpers
-- (units, safe, colors, version).  Pixels are read back from written PNGs.
local ct = require "chromatype"

local f = assert(ct.open_font(font_path("ct-colr0.ttf")))

local function read(path)
  local h = assert(io.open(path, "rb"))
  local s = h:read("a")
  h:close()
  return s
end

local function exists(path)
  local h = io.open(path, "rb")
  if h then h:close() end
  return h ~= nil
end

-- A white 400 x 250 pt canvas.
local function white()
  local c = ct.canvas { width = 400, height = 250 }
  c:background("#ffffff")
  return c
end

-- Writes the first page as a PNG and returns a function px(x, y) -> {r, g, b, a}.
local function pixels(c, opts)
  local path = tmpname(".png")
  assert(c:write(path, opts))
  return function(x, y) return { assert(ct.read_png_pixel(path, x, y)) } end
end

-- Raises unless two colors are within `tol` per channel.
local function near(got, want, tol, what)
  tol = tol or 2
  for i = 1, 4 do
    if math.abs(got[i] - (want[i] or 255)) > tol then
      error(("%s: got {%d,%d,%d,%d}, want {%d,%d,%d,%d}"):format(what or "color", got[1], got[2],
        got[3], got[4], want[1], want[2], want[3], want[4] or 255), 2)
    end
  end
end

local function rgb(hex)
  return { tonumber(hex:sub(2, 3), 16), tonumber(hex:sub(4, 5), 16), tonumber(hex:sub(6, 7), 16), 255 }
end

-- Glyph A at size 200, pen (0, 200): square 10..150 x 60..200 px, diamond around
-- (80, 130), foreground bar 20..140 x 120..140.
local SQUARE, DIAMOND, BAR = { 20, 70 }, { 80, 90 }, { 80, 130 }

local function draw_A(opts)
  local c = white()
  local t = { "A", font = f, size = 200, x = 0, y = 200 }
  for k, v in pairs(opts or {}) do t[k] = v end
  c:text(t)
  return pixels(c)
end

local function check_A(opts, square, diamond, bar)
  local px = draw_A(opts)
  near(px(SQUARE[1], SQUARE[2]), rgb(square), 2, "square")
  near(px(DIAMOND[1], DIAMOND[2]), rgb(diamond), 2, "diamond")
  near(px(BAR[1], BAR[2]), rgb(bar), 2, "bar")
end

local cases = {
  -- ---- creation and size ----
  { "canvas size, width, height, page_count, new_page", function()
    local c = ct.canvas { width = 400, height = 200.5 }
    eq(c.width, 400); eq(c.height, 200.5); eq({ c:size() }, { 400, 200.5 })
    eq(c:page_count(), 1)
    eq(c:new_page(), c)
    eq(c:page_count(), 2)
    eq(tostring(c), "chromatype.Canvas (400x200.5 pt, 2 pages)")
    eq(c.nosuchfield, nil)
  end },
  { "canvas: zero width", ct.canvas, { { width = 0, height = 10 } }, false, "field 'width': .*out of range" },
  { "canvas: negative height", ct.canvas, { { width = 10, height = -1 } }, false, "field 'height': .*out of range" },
  { "canvas: too large", ct.canvas, { { width = 1e9, height = 10 } }, false, "field 'width': .*out of range" },
  { "canvas: not finite", ct.canvas, { { width = 1 / 0, height = 10 } }, false, "field 'width': expected a finite number" },
  { "canvas: missing height", ct.canvas, { { width = 10 } }, false, "field 'height': expected number, got nil" },
  { "canvas: wrong type", ct.canvas, { { width = "10", height = 10 } }, false, "field 'width': expected number, got string" },
  { "canvas: bad option key", ct.canvas, { { width = 10, height = 10, sise = 1 } }, false, "unknown field 'sise'" },
  { "canvas: no table", ct.canvas, {}, false, "table expected, got no value" },

  -- ---- background and rectangles ----
  { "background and rect colors, string and table forms", function()
    local c = ct.canvas { width = 100, height = 100 }
    c:background("#ffffff")
    c:rect { x = 0, y = 0, w = 10, h = 10, color = "#ff0000" }
    c:rect { x = 10, y = 0, w = 10, h = 10, color = { 0, 1, 0 } }
    c:rect { x = 20, y = 0, w = 10, h = 10, color = { r = 0, g = 0, b = 1, a = 1 } }
    c:rect { x = 30, y = 0, w = 10, h = 10 }                -- default black
    c:rect { x = 40, y = 0, w = 10, h = 10, color = "#f00" }
    c:rect { x = 50, y = 0, w = 10, h = 10, color = "0000ff80" }
    local px = pixels(c)
    near(px(5, 5), { 255, 0, 0 }); near(px(15, 5), { 0, 255, 0 }); near(px(25, 5), { 0, 0, 255 })
    near(px(35, 5), { 0, 0, 0 }); near(px(45, 5), { 255, 0, 0 }); near(px(55, 5), { 127, 127, 255 })
    near(px(50, 50), { 255, 255, 255 })
  end },
  { "background without a page background is transparent", function()
    local c = ct.canvas { width = 10, height = 10 }
    eq(pixels(c)(5, 5), { 0, 0, 0, 0 })
  end },
  { "background: bad color string", function()
    checkerr("bad color.*'#12'", white().background, white(), "#12")
  end },
  { "background: bad color table", function()
    local c = white()
    checkerr("color table", c.background, c, { 1, 2, 3 })
    checkerr("color table", c.background, c, { r = 1, g = 0 })
    checkerr("color table", c.background, c, { red = 1 })
    checkerr("expected a color", c.background, c, 42)
  end },
  { "rect: missing field", function()
    local c = white()
    checkerr("field 'h': expected number, got nil", c.rect, c, { x = 0, y = 0, w = 1 })
  end },
  { "rect: bad option key", function()
    local c = white()
    checkerr("unknown field 'colour'", c.rect, c, { x = 0, y = 0, w = 1, h = 1, colour = "#fff" })
  end },
  { "rect: bad color", function()
    local c = white()
    checkerr("field 'color': bad color", c.rect, c, { x = 0, y = 0, w = 1, h = 1, color = "red" })
  end },

  -- ---- text: palettes, overrides, foreground, formats ----
  { "text returns the advance in points", function()
    local c = white()
    eq(c:text { "AB", font = f, size = 72, x = 20, y = 100 }, 115.2)
    eq(c:text { "A C", font = f }, (800 + 300 + 800) * 12 / 1000)   -- default 12 pt
    eq(c:text { "", font = f }, 0)
  end },
  { "text: palette 0 by default", function() check_A(nil, "#e02020", "#2040e0", "#000000") end },
  { "text: palette by index", function() check_A({ palette = 1 }, "#800000", "#000080", "#000000") end },
  { "text: palette 'dark' by type", function() check_A({ palette = "dark" }, "#ff8080", "#80c0ff", "#000000") end },
  { "text: palette 'light' by type", function() check_A({ palette = "light" }, "#800000", "#000080", "#000000") end },
  { "text: palette by name", function() check_A({ palette = "Dark" }, "#ff8080", "#80c0ff", "#000000") end },
  { "text: foreground color", function() check_A({ color = "#0000ff" }, "#e02020", "#2040e0", "#0000ff") end },
  { "text: overrides by index", function()
    check_A({ overrides = { [0] = "#00ff00", [1] = { 1, 1, 0 } } }, "#00ff00", "#ffff00", "#000000")
  end },
  { "text: overrides by entry label, on another palette", function()
    check_A({ palette = 2, overrides = { Accent = "#000000" } }, "#ff8080", "#000000", "#000000")
  end },
  { "text: overrides past the palette are ignored", function()
    check_A({ overrides = { [40] = "#00ff00" } }, "#e02020", "#2040e0", "#000000")
  end },
  { "text: format mono draws the outline in the text color", function()
    check_A({ format = "mono", color = "#00ff00" }, "#00ff00", "#00ff00", "#00ff00")
  end },
  { "text: B covers its layers with the top square", function()
    local c = white()
    c:text { "B", font = f, size = 200, x = 0, y = 200 }
    local px = pixels(c)
    near(px(DIAMOND[1], DIAMOND[2]), rgb("#2040e0")); near(px(BAR[1], BAR[2]), rgb("#2040e0"))
  end },
  { "text: D's half-transparent circle in the dark palette", function()
    local c = white()
    c:text { "D", font = f, size = 200, x = 0, y = 200, palette = 2 }
    local px = pixels(c)
    near(px(SQUARE[1], SQUARE[2]), rgb("#80ff80"))
    near(px(80, 130), { 192, 240, 128, 255 }, 3, "circle")   -- #FFE080 at 50% over #80FF80
  end },
  { "text: collection face 1 has entries 0 and 1 swapped", function()
    local g = assert(ct.open_font(font_path("ct-collection.ttc"), { index = 1 }))
    local c = white()
    c:text { "A", font = g, size = 200, x = 0, y = 200 }
    local px = pixels(c)
    near(px(SQUARE[1], SQUARE[2]), rgb("#2040e0")); near(px(DIAMOND[1], DIAMOND[2]), rgb("#e02020"))
  end },
  { "text: palette index out of range raises naming the font", function()
    local c = white()
    checkerr("ct%-colr0%.ttf: palette 3 out of range", c.text, c, { "A", font = f, palette = 3 })
  end },
  { "text: unknown palette name raises naming the font", function()
    local c = white()
    checkerr("ct%-colr0%.ttf: no palette named 'Sepia'", c.text, c, { "A", font = f, palette = "Sepia" })
  end },
  { "text: 'dark' with no dark palette raises", function()
    local g = assert(ct.open_font(font_path("twemoji-colr0.woff2")))
    local c = white()
    checkerr("twemoji%-colr0%.woff2: no palette named 'dark'", c.text, c, { "A", font = g, palette = "dark" })
  end },
  { "text: bad palette values", function()
    local c = white()
    checkerr("field 'palette': %-1 out of range", c.text, c, { "A", font = f, palette = -1 })
    checkerr("field 'palette': expected integer", c.text, c, { "A", font = f, palette = 1.5 })
    checkerr("field 'palette': expected integer or string, got boolean", c.text, c, { "A", font = f, palette = true })
  end },
  { "text: bad overrides", function()
    local c = white()
    checkerr("field 'overrides': %[0%]: bad color", c.text, c, { "A", font = f, overrides = { [0] = "zz" } })
    checkerr("no palette entry labelled 'Sky'", c.text, c, { "A", font = f, overrides = { Sky = "#fff" } })
    checkerr("field 'overrides': expected table, got string", c.text, c, { "A", font = f, overrides = "#fff" })
    checkerr("field 'overrides': entry 70000 out of range", c.text, c, { "A", font = f, overrides = { [70000] = "#fff" } })
    checkerr("field 'overrides': entry %-1 out of range", c.text, c, { "A", font = f, overrides = { [-1] = "#fff" } })
    checkerr("field 'overrides': keys must be", c.text, c, { "A", font = f, overrides = { [true] = "#fff" } })
  end },
  { "text: argument errors", function()
    local c = white()
    checkerr("item %[1%] %(the text%): expected string, got nil", c.text, c, { font = f })
    checkerr("field 'font': expected chromatype.Font, got nil", c.text, c, { "A" })
    checkerr("field 'font': expected chromatype.Font, got string", c.text, c, { "A", font = "f.ttf" })
    checkerr("unknown field 'sise'", c.text, c, { "A", font = f, sise = 12 })
    checkerr("unexpected item %[2%]", c.text, c, { "A", "B", font = f })
    checkerr("field 'size': 0 out of range", c.text, c, { "A", font = f, size = 0 })
    checkerr("field 'size': expected number, got string", c.text, c, { "A", font = f, size = "big" })
    checkerr("field 'x': expected number", c.text, c, { "A", font = f, x = {} })
    checkerr("field 'format': invalid option 'png'", c.text, c, { "A", font = f, format = "png" })
    checkerr("field 'direction': invalid option 'up'", c.text, c, { "A", font = f, direction = "up" })
    checkerr("field 'color': bad color", c.text, c, { "A", font = f, color = "black" })
    checkerr("bad feature", c.text, c, { "A", font = f, features = "@@" })
    checkerr("table expected, got string", c.text, c, "A")
  end },
  { "text: a closed font raises", function()
    local g = assert(ct.open_font(font_path("ct-colr0.ttf")))
    g:close()
    local c = white()
    checkerr("attempt to use a closed font", c.text, c, { "A", font = g })
  end },
  { "text: shaping options", function()
    local c = white()
    eq(c:text { "AB", font = f, size = 10, direction = "rtl", features = "-kern", script = "Latn", language = "en" }, 16)
  end },

  -- ---- warnings ----
  { "warnings arrive after the call, once per missing character", function()
    local got = {}
    ct.on_warning(function(msg) got[#got + 1] = msg end)
    local c = white()
    c:text { "AXAX", font = f, size = 20, y = 50 }
    eq(#got, 1)
    assert(got[1]:find("ct-colr0.ttf: no glyph for U+0058 'X'", 1, true), got[1])
  end },
  { "on_warning returns the previous handler; false silences", function()
    local function h1() end
    ct.on_warning(nil)
    eq(ct.on_warning(h1), nil)
    eq(ct.on_warning(false), h1)
    white():text { "X", font = f }   -- silent
    eq(ct.on_warning(nil), false)
  end },
  { "a raising warning handler raises from the drawing call", function()
    ct.on_warning(function(msg) error("handler saw: " .. msg, 0) end)
    local c = white()
    checkerr("handler saw: .*U%+0058", c.text, c, { "X", font = f })
    ct.on_warning(false)
    eq(c:text { "A", font = f, size = 10 }, 8)   -- the canvas still works
  end },
  { "on_warning: wrong type", ct.on_warning, { 42 }, false, "function, false or nil expected" },
  { "on_warning: true is not a handler", ct.on_warning, { true }, false, "function, false or nil expected" },

  -- ---- writing ----
  { "write PNG: size follows dpi and width_px", function()
    local c = white()
    local path = tmpname(".png")
    eq(c:write(path), true)
    local w, h = ct.read_png(path)
    eq({ w, h }, { 400, 250 })
    assert(c:write(path, { dpi = 144 }))
    w, h = ct.read_png(path)
    eq({ w, h }, { 800, 500 })
    assert(c:write(path, { width_px = 200 }))
    w, h = ct.read_png(path)
    eq({ w, h }, { 200, 125 })
  end },
  { "write: format by extension or option", function()
    local c = white()
    local pdf, svg, other = tmpname(".pdf"), tmpname(".svg"), tmpname(".out")
    assert(c:write(pdf)); assert(read(pdf):sub(1, 5) == "%PDF-")
    assert(c:write(svg)); assert(read(svg):find("<svg", 1, true))
    assert(c:write(other, { format = "pdf" })); assert(read(other):sub(1, 5) == "%PDF-")
    assert(c:write(other, { format = "png" })); assert(read(other):sub(2, 4) == "PNG")
    assert(c:write(other)); assert(read(other):sub(2, 4) == "PNG")   -- unknown extension: PNG
  end },
  { "write: PDF metadata", function()
    local c = white()
    local pdf = tmpname(".pdf")
    assert(c:write(pdf, { title = "Poster Title", author = "A. Uthor", subject = "S", keywords = "k1, k2" }))
    local s = read(pdf)
    assert(s:find("Poster Title", 1, true)); assert(s:find("A. Uthor", 1, true))
  end },
  { "write: several pages", function()
    local c = white()
    c:new_page()
    c:rect { x = 0, y = 0, w = 400, h = 250, color = "#ff0000" }
    local base = tmpname(".png")
    assert(c:write(base))
    local p1, p2 = base:gsub("%.png$", "-1.png"), base:gsub("%.png$", "-2.png")
    assert(exists(p1) and exists(p2), "page files")
    near({ ct.read_png_pixel(p1, 5, 5) }, { 255, 255, 255 })
    near({ ct.read_png_pixel(p2, 5, 5) }, { 255, 0, 0 })
    local pdf = tmpname(".pdf")
    assert(c:write(pdf))
    local pages = 0
    for _ in read(pdf):gmatch("/Type /Page[^s]") do pages = pages + 1 end
    eq(pages, 2)
  end },
  { "write is deterministic: PNG, PDF and SVG bytes", function()
    local c = white()
    c:text { "ABCD", font = f, size = 60, x = 10, y = 100, palette = 2 }
    for _, ext in ipairs { ".png", ".pdf", ".svg" } do
      local a, b = tmpname(ext), tmpname(ext)
      assert(c:write(a)); assert(c:write(b))
      assert(read(a) == read(b), ext .. " differs between two writes")
    end
  end },
  { "two identical canvases write identical PNG and PDF", function()
    local function make()
      local c = white()
      c:text { "ABCD", font = f, size = 60, x = 10, y = 100 }
      return c
    end
    for _, ext in ipairs { ".png", ".pdf" } do
      local a, b = tmpname(ext), tmpname(ext)
      assert(make():write(a)); assert(make():write(b))
      assert(read(a) == read(b), ext .. " differs")
    end
  end },
  { "write: I/O failure returns nil, msg, 'io'", function()
    local ok, msg, code = white():write("/nonexistent-dir/x.png")
    eq(ok, nil); eq(code, "io")
    assert(msg:find("/nonexistent-dir/x.png: cannot write", 1, true), msg)
  end },
  { "write: argument errors raise", function()
    local c = white()
    checkerr("field 'dpi': 0 out of range", c.write, c, "x.png", { dpi = 0 })
    checkerr("field 'dpi': .*out of range", c.write, c, "x.png", { dpi = 1e6 })
    checkerr("field 'width_px': 0 out of range", c.write, c, "x.png", { width_px = 0 })
    checkerr("field 'format': invalid option 'jpg'", c.write, c, "x.png", { format = "jpg" })
    checkerr("unknown field 'dip'", c.write, c, "x.png", { dip = 300 })
    checkerr("field 'title': expected string", c.write, c, "x.pdf", { title = 1 })
    checkerr("bad argument #1 to 'write' %(string expected, got table%)", function() return c:write({}) end)
  end },

  -- ---- closing ----
  { "close: idempotent; methods and fields raise afterwards", function()
    local c = white()
    c:close(); c:close()
    eq(tostring(c), "chromatype.Canvas (closed)")
    checkerr("attempt to use a closed canvas", c.text, c, { "A", font = f })
    checkerr("attempt to use a closed canvas", c.background, c, "#fff")
    checkerr("attempt to use a closed canvas", c.rect, c, { x = 0, y = 0, w = 1, h = 1 })
    checkerr("attempt to use a closed canvas", c.paint, c, f:paint(2), { font = f })
    checkerr("attempt to use a closed canvas", c.new_page, c)
    checkerr("attempt to use a closed canvas", c.page_count, c)
    checkerr("attempt to use a closed canvas", c.size, c)
    checkerr("attempt to use a closed canvas", c.write, c, "x.png")
    checkerr("attempt to use a closed canvas", function() return c.width end)
  end },
  { "to-be-closed canvas", function()
    local keep
    do
      local c <close> = white()
      keep = c
    end
    checkerr("closed canvas", keep.page_count, keep)
  end },
  { "wrong self", function()
    local c = white()
    checkerr("chromatype.Canvas expected, got chromatype.Font", c.page_count, f)
  end },

  -- ---- PNG reading helpers ----
  { "read_png_pixel: missing file gives nil, msg", function()
    local ok, msg = ct.read_png_pixel("/nonexistent.png", 0, 0)
    eq(ok, nil); assert(msg:find("/nonexistent.png: cannot open: No such file", 1, true), msg)
  end },
  { "read_png_pixel: coordinates out of range raise", function()
    local c = ct.canvas { width = 10, height = 10 }
    local path = tmpname(".png")
    assert(c:write(path))
    checkerr("x out of range %(0%.%.9%)", ct.read_png_pixel, path, 10, 0)
    checkerr("y out of range", ct.read_png_pixel, path, 0, -1)
  end },
  { "read_png: RGBA bytes", function()
    local c = ct.canvas { width = 2, height = 1 }
    c:rect { x = 0, y = 0, w = 1, h = 1, color = "#ff000080" }
    local path = tmpname(".png")
    assert(c:write(path))
    local w, h, data = ct.read_png(path)
    eq({ w, h, #data }, { 2, 1, 8 })
    eq(data:sub(5, 8), "\0\0\0\0")
    near({ data:byte(1, 4) }, { 255, 0, 0, 128 }, 1)
  end },

  -- ---- module helpers ----
  { "version", function()
    assert(type(ct.version) == "string" and ct.version:match("^%d+%.%d+%.%d+"), tostring(ct.version))
  end },
  { "units", function()
    eq(ct.mm(25.4), 72.0); eq(ct.cm(2.54), 72.0); eq(ct.inch(2), 144); eq(ct.pt(5), 5)
    checkerr("bad argument #1 to 'mm' %(number expected, got string%)", ct.mm, "1")
  end },
  { "parse_color and color_string", function()
    eq({ ct.parse_color("#f00") }, { 1.0, 0.0, 0.0, 1.0 })
    eq({ ct.parse_color("00ff0080") }, { 0.0, 1.0, 0.0, 128 / 255 })
    eq(ct.color_string { 1, 0, 0 }, "#ff0000ff")
    eq(ct.color_string { r = 0, g = 0, b = 1, a = 0.5 }, "#0000ff80")
    eq(ct.color_string "#ABC", "#aabbccff")
    checkerr("bad color", ct.parse_color, "#12")
    checkerr("channel out of range", ct.parse_color, { 2, 0, 0 })
  end },
  { "safe: nil, msg instead of errors", function()
    local c, msg = ct.safe.canvas { width = 0, height = 1 }
    eq(c, nil); assert(msg:find("out of range"), msg)
    c = assert(ct.safe.canvas { width = 10, height = 10 })
    local adv, err = ct.safe.call(c, "text", { "A", font = f, palette = 9 })
    eq(adv, nil); assert(err:find("palette 9 out of range"), err)
    eq(ct.safe.call(c, "text", { "A", font = f, size = 10 }), 8)
    local g, m, code = ct.safe.open_font("/nonexistent.ttf")
    eq(g, nil); eq(code, "io"); assert(m:find("/nonexistent.ttf"))
    eq(select("#", ct.safe.call(c, "size")), 2)
  end },
  { "the module re-exports the core (open_font wrapped to note its file for --watch)", function()
    local core = require "chromatype.core"
    for k, v in pairs(core) do
      if k == "open_font" then
        eq(type(ct.open_font), "function")
        local f = assert(ct.open_font(FONTS .. "/ct-colr0.ttf"))
        assert(ct.inputs[f:info().path], "the font's file is noted")
      else
        eq(ct[k], v, k)
      end
    end
  end },
  { "pages of their own sizes: PDF page boxes, one PNG per page", function()
    local c = ct.canvas { width = ct.mm(148), height = ct.mm(210) }
    c:background("#ffffff")
    c:new_page { width = ct.mm(210), height = ct.mm(148) }
    eq(math.floor(c.width + 0.5), 595)
    c:background("#ff0000")
    c:new_page()   -- the size of the page before
    eq(c:page_count(), 3)
    local pdf = tmpname(".pdf")
    assert(c:write(pdf))
    local info = io.popen("pdfinfo -f 1 -l 3 " .. pdf):read("a")
    assert(info:find("Page%s+1 size:%s+419.5%d* x 595.2"), info)
    assert(info:find("Page%s+2 size:%s+595.2%d* x 419.5"), info)
    assert(info:find("Page%s+3 size:%s+595.2%d* x 419.5"), info)
    local png = tmpname(".png")
    assert(c:write(png))
    local w2, h2 = ct.read_png(png:gsub("%.png$", "-2.png"))
    eq(w2, 596); eq(h2, 420)
    checkerr("page size", c.new_page, c, { width = -1, height = 10 })
    checkerr("unknown field 'wdith'", c.new_page, c, { wdith = 10 })
  end },
}

-- output size and warnings for repeated glyphs
cases[#cases + 1] = { "a repeated color glyph is one picture in a PDF: a few bytes a draw", function()
  local f1 = assert(ct.open_font(font_path("ct-colr1.ttf")))
  local function pdf_size(n)
    local c = ct.canvas { width = 600, height = 600 }
    for i = 0, n - 1 do
      c:text { utf8.char(0xE005), font = f1, size = 20, x = (i % 25) * 22, y = 20 + (i // 25) * 12 }  -- linear_pad
    end
    local p = tmpname(".pdf")
    assert(c:write(p))
    return #read(p)
  end
  local one, many = pdf_size(1), pdf_size(201)
  assert((many - one) / 200 < 100, ("%d bytes a repeated glyph"):format((many - one) // 200))
end }
cases[#cases + 1] = { "a missing character is reported once per canvas, however often drawn", function()
  local got = {}
  ct.on_warning(function(msg) got[#got + 1] = msg end)
  local c = ct.canvas { width = 100, height = 100 }
  for _ = 1, 5 do c:text { "Az", font = f, size = 20, x = 10, y = 50 } end
  ct.on_warning(nil)
  local z = 0
  for _, m in ipairs(got) do if m:find("no glyph for U+007A", 1, true) then z = z + 1 end end
  eq(z, 1)
end }
cases[#cases + 1] = { "PNG: RGB when every pixel is opaque, RGBA with straight alpha otherwise", function()
  local function png_of(bg)
    local c = ct.canvas { width = 40, height = 20 }
    if bg then c:background(bg) end
    c:rect { x = 0, y = 0, w = 20, h = 20, color = "#ff000080" }
    local p = tmpname(".png")
    assert(c:write(p))
    return p, read(p)
  end
  local p1, b1 = png_of("#ffffff")
  eq(b1:byte(26), 2)                                  -- IHDR colour type: RGB
  near({ ct.read_png_pixel(p1, 5, 5) }, { 255, 127, 127, 255 }, 2, "over white")
  local p2, b2 = png_of(nil)
  eq(b2:byte(26), 6)                                  -- RGBA
  near({ ct.read_png_pixel(p2, 5, 5) }, { 255, 0, 0, 128 }, 2, "straight alpha")
  near({ ct.read_png_pixel(p2, 30, 5) }, { 0, 0, 0, 0 }, 0, "transparent")
end }
cases[#cases + 1] = { "rasterize: the size and a hash of a page's pixels; sprites give the pixels of drawing", function()
  local f1 = assert(ct.open_font(font_path("ct-colr1.ttf")))
  local function sheet(n, x0)
    local c = ct.canvas { width = 200, height = 100 }
    c:background("#ffffff")
    for i = 0, n - 1 do c:text { utf8.char(0xE005 + i % 3), font = f1, size = 30, x = x0 + i * 35, y = 60 } end
    return c
  end
  local c = sheet(5, 5)
  local w, h, hash = c:rasterize { dpi = 144 }
  eq(w, 400); eq(h, 200); assert(hash:match("^%x+$") and #hash == 16)
  eq(select(3, c:rasterize { dpi = 144 }), hash)                 -- warm (sprites) = cold
  assert(select(3, sheet(5, 6):rasterize { dpi = 144 }) ~= hash, "a moved glyph, the same pixels")
  -- a glyph drawn from its sprite at a fractional position is within a level or so of direct
  -- drawing (the phase is quantized to a quarter pixel)
  local a = ct.canvas { width = 60, height = 60 }
  a:text { utf8.char(0xE005), font = f1, size = 40, x = 5.13, y = 50.4 }
  local b = ct.canvas { width = 60, height = 60 }
  b:paint(f1:paint(f1:glyph(0xE005)), { font = f1, size = 40, x = 5.13, y = 50.4 })   -- never a sprite
  local pa, pb = tmpname(".png"), tmpname(".png")
  assert(a:write(pa)); assert(b:write(pb))
  local worst = 0
  for y = 0, 59, 2 do
    for x = 0, 59, 2 do
      local p, q = { ct.read_png_pixel(pa, x, y) }, { ct.read_png_pixel(pb, x, y) }
      for k = 1, 4 do worst = math.max(worst, math.abs(p[k] - q[k])) end
    end
  end
  assert(worst <= 48, ("sprite and drawing differ by %d levels"):format(worst))
  checkerr("page 3 out of range", c.rasterize, c, { page = 3 })
end }

return cases
