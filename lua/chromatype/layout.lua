--- chromatype.layout: paragraphs in a frame, with a greedy line breaker.
-- Text is cut into words at break opportunities (after U+0020 spaces, after hyphens
-- and en dashes, between two emoji or CJK characters; U+00A0 does not break), words
-- are measured with `font:shape` (cached), lines are filled greedily, aligned
-- (left, right, center, justify), and stacked in a frame of a given height; what
-- does not fit is returned as the overflow.  Reference: docs/documents.md.
-- @module chromatype.layout

local M = {}

-- ---- options ---------------------------------------------------------------------

-- Keys a run may carry that go to canvas:text unchanged.
local PASS = { "palette", "overrides", "color", "format", "features", "script", "language", "direction" }
-- Keys of a run (style): the passthrough keys and these.
local RUN_KEYS = { "font", "size", "leading", "tracking" }
local OPT_KEYS = { "width", "height", "x", "y", "align", "valign", "first_line_indent" }

local ALIGN = { left = true, right = true, center = true, justify = true }
local VALIGN = { top = true, middle = true, bottom = true }

local function set_of(...)
  local s = {}
  for _, list in ipairs({ ... }) do for _, k in ipairs(list) do s[k] = true end end
  return s
end
local OPTS_ALLOWED = set_of(PASS, RUN_KEYS, OPT_KEYS)
local RUN_ALLOWED = set_of(PASS, RUN_KEYS, { "text" })

local function argerr(fname, n, msg)
  error(("bad argument #%d to '%s' (%s)"):format(n, fname, msg), 4)
end

