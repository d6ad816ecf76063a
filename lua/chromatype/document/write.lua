-- chromatype.document.write: writing a document: a still to a file (a PDF page by page as it
-- is typeset), a stream of pages made as they come (doc:stream, doc:finish), an animation
-- frame by frame.  Typesetting and drawing are render.lua's; it reads no XML.

local motion = require "chromatype.motion"
local common = require "chromatype.document.common"
local model = require "chromatype.document.model"
local render = require "chromatype.document.render"

local fail, argerr = common.fail, common.argerr
local output, still_time = render.output, render.still_time
local Document = model.Document

local M = {}

-- The write options of `opts` for canvas:write or canvas:stream (the document's metadata
-- for a PDF), and whether the file is a PDF.
local function write_options(self, path, opts)
  local wo = {}
  for k, v in pairs(opts) do if k ~= "filters" and k ~= "seed" and k ~= "at" then wo[k] = v end end
  if path == "-" and not wo.format then wo.format = "pdf" end
  local ext = path:match("%.(%w+)$")
  local pdf = (wo.format == "pdf") or (not wo.format and ext and ext:lower() == "pdf") or path == "-"
  if pdf then
    for k, v in pairs(self.meta) do if wo[k] == nil then wo[k] = v end end
  end
  return wo, pdf
end

local STILL_ONLY = { "fps", "duration", "loop", "quality", "effort", "dither", "matte", "workers", "poster" }

