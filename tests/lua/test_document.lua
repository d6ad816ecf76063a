-- test_document.lua: chromatype.document (XML documents to pages): text back from
-- the PDF through pdftotext, styles and spans, bleed and crop marks, and one-line
-- "FILE:LINE: <elem>: message" errors for bad documents; ct.parse_xml; the CLI.
local ct = require "chromatype"
local document = require "chromatype.document"

local FONT = font_path("ct-colr0.ttf")          -- glyphs A-D and space only
local MM = 72 / 25.4

local function doc(body, attrs)
  return ('<document size="A6" margin="10mm" %s>\n'
    .. '<style name="default" font="%s" size="20pt"/>\n%s\n</document>\n'):format(attrs or "", FONT, body)
end

local function pdftext(path)
  local p = assert(io.popen('pdftotext "' .. path .. '" - 2>/dev/null'))
  local s = p:read("a")
  p:close()
  return s
end

local function have_pdftotext()
  local p = io.popen("command -v pdftotext")
  local s = p and p:read("a") or ""
  if p then p:close() end
  return s ~= ""
end

local function render_err(xml) return document.render(xml, "test.xml") end

return {
  -- parse_xml
  { "parse_xml tree", function()
    local t = assert(ct.parse_xml('<a x="1">hi <b y="&amp;">B</b>\n<c/></a>', "t.xml"))
    eq(t.tag, "a"); eq(t.attrs, { x = "1" }); eq(t.line, 1)
    eq(t.children[1], "hi ")
    eq(t.children[2].tag, "b"); eq(t.children[2].attrs.y, "&"); eq(t.children[2].children, { "B" })
    eq(t.children[3], "\n")
    eq(t.children[4].line, 2)
  end },
  { "parse_xml error with line", function()
    local t, err = ct.parse_xml("<a>\n<b>\n</a>", "x.xml")
    eq(t, nil)
    assert(err:match("^x%.xml:3: [^\n]+$"), err)
  end },
  { "parse_xml refuses a DOCTYPE", function()
    local t, err = ct.parse_xml('<?xml version="1.0"?>\n<!DOCTYPE a [<!ENTITY e "xx">]>\n<a>&e;</a>', "d.xml")
    eq(t, nil); eq(err, "d.xml:2: a DOCTYPE is not allowed")
  end },
  { "parse_xml: deep nesting is an error, not a crash", function()
    local t, err = ct.parse_xml(("<a>"):rep(5000) .. ("</a>"):rep(5000), "deep.xml")
    eq(t, nil); assert(err:match("^deep%.xml:1: [^\n]+$"), err)
  end },
  { "parse_xml: undefined entity", function()
    local t, err = ct.parse_xml("<a>\n&x;</a>", "e.xml")
    eq(t, nil); assert(err:match("^e%.xml:2: [^\n]*'x'"), err)
  end },
  { "empty paragraphs and frames", function()
    local c = assert(document.render(doc('<page><frame><p/><p> </p><p>A</p></frame><frame/></page>'), "t.xml"))
    eq(c:page_count(), 1)
    c = assert(document.render('<document><page><frame><p/></frame></page></document>', "t.xml"))
  end },
  { "parse_xml bad argument", ct.parse_xml, { {} }, false, "bad argument #1 to '[%w.]*parse_xml' %(string expected, got table%)" },

  -- rendering
  { "a document renders to PDF with its text", function()
    if not have_pdftotext() then return end
    local out = tmpname(".pdf")
    local xml = doc([[
<style name="big" size="30pt" color="#204080"/>
<page>
  <frame style="big"><p>ABBA CAB</p><p align="right">DAD <span size="12pt" palette="dark">BAD</span></p></frame>
</page>
<page background="#ffeecc">
  <frame y="20mm" height="30mm" valign="bottom"><p align="justify">ACDC<br/>BCDA</p></frame>
</page>]], 'title="Test doc"')
    local c, ok = document.render(xml, "test.xml", out)
    assert(ok)
    eq(c:page_count(), 2)
    local text = pdftext(out)
    assert(text:find("ABBA CAB", 1, true), text)
    assert(text:find("DAD", 1, true) and text:find("BAD", 1, true), text)
    assert(text:find("ACDC", 1, true) and text:find("BCDA", 1, true), text)
  end },
  { "page size, bleed and crop marks", function()
    local out = tmpname(".png")
    local xml = doc('<page><frame><p>AB</p></frame></page>', 'bleed="3mm" crop-marks="yes" background="#ffffff"')
    local c = assert(document.render(xml, "test.xml", out, { dpi = 144 }))
    local w, h = c:size()
    local b = 3 * MM
    assert(math.abs(w - (105 * MM + 2 * b)) < 1e-6 and math.abs(h - (148 * MM + 2 * b)) < 1e-6, w .. "x" .. h)
    -- the background reaches the bleed edge
    eq({ ct.read_png_pixel(out, 0, 0) }, { 255, 255, 255, 255 })
    -- a horizontal mark on the top trim line, in the bleed, left of the trim
    local y = math.floor(b * 2)
    local darkest = 255
    for yy = y - 1, y + 1 do darkest = math.min(darkest, (ct.read_png_pixel(out, 4, yy))) end
    assert(darkest < 230, "no crop mark near y = " .. y .. " (darkest " .. darkest .. ")")
    -- none inside the trim
    eq({ ct.read_png_pixel(out, math.floor(b * 2) + 20, y) }, { 255, 255, 255, 255 })
  end },
  { "landscape and explicit sizes", function()
    local c = document.render(doc('<page/>', 'orientation="landscape"'):gsub('size="A6" ', ""), "t.xml")
    local w, h = c:size()
    assert(math.abs(w - 297 * MM) < 1e-6 and math.abs(h - 210 * MM) < 1e-6)
    c = document.render(doc('<page/>'):gsub('size="A6"', 'size="100mm x 2in"'), "t.xml")
    w, h = c:size()
    assert(math.abs(w - 100 * MM) < 1e-6 and h == 144)
  end },
  { "style inheritance", function()
    local c = assert(document.render(doc([[
<style name="a" size="40pt" color="#ff0000"/>
<style name="b" parent="a" palette="dark"/>
<page><frame style="b"><p>AB <span style="a" color="#00ff00">CD</span></p></frame></page>]]), "t.xml"))
    eq(c:page_count(), 1)
  end },

  -- errors: one line, FILE:LINE
  { "unknown element", render_err, { doc('<page>\n<frame><q/></frame></page>') }, false,
    "^test%.xml:4: <q>: unknown element here %(in <frame>: <p>%)$" },
  { "unknown attribute", render_err, { doc('<page>\n<frame colour="red"/></page>') }, false,
    "^test%.xml:4: <frame>: unknown attribute 'colour' %(expected x, y, width, height, valign, style%)$" },
  { "unknown attribute of span", render_err, { doc('<page><frame><p>A\n<span wieght="bold">B</span></p></frame></page>') },
    false, "^test%.xml:4: <span>: unknown attribute 'wieght'" },
  { "unclosed tag", render_err, { doc('<page>\n<frame>\n<p>AB</frame></page>') }, false,
    "^test%.xml:5: Opening and ending tag mismatch" },
  { "bad length", render_err, { doc('<page><frame x="3furlongs"/></page>') }, false,
    "^test%.xml:3: <frame>: x: bad unit in '3furlongs'" },
  { "bad color", render_err, { doc('<page background="blue"/>') }, false,
    "^test%.xml:3: <page>: background: bad color 'blue'" },
  { "bad paper", render_err, { doc('<page/>'):gsub("A6", "A12") }, false,
    "^test%.xml:1: <document>: size: unknown paper size 'A12'" },
  { "bad enum", render_err, { doc('<page><frame valign="up"/></page>') }, false,
    "^test%.xml:3: <frame>: valign: expected top, middle, bottom, got 'up'$" },
  { "unknown style", render_err, { doc('<page><frame><p style="nope">A</p></frame></page>') }, false,
    "^test%.xml:3: <p>: unknown style 'nope' %(defined: default%)$" },
  { "style cycle", render_err, { doc('<style name="x" parent="y"/><style name="y" parent="x"/>\n<page><frame><p style="x">A</p></frame></page>') },
    false, "inherits from itself" },
  { "text outside a paragraph", render_err, { doc('<page>stray</page>') }, false,
    "^test%.xml:3: <page>: text outside a <p>: 'stray'$" },
  { "wrong root", render_err, { "<doc/>" }, false, "^test%.xml:1: <doc>: the root element must be <document>$" },
  { "missing font file", render_err, { doc('<page><frame><p font="no/such.ttf">A</p></frame></page>') }, false,
    "^test%.xml:3: <p>: font: no/such%.ttf: cannot open" },
  { "no font", function()
    checkerr("^t%.xml:1: <p>: no font", document.render,
      '<document><page><frame><p>A</p></frame></page></document>', "t.xml")
  end },
  { "bad palette names the frame", render_err, { doc('<page><frame><p palette="Nope">A</p></frame></page>') }, false,
    "^test%.xml:3: <frame>: .*no palette named 'Nope'" },
  { "a DOCTYPE is refused", render_err, { '<!DOCTYPE document>\n<document/>' }, false,
    "^test%.xml:1: a DOCTYPE is not allowed$" },

  -- the command line
  { "chromatype DOC.xml -o OUT.pdf", function()
    local exe = (os.getenv("CT_BUILD") or (ROOT .. "/build")) .. "/chromatype"
    if not io.open(exe, "rb") then return end
    local src = tmpname(".xml")
    local h = assert(io.open(src, "w"))
    h:write(doc('<page><frame><p>CAB</p></frame></page>'))
    h:close()
    local out = tmpname(".pdf")
    assert(os.execute(('"%s" "%s" -o "%s"'):format(exe, src, out)))
    if have_pdftotext() then assert(pdftext(out):find("CAB", 1, true)) end
    -- the default output: DOC with .pdf
    assert(os.execute(('"%s" "%s"'):format(exe, src)))
    local def = src:gsub("%.xml$", ".pdf")
    assert(io.open(def, "rb")):close()
    os.remove(def)
    -- errors: one line, exit 1
    h = assert(io.open(src, "w"))
    h:write(doc('<page><frame bad="1"/></page>'))
    h:close()
    local p = io.popen(('"%s" "%s" -o "%s" 2>&1; echo "rc=$?"'):format(exe, src, out))
    local s = p:read("a")
    p:close()
    assert(s:match("^chromatype: [^\n]*:3: <frame>: unknown attribute 'bad'[^\n]*\nrc=1\n$"), s)
  end },
}
