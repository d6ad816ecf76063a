-- test_xmlreader.lua: ct.xml_reader and ct.xml_file_reader, the streaming XML reader that
-- chromatype.document reads long documents with: the root first, then its children one at
-- a time as parse_xml builds them, skipped elements as stubs naming what is inside, the
-- same one-line errors as parse_xml (also for documents cut short, where libxml2's reader
-- names the piece it read ahead), a DOCTYPE refused, misuse refused.
local ct = require "chromatype"

local DOC = [==[<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment before -->
<document title="T &amp; U" size="A5">
  <style name="a" font="F"/>
  loose words
  <page size="A4"><frame x="1"><p>Hi <span color="red">you</span></p><animate attribute="x"/></frame></page>
  <![CDATA[raw <text>]]>
  <page><frame><p>two</p></frame></page>
</document>
<!-- and after -->
]==]

-- Every child the reader gives, as a list.
local function drain(r, skip)
  local out = {}
  while true do
    local el, err = r:next(skip)
    if el == nil then
      if err then error(err, 0) end
      return out
    end
    out[#out + 1] = el
  end
end

-- The error of reading `xml` whole with a reader (nil when it reads).
local function reader_error(xml, name)
  local r = ct.xml_reader(xml, name)
  local root, err = r:root()
  if not root then return err end
  while true do
    local el, e = r:next()
    if el == nil then return e end
  end
end

return {
  { "the root comes first, with its attributes and line, then each child as parse_xml builds it", function()
    local r = ct.xml_reader(DOC, "d.xml")
    local root = assert(r:root())
    eq(root.tag, "document"); eq(root.line, 3); eq(root.empty, false)
    same(root.attrs, { title = "T & U", size = "A5" })
    eq(root.children, nil)
    local kids = drain(r)
    local whole = assert(ct.parse_xml(DOC, "d.xml"))
    local elements = {}
    for _, c in ipairs(kids) do if type(c) == "table" then elements[#elements + 1] = c end end
    local expected = {}
    for _, c in ipairs(whole.children) do if type(c) == "table" then expected[#expected + 1] = c end end
    same(elements, expected)
    -- texts come one node at a time, white space too
    local texts = {}
    for _, c in ipairs(kids) do if type(c) == "string" and c:find("%S") then texts[#texts + 1] = c:match("^%s*(.-)%s*$") end end
    same(texts, { "loose words", "raw <text>" })
    eq(r:next(), nil)                   -- and stays at the end
  end },
  { "skipped elements are stubs: tag, attributes, line, and the tags inside them", function()
    local r = ct.xml_reader(DOC, "d.xml")
    assert(r:root())
    local pages = {}
    for _, c in ipairs(drain(r, { page = true })) do
      if type(c) == "table" then
        if c.tag == "page" then pages[#pages + 1] = c else eq(c.skipped, nil) end
      end
    end
    eq(#pages, 2)
    eq(pages[1].skipped, true); eq(pages[1].children, nil); eq(pages[1].line, 6)
    same(pages[1].attrs, { size = "A4" })
    same(pages[1].inside, { frame = true, p = true, span = true, animate = true })
    same(pages[2].inside, { frame = true, p = true })
  end },
  { "a file reader reads the same, as it goes", function()
    local path = tmpname(".xml")
    local h = assert(io.open(path, "wb")); h:write(DOC); h:close()
    local a, b = ct.xml_file_reader(path), ct.xml_reader(DOC, path)
    same(assert(a:root()), assert(b:root()))
    same(drain(a), drain(b))
    os.remove(path)
    local r, err = ct.xml_file_reader(path)
    eq(r, nil)
    assert(err:find(path, 1, true) and err:find("No such file"), err)
  end },
  { "the text of a string reader stays alive while it reads", function()
    local r = ct.xml_reader(("<d>%s</d>"):format(("<e n='1'>x</e>"):rep(2000)), "big.xml")
    assert(r:root())
    local n = 0
    while true do
      collectgarbage()
      local el = r:next()
      if not el then break end
      n = n + 1
      eq(el.children[1], "x")
    end
    eq(n, 2000)
  end },
  { "errors are parse_xml's, one line with the name and line", function()
    for _, bad in ipairs({ "", "  ", "<a>", "<a><b></a>", "<a/><b/>", "<a><b>&foo;</b></a>",
                           "<a>\n<b x='1' x='2'/></a>", "<a>\n\n<b>\255</b></a>", "<a>\n<b>\n", "<a/>junk",
                           "<d>" .. ("<p>x</p>\n"):rep(3000) .. "<p>cut" }) do
      local err = reader_error(bad, "bad.xml")
      local _, whole = ct.parse_xml(bad, "bad.xml")
      eq(err, whole, ("%q"):format(bad:sub(1, 30)))
      assert(not err:find("\n"), err)
    end
  end },
  { "a DOCTYPE is refused before anything is read, at its line", function()
    eq(reader_error("<?xml version='1.0'?>\n<!DOCTYPE d [<!ENTITY a 'aaaa'>]>\n<d>&a;</d>", "dt.xml"),
       "dt.xml:2: a DOCTYPE is not allowed")
  end },
  { "misuse is an error", function()
    local r = ct.xml_reader("<a><b/></a>")
    checkerr("root%(%) comes first", r.next, r)
    assert(r:root())
    checkerr("root%(%) comes first, once", r.root, r)
    checkerr("table expected", r.next, r, "page")
    r:close()
    eq(r:next(), nil)
    checkerr("string expected", ct.xml_reader, {})
  end },
}
