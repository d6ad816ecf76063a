-- test_variable.lua: variable fonts at chosen instances (issue 16): `variations`, `weight`,
-- `width`, `slant`, `italic` and `optical-size` in XML styles and spans, in Lua style tables
-- and layout runs, on stacks; each the same drawing as the axis it stands for and as
-- `chromatype view --variations`; one shared instance per location; errors and warnings.
-- ct-axes.ttf (tests/fonts/make_axes_font.py): a COLRv0 bar whose stem is 100 units wide at
-- wght 400 and 300 at 900, whose advance is 600 (1200 at wdth 200), leaning 255 units at
-- slnt -20 and 150 at ital 1, 700 high (600 at opsz 72, 800 at opsz 6).
local ct = require "chromatype"
local document = require "chromatype.document"
local layout = require "chromatype.layout"
local variable = require "chromatype.variable"

local AXES = font_path("ct-axes.ttf")
local WDTH = font_path("ct-wdth.ttf")

-- A one-line document at 72 dpi (1 pt = 1 px): `style` attributes of the default style
-- (100 pt), `body` the paragraph's content.
local function doc(style, body, size)
  return ([[<document size="400pt x 160pt" margin="20pt" background="#ffffff">
  <style name="default" font="%s" size="%s" %s/>
  <page><frame><p>%s</p></frame></page>
</document>]]):format(AXES, size or "100pt", style or "", body or "ab")
end

local function png_of(xml)
  local out = tmpname(".png")
  document.render(xml, "v.xml", out, { dpi = 72 })
  return out
end

local function pixels(path)
  local w, h, px = ct.read_png(path)
  assert(w, h)
  return w, h, px
end

local function is_red(px, i)
  local r, g, b = px:byte(i, i + 2)
  return r > 150 and g < 100 and b < 100
end

