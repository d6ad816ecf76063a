-- wood-variants.lua: a batch of three variants of the wood-type poster from three seeds.
-- Each seed moves every ink plate differently; running this again gives the same three files.
--   chromatype examples/wood-variants.lua [OUT-DIR]
-- writes OUT-DIR/wood-seed-{7,8,9}.pdf and .png (default out/).
local here = (arg and arg[0] and arg[0]:match("^(.*)/")) or "examples"
local dir = ... or "out"
local poster = assert(loadfile(here .. "/wood-poster.lua"))
for _, seed in ipairs { 7, 8, 9 } do
  poster(("%s/wood-seed-%d"):format(dir, seed), seed)
end
