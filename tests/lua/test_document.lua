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
  { "page size, bleed, crop and registration marks outside the bleed", function()
    local out = tmpname(".png")
    local xml = doc('<page><frame><p>AB</p></frame></page>', 'bleed="3mm" crop-marks="yes" background="#ffffff"')
    local c = assert(document.render(xml, "test.xml", out, { dpi = 144 }))
    local w, h = c:size()
    local b, slug = 3 * MM, 8 * MM
    local off = b + slug
    assert(math.abs(w - (105 * MM + 2 * off)) < 1e-6 and math.abs(h - (148 * MM + 2 * off)) < 1e-6, w .. "x" .. h)
    local function px(xp, yp) return { ct.read_png_pixel(out, math.floor(xp * 2), math.floor(yp * 2)) } end
    -- the background covers the bleed, not the slug
    eq(px(slug + 1, slug + 1), { 255, 255, 255, 255 })
    eq(px(1, 1)[4], 0, "slug corner is transparent")
    -- a horizontal crop mark on the top trim line, in the slug, left of the bleed
    local darkest = 255
    for dy = -1, 1 do
      local r, _, _, a = ct.read_png_pixel(out, math.floor(slug / 2 * 2), math.floor(off * 2) + dy)
      if a > 0 then darkest = math.min(darkest, r) end
    end
    assert(darkest < 200, "no crop mark in the slug (darkest " .. darkest .. ")")
    -- nothing in the bleed on that line, nor inside the trim
    eq(px(slug + b / 2, off), { 255, 255, 255, 255 })
    eq(px(off + 20, off), { 255, 255, 255, 255 })
    -- a registration mark centred above the page, in the slug
    local d = b + 3 + (slug - 3) / 2
    local r, _, _, a = ct.read_png_pixel(out, math.floor(w / 2 * 2), math.floor((off - d) * 2))
    assert(a > 0 and r < 200, "registration mark")
  end },
  { "the PDF has a TrimBox and a BleedBox (also after --cmyk)", function()
    local p = io.popen("command -v pdfinfo")
    local have = p:read("a") ~= ""
    p:close()
    if not have then return end
    local out = tmpname(".pdf")
    assert(document.render(doc('<page/><page size="A7"/>', 'bleed="3mm" crop-marks="yes"'), "t.xml", out))
    p = assert(io.popen('pdfinfo -box -f 1 -l 2 "' .. out .. '" 2>&1'))
    local info = p:read("a")
    p:close()
    local off, b = 11 * MM, 3 * MM
    local function box(page, name, x0, y0, x1, y1)
      local pat = ("Page +%d %s: +([%%d.]+) +([%%d.]+) +([%%d.]+) +([%%d.]+)"):format(page, name)
      local a1, a2, a3, a4 = info:match(pat)
      assert(a1, name .. " missing: " .. info)
      for i, v in ipairs({ x0, y0, x1, y1 }) do
        local got = tonumber(({ a1, a2, a3, a4 })[i])
        assert(math.abs(got - v) < 0.01, ("%s page %d: %g ~= %g"):format(name, page, got, v))
      end
    end
    box(1, "TrimBox", off, off, off + 105 * MM, off + 148 * MM)
    box(1, "BleedBox", off - b, off - b, off + 105 * MM + b, off + 148 * MM + b)
    box(2, "TrimBox", off, off, off + 74 * MM, off + 105 * MM)
    assert(not info:find("Syntax"), info)
    checkerr("bad argument #1 to 'page_boxes' %(the trim box must lie inside the bleed box%)", function()
      ct.canvas { width = 100, height = 100 }:page_boxes { trim = { 0, 0, 90, 90 }, bleed = { 10, 10, 50, 50 } }
    end)
    checkerr("field 'trim': {x, y, w, h} expected", function()
      ct.canvas { width = 100, height = 100 }:page_boxes { trim = "all" }
    end)
  end },
  { "crop marks without bleed still sit outside the trim", function()
    local c = assert(document.render(doc('<page/>', 'crop-marks="yes"'), "t.xml"))
    local w = c:size()
    assert(math.abs(w - (105 * MM + 16 * MM)) < 1e-6, w)
    c = assert(document.render(doc('<page/>', 'crop-marks="yes" slug="0"'), "t.xml"))
    w = c:size()
    assert(math.abs(w - 105 * MM) < 1e-6, "slug 0: no room, no marks")
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
    "^test%.xml:4: <q>: unknown element here %(in <frame>: <animate>, <p>, <rule>%)$" },
  { "unknown attribute", render_err, { doc('<page>\n<frame colour="red"/></page>') }, false,
    "^test%.xml:4: <frame>: unknown attribute 'colour' %(expected id, follows, x, y, width, height, valign, style, overflow, fit, .*color.*%)$" },
  { "unknown attribute of span", render_err, { doc('<page><frame><p>A\n<span wieght="bold">B</span></p></frame></page>') },
    false, "^test%.xml:4: <span>: unknown attribute 'wieght'" },
  { "unclosed tag", render_err, { doc('<page>\n<frame>\n<p>AB</frame></page>') }, false,
    "^test%.xml:5: Opening and ending tag mismatch" },
  { "bad length", render_err, { doc('<page><frame x="3furlongs"/></page>') }, false,
    "^test%.xml:3: <frame>: x: bad unit in '3furlongs'" },
  { "bad color", render_err, { doc('<page background="blurple"/>') }, false,
    "^test%.xml:3: <page>: background: bad color 'blurple' %(expected #rgb, #rrggbb%[aa%], rgb%(%), hsl%(%) or a CSS name%)$" },
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


  -- the Lua API: the same model
  { "ct.document builds pages, frames and text", function()
    local d = ct.document { size = "A6", margin = "10mm", title = "Lua doc" }
    d:style("default", { font = FONT, size = "20pt" })
    d:style("red", { color = "#ff0000", parent = "default" })
    local pg = d:page()
    local fr = pg:frame { y = "20mm", height = "40mm" }
    fr:text("ABBA CAB\nDAD", { style = "red", align = "center" })
    fr:paragraph({ "AB ", { text = "CD", size = 30 } })
    fr:text { "CAB BAD", color = "#0000ff", align = "right" }
    local out = tmpname(".pdf")
    local ok, err, _, c = d:write(out)
    assert(ok, err)
    eq(c:page_count(), 1)
    if have_pdftotext() then
      local t = pdftext(out)
      assert(t:find("ABBA CAB", 1, true) and t:find("DAD", 1, true) and t:find("AB CD", 1, true), t)
      assert(t:find("CAB BAD", 1, true), t)
    end
  end },
  { "Lua API misuse raises naming the function", function()
    checkerr("bad argument #1 to 'document' %(unknown field 'sise'", ct.document, { sise = "A4" })
    local d = ct.document()
    checkerr("bad argument #1 to 'frame' %(unknown field 'widht'", function() d:page():frame { widht = 3 } end)
    checkerr("bad argument #1 to 'text' %(string expected, got number%)", function() d:page():frame():text(3) end)
    checkerr("chromatype.document: style 'x': size: bad unit", function() d:style("x", { size = "3furlongs" }) end)
    checkerr("chromatype.document: has no pages", function() ct.document():render() end)
  end },
  { "pages of different sizes", function()
    local c = assert(document.render(doc('<page/><page size="A5" orientation="landscape"/><page size="50mm x 60mm"/>'), "t.xml"))
    eq(c:page_count(), 3)
    local out = tmpname(".pdf")
    assert(document.render(doc('<page/><page size="A5" orientation="landscape"/>'), "t.xml", out))
    local p = assert(io.popen('pdfinfo -f 1 -l 2 "' .. out .. '" 2>/dev/null'))
    local info = p:read("a")
    p:close()
    if info ~= "" then
      assert(info:find("Page +1 size: +297%.638 x 419%.528 pts"), info)
      assert(info:find("Page +2 size: +595%.276 x 419%.528 pts"), info)
    end
  end },
  { "text flows from one frame into the frame that follows it", function()
    local xml = doc([[<page>
  <frame id="a" height="25pt" width="60pt"><p>AB CD ABCD</p><p>DCBA</p></frame>
  <frame follows="a" y="40mm" height="30mm" width="120pt"/>
</page>]])
    local d = document.from_xml(xml, "t.xml")
    local got = {}
    local prev = ct.on_warning(function(m) got[#got + 1] = m end)
    local c = d:render()
    ct.on_warning(prev)
    eq(#got, 0, "no overflow warning")
    eq(c:page_count(), 1)
    if not have_pdftotext() then return end
    local out = tmpname(".pdf")
    assert(d:write(out))
    local t = pdftext(out)
    assert(t:find("AB\n", 1, true) and t:find("CD ABCD", 1, true) and t:find("DCBA", 1, true), t)
  end },
  { "overflow='continue' adds pages until the text is set", function()
    local body = ("ABCD DCBA "):rep(60)
    local d = document.from_xml(doc('<page><frame overflow="continue" height="20mm"><p>' .. body .. '</p></frame></page>'), "t.xml")
    local c, report = d:render()
    assert(c:page_count() > 2, "pages " .. c:page_count())
    eq(report.pages, c:page_count())
    eq(#report.overflows, 0)
  end },
  { "overflow is reported once with the character count", function()
    local got = {}
    local prev = ct.on_warning(function(m) got[#got + 1] = m end)
    local ok, err = pcall(document.render, doc('<page><frame height="20pt"><p>AB CD AB CD AB CD AB CD AB CD</p></frame></page>'), "t.xml")
    ct.on_warning(prev)
    assert(ok, err)
    eq(#got, 1)
    assert(got[1]:find("^t%.xml:3: <frame>: the text overflows %(%d+ characters not drawn%)$"), got[1])
  end },
  { "follows an unknown frame", render_err, { doc('<page><frame follows="zz"/></page>') }, false,
    "^test%.xml:3: <frame>: follows: no frame with id 'zz' before this one$" },
  { "a frame that follows takes no text", render_err,
    { doc('<page><frame id="a"/><frame follows="a"><p>A</p></frame></page>') }, false,
    "^test%.xml:3: <frame>: a frame that follows another takes no text of its own$" },
  { "bad overflow value", render_err, { doc('<page><frame overflow="spill"/></page>') }, false,
    "^test%.xml:3: <frame>: overflow: expected warn, hide, continue, got 'spill'$" },
  { "a font fallback chain in a style", function()
    if not have_pdftotext() then return end
    local out = tmpname(".pdf")
    local xml = ('<document size="A6"><style name="default" font="%s; DejaVu Sans" size="14pt"/>'
      .. '<page><frame><p>ABC xyz</p></frame></page></document>'):format(FONT)
    local got = {}
    local prev = ct.on_warning(function(m) got[#got + 1] = m end)
    assert(document.render(xml, "t.xml", out))
    ct.on_warning(prev)
    eq(#got, 0, table.concat(got, "\n"))
    assert(pdftext(out):find("ABC xyz", 1, true))
  end },
  { "fitting from XML: the title shrinks to its frame", function()
    local xml = doc('<page><frame height="40pt" fit="size" fit-size="0.2"><p>ABCD ABCD ABCD ABCD ABCD ABCD</p></frame></page>')
    local d = document.from_xml(xml, "t.xml")
    local got = {}
    local prev = ct.on_warning(function(m) got[#got + 1] = m end)
    d:render()
    ct.on_warning(prev)
    eq(#got, 0, table.concat(got, "\n"))
    local fr = d.pages[1].frames[1]
    eq(fr.fit_result.fits, true)
    assert(fr.fit_result.steps[1].value < 1)
  end },
  { "pdftotext gives back RTL, emoji and mixed text in logical order", function()
    if not have_pdftotext() or not ct.open_font("DejaVu Sans") then return end
    local out = tmpname(".pdf")
    local xml = ([[<document size="A5"><style name="default" font="DejaVu Sans; %s" size="14pt"/>
<page><frame>
<p>Hello שלום world</p>
<p>مرحبا بالعالم</p>
<p>Color 🎨 and 🌈 emoji</p>
</frame></page></document>]]):format(font_path("twemoji-colr0.woff2"))
    assert(document.render(xml, "t.xml", out))
    -- without the bidi marks pdftotext adds (U+200E, U+200F, U+202A..U+202E)
    local t = pdftext(out):gsub("\xE2\x80[\x8E\x8F\xAA-\xAE]", "")
    -- pdftotext moves the space after an RTL word inside a LTR line before it ("Hello  שלוםworld"),
    -- exactly as it does for Chromium's PDF of the same line: compare that line without spaces
    assert(t:gsub("%s", ""):find("Helloשלוםworld", 1, true), t)
    assert(t:find("مرحبا بالعالم", 1, true), t)
    assert(t:find("Color 🎨 and 🌈 emoji", 1, true), t)
  end },

  { "images on pages: SVG and PNG, relative to the document, with a line for errors", function()
    local dir = tmpname("")
    os.execute("mkdir -p '" .. dir .. "'")
    local h = assert(io.open(dir .. "/box.svg", "w"))
    h:write('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#00ff00"/></svg>')
    h:close()
    local c = ct.canvas { width = 10, height = 10 }
    c:background("#0000ff")
    assert(c:write(dir .. "/blue.png"))
    local xml = [[<document size="60mm x 30mm" margin="0" background="#ffffff">
<page><image src="box.svg" x="0" y="0" width="20pt"/><image src="blue.png" x="30pt" y="0" width="20pt" height="20pt"/></page>
</document>]]
    local out = tmpname(".png")
    assert(document.render(xml, dir .. "/doc.xml", out))
    eq({ ct.read_png_pixel(out, 10, 10) }, { 0, 255, 0, 255 })
    eq({ ct.read_png_pixel(out, 40, 10) }, { 0, 0, 255, 255 })
    eq({ ct.read_png_pixel(out, 10, 25) }, { 255, 255, 255, 255 })
    checkerr("doc%.xml:2: <image>: .*no/such%.png", document.render, xml:gsub("blue%.png", "no/such.png"), dir .. "/doc.xml", out)
    checkerr("t%.xml:2: <image>: needs a src= attribute", document.render, '<document>\n<page><image/></page></document>', "t.xml")
    -- the same from Lua
    local d = ct.document { size = "60mm x 30mm", margin = 0, base_dir = dir }
    d:page():image { "blue.png", x = 0, y = 0, width = 10 }
    local out2 = tmpname(".png")
    assert(d:write(out2))
    eq({ ct.read_png_pixel(out2, 5, 5) }, { 0, 0, 255, 255 })
  end },

  -- the command line
  { "chromatype DOC.xml options: --dpi, --format, --no-text-layer, stdin", function()
    local exe = (os.getenv("CT_BUILD") or (ROOT .. "/build")) .. "/chromatype"
    if not io.open(exe, "rb") then return end
    local src = tmpname(".xml")
    local h = assert(io.open(src, "w"))
    h:write(doc('<page><frame><p>CAB</p></frame></page><page size="A7"/>'))
    h:close()
    local stem = tmpname("")
    assert(os.execute(('"%s" "%s" -o "%s.png" --dpi 36'):format(exe, src, stem)))
    local w, hh = ct.read_png(stem .. "-1.png")
    eq({ w, hh }, { math.floor(105 * MM / 2 + 0.5), math.floor(148 * MM / 2 + 0.5) })
    w = ct.read_png(stem .. "-2.png")
    eq(w, math.floor(74 * MM / 2 + 0.5), "page 2 is A7")
    os.remove(stem .. "-1.png"); os.remove(stem .. "-2.png")
    -- stdin to a file whose format comes from --format
    assert(os.execute(('"%s" - --format svg -o "%s.out" < "%s"'):format(exe, stem, src)))
    local f1 = assert(io.open(stem .. "-1.out", "rb"))
    assert(f1:read("a"):find("<svg", 1, true))
    f1:close()
    os.remove(stem .. "-1.out"); os.remove(stem .. "-2.out")
    if have_pdftotext() then
      assert(os.execute(('"%s" "%s" -o "%s.pdf" --no-text-layer'):format(exe, src, stem)))
      eq(pdftext(stem .. ".pdf"):gsub("%s", ""), "", "no text layer")
      os.remove(stem .. ".pdf")
    end
    local p = io.popen(('"%s" "%s" --bogus 2>&1; echo "rc=$?"'):format(exe, src))
    local out = p:read("a")
    p:close()
    assert(out:match("unexpected argument '%-%-bogus'.*\nrc=2\n$"), out)
  end },
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
  { "documents of a batch share their fonts (opened once per process)", function()
    local path = ROOT .. "/examples/fonts/bungee-latin.woff2"
    local a = ct.document {}
    local b = ct.document {}
    local fa = a:open_font({}, path)
    local fb = b:open_font({}, path)
    assert(rawequal(fa, fb), "each document opened its own")
    eq(ct.shared_font(path), fa)
    -- a WOFF2 font opened again (inflated once, then from the cache) is the same font
    local f1, f2 = ct.open_font(path), ct.open_font(path)
    eq(f1:info().container, "WOFF2"); eq(f2:info().glyph_count, f1:info().glyph_count)
    eq(f2:paint(f2:glyph("A")), f1:paint(f1:glyph("A")))
  end },
  { "a PDF is written page by page: the same pages, no file when a page fails", function()
    local out = tmpname(".pdf")
    local d = ct.document { size = "60mm x 30mm", margin = "3mm", title = "Streamed" }
    d:style("default", { font = font_path("ct-colr0.ttf"), size = "14pt" })
    for i = 1, 5 do d:page():frame {}:text("ABBA " .. ("D"):rep(i)) end
    local ok, err, _, c, report = d:write(out)
    assert(ok, err)
    eq(report.pages, 5); eq(c:page_count(), 5)
    if have_pdftotext() then
      local text = pdftext(out)
      assert(text:find("ABBA D\n", 1, true) and text:find("ABBA DDDDD", 1, true), text)
    end
    checkerr("page 1 was written as a stream", c.rasterize, c)
    checkerr("written as a stream", c.write, c, tmpname(".png"))
    -- page 2 cannot be set: the error is raised and nothing is left behind
    local bad = tmpname(".pdf")
    local d2 = ct.document { size = "60mm x 30mm", margin = "3mm" }
    d2:style("default", { font = font_path("ct-colr0.ttf"), size = "14pt" })
    d2:page():frame {}:text("AB")
    d2:page():frame { height = "1pt", overflow = "continue" }:text("ABBA")
    checkerr("does not fit an empty frame", d2.write, d2, bad)
    collectgarbage()
    local h = io.open(bad, "rb")
    if h then h:close() end
    eq(h, nil)
    local p = io.popen(("ls '%s'.tmp-* 2>/dev/null"):format(bad))
    local listing = p:read("a")
    p:close()
    eq(listing, "", "a temporary file was left")
  end },
  { "canvas streams: pages out as they are done; write and stdout refused meanwhile", function()
    local f = assert(ct.open_font(font_path("ct-colr0.ttf")))
    local out = tmpname(".pdf")
    local c = ct.canvas { width = 100, height = 50 }
    c:text { "AB", font = f, size = 20, x = 5, y = 30 }
    c:stream(out, { title = "s" })
    checkerr("being written to", c.write, c, tmpname(".pdf"))
    c:new_page()
    c:text { "CD", font = f, size = 20, x = 5, y = 30 }
    assert(c:finish())
    eq(c:page_count(), 2)
    local h0 = assert(io.open(out, "rb")); assert(#h0:read("a") > 500); h0:close()
    checkerr("not written as a stream", c.finish, c)
    local c2 = ct.canvas { width = 10, height = 10 }
    checkerr("a PDF stream needs a file", c2.stream, c2, "-")
    local gone = tmpname(".pdf")
    local c3 = ct.canvas { width = 10, height = 10 }
    c3:stream(gone)
    c3:close()
    local h = io.open(gone, "rb")
    if h then h:close() end
    eq(h, nil)
  end },
}
