-- test_layout.lua: chromatype.paper (sizes, units) and chromatype.layout (break
-- positions, alignment, justification, overflow, runs, tracking, bad input).
-- Font: ct-colr0.ttf at size 10: A-D advance 8 pt, space 3 pt, '-' (.notdef) 5 pt.
local ct = require "chromatype"
local paper = require "chromatype.paper"
local layout = require "chromatype.layout"

local f = assert(ct.open_font(font_path("ct-colr0.ttf")))
local MM = 72 / 25.4

local function texts(lines)
  local t = {}
  for i, l in ipairs(lines) do t[i] = l.text end
  return t
end

local function near(a, b, what)
  if math.abs(a - b) > 1e-6 then error(("%s: %s ~= %s"):format(what or "value", a, b), 2) end
end

local function opts(t)
  local o = { font = f, size = 10 }
  for k, v in pairs(t) do o[k] = v end
  return o
end

return {
  -- paper
  { "A4 in points", function()
    local w, h = paper.size("A4")
    near(w, 210 * MM); near(h, 297 * MM)
  end },
  { "A5, B5, C5, A10, B0", function()
    local w, h = paper.size("A5"); near(w, 148 * MM); near(h, 210 * MM)
    w, h = paper.size("B5"); near(w, 176 * MM); near(h, 250 * MM)
    w, h = paper.size("C5"); near(w, 162 * MM); near(h, 229 * MM)
    w, h = paper.size("A10"); near(w, 26 * MM); near(h, 37 * MM)
    w, h = paper.size("B0"); near(w, 1000 * MM); near(h, 1414 * MM)
  end },
  { "ANSI sizes", function()
    eq({ paper.size("letter") }, { 612, 792 })
    eq({ paper.size("legal") }, { 612, 1008 })
    eq({ paper.size("tabloid") }, { 792, 1224 })
    eq({ paper.size("ledger") }, { 1224, 792 })
  end },
  { "orientation", function()
    local w, h = paper.size("A4", "landscape")
    near(w, 297 * MM); near(h, 210 * MM)
    eq({ paper.size("ledger", "portrait") }, { 792, 1224 })
    eq({ paper.size("letter", "portrait") }, { 612, 792 })
    eq({ paper.size("a4") }, { paper.size("A4") })
  end },
  { "unknown paper lists the valid ones", paper.size, { "A11" }, false,
    "unknown paper size 'A11' %(expected A0, A1, .*letter" },
  { "bad orientation", paper.size, { "A4", "sideways" }, false, "expected 'portrait' or 'landscape'" },
  { "units", function()
    near(paper.parse_length("210mm"), 210 * MM)
    near(paper.parse_length("2.1cm"), 21 * MM)
    eq(paper.parse_length("1in"), 72)
    eq(paper.parse_length("12pt"), 12)
    eq(paper.parse_length("96px"), 72.0)
    eq(paper.parse_length("12"), 12)
    eq(paper.parse_length(" -3.5 pt "), -3.5)
    eq(paper.parse_length(7), 7)
  end },
  { "bad lengths", function()
    local v, err = paper.parse_length("12furlongs")
    eq(v, nil); assert(err:find("bad unit in '12furlongs'"), err)
    v, err = paper.parse_length("mm")
    eq(v, nil); assert(err:find("bad length 'mm'"), err)
    v, err = paper.parse_length({})
    eq(v, nil); assert(err:find("expected a length, got table"), err)
  end },

  -- measuring and breaking
  { "measure", function()
    eq(layout.measure({ font = f, size = 10 }, "AB CD"), 35.0)
    eq(layout.measure({ font = f, size = 20 }, "A"), 16.0)
    eq(layout.measure({ font = f, size = 10, tracking = 1 }, "ABC"), 27.0)
  end },
  { "greedy breaks at spaces", function()
    local lines, over = layout.lines("AB CD ABCD A BC", opts { width = 45 })
    eq(texts(lines), { "AB CD", "ABCD A", "BC" })
    eq(over, nil)
  end },
  { "a word wider than the line stands alone", function()
    local lines = layout.lines("A ABCDABCD B", opts { width = 20 })
    eq(texts(lines), { "A", "ABCDABCD", "B" })
  end },
  { "no break at U+00A0", function()
    local lines = layout.lines("AB\u{A0}CD AB", opts { width = 40 })
    eq(texts(lines), { "AB\u{A0}CD", "AB" })
  end },
  { "breaks after hyphens and en dashes", function()
    local lines = layout.lines("AB-CD", opts { width = 25 })
    eq(texts(lines), { "AB-", "CD" })
    lines = layout.lines("AB\u{2013}CD", opts { width = 25 })
    eq(texts(lines), { "AB\u{2013}", "CD" })
  end },
  { "breaks between CJK characters", function()
    local lines = layout.lines("\u{4E00}\u{4E01}\u{4E02}", opts { width = 6 })
    eq(#lines, 3)
    eq(lines[1].text, "\u{4E00}")
  end },
  { "emoji ZWJ sequences stay whole", function()
    local seq = "\u{1F468}\u{200D}\u{1F469}"
    local lines = layout.lines(seq .. seq, opts { width = 1 })
    eq(texts(lines), { seq, seq })
  end },
  { "newline starts a paragraph, U+2028 breaks a line", function()
    local lines = layout.lines("AB\nCD\u{2028}A", opts { width = 100, first_line_indent = 5 })
    eq(texts(lines), { "AB", "CD", "A" })
    eq(lines[1].x, 5.0); eq(lines[2].x, 5.0); eq(lines[3].x, 0)
  end },

  -- alignment and vertical placement
  { "left, right, center x", function()
    local l = layout.lines("AB", opts { width = 100, x = 10 })
    eq(l[1].x, 10)
    l = layout.lines("AB", opts { width = 100, x = 10, align = "right" })
    eq(l[1].x, 10 + 84.0)
    l = layout.lines("AB", opts { width = 100, align = "center" })
    eq(l[1].x, 42.0)
  end },
  { "justify fills the measure, last line left", function()
    local lines = layout.lines("A B C D A B C D", opts { width = 50, align = "justify" })
    eq(texts(lines), { "A B C D", "A B C D" })
    near(lines[1].width, 50)
    local last = lines[1].items[#lines[1].items]
    near(last.x + last.width, 50, "right edge")
    near(lines[1].items[2].x - lines[1].items[1].x, 8 + (50 - 41) / 3 + 3, "gap")
    eq(lines[2].width, 41.0)
  end },
  { "baselines: ascender then leading", function()
    local lines = layout.lines("A\nB\nC", opts { width = 100, y = 5, leading = 20 })
    eq(lines[1].y, 13.0); eq(lines[2].y, 33.0); eq(lines[3].y, 53.0)
    lines = layout.lines("A\nB", opts { width = 100 })
    eq(lines[2].y - lines[1].y, 12.0)
  end },
  { "valign middle and bottom", function()
    local _, _, used = layout.lines("A", opts { width = 100, height = 50 })
    eq(used, 10.0)
    local l = layout.lines("A", opts { width = 100, height = 50, valign = "bottom" })
    eq(l[1].y, 48.0)
    l = layout.lines("A", opts { width = 100, height = 50, valign = "middle" })
    eq(l[1].y, 28.0)
  end },
  { "overflow of a small frame", function()
    local lines, over = layout.lines("AB CD ABCD A BC", opts { width = 45, height = 25 })
    eq(texts(lines), { "AB CD", "ABCD A" })
    eq(over, "BC")
    lines, over = layout.lines("AB\nCD DA", opts { width = 40, height = 5 })
    eq(#lines, 0)
    eq(over, "AB\nCD DA")
  end },

  -- runs
  { "runs of different sizes share a line", function()
    local lines = layout.lines({ { text = "AB " }, { text = "CD", size = 20 }, { text = " A" } },
      opts { width = 100 })
    eq(texts(lines), { "AB CD A" })
    eq(#lines[1].items, 3)
    eq(lines[1].items[2].x, 19.0)
    eq(lines[1].items[3].x, 19 + 32 + 3.0)
    eq(lines[1].y, 16.0)       -- the larger run's ascender
  end },
  { "a run boundary inside a word is no break", function()
    local lines = layout.lines({ { text = "AB" }, { text = "CD", color = "#ff0000" } }, opts { width = 20 })
    eq(texts(lines), { "ABCD" })
  end },

  -- drawing
  { "draw returns overflow and line count", function()
    local c = ct.canvas { width = 100, height = 100 }
    local over, n = layout.draw(c, "AB CD ABCD A BC", opts { width = 45, height = 25, palette = "dark" })
    eq(over, "BC"); eq(n, 2)
    over, n = layout.draw(c, "AB CD", opts { width = 60, tracking = 2, color = "#ff0000" })
    eq(over, nil); eq(n, 1)
  end },
  { "tracking draws glyph by glyph", function()
    local c = ct.canvas { width = 200, height = 60 }
    c:background("#ffffff")
    layout.draw(c, "AB", { font = f, size = 40, width = 200, tracking = 20, y = 5 })
    local path = tmpname(".png")
    assert(c:write(path))
    -- B starts at 32 + 20 = 52 pt: its square covers x = 52 + 2..30 at mid-height
    local r, g, b = ct.read_png_pixel(path, 40, 30)
    eq({ r, g, b }, { 255, 255, 255 }, "gap between A and B")
    local c2 = ct.canvas { width = 200, height = 60 }
    c2:background("#ffffff")
    layout.draw(c2, "AB", { font = f, size = 40, width = 200, y = 5 })
    local path2 = tmpname(".png")
    assert(c2:write(path2))
    r, g, b = ct.read_png_pixel(path2, 40, 30)
    assert(not (r == 255 and g == 255 and b == 255), "without tracking, B covers x = 40")
  end },

  -- bad input
  { "width required", layout.lines, { "A", { font = f } }, false, "field 'width': required" },
  { "font required", layout.lines, { "A", { width = 10 } }, false, "field 'font': a Font is required" },
  { "unknown option", layout.lines, { "A", opts { width = 10, widht = 3 } }, false,
    "bad argument #2 to 'lines' %(unknown field 'widht'" },
  { "bad align", layout.lines, { "A", opts { width = 10, align = "middle" } }, false,
    "field 'align': expected left, right, center or justify" },
  { "bad valign", layout.draw, { ct.canvas { width = 9, height = 9 }, "A", opts { width = 10, valign = "up" } },
    false, "bad argument #2 to 'draw' %(field 'valign'" },
  { "bad width", layout.lines, { "A", opts { width = -1 } }, false, "field 'width': must be > 0" },
  { "bad text", layout.lines, { 42, opts { width = 10 } }, false, "string or list of runs expected" },
  { "bad run key", layout.lines, { { { text = "A", colour = "#fff" } }, opts { width = 10 } }, false,
    "run 1: unknown field 'colour'" },
  { "invalid UTF-8", layout.lines, { "A\xff", opts { width = 10 } }, false, "not valid UTF%-8" },
}
