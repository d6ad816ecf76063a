-- test_ready_filters.lua: the ready filters of filters/ (misregistration, shadow,
-- palette-cycle, gradient, recolor, duotone; alternates is in test_alternates.lua), each
-- checked on the element tree after it ran and on pixels.  Fonts: ct-wdth.ttf (bars: a
-- letter is 500 units with a bar from 20% to 80%, space 250), ct-colr0.ttf (COLRv0, three
-- palettes), ct-colr1.ttf (two palettes), ct-svg.ttf, and a stack of two ct-wdth layers.
local ct = require "chromatype"
local filter = require "chromatype.filter"
local P = require "chromatype.palette"

local W = font_path("ct-wdth.ttf")
filter.path = ROOT .. "/filters"

local function ready(name, opts)
  local f, err = filter.load(name, opts)
  assert(f, err)
  return f
end

-- a document of `lines` (a list: one frame line each, as paragraphs) in `font`
local function doc(lines, o)
  o = o or {}
  local d = ct.document { size = o.page or "200mm x 60mm", margin = "10mm", background = "#ffffff", seed = o.seed }
  if o.stack then d:stack("st", o.stack) end
  d:style("default", { font = o.font or W, size = o.size or "20pt", color = o.color or "#000000",
    leading = o.leading })
  local fr = d:page():frame {}
  for _, p in ipairs(lines) do fr:text(p) end
  return d
end

-- the glyphs (and their layers) after the filters ran: {text, x, y, color, palette, layers}
local function after(d, filters, seed)
  local got = {}
  local list = {}
  for i, f in ipairs(filters) do list[i] = f end
  list[#list + 1] = filter.new({ Glyph = function(g, ctx)
    got[#got + 1] = { g = g, text = g.text, x = g.x, y = g.y, line = ctx.line.index, word = ctx.word,
      layers = g.layers or filter.layers_of(g) }
  end }, {}, "probe")
  d:render { filters = list, seed = seed }
  return got
end

local function two_layer_stack()
  return ct.stack { { font = W, color = "#ff0000" }, { font = W, color = "#0000ff" } }
end

local function png(d, opts)
  local p = tmpname(".png")
  assert(d:write(p, opts))
  return function(x, y) return { assert(ct.read_png_pixel(p, x, y)) } end
end

local function near(a, b, tol, what)
  for i = 1, #b do
    if math.abs(a[i] - b[i]) > (tol or 8) then
      error(("%s: got {%s}, expected {%s}"):format(what or "pixel", table.concat(a, ","), table.concat(b, ",")), 2)
    end
  end
end

local function load_err(name, opts)
  local f, err = filter.load(name, opts)
  eq(f, nil)
  return err
end

