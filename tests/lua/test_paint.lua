-- test_paint.lua: paint trees as Lua tables: the canonical form of every node kind,
-- validation errors naming the field path, depth and sharing guards, and drawing:
-- font:paint -> canvas:paint draws the same image as canvas:text.
local ct = require "chromatype"

local f = assert(ct.open_font(font_path("ct-colr0.ttf")))
local norm = ct.normalize_paint

local function read(path)
  local h = assert(io.open(path, "rb"))
  local s = h:read("a")
  h:close()
  return s
end

local function solid(color) return { kind = "solid", color = color } end
local RED = { rgba = "#ff0000ff", alpha = 1 }
local leaf = solid(RED)

-- The same drawing through text and through paint: identical files; PDFs (without the text
-- layer, which only text has) hold the same drawing, though text glyphs go in as form
-- XObjects (recorded once) and a tree of one's own is drawn in place, so they are compared
-- as the pixels poppler makes of them.
local function same_output(text_opts, gid, paint_opts, exts)
  for _, ext in ipairs(exts or { ".png", ".svg" }) do
    local a, b = ct.canvas { width = 300, height = 250 }, ct.canvas { width = 300, height = 250 }
    a:background("#ffffff"); b:background("#ffffff")
    a:text(text_opts)
    b:paint(text_opts.font:paint(gid, { format = text_opts.format }), paint_opts)
    local pa, pb = tmpname(ext), tmpname(ext)
    local wo = ext == ".pdf" and { text_layer = false } or nil
    assert(a:write(pa, wo)); assert(b:write(pb, wo))
    if ext == ".pdf" then
      local ok = os.execute(("pdftoppm -r 72 -png -singlefile '%s' '%s' 2>/dev/null && pdftoppm -r 72 -png -singlefile '%s' '%s' 2>/dev/null")
        :format(pa, pa, pb, pb))
      if ok then
        -- the same but for antialiased edges: few samples differ, by little
        local off, n = 0, 0
        for y = 0, 249, 3 do
          for x = 0, 299, 3 do
            local p, q = { ct.read_png_pixel(pa .. ".png", x, y) }, { ct.read_png_pixel(pb .. ".png", x, y) }
            local d = 0
            for k = 1, 4 do d = math.max(d, math.abs(p[k] - q[k])) end
            if d > 24 then off = off + 1 end
            n = n + 1
          end
        end
        assert(off <= n // 100, (".pdf: text and paint differ at %d of %d samples"):format(off, n))
      end
    else
      assert(read(pa) == read(pb), ext .. ": text and paint differ")
    end
  end
end

local cases = {
  -- ---- canonical form of every kind ----
  { "layers, glyph, solid: palette, foreground, rgba", function()
    local t = { kind = "layers", children = {
      { kind = "glyph", gid = 6, child = solid { palette = 0 } },
      { kind = "glyph", gid = 7, child = solid { palette = 1, alpha = 0.5 } },
      { kind = "glyph", gid = 8, child = solid { foreground = true } },
      { kind = "glyph", gid = 8, child = solid { palette = 0xFFFF } },
      { kind = "glyph", gid = 9, child = solid { rgba = "#f00" } },
      { kind = "glyph", gid = 9, child = solid { rgba = { 0, 1, 0, 0.5 }, alpha = 0.25 } },
    } }
    eq(norm(t), { kind = "layers", children = {
      { kind = "glyph", gid = 6, child = solid { palette = 0, alpha = 1 } },
      { kind = "glyph", gid = 7, child = solid { palette = 1, alpha = 0.5 } },
      { kind = "glyph", gid = 8, child = solid { foreground = true, alpha = 1 } },
      { kind = "glyph", gid = 8, child = solid { foreground = true, alpha = 1 } },
      { kind = "glyph", gid = 9, child = solid { rgba = "#ff0000ff", alpha = 1 } },
      { kind = "glyph", gid = 9, child = solid { rgba = "#00ff0080", alpha = 0.25 } },
    } })
  end },
  { "the canonical form is a fixed point", function()
    local t = norm { kind = "transform", matrix = { 1, 0, 0, 1, 5, 6 }, child = leaf }
    eq(norm(t), t)
    eq(norm(f:paint(2)), f:paint(2))
  end },
  { "linear: p2 defaults to a plain two-point gradient", function()
    local t = norm { kind = "linear", p0 = { 0, 0 }, p1 = { 100, 0 },
      stops = { { offset = 0, color = { palette = 0 } }, { offset = 1, color = { rgba = "#0000ff" } } } }
    eq(t, { kind = "linear", extend = "pad", p0 = { 0, 0 }, p1 = { 100, 0 }, p2 = { 0, 100 },
      stops = { { offset = 0, color = { palette = 0, alpha = 1 } },
                { offset = 1, color = { rgba = "#0000ffff", alpha = 1 } } } })
    eq(norm { kind = "linear", p0 = { 1, 2 }, p1 = { 3, 4 }, p2 = { 5, 6 }, extend = "reflect", stops = {} },
       { kind = "linear", p0 = { 1, 2 }, p1 = { 3, 4 }, p2 = { 5, 6 }, extend = "reflect", stops = {} })
  end },
  { "radial and sweep", function()
    local stops = { { offset = 0.25, color = { foreground = true, alpha = 0.5 } } }
    eq(norm { kind = "radial", c0 = { 1, 2 }, r0 = 0, c1 = { 3, 4 }, r1 = 10.5, extend = "repeat", stops = stops },
       { kind = "radial", c0 = { 1, 2 }, r0 = 0, c1 = { 3, 4 }, r1 = 10.5, extend = "repeat", stops = stops })
    eq(norm { kind = "sweep", center = { 0, 0 }, start_angle = 0, end_angle = 90, stops = stops },
       { kind = "sweep", center = { 0, 0 }, start_angle = 0, end_angle = 90, extend = "pad", stops = stops })
  end },
  { "transform, clip, composite", function()
    local t = { kind = "composite", mode = "multiply",
      source = { kind = "clip", box = { 0, 0, 100, 50.5 }, child = leaf },
      backdrop = { kind = "transform", matrix = { 2, 0, 0, 2, 10, -10 }, child = leaf } }
    eq(norm(t), { kind = "composite", mode = "multiply",
      source = { kind = "clip", box = { 0, 0, 100, 50.5 }, child = solid(RED) },
      backdrop = { kind = "transform", matrix = { 2, 0, 0, 2, 10, -10 }, child = solid(RED) } })
  end },
  { "every composite mode name round-trips", function()
    for _, m in ipairs { "clear", "src", "dest", "src_over", "dest_over", "src_in", "dest_in", "src_out",
      "dest_out", "src_atop", "dest_atop", "xor", "plus", "screen", "overlay", "darken", "lighten",
      "color_dodge", "color_burn", "hard_light", "soft_light", "difference", "exclusion", "multiply",
      "hsl_hue", "hsl_saturation", "hsl_color", "hsl_luminosity" } do
      eq(norm { kind = "composite", mode = m, source = leaf, backdrop = leaf }.mode, m)
    end
  end },
  { "glyph nodes naming another font carry a Font", function()
    local g = assert(ct.open_font(font_path("ct-collection.ttc"), { index = 1 }))
    local t = norm { kind = "glyph", gid = 2, font = g, child = leaf }
    eq(tostring(t.font), tostring(g))
    eq(t.font:info().family, "Chromatype Test Two")
    g:close()   -- the tree holds its own reference
    eq(t.font:info().family, "Chromatype Test Two")
  end },
  { "shared subtrees stay shared, and a DAG converts in linear time", function()
    local t = leaf
    for _ = 1, 60 do t = { kind = "layers", children = { t, t } } end   -- 2^60 paths
    local n = norm(t)
    assert(n.children[1] == n.children[2], "sharing lost")
    local c = ct.canvas { width = 10, height = 10 }
    local warned
    ct.on_warning(function(msg) warned = msg end)
    c:paint(t, { font = f, size = 10 })   -- the renderer's work budget stops it
    assert(warned and warned:find("drawn in part"), tostring(warned))
  end },
  { "deep but legal trees convert", function()
    local t = leaf
    for _ = 1, 63 do t = { kind = "transform", matrix = { 1, 0, 0, 1, 0, 0 }, child = t } end
    eq(norm(t).kind, "transform")
  end },

  -- ---- errors name the field path ----
  { "color of the wrong type", norm,
    { { kind = "layers", children = { leaf, { kind = "glyph", gid = 1, child = { kind = "solid", color = "#fff" } } } } },
    false, "children%[2%]%.child%.color: expected table, got string" },
  { "not a table at the root", norm, { 42 }, false, "bad argument #1 to '.*' %(table %(a paint tree%) expected, got number%)" },
  { "child not a table", norm, { { kind = "transform", matrix = { 1, 0, 0, 1, 0, 0 }, child = 3 } }, false, "child: expected table, got number" },
  { "missing kind", norm, { { color = RED } }, false, "kind: expected string, got nil" },
  { "unknown kind", norm, { { kind = "blob" } }, false, "kind: unknown paint kind 'blob'" },
  { "unknown field of a node", norm, { { kind = "solid", color = RED, colour = 1 } }, false, "unknown field 'colour'" },
  { "unknown field deep down", norm, { { kind = "layers", children = { { kind = "solid", color = RED, x = 1 } } } },
    false, "children%[1%]: unknown field 'x'" },
  { "children with a hole or a key", norm, { { kind = "layers", children = { leaf, x = leaf } } }, false, "children: unknown field 'x'" },
  { "missing child", norm, { { kind = "glyph", gid = 1 } }, false, "child: expected table, got nil" },
  { "missing gid", norm, { { kind = "glyph", child = leaf } }, false, "gid: expected integer, got nil" },
  { "gid out of range", norm, { { kind = "glyph", gid = 70000, child = leaf } }, false, "gid: glyph id out of range" },
  { "gid not an integer", norm, { { kind = "glyph", gid = 1.5, child = leaf } }, false, "gid: expected integer" },
  { "font not a Font", norm, { { kind = "glyph", gid = 1, font = "x.ttf", child = leaf } }, false, "font: expected chromatype.Font, got string" },
  { "closed font in a tree", function()
    local g = assert(ct.open_font(font_path("ct-colr0.ttf")))
    g:close()
    checkerr("font: attempt to use a closed font", norm, { kind = "glyph", gid = 1, font = g, child = leaf })
  end },
  { "color with two kinds", norm, { solid { palette = 0, foreground = true } }, false, "color: expected exactly one of" },
  { "color with none", norm, { solid { alpha = 1 } }, false, "color: expected exactly one of" },
  { "color: unknown field", norm, { solid { palete = 1 } }, false, "color: unknown field 'palete'" },
  { "color: palette out of range", norm, { solid { palette = -1 } }, false, "color%.palette: palette entry out of range" },
  { "color: palette not an integer", norm, { solid { palette = "1" } }, false, "color%.palette: expected integer, got string" },
  { "color: foreground false", norm, { solid { foreground = false } }, false, "color%.foreground: expected true" },
  { "color: bad rgba", norm, { solid { rgba = "red" } }, false, "color%.rgba: bad color" },
  { "color: alpha out of range", norm, { solid { palette = 0, alpha = 2 } }, false, "color%.alpha: alpha out of range" },
  { "color: alpha not a number", norm, { solid { palette = 0, alpha = "1" } }, false, "color%.alpha: expected number, got string" },
  { "matrix too short", norm, { { kind = "transform", matrix = { 1, 0, 0, 1, 0 }, child = leaf } }, false, "matrix%[6%]: expected number, got nil" },
  { "matrix too long", norm, { { kind = "transform", matrix = { 1, 0, 0, 1, 0, 0, 7 }, child = leaf } }, false, "matrix: unexpected item %[7%]" },
  { "matrix with NaN", norm, { { kind = "transform", matrix = { 0 / 0, 0, 0, 1, 0, 0 }, child = leaf } }, false, "matrix%[1%]: expected a finite number" },
  { "clip box", norm, { { kind = "clip", box = { 0, 0, "1", 1 }, child = leaf } }, false, "box%[3%]: expected number, got string" },
  { "composite mode", norm, { { kind = "composite", mode = "blend", source = leaf, backdrop = leaf } }, false, "mode: unknown composite mode 'blend'" },
  { "composite without backdrop", norm, { { kind = "composite", mode = "src_over", source = leaf } }, false, "backdrop: expected table, got nil" },
  { "gradient extend", norm, { { kind = "linear", p0 = { 0, 0 }, p1 = { 1, 1 }, extend = "wrap", stops = {} } }, false, "extend: unknown extend 'wrap'" },
  { "gradient without stops", norm, { { kind = "linear", p0 = { 0, 0 }, p1 = { 1, 1 } } }, false, "stops: expected table, got nil" },
  { "stop without offset", norm,
    { { kind = "linear", p0 = { 0, 0 }, p1 = { 1, 1 }, stops = { { offset = 0, color = RED }, { color = RED } } } },
    false, "stops%[2%]%.offset: expected number, got nil" },
  { "stop color", norm,
    { { kind = "radial", c0 = { 0, 0 }, r0 = 0, c1 = { 0, 0 }, r1 = 1, stops = { { offset = 0, color = { palette = 0, alpha = -1 } } } } },
    false, "stops%[1%]%.color%.alpha: alpha out of range" },
  { "negative radius", norm, { { kind = "radial", c0 = { 0, 0 }, r0 = -1, c1 = { 0, 0 }, r1 = 1, stops = {} } }, false, "r0: radius must be >= 0" },
  { "point with a third item", norm, { { kind = "sweep", center = { 0, 0, 0 }, start_angle = 0, end_angle = 1, stops = {} } }, false, "center: unexpected item %[3%]" },
  { "sweep without end_angle", norm, { { kind = "sweep", center = { 0, 0 }, start_angle = 0, stops = {} } }, false, "end_angle: expected number, got nil" },
  { "too deep", function()
    local t = leaf
    for _ = 1, 70 do t = { kind = "transform", matrix = { 1, 0, 0, 1, 0, 0 }, child = t } end
    checkerr("paint tree deeper than 64 levels", norm, t)
  end },
  { "a cycle is caught by the depth guard", function()
    local t = { kind = "layers", children = {} }
    t.children[1] = t
    checkerr("children%[1%]%.children%[1%].*deeper than 64 levels", norm, t)
  end },
  { "canvas:paint reports paths against the tree argument", function()
    local c = ct.canvas { width = 10, height = 10 }
    checkerr("bad argument #1 to 'paint' %(children%[1%]%.child: expected table, got nil%)", function()
      c:paint({ kind = "layers", children = { { kind = "glyph", gid = 1 } } }, { font = f })
    end)
    checkerr("field 'font': expected chromatype.Font, got nil", c.paint, c, leaf, {})
    checkerr("unknown field 'format'", c.paint, c, leaf, { font = f, format = "mono" })
    checkerr("table expected, got no value", c.paint, c, leaf)
    checkerr("palette 5 out of range", c.paint, c, leaf, { font = f, palette = 5 })
  end },

  -- ---- drawing: font:paint -> canvas:paint is canvas:text ----
  { "A through paint and through text: same PNG and SVG", function()
    same_output({ "A", font = f, size = 200, x = 20, y = 210 }, 2, { font = f, size = 200, x = 20, y = 210 })
  end },
  { "B, C, D with palette, overrides and color: same files", function()
    for _, ch in ipairs { "B", "C", "D" } do
      local o = { font = f, size = 150, x = 30, y = 200, palette = "dark", overrides = { [3] = "#00ff0080" }, color = "#336699" }
      local t = { ch, font = f, size = 150, x = 30, y = 200, palette = "dark", overrides = { [3] = "#00ff0080" }, color = "#336699" }
      same_output(t, f:glyph(ch), o, { ".png", ".svg", ".pdf" })
    end
  end },
  { "mono format through paint", function()
    same_output({ "A", font = f, size = 100, y = 150, format = "mono", color = "#ff00ff" }, 2,
      { font = f, size = 100, y = 150, color = "#ff00ff" })
  end },
  { "a tree edited in Lua draws the edit", function()
    local t = f:paint(2)
    t.children[2].child.color = { rgba = "#00ff00" }   -- the diamond becomes green
    local c = ct.canvas { width = 200, height = 250 }
    c:background("#ffffff")
    c:paint(t, { font = f, size = 200, y = 200 })
    local path = tmpname(".png")
    assert(c:write(path))
    eq({ ct.read_png_pixel(path, 80, 90) }, { 0, 255, 0, 255 })
    eq({ ct.read_png_pixel(path, 20, 70) }, { 224, 32, 32, 255 })
  end },
  { "a linear gradient clipped by a glyph", function()
    local t = { kind = "glyph", gid = 6, child = { kind = "linear", p0 = { 50, 0 }, p1 = { 750, 0 },
      stops = { { offset = 0, color = { rgba = "#ff0000" } }, { offset = 1, color = { rgba = "#0000ff" } } } } }
    local c = ct.canvas { width = 200, height = 250 }
    c:background("#ffffff")
    c:paint(t, { font = f, size = 200, y = 200 })
    local path = tmpname(".png")
    assert(c:write(path))
    local r1, _, b1 = ct.read_png_pixel(path, 12, 100)
    local r2, _, b2 = ct.read_png_pixel(path, 148, 100)
    assert(r1 > 240 and b1 < 15, "left end red")
    assert(b2 > 240 and r2 < 15, "right end blue")
    eq({ ct.read_png_pixel(path, 5, 100) }, { 255, 255, 255, 255 })   -- outside the glyph
  end },
  { "twemoji: paint and text agree", function()
    local t = assert(ct.open_font(font_path("twemoji-colr0.woff2")))
    local gid = assert(t:glyph(0x1F600))
    same_output({ "\u{1F600}", font = t, size = 200, x = 20, y = 210 }, gid, { font = t, size = 200, x = 20, y = 210 }, { ".png" })
  end },
  { "text_layer = false leaves the PDF without text; it must be a boolean", function()
    local c = ct.canvas { width = 200, height = 80 }
    local fnt = assert(ct.open_font(font_path("ct-colr0.ttf")))
    c:text { "ABC", font = fnt, size = 40, x = 5, y = 60 }
    local with, without = tmpname(".pdf"), tmpname(".pdf")
    assert(c:write(with)); assert(c:write(without, { text_layer = false }))
    assert(#read(with) > #read(without), "the text layer adds nothing")
    checkerr("text_layer", c.write, c, without, { text_layer = "no" })
  end },
  { "COLRv1 trees survive the trip through Lua tables (every glyph)", function()
    local files = { font_path("ct-colr1.ttf"), ROOT .. "/../shared/fonts/color-fonts/test_glyphs-glyf_colr_1.ttf" }
    local tested = 0
    ct.on_warning(false)
    for _, file in ipairs(files) do
      local fnt = ct.open_font(file)
      if fnt then
        for _, cp in ipairs(fnt:codepoints()) do
          local g = fnt:glyph(cp)
          local a, b = ct.canvas{ width = 60, height = 60 }, ct.canvas{ width = 60, height = 60 }
          a:text{ utf8.char(cp), font = fnt, size = 48, x = 6, y = 50 }
          b:paint(fnt:paint(g), { font = fnt, size = 48, x = 6, y = 50 })
          local pa, pb = tmpname(".png"), tmpname(".png")
          assert(a:write(pa)); assert(b:write(pb))
          local x, y = io.open(pa, "rb"):read("a"), io.open(pb, "rb"):read("a")
          os.remove(pa); os.remove(pb)
          assert(x == y, ("%s U+%X: c:paint(f:paint(g)) differs from c:text"):format(file, cp))
          tested = tested + 1
        end
      end
    end
    ct.on_warning(nil)
    assert(tested > 0 or not io.open(files[1]), "no COLRv1 glyph tested")
  end },
  { "a tree drawn again with c:paint is recorded once in a PDF (intern.c); the bytes depend on the canvas alone", function()
    -- 240 draws of trees made anew each time: the same two trees over and over, or each
    -- one moved a little (none equal)
    local function sheet(distinct)
      local c = ct.canvas { width = 400, height = 400 }
      c:background("#ffffff")
      for i = 0, 239 do
        local t = f:paint(4 + i % 2)
        if distinct then t = { kind = "transform", matrix = { 1, 0, 0, 1, i / 7, 0 }, child = t } end
        c:paint(t, { font = f, size = 24, x = (i % 16) * 24, y = 30 + (i // 16) * 24 })
      end
      return c
    end
    local rep, dis, rep2 = tmpname(""), tmpname(".pdf"), tmpname(".pdf")
    rep = rep .. ".pdf"
    assert(sheet(false):write(rep)); assert(sheet(true):write(dis)); assert(sheet(false):write(rep2))
    local r, d = #read(rep), #read(dis)
    assert(r * 3 < d, ("240 draws of two trees: %d bytes, of 240 distinct trees: %d"):format(r, d))
    eq(read(rep2) == read(rep), true, "the same drawing written again in the process")
    -- and the same drawing: the first of a tree's cells (drawn in place) against later
    -- ones (the recording), at whole pixels apart
    local ok = os.execute(("pdftoppm -r 72 -png -singlefile '%s' '%s' 2>/dev/null"):format(rep, rep))
    assert(ok, "pdftoppm failed")
    local off, n = 0, 0
    for _, cell in ipairs({ 2, 4, 16 * 5 + 2, 16 * 14 }) do
      local dx, dy = (cell % 16) * 24, (cell // 16) * 24
      for y = 6, 30 do
        for x = 0, 23 do
          local p = { ct.read_png_pixel(rep .. ".png", x, y) }
          local q = { ct.read_png_pixel(rep .. ".png", x + dx, y + dy) }
          local dd = 0
          for k = 1, 3 do dd = math.max(dd, math.abs(p[k] - q[k])) end
          if dd > 40 then off = off + 1 end   -- poppler's edges differ by up to 32 from cell to cell
          n = n + 1
        end
      end
    end
    assert(off <= n // 100, ("a tree drawn again differs from its first draw at %d of %d samples"):format(off, n))
  end },
}

return cases
