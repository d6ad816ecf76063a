--- chromatype.layout: paragraphs in a frame.
-- A paragraph is a list of runs (text with a style).  Each run's text is split into items
-- that shape alone: by font (a run's `font` may be a fallback chain, a list of fonts tried
-- in order for each character), by script (ICU's script property, `ct.script_runs`) and by
-- bidi level (`ct.bidi`).  Lines end at Unicode line-break opportunities (UAX #14 through
-- ICU, `ct.line_breaks`), filled greedily, with hyphenation (`ct.hyphenate`) when a run asks
-- for it; each line is put in visual order by the bidi algorithm, aligned (start, end, left,
-- right, center, justify) and stacked in the frame; what does not fit is the overflow, in
-- the same shape as the input so it can flow into another frame.  A fitting cascade
-- (tracking, a width axis, alternates, size) shrinks text into its frame or its lines.
-- Reference: docs/documents.md.
-- This file holds the public functions; the work is in the modules beside it: common.lua
-- (options, checks, warnings), shape.lua (measuring, caches, shaping), itemize.lua,
-- segments.lua (break opportunities, hyphenation), lines.lua (the line breakers),
-- place.lua (paragraphs in a frame), fit.lua (the fitting cascade), draw.lua.
-- @module chromatype.layout

local linebreak = require "chromatype.linebreak"
local common = require "chromatype.layout.common"
local shape = require "chromatype.layout.shape"
local placer = require "chromatype.layout.place"
local fit = require "chromatype.layout.fit"
local draw = require "chromatype.layout.draw"

local ALIGN, ALIGN_NAMES, VALIGN, BREAKERS = common.ALIGN, common.ALIGN_NAMES, common.VALIGN, common.BREAKERS
local OPTS_ALLOWED, PARA_KEYS, set_of = common.OPTS_ALLOWED, common.PARA_KEYS, common.set_of
local argerr, check_keys, check_num, font_chain = common.argerr, common.check_keys, common.check_num,
  common.font_chain
local copy_style, place = placer.copy_style, placer.place
local parse_steps, attempt, fit_cascade = fit.parse_steps, fit.attempt, fit.fit_cascade

local M = {}

M.warn = common.warn
M.memo, M.memo_budget = shape.memo, shape.memo_budget
M.measure = shape.measure
M.draw_lines = draw.draw_lines

-- ---- the public functions ---------------------------------------------------------------------

-- Checks the line-breaking options of a frame or paragraph `t` ("" or "paragraph N: ").
local function check_break(t, fname, n, what)
  if t.breaker ~= nil and not BREAKERS[t.breaker] then
    argerr(fname, n, ("%sfield 'breaker': expected optimal or first-fit, got '%s'"):format(what, tostring(t.breaker)))
  end
  local lo = t.looseness
  if lo ~= nil and (math.type(lo) ~= "integer" or lo < -100 or lo > 100) then
    argerr(fname, n, ("%sfield 'looseness': expected an integer from -100 to 100, got %s"):format(what, tostring(lo)))
  end
  local tol = t.tolerance
  if tol ~= nil and (type(tol) ~= "number" or not (tol >= 0 and tol <= linebreak.INF_BAD)) then
    argerr(fname, n, ("%sfield 'tolerance': expected a number from 0 to %d, got %s")
      :format(what, linebreak.INF_BAD, tostring(tol)))
  end
end

local function check_opts(opts, fname)
  if type(opts) ~= "table" then argerr(fname, 2, "options table expected, got " .. type(opts)) end
  check_keys(opts, OPTS_ALLOWED, fname, 2)
  for _, k in ipairs({ "width", "height", "x", "y", "first_line_indent", "leading", "tracking", "size",
                       "fit_tracking", "fit_width", "fit_size" }) do
    check_num(opts, k, fname, 2)
  end
  local width = opts.width
  if width == nil then argerr(fname, 2, "field 'width': required") end
  if width <= 0 then argerr(fname, 2, "field 'width': must be > 0") end
  if opts.height and opts.height < 0 then argerr(fname, 2, "field 'height': must be >= 0") end
  if opts.size and opts.size <= 0 then argerr(fname, 2, "field 'size': must be > 0") end
  if opts.fit_size and (opts.fit_size <= 0 or opts.fit_size > 1) then
    argerr(fname, 2, "field 'fit_size': the smallest size as a fraction of the size, 0 < fit_size <= 1")
  end
  if opts.align and not ALIGN[opts.align] then
    argerr(fname, 2, ("field 'align': expected %s, got '%s'"):format(ALIGN_NAMES, tostring(opts.align)))
  end
  if opts.valign and not VALIGN[opts.valign] then
    argerr(fname, 2, ("field 'valign': expected top, middle or bottom, got '%s'"):format(tostring(opts.valign)))
  end
  if opts.fit_to and opts.fit_to ~= "frame" and opts.fit_to ~= "line" then
    argerr(fname, 2, ("field 'fit_to': expected frame or line, got '%s'"):format(tostring(opts.fit_to)))
  end
  check_break(opts, fname, 2, "")
  check_num(opts, "emergency_stretch", fname, 2, 0)
  if opts.font ~= nil and not font_chain(opts.font) then
    argerr(fname, 2, "field 'font': a Font or a list of Fonts is required")
  end
end

--- Lays out paragraphs in a frame.
-- `paras` is a list of paragraphs; each is a list of runs `{text =, font =, size =, ...}`
-- (missing style keys come from `opts`), with optional `align`, `first_line_indent` and
-- `continued` (the paragraph goes on from a previous frame: no indent).
-- Within a run, U+2028 (and "\n") is a line break.
-- @treturn table lines: {x =, y = baseline, width =, natural =, text = (logical order),
--   height =, ascent =, descent =, rtl =, items = {{text =, run =, font =, script =,
--   direction =, x =, width =}, ...} (visual order)} in frame coordinates
-- @treturn table|nil the overflow: paragraphs in the input's shape (nil if all fits)
-- @treturn number the height used (top of the frame to the last line's descent)
-- @treturn table|nil the fitting result when `fit` is given: {fits =, steps = {{step =, value =}...}}
function M.paragraphs(paras, opts, fname)
  fname = fname or "paragraphs"
  check_opts(opts, fname)
  if type(paras) ~= "table" then argerr(fname, 1, "list of paragraphs expected, got " .. type(paras)) end
  for pi, para in ipairs(paras) do
    if type(para) ~= "table" then argerr(fname, 1, ("paragraph %d: table expected"):format(pi)) end
    for k in pairs(para) do
      if type(k) ~= "number" and not set_of(PARA_KEYS)[k] then
        argerr(fname, 1, ("paragraph %d: unknown field '%s' (expected %s)")
          :format(pi, tostring(k), table.concat(PARA_KEYS, ", ")))
      end
    end
    for _, k in ipairs({ "space_before", "space_after", "first_line_indent" }) do
      check_num(para, k, fname, 1, nil, ("paragraph %d: "):format(pi))
    end
    check_break(para, fname, 1, ("paragraph %d: "):format(pi))
    if para.align and not ALIGN[para.align] then
      argerr(fname, 1, ("paragraph %d: align: expected %s, got '%s'"):format(pi, ALIGN_NAMES, tostring(para.align)))
    end
  end
  local steps = parse_steps(opts.fit, fname)
  local base = copy_style(opts)
  base.size = base.size or 12
  local warned = {}
  local res, fitinfo
  if steps and #steps > 0 then
    res, fitinfo = fit_cascade(paras, opts, base, fname, warned, steps)
  else
    res = attempt(paras, opts, base, fname, warned, nil)
  end
  local out = place(res.all, res.fit, res.used, opts, opts.width)
  return out, res.overflow, res.used, fitinfo
end

local function runs_text(paras)
  if not paras then return nil end
  local t = {}
  for i, p in ipairs(paras) do
    for _, r in ipairs(p) do t[#t + 1] = r.text end
    if i < #paras then t[#t + 1] = "\n" end
  end
  return table.concat(t)
end
M.overflow_text = runs_text

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
M.to_paragraphs = to_paras

--- Lays out a text (a string, or a list of runs `{text =, font =, size =, color =, ...}`)
--- in a frame.  "\n" starts a paragraph, U+2028 breaks a line.
-- Options: `font` (a Font or a fallback chain, a list of Fonts; required unless every run
-- has one), `size` (12), `width` (required), `height` (none: no limit), `x`, `y` (0: the
-- frame's top left), `leading` (1.2 × size), `tracking` (0, points after every glyph),
-- `align` ("start"), `valign` ("top"), `first_line_indent` (0), `hyphenate` (false),
-- the fitting options `fit`, `fit_to`, `fit_tracking`, `fit_width`, `fit_features`,
-- `fit_size`, and canvas:text's `palette`, `overrides`, `color`, `format`, `features`,
-- `script`, `language`, `direction`.
-- @treturn table lines (see `paragraphs`)
-- @treturn string|nil the text that did not fit in `height`
-- @treturn number the height used
-- @treturn table|nil the fitting result (see `paragraphs`)
function M.lines(input, opts)
  local lines, over, used, fit = M.paragraphs(to_paras(input, "lines"), opts, "lines")
  return lines, runs_text(over), used, fit
end


--- Lays out and draws a text in a frame; see `lines` for the options.
-- @treturn string|nil the overflow (the text that did not fit)
-- @treturn integer the number of lines drawn
-- @treturn table|nil the fitting result
function M.draw(canvas, input, opts)
  local lines, over, _, fit = M.paragraphs(to_paras(input, "draw"), opts, "draw")
  M.draw_lines(canvas, lines)
  return runs_text(over), #lines, fit
end

return M
