--- chromatype: color-font typesetting from Lua.
-- The pure-Lua layer over the C module `chromatype.core`: it re-exports every core
-- function (fonts, canvases, paint trees, warnings) and adds units and a `safe`
-- table.  Reference: docs/lua-api.md.
-- @module chromatype

local core = require "chromatype.core"

local M = {}
for k, v in pairs(core) do M[k] = v end

--- The files read so far (fonts, filters, images, documents): a list, and a set by path;
-- `chromatype --watch` renders again when one of them changes.
M.inputs = {}

--- Records a file as an input (for --watch).
function M.note_input(path)
  if type(path) == "string" and path ~= "" and not M.inputs[path] then
    M.inputs[path] = true
    M.inputs[#M.inputs + 1] = path
  end
end

--- ct.open_font, noting the file it opened (a fontconfig name notes the file it found).
function M.open_font(...)
  local f, err, code = core.open_font(...)
  if f then M.note_input(f:info().path) end
  return f, err, code
end

-- Fonts shared by documents and stacks, by the path or name they were asked for: a batch
-- renders hundreds of documents with the same fonts, and each font object holds its file
-- and caches (paint trees, outlines) that Lua's collector would free late.  The library
-- never changes such a font (variable instances are fonts of their own); at most
-- FONT_CACHE_MAX are kept, the least recently used go first.
local FONT_CACHE_MAX = 48
local font_cache, font_order = {}, {}

--- The font for `spec` (a path or fontconfig name), opened once per process and shared;
--- nil, message, code as `open_font`.  Scripts that change a font (`set_variations`,
--- `close`) should open their own with `open_font`.
function M.shared_font(spec)
  local f = font_cache[spec]
  if f then
    for i, s in ipairs(font_order) do
      if s == spec then table.remove(font_order, i); break end
    end
    font_order[#font_order + 1] = spec
    M.note_input(f:info().path)
    return f
  end
  local err, code
  f, err, code = M.open_font(spec)
  if not f then return nil, err, code end
  font_cache[spec] = f
  font_order[#font_order + 1] = spec
  if #font_order > FONT_CACHE_MAX then font_cache[table.remove(font_order, 1)] = nil end
  return f
end

--- Version of the library (the C core's `CT_VERSION_STRING`), e.g. `"0.1.0"`.
M.version = core.version

local function number_arg(fname, x)
  if type(x) ~= "number" then
    error(("bad argument #1 to '%s' (number expected, got %s)"):format(fname, type(x)), 3)
  end
  return x
end

--- Millimetres to points (1 in = 25.4 mm = 72 pt).
-- @tparam number x millimetres
-- @treturn number points
function M.mm(x) return number_arg("mm", x) * 72 / 25.4 end

--- Centimetres to points.
-- @tparam number x centimetres
-- @treturn number points
function M.cm(x) return number_arg("cm", x) * 72 / 2.54 end

--- Inches to points.
-- @tparam number x inches
-- @treturn number points
function M.inch(x) return number_arg("inch", x) * 72 end

--- Points to points (for symmetry in unit tables).
-- @tparam number x points
-- @treturn number points
function M.pt(x) return number_arg("pt", x) end

--- A new document (pages, frames, paragraphs): see chromatype.document and docs/documents.md.
-- @tparam[opt] table opts size, orientation, margin, bleed, crop_marks, slug, background,
--   title, author, subject, keywords, base_dir
-- @treturn Document
function M.document(opts)
  return require("chromatype.document").new(opts)
end

--- A layered font stack (chromatype.stack): several fonts drawn as one, one color per layer.
-- @tparam table layers `{ {font =, color =, offset =, hidden =}, ..., lead = 1, match = "name" }`
-- @treturn Stack
function M.stack(layers)
  return require("chromatype.stack").new(layers)
end

--- Writes a color font made from a stack, a font with new palettes, a font with filters
-- baked in, or paint trees (chromatype.fontmake); returns true, or nil and a message.
-- @tparam Font|Stack|string source
-- @tparam string path OUT.ttf or OUT.woff2
-- @tparam[opt] table opts `formats`, `text`, `family`, `palettes`, `palette_type`, `filters`,
--   `glyphs`, `glyph`, `labels`, `woff2`, `seed`
function M.save_font(source, path, opts)
  return require("chromatype.fontmake").save_font(source, path, opts)
end

--- Writes an animation, one canvas per frame (chromatype.animate): `{width =, height =,
-- fps = 30, duration = (or frames =), output =, draw = function(canvas, t, frame, p) end}`;
-- returns true, or nil and a message.
function M.animate(t)
  return require("chromatype.animate").animate(t)
end

--- A color from CSS syntax (`"tomato"`, `"rgb(255 0 0 / 50%)"`, `"hsl(120 50% 40%)"`, `"#f80"`)
-- as "#rrggbbaa", or nil and a message (chromatype.palette).
function M.color(c)
  return require("chromatype.palette").color(c)
end

--- Non-raising variants.
-- `ct.safe.f(...)` calls `ct.f(...)` under `pcall` and returns its results, or
-- `nil, msg` when it raised.  `ct.safe.call(obj, "method", ...)` does the same
-- for a method (`ct.safe.call(canvas, "text", {...})`).
-- @table safe
M.safe = {}

local function pack_result(ok, ...)
  if ok then return ... end
  return nil, (...)
end

for name, f in pairs(core) do
  if type(f) == "function" then
    M.safe[name] = function(...) return pack_result(pcall(f, ...)) end
  end
end

--- Calls `obj[method](obj, ...)` under `pcall`; returns its results or `nil, msg`.
-- @param obj a Font or Canvas
-- @tparam string method the method name
-- @return the method's results, or nil and the error message
function M.safe.call(obj, method, ...)
  return pack_result(pcall(function(...) return obj[method](obj, ...) end, ...))
end

return M