-- The filters a write runs after the seeded rand: `opts.filters` (else the command line's)
-- and the document's own; and the first of them that needs the whole document, if any.
local function write_filters(self, opts)
  local filter = require "chromatype.filter"
  local list = {}
  for _, f in ipairs(opts.filters or filter.defaults) do list[#list + 1] = f end
  for _, f in ipairs(self.filters or {}) do list[#list + 1] = f end
  for _, f in ipairs(list) do
    if filter.needs_document(f) then return list, f end
  end
  return list, nil
end

-- A PDF written page by page: `sheet(sheet, index)` draws a typeset sheet (through the
-- filters, run on that page alone) into the file, `finish()` closes it, `abort()` drops it.
local function new_pdf_stream(self, path, wo, filters, seed, time)
  local filter = require "chromatype.filter"
  local st = { path = path, pages = 0 }
  local c
  local function out(page_sheet, frames, filtered)
    local first = c == nil
    if st.failed then return end       -- the file could not be made: nothing more is drawn
    c = self:draw_sheet(c, page_sheet, frames, filtered)
    st.pages = st.pages + 1
    if first then
      -- the file cannot be made (a read-only folder): finish returns its error, as write does
      local ok, err, code = output(c, "stream", path, wo)
      if not ok then st.failed = { err, code } end
    end
  end
  function st.sheet(sheet, index)
    local list = filters
    if filter.needs_rand({ sheet }) then
      list = { filter.rand }
      for _, f in ipairs(filters) do list[#list + 1] = f end
    end
    if #list == 0 then out(sheet, sheet.frames, false); return end
    local tree = filter.run(filter.build(self, { sheet }, index), list, seed, time)
    for _, page in ipairs(tree.pages) do out(page.sheet or sheet, page.frames, true) end
  end
  function st.abort()
    if c then c:close() end            -- drops the half-written file
    c = nil
  end
  function st.finish(report)
    if not c then fail(self, "the filters removed every page") end
    report.pages = st.pages
    if st.failed then
      c:close()
      return nil, st.failed[1], st.failed[2], c, report
    end
    local ok, err, code = output(c, "finish")
    return ok, err, code, c, report
  end
  return st
end

--- Renders and writes the document: `.pdf` (every page, with the title, author, subject
--- and keywords), `.png` or `.svg` (one file per page), "-" (PDF on standard output).
--- A PDF is written page by page as it is typeset, unless a filter needs the whole
--- document (see chromatype.filter: `whole_document`, a `Document` function).
-- Options: those of canvas:write (`dpi`, `format`, `text_layer`, `cmyk`, `inks`,
-- `inks_only`, `overprint`, `plates`), and render's `filters` and `seed`.
-- @treturn true|nil, msg
-- @treturn Canvas the rendered canvas
function Document:write(path, opts)
  if type(path) ~= "string" then argerr("write", 1, "string expected, got " .. type(path)) end
  opts = opts or {}
  if M.is_animation(path) then return self:write_animation(path, opts) end
  for _, k in ipairs(STILL_ONLY) do
    if opts[k] ~= nil then fail(self, ("%s: for animations (.apng, .webp, .gif, .mp4, .webm, .mov or a %%d pattern); '%s' is a still")
      :format(k, path)) end
  end
  local wo, pdf = write_options(self, path, opts)
  local filters, whole = write_filters(self, opts)
  if pdf and path ~= "-" and not whole then
    local filter = require "chromatype.filter"
    local time = still_time(self, opts.at)
    self:set_time(time.t)
    local st = new_pdf_stream(self, path, wo, filters, opts.seed or filter.cli_seed or self.seed, time)
    local ok, sheets_or_err, report = pcall(self.typeset, self, st.sheet)
    if not ok then st.abort(); error(sheets_or_err, 0) end
    return st.finish(report)
  end
  local c, report = self:render { filters = opts.filters, seed = opts.seed, at = opts.at }
  local ok, err, code = output(c, "write", path, wo)
  return ok, err, code, c, report
end

--- Begins writing the document to a PDF page by page, as it is made: from now on each page
--- is typeset, filtered and written when the next one begins (`doc:page`) or at
--- `doc:finish()`, and then let go, so a document of any length is never held whole.
--- Pages made before are written the same way.  Options as `write` takes them for a PDF;
--- filters run on each page alone (one that needs the whole document is refused).
-- @treturn Document self
function Document:stream(path, opts)
  if type(path) ~= "string" then argerr("stream", 1, "string expected, got " .. type(path)) end
  opts = opts or {}
  if type(opts) ~= "table" then argerr("stream", 2, "table expected, got " .. type(opts)) end
  if self.streaming then fail(self, ("is being written to %s already"):format(self.streaming.path)) end
  if self.streamed then fail(self, ("was written to %s page by page: its pages are gone"):format(self.streamed)) end
  local wo, pdf = write_options(self, path, opts)
  if not pdf or path == "-" or M.is_animation(path) then
    fail(self, ("stream: writes a PDF file page by page; for '%s' use doc:write"):format(path))
  end
  for _, k in ipairs(STILL_ONLY) do
    if opts[k] ~= nil then fail(self, ("stream: %s is for animations"):format(k)) end
  end
  local filters, whole = write_filters(self, opts)
  if whole then
    fail(self, ("stream: the filter '%s' needs the whole document; write it with doc:write"):format(whole.name))
  end
  local filter = require "chromatype.filter"
  local time = still_time(self, opts.at)
  self:set_time(time.t)
  self.axes_seen = nil
  local st = new_pdf_stream(self, path, wo, filters, opts.seed or filter.cli_seed or self.seed, time)
  st.ts = self:typesetter(st.sheet)
  self.streaming = st
  -- the pages so far but the last, which may still be filled
  local last = table.remove(self.pages)
  for _, pg in ipairs(self.pages) do self:stream_page(pg) end
  self.pages = { last }
  return self
end

-- Typesets and writes one page of a stream, then lets its text go (frames of a written page
-- refuse more).
function Document:stream_page(pg)
  local st = self.streaming
  for _, fr in ipairs(pg.frames) do
    fr.x, fr.y = fr.x0, fr.y0
    for _, a in ipairs(fr.moves or {}) do fr[a.attribute] = motion.at(a, self.time, self.total) end
  end
  local ok, err = pcall(st.ts.page, pg)
  if not ok then
    st.abort()
    self.streaming, self.streamed = nil, st.path
    error(err, 0)
  end
  for _, fr in ipairs(pg.frames) do fr.paras, fr.written = {}, st.path end
  pg.written = st.path
end

--- Drops a stream (`doc:stream`) unfinished: no file is left.
function Document:abort()
  local st = self.streaming
  if not st then return end
  st.abort()
  self.streaming, self.streamed = nil, st.path
end

--- Writes the last page of a stream (`doc:stream`) and closes its file.
-- @treturn true|nil, msg, code, Canvas, report (as `write`)
function Document:finish()
  local st = self.streaming
  if not st then fail(self, "finish: the document is not being streamed (doc:stream first)") end
  local pages = self.pages
  self.pages = {}
  for _, pg in ipairs(pages) do self:stream_page(pg) end
  self.streaming, self.streamed = nil, st.path
  local ok, sheets_or_err, report = pcall(st.ts.finish)
  if not ok then st.abort(); error(sheets_or_err, 0) end
  if report.pages == 0 then st.abort(); fail(self, "has no pages") end
  return st.finish(report)
end

--- Whether `path` names an animation (by its extension: .apng, .webp, .gif, .mp4, .webm,
--- or a frame pattern such as "frames/%04d.png"); .png, .pdf and .svg are stills.
function M.is_animation(path)
  local ext = (path:match("%.(%w+)$") or ""):lower()
  if ext == "apng" or ext == "webp" or ext == "gif" or ext == "mp4" or ext == "webm" or ext == "mov" then
    return true
  end
  return path:find("%%[0-9]*d") ~= nil
end

local ANIM_OPTS = { dpi = true, fps = true, duration = true, loop = true, quality = true, filters = true, seed = true,
  effort = true, dither = true, matte = true, workers = true, poster = true }
-- the options chromatype.animate takes as they are
local ANIM_PASSED = { "quality", "effort", "dither", "matte", "workers", "poster" }

--- Writes a one-page document as an animation (see M.is_animation for the formats): each
--- frame i is laid out at t = i / fps with its animated values, its filters see the time
--- (ctx.t, ctx.frame_number), and it is drawn through chromatype.animate.  Options: `fps`,
--- `duration`, `loop` (the document's by default; the duration defaults to the end of its
--- last animation), `dpi` (72), `filters`, `seed`, and those of chromatype.animate:
--- `quality` (WebP, video), `effort` (WebP), `dither` (GIF), `matte` (video), `workers`,
--- `poster` (APNG).
-- @treturn true|nil, msg (nothing is left on disk on error)
function Document:write_animation(path, opts)
  for k in pairs(opts) do
    if not ANIM_OPTS[k] then fail(self, ("%s: not for animations ('%s')"):format(k, path)) end
  end
  local fps, dur, loop, terr = common.timing(opts.fps, opts.duration, opts.loop)
  if terr then fail(self, terr) end
  fps, loop = fps or self.fps or 30, loop or self.loop
  dur = dur or self.duration
  local last, open = self:animations_end()
  if not dur then
    if open then fail(open.obj, "dur: needed when the document has no duration") end
    dur = last or (1 / fps)       -- nothing moves: one frame
  end
  local _, _, _, ferr = common.timing(fps, dur)
  if ferr then fail(self, ferr) end
  if #self.pages ~= 1 then
    fail(self, ("an animation has one page; this document has %d"):format(#self.pages))
  end
  local filter = require "chromatype.filter"
  local seed = opts.seed or filter.cli_seed or self.seed
  -- laid out once before the file is made: a bad font, axis or palette stops here
  self:set_time(0, dur)
  local sheets = self:typeset()
  if #sheets > 1 then
    fail(self, ("an animation has one page; this document makes %d (text continued on new pages)"):format(#sheets))
  end
  local pg = self.pages[1]
  local off = self.bleed + self.slug
  local anim = require "chromatype.animate"
  local t = { width = pg.width + 2 * off, height = pg.height + 2 * off, fps = fps, duration = dur,
    output = path, dpi = opts.dpi, loop = loop,
    draw = function(c, t, frame, p)
      self:render { canvas = c, filters = opts.filters, seed = seed, total = dur,
        time = { t = t, frame_number = frame, fps = fps, duration = dur, progress = p } }
    end }
  for _, k in ipairs(ANIM_PASSED) do t[k] = opts[k] end
  return anim.animate(t)
end

M.write_options, M.write_filters = write_options, write_filters

return M
