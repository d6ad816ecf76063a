-- test_doc_frames.lua: columns, boxes and rules in documents (chromatype.frames through
-- chromatype.document): balanced columns (line counts within one, words in reading order
-- at the x of their column), columns filled in order and overflowing into the frame that
-- follows and onto continuation pages, valign in columns, the box and the rules by their
-- pixels in a PNG, and one-line errors for bad attributes and bad Lua arguments.
local ct = require "chromatype"
local document = require "chromatype.document"

local FONT = ROOT .. "/examples/fonts/bungee-latin.woff2"
local MM = 72 / 25.4

-- "W01 W02 ... Wn" (Bungee has capitals and digits)
local function words(from, to)
  local t = {}
  for i = from, to do t[#t + 1] = ("W%02d"):format(i) end
  return table.concat(t, " ")
end

local function doc(body, attrs)
  return ('<document size="A5" margin="10mm" %s>\n'
    .. '<style name="default" font="%s" size="10pt"/>\n%s\n</document>\n'):format(attrs or "", FONT, body)
end

local function typeset(xml)
  local d = document.from_xml(xml, "frames.xml")
  return d:typeset()
end

-- The words of lines, in order.
local function line_words(lines, out)
  out = out or {}
  for _, l in ipairs(lines) do for w in l.text:gmatch("W%d+") do out[#out + 1] = w end end
  return out
end

local function all_words(from, to)
  local t = {}
  for w in words(from, to):gmatch("%S+") do t[#t + 1] = w end
  return t
end

-- Lines of a frame by column (line.column; a frame of one column has none: all in 1).
local function by_column(lines)
  local cols = {}
  for _, l in ipairs(lines) do
    local c = l.column or 1
    cols[c] = cols[c] or {}
    table.insert(cols[c], l)
  end
  return cols
end

-- The column (1..n) a line's x is in, from the frame's geometry alone.
local function column_at(x, fx, fw, n, gap)
  local cw = (fw - (n - 1) * gap) / n
  for i = 1, n do
    local x0 = fx + (i - 1) * (cw + gap)
    if x >= x0 - 1e-6 and x < x0 + cw then return i end
  end
  return nil
end

local function find_line(lines, word)
  for _, l in ipairs(lines) do
    for w in l.text:gmatch("W%d+") do if w == word then return l end end
  end
end

local function near(got, want, tol, what)
  for i = 1, #want do
    if math.abs(got[i] - want[i]) > (tol or 2) then
      error(("%s: got {%s}, want {%s}"):format(what or "pixel", table.concat(got, ", "), table.concat(want, ", ")), 2)
    end
  end
end

local cases = {}
local function case(name, f) cases[#cases + 1] = { name, f } end

case("columns balance: counts within one line, words in order, each in its column", function()
  -- frame: x = 10 mm, 100 mm wide, 3 columns 5 mm apart, tall enough for every text here
  for _, n in ipairs({ 3, 7, 20, 31, 44, 61 }) do
    local half = n // 2
    local xml = doc(('<page><frame x="10mm" y="10mm" width="100mm" height="150mm" columns="3" column-gap="5mm" '
      .. 'column-fill="balance"><p>%s</p><p>%s</p></frame></page>'):format(words(1, half), words(half + 1, n)))
    local sheets = typeset(xml)
    eq(#sheets, 1)
    local fr = sheets[1].frames[1]
    eq(line_words(fr.lines), all_words(1, n))
    local cols = by_column(fr.lines)
    local counts, lo, hi = {}, math.huge, 0
    local ncols = 0
    for i = 1, 3 do
      counts[i] = cols[i] and #cols[i] or 0
      if counts[i] > 0 then ncols = i end
    end
    for i = 1, 3 do lo, hi = math.min(lo, counts[i]), math.max(hi, counts[i]) end
    local total = #fr.lines
    if total >= 3 then
      assert(hi - lo <= 1, ("%d words: columns of %s lines"):format(n, table.concat(counts, ", ")))
    end
    -- columns are taken left to right, the fuller ones first
    for i = 2, 3 do assert(counts[i] <= counts[i - 1], ("%d words: %s"):format(n, table.concat(counts, ", "))) end
    -- every line at the x of its column, by the frame's geometry (sheet offset 0: no bleed)
    for _, l in ipairs(fr.lines) do
      eq(column_at(l.x, 10 * MM, 100 * MM, 3, 5 * MM), l.column)
    end
    -- known words: the first in column 1, the last in the last column holding lines
    eq(column_at(find_line(fr.lines, "W01").x, 10 * MM, 100 * MM, 3, 5 * MM), 1)
    eq(column_at(find_line(fr.lines, ("W%02d"):format(n)).x, 10 * MM, 100 * MM, 3, 5 * MM), ncols)
    -- columns start at the frame's top: the first line of each column on the same baseline
    for i = 2, ncols do eq(math.abs(cols[i][1].y - cols[1][1].y) < 1e-6, true) end
  end
end)

case("balance never overflows where filling in order fits (rules late in the text: balanced by height)", function()
  -- the rules' room sits in the last column: sharing out lines alone overflows frames of 29
  -- to 39 mm that hold the text filled in order (seen with the height fallback taken out)
  local body = ('<p>%s</p><rule space="10pt"/><p>%s</p><rule space="10pt"/><p>%s</p><rule space="10pt"/>'
    .. '<p>%s</p><rule space="10pt"/><p>%s</p>'):format(words(1, 40), words(41, 44), words(45, 48), words(49, 52),
    words(53, 56))
  local fits = 0
  for h = 20, 60 do
    local function run(fill)
      local d = document.from_xml(doc(('<page><frame height="%dmm" columns="3" column-fill="%s" overflow="hide">%s</frame></page>')
        :format(h, fill, body)), "b.xml")
      local sheets, report = d:typeset()
      return sheets[1].frames[1], #report.overflows > 0
    end
    local _, auto_over = run("auto")
    local bal, bal_over = run("balance")
    assert(not bal_over or auto_over, ("height %d mm: balance overflows where auto fits"):format(h))
    if not auto_over then
      fits = fits + 1
      eq(line_words(bal.lines), all_words(1, 56))
    end
  end
  assert(fits > 10)
end)

case("columns: paragraph numbers go on across columns (one paragraph cut in two keeps its number)", function()
  local sheets = typeset(doc(('<page><frame height="60mm" columns="2" column-fill="balance"><p>%s</p><p>%s</p></frame></page>')
    :format(words(1, 30), words(31, 36))))
  local fr = sheets[1].frames[1]
  local cols = by_column(fr.lines)
  eq(cols[1][1].paragraph, 1)
  eq(cols[2][1].paragraph, 1)          -- the first paragraph goes on in column 2
  eq(fr.lines[#fr.lines].paragraph, 2)
  -- the filter tree sees two paragraphs
  local filter = require "chromatype.filter"
  local tree = filter.build(nil, sheets)
  eq(#tree.pages[1].frames[1].paragraphs, 2)
end)

case("columns fill in order by default (auto): the first column full, then the next", function()
  local sheets = typeset(doc(('<page><frame height="30mm" columns="3"><p>%s</p></frame></page>'):format(words(1, 40))))
  local fr = sheets[1].frames[1]
  eq(line_words(fr.lines), all_words(1, 40))
  local cols = by_column(fr.lines)
  assert(cols[1] and cols[2], "two columns expected")
  -- column 1 holds as many lines as a frame of that height does
  local one = typeset(doc(('<page><frame height="30mm" width="%gpt" overflow="hide"><p>%s</p></frame></page>')
    :format((128 * MM - 2 * 10) / 3, words(1, 40))))
  eq(#cols[1], #one[1].frames[1].lines)
  assert(#cols[1] > #cols[2] or not cols[3], "auto fill is not balanced")
end)

case("columns overflow in order: column 3 into the frame that follows", function()
  local xml = doc(('<page><frame id="a" y="10mm" height="20mm" columns="3" column-gap="4mm"><p>%s</p></frame>'
    .. '<frame follows="a" y="40mm" height="100mm" columns="2"/></page>'):format(words(1, 80)))
  local sheets = typeset(xml)
  local a, b = sheets[1].frames[1], sheets[1].frames[2]
  local ca = by_column(a.lines)
  eq(#ca, 3)
  assert(#b.lines > 0, "nothing flowed into the next frame")
  -- the words of a's three columns, then b's, are the text in order, none lost
  local got = line_words(a.lines)
  line_words(b.lines, got)
  eq(got, all_words(1, 80))
  -- the last word of a's column 3 comes right before b's first word
  local last3 = line_words(ca[3])
  local firstb = line_words({ b.lines[1] })
  eq(tonumber(firstb[1]:sub(2)), tonumber(last3[#last3]:sub(2)) + 1)
end)

case("columns with overflow=continue: full pages fill in order, the last page balances", function()
  local xml = doc(('<page><frame y="10mm" height="25mm" columns="2" column-fill="balance" overflow="continue">'
    .. '<p>%s</p></frame></page>'):format(words(1, 150)))
  local sheets = typeset(xml)
  assert(#sheets >= 3, "expected continuation pages, got " .. #sheets)
  local got = {}
  for _, sh in ipairs(sheets) do line_words(sh.frames[1].lines, got) end
  eq(got, all_words(1, 150))
  local full
  for i, sh in ipairs(sheets) do
    local cols = by_column(sh.frames[1].lines)
    local n1, n2 = #cols[1], cols[2] and #cols[2] or 0
    if i < #sheets then
      eq(n1, n2)                       -- both columns full
      full = full or n1
      eq(n1, full)
    else
      assert(math.abs(n1 - n2) <= 1 and n1 >= n2, ("last page: %d and %d lines"):format(n1, n2))
      assert(n1 < full, "the last page is not balanced")
    end
  end
end)

case("valign in columns: each column sits at the bottom of the frame", function()
  local sheets = typeset(doc(('<page><frame y="20mm" height="80mm" columns="3" column-fill="balance" valign="bottom" '
    .. 'padding="2mm" border="1mm #000"><p>%s</p></frame></page>'):format(words(1, 22))))
  local fr = sheets[1].frames[1]
  local bottom = 20 * MM + 80 * MM - 2 * MM - 1 * MM
  for i, col in ipairs(by_column(fr.lines)) do
    local l = col[#col]
    assert(math.abs(l.y + l.descent - bottom) < 1e-6, ("column %d ends at %g, not %g"):format(i, l.y + l.descent, bottom))
  end
end)

case("the default column gap is 1 em of the frame's size", function()
  local sheets = typeset(doc(('<page><frame x="10mm" width="100mm" columns="2" size="20pt" column-fill="balance"><p>%s</p></frame></page>')
    :format(words(1, 12))))
  local cols = by_column(sheets[1].frames[1].lines)
  local cw = (100 * MM - 20) / 2
  eq(math.abs(cols[2][1].x - (10 * MM + cw + 20)) < 1e-6, true)
end)

case("padding and border inset the text; fit still works inside", function()
  local sheets = typeset(doc(('<page><frame x="20pt" y="30pt" width="200pt" height="100pt" border="3pt red" '
    .. 'padding="5pt 7pt 9pt 11pt"><p>%s</p></frame></page>'):format(words(1, 8))))
  local l = sheets[1].frames[1].lines[1]
  eq(l.x, 20 + 3 + 11)
  eq(math.abs(l.y - l.ascent - (30 + 3 + 5)) < 1e-6, true)
  for _, ln in ipairs(sheets[1].frames[1].lines) do assert(ln.x + ln.width <= 20 + 200 - 3 - 7 + 1e-6) end
  -- fitting in the inner box: a long word shrinks to fit the inner width, not the frame's
  local s2 = typeset(doc('<page><frame x="20pt" width="120pt" height="100pt" padding="0 30pt" fit="size" fit-to="line">'
    .. '<p>W01W02W03</p></frame></page>'))
  local l2 = s2[1].frames[1].lines[1]
  assert(l2.width <= 60 + 1e-3 and l2.width > 55, "fit ignored the padding: " .. l2.width)
end)

-- A 200 × 200 pt page at 72 dpi: one pixel a point.
case("box, column rule and rules: their colors at their places (PNG)", function()
  local out = tmpname() .. ".png"
  local xml = ([[<document size="200pt x 200pt" margin="0" background="#ffffff">
<style name="default" font="%s" size="8pt" color="#000000"/>
<page>
  <frame x="20" y="20" width="160" height="100" background="#00ff00" border="4pt #ff0000" padding="6pt"
         columns="2" column-gap="20pt" column-rule="2pt #0000ff">
    <p>%s</p><rule color="#ff8000" stroke="3pt" length="50%%" align="left" space="4pt"/><p>%s</p>
  </frame>
  <rule x="20" y="150" length="150" stroke="4" color="#ff00ff"/>
  <rule x="190" y="130" length="50" direction="vertical" stroke="4" color="#00ffff"/>
</page></document>]]):format(FONT, words(1, 6), words(7, 40))
  local d = document.from_xml(xml, "box.xml")
  assert(d:write(out, { dpi = 72 }))
  local function px(x, y) return { ct.read_png_pixel(out, x, y) } end
  near(px(21, 60), { 255, 0, 0 }, 2, "left border")
  near(px(100, 22), { 255, 0, 0 }, 2, "top border")
  near(px(178, 60), { 255, 0, 0 }, 2, "right border")
  near(px(100, 117), { 255, 0, 0 }, 2, "bottom border")
  near(px(26, 26), { 0, 255, 0 }, 2, "background in the padding")
  near(px(95, 110), { 0, 255, 0 }, 2, "background in the gap")
  near(px(25, 19), { 255, 255, 255 }, 2, "outside the frame")
  -- inner box x 30..170; columns 60 wide; the column rule centered at x = 100, 2 wide
  near(px(99, 40), { 0, 0, 255 }, 2, "column rule")
  near(px(100, 100), { 0, 0, 255 }, 2, "column rule, low")
  near(px(102, 40), { 0, 255, 0 }, 2, "beside the column rule")
  -- page rules
  near(px(100, 150), { 255, 0, 255 }, 2, "horizontal rule")
  near(px(100, 146), { 255, 255, 255 }, 2, "above the horizontal rule")
  near(px(169, 150), { 255, 0, 255 }, 2, "the horizontal rule's end")
  near(px(171, 150), { 255, 255, 255 }, 2, "past the horizontal rule")
  near(px(190, 175), { 0, 255, 255 }, 2, "vertical rule")
  near(px(190, 127), { 255, 255, 255 }, 2, "above the vertical rule")
  -- the rule between the paragraphs: half the column, at its left, between the lines around it
  local sheets = d:typeset()
  local lines = sheets[1].frames[1].lines
  local above, below
  for i = 2, #lines do
    if lines[i].paragraph == 2 and lines[i - 1].paragraph == 1 then above, below = lines[i - 1], lines[i] end
  end
  assert(above and above.column == below.column, "the paragraphs should meet inside a column")
  local gy = math.floor(((above.y + above.descent) + (below.y - below.ascent)) / 2)
  local x0 = above.column == 1 and 30 or 110
  near(px(x0 + 2, gy), { 255, 128, 0 }, 2, "paragraph rule")
  near(px(x0 + 28, gy), { 255, 128, 0 }, 2, "paragraph rule, its middle")
  near(px(x0 + 32, gy), { 0, 255, 0 }, 2, "past the paragraph rule (50%)")
  if os.getenv("CT_KEEP") then print("kept " .. out) else os.remove(out) end
end)

case("with filters: the box and the rules are drawn under the filtered text", function()
  local out = tmpname() .. ".png"
  local d = document.from_xml(([[<document size="200pt x 100pt" margin="0" background="#ffffff">
<style name="default" font="%s" size="8pt"/>
<page><frame x="20" y="20" width="160" height="60" background="#00ff00" border="4pt #ff0000" columns="2"
  column-rule="2pt #0000ff"><p>%s</p></frame><frame x="0" y="90" width="10" height="10" background="#0000ff"/></page></document>]])
    :format(FONT, words(1, 30)), "f.xml")
  d:filter { Run = function(r) r.color = "#ffffff" end }
  assert(d:write(out, { dpi = 72 }))
  local function px(x, y) return { ct.read_png_pixel(out, x, y) } end
  near(px(21, 50), { 255, 0, 0 }, 2, "border")
  near(px(97, 40), { 0, 255, 0 }, 2, "background, in the gap")
  near(px(99, 50), { 0, 0, 255 }, 2, "column rule")
  near(px(5, 95), { 0, 0, 255 }, 2, "a frame without text")
  os.remove(out)
end)

case("page rules and frames are drawn in their order: later ones on top", function()
  local out = tmpname() .. ".png"
  local d = document.from_xml(([[<document size="100pt x 100pt" margin="0" background="#ffffff">
<style name="default" font="%s" size="8pt"/>
<page><rule x="0" y="30" length="100" stroke="4" color="#ff0000"/>
<frame x="20" y="20" width="60" height="60" background="#00ff00"/>
<rule x="0" y="50" length="100" stroke="4" color="#0000ff"/></page></document>]]):format(FONT), "o.xml")
  assert(d:write(out, { dpi = 72 }))
  local function px(x, y) return { ct.read_png_pixel(out, x, y) } end
  near(px(10, 30), { 255, 0, 0 }, 2, "the first rule")
  near(px(50, 30), { 0, 255, 0 }, 2, "the frame over the first rule")
  near(px(50, 50), { 0, 0, 255 }, 2, "the second rule over the frame")
  os.remove(out)
end)

case("a rule at the top of a column is not drawn (nor its space)", function()
  -- one line a column: the second paragraph starts column 2, with no space and no rule
  local d = document.from_xml(doc('<page><frame height="14pt" columns="2" column-rule="0"><p>W01</p>'
    .. '<rule color="#ff0000" space="20pt"/><p>W02</p></frame></page>'), "r.xml")
  local fr = d:typeset()[1].frames[1]
  local cols = by_column(fr.lines)
  eq(#cols[1], 1); eq(#cols[2], 1)
  eq(cols[2][1].y, cols[1][1].y)
  for _, r in ipairs(fr.decor) do assert(r.color ~= "#ff0000ff", "a rule was drawn at the top of a column") end
end)

case("the Lua API: page:frame{columns =, ...}, frame:rule, page:rule", function()
  local d = document.new { size = "A6", margin = "8mm" }
  d:style("default", { font = FONT, size = 9 })
  local pg = d:page()
  local fr = pg:frame { columns = 2, column_gap = "4mm", column_fill = "balance", column_rule = "0.5pt #333",
    background = "#eeeeee", border = { width = 1, color = "navy" }, padding = { 4, 6 } }
  fr:text(words(1, 10)):rule { stroke = 1, color = "#c00", length = 40 }:text(words(11, 24))
  pg:rule { y = "100mm", stroke = "1pt", color = "#00838a" }
  local sheets = d:typeset()
  local f = sheets[1].frames[1]
  eq(line_words(f.lines), all_words(1, 24))
  local colors = {}
  for _, r in ipairs(f.decor) do colors[r.color] = (colors[r.color] or 0) + 1 end
  eq(colors["#eeeeeeff"], 1)        -- the background
  eq(colors["#000080ff"], 4)        -- four sides of border
  eq(colors["#333333ff"], 1)        -- one column rule
  eq(colors["#cc0000ff"], 1)        -- the rule between the paragraphs
  eq(#pg.rules, 1)
end)

-- ---- errors --------------------------------------------------------------------------

local function xml_err(body) return function() document.from_xml(doc(body), "frames.xml"):typeset() end end
local ERRS = {
  { '<page><frame columns="0"/></page>', "^frames%.xml:3: <frame>: columns: expected a whole number from 1 to 64, got '0'$" },
  { '<page><frame columns="two"/></page>', "<frame>: columns: expected a whole number from 1 to 64, got 'two'$" },
  { '<page><frame column-fill="even"/></page>', "^frames%.xml:3: <frame>: column%-fill: expected auto, balance, got 'even'$" },
  { '<page><frame column-gap="-1mm"/></page>', "<frame>: column%-gap: must be at least 0 pt, got '%-1mm'$" },
  { '<page><frame border="thick red"/></page>', "^frames%.xml:3: <frame>: border: expected a width and a color %(\"0%.5pt #000\"%), got 'thick red'$" },
  { '<page><frame border="1pt dashed red"/></page>', "<frame>: border: 'dashed': only solid lines are drawn$" },
  { '<page><frame border="1pt #zz0"/></page>', "<frame>: border: color: [^\n]*zz0" },
  { '<page><frame column-rule="1pt nocolor"/></page>', "<frame>: column%-rule: color: " },
  { '<page><frame padding="1 2 3 4 5"/></page>', "<frame>: padding: one to four lengths expected %(top, right, bottom, left%), got 5$" },
  { '<page><frame padding="2mm -1mm"/></page>', "<frame>: padding: must be at least 0 pt, got '%-1mm'$" },
  { '<page><frame background="sky"/></page>', "<frame>: background: [^\n]*sky" },
  { '<page><frame width="20mm" padding="10mm"/></page>', "<frame>: padding, border: no width is left for the text %(the frame is [%d.]+ pt wide%)$" },
  { '<page><frame columns="2" fit="size"><p>W01</p></frame></page>', "<frame>: fit: fitting works in one column %(this frame has columns%)$" },
  { '<page><frame width="30mm" columns="20" column-gap="2mm"><p>W01</p></frame></page>',
    "^frames%.xml:3: <frame>: columns: 20 columns with gaps of [%d.]+ pt do not fit in [%d.]+ pt$" },
  { '<page><frame><rule/><p>W01</p></frame></page>', "^frames%.xml:3: <rule>: a rule in a frame goes between two paragraphs$" },
  { '<page><frame><p>W01</p><rule/></frame></page>', "<rule>: a rule in a frame goes between two paragraphs$" },
  { '<page><frame><p>W01</p><rule x="1"/><p>W02</p></frame></page>',
    "^frames%.xml:3: <rule>: unknown attribute 'x' %(expected length, align, stroke, color, space%)$" },
  { '<page><frame><p>W01</p><rule length="120%"/><p>W02</p></frame></page>', "<rule>: length: a percentage of the column from 0 to 100 expected, got '120%%'$" },
  { '<page><frame><p>W01</p><rule align="middle"/><p>W02</p></frame></page>', "<rule>: align: expected left, center, right, got 'middle'$" },
  { '<page><frame><p>W01</p><rule stroke="0"/><p>W02</p></frame></page>', "<rule>: stroke: must be more than 0 pt, got '0'$" },
  { '<page><frame><p>W01</p><rule>x</rule><p>W02</p></frame></page>', "<rule>: must be empty$" },
  { '<page><rule direction="diagonal"/></page>', "^frames%.xml:3: <rule>: direction: expected horizontal, vertical, got 'diagonal'$" },
  { '<page><rule align="left"/></page>', "<rule>: unknown attribute 'align' %(expected x, y, length, direction, stroke, color%)$" },
  { '<page><rule color="#12"/></page>', "<rule>: color: " },
  { '<page><rule stroke="thin"/></page>', "<rule>: stroke: " },
  { '<page><rule x="200mm"/></page>', "<rule>: length: must be more than 0 pt, got [%-%d.]+ pt %(check x, y and the margin%)$" },
  { '<page><frame id="a"><p>W01</p></frame><frame follows="a"><rule/></frame></page>', "a frame that follows another takes no text of its own$" },
}
for i, e in ipairs(ERRS) do
  cases[#cases + 1] = { ("xml error %d: %s"):format(i, e[1]:sub(1, 50)), xml_err(e[1]), {}, false, e[2] }
end

case("Lua errors name the argument or the object", function()
  local d = document.new {}
  d:style("default", { font = FONT })
  local pg = d:page()
  checkerr("bad argument #1 to 'rule' %(unknown field 'widht' %(expected ", pg.rule, pg, { widht = 1 })
  checkerr("^chromatype%.document: page 1, rule 1: direction: expected horizontal, vertical, got 'up'$", pg.rule, pg, { direction = "up" })
  checkerr("^chromatype%.document: page 1, frame 1: columns: expected a whole number from 1 to 64, got 'x'$", pg.frame, pg, { columns = "x" })
  checkerr("^chromatype%.document: page 1, frame 1: border: unknown field 'style' %(expected width, color%)$", pg.frame, pg, { border = { style = "solid" } })
  checkerr("^chromatype%.document: page 1, frame 1: padding: a list of one to four lengths expected$", pg.frame, pg, { padding = { top = 1 } })
  local fr = pg:frame {}
  checkerr("bad argument #1 to 'rule' %(unknown field 'x' %(expected ", fr.rule, fr, { x = 1 })
  checkerr("bad argument #1 to 'rule' %(table expected, got string%)$", fr.rule, fr, "thin")
end)

return cases
