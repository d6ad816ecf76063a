-- test_breaker.lua: line breaking (chromatype.linebreak through chromatype.layout): the
-- optimal breaker against first fit by the same demerits, the adjustment ratios and the
-- justified spacing they give, looseness, tolerance passes, hyphenation demerits, emergency
-- breaks inside words, lines of different widths, overflow into another frame, speed on a
-- long paragraph, and the `breaker` attribute of documents with its errors.
-- Font: ct-wdth.ttf at size 10: letters 5 pt, space 2.5 pt (stretch 1.25, shrink 0.8333),
-- hyphen 3 pt, period and comma 2 pt.
local ct = require "chromatype"
local layout = require "chromatype.layout"
local linebreak = require "chromatype.linebreak"
local document = require "chromatype.document"

local w = assert(ct.open_font(font_path("ct-wdth.ttf")))

local TEXT = "Far out in the uncharted backwaters of the unfashionable end of the western spiral "
  .. "arm of the Galaxy lies a small unregarded yellow sun. Orbiting this at a distance of roughly "
  .. "ninety-two million miles is an utterly insignificant little blue green planet whose "
  .. "ape-descended life forms are so amazingly primitive that they still think digital watches "
  .. "are a pretty neat idea."

local function opts(t)
  local o = { font = w, size = 10, align = "justify" }
  for k, v in pairs(t) do o[k] = v end
  return o
end

local function near(a, b, what, tol)
  if math.abs(a - b) > (tol or 1e-6) then error(("%s: %s ~= %s"):format(what or "value", a, b), 2) end
end

-- The loosest ratio of the lines that are not a paragraph's last.
local function loosest(lines)
  local m = 0
  for i, l in ipairs(lines) do
    if i < #lines and l.ratio > m then m = l.ratio end
  end
  return m
end

-- TeX's demerits written out again from each line's ratio (no hyphens in the text):
-- (10 + 100 |r|^3)^2, 10000 more when the fitness classes of two lines are further than
-- one apart.  A line without spaces (r = inf) is rated with 1/8 em of stretch.
local function demerits_again(lines, width)
  local total, prev = 0, nil
  for i, l in ipairs(lines) do
    local r = l.ratio
    if r == math.huge then r = (width - l.natural) / (10 / 8) end
    local b = 100 * math.abs(r) ^ 3
    if i == #lines then b = 0 end
    local fit = (r < 0) and (b > 12.5 and 0 or 1) or (b > 99.5 and 3 or b > 12.5 and 2 or 1)
    local d = (10 + b) ^ 2
    if prev and math.abs(fit - prev) > 1 then d = d + 10000 end
    total = total + d
    prev = fit
  end
  return total
end

