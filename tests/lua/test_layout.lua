-- test_layout.lua: chromatype.paper (sizes, units) and chromatype.layout (break
-- positions, alignment, justification, overflow, runs, tracking, bad input).
-- Font: ct-colr0.ttf at size 10: A-D advance 8 pt, space 3 pt, '-' (.notdef) 5 pt.
local ct = require "chromatype"
local paper = require "chromatype.paper"
local layout = require "chromatype.layout"

local f = assert(ct.open_font(font_path("ct-colr0.ttf")))
local MM = 72 / 25.4

-- ct-wdth.ttf at size 10: letters 5 pt (2.5 at wdth 50), space 2.5, hyphen 3, .alt1 3.5
local w = assert(ct.open_font(font_path("ct-wdth.ttf")))
local dejavu = ct.open_font("DejaVu Sans")
local twemoji = assert(ct.open_font(font_path("twemoji-colr0.woff2")))

local function wopts(t)
  local o = { font = w, size = 10 }
  for k, v in pairs(t) do o[k] = v end
  return o
end

local function warnings(fn)
  local got = {}
  local prev = ct.on_warning(function(m) got[#got + 1] = m end)
  local ok, err = pcall(fn)
  ct.on_warning(prev)
  if not ok then error(err, 0) end
  return got
end

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
  { "a word wider than the line is broken inside (emergency break)", function()
    for _, breaker in ipairs({ "first-fit", "optimal" }) do
      local lines = layout.lines("A ABCDABCD B", opts { width = 20, breaker = breaker })
      local all = {}
      for _, l in ipairs(lines) do
        assert(l.natural <= 20 + 1e-9, breaker .. ": a line wider than the measure: " .. l.text)
        all[#all + 1] = l.text:gsub("%-$", ""):gsub(" ", "")
      end
      eq(table.concat(all), "AABCDABCDB", breaker)
      if breaker == "first-fit" then eq(lines[1].text, "A") end
    end
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
    local lines = layout.lines("A B C D A B C D", opts { width = 50, align = "justify", breaker = "first-fit" })
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
  { "space before and after paragraphs", function()
    local paras = { { { text = "A" }, space_after = 4 }, { { text = "B" }, space_before = 6 }, { { text = "C" } } }
    local lines = layout.paragraphs(paras, opts { width = 100, leading = 20 })
    eq(lines[2].y - lines[1].y, 30.0)
    eq(lines[3].y - lines[2].y, 20.0)
    eq(lines[1].y, 8.0, "no space at the frame top")
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
    local lines = layout.lines({ { text = "A AB" }, { text = "CD", color = "#ff0000" } }, opts { width = 40 })
    eq(texts(lines), { "A", "ABCD" })
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


  -- Unicode line breaking (ICU)
  { "no break before a full stop, even after a space (UAX #14 LB13)", function()
    local lines = layout.lines("ab . cd", wopts { width = 17 })
    eq(texts(lines), { "ab .", "cd" })
    -- too narrow for "ab .": an emergency break inside the word, still none before the stop
    lines = layout.lines("ab . cd", wopts { width = 12 })
    eq(texts(lines), { "a", "b .", "cd" })
  end },
  { "a mandatory break inside a run", function()
    local lines = layout.lines({ { text = "ab\u{2028}cd" } }, wopts { width = 100 })
    eq(texts(lines), { "ab", "cd" })
  end },

  -- fallback chains
  { "a fallback chain picks the first font with the character", function()
    local lines = layout.lines("AB ab", { font = { f, w }, size = 10, width = 100 })
    local it = lines[1].items
    eq(#it, 2)
    eq(it[1].text, "AB"); assert(it[1].font == f, "AB from ct-colr0")
    eq(it[2].text, "ab"); assert(it[2].font == w, "ab from ct-wdth")
    eq(lines[1].natural, 16 + 3 + 10.0)       -- the space stays in ct-colr0 (300 units)
  end },
  { "one warning per character no font in the chain has", function()
    local got = warnings(function()
      layout.lines("A\u{20AC} \u{20AC}a", { font = { f, w }, size = 10, width = 100 })
    end)
    eq(#got, 1, "warnings")
    assert(got[1]:find("no font has U%+20AC '\u{20AC}' %(tried .*ct%-colr0%.ttf, .*ct%-wdth%.ttf%)"), got[1])
  end },
  { "emoji presentation prefers a color font", function()
    if not dejavu then return end
    local l = layout.lines("\u{2764}\u{FE0F} \u{2764}", { font = { dejavu, twemoji }, size = 10, width = 100 })
    eq(#l[1].items, 2)
    assert(l[1].items[1].font == twemoji, "U+2764 U+FE0F from Twemoji")
    assert(l[1].items[2].font == dejavu, "U+2764 alone from DejaVu Sans")
  end },
  { "a bad fallback chain", layout.lines, { "a", { font = { w, "x" }, width = 10 } }, false,
    "field 'font': a Font or a list of Fonts is required" },

  -- hyphenation
  { "hyphenation where a dictionary exists", function()
    local lines, over = layout.lines("a hyphenation", wopts { width = 50, hyphenate = true, language = "en-US" })
    eq(texts(lines), { "a hyphen-", "ation" })
    eq(over, nil)
    lines = layout.lines("a hyphenation", wopts { width = 60 })
    eq(texts(lines), { "a", "hyphenation" }, "off by default")
    -- a word wider than the measure breaks at a hyphenation point first, even when off
    lines = layout.lines("a hyphenation", wopts { width = 50 })
    eq(texts(lines), { "a hyphen-", "ation" }, "emergency")
  end },
  { "the overflow goes on after a hyphen", function()
    local _, over = layout.lines("a hyphenation", wopts { width = 50, height = 12, hyphenate = true })
    eq(over, "ation")
  end },
  { "overflow paragraphs keep their runs and say they continue", function()
    local paras = { { { text = "ab cd ef", color = "#ff0000" } }, { { text = "gh" } } }
    local lines, over = layout.paragraphs(paras, wopts { width = 12, height = 12 })
    eq(texts(lines), { "ab" })
    eq(#over, 2)
    eq(over[1][1].text, "cd ef"); eq(over[1][1].color, "#ff0000"); eq(over[1].continued, true)
    eq(over[2][1].text, "gh"); eq(over[2].continued, nil)
    lines = layout.paragraphs(over, wopts { width = 100, first_line_indent = 20 })
    eq(lines[1].x, 0, "a continued paragraph has no indent")
    eq(lines[2].x, 20.0)
  end },

  -- bidi and scripts
  { "a right-to-left run inside a left-to-right line", function()
    if not dejavu then return end
    local l = layout.lines("ab \u{5E9}\u{5DC}\u{5D5}\u{5DD} cd", { font = dejavu, size = 10, width = 300 })
    local it = l[1].items
    eq(#it, 3)
    eq(it[1].text, "ab"); eq(it[2].direction, "rtl"); eq(it[3].text, "cd")
    assert(it[1].x < it[2].x and it[2].x < it[3].x, "visual order")
    eq(l[1].rtl, false)
  end },
  { "a right-to-left paragraph starts at the right", function()
    if not dejavu then return end
    local he = "\u{5E9}\u{5DC}\u{5D5}\u{5DD}"
    local l = layout.lines(he .. " " .. he .. " ab", { font = dejavu, size = 10, width = 300, x = 10 })
    eq(l[1].rtl, true)
    near(l[1].x + l[1].width, 310, "right edge")
    local it = l[1].items
    eq(it[1].text, "ab", "the Latin word is leftmost")
    eq(it[2].direction, "rtl")
    l = layout.lines(he .. " ab", { font = dejavu, size = 10, width = 300, align = "left" })
    eq(l[1].x, 0)
  end },
  { "no tracking inside Arabic words", function()
    if not dejavu then return end
    local ar = "\u{645}\u{631}\u{62D}\u{628}\u{627}"
    local plain = layout.measure({ font = dejavu, size = 10, script = "Arab", direction = "rtl" }, ar)
    local t = layout.measure({ font = dejavu, size = 10, script = "Arab", direction = "rtl", tracking = 2 }, ar)
    eq(t, plain)
  end },

  -- fitting
  { "fit a line by tracking: not enough alone", function()
    local lines, _, _, fit = layout.lines("abcdefghij", wopts { width = 40, fit_to = "line", fit = "tracking" })
    eq(fit.fits, false)
    eq(fit.steps[1].step, "tracking"); near(fit.steps[1].value, -0.05)
    near(lines[1].natural, 45, "ten glyphs at -0.5 pt each")
  end },
  { "fit a line by the width axis", function()
    local lines, _, _, fit = layout.lines("abcdefghij", wopts { width = 40, fit_to = "line", fit = { "width" } })
    eq(fit.fits, true)
    assert(math.abs(fit.steps[1].value - 80) < 0.5, "wdth " .. fit.steps[1].value)
    assert(lines[1].natural <= 40 + 1e-6 and lines[1].natural > 39.5, "natural " .. lines[1].natural)
  end },
  { "the width step starts from the font's current width and leaves the font alone", function()
    local w2 = assert(ct.open_font(font_path("ct-wdth.ttf")))
    w2:set_variations { wdth = 90 }
    eq(w2:axes()[1].value, 90.0)
    local lines, _, _, fit = layout.lines("abcdefghij", { font = w2, size = 10, width = 40, fit_to = "line", fit = "width" })
    eq(fit.fits, true)
    assert(math.abs(fit.steps[1].value - 80) < 0.5, "wdth " .. fit.steps[1].value)
    eq(w2:axes()[1].value, 90.0, "the caller's font keeps its width")
    assert(lines[1].items[1].font ~= w2, "drawn with an instance")
  end },
  { "fit a line by alternates", function()
    local lines, _, _, fit = layout.lines("abcdefghij", wopts { width = 40, fit_to = "line", fit = "alternates" })
    eq(fit.fits, true)
    eq(fit.steps[1].value, "jalt")
    near(lines[1].natural, 35)
  end },
  { "fit cascade: tracking to its minimum, then size", function()
    local lines, _, _, fit = layout.lines("abcdefghij", wopts { width = 40, fit_to = "line",
      fit = "tracking, size", fit_tracking = -0.05 })
    eq(fit.fits, true)
    eq(#fit.steps, 2)
    near(fit.steps[1].value, -0.05)
    assert(math.abs(fit.steps[2].value - 40 / 45) < 0.002, "scale " .. fit.steps[2].value)
    assert(lines[1].natural <= 40 + 1e-6, "fits")
  end },
  { "fit a frame by size: the overflow is gone", function()
    local text = "ab cd ef gh ij kl mn op"
    local _, over = layout.lines(text, wopts { width = 30, height = 40 })
    assert(over, "overflows at full size")
    local lines, over2, _, fit = layout.lines(text, wopts { width = 30, height = 40, fit = "size", fit_size = 0.3 })
    eq(over2, nil)
    eq(fit.fits, true)
    assert(fit.steps[1].value < 1 and fit.steps[1].value >= 0.3, "scale")
    assert(#lines >= 4, "lines")
  end },
  { "fit that cannot succeed leaves an overflow", function()
    local _, over, _, fit = layout.lines("ab cd ef gh ij kl mn op", wopts { width = 30, height = 10, fit = "size",
      fit_size = 0.9 })
    eq(fit.fits, false)
    assert(over, "overflow")
  end },
  { "bad fit step", layout.lines, { "a", wopts { width = 10, fit = "squeeze" } }, false,
    "field 'fit': unknown step 'squeeze'" },
  { "bad fit_to", layout.lines, { "a", wopts { width = 10, fit_to = "page" } }, false,
    "field 'fit_to': expected frame or line" },

  -- bad input
  { "width required", layout.lines, { "A", { font = f } }, false, "field 'width': required" },
  { "font required", layout.lines, { "A", { width = 10 } }, false, "field 'font': a Font is required" },
  { "unknown option", layout.lines, { "A", opts { width = 10, widht = 3 } }, false,
    "bad argument #2 to 'lines' %(unknown field 'widht'" },
  { "bad align", layout.lines, { "A", opts { width = 10, align = "middle" } }, false,
    "field 'align': expected start, end, left, right, center or justify" },
  { "bad valign", layout.draw, { ct.canvas { width = 9, height = 9 }, "A", opts { width = 10, valign = "up" } },
    false, "bad argument #2 to 'draw' %(field 'valign'" },
  { "bad width", layout.lines, { "A", opts { width = -1 } }, false, "field 'width': must be > 0" },
  { "bad text", layout.lines, { 42, opts { width = 10 } }, false, "string or list of runs expected" },
  { "bad run key", layout.lines, { { { text = "A", colour = "#fff" } }, opts { width = 10 } }, false,
    "run 1: unknown field 'colour'" },
  { "invalid UTF-8", layout.lines, { "A\xff", opts { width = 10 } }, false, "not valid UTF%-8" },
}
