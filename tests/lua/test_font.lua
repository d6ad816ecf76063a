-- test_font.lua: chromatype.Font: opening, names, palettes, axes, glyphs, shaping,
-- paint trees, closing, and the errors of each.  Expectations: tests/fonts/README.md.
local ct = require "chromatype"

local TTF = font_path("ct-colr0.ttf")
local function open(name, opts) return assert(ct.open_font(font_path(name or "ct-colr0.ttf"), opts)) end
local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

local f = open()

local PALETTES = {
  { index = 0, name = "Default", colors = { "#e02020ff", "#2040e0ff", "#20a040ff", "#f0a000ff" } },
  { index = 1, name = "Light", type = "light", colors = { "#800000ff", "#000080ff", "#006000ff", "#805000ff" } },
  { index = 2, name = "Dark", type = "dark", colors = { "#ff8080ff", "#80c0ffff", "#80ff80ff", "#ffe08080" } },
}

local function solid(color) return { kind = "solid", color = color } end
local function layer(gid, color) return { kind = "glyph", gid = gid, child = solid(color) } end

local cases = {
  -- ---- opening ----
  { "info of ct-colr0.ttf", function()
    eq(f:info(), {
      family = "Chromatype Test", style = "Regular", full_name = "Chromatype Test Regular",
      postscript_name = "ChromatypeTest-Regular", version = "Version 1.000", path = TTF,
      units_per_em = 1000, ascender = 800, descender = -200, line_gap = 0, glyph_count = 10,
      face_index = 0, face_count = 1, container = "TrueType", variable = false, formats = { "COLRv0" },
    })
  end },
  { "CFF container", function()
    local i = open("ct-colr0-cff.otf"):info()
    eq(i.container, "CFF"); eq(i.family, "Chromatype Test CFF"); eq(i.formats, { "COLRv0" })
  end },
  { "WOFF and WOFF2 open with their palettes and glyphs", function()
    for _, name in ipairs { "ct-colr0.woff", "ct-colr0.woff2" } do
      local g = open(name)
      eq(g:info().container, name:match("woff2$") and "WOFF2" or "WOFF", name)
      eq(g:info().family, "Chromatype Test", name)
      eq(g:palettes(), PALETTES, name)
      eq(g:glyph("A"), 2, name)
      eq(g:paint(2), f:paint(2), name)
    end
  end },
  { "collection face 1", function()
    local g = open("ct-collection.ttc", { index = 1 })
    local i = g:info()
    eq(i.family, "Chromatype Test Two"); eq(i.face_index, 1); eq(i.face_count, 2)
    eq(i.container, "collection")
    eq(g:palettes()[1].colors, { "#2040e0ff", "#e02020ff", "#20a040ff", "#f0a000ff" })
    eq(open("ct-collection.ttc"):info().family, "Chromatype Test")
  end },
  { "collection face index out of range: nil, msg", function()
    local g, msg, code = ct.open_font(font_path("ct-collection.ttc"), { index = 5 })
    eq(g, nil); assert(msg:find("face index 5 out of range", 1, true), msg); eq(code, "invalid_arg")
  end },
  { "missing file: nil, 'path: reason', 'io'", function()
    local g, msg, code = ct.open_font("no/such/font.ttf")
    eq(g, nil); eq(code, "io")
    assert(msg:find("^no/such/font%.ttf: "), msg)
  end },
  { "not a font: nil, msg naming the file", function()
    local g, msg, code = ct.open_font(font_path("not-a-font.ttf"))
    eq(g, nil); eq(code, "invalid_font")
    assert(msg:find("not-a-font.ttf: not a font", 1, true), msg)
  end },
  { "truncated font: opened without color data, or refused; never a crash", function()
    local g, msg = ct.open_font(font_path("ct-truncated.ttf"))
    if g then
      eq(g:palette_count(), 0)
      eq(g:info().formats, {})
      eq(g:paint(2).kind, "glyph")   -- no COLR: the outline in the text color
      local c = ct.canvas { width = 100, height = 100 }
      c:text { "ABC", font = g, size = 20, y = 50 }
    else
      assert(msg:find("ct-truncated.ttf", 1, true), msg)
    end
  end },
  { "font_from_data with a name and an index", function()
    local bytes = read(TTF)
    local g = assert(ct.font_from_data(bytes, { name = "mem.ttf" }))
    eq(g:info().path, "mem.ttf")
    eq(g:palettes(), PALETTES)
    eq(assert(ct.font_from_data(bytes)):info().path, "<memory>")
    local h = assert(ct.font_from_data(read(font_path("ct-collection.ttc")), { index = 1 }))
    eq(h:info().family, "Chromatype Test Two")
  end },
  { "font_from_data of bad bytes: nil, msg", function()
    local g, msg, code = ct.font_from_data("this is not a font at all", { name = "junk" })
    eq(g, nil); eq(code, "invalid_font"); assert(msg:find("^junk: "), msg)
    g, msg = ct.font_from_data("")
    eq(g, nil); assert(msg:find("<memory>", 1, true), msg)
  end },
  { "WOFF2 from memory: decoded by the reference decoder; hostile WOFF2 bytes: nil, msg", function()
    local g = assert(ct.font_from_data(read(font_path("ct-overlap.woff2")), { name = "overlap.woff2" }))
    eq(g:info().container, "WOFF2"); eq(g:info().glyph_count, 5)
    local t = assert(ct.open_font(font_path("ct-overlap.ttf")))
    eq(g:shape("C+O"), t:shape("C+O"))
    for gid = 0, 4 do eq(g:paint(gid), t:paint(gid)) end   -- the same paint trees (COLR layers)
    local cases = {
      { "hostile-woff2-size.woff2", "limit", "declares 4294967295 bytes of font data, over the limit" },
      { "hostile-woff2-directory.woff2", "limit", "declares 4294967280 bytes" },
      { "hostile-woff2-truncated.woff2", "invalid_font", "truncated WOFF2 file: 272 bytes, its header says 544" },
      { "hostile-woff2-corrupt.woff2", "invalid_font", "invalid WOFF2 file" },
    }
    for _, c in ipairs(cases) do
      local f, msg, code = ct.font_from_data(read(font_path(c[1])), { name = c[1] })
      eq(f, nil, c[1]); eq(code, c[2], c[1])
      assert(msg:find("^" .. c[1]:gsub("%-", "%%-") .. ": ") and msg:find(c[3], 1, true) and not msg:find("\n"), msg)
    end
  end },
  { "open_font: bad option key", ct.open_font, { TTF, { sise = 1 } }, false, "unknown field 'sise'" },
  { "open_font: negative index", ct.open_font, { TTF, { index = -1 } }, false, "field 'index': %-1 out of range" },
  { "open_font: index not an integer", ct.open_font, { TTF, { index = 0.5 } }, false, "field 'index': expected integer" },
  { "open_font: options not a table", ct.open_font, { TTF, 3 }, false, "bad argument #2 .*table expected" },
  { "open_font: path not a string", ct.open_font, { {} }, false, "bad argument #1 .*string expected" },
  { "font_from_data: bytes not a string", ct.font_from_data, { false }, false, "bad argument #1 .*string expected" },
  { "font_from_data: name not a string", ct.font_from_data, { "x", { name = 1 } }, false, "field 'name': expected string" },

  -- ---- palettes ----
  { "palettes", function() eq(f:palettes(), PALETTES) end },
  { "palette_count", function() eq(f:palette_count(), 3) end },
  { "entry_labels", function() eq(f:entry_labels(), { "Fill", "Accent", "Leaf", "Sun" }) end },
  { "find_palette by type, name and index", function()
    eq(f:find_palette("dark"), 2); eq(f:find_palette("light"), 1)
    eq(f:find_palette("Default"), 0); eq(f:find_palette("Dark"), 2)
    eq(f:find_palette(1), 1); eq(f:find_palette(0), 0)
  end },
  { "find_palette: absent gives nil", function()
    eq(f:find_palette(3), nil); eq(f:find_palette("Nope"), nil); eq(f:find_palette("default"), nil)
  end },
  { "find_palette: negative index raises", function() checkerr("must be >= 0", f.find_palette, f, -1) end },
  { "find_palette: wrong type raises", function() checkerr("expected integer or string", f.find_palette, f, {}) end },
  { "twemoji: one palette of 1099 entries", function()
    local t = open("twemoji-colr0.woff2")
    eq(t:palette_count(), 1)
    eq(#t:palettes()[1].colors, 1099)
    eq(#t:entry_labels(), 1099)
    eq(t:info().units_per_em, 512)
  end },

  -- ---- axes and variations ----
  { "axes of a static font", function() eq(f:axes(), {}); eq(f:info().variable, false) end },
  { "set_variations: empty spec is fine, returns the font", function() eq(f:set_variations(""), f) end },
  { "set_variations on a static font raises naming it", function()
    checkerr("ct%-colr0%.ttf: the font has no variation axes", f.set_variations, f, "wght=700")
    checkerr("no variation axes", f.set_variations, f, { wght = 700 })
  end },
  { "set_variations: wrong types", function()
    checkerr("string or table expected", f.set_variations, f, 700)
    checkerr("axis 'wght': expected number", f.set_variations, f, { wght = "bold" })
    checkerr("axis tags must be strings", f.set_variations, f, { 700 })
  end },

  -- ---- glyphs ----
  { "glyph by character and code point", function()
    eq(f:glyph("A"), 2); eq(f:glyph(0x42), 3); eq(f:glyph(" "), 1); eq(f:glyph("D"), 5)
  end },
  { "glyph: absent gives nil", function() eq(f:glyph("Z"), nil); eq(f:glyph("é"), nil); eq(f:glyph(0x1F600), nil) end },
  { "glyph: more than one character", f.glyph, { f, "AB" }, false, "single UTF%-8 character" },
  { "glyph: empty string", f.glyph, { f, "" }, false, "single UTF%-8 character" },
  { "glyph: invalid UTF-8", f.glyph, { f, "\xC3" }, false, "single UTF%-8 character" },
  { "glyph: code point out of range", f.glyph, { f, 0x110000 }, false, "code point out of range" },
  { "glyph: negative code point", f.glyph, { f, -1 }, false, "code point out of range" },
  { "glyph: wrong type", f.glyph, { f, {} }, false, "number expected, got table" },
  { "glyph_name", function() eq(f:glyph_name(0), ".notdef"); eq(f:glyph_name(2), "A"); eq(f:glyph_name(9), "dot") end },
  { "glyph_name: gid past the font", f.glyph_name, { f, 10 }, false, "glyph id 10 out of range %(the font has 10 glyphs%)" },
  { "glyph_name: gid out of 0..65535", f.glyph_name, { f, 70000 }, false, "glyph id out of range %(0%.%.65535%)" },
  { "advance", function() eq(f:advance(2), 800); eq(f:advance(1), 300); eq(f:advance(0), 500) end },
  { "advance: negative gid", f.advance, { f, -1 }, false, "glyph id out of range" },
  { "advance: non-integer gid", f.advance, { f, 1.5 }, false, "number has no integer representation" },

  -- ---- shaping ----
  { "shape: gids, 1-based byte clusters, advances in font units", function()
    local run = f:shape("AB C")
    eq(#run, 4)
    local gids, clusters, adv = {}, {}, {}
    for i, g in ipairs(run) do
      gids[i], clusters[i], adv[i] = g.gid, g.cluster, g.x_advance
      eq(g.y_advance, 0); eq(g.x_offset, 0); eq(g.y_offset, 0)
    end
    eq(gids, { 2, 3, 1, 4 }); eq(clusters, { 1, 2, 3, 4 }); eq(adv, { 800, 800, 300, 800 })
  end },
  { "shape: clusters count bytes of multi-byte characters", function()
    local run = f:shape("éA")
    eq(run[1].gid, 0); eq(run[1].cluster, 1)
    eq(run[2].gid, 2); eq(run[2].cluster, 3)
  end },
  { "shape: rtl reverses the run", function()
    local run = f:shape("AB", { direction = "rtl" })
    eq({ run[1].gid, run[2].gid }, { 3, 2 })
    eq({ run[1].cluster, run[2].cluster }, { 2, 1 })
  end },
  { "shape: features, script and language are accepted", function()
    eq(#f:shape("ABC", { features = "+liga,-kern", script = "Latn", language = "en", direction = "ltr" }), 3)
    eq(f:shape(""), {})
  end },
  { "shape: bad feature", f.shape, { f, "A", { features = "@@" } }, false, "bad feature '@@'" },
  { "shape: unknown script", f.shape, { f, "A", { script = "Q" } }, false, "script 'Q'" },
  { "shape: bad direction", f.shape, { f, "A", { direction = "up" } }, false, "field 'direction': invalid option 'up'" },
  { "shape: bad option key", f.shape, { f, "A", { sise = 1 } }, false, "unknown field 'sise'" },
  { "shape: wrong option type", f.shape, { f, "A", { features = 1 } }, false, "field 'features': expected string, got number" },
  { "shape: text not a string", f.shape, { f, {} }, false, "string expected, got table" },

  -- ---- paint trees ----
  { "paint of A: three COLRv0 layers, bottom to top", function()
    eq(f:paint(2), { kind = "layers", children = {
      layer(6, { palette = 0, alpha = 1 }),
      layer(7, { palette = 1, alpha = 1 }),
      layer(8, { foreground = true, alpha = 1 }),
    } })
  end },
  { "paint of D: square and circle", function()
    eq(f:paint(5), { kind = "layers", children = {
      layer(6, { palette = 2, alpha = 1 }), layer(9, { palette = 3, alpha = 1 }) } })
  end },
  { "paint of plain C: the outline in the text color", function()
    eq(f:paint(4), layer(4, { foreground = true, alpha = 1 }))
  end },
  { "paint formats", function()
    eq(f:paint(2, { format = "colr0" }), f:paint(2))
    eq(f:paint(2, { format = "mono" }), layer(2, { foreground = true, alpha = 1 }))
    eq(f:paint(2, { format = "svg" }), layer(2, { foreground = true, alpha = 1 }))   -- no SVG table
  end },
  { "paint returns fresh tables each call", function()
    local a, b = f:paint(2), f:paint(2)
    assert(a ~= b and a.children ~= b.children)
    a.children = nil
    eq(#f:paint(2).children, 3)
  end },
  { "paint: bad format", f.paint, { f, 2, { format = "png" } }, false, "field 'format': invalid option 'png'" },
  { "paint: bad option key", f.paint, { f, 2, { fromat = "mono" } }, false, "unknown field 'fromat'" },
  { "paint: gid past the font", f.paint, { f, 99 }, false, "glyph id 99 out of range" },
  { "paint of a twemoji glyph", function()
    local t = open("twemoji-colr0.woff2")
    local gid = assert(t:glyph(0x1F600))
    local tree = t:paint(gid)
    eq(tree.kind, "layers")
    assert(#tree.children > 1, "expected several layers")
  end },

  -- ---- closing, tostring, wrong self ----
  { "tostring", function()
    eq(tostring(f), "chromatype.Font (Chromatype Test Regular: " .. TTF .. ")")
  end },
  { "close: idempotent; methods raise afterwards", function()
    local g = open()
    g:close()
    g:close()
    eq(tostring(g), "chromatype.Font (closed)")
    for _, m in ipairs { "info", "palettes", "palette_count", "entry_labels", "axes" } do
      checkerr("attempt to use a closed font", g[m], g)
    end
    checkerr("attempt to use a closed font", g.find_palette, g, 0)
    checkerr("attempt to use a closed font", g.set_variations, g, "")
    checkerr("attempt to use a closed font", g.glyph, g, "A")
    checkerr("attempt to use a closed font", g.glyph_name, g, 2)
    checkerr("attempt to use a closed font", g.advance, g, 2)
    checkerr("attempt to use a closed font", g.shape, g, "A")
    checkerr("attempt to use a closed font", g.paint, g, 2)
  end },
  { "to-be-closed variable closes the font", function()
    local keep
    do
      local g <close> = open()
      keep = g
      eq(g:glyph("A"), 2)
    end
    checkerr("closed font", keep.info, keep)
  end },
  { "garbage collection of open fonts", function()
    for _ = 1, 20 do open() end
    collectgarbage(); collectgarbage()
  end },
  { "codepoints lists the cmap", function()
    same(f:codepoints(), { 0x20, 0x41, 0x42, 0x43, 0x44 })
    local t = assert(ct.open_font(font_path("twemoji-colr0.woff2")))
    local cps = t:codepoints()
    assert(#cps > 1000, "twemoji maps " .. #cps)
    for i = 2, #cps do assert(cps[i] > cps[i - 1]) end
  end },
  { "wrong self", f.info, { 42 }, false, "chromatype.Font expected, got number" },
  { "wrong self (canvas)", function()
    checkerr("chromatype.Font expected, got chromatype.Canvas", f.info, ct.canvas { width = 1, height = 1 })
  end },
}

return cases