return {
  -- ---- misregistration ----------------------------------------------------------------
  { "misregistration: one offset per line and layer, within the amount", function()
    local d = doc({ "ab cd", "ef" }, { stack = two_layer_stack() })
    d:style("default", { font = "st", size = "20pt" })
    local got = after(d, { ready("misregistration", { amount = "3pt", per = "line" }) }, 5)
    eq(#got, 6)
    local by_line = {}
    for _, e in ipairs(got) do
      for _, l in ipairs(e.layers) do
        local off = l.offset
        assert(math.sqrt(off[1] ^ 2 + off[2] ^ 2) <= 3 + 1e-9, "offset beyond the amount")
        local key = e.y .. ":" .. l.index
        if by_line[key] then eq(off, by_line[key]) else by_line[key] = off end
      end
    end
    local y1, y2 = got[1].y, got[#got].y
    assert(y1 ~= y2)
    assert(by_line[y1 .. ":1"][1] ~= by_line[y1 .. ":2"][1], "the two plates moved together")
    assert(by_line[y1 .. ":2"][1] ~= by_line[y2 .. ":2"][1], "the two lines moved together")
  end },
  { "misregistration: per glyph, fixed key plate, em amounts, seeds", function()
    local function offsets(seed, opts)
      local d = doc({ "abcd" }, { stack = two_layer_stack() })
      d:style("default", { font = "st", size = "20pt" })
      local out = {}
      for _, e in ipairs(after(d, { ready("misregistration", opts) }, seed)) do
        out[#out + 1] = e.layers[1].offset
        out[#out + 1] = e.layers[2].offset
      end
      return out
    end
    local a = offsets(1, { amount = "0.1em", per = "glyph", fixed = "1" })
    for i = 1, #a, 2 do eq(a[i], { 0, 0 }) end                       -- the key plate stays
    assert(a[2][1] ~= a[4][1], "per glyph: two glyphs moved alike")
    for i = 2, #a, 2 do assert(math.sqrt(a[i][1] ^ 2 + a[i][2] ^ 2) <= 2 + 1e-9) end  -- 0.1em of 20pt
    eq(offsets(1, { amount = "0.1em", per = "glyph", fixed = "1" }), a)
    assert(offsets(2, { amount = "0.1em", per = "glyph", fixed = "1" })[2][1] ~= a[2][1], "the seed changed nothing")
  end },
  { "misregistration: moves the pixels of a plate", function()
    -- one bar 'a' at 40pt: bar from x = 10mm + 4pt*2 ... ; layer 2 (blue) on top of red
    local function render(opts)
      local d = doc({ "a" }, { stack = two_layer_stack(), size = "40pt" })
      d:style("default", { font = "st", size = "40pt" })
      if opts then d:filter("misregistration", opts) end
      return png(d)
    end
    local plain, moved = render(nil), render({ amount = "6pt", per = "line", fixed = "1" })
    -- the bar: x from 28.35+8 to 28.35+32 pt; sample its left edge region
    local diff = 0
    for x = 30, 66 do
      local p, q = plain(x, 50), moved(x, 50)
      if p[1] ~= q[1] or p[3] ~= q[3] then diff = diff + 1 end
    end
    assert(diff > 0, "misregistration left the pixels as they were")
  end },
  { "misregistration: bad options", function()
    assert(load_err("misregistration", { amount = "lots" }):find("misregistration: amount: expected a length"))
    assert(load_err("misregistration", { per = "sheet" }):find("misregistration: per: expected page, line, word, glyph, got 'sheet'", 1, true))
  end },

  -- ---- shadow ------------------------------------------------------------------------------
  { "shadow: copies under the glyph, offset and colored", function()
    local d = doc({ "ab" })
    local got = after(d, { ready("shadow", { offset = "2pt 3pt", color = "red" }) })
    local ls = got[1].layers
    eq(#ls, 2)
    eq(ls[1].z, -1); eq(ls[1].offset, { 2.0, 3.0 }); eq(ls[1].color, "#ff0000ff"); eq(ls[2].z, nil)
    local ext = after(doc({ "a" }), { ready("shadow", { offset = "0.5em", steps = "4", color = "#000", color2 = "#fff" }) })
    local el = ext[1].layers
    eq(#el, 5)
    eq(el[1].z, -4); eq(el[1].offset, { 10.0, 10.0 }); eq(el[1].color, "#ffffffff")   -- the farthest first
    eq(el[4].z, -1); eq(el[4].offset, { 2.5, 2.5 }); eq(el[4].color, "#000000ff")
  end },
  { "shadow: drawn under the whole frame, never over a neighbour", function()
    -- 20pt bars: 'a' bar 2..8pt, 'b' bar 12..18pt after the 10mm margin (28.35pt).  A 6pt
    -- shadow of 'a' reaches 8..14pt, over the start of b's bar, where b must stay black.
    local d = doc({ "ab" })
    d:filter("shadow", { offset = "6pt 0pt", color = "#ff0000" })
    local px = png(d, { dpi = 72 })
    local y = 28 + 20 - 5
    near(px(math.floor(28.35 + 10), y), { 255, 0, 0 }, 8, "a's shadow")   -- between the bars
    near(px(math.floor(28.35 + 13), y), { 0, 0, 0 }, 8, "b over a's shadow")
    near(px(math.floor(28.35 + 5), y), { 0, 0, 0 }, 8, "a itself")
  end },
  { "shadow: an SVG glyph's shadow is a silhouette", function()
    local d = doc({ utf8.char(57600) }, { font = font_path("ct-svg.ttf") })
    local got = after(d, { ready("shadow", { color = "#00ff00" }) })
    local sh = got[1].layers[1]
    eq(sh.z, -1)
    eq(sh.paint.kind, "composite"); eq(sh.paint.mode, "src_in"); eq(sh.paint.backdrop.kind, "svg")
  end },
  { "shadow: bad options", function()
    assert(load_err("shadow", { steps = "0" }):find("shadow: steps: expected a number from 1 to 200, got '0'", 1, true))
    assert(load_err("shadow", { offset = "2pt 3pt 4pt" }):find("shadow: offset: expected two lengths"))
    assert(load_err("shadow", { color = "not-a-color" }):find("shadow: color: expected a color"))
  end },

  -- ---- palette-cycle -------------------------------------------------------------------------
  { "palette-cycle: no two neighbours alike, spaces skipped", function()
    for seed = 1, 6 do
      local got = after(doc({ "aaaaaaaa aaaa" }), { ready("palette-cycle", { colors = "#ff0000;#00ff00" }) }, seed)
      local prev
      for _, e in ipairs(got) do
        if e.text ~= " " then
          assert(e.g.color == "#ff0000ff" or e.g.color == "#00ff00ff", tostring(e.g.color))
          assert(e.g.color ~= prev, ("seed %d: two neighbours alike"):format(seed))
          prev = e.g.color
        end
      end
    end
  end },
  { "palette-cycle: per word, cycle order", function()
    local got = after(doc({ "ab cd ef gh" }), { ready("palette-cycle", { colors = "red;lime;blue", per = "word",
      order = "cycle" }) })
    local colors = {}
    for _, e in ipairs(got) do if e.text ~= " " then colors[#colors + 1] = e.g.color end end
    eq(colors, { "#ff0000ff", "#ff0000ff", "#00ff00ff", "#00ff00ff", "#0000ffff", "#0000ffff",
      "#ff0000ff", "#ff0000ff" })
  end },
  { "palette-cycle: color fonts change palette, stacks their top layer", function()
    local got = after(doc({ "ABAB" }, { font = font_path("ct-colr0.ttf") }), { ready("palette-cycle") }, 3)
    local prev
    for _, e in ipairs(got) do
      assert(type(e.g.palette) == "number" and e.g.palette >= 0 and e.g.palette <= 2)
      assert(e.g.palette ~= prev); prev = e.g.palette
    end
    local d = doc({ "ab" }, { stack = two_layer_stack() })
    d:style("default", { font = "st", size = "20pt" })
    local st = after(d, { ready("palette-cycle", { colors = "#111111;#222222" }) }, 1)
    eq(st[1].layers[1].color, "#ff0000")
    assert(st[1].layers[2].color ~= "#0000ff" and st[1].layers[2].color ~= st[2].layers[2].color)
  end },
  { "palette-cycle: bad options", function()
    assert(load_err("palette-cycle", { colors = "red;nocolor" }):find("palette-cycle: colors: expected colors", 1, true))
    assert(load_err("palette-cycle", { order = "shuffle" }):find("palette-cycle: order: expected random, cycle", 1, true))
  end },

  -- ---- gradient ---------------------------------------------------------------------------------
  { "gradient: one gradient across the line, in every glyph", function()
    local d = doc({ "abcd" })
    local got = after(d, { ready("gradient", { colors = "#ff0000;#0000ff" }) })
    local ends
    for _, e in ipairs(got) do
      local p = e.layers[1].paint
      eq(p.kind, "glyph"); eq(p.child.kind, "linear")
      -- back to page points: the same ends for every glyph
      local u = 20 / 1000
      local e0 = { e.x + p.child.p0[1] * u, e.y - p.child.p0[2] * u }
      local e1 = { e.x + p.child.p1[1] * u, e.y - p.child.p1[2] * u }
      if ends then
        assert(math.abs(e0[1] - ends[1][1]) < 1e-6 and math.abs(e1[1] - ends[2][1]) < 1e-6, "the gradient moved")
      else ends = { e0, e1 } end
    end
    -- it spans the line: 4 letters of 10pt from the margin
    assert(math.abs(ends[1][1] - 28.3464567) < 1e-3 and math.abs(ends[2][1] - (28.3464567 + 40)) < 1e-3)
  end },
  { "gradient: pixels go from the first color to the last", function()
    local d = doc({ "abcdefgh" })
    d:filter("gradient", { colors = "#ff0000;#0000ff" })
    local px = png(d)
    local y = 28 + 20 - 5
    local left, right = px(math.floor(28.35 + 3), y), px(math.floor(28.35 + 77), y)
    assert(left[1] > 200 and left[3] < 60, "left end not red")
    assert(right[3] > 200 and right[1] < 60, "right end not blue")
  end },
  { "gradient: blend keeps the layer inside its shape; top layer only", function()
    local d = doc({ "ab" }, { stack = two_layer_stack() })
    d:style("default", { font = "st", size = "20pt" })
    local got = after(d, { ready("gradient", { layers = "top", blend = "multiply" }) })
    eq(got[1].layers[1].paint.kind, "glyph")                         -- untouched
    local p = got[1].layers[2].paint
    eq(p.kind, "composite"); eq(p.mode, "src_in"); eq(p.source.mode, "multiply"); eq(p.source.source.kind, "linear")
    assert(load_err("gradient", { blend = "burn" }):find("gradient: blend: expected replace, multiply"))
  end },

  -- ---- recolor -----------------------------------------------------------------------------------
  { "recolor: layers of a glyph take distinct colors of the list, reproducibly", function()
    local function run(seed)
      local got = after(doc({ "ABCD" }, { font = font_path("ct-colr0.ttf") }),
        { ready("recolor", { colors = "#111111;#222222;#333333;#444444;#555555" }) }, seed)
      local out = {}
      for _, e in ipairs(got) do
        local seen = {}
        for _, l in ipairs(e.layers) do
          assert(l.color:match("^#([1-5])%1%1%1%1%1ff$"), l.color)
          assert(not seen[l.color], "two layers of one glyph alike"); seen[l.color] = true
          out[#out + 1] = l.color
        end
      end
      return out
    end
    local a = run(1)
    assert(#a >= 4)
    eq(run(1), a)
    local b = run(2)
    local differ = false
    for i = 1, #a do if a[i] ~= b[i] then differ = true end end
    assert(differ, "another seed gave the same colors")
  end },
  { "recolor: colors from the font's palette; pixels change", function()
    local got = after(doc({ "AB" }, { font = font_path("ct-colr0.ttf") }), { ready("recolor", { palette = "1" }) }, 1)
    local pal = {}
    for _, c in ipairs(P.colors(ct.open_font(font_path("ct-colr0.ttf")), 1)) do pal[c] = true end
    for _, e in ipairs(got) do for _, l in ipairs(e.layers) do assert(pal[l.color], l.color) end end
    local d = doc({ "a" }, { size = "40pt" })
    d:filter("recolor", { colors = "#00ff00" })
    local px = png(d)
    near(px(math.floor(28.35 + 10), 28 + 40 - 10), { 0, 255, 0 }, 8, "recolored bar")
  end },

  -- ---- duotone -------------------------------------------------------------------------------------
  { "duotone: every color on the line from dark to light, by lightness", function()
    local got = after(doc({ "ABCD" }, { font = font_path("ct-colr0.ttf") }),
      { ready("duotone", { dark = "#000000", light = "#ffffff" }) })
    local n = 0
    local function check(t)
      if type(t) ~= "table" then return end
      if t.kind == "solid" then
        local c = t.color.rgba
        assert(c and c:sub(2, 3) == c:sub(4, 5) and c:sub(4, 5) == c:sub(6, 7), "not gray: " .. tostring(c))
        n = n + 1
      end
      for _, k in ipairs { "child", "source", "backdrop" } do check(t[k]) end
      for _, ch in ipairs(t.children or {}) do check(ch) end
    end
    for _, e in ipairs(got) do for _, l in ipairs(e.layers) do check(l.paint) end end
    assert(n >= 4, "no colors mapped")
  end },
  { "duotone: black text becomes dark, on pixels; contrast stretches", function()
    local d = doc({ "a" }, { size = "40pt" })
    d:filter("duotone", { dark = "#204080", light = "#ffee00" })
    near(png(d)(math.floor(28.35 + 10), 28 + 40 - 10), { 0x20, 0x40, 0x80 }, 8, "dark")
    local got = after(doc({ "A" }, { font = font_path("ct-colr0.ttf") }),
      { ready("duotone", { dark = "#000000", light = "#ffffff", contrast = "yes" }) })
    local vals = {}
    for _, l in ipairs(got[1].layers) do
      local function walk(t)
        if t.kind == "solid" then vals[#vals + 1] = tonumber(t.color.rgba:sub(2, 3), 16) end
        if t.child then walk(t.child) end
      end
      walk(l.paint)
    end
    table.sort(vals)
    if #vals > 1 then eq(vals[1], 0); eq(vals[#vals], 255) end
  end },
  { "duotone: SVG glyphs go through blend modes", function()
    local got = after(doc({ utf8.char(57600) }, { font = font_path("ct-svg.ttf") }), { ready("duotone") })
    local p = got[1].layers[1].paint
    eq(p.kind, "composite"); eq(p.mode, "src_in"); eq(p.source.mode, "screen")
    local d = doc({ utf8.char(57600) }, { font = font_path("ct-svg.ttf"), size = "40pt" })
    d:filter("duotone")
    assert(d:write(tmpname(".pdf")))
  end },
  { "every ready filter loads by name and has a header with its options", function()
    for _, name in ipairs { "misregistration", "shadow", "palette-cycle", "gradient", "recolor", "duotone", "alternates" } do
      local h = assert(io.open(ROOT .. "/filters/" .. name .. ".lua"))
      local head = h:read("a"); h:close()
      assert(head:match("^%-%- " .. name:gsub("%-", "%%-") .. "%.lua: "), name .. ": no header line")
      assert(head:find("\n%-%- Options:"), name .. ": no options in the header")
      assert(filter.load(name))
    end
  end },
}
