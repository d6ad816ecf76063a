--- chromatype.fontmake.artwork: fonts from artwork, SVG drawings one per glyph
-- (`ct.save_font({ svg = DIR }, "out.ttf")`, `chromatype font --svg DIR`; docs/fonts.md).
-- Which characters a file draws comes from its name or from a map (CSV or JSON); the
-- drawings are read and made into a font by the core (core.artwork_builder,
-- src/fontmake/artwork/artfont.c).
-- @module chromatype.fontmake.artwork

local core = require "chromatype.core"

local M = {}

local function hexcp(h)
  if not h:match("^%x+$") or #h > 6 then return nil end
  return tonumber(h, 16)
end

-- A code point checked: nil, why when it is none.
local function check_cp(c, where)
  if math.type(c) ~= "integer" or c < 1 or c > 0x10FFFF then
    return nil, ("%s: U+%X is not a character (1..10FFFF)"):format(where, c or 0)
  end
  if c >= 0xD800 and c <= 0xDFFF then return nil, ("%s: U+%04X is a surrogate, not a character"):format(where, c) end
  return c
end

local function split(s, pat)
  local t = {}
  for p in s:gmatch(pat) do t[#t + 1] = p end
  return t
end

local function all_hex(parts)
  local out = {}
  for i, p in ipairs(parts) do
    local c = hexcp(p)
    if not c then return nil end
    out[i] = c
  end
  return #out > 0 and out or nil
end

--- The characters a file name stands for: a list of code points and a glyph name (either
-- may be nil), or nil and why.  `emoji_u1f468_200d_1f469.svg` (Noto), `1f468-200d-1f469.svg`
-- (Twemoji, OpenMoji; hex in any case, each part with a digit or of two letters), `u1F600`,
-- `U+1F600`, `uni0041`, a single ASCII letter or digit (`A.svg`); any other name is the
-- name of a glyph without a character (`a.alt.svg`).
function M.from_name(file)
  local stem = file:match("([^/]*)$"):gsub("%.[Ss][Vv][Gg]$", "")
  local cps
  if stem:match("^[A-Za-z]$") then
    return { stem:byte() }, stem   -- the letter's production name
  elseif stem:match("^[0-9]$") then
    cps = { stem:byte() }
  elseif stem:match("^emoji_[uU]") then
    cps = all_hex(split(stem:sub(8), "[^_]+"))
  elseif stem:match("^[Uu]%+") then
    local parts = {}
    for p in stem:gmatch("[^%s_%-]+") do parts[#parts + 1] = p:match("^[Uu]%+(%x+)$") or "-" end
    cps = all_hex(parts)
  elseif stem:match("^uni%x%x%x%x") and #stem % 4 == 3 and stem:sub(4):match("^%x+$") then
    cps = all_hex(split(stem:sub(4), "%x%x%x%x"))
  elseif stem:match("^u%x%x%x%x%x?%x?[_%x]*$") then
    cps = all_hex(split(stem:sub(2), "[^_]+"))
  else
    local parts = split(stem, "[^_%-]+")
    local ok = #parts > 0
    for _, p in ipairs(parts) do
      if not (p:match("^%x+$") and (p:match("%d") or #p <= 2)) then ok = false end
    end
    if ok and not stem:match("^[_%-]") and not stem:match("[_%-]$") and not stem:match("[_%-][_%-]") then cps = all_hex(parts) end
  end
  if cps then
    for _, c in ipairs(cps) do
      local ok, why = check_cp(c, file)
      if not ok then return nil, why end
    end
    return cps, nil
  end
  if stem:match("^[A-Za-z_.][A-Za-z0-9_.%-]*$") and #stem <= 63 then return nil, stem end
  return nil, nil, ("%s: no character or glyph name in its name (see --map)"):format(file)
end

-- "U+1F600 U+FE0F", "1F600 FE0F", or the characters themselves: a list of code points.
local function parse_chars(s, where)
  local out = {}
  s = s:match("^%s*(.-)%s*$")
  if s == "" then return out end
  if s:match("^[Uu]%+%x") then
    for part in s:gmatch("[^%s,]+") do
      local h = part:match("^[Uu]%+(%x+)$")
      local c = h and hexcp(h)
      if not c then return nil, ("%s: '%s' is not U+XXXX"):format(where, part) end
      out[#out + 1] = c
    end
  else
    if not utf8.len(s) then return nil, ("%s: the characters are not UTF-8"):format(where) end
    for _, c in utf8.codes(s) do out[#out + 1] = c end
  end
  for _, c in ipairs(out) do
    local ok, why = check_cp(c, where)
    if not ok then return nil, why end
  end
  return out
end

--- A map file: CSV (`file,characters,glyph name`, a header line allowed) or JSON
-- (`{"file.svg": "U+1F600 U+FE0F"}` or `{"file.svg": {"chars": "...", "name": "..."}}`):
-- a table {[file] = {cps =, name =}}; raises with the reason.
function M.read_map(path)
  local text, err = core.read_file(path)
  if not text then error(err, 0) end
  local batch = require "chromatype.batch"
  local map = {}
  local function put(file, chars, name, where)
    if type(file) ~= "string" or file == "" then error(where .. ": a file name expected", 0) end
    if chars ~= nil and type(chars) ~= "string" then error(where .. ": the characters must be a string", 0) end
    if name ~= nil and (type(name) ~= "string" or not name:match("^[A-Za-z_.][A-Za-z0-9_.%-]*$") or #name > 63) then
      error(("%s: glyph name '%s' (letters, digits, '.', '_', '-'; at most 63)"):format(where, tostring(name)), 0)
    end
    local cps, why = parse_chars(chars or "", where)
    if not cps then error(why, 0) end
    if #cps == 0 and not name then error(where .. ": neither characters nor a glyph name", 0) end
    local key = file:match("([^/]*)$")
    if map[key] then error(("%s: %s is mapped twice"):format(where, key), 0) end
    map[key] = { cps = cps, name = name }
  end
  if text:match("^%s*{") then
    local v = batch.json_decode(text, path)
    if type(v) ~= "table" then error(path .. ": a JSON object expected", 0) end
    for file, e in pairs(v) do
      local where = ("%s: %s"):format(path, tostring(file))
      if type(e) == "string" then put(file, e, nil, where)
      elseif type(e) == "table" then
        for k in pairs(e) do
          if k ~= "chars" and k ~= "name" then error(("%s: unknown key '%s' (chars, name)"):format(where, tostring(k)), 0) end
        end
        put(file, e.chars, e.name, where)
      else error(where .. ": a string or {chars =, name =} expected", 0) end
    end
  else
    local line = 0
    for l in (text:gsub("^\xEF\xBB\xBF", "") .. "\n"):gmatch("([^\n]*)\n") do
      line = line + 1
      l = l:gsub("\r$", "")
      if l:match("%S") and not l:match("^%s*#") then
        local f = {}
        for v in (l .. ","):gmatch("([^,]*),") do f[#f + 1] = v:match("^%s*\"?(.-)\"?%s*$") end
        local where = ("%s:%d"):format(path, line)
        if #f > 3 then error(where .. ": file,characters,glyph name expected (at most 3 fields)", 0) end
        local header = line == 1 and not (f[1] or ""):lower():match("%.svg$") and (f[1] or ""):lower():match("^file")
        if not header then put(f[1], f[2], f[3] ~= "" and f[3] or nil, where) end
      end
    end
  end
  return map
end

local function basename(p) return (p:gsub("/+$", "")):match("([^/]*)$") end

--- The files of `svg` (a folder, a file, or a list of them): paths, and the folder's name
-- when it is one folder.  A folder's .svg files (any case) sorted by name.
function M.files(svg)
  local list = type(svg) == "table" and svg or { svg }
  if #list == 0 then error("svg: no files", 0) end
  local files, folder = {}, nil
  for _, p in ipairs(list) do
    if type(p) ~= "string" or p == "" then error("svg: a folder or file name expected", 0) end
    local isdir, err = core.is_dir(p)
    if isdir == nil then error(err, 0) end
    if isdir then
      local names, e2 = core.list_dir(p)
      if not names then error(e2, 0) end
      local svgs = {}
      for _, n in ipairs(names) do if n:lower():match("%.svg$") and not n:match("^%.") then svgs[#svgs + 1] = n end end
      table.sort(svgs)
      if #svgs == 0 then error(("%s: no .svg files in the folder"):format(p), 0) end
      for _, n in ipairs(svgs) do files[#files + 1] = p:gsub("/+$", "") .. "/" .. n end
      folder = #list == 1 and basename(p) or nil
    else
      files[#files + 1] = p
    end
  end
  return files, folder
end

local function seq_key(cps)
  local t = {}
  for _, c in ipairs(cps) do if c ~= 0xFE0F and c ~= 0xFE0E then t[#t + 1] = ("U+%04X"):format(c) end end
  if #t == 0 then for _, c in ipairs(cps) do t[#t + 1] = ("U+%04X"):format(c) end end
  return table.concat(t, " ")
end

--- The sources of core.artwork_builder for `files` and a map (or nil); raises with the
-- first problem (a file that maps to nothing, a character or glyph name given twice).
function M.sources(files, map)
  local out, by_key, by_name, used = {}, {}, {}, {}
  for _, path in ipairs(files) do
    local name = basename(path)
    local cps, gname, err
    local m = map and map[name]
    if m then cps, gname = m.cps, m.name; used[name] = true
    else
      cps, gname, err = M.from_name(name)
      if err then error(err, 0) end
    end
    if cps and #cps == 0 then cps = nil end
    if cps then
      local k = seq_key(cps)
      if by_key[k] then error(("%s and %s both give %s"):format(by_key[k], name, k), 0) end
      by_key[k] = name
    end
    if gname then
      if by_name[gname] then error(("%s and %s both give the glyph name '%s'"):format(by_name[gname], name, gname), 0) end
      by_name[gname] = name
    end
    out[#out + 1] = { name = name, path = path, codepoints = cps, glyph_name = gname }
  end
  for f in pairs(map or {}) do
    if not used[f] then error(("map: %s is not among the artwork's files"):format(f), 0) end
  end
  return out
end

local KEYS = { svg = true, map = true }
local OPTS = { formats = true, text = true, family = true, woff2 = true, upem = true, ascent = true, descent = true,
  advance = true, keep_going = true, flatten_gradients = true, threads = true }

--- Writes the font of `spec` ({svg = DIR | FILE | {FILES...}, map = FILE}) to `path`;
-- `parse_formats` is fontmake's.  Returns true (raises with the reason on failure).
function M.save(spec, path, opts, parse_formats, warn)
  for k in pairs(spec) do
    if not KEYS[k] then error(("bad argument #1 to 'save_font' (unknown key '%s' of the artwork: svg, map)"):format(tostring(k)), 0) end
  end
  for k in pairs(opts) do
    if not OPTS[k] then
      error(("bad argument #3 to 'save_font' (option '%s' does not go with artwork (svg =))"):format(tostring(k)), 0)
    end
  end
  local formats = parse_formats(opts.formats)
  local files, folder = M.files(spec.svg)
  local map = spec.map and M.read_map(spec.map) or nil
  local sources = M.sources(files, map)
  local has = {}
  for _, f in ipairs(formats or {}) do has[f] = true end
  local o = { upem = opts.upem, ascent = opts.ascent, descent = opts.descent, advance = opts.advance,
    keep_going = opts.keep_going and true or false, flatten_gradients = opts.flatten_gradients and true or false,
    flat_only = (has.colr0 and not has.colr1) and true or false,
    threads = opts.threads }
  if o.upem ~= nil and (math.type(o.upem) ~= "integer" or o.upem < 16 or o.upem > 16384) then
    error(("upem: an integer 16..16384 expected, got %s"):format(tostring(o.upem)), 0)
  end
  for _, k in ipairs { "ascent", "descent", "advance" } do
    if o[k] ~= nil and type(o[k]) ~= "number" then error(("%s: a number expected"):format(k), 0) end
  end
  if o.upem and not opts.ascent and not opts.descent then
    o.ascent, o.descent = math.floor(o.upem * 0.8 + 0.5), -(o.upem - math.floor(o.upem * 0.8 + 0.5))
  end
  local b, warnings, code = core.artwork_builder(sources, o)
  if not b then error(warnings, 0) end
  for _, w in ipairs(warnings) do warn(w) end
  local family = opts.family
  if family == nil then family = folder and folder ~= "" and folder ~= "." and folder or "Artwork" end
  if type(family) ~= "string" or family == "" then error("family: a name expected", 0) end
  b:set_family(family)
  local ok, err = b:write(path, { formats = formats, text = opts.text, woff2 = opts.woff2 })
  b:close()
  if not ok then error(err, 0) end
  return true, code
end

return M
