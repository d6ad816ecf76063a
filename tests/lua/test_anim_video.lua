-- test_anim_video.lua: ct.animate to video through the ffmpeg program (video.c): MP4 and
-- WebM files by extension or format = "video", odd sizes, the matte; an animation closed
-- unfinished (ffmpeg running) and refusals leave no file, temporary ones included.
local ct = require "chromatype"
local core = require "chromatype.core"
local anim = require "chromatype.animate"

local function read(p)
  local f = io.open(p, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

-- The files of the directory of `path` named after it (".name.tmp-..." included).
local function left(path)
  local dir, base = path:match("^(.*)/([^/]*)$")
  local out = {}
  local p = io.popen("ls -A '" .. dir .. "'")
  for name in p:lines() do
    if name:sub(1, #base) == base or name:sub(1, #base + 1) == "." .. base then out[#out + 1] = name end
  end
  p:close()
  return out
end

local function draw(c, t, i, p)
  c:rect { x = 4 + 30 * p, y = 4, w = 12, h = 12, color = anim.mix("#ff0000", "#0000ff", p) }
end

local function have_ffmpeg()
  local p = io.popen("command -v ffmpeg")
  local found = p:read("a") ~= ""
  p:close()
  return found
end

if not have_ffmpeg() then
  io.stderr:write("test_anim_video.lua: ffmpeg missing (Debian ffmpeg): skipped\n")
  return {}
end

return {
  { "MP4 by extension, WebM by format = 'video', odd sizes", function()
    local mp4 = tmpname(".mp4")
    assert(ct.animate { width = 51, height = 21, fps = 10, frames = 5, output = mp4, draw = draw, workers = 1 })
    eq(read(mp4):sub(5, 8), "ftyp")
    local webm = tmpname(".webm")
    assert(ct.animate { width = 40, height = 20, fps = 12.5, frames = 4, output = webm, draw = draw,
      format = "video", matte = "#000000", quality = 90, workers = 2 })
    eq(read(webm):sub(1, 4), "\x1a\x45\xdf\xa3")   -- EBML (Matroska, WebM)
    eq(#left(mp4), 1)
    eq(#left(webm), 1)
  end },
  { "refusals: another extension, a bad matte; no file", function()
    local out = tmpname(".mkv")
    local ok, err = ct.animate { width = 10, height = 10, frames = 2, output = out, draw = draw, format = "video" }
    eq(ok, nil)
    assert(err:find("video is written as .mp4, .mov (H.264) or .webm (VP9)", 1, true), err)
    local mp4 = tmpname(".mp4")
    checkerr("matte: bad color", ct.animate, { width = 10, height = 10, frames = 2, output = mp4, draw = draw,
      matte = "#12" })
    checkerr("boom", ct.animate, { width = 10, height = 10, frames = 3, output = mp4,
      draw = function(_, _, i) if i == 1 then error("boom") end end })
    eq(#left(out), 0)
    eq(#left(mp4), 0)
  end },
  { "closed unfinished with ffmpeg running: nothing left", function()
    local out = tmpname(".mov")
    local a = assert(core.animation(out, { width = 20, height = 10, fps = 5 }))
    local c = ct.canvas { width = 20, height = 10 }
    draw(c, 0, 0, 0)
    assert(a:add(c))
    assert(a:add(c))
    a:close()
    eq(#left(out), 0)
    local b = assert(core.animation(out, { width = 20, height = 10, fps = 5 }))
    local ok, err = b:finish()
    eq(ok, nil)
    assert(err:find("at least one frame", 1, true), err)
    b:close()
    eq(#left(out), 0)
  end },
}
