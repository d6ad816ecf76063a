-- chromatype.document.render: typesetting and drawing: a document's frames laid out with
-- their resolved styles (chromatype.frames, chromatype.layout) into sheets, drawn on a canvas
-- with backgrounds, images, rules and print marks, through the filters.  It writes no files.

local ct = require "chromatype"
local layout = require "chromatype.layout"
local motion = require "chromatype.motion"
local frames = require "chromatype.frames"
local common = require "chromatype.document.common"
local model = require "chromatype.document.model"
local styles = require "chromatype.document.styles"

local BREAK_KEYS = common.BREAK_KEYS
local fail, argerr = common.fail, common.argerr
local merge = styles.merge
local Document = model.Document
local MAX_OVERFLOW_PAGES = 1000

local M = {}

-- ---- rendering ---------------------------------------------------------------------------

-- The layout paragraphs of a frame: runs with every style resolved.
function Document:layout_paras(fr)
  local base = self.styles.default and self:resolve(fr, "default") or {}
  local fstyle = base
  if fr.style_name then fstyle = merge(fstyle, self:resolve(fr, fr.style_name)) end
  fstyle = merge(fstyle, self:at(fr.fields))
  -- a rule goes before the next paragraph: its room is that paragraph's space before
  local texts, before, rules = {}, {}, nil
  for _, p in ipairs(fr.paras) do
    if p.rule then
      if #texts == 0 then fail(p.obj, "a rule in a frame goes between two paragraphs") end
      rules = rules or { obj = p.obj }
      rules[#rules + 1] = p.rule
    else
      texts[#texts + 1] = p
      before[p], rules = rules, nil
    end
  end
  if rules then fail(rules.obj, "a rule in a frame goes between two paragraphs") end
  self.rule_before = self.rule_before or setmetatable({}, { __mode = "k" })
  local out = {}
  for _, p in ipairs(texts) do
    local ps = fstyle
    if p.style then ps = merge(ps, self:resolve(p.obj, p.style)) end
    ps = merge(ps, self:at(p.fields))
    local para = { align = ps.align, first_line_indent = ps.indent, space_before = ps.space_before,
      space_after = ps.space_after }
    for _, k in ipairs(BREAK_KEYS) do para[k] = ps[k] end
    for _, r in ipairs(p.runs) do
      local s = ps
      for _, l in ipairs(r.layers) do
        if l.style then s = merge(s, self:resolve(l.obj, l.style)) end
        s = merge(s, self:at(l.fields))
      end
      if not s.font then
        fail(r.obj.where and r.obj or p.obj, "no font (give font= here, or in a style it uses)")
      end
      local size = s.size or 12
      local font, pal, ov = s.font, s.palette, s.overrides
      font = self:vary(s, font, size, (r.obj and r.obj.where) and r.obj or p.obj or {})
      if s.palette_mix then pal, ov = self:blend(font, s.palette_mix, ov) end
      para[#para + 1] = { text = r.text, font = font, size = size,
        leading = s.leading or (s.leading_factor and s.leading_factor * size) or nil,
        tracking = s.tracking, color = s.color, palette = pal, overrides = ov,
        features = s.features, language = s.language, direction = s.direction,
        hyphenate = s.hyphenate, format = s.format,
        -- the layout sets opsz again where fitting changes the size; variations' opsz stands
        optical_size = (s.variations and s.variations.opsz) and "none" or s.optical_size }
    end
    if before[p] then
      for _, r in ipairs(before[p]) do para.space_before = (para.space_before or 0) + r.room end
      self.rule_before[para] = before[p]
    end
    out[#out + 1] = para
  end
  return out, fstyle
end

-- Lays out paragraphs in a frame's text box (inside its border and padding), in its
-- columns; returns the lines, the overflow paragraphs and the rectangles drawn under the
-- text (background, border, column rules, rules between paragraphs).
function Document:set_frame(fr, paras, fstyle, ox, oy)
  local x, y, w, h = frames.inner(ox + fr.x, oy + fr.y, fr.width, fr.height, fr.box)
  local opts = { width = w, height = h, x = x, y = y, valign = fr.valign,
    font = fstyle.font, size = fstyle.size }
  for k, v in pairs(fr.fit) do opts[k] = v end
  if opts.fit_width ~= nil then opts.fit_width = tonumber(opts.fit_width) end
  local cols = { n = fr.columns, gap = fr.column_gap or fstyle.size or 12, fill = fr.column_fill,
    rule = fr.column_rule }
  local decor = frames.box_rects({}, ox + fr.x, oy + fr.y, fr.width, fr.height, fr.box)
  local ok, lines, over, fit, rects = pcall(frames.flow, paras, opts, cols, self.rule_before or {})
  if not ok then fail(fr, (tostring(lines):gsub("^bad argument #%d+ to 'frame' %((.*)%)$", "%1"))) end
  for _, r in ipairs(rects) do decor[#decor + 1] = r end
  if fit and not fit.fits then
    layout.warn(("%sthe text does not fit even after %s"):format(fr.where or (fr.what .. ": "),
      (fr.fit.fit and (type(fr.fit.fit) == "table" and table.concat(fr.fit.fit, ", ") or fr.fit.fit)) or "fitting"))
  end
  fr.fit_result = fit
  return lines, over, decor
end

local function count_chars(paras)
  local n = 0
  for _, p in ipairs(paras) do for _, r in ipairs(p) do n = n + utf8.len(r.text) end end
  return n
end

-- The text that did not fit `fr` (and goes nowhere): in the report, and a warning unless
-- the frame hides its overflow.
local function report_overflow(report, fr, over)
  report.overflows[#report.overflows + 1] = { frame = fr, characters = count_chars(over) }
  if fr.overflow_mode ~= "hide" then
    layout.warn(("%sthe text overflows (%d characters not drawn)")
      :format(fr.where or (fr.what .. ": "), count_chars(over)))
  end
end

-- Crop marks and registration marks in the slug (outside the bleed), in registration color:
-- on every plate.
local function print_marks(c, off, bleed, slug, tw, th)
  local REG = "registration"
  if slug <= 0 then return end
  local t = 0.25
  local gap = math.min(3, slug / 4)                 -- from the bleed edge to a mark
  local len = math.min(slug - gap, 18)
  local x0, y0, x1, y1 = off, off, off + tw, off + th
  local out = bleed + gap                            -- distance of a mark from the trim
  for _, cx in ipairs({ x0, x1 }) do
    for _, cy in ipairs({ y0, y1 }) do
      local hx = cx == x0 and (x0 - out - len) or (x1 + out)
      local vy = cy == y0 and (y0 - out - len) or (y1 + out)
      c:rect { x = hx, y = cy - t / 2, w = len, h = t, color = REG }
      c:rect { x = cx - t / 2, y = vy, w = t, h = len, color = REG }
    end
  end
  -- registration marks: a cross in a square ring, centered on each side in the slug
  local r = math.min(6, (slug - gap) / 2 - 1)
  if r < 2 then return end
  local d = bleed + gap + (slug - gap) / 2
  local centers = { { (x0 + x1) / 2, y0 - d }, { (x0 + x1) / 2, y1 + d }, { x0 - d, (y0 + y1) / 2 },
    { x1 + d, (y0 + y1) / 2 } }
  for _, ctr in ipairs(centers) do
    local mx, my = ctr[1], ctr[2]
    c:rect { x = mx - r, y = my - t / 2, w = 2 * r, h = t, color = REG }
    c:rect { x = mx - t / 2, y = my - r, w = t, h = 2 * r, color = REG }
    local q = r * 0.6
    c:rect { x = mx - q, y = my - q, w = 2 * q, h = t, color = REG }
    c:rect { x = mx - q, y = my + q - t, w = 2 * q, h = t, color = REG }
    c:rect { x = mx - q, y = my - q, w = t, h = 2 * q, color = REG }
    c:rect { x = mx + q - t, y = my - q, w = t, h = 2 * q, color = REG }
  end
end

-- Calls c:write, c:stream, c:finish or c:new_page (which writes the streamed pages before
-- it, and a chunk of them): what the core refuses (a color no ink prints under inks_only,
-- plates without inks, a write error) comes out as its one-line message, which names the
-- file, without a position in this module's files (lua/chromatype/document/).
local function output(c, method, ...)
  local r = table.pack(pcall(c[method], c, ...))
  if r[1] then return table.unpack(r, 2, r.n) end
  error((tostring(r[2]):gsub("^[^\n]-document/?%w*%.lua:%d+: ", "")), 0)
end

-- Starts page `pg` on the canvas (creating it for the first page; `fresh`: the canvas is
-- new, its first page is this one).
function Document:begin_page(c, pg, fresh)
  local off = self.bleed + self.slug
  local w, h = pg.width + 2 * off, pg.height + 2 * off
  if fresh then
    -- an animation frame's canvas: drawn and rasterized, never printed (no inks)
  elseif not c then
    c = ct.canvas { width = w, height = h }
    for _, ink in ipairs(self.inks or {}) do c:ink(ink) end
  else
    output(c, "new_page", { width = w, height = h })
  end
  local bg = pg.background or self.background
  if bg then
    if self.slug > 0 then
      c:rect { x = self.slug, y = self.slug, w = pg.width + 2 * self.bleed, h = pg.height + 2 * self.bleed,
        color = bg }
    else
      c:background(bg)
    end
  end
  return c, off
end

function Document:end_page(c, pg, off)
  if self.bleed > 0 or self.slug > 0 then
    -- the PDF's TrimBox and BleedBox (the MediaBox is the whole sheet)
    c:page_boxes { trim = { off, off, pg.width, pg.height },
      bleed = { self.slug, self.slug, pg.width + 2 * self.bleed, pg.height + 2 * self.bleed } }
  end
  if self.crop_marks then print_marks(c, off, self.bleed, self.slug, pg.width, pg.height) end
end

-- A sheet: one page to draw, with its frames' lines.
local function new_sheet(self, pg)
  local off = self.bleed + self.slug
  return { page = pg, off = off, width = pg.width + 2 * off, height = pg.height + 2 * off, frames = {} }
end

-- A typesetting pass: `ts.page(pg)` sets a page (and the continuation pages its overflow
-- makes) into sheets, `ts.finish()` ends the pass and returns the sheets and the report.
-- With on_sheet, each sheet is handed over when the next begins (and the last at the end)
-- instead of being kept: a long document is written page by page.  Frames that follow
-- frames of earlier pages take their overflow across pages.
function Document:typesetter(on_sheet)
  local sheets = {}
  local held, count = nil, 0
  local function add(sheet)
    count = count + 1
    if not on_sheet then sheets[#sheets + 1] = sheet; return end
    if held then on_sheet(held, count - 1) end
    held = sheet
  end
  local report = { overflows = {}, pages = 0 }
  local pending = {}         -- frame -> overflow paragraphs for the frame that follows it
  -- streaming, a frame that a frame of a later page may still follow keeps its overflow
  -- (and its warning) until that frame comes or the document ends
  local later, later_order = {}, {}
  local function place(sheet, fr, paras, fstyle)
    local lines, over, decor = self:set_frame(fr, paras, fstyle, sheet.off, sheet.off)
    sheet.frames[#sheet.frames + 1] = { frame = fr, lines = lines, x = sheet.off + fr.x, y = sheet.off + fr.y,
      width = fr.width, height = fr.height, decor = decor }
    return over
  end
  local ts = {}
  function ts.page(pg)
    local sheet = new_sheet(self, pg)
    add(sheet)
    local continued = {}
    for _, fr in ipairs(pg.frames) do
      local paras, fstyle = self:layout_paras(fr)
      if fr.follows then
        local prev = fr.follows
        if not prev.done then fail(fr, "follows: the frame it follows must come before it") end
        paras = pending[prev] or later[prev] or {}
        pending[prev], later[prev] = nil, nil
        fstyle = prev.fstyle
      end
      fr.fstyle = fstyle
      local over = place(sheet, fr, paras, fstyle)
      fr.done = true
      if over then
        local head = fr
        while head.follows do head = head.follows end
        if fr.followed_by then pending[fr] = over
        elseif head.overflow_mode == "continue" or fr.overflow_mode == "continue" then
          continued[#continued + 1] = { frame = fr, paras = over }
        elseif self.streaming then
          later[fr] = over
          later_order[#later_order + 1] = fr
        else
          report_overflow(report, fr, over)
        end
      end
    end
    -- overflow that continues: more pages like this one, with only those frames
    local extra = 0
    while #continued > 0 do
      extra = extra + 1
      if extra > MAX_OVERFLOW_PAGES then
        fail(continued[1].frame, ("the text needs more than %d continuation pages"):format(MAX_OVERFLOW_PAGES))
      end
      sheet = new_sheet(self, pg)
      sheet.continuation = true
      add(sheet)
      local again = {}
      for _, cont in ipairs(continued) do
        local before = count_chars(cont.paras)
        local over = place(sheet, cont.frame, cont.paras, cont.frame.fstyle)
        if over then
          if count_chars(over) >= before then
            fail(cont.frame, "the text does not fit an empty frame (it is too small for one line)")
          end
          again[#again + 1] = { frame = cont.frame, paras = over }
        end
      end
      continued = again
    end
  end
  function ts.finish()
    for _, fr in ipairs(later_order) do
      local over = later[fr]
      if over then report_overflow(report, fr, over) end
    end
    for fr, over in pairs(pending) do
      local n = count_chars(over)
      report.overflows[#report.overflows + 1] = { frame = fr.followed_by, characters = n }
      layout.warn(("%sthe frame that follows this one never comes (%d characters not drawn)")
        :format(fr.where or (fr.what .. ": "), n))
    end
    self:check_axes()
    if on_sheet and held then on_sheet(held, count) end
    held = nil
    report.pages = count
    return sheets, report
  end
  return ts
end

--- Lays out every page (kept, or handed to on_sheet one by one): the sheets to draw (continuation pages included) and a report.
-- @treturn table sheets `{{page =, off =, width =, height =, frames = {{frame =, lines =, x =, y =,
--   width =, height =}, ...}}, ...}` (points, on the sheet)
-- @treturn table the report: `overflows` = {{frame =, characters =}, ...}, `pages` = count
function Document:typeset(on_sheet)
  if self.streaming then fail(self, ("is being written to %s page by page (finish it first)"):format(self.streaming.path)) end
  if #self.pages == 0 then fail(self, self.streamed and ("was written to %s page by page: its pages are gone")
    :format(self.streamed) or "has no pages") end
  if self.time == nil then self:set_time(0) end
  self.axes_seen = nil
  for _, fr0 in ipairs(self.pages) do for _, fr in ipairs(fr0.frames) do fr.done = nil end end
  local ts = self:typesetter(on_sheet)
  for _, pg in ipairs(self.pages) do ts.page(pg) end
  return ts.finish()
end

--- Adds a filter (a table of functions, a chromatype.filter, or a file name as for `-f`)
--- with options; filters run in the order added, after any given to `render`.
function Document:filter(f, options)
  local filter = require "chromatype.filter"
  local flt
  if type(f) == "string" then
    local err
    flt, err = filter.load(f, options)
    if not flt then error(err, 2) end
  elseif type(f) == "table" and f.funcs then
    flt = f
  elseif type(f) == "table" then
    flt = filter.new(f, options)
  else
    argerr("filter", 1, "a filter table or file name expected, got " .. type(f))
  end
  self.filters = self.filters or {}
  self.filters[#self.filters + 1] = flt
  return self
end

-- Draws the lines of sheet frames (or filtered frame elements); `fresh` as in begin_page.
function Document:draw_sheet(c, sheet, frames, filtered, fresh)
  local pg = sheet.page
  local off
  c, off = self:begin_page(c, pg, fresh)
  for _, im in ipairs(sheet.continuation and {} or pg.images) do
    if not c.image then fail(im, "images need canvas:image, which this build lacks") end
    ct.note_input(im.path)
    local ok, err = pcall(c.image, c, { im.path, x = off + im.x, y = off + im.y, w = im.width,
      h = im.height, fit = im.fit })
    if not ok then fail(im, (tostring(err):gsub("^bad argument #%d+ to '%w+' %((.*)%)$", "%1"))) end
  end
  -- the page's rules in their place among the frames: each before the frames that follow it
  local rules, next_rule = sheet.continuation and {} or pg.rules, 1
  local function rules_until(order)
    while rules[next_rule] and rules[next_rule].order <= order do
      local r = rules[next_rule]
      c:rect { x = off + r.x, y = off + r.y, w = r.w, h = r.h, color = r.color }
      next_rule = next_rule + 1
    end
  end
  local filter = filtered and require "chromatype.filter"
  for _, fr in ipairs(frames) do
    local model = fr.model or fr.frame
    rules_until(model and model.order or math.huge)
    -- the frame's box and rules under its text (a filtered frame finds its sheet frame by index)
    local entry = fr
    if filtered then
      entry = sheet.frames[fr.index]
      if not entry or entry.frame ~= fr.model then entry = nil end
    end
    for _, r in ipairs(entry and entry.decor or {}) do c:rect(r) end
    local ok, err
    if filtered then ok, err = pcall(filter.draw_frame, c, fr)
    else ok, err = pcall(layout.draw_lines, c, fr.lines) end
    if not ok then fail(fr.model or fr.frame, tostring(err)) end
  end
  rules_until(math.huge)
  self:end_page(c, pg, off)
  return c
end

-- The time of a still drawn at `at` seconds (the first frame when nil).
local function still_time(self, at)
  local t = 0
  if at ~= nil then
    local err
    t, err = motion.time(at)
    if not t then fail(self, "at: " .. err) end
    if t < 0 or t > motion.MAX_SECONDS then fail(self, ("at: from 0 to %d seconds, got '%s'"):format(motion.MAX_SECONDS, tostring(at))) end
  end
  local fps = self.fps or 30
  return { t = t, frame_number = math.floor(t * fps + 1e-9), fps = self.fps, duration = self.duration or 0,
    progress = 0 }
end

--- Renders every page on a new canvas.
-- Options: `filters` (a list of filters, run before the document's own; default: the
-- command line's `-f` filters), `seed` (the random seed; default the command line's
-- `--seed`, else 0), `at` (a time: animated fields take their values then, and filters see
-- it as ctx.t; default 0), `time` (instead of `at`, an animation frame as filter.run takes
-- it), `canvas` (a one-page document drawn on this canvas's page instead of a new canvas).
-- @treturn Canvas
-- @treturn table a report: `overflows` = {{frame =, characters =}, ...}, `pages` = count
function Document:render(opts)
  opts = opts or {}
  local filter = require "chromatype.filter"
  local time = opts.time or still_time(self, opts.at)
  self:set_time(time.t, opts.total)
  local sheets, report = self:typeset()
  if opts.canvas and #sheets > 1 then
    fail(self, ("an animation has one page; this document makes %d (pages, or text continued on new ones)")
      :format(#sheets))
  end
  local filters = {}
  if filter.needs_rand(sheets) then filters[1] = filter.rand end
  for _, f in ipairs(opts.filters or filter.defaults) do filters[#filters + 1] = f end
  for _, f in ipairs(self.filters or {}) do filters[#filters + 1] = f end
  local c = opts.canvas
  if #filters == 0 then
    for _, sh in ipairs(sheets) do c = self:draw_sheet(c, sh, sh.frames, false, c == opts.canvas and c ~= nil) end
    return c, report
  end
  local tree = filter.build(self, sheets)
  tree = filter.run(tree, filters, opts.seed or filter.cli_seed or self.seed, time)
  for _, page in ipairs(tree.pages) do
    local sh = page.sheet or sheets[1]
    c = self:draw_sheet(c, sh, page.frames, true, c == opts.canvas and c ~= nil)
  end
  if not c then fail(self, "the filters removed every page") end
  report.pages = #tree.pages
  return c, report
end

M.output, M.still_time = output, still_time

return M
