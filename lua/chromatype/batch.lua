--- chromatype.batch: one document per record.
-- Records come from CSV (RFC 4180: a header line of field names, quoted fields with "" for a
-- quote, newlines inside quotes) or JSON Lines (one object per line).  A template is an XML
-- document whose attributes and text may hold `{field}` (`{{` for a brace), or a Lua script
-- that gets the record as the global `record` (and `...`) and renders what it likes with
-- the chromatype API; `output` names each file from the record: `out/{id}.pdf`.
-- Records can be split into shards (`shard = {k, n}`: records whose 1-based index i has
-- (i - 1) % n == k - 1) so that array jobs on several machines render disjoint parts with
-- the same names; `resume` skips records whose output exists.  A failing record is reported
-- and the batch goes on.  The command line (`chromatype batch`) adds worker processes and a
-- progress display; see docs/batch.md.
-- @module chromatype.batch

local ct = require "chromatype"

local M = {}

--- The line of the data file each record starts on (weak keys: record -> line).
M.line_of = setmetatable({}, { __mode = "k" })
--- Records that could not be read (record -> message), when parsing leniently.
M.bad = setmetatable({}, { __mode = "k" })

-- ---- reading records ----------------------------------------------------------------------

--- Parses CSV text: a list of records (tables by field name) and the list of field names.
-- Raises "NAME:LINE: message" on malformed input.
function M.parse_csv(text, name, lenient)
  name = name or "<csv>"
  local rows, row, field = {}, {}, {}
  local i, n, line = 1, #text, 1
  local quoted_start
  if text:sub(1, 3) == "\xEF\xBB\xBF" then i = 4 end             -- a BOM
  local row_line = 1
  local function end_field() row[#row + 1] = table.concat(field); field = {} end
  local function end_row()
    end_field()
    if not (#row == 1 and row[1] == "") then rows[#rows + 1] = { line = row_line, values = row } end
    row = {}
  end
  while i <= n do
    local c = text:sub(i, i)
    if c == '"' and #field == 0 then
      quoted_start = line
      i = i + 1
      while true do
        if i > n then error(("%s:%d: unclosed quote"):format(name, quoted_start), 0) end
        local q = text:find('"', i, true)
        if not q then error(("%s:%d: unclosed quote"):format(name, quoted_start), 0) end
        local chunk = text:sub(i, q - 1)
        for _ in chunk:gmatch("\n") do line = line + 1 end
        field[#field + 1] = chunk
        if text:sub(q + 1, q + 1) == '"' then
          field[#field + 1] = '"'
          i = q + 2
        else
          i = q + 1
          break
        end
      end
      local nx = text:sub(i, i)
      if nx ~= "," and nx ~= "\n" and nx ~= "\r" and nx ~= "" then
        error(("%s:%d: text after a closing quote"):format(name, line), 0)
      end
    elseif c == "," then
      end_field()
      i = i + 1
    elseif c == "\r" or c == "\n" then
      if c == "\r" and text:sub(i + 1, i + 1) == "\n" then i = i + 1 end
      end_row()
      line = line + 1
      row_line = line
      i = i + 1
    else
      local j = i
      while j <= n do
        local d = text:sub(j, j)
        if d == "," or d == "\n" or d == "\r" then break end
        if d == '"' then error(("%s:%d: a quote inside an unquoted field"):format(name, line), 0) end
        j = j + 1
      end
      field[#field + 1] = text:sub(i, j - 1)
      i = j
    end
  end
  if #field > 0 or #row > 0 then end_row() end
  if #rows == 0 then error(("%s: no header line"):format(name), 0) end
  local header = rows[1].values
  local seen = {}
  for k, h in ipairs(header) do
    h = h:match("^%s*(.-)%s*$")
    if h == "" then error(("%s:1: column %d has no name"):format(name, k), 0) end
    if seen[h] then error(("%s:1: column '%s' appears twice"):format(name, h), 0) end
    seen[h] = true
    header[k] = h
  end
  local out = {}
  for r = 2, #rows do
    local vals = rows[r].values
    local rec = {}
    if #vals ~= #header then
      local msg = ("%s:%d: %d fields, the header has %d"):format(name, rows[r].line, #vals, #header)
      if not lenient then error(msg, 0) end
      M.bad[rec] = msg
    else
      for k, h in ipairs(header) do rec[h] = vals[k] end
    end
    M.line_of[rec] = rows[r].line
    out[#out + 1] = rec
  end
  return out, header
end

-- A small JSON reader (objects, arrays, strings with escapes, numbers, true/false/null).
local function json_decode(s, where)
  local i = 1
  local function err(msg) error(("%s: %s at byte %d"):format(where, msg, i), 0) end
  local function ws() i = s:find("[^ \t\r\n]", i) or #s + 1 end
  local value
  local function str()
    i = i + 1
    local out = {}
    while true do
      local c = s:sub(i, i)
      if c == "" then err("unclosed string") end
      if c == '"' then i = i + 1; break end
      if c == "\\" then
        local e = s:sub(i + 1, i + 1)
        local map = { ['"'] = '"', ["\\"] = "\\", ["/"] = "/", b = "\b", f = "\f", n = "\n", r = "\r", t = "\t" }
        if map[e] then out[#out + 1] = map[e]; i = i + 2
        elseif e == "u" then
          local hex = s:sub(i + 2, i + 5)
          if not hex:match("^%x%x%x%x$") then err("bad \\u escape") end
          local cp = tonumber(hex, 16)
          i = i + 6
          if cp >= 0xD800 and cp <= 0xDBFF and s:sub(i, i + 1) == "\\u" then
            local lo = tonumber(s:sub(i + 2, i + 5), 16)
            if lo and lo >= 0xDC00 and lo <= 0xDFFF then
              cp = 0x10000 + (cp - 0xD800) * 0x400 + (lo - 0xDC00)
              i = i + 6
            end
          end
          out[#out + 1] = utf8.char(cp)
        else err("bad escape") end
      else
        local j = s:find('["\\]', i) or #s + 1
        out[#out + 1] = s:sub(i, j - 1)
        i = j
      end
    end
    return table.concat(out)
  end
  value = function(depth)
    if depth > 100 then err("nested too deeply") end
    ws()
    local c = s:sub(i, i)
    if c == "{" then
      i = i + 1
      local t = {}
      ws()
      if s:sub(i, i) == "}" then i = i + 1; return t end
      while true do
        ws()
        if s:sub(i, i) ~= '"' then err("expected a key") end
        local k = str()
        ws()
        if s:sub(i, i) ~= ":" then err("expected ':'") end
        i = i + 1
        t[k] = value(depth + 1)
        ws()
        local d = s:sub(i, i)
        i = i + 1
        if d == "}" then return t end
        if d ~= "," then err("expected ',' or '}'") end
      end
    elseif c == "[" then
      i = i + 1
      local t = {}
      ws()
      if s:sub(i, i) == "]" then i = i + 1; return t end
      while true do
        t[#t + 1] = value(depth + 1)
        ws()
        local d = s:sub(i, i)
        i = i + 1
        if d == "]" then return t end
        if d ~= "," then err("expected ',' or ']'") end
      end
    elseif c == '"' then return str()
    elseif s:sub(i, i + 3) == "true" then i = i + 4; return true
    elseif s:sub(i, i + 4) == "false" then i = i + 5; return false
    elseif s:sub(i, i + 3) == "null" then i = i + 4; return nil
    else
      local num = s:match("^-?%d+%.?%d*[eE]?[%+%-]?%d*", i)
      if not num or num == "" or num == "-" then err("unexpected '" .. c .. "'") end
      i = i + #num
      return math.tointeger(tonumber(num)) or tonumber(num)
    end
  end
  local v = value(0)
  ws()
  if i <= #s then err("text after the value") end
  return v
end
M.json_decode = json_decode

--- Parses JSON Lines: one object per non-empty line.
function M.parse_jsonl(text, name, lenient)
  name = name or "<jsonl>"
  local out = {}
  local line = 0
  for l in (text .. "\n"):gmatch("(.-)\r?\n") do
    line = line + 1
    if l:find("%S") then
      local ok, v = pcall(json_decode, l, ("%s:%d"):format(name, line))
      if ok and (type(v) ~= "table" or v[1] ~= nil) then
        ok, v = false, ("%s:%d: a JSON object expected"):format(name, line)
      end
      if not ok then
        if not lenient then error(v, 0) end
        local rec = {}
        M.bad[rec] = tostring(v)
        v = rec
      end
      M.line_of[v] = line
      out[#out + 1] = v
    end
  end
  return out
end

--- Reads records from a .csv or .jsonl/.ndjson file (by extension; "-" is standard input,
--- read as CSV unless `format` says "jsonl").
function M.read_records(path, format, lenient)
  local h, err
  local text, err
  if path == "-" then text, err = ct.read_stdin() else text, err = ct.read_file(path) end
  if not text then return nil, err end
  format = format or (path:match("%.jsonl$") or path:match("%.ndjson$") or path:match("%.json$")) and "jsonl" or "csv"
  local ok, recs = pcall(format == "jsonl" and M.parse_jsonl or M.parse_csv, text, path, lenient)
  if not ok then return nil, recs end
  return recs
end

-- ---- templates -------------------------------------------------------------------------------

-- The XML-escaped value of a field.
local function xml_escape(v)
  return (tostring(v):gsub("[&<>\"']", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;",
    ["'"] = "&apos;" }))
end

--- Fills `{field}` in a string from a record (`{{` and `}}` are braces); `escape` is applied
--- to each value.  An unknown field raises naming it.
function M.fill(template, record, escape, where)
  return (template:gsub("(%b{})", function(m)
    if m:sub(2, 2) == "{" then return nil end
    local key = m:sub(2, -2):match("^%s*(.-)%s*$")
    local v = record[key]
    if v == nil then
      error(("%sno field '%s' in the record"):format(where or "", key), 0)
    end
    if type(v) == "table" then v = table.concat(v, ", ") end
    return escape and escape(v) or tostring(v)
  end):gsub("{{", "{"):gsub("}}", "}"))
end

-- "out/{id}.pdf" for a record: path separators inside values become '_'.
function M.output_name(pattern, record, index)
  local rec = setmetatable({ index = index, n = index }, { __index = record })
  return M.fill(pattern, rec, function(v) return (tostring(v):gsub("[/\\%z]", "_")) end)
end

-- ---- running -----------------------------------------------------------------------------------

local file_exists = ct.file_exists

local function mkdirs(path)
  local dir = path:match("^(.*)/[^/]*$")
  if dir and dir ~= "" and not file_exists(dir) then
    local ok, err = ct.make_dirs(dir)
    if not ok then error(err, 0) end
  end
end

-- Removes the temporary files that a killed run left beside these records' outputs (a
-- task killed while writing one: every write goes to "NAME.tmp-XXXXXX" first), and only
-- theirs: the other shards and workers of the same batch may be writing theirs right now.
-- Each directory is read once.  Returns how many it removed.
local function clear_temporaries(mine)
  local by_dir, count = {}, 0
  for _, m in ipairs(mine) do
    local out = m.ev.output
    if out then
      local dir, base = out:match("^(.*)/([^/]*)$")
      if not dir then dir, base = ".", out elseif dir == "" then dir = "/" end
      by_dir[dir] = by_dir[dir] or {}
      by_dir[dir][base] = true
    end
  end
  for dir, bases in pairs(by_dir) do
    for tmp, target in pairs(ct.temp_files(dir) or {}) do   -- a directory not made yet has none
      if bases[target] and ct.remove_temp(dir .. "/" .. tmp) then count = count + 1 end
    end
  end
  return count
end

--- Renders one record: `template` is {kind = "xml", text =, name =} or {kind = "lua", chunk =, name =}.
function M.render_record(template, record, index, out, opts)
  if template.kind == "xml" then
    local xml = M.fill(template.text, setmetatable({ index = index }, { __index = record }), xml_escape,
      template.name .. ": ")
    local document = require "chromatype.document"
    local doc = document.from_xml(xml, template.name)
    local ok, err = doc:write(out, { seed = opts.seed, dpi = opts.dpi, inks = opts.inks, inks_only = opts.inks_only,
      overprint = opts.overprint })
    if not ok then error(err, 0) end
  else
    -- a Lua template runs with this state's globals (under --sandbox, the confined run's)
    local env = setmetatable({ record = record, output = out, index = index }, { __index = _G })
    local chunk = template.chunk
    local fn = load(chunk, "@" .. template.name, "t", env)
    fn(record, out, index)
    if not file_exists(out) then error(("the script wrote no %s"):format(out), 0) end
  end
end

--- Loads a template file: .xml (or .lua for a script).
function M.load_template(path)
  local text, err = ct.read_file(path)
  if not text then return nil, err end
  if path:match("%.lua$") then
    local fn, e = load(text, "@" .. path, "t")
    if not fn then return nil, e end
    return { kind = "lua", chunk = text, name = path }
  end
  return { kind = "xml", text = text, name = path }
end

-- The options a record's own state gets (plain data: they are copied into it).
local function isolated_options(opts)
  return { seed = opts.seed, dpi = opts.dpi, inks = opts.inks, inks_only = opts.inks_only, overprint = opts.overprint }
end

--- Runs a batch.  Options: `template` (path), `records` (list) or `data` (path), `output`
--- (pattern), `shard` ({k, n}), `worker` ({w, j}: of the shard's records, those whose rank r
--- has (r - 1) % j == w - 1), `resume`, `seed`, `dpi`, `inks`, `inks_only`, `overprint` (write
--- options of XML templates, see canvas:write), `limit` (most records), `lenient`
--- (records that cannot be read fail alone instead of stopping the batch), `on_start`
--- (function(count) with the number of records this call renders), `isolate` (the command
--- line's: function(template, record, index, output, options) that renders a record in a
--- Lua state of its own, see render_isolated), `on_record`
--- (function(event) with {index =, line =, status = "done"|"failed"|"skipped", output =,
--- error =, seconds =}).
-- With `resume`, the temporary files that a killed run left beside this call's outputs are
-- removed first (`cleared` counts them).
-- @treturn table a summary {done =, failed =, skipped =, total =, cleared =, failures = {{index =, error =}}}
function M.run(opts)
  local template, err = M.load_template(opts.template)
  if not template then error(err, 0) end
  local records = opts.records
  if not records then
    records, err = M.read_records(opts.data, opts.format, opts.lenient)
    if not records then error(err, 0) end
  end
  local limit = opts.limit or 1000000
  if #records > limit then
    error(("%s: %d records, more than the limit of %d (--max-records)"):format(opts.data or "records", #records, limit), 0)
  end
  local k, n = 1, 1
  if opts.shard then k, n = opts.shard[1], opts.shard[2] end
  local w, j = 1, 1
  if opts.worker then w, j = opts.worker[1], opts.worker[2] end
  -- the shard's records and their names (all of them: two records may not share a file,
  -- whichever worker renders them)
  local mine, names, rank = {}, {}, 0
  for i, rec in ipairs(records) do
    if (i - 1) % n == k - 1 then
      rank = rank + 1
      local ev = { index = i, line = M.line_of[rec] }
      if M.bad[rec] then
        ev.status, ev.error = "failed", M.bad[rec]
      else
        local okn, out = pcall(M.output_name, opts.output, rec, i)
        if not okn then
          ev.status, ev.error = "failed", ("output name: %s"):format(out)
        elseif names[out] then
          ev.status, ev.error = "failed", ("output %s is also record %d's (make the name unique, e.g. with {index})")
            :format(out, names[out])
        else
          names[out] = i
          ev.output = out
        end
      end
      if (rank - 1) % j == w - 1 then mine[#mine + 1] = { ev = ev, rec = rec } end
    end
  end
  local summary = { done = 0, failed = 0, skipped = 0, total = 0, failures = {}, cleared = 0 }
  if opts.resume then summary.cleared = clear_temporaries(mine) end
  if opts.on_start then opts.on_start(#mine) end
  for _, m in ipairs(mine) do
    local ev, rec = m.ev, m.rec
    summary.total = summary.total + 1
    if opts.on_begin then opts.on_begin(ev) end
    if not ev.status then
      if opts.resume and file_exists(ev.output) then
        ev.status = "skipped"
      else
        local t0 = os.clock()
        local unloadable
        local ok, e = pcall(function()
          mkdirs(ev.output)
          if not opts.isolate then return M.render_record(template, rec, ev.index, ev.output, opts) end
          local done, err = opts.isolate(template, rec, ev.index, ev.output, isolated_options(opts))
          if not done then unloadable = err; error(err, 0) end
        end)
        if unloadable then error(unloadable, 0) end   -- the -f filters: no record can run
        ev.seconds = os.clock() - t0
        if ok then ev.status = "done" else ev.status, ev.error = "failed", tostring(e) end
      end
    end
    summary[ev.status] = summary[ev.status] + 1
    if ev.status == "failed" then summary.failures[#summary.failures + 1] = { index = ev.index, error = ev.error } end
    if opts.on_record then opts.on_record(ev) end
  end
  return summary
end

-- ---- the command line's worker ------------------------------------------------------------

local function clean(s) return (tostring(s or ""):gsub("[\t\r\n]", " ")) end

--- Renders one record in a Lua state made for it alone (`chromatype batch`'s workers: the
--- record's template and the -f filters run there, never in the worker's state), its
--- warnings reported as the worker's events.
function M.render_isolated(template, record, index, out, opts)
  ct.on_warning(function(msg) ct.write_stdout(("warn\t%d\t%s\n"):format(index, clean(msg))) end)
  return M.render_record(template, record, index, out, opts)
end

--- One worker process of `chromatype batch`: runs its part and reports to standard output,
--- one tab-separated line an event (`total N`, `done I SECONDS OUTPUT`, `skipped I - OUTPUT`,
--- `failed I LINE MESSAGE`, `warn I MESSAGE`, `fatal MESSAGE`, `cleared N`: the temporary files
--- of a killed run that resume removed), for the parent's display.
function M.worker(opts)
  local write = ct.write_stdout
  local current = 0
  local function emit(...)
    local t = table.pack(...)
    for i = 1, t.n do t[i] = clean(t[i]) end
    write(table.concat(t, "\t", 1, t.n), "\n")
  end
  ct.on_warning(function(msg) emit("warn", current, msg) end)
  opts.lenient = true
  opts.on_start = function(count) emit("total", count) end
  opts.on_begin = function(ev) current = ev.index end
  opts.on_record = function(ev)
    if ev.status == "done" then emit("done", ev.index, ("%.4f"):format(ev.seconds or 0), ev.output)
    elseif ev.status == "skipped" then emit("skipped", ev.index, "-", ev.output)
    else emit("failed", ev.index, ev.line or "-", ev.error) end
  end
  local ok, res = pcall(M.run, opts)
  if not ok then emit("fatal", res); return false end
  if res.cleared > 0 then emit("cleared", res.cleared) end
  return true
end

return M