-- The text back from the lines: hyphens added at breaks taken away, no space after a
-- line that ends at a hyphen of the text.
local function words_of(lines)
  local t = {}
  for _, l in ipairs(lines) do
    local s = l.text
    if l.hyphenated then s = s:gsub("%-$", "") .. "\0"
    elseif s:find("%-$") then s = s .. "\0" end
    t[#t + 1] = s
  end
  return (table.concat(t, " "):gsub("\0 ", ""))
end

return {
  { "scoring: ratio, badness and fitness as in TeX", function()
    local r, b, fit, over = linebreak.fit(100, 90, 20, 5, 0)
    eq({ r, b, fit, over }, { 0.5, 12.5, 1, false })
    r, b, fit = linebreak.fit(100, 80, 20, 5, 0)
    eq({ r, b, fit }, { 1.0, 100.0, 3 })
    r, b, fit = linebreak.fit(100, 104, 20, 5, 0)
    near(r, -0.8); near(b, 51.2); eq(fit, 0)
    r, b, fit, over = linebreak.fit(100, 106, 20, 5, 0)
    eq(over, true, "overfull")
    r, b = linebreak.fit(100, 50, 20, 5, 1)
    eq({ r, b }, { 0, 0 }, "a last line with fill glue")
    r = linebreak.fit(100, 50, 0, 0, 0)
    eq(r, math.huge, "no stretch at all")
  end },
  { "demerits: line penalty, penalties, flagged and adjacent classes", function()
    local P = linebreak.DEFAULTS
    eq(linebreak.demerits(P, 0, 0, false, 1, 1, false, false), 100)
    eq(linebreak.demerits(P, 90, 50, true, 1, 1, false, false), 100 ^ 2 + 50 ^ 2)
    eq(linebreak.demerits(P, 0, 50, true, 1, 1, true, false), 100 + 2500 + 10000, "two hyphens in a row")
    eq(linebreak.demerits(P, 0, -10000, false, 1, 1, true, true), 100 + 5000, "hyphen before the last line")
    eq(linebreak.demerits(P, 0, 0, false, 3, 1, false, false), 100 + 10000, "very loose after decent")
    eq(linebreak.demerits(P, 0, 0, false, 2, 1, false, false), 100, "loose after decent")
  end },
  { "the active-node algorithm finds what greedy misses (abstract boxes and glue)", function()
    -- boxes 3 2 2 5 with glue 1 (stretch 1, shrink 0) on lines of 6: greedy takes "3 2"
    -- (r 0) and leaves "2 5" overfull-free but loose; optimal sets 3 / 2 2 / 5
    local function list()
      local l = {}
      for i, b in ipairs({ 3, 2, 2, 5 }) do
        l[#l + 1] = { type = "box", width = b }
        if i < 4 then l[#l + 1] = { type = "glue", width = 1, stretch = 1, shrink = 0 } end
      end
      l[#l + 1] = { type = "penalty", penalty = 10000 }
      l[#l + 1] = { type = "glue", width = 0, fill = true }
      l[#l + 1] = { type = "penalty", penalty = -10000 }
      return l
    end
    local avail = function() return 6 end
    local greedy = linebreak.first_fit(list(), avail)
    local best, info = linebreak.optimal(list(), avail)
    local _, tg = linebreak.score(list(), greedy, avail)
    local _, tb = linebreak.score(list(), best, avail)
    near(info.total, tb, "the breaker's total is the score's")
    assert(tb < tg, ("optimal %g should beat greedy %g"):format(tb, tg))
    eq(#best, 3)
  end },
  { "optimal: no line looser than first fit's loosest, fewer demerits (same formula)", function()
    for _, width in ipairs({ 150, 170, 200, 240, 280, 310 }) do
      for _, hy in ipairs({ false, true }) do
        local o = { width = width, hyphenate = hy, language = "en-US" }
        local ff = layout.lines(TEXT, opts(o))
        local ff_lines = layout.lines(TEXT, opts { width = width, hyphenate = hy, language = "en-US",
          breaker = "first-fit" })
        local what = ("width %d%s"):format(width, hy and " hyphenated" or "")
        eq(ff[1].breaker, "optimal", what)
        eq(ff_lines[1].breaker, "first-fit", what)
        assert(loosest(ff) <= loosest(ff_lines) + 1e-9,
          ("%s: optimal's loosest line %g, first fit's %g"):format(what, loosest(ff), loosest(ff_lines)))
        assert(ff[1].paragraph_demerits <= ff_lines[1].paragraph_demerits,
          ("%s: demerits %g > first fit's %g"):format(what, ff[1].paragraph_demerits, ff_lines[1].paragraph_demerits))
        eq(words_of(ff), TEXT, what .. ": the words")
        eq(words_of(ff_lines), TEXT, what .. ": first fit's words")
        if not hy then
          near(ff[1].paragraph_demerits, demerits_again(ff, width), what .. ": optimal", 1e-6 * ff[1].paragraph_demerits)
          near(ff_lines[1].paragraph_demerits, demerits_again(ff_lines, width), what .. ": first fit",
            1e-6 * ff_lines[1].paragraph_demerits)
        end
      end
    end
    -- and strictly better where first fit is poor
    local o = layout.lines(TEXT, opts { width = 170, hyphenate = true, language = "en-US" })
    local f = layout.lines(TEXT, opts { width = 170, hyphenate = true, language = "en-US", breaker = "first-fit" })
    assert(o[1].paragraph_demerits < f[1].paragraph_demerits / 10)
    assert(loosest(o) < loosest(f))
  end },
  { "justified spacing follows the ratio: each space stretched or shrunk by its own share", function()
    local lines = layout.lines(TEXT, opts { width = 240, hyphenate = true, language = "en-US" })
    local shrunk, stretched = 0, 0
    for i, l in ipairs(lines) do
      local spaces = select(2, l.text:gsub(" ", ""))
      if i < #lines and spaces > 0 then
        local r = l.ratio
        near(r, (240 - l.natural) / (spaces * 2.5 / (r > 0 and 2 or 3)), "ratio of line " .. i)
        assert(r >= -1, "no line shrinks beyond its shrink")
        local gap = 2.5 * (1 + (r > 0 and r / 2 or r / 3))
        for k = 2, #l.items do
          local a, b = l.items[k - 1], l.items[k]
          local d = b.x - (a.x + a.width)
          if d > 1e-9 then near(d, gap, "space of line " .. i) end
        end
        local last = l.items[#l.items]
        near(last.x + last.width, 240, "right edge of line " .. i)
        if r < 0 then shrunk = shrunk + 1 else stretched = stretched + 1 end
      end
    end
    eq(lines[#lines].ratio, 0, "the last line")
    assert(stretched > 0)
  end },
  { "justified right-to-left paragraphs fill the measure too", function()
    local dejavu = ct.open_font("DejaVu Sans")
    if not dejavu then return end
    local he = ("שלום עולם זהו טקסט בעברית שנועד לבדוק יישור לשני הצדדים עם שבירת שורות "):rep(3)
    local lines = layout.lines(he, { font = dejavu, size = 10, width = 200, align = "justify" })
    assert(#lines > 2)
    for i = 1, #lines - 1 do
      local lo, hi = math.huge, -math.huge
      for _, it in ipairs(lines[i].items) do lo = math.min(lo, it.x); hi = math.max(hi, it.x + it.width) end
      near(lo, 0, "left edge of line " .. i, 1e-6)
      near(hi, 200, "right edge of line " .. i, 1e-6)
    end
    eq(lines[1].rtl, true)
  end },
  { "a justified line that needs its shrink", function()
    -- three words of 25 and two spaces of 2.5: 80, shrink 1.67; on 78.5 ratio -0.9
    local lines = layout.lines("abcde abcde abcde abcde abcde abcde", opts { width = 78.5 })
    eq(lines[1].text, "abcde abcde abcde")
    assert(lines[1].ratio < 0 and lines[1].ratio >= -1, "shrunk: " .. lines[1].ratio)
    near(lines[1].ratio, -0.9)
    local last = lines[1].items[#lines[1].items]
    near(last.x + last.width, 78.5, "right edge")
  end },
  { "looseness: one line more, or fewer where the shrink allows", function()
    local base = layout.lines(TEXT, opts { width = 240, hyphenate = true, language = "en-US" })
    local more = layout.lines(TEXT, opts { width = 240, hyphenate = true, language = "en-US", looseness = 1 })
    eq(#more, #base + 1)
    local two = layout.lines(TEXT, opts { width = 240, hyphenate = true, language = "en-US", looseness = 2 })
    eq(#two, #base + 2)
    eq(words_of(more), TEXT)
    -- per paragraph
    local lines = layout.paragraphs({ { { text = TEXT }, looseness = 1 }, { { text = TEXT } } },
      opts { width = 240, hyphenate = true, language = "en-US" })
    local per = {}
    for _, l in ipairs(lines) do per[l.paragraph] = (per[l.paragraph] or 0) + 1 end
    eq(per, { #base + 1, #base })
  end },
  { "looseness -1: fewer lines where the glue can shrink enough (abstract list)", function()
    -- twelve boxes of 10, glue 2 that shrinks by 4, lines of 34: four lines of three
    -- exactly (r = 0), or three of four shrunk in full (r = -1)
    local function list()
      local l = {}
      for i = 1, 12 do
        l[#l + 1] = { type = "box", width = 10 }
        if i < 12 then l[#l + 1] = { type = "glue", width = 2, stretch = 1, shrink = 4 } end
      end
      l[#l + 1] = { type = "penalty", penalty = 10000 }
      l[#l + 1] = { type = "glue", width = 0, fill = true }
      l[#l + 1] = { type = "penalty", penalty = -10000 }
      return l
    end
    local avail = function() return 34 end
    eq(#linebreak.optimal(list(), avail), 4)
    local fewer, info = linebreak.optimal(list(), avail, { looseness = -1 })
    eq(#fewer, 3); eq(info.looseness, -1)
    local more, info2 = linebreak.optimal(list(), avail, { looseness = 1 })
    eq(#more, 5); eq(info2.looseness, 1)
    local few2, info3 = linebreak.optimal(list(), avail, { looseness = -2 })
    eq(#few2, 3, "as close as it gets"); eq(info3.looseness, -1)
  end },
  { "the passes: without hyphens first, with them when that fails", function()
    local easy = layout.lines(TEXT, opts { width = 400, hyphenate = true, language = "en-US" })
    eq(easy[1].pass, 1)
    for _, l in ipairs(easy) do assert(not l.hyphenated) end
    local hard = layout.lines(TEXT, opts { width = 170, hyphenate = true, language = "en-US" })
    eq(hard[1].pass, 4, "not within the tolerance: the last pass")
    local em = layout.lines(TEXT, opts { width = 170, hyphenate = true, language = "en-US", emergency_stretch = 20 })
    eq(em[1].pass, 3, "TeX's emergency pass, with emergency_stretch")
    local mid = layout.lines(TEXT, opts { width = 240, hyphenate = true, language = "en-US" })
    eq(mid[1].pass, 2, "with hyphenation at the tolerance")
    local any = false
    for _, l in ipairs(hard) do if l.hyphenated then any = true; assert(l.text:find("%-$")) end end
    assert(any, "hyphenated somewhere")
    -- two hyphenated lines in a row cost 10000 more: check the formula on the result
    for i = 2, #hard do
      if hard[i].hyphenated and hard[i - 1].hyphenated then
        assert(hard[i].demerits >= 10000 + 50 ^ 2)
      end
    end
  end },
  { "emergency breaks: a word wider than the measure, at grapheme boundaries", function()
    local word = ("e\u{301}"):rep(12)          -- 12 graphemes of two characters
    local got = {}
    local prev = ct.on_warning(function(m) got[#got + 1] = m end)
    local ok, err = pcall(function()
      for _, breaker in ipairs({ "first-fit", "optimal" }) do
        local lines = layout.lines("ab " .. word .. " cd", opts { width = 22, breaker = breaker, language = "zz" })
        local joined = {}
        for _, l in ipairs(lines) do
          assert(l.natural <= 22 + 1e-9 or l.ratio >= -1, breaker .. ": overflowing line " .. l.text)
          -- no line starts with a combining mark
          assert(not l.text:find("^\u{301}"), breaker .. ": a grapheme cut: " .. l.text)
          joined[#joined + 1] = l.text
        end
        eq(table.concat(joined, " "):gsub(" ", ""), ("ab" .. word .. "cd"), breaker)
      end
    end)
    ct.on_warning(prev)
    if not ok then error(err, 0) end
  end },
  { "emergency breaks prefer a hyphenation point", function()
    local lines = layout.lines("hyphenation", opts { width = 40, language = "en-US" })
    eq(lines[1].text, "hyphen-")
    lines = layout.lines("hyphenation", opts { width = 40, language = "en-US", breaker = "first-fit" })
    eq(lines[1].text, "hyphen-")
  end },
  { "lines of different widths: a first-line indent", function()
    local lines = layout.lines(TEXT, opts { width = 240, first_line_indent = 30 })
    assert(lines[1].natural <= 210 + 5 / 6 * 20, "the first line has its own measure")
    local last = lines[1].items[#lines[1].items]
    near(last.x + last.width, 240, "the indented first line ends at the measure")
    near(lines[1].x, 30)
  end },
  { "ragged-right with the optimal breaker: even right edge, natural spaces", function()
    local ff = layout.lines(TEXT, opts { width = 200, align = "start", hyphenate = true, language = "en-US" })
    eq(ff[1].breaker, "first-fit", "the default for ragged text")
    local op = layout.lines(TEXT, opts { width = 200, align = "start", hyphenate = true, language = "en-US",
      breaker = "optimal" })
    eq(op[1].breaker, "optimal")
    local function spread(lines)
      local lo, hi = math.huge, 0
      for i = 1, #lines - 1 do
        lo = math.min(lo, lines[i].natural); hi = math.max(hi, lines[i].natural)
      end
      return hi - lo
    end
    assert(spread(op) <= spread(ff), ("raggedness %g > first fit's %g"):format(spread(op), spread(ff)))
    assert(op[1].paragraph_demerits <= ff[1].paragraph_demerits)
    for _, l in ipairs(op) do
      for k = 2, #l.items do
        local d = l.items[k].x - (l.items[k - 1].x + l.items[k - 1].width)
        assert(d < 1e-9 or math.abs(d - 2.5) < 1e-9, "natural spaces")
      end
    end
  end },
  { "overflow: an optimally broken paragraph goes on in the next frame", function()
    local o = opts { width = 170, height = 40, hyphenate = true, language = "en-US" }
    local first, over = layout.paragraphs(layout.to_paragraphs(TEXT, "t"), o)
    assert(over and #first >= 2)
    local rest = layout.paragraphs(over, opts { width = 170, hyphenate = true, language = "en-US" })
    local all = {}
    for _, l in ipairs(first) do all[#all + 1] = l end
    for _, l in ipairs(rest) do all[#all + 1] = l end
    eq(words_of(all), TEXT)
    eq(rest[1].x, 0, "no indent on the continued paragraph")
  end },
  { "a long paragraph breaks in linear work (active nodes, not every split)", function()
    -- the work is counted, not timed: a breaker that tried every earlier break at each
    -- breakpoint would look at about n²/2 pairs (4.5 million here)
    local function work(nwords)
      local words = {}
      for i = 1, nwords do words[i] = ({ "lorem", "ipsum", "dolor", "sit", "amet", "consectetur" })[i % 6 + 1] end
      local lines = layout.lines(table.concat(words, " "), opts { width = 300 })
      assert(#lines > nwords / 30)
      return lines[1].break_work
    end
    local w1, w3 = work(1000), work(3000)
    assert(w3 < 3000 * 40, ("%d pairs for 3000 words"):format(w3))
    assert(w3 < 3.6 * w1, ("work grows faster than the length: %d then %d"):format(w1, w3))
  end },
  { "empty paragraphs and lines of one word", function()
    local lines = layout.paragraphs({ {}, { { text = "" } }, { { text = "abc" } } }, opts { width = 50 })
    eq(#lines, 3)
    eq(lines[1].ratio, 0); eq(lines[1].paragraph_demerits, 0)
    -- a justified line with one word cannot stretch: it stays at the start, r = inf
    lines = layout.lines("abcdefgh abcdefgh", opts { width = 60 })
    eq(lines[1].ratio, math.huge)
    eq(lines[1].x, 0)
  end },
  { "bad options", function()
    checkerr("field 'breaker': expected optimal or first%-fit, got 'greedy'", layout.lines, "a",
      opts { width = 10, breaker = "greedy" })
    checkerr("field 'looseness': expected an integer", layout.lines, "a", opts { width = 10, looseness = 0.5 })
    checkerr("field 'tolerance': expected a number from 0 to 10000", layout.lines, "a",
      opts { width = 10, tolerance = -1 })
    checkerr("paragraph 1: field 'breaker'", layout.paragraphs, { { { text = "a" }, breaker = 3 } },
      opts { width = 10 })
  end },

  -- documents
  { "XML: breaker on frames, styles and paragraphs", function()
    local xml = ([[<document size="A4" margin="5mm">
<style name="default" font="%s" size="10pt" align="justify"/>
<style name="greedy" breaker="first-fit"/>
<page>
  <frame x="5mm" y="5mm" width="60mm" height="250mm" breaker="first-fit" hyphenate="yes" lang="en-US">
    <p>%s</p>
    <p breaker="optimal" looseness="1" tolerance="300">%s</p>
    <p style="greedy">%s</p>
  </frame>
</page>
</document>]]):format(font_path("ct-wdth.ttf"), TEXT, TEXT, TEXT)
    local d = document.from_xml(xml, "t.xml")
    local sheets = d:typeset()
    local per = {}
    for _, l in ipairs(sheets[1].frames[1].lines) do
      local p = per[l.paragraph] or { n = 0 }
      per[l.paragraph] = p
      p.n = p.n + 1
      p.breaker = p.breaker or l.breaker
    end
    eq(per[1].breaker, "first-fit")
    eq(per[2].breaker, "optimal")
    eq(per[3].breaker, "first-fit")
  end },
  { "XML: bad breaker values name the file, line and element", function()
    local function bad(attr)
      return ([[<document size="A6">
<style name="default" font="%s"/>
<page>
<frame width="50mm" height="50mm">
<p %s>text</p>
</frame></page></document>]]):format(font_path("ct-wdth.ttf"), attr)
    end
    checkerr("^t%.xml:5: <p>: breaker: expected optimal, first%-fit, got 'tex'$", document.from_xml, bad('breaker="tex"'), "t.xml")
    checkerr("^t%.xml:5: <p>: looseness: expected an integer from %-100 to 100, got '1%.5'$", document.from_xml,
      bad('looseness="1.5"'), "t.xml")
    checkerr("^t%.xml:5: <p>: tolerance: expected a number from 0 to 10000, got 'lots'$", document.from_xml,
      bad('tolerance="lots"'), "t.xml")
    checkerr("^t%.xml:2: <style>: breaker: expected optimal, first%-fit, got 'x'$", document.from_xml,
      ([[<document size="A6">
<style name="default" font="%s" breaker="x"/>
<page/></document>]]):format(font_path("ct-wdth.ttf")), "t.xml")
  end },
}