local function check_keys(t, allowed, fname, n, what)
  for k in pairs(t) do
    if not allowed[k] then
      local names = {}
      for a in pairs(allowed) do names[#names + 1] = a end
      table.sort(names)
      argerr(fname, n, ("%sunknown field '%s' (expected %s)"):format(what or "", tostring(k),
        table.concat(names, ", ")))
    end
  end
end

local function check_num(t, k, fname, n, min, what)
  local v = t[k]
  if v == nil then return end
  if type(v) ~= "number" or v ~= v or v == math.huge or v == -math.huge then
    argerr(fname, n, ("%sfield '%s': expected a finite number, got %s"):format(what or "", k, type(v)))
  end
  if min and v < min then argerr(fname, n, ("%sfield '%s': must be >= %g"):format(what or "", k, min)) end
end

-- ---- measuring ---------------------------------------------------------------------

-- cache[font][key][text] = advance in font units (weak in the fonts)
local cache = setmetatable({}, { __mode = "k" })
local upem_cache = setmetatable({}, { __mode = "k" })

local function font_metrics(font)
  local m = upem_cache[font]
  if not m then
    local info = font:info()
    m = { upem = info.units_per_em, asc = info.ascender, desc = -info.descender }
    upem_cache[font] = m
  end
  return m
end

local function shape_opts(run)
  if not (run.features or run.script or run.language or run.direction) then return nil, "" end
  local o = { features = run.features, script = run.script, language = run.language, direction = run.direction }
  return o, table.concat({ run.features or "", run.script or "", run.language or "", run.direction or "" }, "\0")
end

--- The advance of `text` in font units, shaped with the run's features.
local function advance_units(run, text)
  local font = run.font
  local per = cache[font]
  if not per then per = {}; cache[font] = per end
  local so, key = shape_opts(run)
  local words = per[key]
  if not words then words = {}; per[key] = words end
  local w = words[text]
  if not w then
    w = 0
    for _, g in ipairs(font:shape(text, so)) do w = w + g.x_advance end
    words[text] = w
  end
  return w
end

--- Width of `text` in points for a run {font=, size=, tracking=, features=...}:
--- the sum of the shaped advances × size / units_per_em, plus tracking per glyph.
-- @treturn number points
function M.measure(run, text)
  local m = font_metrics(run.font)
  local w = advance_units(run, text) * run.size / m.upem
  if run.tracking and run.tracking ~= 0 then
    w = w + run.tracking * #run.font:shape(text, (shape_opts(run)))
  end
  return w
end

-- ---- cutting text into items ---------------------------------------------------------

-- Emoji and CJK: a break is allowed between two of them.
local function wide(cp)
  return (cp >= 0x1100 and cp <= 0x115F) or (cp >= 0x2E80 and cp <= 0x9FFF)
      or (cp >= 0xAC00 and cp <= 0xD7AF) or (cp >= 0xF900 and cp <= 0xFAFF)
      or (cp >= 0xFF00 and cp <= 0xFF60) or (cp >= 0x20000 and cp <= 0x3FFFF)
      or (cp >= 0x2600 and cp <= 0x27BF) or (cp >= 0x1F300 and cp <= 0x1FAFF
        and not (cp >= 0x1F3FB and cp <= 0x1F3FF))
      or (cp >= 0x1F000 and cp <= 0x1F1E5)
end
-- Characters that glue to the one before (no break before them).
local function joiner(cp)
  return cp == 0x200D or (cp >= 0xFE00 and cp <= 0xFE0F) or (cp >= 0x1F3FB and cp <= 0x1F3FF)
      or (cp >= 0xE0020 and cp <= 0xE007F) or cp == 0x20E3
end

local SPACE, NBSP, HYPHEN, ENDASH, LSEP = 0x20, 0xA0, 0x2D, 0x2013, 0x2028

--- Splits the runs of one paragraph into segments: {frags = {{run=, text=, width=}...},
--- width =, glue = {run=, text=, width=} | nil, hard = bool (a line break after)}.
local function segments(runs, fname)
  local segs = {}
  local cur = { frags = {}, width = 0 }
  local function frag(run, text)
    if text == "" then return end
    local f = { run = run, text = text, width = M.measure(run, text) }
    cur.frags[#cur.frags + 1] = f
    cur.width = cur.width + f.width
  end
  local function close_seg()
    segs[#segs + 1] = cur
    cur = { frags = {}, width = 0 }
  end
  for _, run in ipairs(runs) do
    local text = run.text
    local ok = utf8.len(text)
    if not ok then argerr(fname, 1, "text is not valid UTF-8") end
    local buf, spaces = {}, {}
    local prev, prev_joined = nil, false
    local function flush_word() frag(run, table.concat(buf)); buf = {} end
    local function flush_spaces()
      if #spaces > 0 then
        local t = table.concat(spaces)
        local g = { run = run, text = t, width = M.measure(run, t) }
        if cur.glue then cur.glue.width = cur.glue.width + g.width; cur.glue.text = cur.glue.text .. t
        else cur.glue = g end
        spaces = {}
      end
    end
    for _, cp in utf8.codes(text) do
      local ch = utf8.char(cp)
      if cp == SPACE or cp == 9 then
        flush_word()
        spaces[#spaces + 1] = " "
      elseif cp == LSEP or cp == 10 or cp == 13 then
        flush_word()
        flush_spaces()
        cur.hard = true
        close_seg()
        cp = nil
      else
        if #spaces > 0 then
          -- a word after spaces: the spaces end the segment
          flush_spaces()
          close_seg()
        elseif cur.glue then
          -- spaces ended the previous run: this run starts a new segment
          close_seg()
        elseif prev and not prev_joined and wide(prev) and wide(cp) and not joiner(cp) then
          flush_word()
          close_seg()
        end
        buf[#buf + 1] = ch
        if cp == HYPHEN or cp == ENDASH then
          flush_word()
          close_seg()
          cp = nil
        end
      end
      prev_joined = (cp == 0x200D)
      prev = cp
      if cp == SPACE or cp == 9 then prev = nil end
    end
    flush_word()
    flush_spaces()
  end
  if #cur.frags > 0 or cur.glue then segs[#segs + 1] = cur end
  return segs
end

-- ---- the line breaker --------------------------------------------------------------------

-- Greedy: fills each line with segments while they fit `avail(line_index)`.
local function break_lines(segs, avail_for)
  local lines = {}
  local line = { segs = {}, natural = 0 }
  local function finish(last)
    line.last = last
    lines[#lines + 1] = line
    line = { segs = {}, natural = 0 }
  end
  for i, s in ipairs(segs) do
    local n = #line.segs
    local prev = line.segs[n]
    local add = s.width + (prev and prev.glue and prev.glue.width or 0)
    if n > 0 and line.natural + add > avail_for(#lines + 1) + 1e-6 then
      finish(false)
      add = s.width
    end
    line.segs[#line.segs + 1] = s
    line.natural = line.natural + add
    if s.hard then finish(true)
    elseif i == #segs then finish(true) end
  end
  return lines
end

-- ---- paragraphs in a frame ------------------------------------------------------------------

local function line_metrics(line, default_run)
  local asc, desc, lead = 0, 0, 0
  local any = false
  for _, s in ipairs(line.segs) do
    for _, f in ipairs(s.frags) do
      local m = font_metrics(f.run.font)
      asc = math.max(asc, m.asc * f.run.size / m.upem)
      desc = math.max(desc, m.desc * f.run.size / m.upem)
      lead = math.max(lead, f.run.leading or 1.2 * f.run.size)
      any = true
    end
  end
  if not any then                -- an empty line: the paragraph's first run, or the options
    local r = default_run
    local size = r.size or 12
    if r.font then
      local m = font_metrics(r.font)
      asc, desc = m.asc * size / m.upem, m.desc * size / m.upem
    else
      asc, desc = 0.8 * size, 0.2 * size
    end
    lead = r.leading or 1.2 * size
  end
  return asc, desc, lead
end

local function copy_run(base, over)
  local r = {}
  for k in pairs(RUN_ALLOWED) do
    if k ~= "text" then r[k] = base[k] end
  end
  if over then for k, v in pairs(over) do r[k] = v end end
  return r
end

-- Text of the segments from line `li` on (the overflow), as a list of runs.
local function rest_runs(lines, li)
  local out = {}
  local function add(run, text)
    local last = out[#out]
    if last and last.run == run then last.text = last.text .. text
    else out[#out + 1] = { run = run, text = text } end
  end
  for i = li, #lines do
    local line = lines[i]
    for j, s in ipairs(line.segs) do
      for _, f in ipairs(s.frags) do add(f.run, f.text) end
      if s.glue and (j < #line.segs or not line.last) then add(s.glue.run, s.glue.text) end
      if s.hard then add(s.frags[1] and s.frags[1].run or s.glue and s.glue.run or {}, "\n") end
    end
    if line.last and line.par_end and i < #lines then add(out[#out] and out[#out].run or {}, "\n") end
  end
  return out
end

--- Lays out paragraphs in a frame.
-- `paras` is a list of paragraphs; each is a list of runs `{text =, font =, size =, ...}`
-- (missing style keys come from `opts`), with optional `align` and `first_line_indent`.
-- Within a run, U+2028 (and "\n") is a line break.
-- @treturn table lines: {x =, y = baseline, width = natural width, text =, height =,
--   items = {{text =, run =, x =, width =}, ...}} in frame coordinates (top left = opts.x, opts.y)
-- @treturn table|nil the overflow as a list of runs {text =, run =} (nil if all fits)
-- @treturn number the height used (top of the frame to the last line's descent)
function M.paragraphs(paras, opts, fname)
  fname = fname or "paragraphs"
  if type(opts) ~= "table" then argerr(fname, 2, "options table expected, got " .. type(opts)) end
  check_keys(opts, OPTS_ALLOWED, fname, 2)
  for _, k in ipairs({ "width", "height", "x", "y", "first_line_indent", "leading", "tracking", "size" }) do
    check_num(opts, k, fname, 2)
  end
  local width = opts.width
  if width == nil then argerr(fname, 2, "field 'width': required") end
  if width <= 0 then argerr(fname, 2, "field 'width': must be > 0") end
  if opts.height and opts.height < 0 then argerr(fname, 2, "field 'height': must be >= 0") end
  if opts.size and opts.size <= 0 then argerr(fname, 2, "field 'size': must be > 0") end
  if opts.align and not ALIGN[opts.align] then
    argerr(fname, 2, ("field 'align': expected left, right, center or justify, got '%s'"):format(tostring(opts.align)))
  end
  if opts.valign and not VALIGN[opts.valign] then
    argerr(fname, 2, ("field 'valign': expected top, middle or bottom, got '%s'"):format(tostring(opts.valign)))
  end
  local base = copy_run(opts)
  base.size = base.size or 12

  local all = {}
  for pi, para in ipairs(paras) do
    local runs = {}
    for ri, r in ipairs(para) do
      local what = ("run %d: "):format(ri)
      if type(r) ~= "table" then argerr(fname, 1, what .. "table expected") end
      check_keys(r, RUN_ALLOWED, fname, 1, what)
      if type(r.text) ~= "string" then argerr(fname, 1, what .. "field 'text': expected string, got " .. type(r.text)) end
      for _, k in ipairs({ "size", "leading", "tracking" }) do check_num(r, k, fname, 1, nil, what) end
      local run = copy_run(base, r)
      run.text = nil
      if run.font == nil then argerr(fname, r.font == nil and 2 or 1, "field 'font': a Font is required") end
      if type(run.size) ~= "number" or run.size <= 0 then argerr(fname, 1, what .. "field 'size': must be > 0") end
      runs[#runs + 1] = { text = r.text, style = run }
    end
    local styled = {}
    for _, r in ipairs(runs) do
      local s = r.style
      styled[#styled + 1] = { text = r.text, font = s.font, size = s.size, leading = s.leading,
        tracking = s.tracking, features = s.features, script = s.script, language = s.language,
        direction = s.direction, _style = s }
    end
    local segs = segments(styled, fname)
    -- frags should refer to the style table (the one drawn with)
    for _, s in ipairs(segs) do
      for _, f in ipairs(s.frags) do f.run = f.run._style end
      if s.glue then s.glue.run = s.glue.run._style end
    end
    local indent = para.first_line_indent or opts.first_line_indent or 0
    local align = para.align or opts.align or "left"
    if not ALIGN[align] then
      argerr(fname, 1, ("paragraph %d: align: expected left, right, center or justify, got '%s'"):format(pi, tostring(align)))
    end
    local lines = break_lines(segs, function(i) return i == 1 and width - indent or width end)
    if #lines == 0 then lines = { { segs = {}, natural = 0, last = true } } end
    for i, l in ipairs(lines) do
      l.indent = i == 1 and indent or 0
      l.align = align
      l.default_run = runs[1] and runs[1].style or base
      all[#all + 1] = l
    end
    all[#all].par_end = true
  end

  -- vertical: stack lines, stop at the frame height
  local height = opts.height
  local y, used, fit = 0, 0, #all
  for i, l in ipairs(all) do
    local asc, desc, lead = line_metrics(l, l.default_run)
    local baseline = i == 1 and asc or y + lead
    if height and baseline + desc > height + 1e-6 then fit = i - 1; break end
    l.baseline, l.asc, l.desc, l.lead = baseline, asc, desc, lead
    y = baseline
    used = baseline + desc
  end
  local shift = 0
  if height and opts.valign == "middle" then shift = (height - used) / 2
  elseif height and opts.valign == "bottom" then shift = height - used end

  -- horizontal: place the items
  local x0, y0 = opts.x or 0, opts.y or 0
  local out = {}
  for i = 1, fit do
    local l = all[i]
    local avail = width - l.indent
    local ngaps = 0
    for j = 1, #l.segs - 1 do if l.segs[j].glue then ngaps = ngaps + 1 end end
    local extra = 0
    local dx = l.indent
    if l.align == "justify" and not l.last and ngaps > 0 then
      extra = (avail - l.natural) / ngaps
    elseif l.align == "right" then dx = dx + avail - l.natural
    elseif l.align == "center" then dx = dx + (avail - l.natural) / 2 end
    local items, texts = {}, {}
    local x = x0 + dx
    for j, s in ipairs(l.segs) do
      for _, f in ipairs(s.frags) do
        items[#items + 1] = { text = f.text, run = f.run, x = x, width = f.width }
        texts[#texts + 1] = f.text
        x = x + f.width
      end
      if s.glue and j < #l.segs then
        x = x + s.glue.width + extra
        texts[#texts + 1] = s.glue.text
      end
    end
    out[#out + 1] = { x = x0 + dx, y = y0 + shift + l.baseline, width = x - (x0 + dx),
      natural = l.natural, text = table.concat(texts), items = items, height = l.lead,
      ascent = l.asc, descent = l.desc }
  end
  local overflow = nil
  if fit < #all then overflow = rest_runs(all, fit + 1) end
  return out, overflow, used
end

local function runs_text(runs)
  if not runs then return nil end
  local t = {}
  for _, r in ipairs(runs) do t[#t + 1] = r.text end
  local s = table.concat(t)
  return s
end

-- A string or a list of runs, cut into paragraphs at "\n".
local function to_paras(input, fname)
  local runs
  if type(input) == "string" then runs = { { text = input } }
  elseif type(input) == "table" then runs = input
  else argerr(fname, 1, "string or list of runs expected, got " .. type(input)) end
  local paras, cur = {}, {}
  for _, r in ipairs(runs) do
    if type(r) ~= "table" or type(r.text) ~= "string" then
      argerr(fname, 1, "each run must be a table with a string 'text'")
    end
    local text = r.text:gsub("\r\n", "\n")
    local first = true
    for piece in (text .. "\n"):gmatch("(.-)\n") do
      if not first then paras[#paras + 1] = cur; cur = {} end
      first = false
      local nr = {}
      for k, v in pairs(r) do nr[k] = v end
      nr.text = piece
      if piece ~= "" then cur[#cur + 1] = nr end
    end
  end
  paras[#paras + 1] = cur
  return paras
end

--- Lays out a text (a string, or a list of runs `{text =, font =, size =, color =, ...}`)
--- in a frame.  "\n" starts a paragraph, U+2028 breaks a line.
-- Options: `font` (required unless every run has one), `size` (12), `width` (required),
-- `height` (none: no limit), `x`, `y` (0: the frame's top left), `leading` (1.2 × size),
-- `tracking` (0, points after every glyph), `align` ("left"), `valign` ("top"),
-- `first_line_indent` (0), and canvas:text's `palette`, `overrides`, `color`, `format`,
-- `features`, `script`, `language`, `direction`.
-- @treturn table lines (see `paragraphs`)
-- @treturn string|nil the text that did not fit in `height`
-- @treturn number the height used
function M.lines(input, opts)
  local lines, over, used = M.paragraphs(to_paras(input, "lines"), opts, "lines")
  return lines, runs_text(over), used
end

--- Draws laid-out lines on a canvas with canvas:text (tracking: cluster by cluster).
function M.draw_lines(canvas, lines)
  for _, l in ipairs(lines) do
    for _, it in ipairs(l.items) do
      local r = it.run
      local t = { it.text, font = r.font, size = r.size, x = it.x, y = l.y }
      for _, k in ipairs(PASS) do t[k] = r[k] end
      if r.tracking and r.tracking ~= 0 then
        -- cluster by cluster, tracking after each glyph
        local glyphs = r.font:shape(it.text, (shape_opts(r)))
        local m = font_metrics(r.font)
        local x = it.x
        local i = 1
        while i <= #glyphs do
          local c0 = glyphs[i].cluster
          local adv, n = 0, 0
          local j = i
          while j <= #glyphs and glyphs[j].cluster == c0 do
            adv = adv + glyphs[j].x_advance; n = n + 1; j = j + 1
          end
          local c1 = glyphs[j] and glyphs[j].cluster or #it.text + 1
          local a, b = math.min(c0, c1), math.max(c0, c1)
          if b == a then b = #it.text + 1 end
          t[1], t.x = it.text:sub(a, b - 1), x
          canvas:text(t)
          x = x + adv * r.size / m.upem + r.tracking * n
          i = j
        end
      else
        canvas:text(t)
      end
    end
  end
end

--- Lays out and draws a text in a frame; see `lines` for the options.
-- @treturn string|nil the overflow (the text that did not fit)
-- @treturn integer the number of lines drawn
function M.draw(canvas, input, opts)
  local lines, over = M.paragraphs(to_paras(input, "draw"), opts, "draw")
  M.draw_lines(canvas, lines)
  return runs_text(over), #lines
end

return M
