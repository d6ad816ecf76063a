-- test_image.lua: canvas:image, picture files on pages: PNG, JPEG (with EXIF orientation),
-- BMP, TIFF, GIF and SVG; the box and its fit modes; PNG, PDF and SVG output (rasters stay
-- images, read once and shared; SVGs stay vector); hostile and broken files.  Test pictures
-- are made here: PNGs by the canvas itself, the other rasters by build/tests/ctimg (through
-- gdk-pixbuf's savers), SVGs and a GIF written out as text and bytes.
local ct = require "chromatype"

local BUILD = os.getenv("CT_BUILD") or "build"
if not BUILD:match("^/") then BUILD = ROOT .. "/" .. BUILD end

local function read(path)
  local h = assert(io.open(path, "rb"))
  local s = h:read("a")
  h:close()
  return s
end

local function write(path, bytes)
  local h = assert(io.open(path, "wb"))
  h:write(bytes)
  h:close()
  return path
end

-- Runs a command and returns its output; raises when it fails.
local function run(cmd)
  local p = assert(io.popen(cmd .. " 2>&1"))
  local out = p:read("a")
  local ok = p:close()
  if not ok then error(cmd .. ": " .. out, 2) end
  return out
end

local RED, GREEN, BLUE, WHITE = { 255, 0, 0, 255 }, { 0, 255, 0, 255 }, { 0, 0, 255, 255 }, { 255, 255, 255, 255 }
local CLEAR = { 0, 0, 0, 0 }

-- Raises unless two colors are within `tol` per channel.
local function near(got, want, tol, what)
  tol = tol or 2
  for i = 1, 4 do
    if math.abs(got[i] - want[i]) > tol then
      error(("%s: got {%d,%d,%d,%d}, want {%d,%d,%d,%d}"):format(what or "color", got[1], got[2],
        got[3], got[4], want[1], want[2], want[3], want[4]), 2)
    end
  end
end

-- Writes page `page` (default: the only one) of c as a PNG and returns px(x, y) -> color.
local function pixels(c, opts, page)
  local path = tmpname(".png")
  assert(c:write(path, opts))
  if page then path = path:gsub("%.png$", "-" .. page .. ".png") end
  return function(x, y) return { assert(ct.read_png_pixel(path, x, y)) } end
end

-- Checks a list of {x, y, color} against px.
local function expect(px, points)
  for _, p in ipairs(points) do near(px(p[1], p[2]), p[3], p[4], ("pixel %d,%d"):format(p[1], p[2])) end
end

-- A PNG of n x n pixels (default 2): red, green / blue, transparent quadrants.
local function quad_png(n)
  local path = tmpname(".png")
  n = n or 2
  local c = ct.canvas { width = n, height = n }
  c:rect { x = 0, y = 0, w = n / 2, h = n / 2, color = "#ff0000" }
  c:rect { x = n / 2, y = 0, w = n / 2, h = n / 2, color = "#00ff00" }
  c:rect { x = 0, y = n / 2, w = n / 2, h = n / 2, color = "#0000ff" }
  assert(c:write(path))
  return path
end

-- A PNG of w x h pixels, all one color.
local function plain_png(w, h, color)
  local path = tmpname(".png")
  local c = ct.canvas { width = w, height = h }
  c:background(color)
  assert(c:write(path))
  return path
end

-- A raster made by ctimg: red, green / blue, white quadrants.
local function ctimg(format, w, h, ...)
  local path = tmpname("." .. format)
  local tool = BUILD .. "/tests/ctimg"
  if not io.open(tool, "rb") then error("test tool missing: make " .. tool) end
  run(("%q %s %q %d %d %s"):format(tool, format, path, w, h, table.concat({ ... }, " ")))
  return path
end

-- A white canvas.
local function white(w, h)
  local c = ct.canvas { width = w or 200, height = h or 200 }
  c:background("#ffffff")
  return c
end

-- A GIF of one red pixel, written byte by byte (gdk-pixbuf has no GIF saver).
local GIF = "GIF89a\1\0\1\0\128\0\0" .. "\255\0\0\0\0\0" ..   -- screen 1x1, two colors: red, black
  ",\0\0\0\0\1\0\1\0\0" .. "\2\2\68\1\0" .. ";"             -- image 1x1: clear, 0, end

-- CRC-32 (for hand-made PNG chunks).
local function crc32(s)
  local c = 0xFFFFFFFF
  for i = 1, #s do
    c = c ~ s:byte(i)
    for _ = 1, 8 do c = (c & 1) ~= 0 and (0xEDB88320 ~ (c >> 1)) or (c >> 1) end
  end
  return c ~ 0xFFFFFFFF
end

-- A PNG header claiming w x h pixels, with a few bytes of (wrong) data after it.
local function png_claiming(w, h)
  local ihdr = "IHDR" .. string.pack(">I4I4BBBBB", w, h, 8, 6, 0, 0, 0)
  return "\137PNG\r\n\26\n" .. string.pack(">I4", 13) .. ihdr .. string.pack(">I4", crc32(ihdr))
    .. string.pack(">I4", 2) .. "IDAT\0\0" .. string.pack(">I4", crc32("IDAT\0\0"))
end

local SVG_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '

-- Two squares: blue | green, 40 x 20 user units.
local function two_squares(attrs)
  return write(tmpname(".svg"), SVG_HEAD .. attrs .. '><rect width="20" height="20" fill="#0000ff"/>'
    .. '<rect x="20" width="20" height="20" fill="#00ff00"/></svg>')
end

-- The image objects of a PDF (not soft masks), one line of `pdfimages -list` each (which
-- lists every use: an object drawn twice has two lines with one object number), and the
-- number of uses.
local function pdf_images(pdf)
  local rows, seen, uses = {}, {}, 0
  for line in run("pdfimages -list " .. pdf):gmatch("[^\n]+") do
    local kind, rest = line:match("^%s*%d+%s+%d+%s+(%a+)(.*)$")
    local id = rest and rest:match("^%s+%d+%s+%d+%s+%a+%s+%d+%s+%d+%s+%a+%s+%a+%s+(%d+)")
    if kind == "image" then
      uses = uses + 1
      if not seen[id] then seen[id] = true; rows[#rows + 1] = line end
    end
  end
  return rows, uses
end

-- An SVG that reaches for a red PNG beside it (by absolute, relative and file: paths), the
-- network, a secret file (XInclude) and a script, around one blue square at 20..40.  Returns
-- its path and the PNG's.
local function hostile_svg()
  local red = plain_png(10, 10, "#ff0000")
  local dir, name = red:match("^(.*)/([^/]*)$")
  local svg = write(dir .. "/" .. name:gsub("%.png$", "-ext.svg"), SVG_HEAD .. 'width="60" height="60">'
    .. '<image href="' .. red .. '" width="60" height="60"/>'
    .. '<image xlink:href="' .. name .. '" width="60" height="60"/>'
    .. '<image href="file://' .. red .. '" width="60" height="60"/>'
    .. '<image href="http://127.0.0.1:9/x.png" width="60" height="60"/>'
    .. '<rect width="60" height="60" fill="url(' .. name .. '#p)"/>'
    .. '<style>@import url(http://127.0.0.1:9/x.css); .x { fill: url(' .. name .. ') }</style>'
    .. '<rect class="x" width="10" height="10"/>'
    .. '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="' .. font_path("secret.txt") .. '" parse="text"/>'
    .. '<script>alert(1)</script>'
    .. '<rect x="20" y="20" width="20" height="20" fill="#0000ff" onclick="alert(1)"/></svg>')
  return svg, red
end

return {
  -- ---- drawing -------------------------------------------------------------------------

  { "a PNG drawn into a box: each pixel a square of the box", function()
    local png = quad_png()
    local c = white()
    eq(c:image { png, x = 20, y = 20, w = 100, h = 100 }, c)
    expect(pixels(c), {
      { 30, 30, RED }, { 110, 30, GREEN }, { 30, 110, BLUE }, { 110, 110, WHITE },   -- quadrant corners
      { 10, 10, WHITE }, { 130, 70, WHITE }, { 70, 130, WHITE },                       -- outside the box
      { 20, 20, RED }, { 119, 20, GREEN },                                             -- crisp edges
    })
  end },

  { "natural size: a pixel a point, scaled with the dpi", function()
    local png = plain_png(30, 10, "#ff0000")
    local c = white()
    c:image { png, x = 10, y = 10 }
    local px = pixels(c, { dpi = 144 })
    expect(px, { { 21, 21, RED }, { 78, 38, RED }, { 81, 30, WHITE }, { 30, 41, WHITE } })
  end },

  { "only w or only h keeps the aspect ratio", function()
    local png = plain_png(40, 20, "#ff0000")
    local c = white()
    c:image { png, x = 0, y = 0, w = 100 }         -- 100 x 50
    c:image { png, x = 0, y = 100, h = 30 }        -- 60 x 30
    expect(pixels(c), { { 98, 48, RED }, { 50, 52, WHITE }, { 58, 128, RED }, { 62, 110, WHITE }, { 30, 132, WHITE } })
  end },

  { "fit: contain letterboxes, cover clips to the box, fill stretches", function()
    local png = quad_png(20)
    local c = white(300, 100)
    c:image { png, x = 0, y = 0, w = 100, h = 50 }                    -- 50 x 50 at x 25..75
    c:image { png, x = 100, y = 0, w = 100, h = 50, fit = "cover" }   -- 100 x 100 at y -25..75, cut at 50
    c:image { png, x = 200, y = 0, w = 100, h = 50, fit = "fill" }    -- 100 x 50
    c:image { png, x = 0, y = 60, w = 50, h = 30, fit = "contain" }   -- 30 x 30 at x 10..40
    expect(pixels(c), {
      { 20, 25, WHITE }, { 80, 25, WHITE }, { 27, 2, RED }, { 73, 2, GREEN }, { 27, 48, BLUE },
      { 102, 2, RED }, { 198, 2, GREEN }, { 102, 48, BLUE }, { 150, 55, WHITE }, { 150, 70, WHITE },
      { 202, 2, RED }, { 298, 2, GREEN }, { 202, 48, BLUE }, { 298, 48, WHITE },
      { 5, 75, WHITE }, { 45, 75, WHITE }, { 11, 61, RED },
    })
  end },

  { "JPEG, BMP, TIFF and GIF through gdk-pixbuf", function()
    for _, f in ipairs({ "jpeg", "bmp", "tiff" }) do
      local c = white()
      c:image { ctimg(f, 40, 20), x = 0, y = 0, w = 200 }   -- 200 x 100
      local tol = f == "jpeg" and 24 or 2
      expect(pixels(c), { { 20, 20, RED, tol }, { 180, 20, GREEN, tol }, { 20, 80, BLUE, tol },
        { 180, 80, WHITE, tol }, { 100, 150, WHITE } })
    end
    local c = white()
    c:image { write(tmpname(".gif"), GIF), x = 10, y = 10, w = 50 }
    expect(pixels(c), { { 12, 12, RED }, { 58, 58, RED }, { 62, 30, WHITE } })
  end },

  { "a JPEG's EXIF orientation is applied", function()
    local c = white()
    c:image { ctimg("jpeg", 40, 20, "--orientation", 6), x = 0, y = 0 }   -- turned clockwise: 20 x 40
    expect(pixels(c), { { 4, 4, BLUE, 24 }, { 16, 4, RED, 24 }, { 4, 36, WHITE, 24 }, { 16, 36, GREEN, 24 },
      { 24, 10, WHITE }, { 10, 44, WHITE } })
  end },

  { "an SVG picture: its own size (pt, in, viewBox) and any box", function()
    local c = white()
    c:image { two_squares('width="40" height="20"'), x = 0, y = 0 }                  -- 40 x 20 pt
    c:image { two_squares('width="1in" height="0.5in" viewBox="0 0 40 20"'), x = 0, y = 30 }   -- 72 x 36
    c:image { two_squares('viewBox="0 0 40 20"'), x = 0, y = 100, w = 200, h = 50, fit = "fill" }
    expect(pixels(c), {
      { 2, 2, BLUE }, { 38, 18, GREEN }, { 42, 10, WHITE }, { 20, 22, WHITE },
      { 34, 64, BLUE }, { 38, 64, GREEN }, { 70, 32, GREEN }, { 74, 50, WHITE },
      { 98, 148, BLUE }, { 102, 102, GREEN }, { 198, 148, GREEN },
    })
  end },

  { "pages: a picture on the second page of a PNG series", function()
    local png = plain_png(10, 10, "#0000ff")
    local c = white(50, 50)
    c:new_page { width = 60, height = 40 }
    c:image { png, x = 30, y = 0, w = 30 }
    local p1 = pixels(c, nil, 1)
    local p2 = pixels(c, nil, 2)
    expect(p1, { { 40, 10, WHITE } })
    expect(p2, { { 40, 10, BLUE }, { 10, 10, CLEAR } })
  end },

  -- ---- output --------------------------------------------------------------------------

  { "PDF: a PNG drawn four times on two pages is one image", function()
    local png = plain_png(16, 8, "#ff0000")
    local c = white()
    c:image { png, x = 0, y = 0 }
    c:image { png, x = 0, y = 50, w = 100, fit = "cover" }
    c:new_page()
    c:image { png, x = 0, y = 0, w = 10 }
    c:image { (png:gsub("^/", "/./")), x = 50, y = 50 }   -- the same file by another name
    local pdf = tmpname(".pdf")
    assert(c:write(pdf))
    local rows, uses = pdf_images(pdf)
    eq(#rows, 1, table.concat(rows, "\n"))
    eq(uses, 4)
    assert(rows[1]:match("%s16%s+8%s+rgb"), rows[1])
  end },

  { "PDF: a JPEG is embedded as it is, once", function()
    local jpg = ctimg("jpeg", 40, 20)
    local c = white()
    c:image { jpg, x = 0, y = 0 }
    c:image { jpg, x = 0, y = 100, w = 200 }
    local pdf = tmpname(".pdf")
    assert(c:write(pdf))
    local rows, uses = pdf_images(pdf)
    eq(#rows, 1, table.concat(rows, "\n"))
    eq(uses, 2)
    assert(rows[1]:match("%sjpeg%s"), rows[1])
    assert(read(pdf):find(read(jpg), 1, true), "the JPEG's bytes are in the PDF")
    -- turned by EXIF, it is re-encoded instead
    local turned = white()
    turned:image { ctimg("jpeg", 40, 20, "--orientation", 6), x = 0, y = 0 }
    assert(turned:write(pdf))
    rows = pdf_images(pdf)
    eq(#rows, 1)
    assert(rows[1]:match("%s20%s+40%s") and not rows[1]:match("%sjpeg%s"), rows[1])
  end },

  { "PDF and SVG output: an SVG picture stays vector", function()
    local svg = two_squares('width="40" height="20"')
    local c = white()
    c:image { svg, x = 0, y = 0, w = 100 }
    c:image { svg, x = 0, y = 100, w = 100 }
    local pdf, out = tmpname(".pdf"), tmpname(".svg")
    assert(c:write(pdf))
    eq(#pdf_images(pdf), 0)
    run("pdftoppm -r 72 -png -singlefile " .. pdf .. " " .. pdf:gsub("%.pdf$", "-r"))
    local r = pdf:gsub("%.pdf$", "-r.png")
    near({ assert(ct.read_png_pixel(r, 10, 10)) }, BLUE, 2, "pdftoppm")
    near({ assert(ct.read_png_pixel(r, 90, 140)) }, GREEN, 2, "pdftoppm")
    os.remove(r)
    assert(c:write(out))
    local text = read(out)
    assert(not text:find("<image"), "no raster in the SVG")
    assert(text:find("<path") or text:find("<rect"), "vector shapes")
  end },

  { "SVG output: a raster is one <image>, used twice, its PNG embedded", function()
    local png = quad_png()
    local c = white()
    c:image { png, x = 0, y = 0, w = 50 }
    c:image { png, x = 100, y = 100, w = 50 }
    local out = tmpname(".svg")
    assert(c:write(out))
    local text = read(out)
    local n = select(2, text:gsub("<image ", ""))
    eq(n, 1)
    eq(select(2, text:gsub('xlink:href="#image1"', "")), 2)
    assert(text:find("data:image/png;base64,", 1, true))
  end },

  { "each file is read once per canvas", function()
    local path = tmpname(".png")
    write(path, read(plain_png(10, 10, "#ff0000")))
    local c = white()
    c:image { path, x = 0, y = 0 }
    write(path, read(plain_png(10, 10, "#00ff00")))   -- changed on disk: this canvas keeps the first
    c:image { path, x = 20, y = 0 }
    local c2 = white()
    c2:image { path, x = 0, y = 0 }
    expect(pixels(c), { { 5, 5, RED }, { 25, 5, RED } })
    expect(pixels(c2), { { 5, 5, GREEN } })
  end },

  -- ---- errors --------------------------------------------------------------------------

  { "a missing or unreadable file raises naming it", function()
    local c = white()
    local missing = tmpname(".png")
    eq(checkerr("cannot open", c.image, c, { missing }), missing .. ": cannot open: No such file or directory")
    eq(checkerr("cannot read", c.image, c, { "/tmp" }), "/tmp: cannot read: Is a directory")
    c:rect { x = 0, y = 0, w = 10, h = 10, color = "#ff0000" }   -- the canvas still works
    expect(pixels(c), { { 5, 5, RED }, { 50, 50, WHITE } })
  end },

  { "broken and foreign files raise one line naming the file", function()
    local c = white()
    local png = read(plain_png(300, 300, "#ff0000"))
    local jpg = read(ctimg("jpeg", 40, 20))
    local cases = {
      { png:sub(1, #png // 2), ".png", "corrupt or truncated PNG" },
      { png:sub(1, 20), ".png", "corrupt PNG %(no image header%)" },
      { jpg:sub(1, #jpg // 2), ".jpg", "corrupt or truncated JPEG %(" },
      { GIF:sub(1, 20), ".gif", "corrupt or truncated GIF %(" },
      { "", ".png", "empty file" },
      { "hello, world\n", ".png", "not an image %(PNG, JPEG, GIF, BMP, TIFF, WebP or SVG expected%)" },
      { read(font_path("ct-colr0.ttf")), ".png", "not an image" },
      { "<html><body/></html>", ".svg", "SVG: root element is not <svg>" },
      { SVG_HEAD .. 'width="9" height="9"><rect></svg>', ".svg", "SVG: not well%-formed XML %(line 1: " },
      { SVG_HEAD .. '><rect width="9" height="9"/></svg>', ".svg", "SVG has no size" },
    }
    for _, k in ipairs(cases) do
      local path = write(tmpname(k[2]), k[1])
      local msg = checkerr(k[3], c.image, c, { path, w = 10 })
      assert(msg:sub(1, #path + 2) == path .. ": " and not msg:find("\n"), msg)
    end
  end },

  { "absurd sizes hit the limits before any large allocation", function()
    local c = white()
    local huge = write(tmpname(".png"), png_claiming(30000, 30000))
    eq(checkerr("exceeds the limit", c.image, c, { huge }),
       huge .. ": image of 30000x30000 pixels exceeds the limit (32767 per side, 134217728 in all)")
    checkerr("image of 100000x1 pixels exceeds the limit", c.image, c, { write(tmpname(".png"), png_claiming(100000, 1)) })
    checkerr("corrupt PNG %(size 0x5%)", c.image, c, { write(tmpname(".png"), png_claiming(0, 5)) })
    checkerr("image of 40000x40000 pixels exceeds the limit", c.image, c, { ctimg("jpeg", 40, 20, "--claim", 40000, 40000) })
    checkerr("image of 30000x30000 pixels exceeds the limit", c.image, c, { ctimg("bmp", 40, 20, "--claim", 30000, 30000) })
    -- issue 33, item 16 (found by fuzz-image): a GIF whose screen is 2 x 1 but whose frame
    -- claims 26478 x 11776 pixels, which gdk-pixbuf allocated (1.2 GB) before any check
    local frame = "GIF89a\2\0\1\0\128\0\0" .. "\255\0\0\0\0\0" ..
                  ",\0\0\0\0\110\103\0\46\0" .. "\2\2\68\1\0" .. ";"
    checkerr("image of 26478x11776 pixels exceeds the limit", c.image, c, { write(tmpname(".gif"), frame) })
    -- the same after a stray byte, which the loader skips
    local stray = frame:sub(1, 19) .. "\0" .. frame:sub(20)
    checkerr("image of 26478x11776 pixels exceeds the limit", c.image, c, { write(tmpname(".gif"), stray) })
    -- an SVG drawn at its own absurd size
    local svg = write(tmpname(".svg"), SVG_HEAD .. 'width="1e9" height="10"/>')
    checkerr("drawn 1e%+09x10 pt, out of range", c.image, c, { svg })
    c:image { svg, w = 100 }   -- fine in a box
  end },

  { "hostile SVG: a DOCTYPE is refused, entities never expand", function()
    local c = white()
    local bomb = write(tmpname(".svg"), '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">'
      .. '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>'
      .. SVG_HEAD .. 'width="10" height="10"><text>&c;&c;&c;&c;</text></svg>')
    -- libxml2 stops at the loop of references before our check of the DOCTYPE
    checkerr("SVG: not well%-formed XML %(line 1: Detected an entity reference loop%)", c.image, c, { bomb })
    local small = write(tmpname(".svg"), '<!DOCTYPE svg [<!ENTITY a "x">]>' .. SVG_HEAD .. 'width="9" height="9">&a;</svg>')
    checkerr("SVG: document has a DOCTYPE %(refused: entities and DTDs are not allowed%)", c.image, c, { small })
    local ext = write(tmpname(".svg"), '<!DOCTYPE svg SYSTEM "http://example.com/x.dtd">' .. SVG_HEAD .. '/>')
    checkerr("SVG: document has a DOCTYPE", c.image, c, { ext })
  end },

  { "hostile SVG: no file, network or script is used; what went is a warning", function()
    local svg, red = hostile_svg()
    local warnings = {}
    ct.on_warning(function(m) warnings[#warnings + 1] = m end)
    local c = white()
    c:image { svg, x = 0, y = 0 }
    ct.on_warning(nil)
    eq(#warnings, 1)
    assert(warnings[1]:find(svg .. ": SVG image: removed <image> (external)", 1, true), warnings[1])
    local px = pixels(c)
    expect(px, { { 5, 5, WHITE }, { 55, 55, WHITE }, { 30, 30, BLUE } })   -- nothing red was loaded
    os.remove(svg)
  end },

  { "hostile SVG: strace sees no other file opened and no socket", function()
    local which = io.popen("command -v strace")
    local found = which:read("l")
    which:close()
    if not found then
      print("test_image.lua: skip the strace check: strace not installed")
      return
    end
    local svg, red = hostile_svg()
    local script = write(tmpname(".lua"), ('local ct = require "chromatype"\n'
      .. 'local c = ct.canvas { width = 60, height = 60 }\n'
      .. 'ct.on_warning(false)\nc:image { %q }\nassert(c:write(%q))\n'):format(svg, tmpname(".png")))
    local trace = tmpname(".trace")
    -- (LeakSanitizer cannot run under ptrace: off for an ASan build)
    run(("ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=open,openat,connect,socket -o %q %q %q")
      :format(trace, BUILD .. "/chromatype", script))
    local log = read(trace)
    assert(log:find(svg, 1, true), "the trace shows the SVG opened")
    assert(not log:find(red, 1, true), "the PNG beside it was opened")
    assert(not log:find("secret.txt", 1, true), "secret.txt was opened")
    for line in log:gmatch("[^\n]+") do
      if line:match("^%d+ +socket%(") or line:match("^%d+ +connect%(") then
        assert(line:find("AF_UNIX", 1, true), "a network socket: " .. line)
      end
    end
    os.remove(svg)
  end },

  { "a data: image inside an SVG is drawn", function()
    local b64 = (function(s)   -- base64 of the PNG
      local abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
      return (s:gsub("..?.?", function(t)
        local a, b, c3 = t:byte(1, 3)
        local n = a << 16 | (b or 0) << 8 | (c3 or 0)
        local out = ""
        for k = 3, 0, -1 do out = out .. (k < 3 - #t and "=" or abc:sub((n >> (6 * k) & 63) + 1, (n >> (6 * k) & 63) + 1)) end
        return out
      end))
    end)(read(plain_png(4, 4, "#00ff00")))
    local svg = write(tmpname(".svg"), SVG_HEAD .. 'width="40" height="40"><image width="40" height="40" '
      .. 'href="data:image/png;base64,' .. b64 .. '"/></svg>')
    local c = white()
    c:image { svg, x = 0, y = 0 }
    expect(pixels(c), { { 20, 20, GREEN }, { 50, 50, WHITE } })
  end },

  { "bad arguments raise before anything is read", function()
    local c = white()
    local png = quad_png()
    checkerr("item %[1%] %(the file name%): expected string, got nil", c.image, c, { x = 1 })
    checkerr("bad argument #2 to '%?' %(table expected, got string%)", c.image, c, png)
    checkerr("field 'w': 0 pt out of range", c.image, c, { png, w = 0 })
    checkerr("field 'h': %-5 pt out of range", c.image, c, { png, h = -5 })
    checkerr("field 'w': 1000000 pt out of range %(0 < side <= 100000%)", c.image, c, { png, w = 1e6 })
    checkerr("field 'x': expected a finite number", c.image, c, { png, x = 0 / 0 })
    checkerr("field 'fit': invalid option 'stretch' %(expected 'contain', 'cover' or 'fill'%)", c.image, c, { png, fit = "stretch" })
    checkerr("unknown field 'width'", c.image, c, { png, width = 10 })
    c:close()
    checkerr("attempt to use a closed canvas", c.image, c, { png })
  end },
}
