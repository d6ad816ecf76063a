-- test_shaping_runs.lua: a paragraph is shaped run by run, across spans (chromatype.layout):
-- kerning across a span boundary in the measure and in the drawn pixels (Lua layout, XML
-- documents, and documents through a filter), contextual alternates across spans, sizes
-- shaped together, widths that agree with what is drawn, the glyphs of c:text{glyphs =}.
-- Font: ct-kern.ttf (tests/fonts/make_layout_fonts.py): letters 500 units with a bar from 20 %
-- to 80 % of the advance, space 250; kern A V -200, V A -150, T o -100; calt a' b -> a.alt1
-- (advance 350).
local ct = require "chromatype"
local layout = require "chromatype.layout"
local document = require "chromatype.document"

local k = assert(ct.open_font(font_path("ct-kern.ttf")))
local plain = assert(ct.open_font(font_path("ct-wdth.ttf")))   -- the same glyphs, no kern

local function near(a, b, what)
  if math.abs(a - b) > 1e-6 then error(("%s: %s ~= %s"):format(what or "value", a, b), 2) end
end

-- The color of a pixel of a canvas written as PNG at 72 dpi.
local function pixel(c, x, y)
  local path = tmpname(".png")
  assert(c:write(path, { dpi = 72 }))
  local r, g, b = ct.read_png_pixel(path, x, y)
  os.remove(path)
  return r, g, b
end

local RED, BLUE = "#ff0000", "#0000ff"

