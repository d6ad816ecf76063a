-- test_inks.lua: spot inks from Lua: canvas:ink with specs and tables, the core's checks
-- (process colorant names, white, alpha), replacement by name, canvas:inks and ct.parse_ink
-- round trips, registration rectangles, the write options (inks, inks_only, overprint,
-- plates) on c:write, c:stream and documents, and inks of documents (ct.document{inks =},
-- XML <ink>) on the canvases they make, through the plain, streaming and filter paths (seen
-- in the core's plates, one file per ink, and its warnings); print marks in registration
-- color.  What the PDF holds is the core's to test.
local ct = require "chromatype"
local document = require "chromatype.document"

local FONT = font_path("ct-colr0.ttf")

local PINK = { name = "Fluorescent Pink", color = "#ff48b0", overprint = true, cmyk = { 0, 70, 0, 0 } }

local function canvas() return ct.canvas { width = 100, height = 100 } end

local function xml(body, inks)
  return ('<document size="A7" margin="5mm">\n%s\n<style name="default" font="%s" size="20pt"/>\n'
    .. '<page><frame><p>AB</p></frame></page>%s\n</document>\n'):format(inks or "", FONT, body or "")
end

local function from_xml_err(text) return document.from_xml(text, "t.xml") end

-- The core's warnings ("ink 'Teal' is not used", colors no ink prints), kept from stderr.
local warnings = {}
ct.on_warning(function(msg) warnings[#warnings + 1] = msg end)

-- Whether a warning matches `pattern`; clears the list.
local function warned(pattern)
  local found = false
  for _, w in ipairs(warnings) do if w:find(pattern) then found = true end end
  warnings = {}
  return found
end

-- A fresh directory name for plates.
local function platedir() return tmpname(".plates") end

-- The files in a plate directory, sorted (then removed, with the directory).
local function plates(dir)
  local p = assert(io.popen(("ls -1 '%s' 2>/dev/null"):format(dir)))
  local names = {}
  for name in p:lines() do names[#names + 1] = name end
  p:close()
  table.sort(names)
  for _, name in ipairs(names) do os.remove(dir .. "/" .. name) end
  os.remove(dir)
  return names
end

return {
  -- ---- canvas:ink ----------------------------------------------------------------------
  { "c:ink with a spec string", function()
    local c = canvas()
    eq(c:ink("Fluorescent Pink=#ff48b0,overprint,cmyk=0/70/0/0"), c)
    eq(c:inks(), { PINK })
  end },
  { "c:ink with a table (cmyk as a string or a table, color as a table)", function()
    local c = canvas()
    c:ink { name = "Fluorescent Pink", color = "#ff48b0", overprint = true, cmyk = "0/70/0/0" }
    c:ink { name = "Teal", color = { 0, 0.5, 0.5 }, cmyk = { 90, 0, 30, 2.5 } }
    c:ink { name = "Gold", color = "#c9a227" }
    eq(c:inks(), { PINK, { name = "Teal", color = "#008080", overprint = false, cmyk = { 90, 0, 30, 2.5 } },
      { name = "Gold", color = "#c9a227", overprint = false } })
  end },
  { "an ink of the same name replaces the earlier one, in its place", function()
    local c = canvas()
    c:ink("A=#ff0000")
    c:ink("B=#00ff00")
    c:ink { name = "A", color = "#0000ff", overprint = true }
    eq(c:inks(), { { name = "A", color = "#0000ff", overprint = true }, { name = "B", color = "#00ff00", overprint = false } })
  end },
  { "c:inks() round trip through c:ink and ct.parse_ink", function()
    local c, d = canvas(), canvas()
    c:ink(PINK)
    c:ink("Riso Blue=#0078bf,cmyk=100/50/0/5")
    for _, ink in ipairs(c:inks()) do d:ink(ink) end
    eq(d:inks(), c:inks())
    eq(ct.parse_ink("Fluorescent Pink=#FF48B0,overprint,cmyk=0/70/0/0"), PINK)
    eq(ct.parse_ink(PINK), PINK)
  end },
  { "a canvas has no inks at first", function() eq(canvas():inks(), {}) end },
  { "bad ink: a process colorant's name", function()
    local c = canvas()
    checkerr("bad argument #1 to 'ink' %(ink 'Black': the name of a process colorant",
      function() c:ink("Black=#000000") end)
    checkerr("ink 'Cyan': the name of a process colorant", c.ink, c, { name = "Cyan", color = "#00ffff" })
    checkerr("ink 'All': the name of a process colorant", c.ink, c, "All=#000000")
    eq(c:inks(), {})
  end },
  { "bad ink: no name", function()
    local c = canvas()
    checkerr("an ink needs a name", c.ink, c, "=#ff0000")
    checkerr("an ink needs a name", c.ink, c, { name = "", color = "#ff0000" })
    checkerr("field 'name': expected string, got nil", c.ink, c, { color = "#ff0000" })
    checkerr("name too long", c.ink, c, { name = ("x"):rep(64), color = "#ff0000" })
    checkerr("expected NAME=COLOR", c.ink, c, "Pink #ff0000")
  end },
  { "bad ink: white is the paper", function()
    local c = canvas()
    checkerr("ink 'W': white is the paper", c.ink, c, "W=#ffffff")
    checkerr("ink 'W': white is the paper", c.ink, c, { name = "W", color = { 1, 1, 1 } })
  end },
  { "bad ink: a color with alpha", function()
    local c = canvas()
    checkerr("ink 'A': an ink's color is opaque", c.ink, c, "A=#ff000080")
    checkerr("ink 'A': an ink's color is opaque", c.ink, c, { name = "A", color = { 1, 0, 0, 0.5 } })
  end },
  { "bad ink: fields and values", function()
    local c = canvas()
    checkerr("unknown field 'colour' %(expected name, color, overprint or cmyk%)", c.ink, c, { name = "A", colour = "#f00" })
    checkerr("ink 'A': field 'color' is missing", c.ink, c, { name = "A" })
    checkerr("ink 'A': field 'color': bad color", c.ink, c, { name = "A", color = "pink" })
    checkerr("ink 'A': field 'overprint': expected boolean, got string", c.ink, c, { name = "A", color = "#f00", overprint = "yes" })
    checkerr("ink 'A': field 'cmyk': four percentages", c.ink, c, { name = "A", color = "#f00", cmyk = "1/2/3" })
    checkerr("item 4 is not a number", c.ink, c, { name = "A", color = "#f00", cmyk = { 1, 2, 3, "x" } })
    checkerr("ink 'A': CMYK values from 0 to 100", c.ink, c, { name = "A", color = "#f00", cmyk = { 0, 0, 0, 101 } })
    checkerr("ink 'A': cmyk=C/M/Y/K wants four percentages", c.ink, c, "A=#f00,cmyk=0/0/0/-1")
    checkerr("unknown option 'knockout'", c.ink, c, "A=#f00,knockout")
    checkerr("expected an ink .* got number", c.ink, c, 5)
    checkerr("expected an ink .* got no value", c.ink, c)
    checkerr("bad argument #1 to '[%w.]*parse_ink' %(ink 'Black'", ct.parse_ink, "Black=#000")
  end },
  { "more inks than the core takes raise", function()
    local c = canvas()
    for i = 1, 32 do c:ink(("Ink %d=#ff0000"):format(i)) end
    checkerr("more than 32 inks", c.ink, c, "Ink 33=#00ff00")
    c:ink("Ink 1=#0000ff")                                   -- a replacement still fits
  end },
  { "c:ink on a closed canvas raises", function()
    local c = canvas()
    c:close()
    checkerr("attempt to use a closed canvas", c.ink, c, "A=#ff0000")
    checkerr("attempt to use a closed canvas", c.inks, c)
  end },

  -- ---- registration ----------------------------------------------------------------------
  { "c:rect in registration color: black in PNG", function()
    local c = canvas()
    c:background("#ffffff")
    eq(c:rect { x = 10, y = 10, w = 20, h = 20, color = "registration" }, c)
    local p = tmpname(".png")
    assert(c:write(p))
    eq({ ct.read_png_pixel(p, 20, 20) }, { 0, 0, 0, 255 })
    eq({ ct.read_png_pixel(p, 50, 50) }, { 255, 255, 255, 255 })
    checkerr("field 'color': bad color .*'Registration'", c.rect, c, { x = 0, y = 0, w = 1, h = 1, color = "Registration" })
    checkerr("field 'x': expected number", c.rect, c, { y = 0, w = 1, h = 1, color = "registration" })
  end },

  -- ---- write options ---------------------------------------------------------------------
  { "c:write takes inks, inks_only, overprint, plates", function()
    local c = canvas()
    c:ink(PINK)
    c:rect { x = 0, y = 0, w = 50, h = 50, color = "#ff48b0" }
    c:rect { x = 0, y = 0, w = 5, h = 5, color = "registration" }
    local p, dir = tmpname(".pdf"), platedir()
    warnings = {}
    assert(c:write(p, { inks = { "Teal=#008080", { name = "Gold", color = "#c9a227", cmyk = { 0, 20, 80, 20 } } },
      inks_only = false, overprint = true, plates = dir }))
    eq(plates(dir), { "Fluorescent-Pink.pdf", "Gold.pdf", "Teal.pdf", "preview.png" })
    assert(warned("ink 'Teal' is not used"), "the write option's inks reach the core")
    dir = platedir()
    assert(c:write(tmpname(".png"), { inks = {}, overprint = false, plates = dir }))
    eq(plates(dir), { "Fluorescent-Pink.png", "preview.png" })
    c:rect { x = 50, y = 50, w = 10, h = 10, color = "#123456" }
    checkerr("no ink prints.*%-%-inks%-only", c.write, c, p, { inks_only = true })
    assert(c:write(p, { inks_only = true, inks = { "Navy=#123456" } }))
  end },
  { "write options: bad inks and unknown keys raise", function()
    local c, p = canvas(), tmpname(".pdf")
    checkerr("unknown field 'ink' %(expected .*inks, inks_only, overprint, plates or threads%)", c.write, c, p, { ink = {} })
    checkerr("unknown field 'inksonly'", c.write, c, p, { inksonly = true })
    checkerr("field 'inks': %[2%]: ink 'Black': the name of a process colorant", c.write, c, p,
      { inks = { "Pink=#ff48b0", "Black=#000000" } })
    checkerr("field 'inks': %[1%]: ink 'W': white is the paper", c.write, c, p, { inks = { { name = "W", color = "#fff" } } })
    checkerr("field 'inks': expected a list of inks, got string", c.write, c, p, { inks = "Pink=#ff48b0" })
    checkerr("field 'inks': unknown field 'Pink'", c.write, c, p, { inks = { Pink = "#ff48b0" } })
    checkerr("field 'inks': more than 32 inks", c.write, c, p, { inks = (function()
      local t = {}
      for i = 1, 33 do t[i] = ("I%d=#ff0000"):format(i) end
      return t
    end)() })
    checkerr("field 'inks_only': expected boolean", c.write, c, p, { inks_only = 1 })
    checkerr("field 'overprint': expected boolean", c.write, c, p, { overprint = "yes" })
    checkerr("field 'plates': expected string", c.write, c, p, { plates = true })
    checkerr("field 'plates': a directory expected", c.write, c, p, { plates = "" })
    local f = io.open(p, "rb")
    assert(not f, "a refused write leaves no file")
  end },
  { "c:stream takes the same options and checks them", function()
    local c, p = canvas(), tmpname(".pdf")
    checkerr("field 'inks': %[1%]: ink 'Black'", c.stream, c, p, { inks = { "Black=#000" } })
    checkerr("unknown field 'plate'", c.stream, c, p, { plate = "x" })
    local dir = platedir()
    c:stream(p, { inks = { PINK, "Teal=#008080" }, overprint = true, inks_only = true, plates = dir })
    c:rect { x = 0, y = 0, w = 10, h = 10, color = "#ff48b0" }
    c:new_page()
    c:rect { x = 0, y = 0, w = 10, h = 10, color = "#008080" }
    assert(c:finish())
    eq(plates(dir), { "Fluorescent-Pink.pdf", "Teal.pdf", "preview-1.png", "preview-2.png" })
  end },

  -- ---- documents -------------------------------------------------------------------------
  { "ct.document{inks =} puts the inks on the canvas", function()
    local d = ct.document { size = "A7", inks = { "Teal=#008080", PINK } }
    d:style("default", { font = FONT, size = 20 })
    d:page():frame {}:text("AB")
    local c = d:render()
    eq(c:inks(), { { name = "Teal", color = "#008080", overprint = false }, PINK })
  end },
  { "document inks: on the streamed PDF's canvas and through filters", function()
    local d = ct.document { size = "A7", inks = { "Teal=#008080" } }
    d:style("default", { font = FONT, size = 20 })
    d:page():frame {}:text("AB")
    d:page():frame {}:text("BA")
    local dir = platedir()
    local ok, err, _, c = d:write(tmpname(".pdf"), { plates = dir })          -- page by page
    assert(ok, err)
    eq(c:inks(), { { name = "Teal", color = "#008080", overprint = false } })
    eq(plates(dir), { "Teal.pdf", "preview-1.png", "preview-2.png" })
    local seen = 0
    d:filter { Glyph = function() seen = seen + 1 end }
    c = d:render()
    assert(seen > 0, "the filter ran")
    eq(c:inks(), { { name = "Teal", color = "#008080", overprint = false } })
    dir = platedir()
    assert(d:write(tmpname(".pdf"), { plates = dir, inks = { "Gold=#c9a227" } }))
    eq(plates(dir), { "Gold.pdf", "Teal.pdf", "preview-1.png", "preview-2.png" })
  end },
  { "ct.document: bad inks raise naming the field", function()
    checkerr("bad argument #1 to 'document' %(field 'inks': %[2%]: ink 'Black'", ct.document,
      { inks = { "A=#f00", "Black=#000" } })
    checkerr("field 'inks': a list of inks expected, got string", ct.document, { inks = "A=#f00" })
    checkerr("field 'inks': a list of inks expected %(unexpected key x%)", ct.document, { inks = { x = "A=#f00" } })
    checkerr("unknown field 'ink'", ct.document, { ink = {} })
  end },
  { "doc:write passes the ink options to c:write and c:stream (PDF, PNG, filtered)", function()
    local d = ct.document { size = "A7" }
    d:style("default", { font = FONT, size = 20 })
    d:page():frame {}:text("AB")
    local bad = { inks = { "Black=#000000" } }
    checkerr("field 'inks': %[1%]: ink 'Black'", d.write, d, tmpname(".pdf"), bad)   -- streamed
    checkerr("field 'inks': %[1%]: ink 'Black'", d.write, d, tmpname(".png"), bad)
    checkerr("field 'overprint': expected boolean", d.write, d, tmpname(".pdf"), { overprint = 1 })
    checkerr("field 'plates': expected string", d.write, d, tmpname(".png"), { plates = 1 })
    warnings = {}
    assert(d:write(tmpname(".pdf"), { inks = { "Pink=#ff48b0" }, inks_only = false, overprint = true }))
    assert(warned("ink 'Pink' is not used"), "streamed: the inks reach the core")
    checkerr("no ink prints", d.write, d, tmpname(".pdf"), { inks_only = true, inks = { "Pink=#ff48b0" } })
    d:filter { Glyph = function() end }
    checkerr("field 'inks_only': expected boolean", d.write, d, tmpname(".pdf"), { inks_only = "no" })
    assert(d:write(tmpname(".pdf"), { inks = { PINK }, overprint = true }))
    assert(warned("ink 'Fluorescent Pink' is not used"), "filtered: the inks reach the core")
    checkerr("no ink prints", d.write, d, tmpname(".pdf"), { inks_only = true, inks = { "Pink=#ff48b0" } })
  end },
  { "document.render takes inks, inks_only, overprint, plates", function()
    local out, dir = tmpname(".pdf"), platedir()
    local c, ok, err = document.render(xml(), "t.xml", out, { inks = { "Pink=#ff48b0" }, inks_only = false,
      overprint = true, plates = dir })
    assert(ok, err)
    eq(c:inks(), {})
    eq(plates(dir), { "Pink.pdf", "preview.png" })
    checkerr("no ink prints.*%(%-%-inks%-only%)", document.render, xml(), "t.xml", out,
      { inks_only = true, inks = { "Pink=#ff48b0" } })
    checkerr("bad argument #4 to 'render' %(unknown field 'ink' %(expected dpi, format, text_layer, cmyk, inks, "
      .. "inks_only, overprint, plates, at, fps, duration, loop, quality, effort, dither, matte, workers, "
      .. "poster%)%)", document.render, xml(), "t.xml", out, { ink = {} })
    checkerr("field 'inks': %[1%]: ink 'Black'", document.render, xml(), "t.xml", out, { inks = { "Black=#000" } })
  end },

  -- ---- XML <ink> -----------------------------------------------------------------------------
  { "XML <ink> reaches the canvas", function()
    local c = document.render(xml(nil, '<ink name="Fluorescent Pink" color="#ff48b0" overprint="yes" cmyk="0/70/0/0"/>\n'
      .. '<ink name="Teal" color="#008080" overprint="no"/>'), "t.xml")
    eq(c:inks(), { PINK, { name = "Teal", color = "#008080", overprint = false } })
    local d = document.from_xml(xml('<ink name="Gold" color="#c9a227"/>'), "t.xml")   -- after the pages too
    eq(d.inks, { { name = "Gold", color = "#c9a227", overprint = false } })
    c = assert(d:render())
    eq(c:inks(), d.inks)
    local dir = platedir()
    assert(document.render(xml(nil, '<ink name="Fluorescent Pink" color="#ff48b0"/>'), "t.xml", tmpname(".pdf"),
      { plates = dir }))
    eq(plates(dir), { "Fluorescent-Pink.pdf", "preview.png" })
  end },
  { "XML <ink> errors are one line at the element", function()
    checkerr("^t%.xml:2: <ink>: ink 'Black': the name of a process colorant", from_xml_err,
      xml(nil, '<ink name="Black" color="#000000"/>'))
    checkerr("^t%.xml:2: <ink>: needs a name= attribute", from_xml_err, xml(nil, '<ink color="#ff0000"/>'))
    checkerr("^t%.xml:2: <ink>: needs a color= attribute", from_xml_err, xml(nil, '<ink name="Red"/>'))
    checkerr("^t%.xml:2: <ink>: ink 'W': white is the paper", from_xml_err, xml(nil, '<ink name="W" color="#fff"/>'))
    checkerr("^t%.xml:2: <ink>: ink 'A': an ink's color is opaque", from_xml_err, xml(nil, '<ink name="A" color="#ff000080"/>'))
    checkerr("^t%.xml:2: <ink>: overprint: expected yes, no, got 'maybe'", from_xml_err,
      xml(nil, '<ink name="A" color="#f00" overprint="maybe"/>'))
    checkerr("^t%.xml:2: <ink>: ink 'A': field 'cmyk': four percentages", from_xml_err,
      xml(nil, '<ink name="A" color="#f00" cmyk="1,2,3,4"/>'))
    checkerr("^t%.xml:2: <ink>: unknown attribute 'colour' %(expected name, color, overprint, cmyk%)", from_xml_err,
      xml(nil, '<ink name="A" colour="#f00"/>'))
    checkerr("^t%.xml:2: <ink>: must be empty", from_xml_err, xml(nil, '<ink name="A" color="#f00">x</ink>'))
    checkerr("^t%.xml:3: <ink>: ink 'A' is defined twice", from_xml_err,
      xml(nil, '<ink name="A" color="#f00"/>\n<ink name="A" color="#0f0"/>'))
    checkerr("^t%.xml:4: <ink>: unknown element here %(in <page>: <frame>, <image>, <rule>%)", from_xml_err,
      xml('<page><ink name="A" color="#f00"/></page>'))
  end },

  -- ---- print marks --------------------------------------------------------------------------
  { "print marks are drawn in registration color", function()
    local d = ct.document { size = "A7", bleed = "3mm", crop_marks = true }
    local pg = d:page()
    local rects, boxes = {}, 0
    local fake = {
      rect = function(_, t) rects[#rects + 1] = t end,
      page_boxes = function() boxes = boxes + 1 end,
    }
    d:end_page(fake, pg, d.bleed + d.slug)
    eq(boxes, 1)
    eq(#rects, 8 + 4 * 6, "crop marks and registration marks")
    for i, r in ipairs(rects) do eq(r.color, "registration", "mark " .. i) end
    -- and the real canvas takes them
    local c = assert(document.render(xml(nil, ""):gsub('margin="5mm"', 'margin="5mm" crop-marks="yes"'), "t.xml"))
    eq(c:page_count(), 1)
  end },
}