-- The runs of red pixels (x, length) on the row with the most red pixels.
local function red_runs(path)
  local w, h, px = pixels(path)
  local best, best_n = 0, -1
  for y = 0, h - 1 do
    local n = 0
    for x = 0, w - 1 do if is_red(px, (y * w + x) * 4 + 1) then n = n + 1 end end
    if n > best_n then best, best_n = y, n end
  end
  local runs, x = {}, 0
  while x < w do
    if is_red(px, (best * w + x) * 4 + 1) then
      local x0 = x
      while x < w and is_red(px, (best * w + x) * 4 + 1) do x = x + 1 end
      runs[#runs + 1] = { x0, x - x0 }
    else
      x = x + 1
    end
  end
  return runs, best
end

-- Rows with red pixels: the stem's height.
local function red_height(path)
  local w, h, px = pixels(path)
  local rows = 0
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      if is_red(px, (y * w + x) * 4 + 1) then rows = rows + 1; break end
    end
  end
  return rows
end

local function same_png(a, b)
  local _, _, pa = pixels(a)
  local _, _, pb = pixels(b)
  return pa == pb
end

local function near(a, b, tol, what)
  assert(math.abs(a - b) <= tol, ("%s: %s, expected %s ± %s"):format(what or "value", tostring(a), tostring(b), tostring(tol)))
end

local function axis(font, tag)
  for _, a in ipairs(font:axes()) do if a.tag == tag then return a.value end end
end

local function warnings_of(fn)
  local seen = {}
  local old = ct.on_warning(function(m) seen[#seen + 1] = m end)
  local ok, err = pcall(fn)
  ct.on_warning(old)
  assert(ok, err)
  return seen
end

return {
  -- ---- the properties move their axes -----------------------------------------------------------
  { "weight moves wght: the stem is 100 units at 400, 300 at 900, 40 at 100", function()
    local function stem(style) return red_runs(png_of(doc(style)))[1][2] end
    near(stem(""), 10, 1, "default")
    near(stem('weight="900"'), 30, 1, "weight 900")
    near(stem('weight="100"'), 4, 1, "weight 100")
    near(stem('weight="bold"'), 10 + 20 * 3 / 5, 1, "bold = 700")
  end },
  { "each property is the drawing of its axis's variations", function()
    local pairs_ = {
      { 'weight="650"', 'variations="wght=650"' },
      { 'width="150%"', 'variations="wdth=150"' },
      { 'width="expanded"', 'variations="wdth=125"' },
      { 'slant="20"', 'variations="slnt=-20"' },
      { 'slant="12deg"', 'variations="slnt=-12"' },
      { 'italic="yes"', 'variations="ital=1"' },
      { 'optical-size="6"', 'variations="opsz=6"' },
    }
    for _, p in ipairs(pairs_) do
      local a, b = png_of(doc(p[1])), png_of(doc(p[2]))
      assert(same_png(a, b), p[1] .. " draws as " .. p[2])
      assert(not same_png(a, png_of(doc(""))), p[1] .. " changes the drawing")
    end
  end },
  { "variations win over the properties, axis by axis (CSS's font-variation-settings)", function()
    assert(same_png(png_of(doc('weight="900" variations="wght=100"')), png_of(doc('variations="wght=100"'))))
    assert(same_png(png_of(doc('weight="900" variations="ital=1"')), png_of(doc('variations="wght=900,ital=1"'))))
  end },
  { "optical-size is the size in points by default (auto), none keeps the font's default", function()
    -- at 72 pt opsz is 72: the stem is 600 units high (43 px); 12 pt is the default location
    local auto72 = png_of(doc("", "a", "72pt"))
    near(red_height(auto72), 0.6 * 72, 1.5, "opsz 72 at 72 pt")
    assert(same_png(auto72, png_of(doc('variations="opsz=72"', "a", "72pt"))))
    near(red_height(png_of(doc('optical-size="none"', "a", "72pt"))), 0.7 * 72, 1.5, "none")
    near(red_height(png_of(doc('optical-size="auto"', "a", "100pt"))), 0.6 * 100, 1.5, "opsz clamps to 72")
  end },
  { "spans and paragraphs vary their own text; a child's setting wins", function()
    local runs = red_runs(png_of(doc("", 'a<span weight="900">b</span><span width="200%">c</span>')))
    eq(#runs, 3)
    near(runs[1][2], 10, 1, "a")
    near(runs[2][2], 30, 1, "b, weight 900")
    -- c at wdth 200: the stem is 200 units, its left edge at 2 x 250 units from c's origin (b's advance is 600)
    near(runs[3][2], 20, 1, "c, width 200%")
    near(runs[3][1] - runs[1][1], 60 + 60 + 25, 1.5, "c's position")
    local nested = red_runs(png_of(doc('weight="900"', 'a<span weight="400">b</span>')))
    near(nested[1][2], 30, 1)
    near(nested[2][2], 10, 1)
  end },
  { "the drawing matches chromatype view --variations", function()
    local out = tmpname(".png")
    local cmd = ("%q view %q ab --font-size 100 --variations=wght=900,slnt=-20 -o %q 2>&1"):format(
      ROOT .. "/" .. (os.getenv("CT_BUILD") or "build") .. "/chromatype", AXES, out)
    local p = io.popen(cmd)
    local msg = p:read("a")
    assert(p:close(), msg)
    local view = red_runs(out)
    -- view draws at 100 px; the document at 100 pt and 72 dpi
    local mine = red_runs(png_of(doc('weight="900" slant="20" optical-size="none"')))
    eq(#mine, #view)
    for i = 1, #view do
      near(mine[i][2], view[i][2], 1, "run " .. i .. " width")
      near(mine[i][1] - mine[1][1], view[i][1] - view[1][1], 1, "run " .. i .. " position")
    end
  end },

  -- ---- Lua: style tables, layout runs, stacks ------------------------------------------------
  { "Lua document styles take the same fields", function()
    local d = ct.document { size = "400pt x 160pt", margin = "20pt", background = "#ffffff" }
    d:style("default", { font = AXES, size = 100, weight = 900, slant = 20 })
    d:page():frame {}:text("ab")
    local out = tmpname(".png")
    assert(d:write(out, { dpi = 72 }))
    assert(same_png(out, png_of(doc('variations="wght=900,slnt=-20"'))))
    local e = ct.document {}
    checkerr("weight: expected a number from 1 to 1000", e.style, e, "x", { weight = "heavyish" })
    checkerr("width and font%-width both given", e.style, e, "x", { width = 50, font_width = 60 })
  end },
  { "layout runs: weight, width, variations; the fonts are shared instances", function()
    local f = ct.open_font(AXES)
    local lines = layout.lines({ { text = "ab ", font = f, size = 20, weight = 900 },
      { text = "ab", font = f, size = 20, width = 200, variations = "ital=1" } }, { width = 1000 })
    local items = lines[1].items
    eq(axis(items[1].font, "wght"), 900)
    eq(axis(items[#items].font, "wdth"), 200)
    eq(axis(items[#items].font, "ital"), 1)
    eq(axis(items[#items].font, "opsz"), 20, "optical size from the size")
    eq(axis(f, "wght"), 400, "the font itself does not move")
    near(items[#items].width, 2 * 1200 * 20 / 1000, 1e-6, "wdth 200 doubles the advance")
    -- the same location is the same instance, across calls
    local again = layout.lines({ { text = "ab", font = f, size = 20, weight = 900 } }, { width = 1000 })
    assert(rawequal(again[1].items[1].font, items[1].font), "one instance per location")
    assert(variable.cached() <= 64)
    -- options' width is the measure; a run's is the font's
    local l2 = layout.lines({ { text = "a", font = f, size = 20 } }, { width = 30, weight = 100 })
    eq(axis(l2[1].items[1].font, "wght"), 100)
    checkerr("field 'variations': no font of the run has the axis 'XXXX'", layout.lines,
      { { text = "a", font = f, size = 20, variations = "XXXX=1" } }, { width = 100 })
    checkerr("field 'weight': expected a number from 1 to 1000", layout.lines,
      { { text = "a", font = f, size = 20, weight = 0 } }, { width = 100 })
  end },
  { "instances of fonts opened from memory (font:instance needs no file)", function()
    local fh = assert(io.open(AXES, "rb"))
    local bytes = fh:read("a")
    fh:close()
    local f = ct.font_from_data(bytes, { name = "axes-in-memory" })
    local i = f:instance { wght = 800 }
    eq(axis(i, "wght"), 800)
    eq(axis(i:instance { wdth = 60 }, "wght"), 800, "an instance of an instance keeps its location")
    eq(axis(f, "wght"), 400)
    checkerr("no axis 'QQQQ'", f.instance, f, "QQQQ=1")
    checkerr("has no variation axes", ct.open_font(font_path("ct-colr0.ttf")).instance,
      ct.open_font(font_path("ct-colr0.ttf")), { wght = 1 })
  end },
  { "the width fitting step works on fonts from memory too (through font:instance)", function()
    local fh = assert(io.open(WDTH, "rb"))
    local mem = ct.font_from_data(fh:read("a"), { name = "wdth-in-memory" })
    fh:close()
    local lines, _, _, fit = layout.lines("abcdefghij", { font = mem, size = 10, width = 40, fit_to = "line", fit = "width" })
    eq(fit.fits, true)
    assert(math.abs(fit.steps[1].value - 80) < 0.5, "wdth " .. fit.steps[1].value)
    assert(lines[1].natural <= 40 + 1e-6, "natural " .. lines[1].natural)
  end },
  { "a stack varies every layer that has the axes", function()
    local f = ct.open_font(AXES)
    local s = ct.stack { { font = f, color = "#000000" }, { font = f, offset = { 0.05, 0 } } }
    local lines = layout.lines({ { text = "ab", font = s, size = 20, weight = 900 } }, { width = 1000 })
    local vs = lines[1].items[1].font
    assert(getmetatable(vs) == getmetatable(s) and vs ~= s, "a stack of instances")
    eq(axis(vs.layers[1].font, "wght"), 900)
    eq(axis(vs.layers[2].font, "wght"), 900)
    eq(vs.layers[2].dx, 0.05, "offsets kept")
    -- in a document, with a named stack
    local xml = ([[<document size="400pt x 160pt" margin="20pt" background="#ffffff">
  <stack name="st"><layer font="%s"/></stack>
  <style name="default" font="st" size="100pt" weight="900" optical-size="none"/>
  <page><frame><p>ab</p></frame></page></document>]]):format(AXES)
    near(red_runs(png_of(xml))[1][2], 30, 1, "stack at weight 900")
  end },

  -- ---- errors and warnings ------------------------------------------------------------------
  { "bad values: one line naming the file, line, element and attribute", function()
    checkerr("^v%.xml:2: <style>: weight: expected a number from 1 to 1000", document.render, doc('weight="heavyish"'), "v.xml")
    checkerr("^v%.xml:2: <style>: width: expected a percentage", document.render, doc('width="wide"'), "v.xml")
    checkerr("^v%.xml:2: <style>: slant: expected an angle in degrees", document.render, doc('slant="95"'), "v.xml")
    checkerr("^v%.xml:2: <style>: italic: expected yes, no", document.render, doc('italic="maybe"'), "v.xml")
    checkerr("^v%.xml:2: <style>: optical%-size: expected auto, none or a size", document.render, doc('optical-size="big"'), "v.xml")
    checkerr("^v%.xml:3: <span>: width and font%-width both given", document.render,
      doc("", '<span width="50%" font-width="60">a</span>'), "v.xml")
    checkerr("^v%.xml:2: <style>: variations: no font here has the axis 'EDPT'", document.render, doc('variations="EDPT=100"'), "v.xml")
  end },
  { "a property whose axis the font lacks is a warning, once per font", function()
    local seen = warnings_of(function()
      document.render(doc("", '<span font="' .. WDTH .. '" weight="700">ab</span> <span font="' .. WDTH ..
        '" weight="800">cd</span>'), "v.xml", tmpname(".png"))
    end)
    local n = 0
    for _, m in ipairs(seen) do
      if m:find("weight: ct%-wdth%.ttf has no 'wght' axis") then n = n + 1 end
    end
    eq(n, 1, table.concat(seen, "\n"))
  end },
  { "a static family: weight picks the family's face fontconfig has, as browsers do", function()
    local regular = ct.open_font("DejaVu Sans")
    local lines = layout.lines({ { text = "Bold ", font = regular, size = 12, weight = "bold" },
      { text = "light", font = regular, size = 12, weight = 200 }, { text = " book", font = regular, size = 12 } },
      { width = 1000 })
    local items = lines[1].items
    eq(items[1].font:info().style, "Bold")
    eq(items[1].font:info().family, "DejaVu Sans")
    assert(items[#items].font == regular, "no property: the font itself")
    -- a weight its family has no face for stays with the nearest fontconfig offers, in the family
    eq(items[2].font:info().family, "DejaVu Sans")
    -- a font of no installed family keeps its design, with the warning
    local seen = warnings_of(function()
      document.render(doc("", '<span font="' .. WDTH .. '" weight="bold">ab</span>'), "v.xml", tmpname(".png"))
    end)
    assert(seen[1] and seen[1]:find("weight: ct%-wdth%.ttf has no 'wght' axis"), table.concat(seen, "\n"))
  end },
  { "a frame's width is its size; font-width is the font's", function()
    local xml = ([[<document size="400pt x 160pt" margin="20pt" background="#ffffff">
  <style name="default" font="%s" size="100pt"/>
  <page><frame width="300pt" font-width="200"><p>a</p></frame></page></document>]]):format(AXES)
    near(red_runs(png_of(xml))[1][2], 20, 1, "wdth 200")
  end },
}