return {
  { "kerning across a span boundary: measured", function()
    local lines = layout.lines({ { text = "A", color = RED }, { text = "V", color = BLUE } },
      { font = k, size = 10, width = 100 })
    local l = lines[1]
    eq(#l.items, 2)
    near(l.items[1].width, 3, "A kerned before V: (500 - 200) x 10 / 1000")
    near(l.items[2].x, 3, "V starts where the kerned A ends")
    eq(l.items[1].glyphs[1].x_advance, 300, "A carries its kerned glyph for drawing")
    eq(l.items[2].glyphs, nil, "V is drawn as shaped alone")
    near(l.natural, 8)
    local unkerned = layout.lines({ { text = "A", color = RED }, { text = "V", color = BLUE } },
      { font = plain, size = 10, width = 100 })
    near(unkerned[1].natural, 10, "the same glyphs without kern")
    -- the same with different sizes: shaped together, each glyph at its own size
    lines = layout.lines({ { text = "A", color = RED, size = 10 }, { text = "V", color = BLUE, size = 20 } },
      { font = k, width = 100 })
    near(lines[1].items[1].width, 3, "A at 10 pt kerned")
    near(lines[1].items[2].width, 10, "V at 20 pt")
  end },
  { "kerning across a span boundary: drawn (Lua layout)", function()
    -- at 100 pt: A's bar 10..40, then V from x = 30 (kerned) with its bar 40..70; unkerned
    -- V would start at 50 (bar 60..90)
    local c = ct.canvas { width = 120, height = 100 }
    c:background("#ffffff")
    local lines = layout.lines({ { text = "A", color = RED }, { text = "V", color = BLUE } },
      { font = k, size = 100, width = 200, y = 0 })
    layout.draw_lines(c, lines)
    local y = math.floor(lines[1].y - 30)
    eq({ pixel(c, 25, y) }, { 255, 0, 0 }, "A")
    eq({ pixel(c, 55, y) }, { 0, 0, 255 }, "V drawn kerned")
    eq({ pixel(c, 80, y) }, { 255, 255, 255 }, "nothing where an unkerned V would be")
  end },
  { "kerning across spans in an XML document, with and without a filter", function()
    local xml = ([[<document size="120pt x 100pt" background="#ffffff">
<style name="default" font="%s" size="100pt"/>
<page><frame x="0" y="0" width="200pt" height="100pt"><p><span color="#ff0000">A</span><span color="#0000ff">V</span></p></frame></page>
</document>]]):format(font_path("ct-kern.ttf"))
    local d = document.from_xml(xml, "t.xml")
    local c = d:render()
    eq({ pixel(c, 55, 50) }, { 0, 0, 255 }, "V drawn kerned")
    eq({ pixel(c, 80, 50) }, { 255, 255, 255 }, "no unkerned V")
    -- a filter that asks for the glyphs keeps the paragraph's shaping
    local seen = {}
    local d2 = document.from_xml(xml, "t.xml")
    local filter = require "chromatype.filter"
    local f = filter.new({ Glyph = function(g) seen[#seen + 1] = g.x end }, {}, "positions")
    local c2 = d2:render { filters = { f } }
    eq(#seen, 2)
    near(seen[2] - seen[1], 30, "the glyphs filters see are kerned")
    eq({ pixel(c2, 55, 50) }, { 0, 0, 255 }, "V drawn kerned after a filter")
  end },
  { "calt across spans in a document: drawn, and seen by filters", function()
    -- at 100 pt a.alt1 (advance 350) has its bar at 7..28, a plain a at 10..40
    local xml = ([[<document size="120pt x 100pt" background="#ffffff">
<style name="default" font="%s" size="100pt"/>
<page><frame x="0" y="0" width="200pt" height="100pt"><p><span color="#ff0000">a</span><span color="#0000ff">b</span></p></frame></page>
</document>]]):format(font_path("ct-kern.ttf"))
    local alt = k:shape("ab")[1].gid
    local c = document.from_xml(xml, "t.xml"):render()
    eq({ pixel(c, 20, 50) }, { 255, 0, 0 })
    eq({ pixel(c, 33, 50) }, { 255, 255, 255 }, "the narrow a.alt1, not a")
    local filter = require "chromatype.filter"
    local gids = {}
    local f = filter.new({ Glyph = function(g) gids[#gids + 1] = g.gid end }, {}, "gids")
    c = document.from_xml(xml, "t.xml"):render { filters = { f } }
    eq(gids[1], alt, "filters see the glyph shaped with the next span")
    eq({ pixel(c, 33, 50) }, { 255, 255, 255 }, "and it is drawn")
  end },
  { "calt sees across spans", function()
    local lines = layout.lines({ { text = "a", color = RED }, { text = "b", color = BLUE } },
      { font = k, size = 10, width = 100 })
    local alt = k:shape("ab")[1].gid
    assert(alt ~= k:glyph("a"), "the font's calt applies")
    eq(lines[1].items[1].glyphs[1].gid, alt, "the a before a b of another span is a.alt1")
    near(lines[1].items[1].width, 3.5, "and measured as a.alt1")
  end },
  { "kerning across a word boundary inside one run", function()
    -- "To To": T o kerned inside each word, and widths from the run's shaping
    local lines = layout.lines("To To", { font = k, size = 10, width = 100 })
    near(lines[1].natural, 4 + 5 + 2.5 + 4 + 5)
  end },
  { "what is drawn is what was measured", function()
    local c = ct.canvas { width = 300, height = 200 }
    local text = { { text = "AVAVA To", color = RED }, { text = "VATo ab", color = BLUE, tracking = 1 },
      { text = " Tab AV", size = 14 } }
    local lines = layout.lines(text, { font = k, size = 10, width = 60, align = "justify", hyphenate = true })
    for _, l in ipairs(lines) do
      for _, it in ipairs(l.items) do
        -- glyphs when the paragraph's shaping differs from the item's text shaped alone
        local glyphs = it.glyphs or k:shape(it.text)
        local adv = c:text { it.text, font = it.font, size = it.run.size, glyphs = it.glyphs, x = it.x, y = l.y }
        local tr = it.run.tracking or 0
        near(adv + tr * #glyphs, it.width, "drawn advance of '" .. it.text .. "'")
      end
    end
  end },
  { "a hyphen at a line's end is shaped with its word", function()
    local lines = layout.lines("a hyphenation", { font = k, size = 10, width = 50, hyphenate = true,
      language = "en-US" })
    eq(lines[1].text, "a hyphen-")
    local last = lines[1].items[#lines[1].items]
    eq(last.text, "hyphen-")
    eq(last.glyphs, nil, "drawn as shaped alone: the word and its hyphen")
    near(last.width, 6 * 5 + 3)
  end },
  { "c:text{glyphs =}: drawn as given, advance returned, bad glyphs refused", function()
    local c = ct.canvas { width = 100, height = 50 }
    local g = k:shape("AV")
    eq(c:text { "AV", font = k, size = 10, glyphs = g }, 8)
    checkerr("field 'glyphs': %[1%]: cluster: a byte of the text %(1%.%.2%) expected", c.text, c,
      { "AV", font = k, glyphs = { { gid = 3, cluster = 9 } } })
    checkerr("field 'glyphs': %[1%]: gid: an integer 0%.%.65535 expected", c.text, c,
      { "AV", font = k, glyphs = { { gid = -1, cluster = 1 } } })
    checkerr("field 'glyphs': expected a list of glyphs, got string", c.text, c, { "AV", font = k, glyphs = "x" })
    checkerr("field 'glyphs': %[1%]: x_advance: a finite number expected", c.text, c,
      { "AV", font = k, glyphs = { { gid = 3, cluster = 1, x_advance = 0 / 0 } } })
  end },
  { "ct.grapheme_breaks", function()
    eq(ct.grapheme_breaks("e\u{301}a"), { 3, 4 })
    eq(ct.grapheme_breaks("\u{1F468}\u{200D}\u{1F469}x"), { 11, 12 })
    eq(ct.grapheme_breaks(""), {})
  end },
}
