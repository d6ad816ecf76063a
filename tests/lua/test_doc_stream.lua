-- test_doc_stream.lua: documents written page by page.  doc:stream / doc:finish (each page
-- typeset, filtered and written when the next begins, then let go), doc:write's PDF path
-- (the same, over the pages it has), and XML documents read as they are written
-- (document.render_file, the command line's path): the same text and pixels as the whole
-- document, pages released (weak references), filters run page by page giving what a
-- whole-document run gives, a filter that needs the whole document refused or honoured,
-- styles defined after the pages that use them, frames following frames across pages,
-- an error mid-way leaving no file, and the bounded word caches (layout.memo).
local ct = require "chromatype"
local document = require "chromatype.document"
local layout = require "chromatype.layout"
local filter = require "chromatype.filter"

local FONT = ROOT .. "/examples/fonts/bungee-latin.woff2"
local EMOJI = ROOT .. "/tests/fonts/twemoji-colr0.woff2"

local function run(cmd)
  local p = assert(io.popen(cmd .. " 2>&1"))
  local s = p:read("a")
  local ok = p:close()
  if not ok then error(cmd .. ": " .. s, 2) end
  return s
end

local function pdftext(path) return run(('pdftotext -layout "%s" -'):format(path)) end

-- The pixels of page `n` of a PDF (pdftoppm's PNG bytes at 30 dpi).
local function page_png(path, n)
  local stem = tmpname("")
  run(('pdftoppm -r 30 -png -f %d -l %d -singlefile "%s" "%s"'):format(n, n, path, stem))
  local h = assert(io.open(stem .. ".png", "rb"))
  local s = h:read("a")
  h:close()
  os.remove(stem .. ".png")
  return s
end

local function pages_of(path)
  return tonumber(run(('pdfinfo "%s"'):format(path)):match("Pages:%s*(%d+)"))
end

local function new_doc()
  local d = document.new { size = "A6", margin = "8mm", title = "stream test" }
  d:style("default", { font = FONT, size = "14pt", leading = "18pt" })
  d:style("emoji", { font = EMOJI, size = "20pt" })
  return d
end

local function fill(d, i)
  local p = d:page()
  p:frame { y = "10mm", height = "30mm" }:text(("PAGE %d\nWORDS ON PAGE %d GO HERE"):format(i, i))
  p:frame { y = "50mm", height = "20mm", style = "emoji" }:text(("🌈🎨🦜"):sub(1, 4 * (1 + i % 3)))
  return p
end

-- The names in `dir`.
local function listdir(dir)
  local t = {}
  for name in run(('ls -A "%s"'):format(dir)):gmatch("[^\n]+") do t[#t + 1] = name end
  table.sort(t)
  return t
end

-- A document of three colored layers whose colors a filter draws at random.
local function random_colors(whole)
  return filter.new({
    whole_document = whole or nil,
    Glyph = function(g, ctx)
      local c = ({ "#d62828", "#1d3557", "#2a9d8f", "#f4a261" })[ctx.rng:random(4)]
      g.color = c
    end,
  }, {}, "random-colors")
end

local XML_HEAD = [[<document size="A6" margin="8mm" title="xml stream">
]]

local function xml_pages(n, extra)
  local t = { XML_HEAD }
  for i = 1, n do
    t[#t + 1] = ('<page><frame y="10mm" height="30mm" style="body"><p>PAGE %d</p><p>WORDS %d</p></frame></page>\n')
      :format(i, i)
  end
  t[#t + 1] = extra or ""
  -- the style comes after the pages that use it: the head is read first
  t[#t + 1] = ('<style name="body" font="%s" size="14pt"/>\n</document>\n'):format(FONT)
  return table.concat(t)
end

local function write_file(path, s)
  local h = assert(io.open(path, "wb"))
  h:write(s)
  h:close()
end

return {
  { "doc:stream writes each page as the next begins, lets it go, and gives the whole document's text and pixels", function()
    local out, ref = tmpname(".pdf"), tmpname(".pdf")
    local d = new_doc()
    assert(d:stream(out) == d)
    local alive = setmetatable({}, { __mode = "k" })
    for i = 1, 40 do alive[fill(d, i)] = true end
    collectgarbage(); collectgarbage()
    local n = 0
    for _ in pairs(alive) do n = n + 1 end
    assert(n <= 2, ("%d pages still held after 40 streamed"):format(n))
    local ok, err, _, c, report = d:finish()
    assert(ok, err)
    eq(report.pages, 40)
    assert(c)
    -- the same document made whole and rendered as one canvas
    local w = new_doc()
    for i = 1, 40 do fill(w, i) end
    assert(w:render():write(ref, { title = "stream test" }))
    eq(pages_of(out), 40)
    eq(pdftext(out), pdftext(ref))
    for _, p in ipairs({ 1, 17, 40 }) do eq(page_png(out, p) == page_png(ref, p), true, "page " .. p) end
    assert(pdftext(out):find("PAGE 40", 1, true))
  end },
  { "a written page takes nothing more; a finished stream takes no page; misuse is refused", function()
    local out = tmpname(".pdf")
    local d = new_doc()
    local p1 = d:page()
    local f1 = p1:frame { y = "10mm", height = "30mm" }
    d:stream(out)
    f1:text("ONE")                          -- the last page before the stream may still be filled
    d:page():frame { y = "10mm", height = "30mm" }:text("TWO")
    checkerr("this page was written to .* already", f1.text, f1, "MORE")
    checkerr("this page was written to .* already", p1.frame, p1, { y = "50mm", height = "10mm" })
    checkerr("is being written to .* already", d.stream, d, tmpname(".pdf"))
    checkerr("finish it first", d.render, d)
    assert(d:finish())
    eq(pages_of(out), 2)
    assert(pdftext(out):find("ONE.*TWO"))
    checkerr("no more pages", d.page, d)
    checkerr("not being streamed", d.finish, d)
    checkerr("its pages are gone", d.stream, d, tmpname(".pdf"))
    local e = new_doc()
    checkerr("writes a PDF file page by page; for '.*%.png' use doc:write", e.stream, e, tmpname(".png"))
    checkerr("writes a PDF file page by page", e.stream, e, "-")
    checkerr("fps is for animations", e.stream, e, tmpname(".pdf"), { fps = 10 })
    checkerr("has no pages", function() e:stream(tmpname(".pdf")); e:finish() end)
  end },
  { "filters run page by page give what a whole-document run gives; one that needs the whole document is honoured", function()
    local a, b = tmpname(".pdf"), tmpname(".pdf")
    local d1, d2 = new_doc(), new_doc()
    for i = 1, 6 do fill(d1, i); fill(d2, i) end
    d1:filter(random_colors(false))
    d2:filter(random_colors(true))
    assert(filter.needs_document(random_colors(true)) and not filter.needs_document(random_colors(false)))
    assert(d1:write(a, { seed = 7 }))               -- page by page
    assert(d2:write(b, { seed = 7 }))               -- whole (render, then write)
    for p = 1, 6 do eq(page_png(a, p) == page_png(b, p), true, "page " .. p) end
    -- and the colors did change with the seed
    local d3 = new_doc()
    for i = 1, 6 do fill(d3, i) end
    d3:filter(random_colors(false))
    local c3 = tmpname(".pdf")
    assert(d3:write(c3, { seed = 8 }))
    assert(page_png(a, 2) ~= page_png(c3, 2), "the seed changes nothing")
    local d4 = new_doc()
    d4:filter(random_colors(true))
    checkerr("the filter 'random%-colors' needs the whole document", d4.stream, d4, tmpname(".pdf"))
    checkerr("field 'whole_document' must be true or false", filter.new, { whole_document = 1 })
  end },
  { "an XML file is read as it is written: styles after the pages, the same pages as from_xml, pages let go", function()
    local src, out, ref = tmpname(".xml"), tmpname(".pdf"), tmpname(".pdf")
    local xml = xml_pages(60)
    write_file(src, xml)
    local alive, most = setmetatable({}, { __mode = "k" }), 0
    local page = document.Document.page
    document.Document.page = function(self, ...)
      collectgarbage()
      local n = 0
      for _ in pairs(alive) do n = n + 1 end
      most = math.max(most, n)
      local pg = page(self, ...)
      alive[pg] = true
      return pg
    end
    local ok, c, done, err = pcall(document.render_file, src, out)
    document.Document.page = page
    assert(ok, c)
    assert(done, err)
    assert(most <= 2, ("%d pages held at once"):format(most))
    local d = document.from_xml(xml, src)
    assert(d:render():write(ref, { title = "xml stream" }))
    eq(pages_of(out), 60)
    eq(pdftext(out), pdftext(ref))
    eq(page_png(out, 33) == page_png(ref, 33), true)
  end },
  { "XML: frames follow frames across pages; pages that move are read whole", function()
    local src, out = tmpname(".xml"), tmpname(".pdf")
    local long = {}
    for i = 1, 120 do long[#long + 1] = ("W%03d"):format(i) end
    write_file(src, ([[<document size="A6" margin="8mm">
<style name="body" font="%s" size="12pt"/>
<page><frame id="a" y="10mm" height="25mm" style="body"><p>%s</p></frame></page>
<page><frame id="b" follows="a" y="10mm" height="25mm"/></page>
<page><frame follows="b" y="10mm" height="80mm"/></page>
</document>]]):format(FONT, table.concat(long, " ")))
    local _, ok, err = document.render_file(src, out)
    assert(ok, err)
    local text = pdftext(out)
    local words = {}
    for w in text:gmatch("W%d%d%d") do words[#words + 1] = w end
    eq(#words, 120)
    eq(words[120], "W120")
    -- an <animate> inside a page: the document is read whole, and still right
    write_file(src, xml_pages(3, '<page><frame y="10mm" height="30mm" style="body"><p>MOVES<animate attribute="color" from="#000" to="#f00" dur="1s"/></p></frame></page>\n'))
    _, ok, err = document.render_file(src, out, { at = 0.5 })
    assert(ok, err)
    eq(pages_of(out), 4)
    assert(pdftext(out):find("MOVES", 1, true))
  end },
  { "XML: an error on a later page leaves no file and no temporaries", function()
    local dir = tmpname("")
    os.remove(dir)
    run(('mkdir -p "%s"'):format(dir))
    local src, out = dir .. "/bad.xml", dir .. "/bad.pdf"
    local xml = xml_pages(30):gsub('<page><frame y="10mm" height="30mm" style="body"><p>PAGE 25</p>',
      '<page><frame y="10mm" height="30mm" style="body" colour="red"><p>PAGE 25</p>')
    write_file(src, xml)
    local ok, err = pcall(document.render_file, src, out)
    eq(ok, false)
    assert(tostring(err):find("bad.xml:26: <frame>: unknown attribute 'colour'", 1, true), err)
    same(listdir(dir), { "bad.xml" })
    -- a cut file: the reader's error, at the cut
    write_file(src, xml_pages(30):sub(1, 1500))
    ok, err = pcall(document.render_file, src, out)
    eq(ok, false)
    assert(tostring(err):find("^" .. src:gsub("%p", "%%%0") .. ":%d+: "), err)
    same(listdir(dir), { "bad.xml" })
    run(('rm -rf "%s"'):format(dir))
  end },
  { "layout.memo keeps at most two generations of entries and moves old hits up", function()
    local m = layout.memo(3)
    for i = 1, 3 do m.set(i, "v" .. i) end
    m.set(4, "v4")                        -- young {4}, old {1, 2, 3}
    eq(m.get(1), "v1")                    -- moved up: young {4, 1}
    m.set(5, "v5"); m.set(6, "v6")        -- young {6}, old {4, 1, 5}
    eq(m.get(2), nil); eq(m.get(3), nil)
    eq(m.get(1), "v1"); eq(m.get(4), "v4"); eq(m.get(6), "v6")
    local big = layout.memo(100)
    for i = 1, 10000 do big.set(i, i) end
    local kept = 0
    for i = 1, 10000 do if big.get(i) then kept = kept + 1 end end
    assert(kept <= 200, kept .. " entries kept")
  end },
  { "memos sharing a budget (layout.memo_budget) keep 2 × n entries in all, however many", function()
    local budget = layout.memo_budget(4)
    local a, b = layout.memo(budget), layout.memo(budget)
    a.set("a1", 1); a.set("a2", 2)
    b.set("b1", 1); b.set("b2", 2)            -- the budget's young generation is full
    b.set("b3", 3)                            -- a new one: a's and b's young entries are old now
    eq(a.get("a1"), 1); eq(b.get("b1"), 1)    -- old hits move up (young: b3, a1, b1)
    b.set("b4", 4)                            -- young full again (b3, a1, b1, b4)
    b.set("b5", 5)                            -- a new generation: a2 and b2 let go
    eq(a.get("a2"), nil); eq(b.get("b2"), nil)
    eq(a.get("a1"), 1); eq(b.get("b3"), 3); eq(b.get("b5"), 5)
    -- many memos on one budget: their entries in all stay within 2 × n
    local shared = layout.memo_budget(50)
    local memos = {}
    for i = 1, 40 do memos[i] = layout.memo(shared) end
    for i = 1, 8000 do memos[i % 40 + 1].set(i, i) end
    local kept = 0
    for i = 1, 8000 do if memos[i % 40 + 1].get(i) then kept = kept + 1 end end
    assert(kept <= 100, kept .. " entries kept")
    assert(kept >= 50, kept .. " entries kept: the last generation should be there")
  end },
}
