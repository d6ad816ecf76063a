--- chromatype.frames: what a document frame holds besides its text: its box (background,
-- border, padding), its columns (the text flows column to column, filled in order or
-- balanced) with their column rules, and rules, lines between paragraphs or on a page.
-- chromatype.document checks the attributes with the value functions here and sets a
-- frame's text with `flow`, which calls chromatype.layout once per column with what the
-- previous column left over.  Everything is drawn as rectangles (canvas:rect), so a rule in
-- a spot ink's color separates onto that ink's plate like any paint.
-- @module chromatype.frames

local palette = require "chromatype.palette"
local paper = require "chromatype.paper"
local layout = require "chromatype.layout"

local M = {}

M.MAX_COLUMNS = 64
M.DEFAULT_STROKE = 0.5          -- points: rules, borders and column rules without a width
M.DEFAULT_RULE_SPACE = 6        -- points above and below a rule between paragraphs

-- ---- values: each returns the checked value, or nil and a message ---------------------

local function finite_length(v)
  if type(v) == "number" then
    if v ~= v or v == math.huge or v == -math.huge then return nil, "not a finite number" end
    return v
  end
  if type(v) ~= "string" then return nil, "a length expected, got " .. type(v) end
  return paper.parse_length(v)
end

--- A color for a rule or a box: any color palette.color reads, or "registration" (on every
--- plate, as print marks are).
function M.color(v)
  if v == "registration" then return v end
  return palette.color(v)
end

--- A line: "WIDTH [solid] [COLOR]" ("0.5pt #000", "1pt solid rgb(200 0 0)") or a table
--- {width =, color =}; returns {width =, color =} (black by default).
function M.stroke(v)
  local w, c
  if type(v) == "table" then
    for k in pairs(v) do
      if k ~= "width" and k ~= "color" then return nil, ("unknown field '%s' (expected width, color)"):format(tostring(k)) end
    end
    w, c = v.width, v.color
  elseif type(v) == "string" then
    local first, rest = v:match("^%s*(%S+)%s*(.-)%s*$")
    if not first then return nil, "expected a width and a color (\"0.5pt #000\"), got ''" end
    w, c = first, rest
    local style, after = c:match("^(%a+)%s*(.-)$")
    if style == "solid" then c = after
    elseif style == "dashed" or style == "dotted" or style == "double" then
      return nil, ("'%s': only solid lines are drawn"):format(style)
    end
    if c == "" then c = nil end
  else
    return nil, "expected a width and a color (\"0.5pt #000\"), got " .. type(v)
  end
  local width, err = finite_length(w == nil and M.DEFAULT_STROKE or w)
  if not width then
    if type(v) == "string" then return nil, ("expected a width and a color (\"0.5pt #000\"), got '%s'"):format(v) end
    return nil, "width: " .. err
  end
  if width < 0 then return nil, ("width: must be at least 0 pt, got '%s'"):format(tostring(w)) end
  local color = "#000000ff"
  if c ~= nil then
    local e
    color, e = M.color(c)
    if not color then return nil, "color: " .. e end
  end
  return { width = width, color = color }
end

