-- pages.lua: peak memory of one process rendering N pages.
--   chromatype bench/pages.lua N MODE OUT-DIR
-- Each page: a headline in a Bungee stack, a paragraph, a line of emoji.  MODE "document":
-- one PDF of N pages made by a script (chromatype.document, doc:stream: each page written
-- as the next begins); "xml": the same pages as an XML document (bench/record.xml's),
-- written to OUT-DIR first, then rendered as the command line renders it (read as it
-- goes); "xml-filter": the same through a filter (bench/tint.lua: each word of the text
-- in an ink drawn at random, run page by page); "records": N one-page PDFs, one after the
-- other, as a batch worker renders them; "canvas": one PDF of N pages streamed through
-- c:stream directly (no document model: what the PDF writer itself holds), each page a line
-- of DejaVu Sans, a headline in the Bungee stack's first font and a row of COLRv0 emoji.
-- Prints "pages N peak_rss_kib K seconds S".
local ct = require "chromatype"

local n = math.tointeger(tonumber(arg[1])) or error("pages: N expected", 0)
local mode = arg[2] or "document"
local dir = arg[3] or os.getenv("TMPDIR") or "/tmp"
local here = arg[0]:match("^(.*)/") or "bench"
local F = here .. "/../examples/fonts/"
local EMOJI = here .. "/../tests/fonts/twemoji-colr0.woff2"

local function peak_kib()
  local h = io.open("/proc/self/status")
  if not h then return -1 end
  local s = h:read("a")
  h:close()
  return tonumber(s:match("VmHWM:%s*(%d+)")) or -1
end

local function new_doc()
  local doc = ct.document { size = "A6", margin = "10mm", background = "#f4efe3", title = "pages bench" }
  doc:stack("wood", ct.stack {
    { font = F .. "bungee-shade-latin.woff2", color = "#1d3557" },
    { font = F .. "bungee-latin.woff2", color = "#f1c453" },
    { font = F .. "bungee-inline-latin.woff2", color = "#d62828" },
    lead = 2, warn = false })
  doc:style("default", { font = "DejaVu Sans", size = "9pt", leading = "12pt" })
  doc:style("head", { font = "wood", size = "30pt", align = "center" })
  doc:style("emoji", { font = EMOJI, size = "20pt", align = "center" })
  return doc
end

local function add_page(doc, i)
  local p = doc:page()
  p:frame { y = "12mm", height = "20mm", style = "head" }:text(("PAGE %d"):format(i))
  p:frame { y = "36mm", height = "60mm" }:text(("Record %d. Letters stacked from the Bungee family, "
    .. "a paragraph set by chromatype with its line breaker, and a row of color emoji below."):format(i))
  p:frame { y = "100mm", height = "20mm", style = "emoji" }:text("🌈🎨🦜🌻🍉")
end

-- "canvas": pages drawn on one streamed canvas, nothing kept in Lua
local function stream_canvas(path)
  local text = assert(ct.open_font("DejaVu Sans"))
  local head = assert(ct.open_font(F .. "bungee-latin.woff2"))
  local emoji = assert(ct.open_font(EMOJI))
  local c = ct.canvas { width = 298, height = 420 }
  c:stream(path, { title = "pages bench" })
  for i = 1, n do
    if i > 1 then c:new_page() end
    c:rect { x = 0, y = 0, w = 298, h = 420, color = "#f4efe3" }
    c:text { ("PAGE %d"):format(i), font = head, size = 30, x = 28, y = 70, color = "#1d3557" }
    c:text { ("Record %d, set on a canvas streamed page by page."):format(i), font = text, size = 9, x = 28,
             y = 120 }
    c:text { "🌈🎨🦜🌻🍉", font = emoji, size = 20, x = 28, y = 300 }
  end
  assert(c:finish())
end

ct.on_warning(false)
local t0 = os.clock()
-- The XML document of n pages, written line by line (bench/record.xml's head and pages).
local function write_xml(path)
  local src = assert(io.open(here .. "/record.xml"))
  local out = assert(io.open(path, "w"))
  for line in src:lines() do
    if line:find("<page>", 1, true) then break end
    line = line:gsub('"%.%./', '"' .. here .. "/../"):gsub("{id}", "pages")
    out:write(line, "\n")
  end
  src:close()
  for i = 1, n do
    out:write(('  <page>\n    <frame y="12mm" height="20mm" style="head"><p>PAGE %d</p></frame>\n'
      .. '    <frame y="36mm" height="60mm"><p>Record %d. Letters stacked from the Bungee family, a paragraph set '
      .. 'by chromatype with its line breaker, and a row of color emoji below.</p></frame>\n'
      .. '    <frame y="100mm" height="20mm" style="emoji"><p>🌈🎨🦜🌻🍉</p></frame>\n  </page>\n'):format(i, i))
  end
  out:write("</document>\n")
  out:close()
end

if mode == "canvas" then
  stream_canvas(dir .. "/pages-bench-canvas.pdf")
  if not os.getenv("KEEP") then os.remove(dir .. "/pages-bench-canvas.pdf") end
elseif mode == "document" then
  local doc = new_doc()
  doc:stream(dir .. "/pages-bench.pdf")
  for i = 1, n do add_page(doc, i) end
  assert(doc:finish())
  if not os.getenv("KEEP") then os.remove(dir .. "/pages-bench.pdf") end
elseif mode == "xml" or mode == "xml-filter" then
  local xml = dir .. "/pages-bench.xml"
  write_xml(xml)
  collectgarbage()
  if mode == "xml-filter" then
    local filter = require "chromatype.filter"
    filter.defaults = { assert(filter.load(here .. "/tint.lua")) }
  end
  local _, ok, err = require("chromatype.document").render_file(xml, dir .. "/pages-bench.pdf")
  assert(ok, err)
  if not os.getenv("KEEP") then os.remove(dir .. "/pages-bench.pdf"); os.remove(xml) end
elseif mode == "records" then
  for i = 1, n do
    local doc = new_doc()
    add_page(doc, i)
    assert(doc:write(dir .. "/pages-bench-record.pdf"))
    if i % 100 == 0 then collectgarbage() end
  end
  if not os.getenv("KEEP") then os.remove(dir .. "/pages-bench-record.pdf") end
else
  error("pages: MODE is document, xml, xml-filter, records or canvas", 0)
end
print(("pages %d peak_rss_kib %d seconds %.2f"):format(n, peak_kib(), os.clock() - t0))
