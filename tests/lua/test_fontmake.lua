-- test_fontmake.lua: ct.save_font from each source (a stack, a font with new palettes, a font
-- with a filter baked in, paint trees) to each format (COLRv0, COLRv1, both, TTF and WOFF2, a
-- glyph subset), read back through ct.open_font and drawn next to what chromatype draws from
-- the source; refusals (a filter that reads its position or a random stream, layers on
-- another em, a layer font without the lead's glyphs, an unknown option) leave no file.
-- ots-sanitize, fontTools and the browsers judge the files in tests/cli/test_font.sh.
local ct = require "chromatype"
local document = require "chromatype.document"

local BUNGEE = ROOT .. "/examples/fonts/bungee-latin.woff2"
local SHADE = ROOT .. "/examples/fonts/bungee-shade-latin.woff2"
local HAIRLINE = ROOT .. "/examples/fonts/bungee-hairline-latin.woff2"
local COLR0 = font_path("ct-colr0.ttf")
local CFF = font_path("ct-colr0-cff.otf")
local TWEMOJI = font_path("twemoji-colr0.woff2")
-- ready filters by path: a plain lua5.4 has no filter directory
local function ready(spec) return ROOT .. "/filters/" .. spec:gsub("^(%w+)", "%1.lua", 1) end

local function exists(p)
  local f = io.open(p, "rb")
  if f then f:close() end
  return f ~= nil
end

-- Mean absolute difference per channel of two PNG files (0..255), flattened onto white.
local function mae(a, b)
  local wa, ha, pa = ct.read_png(a)
  local wb, hb, pb = ct.read_png(b)
  assert(wa and wb, "unreadable PNG")
  if wa ~= wb or ha ~= hb then error(("sizes differ: %dx%d vs %dx%d"):format(wa, ha, wb, hb)) end
  local sum, n = 0, wa * ha
  for i = 1, #pa, 4 do
    local r1, g1, b1, a1 = pa:byte(i, i + 3)
    local r2, g2, b2, a2 = pb:byte(i, i + 3)
    local fa, fb = a1 / 255, a2 / 255
    sum = sum + math.abs((r1 * fa + 255 * (1 - fa)) - (r2 * fb + 255 * (1 - fb)))
      + math.abs((g1 * fa + 255 * (1 - fa)) - (g2 * fb + 255 * (1 - fb)))
      + math.abs((b1 * fa + 255 * (1 - fa)) - (b2 * fb + 255 * (1 - fb)))
  end
  return sum / (n * 3)
end

-- One line of text in `font` (a Font or a Stack) to a PNG; returns the path.
local function draw(font, text, opts)
  opts = opts or {}
  local c = ct.canvas { width = opts.width or 360, height = 120 }
  c:background("#ffffff")
  local t = { text, font = font, size = 72, x = 20, y = 90, palette = opts.palette }
  if ct.stack and getmetatable(font) and getmetatable(font).__name == "chromatype.Stack" then font:draw(c, t)
  else c:text(t) end
  local p = tmpname(".png")
  assert(c:write(p))
  return p
end

local function riso_stack(offsets)
  return ct.stack {
    { font = SHADE, color = "#0078bf", offset = offsets and { 0.02, 0.02 } or nil, name = "Shade" },
    { font = BUNGEE, color = "#ffe800", name = "Regular" },
    { font = HAIRLINE, color = "#ff48b0", name = "Hairline" },
    lead = 2, warn = false }
end

local function has(font, format)
  for _, f in ipairs(font:info().formats) do if f == format then return true end end
  return false
end

local function kinds(t, out)
  out = out or {}
  out[t.kind] = true
  for _, k in ipairs({ "child", "source", "backdrop" }) do if t[k] then kinds(t[k], out) end end
  for _, ch in ipairs(t.children or {}) do kinds(ch, out) end
  return out
end

return {
  -- ---- stacks ------------------------------------------------------------------------------
  { "a stack becomes a COLRv0 font: one layer per stack layer, its color a CPAL entry", function()
    local out = tmpname(".ttf")
    assert(ct.save_font(riso_stack(), out, { family = "Riso Test" }))
    local f = assert(ct.open_font(out))
    local info = f:info()
    eq(info.family, "Riso Test")
    eq(has(f, "COLRv0"), true)
    eq(has(f, "COLRv1"), false)
    local pals = f:palettes()
    eq(#pals, 1)
    eq(pals[1].colors, { "#0078bfff", "#ffe800ff", "#ff48b0ff" })
    eq(f:entry_labels(), { "Shade", "Regular", "Hairline" })
    local t = f:paint(f:glyph(65), { format = "colr0" })
    eq(t.kind, "layers")
    eq(#t.children, 3)
    for i, ch in ipairs(t.children) do eq(ch.child.color.palette, i - 1) end
    -- the lead's own glyph keeps its id; the other layers' glyphs are new ones
    local lead = ct.open_font(BUNGEE)
    eq(f:glyph(65), lead:glyph(65))
    eq(t.children[2].gid, lead:glyph(65))
    assert(t.children[1].gid >= lead:info().glyph_count)
  end },
  { "the stack font draws as the stack does (one glyph at a time: same pixels)", function()
    local out = tmpname(".ttf")
    local s = riso_stack()
    assert(ct.save_font(s, out))
    local f = ct.open_font(out)
    for _, ch in ipairs({ "A", "R", "g", "&" }) do
      local d = mae(draw(s, ch, { width = 120 }), draw(f, ch, { width = 120 }))
      assert(d < 0.05, ("%s: mean difference %.3f"):format(ch, d))
    end
  end },
  { "a whole word: the stack prints layer by layer, the font glyph by glyph (close, not equal)", function()
    local out = tmpname(".ttf")
    local s = riso_stack()
    assert(ct.save_font(s, out))
    local d = mae(draw(s, "RISO"), draw(ct.open_font(out), "RISO"))
    assert(d < 3, ("mean difference %.3f"):format(d))
  end },
  { "the lead's layout tables keep working: the exported font shapes as the lead does", function()
    local out = tmpname(".ttf")
    assert(ct.save_font(riso_stack(), out))
    local lead, f = ct.open_font(BUNGEE), ct.open_font(out)
    local text = "RO AVATAR WAVE fi 1/2"
    local a, b = lead:shape(text), f:shape(text)
    eq(#b, #a)
    local kerned = false
    for i = 1, #a do
      eq({ b[i].gid, b[i].x_advance, b[i].cluster }, { a[i].gid, a[i].x_advance, a[i].cluster })
      if a[i].x_advance ~= lead:advance(a[i].gid) then kerned = true end
    end
    assert(kerned, "no kerning in the sample: the test proves nothing")
  end },
  { "layer offsets: baked into glyphs for COLRv0, PaintTranslate in COLRv1, both draw the stack", function()
    local s = riso_stack(true)
    local v0, v1 = tmpname(".ttf"), tmpname(".ttf")
    assert(ct.save_font(s, v0))
    assert(ct.save_font(s, v1, { formats = "colr1" }))
    local f0, f1 = ct.open_font(v0), ct.open_font(v1)
    eq(has(f0, "COLRv0"), true)
    eq(has(f1, "COLRv1"), true)
    eq(has(f1, "COLRv0"), false)
    assert(kinds(f1:paint(f1:glyph(65), { format = "colr1" })).transform)
    assert(not kinds(f0:paint(f0:glyph(65), { format = "colr0" })).transform)
    local ref = draw(s, "A", { width = 120 })
    for _, f in ipairs({ f0, f1 }) do
      local d = mae(ref, draw(f, "A", { width = 120 }))
      assert(d < 0.3, ("mean difference %.3f"):format(d))
    end
  end },
  { "both formats at once: COLRv0 records and COLRv1 paints of the same glyphs", function()
    local out = tmpname(".ttf")
    assert(ct.save_font(riso_stack(), out, { formats = { "colr0", "colr1" } }))
    local f = ct.open_font(out)
    eq(has(f, "COLRv0"), true)
    eq(has(f, "COLRv1"), true)
  end },
  { "a stack from XML (<stack>) with extra palettes: names, types, entry overrides", function()
    local doc = document.from_xml(([[<document><stack name="riso" lead="2" warn="no">
      <layer font="%s" color="#0078bf"/><layer font="%s" color="#ffe800"/></stack>
      <page><frame><p>x</p></frame></page></document>]]):format(SHADE, BUNGEE), "t.xml")
    local out = tmpname(".ttf")
    assert(ct.save_font(doc.stacks.riso, out, { stack_name = "Riso",
      palettes = { "Night:0=#222222,1=#ffffff", { name = "Warm", type = "light", colors = { [1] = "tomato" } } },
      palette_type = "dark" }))
    local pals = ct.open_font(out):palettes()
    eq(#pals, 3)
    eq(pals[1].name, "Riso")
    eq({ pals[2].name, pals[2].type, pals[2].colors }, { "Night", "dark", { "#222222ff", "#ffffffff" } })
    eq({ pals[3].name, pals[3].type, pals[3].colors }, { "Warm", "light", { "#0078bfff", "#ff6347ff" } })
  end },
  { "a CFF lead and CFF layers become TrueType glyphs that draw as the CFF ones", function()
    local out = tmpname(".ttf")
    local s = ct.stack { { font = CFF, color = "#ff0000" }, { font = COLR0, color = "#0000ff", offset = { 0.1, 0 } } }
    assert(ct.save_font(s, out))
    local f = ct.open_font(out)
    eq(f:info().container, "TrueType")
    local d = mae(draw(s, "ACD", { width = 260 }), draw(f, "ACD", { width = 260 }))
    assert(d < 0.5, ("mean difference %.3f"):format(d))
  end },

  -- ---- new palettes for a color font -------------------------------------------------------
  { "Twemoji with skin-tone palettes: its tables kept, CPAL written anew", function()
    local out = tmpname(".ttf")
    local src = ct.open_font(TWEMOJI)
    local tones = { light = "#F7DECE", medium = "#C68642", dark = "#8D5524" }
    local pals = {}
    for _, name in ipairs({ "light", "medium", "dark" }) do
      pals[#pals + 1] = ("%s:#FFCC4D=%s,#FFDC5D=%s"):format(name, tones[name], tones[name])
    end
    assert(ct.save_font(src, out, { palettes = pals, palette_type = "light" }))
    local f = ct.open_font(out)
    eq(f:info().glyph_count, src:info().glyph_count)
    eq(f:info().family, src:info().family)
    eq(has(f, "COLRv0"), true)
    local p = f:palettes()
    eq(#p, #src:palettes() + 3)
    eq({ p[2].name, p[2].type, p[4].name }, { "light", "light", "dark" })
    -- the skin entries are recolored, the rest are palette 0's
    local base = src:palettes()[1].colors
    local changed = 0
    for i, c in ipairs(p[3].colors) do
      if c ~= base[i] then changed = changed + 1; eq(c, "#c68642ff") end
    end
    assert(changed >= 1)
    -- drawn in palette 3, a face is in the medium tone
    local d = mae(draw(f, "😀", { width = 120 }), draw(f, "😀", { width = 120, palette = 2 }))
    assert(d > 2, "the palettes draw the same")
  end },
  { "a palette entry by a color palette 0 does not have is refused", function()
    local out = tmpname(".ttf")
    local ok, err = ct.save_font(ct.open_font(TWEMOJI), out, { palettes = { "x:#123456=#000000" } })
    eq(ok, nil)
    assert(err:find("no entry of palette 0 is #123456"), err)
    assert(not exists(out))
  end },

  -- ---- filters baked in --------------------------------------------------------------------
  { "an extrusion baked in draws as the filter does", function()
    local out = tmpname(".ttf")
    local spec = ready("shadow:offset=0.06em 0.06em,steps=8,color=#7f1d1d,color2=#2b0a0a")
    assert(ct.save_font(BUNGEE, out, { filters = { spec } }))
    local f = ct.open_font(out)
    eq(f:info().family, "Bungee Color")
    -- the filtered document, one letter
    local xml = [[<document size="360pt 120pt" margin="10pt" background="#ffffff">
      <style name="default" font="%s" size="72pt"/><page><frame><p>A</p></frame></page></document>]]
    local a, b = tmpname(".png"), tmpname(".png")
    local filter = require "chromatype.filter"
    assert(document.from_xml(xml:format(BUNGEE), "t.xml"):render { filters = { filter.load(spec) } }:write(a))
    assert(document.from_xml(xml:format(out), "t.xml"):render { filters = {} }:write(b))
    local d = mae(a, b)
    assert(d < 0.5, ("mean difference %.3f"):format(d))
  end },
  { "a filter that reads its position or a random stream is refused, saying why", function()
    local out = tmpname(".ttf")
    local ok, err = ct.save_font(BUNGEE, out, { filters = { ready("misregistration") } })
    eq(ok, nil)
    assert(err:find("cannot be baked into a font: it reads ctx%.%w+"), err)
    local ok2, err2 = ct.save_font(BUNGEE, out, { filters = { { Glyph = function(g, ctx) g.color = ctx.rng:pick { "#f00", "#0f0" } end } } })
    eq(ok2, nil)
    assert(err2:find("ctx%.rng %(a random stream%)"), err2)
    local ok3, err3 = ct.save_font(BUNGEE, out, { filters = { { Glyph = function(g) g.rotate = g.x end } } })
    eq(ok3, nil)
    assert(err3:find("glyph%.x %(its position%)"), err3)
    local ok4, err4 = ct.save_font(BUNGEE, out, { filters = { "/no/such/filter.lua" } })
    eq(ok4, nil)
    assert(err4:find("/no/such/filter.lua: cannot open"), err4)
    assert(not exists(out))
  end },

  -- ---- paint trees -------------------------------------------------------------------------
  { "paint trees given glyph by glyph: a gradient makes the font COLRv1", function()
    local out = tmpname(".ttf")
    local grad = function(gid) return { kind = "glyph", gid = gid, child = { kind = "linear", extend = "pad",
      p0 = { 0, 0 }, p1 = { 0, 700 }, p2 = { 700, 0 },
      stops = { { offset = 0, color = { rgba = "#ff0000" } }, { offset = 1, color = { palette = 1, alpha = 0.5 } } } } }
    end
    assert(ct.save_font(COLR0, out, { glyphs = { C = grad, [5] = grad(5) } }))
    local f = ct.open_font(out)
    eq(has(f, "COLRv1"), true)
    local t = f:paint(f:glyph(67), { format = "colr1" })
    eq(t.kind, "glyph")
    eq(t.child.kind, "linear")
    eq(t.child.stops[2].color.palette, 1)
    eq(t.child.stops[2].color.alpha, 0.5)
  end },
  { "COLRv0 cannot hold a gradient: asked for alone, it is refused", function()
    local out = tmpname(".ttf")
    local ok, err = ct.save_font(COLR0, out, { formats = "colr0", glyphs = { C = { kind = "glyph", gid = 4,
      child = { kind = "radial", c0 = { 400, 350 }, r0 = 0, c1 = { 400, 350 }, r1 = 300,
        stops = { { offset = 0, color = { palette = 0 } }, { offset = 1, color = { palette = 1 } } } } } } })
    eq(ok, nil)
    assert(err:find("COLRv0 cannot hold glyph 4 %('C'%): it fills a glyph with a gradient"), err)
    assert(not exists(out))
  end },

  -- ---- variable fonts ----------------------------------------------------------------------
  { "a variable lead is written as a static instance at its location", function()
    local f = ct.open_font(font_path("ct-wdth.ttf"))
    local wide = f:advance(f:glyph(97))
    assert(f:set_variations("wdth=50"))
    local narrow = f:advance(f:glyph(97))
    assert(narrow < wide)
    local out = tmpname(".ttf")
    assert(ct.save_font(f, out, { filters = { ready("shadow") } }))
    local g = ct.open_font(out)
    eq(g:info().variable, false)
    eq(#g:axes(), 0)
    eq(g:advance(g:glyph(97)), narrow)
    local d = mae(draw(f, "abc", { width = 260 }), draw(g, "abc", { width = 260 }))
    assert(d > 1, "the shadow was not baked")
  end },
  { "new palettes for a variable color font keep its axes and variations", function()
    local out = tmpname(".ttf")
    local src = font_path("ct-colr1-var.ttf")
    assert(ct.save_font(src, out, { palettes = { "Blue:0=#0000ff" } }))
    local g = ct.open_font(out)
    eq(g:info().variable, true)
    eq(#g:axes(), #ct.open_font(src):axes())
    eq(#g:palettes(), #ct.open_font(src):palettes() + 1)
  end },

  -- ---- outputs -----------------------------------------------------------------------------
  { "WOFF2 by the extension; a glyph subset keeps what the text needs", function()
    local out = tmpname(".woff2")
    assert(ct.save_font(riso_stack(), out, { text = "RISO LTA" }))
    local f = ct.open_font(out)
    eq(f:info().container, "WOFF2")
    assert(f:glyph(string.byte("R")) and f:glyph(string.byte("O")))
    eq(f:glyph(string.byte("B")), nil)
    assert(f:info().glyph_count < 60, "glyphs: " .. f:info().glyph_count)   -- with what GSUB reaches
    local t = f:paint(f:glyph(string.byte("R")), { format = "colr0" })
    eq(#t.children, 3)
    -- names, kerning and features survive the subset
    eq(f:info().family, "Bungee Chromatic")
    local lead = ct.open_font(BUNGEE)
    local a, b = lead:shape("ROLTA"), f:shape("ROLTA")
    for i = 1, #a do eq(b[i].x_advance, a[i].x_advance) end
    assert(a[3].x_advance ~= lead:advance(a[3].gid), "L-T is not kerned: the check proves nothing")
  end },

  -- ---- bad input -----------------------------------------------------------------------------
  { "layers on another em are refused", function()
    local out = tmpname(".ttf")
    local dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    if not exists(dejavu) then return end
    local ok, err = ct.save_font(ct.stack { { font = COLR0 }, { font = dejavu, color = "#f00" }, match = "cmap" }, out)
    eq(ok, nil)
    assert(err:find("has 2048 units per em and the lead %(ct%-colr0%.ttf%) has 1000"), err)
    assert(not exists(out))
  end },
  { "a layer font without the lead's glyphs is refused", function()
    local out = tmpname(".ttf")
    local ok, err = ct.save_font(ct.stack { { font = COLR0 }, { font = font_path("ct-cbdt.ttf"), color = "#f00" } }, out)
    eq(ok, nil)
    assert(err:find("layer 2 %(ct%-cbdt%.ttf%) has none of the lead's glyphs"), err)
    assert(not exists(out))
  end },
  { "hostile fonts (cycles, exponential graphs, bad formats and indices, truncation, hostile SVG): a font or a message, no crash", function()
    local names = { "hostile-badformat.ttf", "hostile-badindex.ttf", "hostile-cycle.ttf", "hostile-dag.ttf",
      "hostile-deep.ttf", "hostile-svg.ttf", "hostile-svgz.ttf", "hostile-truncated.ttf", "ct-truncated.ttf" }
    ct.on_warning(function() end)
    for _, n in ipairs(names) do
      local f = ct.open_font(font_path(n))
      if f then
        for _, formats in ipairs({ "colr0", "colr1", "svg", "colr1,svg" }) do
          local out = tmpname(".ttf")
          local ok, err = ct.save_font(f, out, { formats = formats })
          assert(ok or type(err) == "string", n)
          if ok then assert(ct.open_font(out), n .. ": unreadable output") else assert(not exists(out), n) end
        end
        local out = tmpname(".ttf")
        local ok, err = ct.save_font(f, out, { filters = { ready("shadow") } })
        assert(ok or type(err) == "string", n)
      end
    end
  end },
  { "effects as axes: a range of a filter option baked along an axis (COLRv1, fvar)", function()
    local out, lines = tmpname(".ttf"), {}
    local spec = ready("shadow") .. ":steps=4,offset=0.02em 0.02em..0.1em 0.1em@DPTH,color=#7f1d1d"
    assert(ct.save_font(BUNGEE, out, { filters = { spec }, text = "AB", report = function(l) lines[#lines + 1] = l end,
      axes = { { tag = "DPTH", min = 0, default = 0, max = 10, name = "Depth" } } }))
    eq(#lines, 1)
    assert(lines[1]:find("axis DPTH %(Depth%): baked at 2 points; the effect is linear"), lines[1])
    local f = assert(ct.open_font(out))
    local ax = f:axes()
    eq(#ax, 1)
    eq(ax[1].tag, "DPTH")
    eq(ax[1].max, 10)
    assert(has(f, "COLRv1"))
    -- the font at DPTH=5 draws as the filter at offset 0.06em; its ends differ
    local filter = require "chromatype.filter"
    local function page(font, filters)
      local doc = document.new { size = { 360, 120 }, margin = 0, background = "#ffffff" }
      doc:style("default", { font = font, size = 72, leading = 90 })
      doc:page():frame { x = 20, y = 10, width = 340, height = 110 }:text("AB")
      local p = tmpname(".png")
      assert(doc:render { filters = filters }:write(p, { dpi = 72 }))
      return p
    end
    local at0 = page(f, {})
    assert(f:set_variations("DPTH=5"))
    local at5 = page(f, {})
    -- as the filter at 0.06em baked into a static font (which draws as the filter does, above)
    local static = tmpname(".ttf")
    assert(ct.save_font(BUNGEE, static, { filters = { ready("shadow") .. ":steps=4,offset=0.06em 0.06em,color=#7f1d1d" },
      text = "AB" }))
    local d = mae(at5, page(assert(ct.open_font(static)), {}))
    assert(d < 0.02, ("DPTH=5 vs the filter at 0.06em baked: MAE %.3f"):format(d))
    assert(mae(at0, at5) > 1, "DPTH=0 and DPTH=5 draw alike")
    -- misuse: an axis without a range, a range without an axis, masters without axes
    local ok, err = ct.save_font(BUNGEE, tmpname(".ttf"), { filters = { ready("shadow") }, axes = { "DPTH=0:10" } })
    eq(ok, nil)
    assert(err:find("axis DPTH: no filter option ranges over it"), err)
    ok, err = ct.save_font(BUNGEE, tmpname(".ttf"), { filters = { spec }, masters = 3 })
    eq(ok, nil)
    assert(err:find("masters: goes with axes"), err)
    ok, err = ct.save_font(BUNGEE, tmpname(".ttf"), { filters = { spec }, axes = { "DPTH=0:10" }, masters = 1 })
    eq(ok, nil)
    assert(err:find("masters: an integer from 2 to 17"), err)
  end },
  { "a randomized font: variants of each glyph, calt cycling a run through them", function()
    local out = tmpname(".ttf")
    assert(ct.save_font(BUNGEE, out, { filters = { ready("misregistration") .. ":amount=0.05em,per=glyph" },
      randomize = 2, seed = 3, text = "AB" }))
    local f = assert(ct.open_font(out))
    local names = {}
    for gid = 0, f:info().glyph_count - 1 do names[f:glyph_name(gid) or ""] = gid end
    assert(names["A.rand1"] and names["A.rand2"] and names["B.rand2"] and not names["A.rand3"])
    assert(f:alternates(f:glyph(65), "rand")[2], "no rand alternates")
    -- the same seed gives the same font; another seed another
    local again, other = tmpname(".ttf"), tmpname(".ttf")
    assert(ct.save_font(BUNGEE, again, { filters = { ready("misregistration") .. ":amount=0.05em,per=glyph" },
      randomize = 2, seed = 3, text = "AB" }))
    assert(ct.save_font(BUNGEE, other, { filters = { ready("misregistration") .. ":amount=0.05em,per=glyph" },
      randomize = 2, seed = 4, text = "AB" }))
    local core = require "chromatype.core"
    assert(core.read_file(out) == core.read_file(again), "the same seed gave another font")
    assert(core.read_file(out) ~= core.read_file(other), "another seed gave the same font")
    local ok, err = ct.save_font(BUNGEE, tmpname(".ttf"), { filters = { ready("shadow") }, randomize = 2 })
    eq(ok, nil)
    assert(err:find("draw nothing random"), err)
    ok, err = ct.save_font(BUNGEE, tmpname(".ttf"), { filters = { ready("misregistration") }, randomize = 0 })
    eq(ok, nil)
    assert(err:find("randomize: an integer from 1 to 64"), err)
  end },
  { "misuse raises: unknown options, bad sources, bad formats", function()
    checkerr("unknown option 'colours'", ct.save_font, COLR0, "x.ttf", { colours = 1 })
    checkerr("a Font, a Stack or a font path expected", ct.save_font, 42, "x.ttf")
    local ok, err = ct.save_font(COLR0, tmpname(".ttf"), { formats = "colr2" })
    eq(ok, nil)
    assert(err:find("unknown format 'colr2'"), err)
  end },
}
