-- test_batch.lua: chromatype.batch: CSV and JSON Lines records, {field} templates (XML-escaped),
-- output names, shards that partition the records with stable names, --resume skipping, and
-- a failing record that does not stop the batch, and the temporaries of a killed run that
-- resume clears.
local batch = require "chromatype.batch"

local TEMPLATE = ([[<document size="60mm x 20mm" margin="2mm" title="{name}">
<style name="default" font="%s" size="12pt"/>
<page><frame><p>{greeting} {name}</p></frame></page></document>]]):format(font_path("ct-wdth.ttf"))

local function write(path, text)
  local h = assert(io.open(path, "wb"))
  h:write(text)
  h:close()
  return path
end

local function exists(p)
  local h = io.open(p, "rb")
  if h then h:close() end
  return h ~= nil
end

return {
  { "CSV: quotes, doubled quotes, newlines in quotes, CRLF, BOM", function()
    local recs, header = batch.parse_csv('\xEF\xBB\xBFid,name,note\r\n1,"Smith, Ann","say ""hi"""\r\n2,Bob,"two\nlines"\n\n3,,x\n', "t.csv")
    eq(header, { "id", "name", "note" })
    eq(recs, { { id = "1", name = "Smith, Ann", note = 'say "hi"' }, { id = "2", name = "Bob", note = "two\nlines" },
      { id = "3", name = "", note = "x" } })
  end },
  { "CSV errors name the file and line", function()
    checkerr("^t%.csv:3: 1 fields, the header has 2$", batch.parse_csv, "a,b\n1,2\n3\n", "t.csv")
    checkerr("^t%.csv:2: unclosed quote$", batch.parse_csv, 'a\n"open\n', "t.csv")
    checkerr("^t%.csv:1: column 'a' appears twice$", batch.parse_csv, "a,a\n", "t.csv")
    checkerr("^t%.csv:2: a quote inside an unquoted field$", batch.parse_csv, 'a\nx"y\n', "t.csv")
  end },
  { "JSON Lines", function()
    local recs = batch.parse_jsonl('{"id": 1, "name": "Ann \\u00e9\\ud83c\\udf08", "tags": ["a", "b"]}\n\n{"id": 2.5, "ok": true}\n', "t.jsonl")
    eq(recs, { { id = 1, name = "Ann é🌈", tags = { "a", "b" } }, { id = 2.5, ok = true } })
    checkerr("^t%.jsonl:1: expected ':' at byte", batch.parse_jsonl, '{"a" 1}', "t.jsonl")
    checkerr("^t%.jsonl:1: a JSON object expected$", batch.parse_jsonl, '[1, 2]', "t.jsonl")
  end },
  { "fill and output names", function()
    eq(batch.fill("Hi {name}, {{literal}}", { name = "Ann" }), "Hi Ann, {literal}")
    checkerr("no field 'nme' in the record", batch.fill, "{nme}", { name = "x" })
    eq(batch.output_name("out/{id}-{name}.pdf", { id = 7, name = "a/b" }, 3), "out/7-a_b.pdf")
    eq(batch.output_name("out/{index}.png", {}, 12), "out/12.png")
  end },
  { "a batch: XML template, escaping, a failing record, resume", function()
    local dir = tmpname("")
    os.execute("mkdir -p '" .. dir .. "'")
    local tpl = write(dir .. "/t.xml", TEMPLATE)
    local data = write(dir .. "/d.csv", 'id,name,greeting\n1,Ann & <Bob>,Hello\n2,Cy,Hi\n3,Di,Hey\n')
    local events = {}
    local prev = require("chromatype").on_warning(false)     -- '&', '<', '>' are not in the font
    local s = batch.run { template = tpl, data = data, output = dir .. "/out/{id}.pdf",
      on_record = function(ev) events[#events + 1] = ev.status end }
    require("chromatype").on_warning(prev)
    eq({ s.done, s.failed, s.skipped, s.total }, { 3, 0, 0, 3 })
    assert(exists(dir .. "/out/1.pdf") and exists(dir .. "/out/3.pdf"))
    -- a record with a missing field fails alone; the others are skipped by resume
    write(data, 'id,name,greeting\n1,Ann,Hello\n2,Cy,Hi\n4,Ed,Yo\n')
    write(tpl, TEMPLATE:gsub("{greeting}", "{greeting} {extra}"))
    os.remove(dir .. "/out/2.pdf")
    s = batch.run { template = tpl, data = data, output = dir .. "/out/{id}.pdf", resume = true }
    eq({ s.done, s.failed, s.skipped }, { 0, 2, 1 })
    assert(s.failures[1].error:find("no field 'extra' in the record"), s.failures[1].error)
    eq(s.failures[1].index, 2)
  end },
  { "shards partition the records with the same names", function()
    local dir = tmpname("")
    os.execute("mkdir -p '" .. dir .. "'")
    local tpl = write(dir .. "/t.xml", TEMPLATE)
    local lines = { "id,name,greeting" }
    for i = 1, 7 do lines[#lines + 1] = ("%d,N%d,Hi"):format(i, i) end
    local data = write(dir .. "/d.csv", table.concat(lines, "\n"))
    local seen = {}
    for k = 1, 3 do
      local s = batch.run { template = tpl, data = data, output = dir .. "/s/{id}.pdf", shard = { k, 3 },
        on_record = function(ev) seen[#seen + 1] = ev.index end }
      eq(s.failed, 0)
    end
    table.sort(seen)
    eq(seen, { 1, 2, 3, 4, 5, 6, 7 })
  end },
  { "duplicate output names fail the later record", function()
    local dir = tmpname("")
    os.execute("mkdir -p '" .. dir .. "'")
    local tpl = write(dir .. "/t.xml", TEMPLATE)
    local data = write(dir .. "/d.csv", "id,name,greeting\n1,A,x\n1,B,y\n")
    local s = batch.run { template = tpl, data = data, output = dir .. "/{id}.pdf" }
    eq({ s.done, s.failed }, { 1, 1 })
    assert(s.failures[1].error:find("is also record 1's"), s.failures[1].error)
  end },
  { "temp_files names the temporaries a killed write leaves, and their files", function()
    local ct = require "chromatype"
    local dir = tmpname("")
    os.execute("mkdir -p '" .. dir .. "'")
    for _, n in ipairs { "5.pdf.tmp-AbC123", "5.pdf.tmp-pass-xYz789", "a.tmp-b.png.tmp-000000", "5.pdf",
      "5.pdf.tmp-short", "5.pdf.tmp-toolong1", "5.pdf.tmp-ab_123", ".tmp-abcdef", "x.tmp-pass-abcdef" } do
      write(dir .. "/" .. n, "")
    end
    eq(ct.temp_files(dir), { ["5.pdf.tmp-AbC123"] = "5.pdf", ["5.pdf.tmp-pass-xYz789"] = "5.pdf",
      ["a.tmp-b.png.tmp-000000"] = "a.tmp-b.png", ["x.tmp-pass-abcdef"] = "x" })
    local none, err = ct.temp_files(dir .. "/nope")
    assert(none == nil and err:find("nope: cannot open: No such file", 1, true), err)
    checkerr("string expected", ct.temp_files, {})
  end },
  { "resume removes what a killed run left beside its own records' outputs, no one else's", function()
    local dir = tmpname("")
    os.execute("mkdir -p '" .. dir .. "/out'")
    local tpl = write(dir .. "/t.xml", TEMPLATE)
    local data = write(dir .. "/d.csv", "id,name,greeting\n1,A,x\n2,B,y\n3,C,z\n")
    -- record 3 (shard 1 of 2) was being written when its task was killed; record 2 is shard 2's
    for _, n in ipairs { "3.pdf.tmp-AbC123", "3.pdf.tmp-pass-xYz789", "2.pdf.tmp-q1w2e3", "9.pdf.tmp-zzzzzz" } do
      write(dir .. "/out/" .. n, "%PDF-1.5 half")
    end
    local s = batch.run { template = tpl, data = data, output = dir .. "/out/{id}.pdf", shard = { 1, 2 }, resume = true }
    eq({ s.done, s.failed, s.cleared }, { 2, 0, 2 })
    assert(not exists(dir .. "/out/3.pdf.tmp-AbC123") and not exists(dir .. "/out/3.pdf.tmp-pass-xYz789"))
    assert(exists(dir .. "/out/2.pdf.tmp-q1w2e3") and exists(dir .. "/out/9.pdf.tmp-zzzzzz"))
    -- without resume nothing is touched
    write(dir .. "/out/1.pdf.tmp-AbC123", "")
    s = batch.run { template = tpl, data = data, output = dir .. "/out/{id}.pdf", shard = { 1, 2 } }
    eq(s.cleared, 0)
    assert(exists(dir .. "/out/1.pdf.tmp-AbC123"))
  end },
  { "the records limit", function()
    local dir = tmpname("")
    os.execute("mkdir -p '" .. dir .. "'")
    local tpl = write(dir .. "/t.xml", TEMPLATE)
    local data = write(dir .. "/d.csv", "id,name,greeting\n1,A,x\n2,B,y\n")
    checkerr("2 records, more than the limit of 1", batch.run, { template = tpl, data = data, output = dir .. "/{id}.pdf", limit = 1 })
  end },
}