--- Padding: one to four lengths in CSS order (top, right, bottom, left: "6pt", "6pt 12pt",
--- "1mm 2mm 3mm", "1 2 3 4"), a number, or a list of one to four lengths; returns
--- {top, right, bottom, left} in points.
function M.padding(v)
  local parts = {}
  if type(v) == "string" then
    for p in v:gmatch("%S+") do parts[#parts + 1] = p end
  elseif type(v) == "number" then
    parts[1] = v
  elseif type(v) == "table" then
    for k in pairs(v) do
      if math.type(k) ~= "integer" or k < 1 or k > #v then return nil, "a list of one to four lengths expected" end
    end
    for i, p in ipairs(v) do parts[i] = p end
  else
    return nil, "one to four lengths expected, got " .. type(v)
  end
  if #parts < 1 or #parts > 4 then
    return nil, ("one to four lengths expected (top, right, bottom, left), got %d"):format(#parts)
  end
  local n = {}
  for i, p in ipairs(parts) do
    local x, err = finite_length(p)
    if not x then return nil, err end
    if x < 0 then return nil, ("must be at least 0 pt, got '%s'"):format(tostring(p)) end
    n[i] = x
  end
  local t = n[1]
  local r = n[2] or t
  local b = n[3] or t
  local l = n[4] or r
  return { t, r, b, l }
end

--- A number of columns, 1 to MAX_COLUMNS.
function M.columns(v)
  local n = math.tointeger(tonumber(v))
  if not n or n < 1 or n > M.MAX_COLUMNS then
    return nil, ("expected a whole number from 1 to %d, got '%s'"):format(M.MAX_COLUMNS, tostring(v))
  end
  return n
end

--- The space between columns: a length of at least 0.
function M.gap(v)
  local x, err = finite_length(v)
  if not x then return nil, err end
  if x < 0 then return nil, ("must be at least 0 pt, got '%s'"):format(tostring(v)) end
  return x
end

--- How columns fill: "auto" (in order) or "balance".
function M.fill(v)
  if v == "auto" or v == "balance" then return v end
  return nil, ("expected auto, balance, got '%s'"):format(tostring(v))
end

--- A rule between paragraphs: `stroke` (width, 0.5 pt), `color` (black), `length` (a length
--- or a percentage of the column, "100%"), `align` (left, center, right), `space` (above and
--- below, 6 pt).  `t` holds strings or numbers; returns the rule or nil, msg.
function M.paragraph_rule(t)
  local r = { stroke = M.DEFAULT_STROKE, color = "#000000ff", fraction = 1, align = "center",
    space = M.DEFAULT_RULE_SPACE }
  if t.stroke ~= nil then
    local w, err = finite_length(t.stroke)
    if not w then return nil, "stroke: " .. err end
    if w <= 0 then return nil, ("stroke: must be more than 0 pt, got '%s'"):format(tostring(t.stroke)) end
    r.stroke = w
  end
  if t.color ~= nil then
    local c, err = M.color(t.color)
    if not c then return nil, "color: " .. err end
    r.color = c
  end
  if t.length ~= nil then
    local pct = type(t.length) == "string" and t.length:match("^%s*([%d.]+)%%%s*$")
    if pct then
      local f = tonumber(pct)
      if not f or f <= 0 or f > 100 then
        return nil, ("length: a percentage of the column from 0 to 100 expected, got '%s'"):format(t.length)
      end
      r.fraction = f / 100
    else
      local x, err = finite_length(t.length)
      if not x then return nil, "length: " .. err end
      if x <= 0 then return nil, ("length: must be more than 0 pt, got '%s'"):format(tostring(t.length)) end
      r.fraction, r.length = nil, x
    end
  end
  if t.align ~= nil then
    if t.align ~= "left" and t.align ~= "center" and t.align ~= "right" then
      return nil, ("align: expected left, center, right, got '%s'"):format(tostring(t.align))
    end
    r.align = t.align
  end
  if t.space ~= nil then
    local x, err = finite_length(t.space)
    if not x then return nil, "space: " .. err end
    if x < 0 then return nil, ("space: must be at least 0 pt, got '%s'"):format(tostring(t.space)) end
    r.space = x
  end
  r.room = 2 * r.space + r.stroke        -- what the rule adds between the paragraphs
  return r
end

-- ---- the box ---------------------------------------------------------------------------

--- The text box of a frame at (x, y), w × h, inside its border and padding (`box` =
--- {border =, padding =} as M.stroke and M.padding give them, each optional): x, y, w, h
--- (the height at least 0), or nil when no width is left.
function M.inner(x, y, w, h, box)
  local b = box.border and box.border.width or 0
  local p = box.padding or { 0, 0, 0, 0 }
  local ix, iy = x + b + p[4], y + b + p[1]
  local iw, ih = w - 2 * b - p[2] - p[4], h - 2 * b - p[1] - p[3]
  if iw <= 0 then return nil end
  return ix, iy, iw, math.max(ih, 0)
end

--- The rectangles drawn under a frame's text: the background over the whole box, then the
--- border inside its edge (four sides that do not overlap, so a border with an alpha is
--- even).  Appends {x =, y =, w =, h =, color =} to `out`.
function M.box_rects(out, x, y, w, h, box)
  if box.background then out[#out + 1] = { x = x, y = y, w = w, h = h, color = box.background } end
  local bd = box.border
  if bd and bd.width > 0 then
    local b = math.min(bd.width, w / 2, h / 2)
    out[#out + 1] = { x = x, y = y, w = w, h = b, color = bd.color }
    out[#out + 1] = { x = x, y = y + h - b, w = w, h = b, color = bd.color }
    if h > 2 * b then
      out[#out + 1] = { x = x, y = y + b, w = b, h = h - 2 * b, color = bd.color }
      out[#out + 1] = { x = x + w - b, y = y + b, w = b, h = h - 2 * b, color = bd.color }
    end
  end
  return out
end

-- ---- columns ---------------------------------------------------------------------------

local function copy(t)
  local r = {}
  for k, v in pairs(t) do r[k] = v end
  return r
end

-- The rules drawn between the lines `lines[from..to]` of one layout call, whose
-- `paragraph` indices point into `paras`: centered between the descender of the line above
-- and the ascender of the line below (the paragraph's space_before holds their room).
-- A rule before the first line of a column (or frame) is not drawn, as its space is not.
local function paragraph_rules(out, lines, from, to, paras, rule_before, x, w)
  for j = from + 1, to do
    local a, b = lines[j - 1], lines[j]
    local specs = b.paragraph ~= a.paragraph and rule_before[paras[b.paragraph]]
    if specs then
      local room = 0
      for _, r in ipairs(specs) do room = room + r.room end
      local g0, g1 = a.y + a.descent, b.y - b.ascent
      local top = (g0 + g1) / 2 - room / 2
      for _, r in ipairs(specs) do
        local len = math.min(r.length or r.fraction * w, w)
        local rx = x
        if r.align == "center" then rx = x + (w - len) / 2 elseif r.align == "right" then rx = x + w - len end
        out[#out + 1] = { x = rx, y = top + r.space, w = len, h = r.stroke, color = r.color }
        top = top + r.room
      end
    end
  end
  return out
end

-- Sets one column: layout.paragraphs of `rest` in `o`, given the first paragraphs only
-- (8, 16, 32, ... until they overflow the column or are all there is): the lines of a
-- column are the same whatever follows its last paragraph, and a long flow then costs a
-- column's text a column instead of all the text left.  Returns lines, overflow, height used.
local function set_column(rest, o)
  local k = 8
  while true do
    if k >= #rest then return layout.paragraphs(rest, o, "frame") end
    local head = table.move(rest, 1, k, 1, {})
    local lines, over, used = layout.paragraphs(head, o, "frame")
    if over then
      table.move(rest, k + 1, #rest, #over + 1, over)
      return lines, over, used
    end
    k = k * 2
  end
end

-- One pass over the columns: column i is set `height(i, rest, o)` high (the frame's height
-- when that gives nil), with what the columns before it left.  Returns {lines =, over =,
-- rects =, top =, bottom =, filled =}: the lines in reading order, the overflow, the
-- paragraph rules, the extent of the set columns and the number of columns with lines.
local function columns_pass(paras, opts, cols, cw, rule_before, height)
  local H = opts.height
  local r = { lines = {}, rects = {}, top = math.huge, bottom = -math.huge, filled = 0 }
  local rest, first_para = paras, 0
  for i = 1, cols.n do
    if not rest or #rest == 0 then rest = nil; break end
    local o = copy(opts)
    o.x, o.width, o.valign = opts.x + (i - 1) * (cw + cols.gap), cw, nil
    o.height = math.min(height and height(i, rest, o) or H, H)
    local lines, over, used = set_column(rest, o)
    -- valign within the column, in the frame's height
    local shift = 0
    if opts.valign == "middle" then shift = (H - used) / 2 elseif opts.valign == "bottom" then shift = H - used end
    for _, l in ipairs(lines) do l.y = l.y + shift end
    paragraph_rules(r.rects, lines, 1, #lines, rest, rule_before, o.x, cw)
    for _, l in ipairs(lines) do
      l.paragraph = first_para + l.paragraph
      l.column = i
      r.lines[#r.lines + 1] = l
    end
    if #lines > 0 then
      r.filled = i
      r.top, r.bottom = math.min(r.top, shift), math.max(r.bottom, shift + used)
    end
    -- the next column's first paragraph is the overflow's first one: rest[#rest - #over + 1]
    first_para = first_para + #rest - (over and #over or 0)
    rest = over
  end
  r.over = rest and #rest > 0 and rest or nil
  return r
end

-- Balanced by lines: each column takes its share of the lines left, ceil(left / columns
-- left), found by setting what is left in one column (tall enough to hold what the columns
-- left can hold).  When that does not fit, this column and the next ones fill in order.
local function by_lines(cols)
  local balance = true
  return function(i, rest, o)
    if not balance then return nil end
    local left = cols.n - i + 1
    local probe = copy(o)
    probe.height = o.height * (left + 1)
    local plines, pover = layout.paragraphs(rest, probe, "frame")
    if pover then balance = false; return nil end
    if #plines == 0 then return nil end
    local l = plines[math.ceil(#plines / left)]
    return l.y - o.y + l.descent
  end
end

--- Sets paragraphs in a frame's text box, in columns.
-- `opts` are chromatype.layout's options for the whole text box (`x`, `y`, `width`,
-- `height`, `valign`, fonts and fitting); `cols` = {n =, gap =, fill = "auto"|"balance",
-- rule = {width =, color =}|nil}; `rule_before` maps a paragraph (a table of `paras` or of
-- an overflow) to the list of rules drawn before it (paragraph_rule's form).  With one
-- column and `fit`, one layout call sets the whole text; otherwise column after column
-- (set_column), each taking the previous one's overflow.
-- `fill = "balance"`: when the text fits the frame, each column takes its share of the
-- lines left (ceil(lines left / columns left)), so the line counts differ by at most one;
-- should the taller lines or the rules of some column then make the text overflow, the
-- columns are instead all set to the least height that holds the text (found by
-- bisection), as CSS balances.  When the text does not fit the frame, the columns fill in
-- order and the text goes on (to the next frame or page: the last one balances).
-- @treturn table lines in reading order (their `paragraph` counts across columns)
-- @treturn table|nil the overflow paragraphs
-- @treturn table|nil the fitting result (one column only)
-- @treturn table rectangles to draw under the text: column rules and paragraph rules
function M.flow(paras, opts, cols, rule_before)
  if cols.n == 1 then
    local lines, over, _, fit
    if opts.fit == nil then lines, over = set_column(paras, opts)
    else lines, over, _, fit = layout.paragraphs(paras, opts, "frame") end      -- fitting sees the whole text
    return lines, over, fit, paragraph_rules({}, lines, 1, #lines, paras, rule_before, opts.x, opts.width)
  end
  local H = opts.height
  local cw = (opts.width - (cols.n - 1) * cols.gap) / cols.n
  if cw <= 0 then
    error(("bad argument #2 to 'frame' (columns: %d columns with gaps of %g pt do not fit in %g pt)")
      :format(cols.n, cols.gap, opts.width), 0)
  end
  -- in order first: text that does not fit the frame fills it in order, balanced or not
  local auto = columns_pass(paras, opts, cols, cw, rule_before, nil)
  local r = auto
  if cols.fill == "balance" and not auto.over then
    r = columns_pass(paras, opts, cols, cw, rule_before, by_lines(cols))
    if r.over then
      -- the least common column height that holds the text
      r = auto
      local lo, hi = 0, H
      while hi - lo > 0.01 do
        local mid = (lo + hi) / 2
        local t = columns_pass(paras, opts, cols, cw, rule_before, function() return mid end)
        if t.over then lo = mid else hi, r = mid, t end
      end
    end
  end
  if cols.rule and cols.rule.width > 0 and r.filled > 1 then
    local y0, y1 = 0, H
    if cols.fill == "balance" then y0, y1 = r.top, r.bottom end
    for i = 1, r.filled - 1 do
      local x = opts.x + i * cw + (i - 1) * cols.gap + cols.gap / 2
      r.rects[#r.rects + 1] = { x = x - cols.rule.width / 2, y = opts.y + y0, w = cols.rule.width, h = y1 - y0,
        color = cols.rule.color }
    end
  end
  return r.lines, r.over, nil, r.rects
end

return M
