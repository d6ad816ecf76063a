getmetatable("").__index = setmetatable({ format = function() return "/s.png" end }, { __index = string })
string.rep = nil; table.concat = nil
require("chromatype").canvas{width=4,height=4}:write(("%s"):format("x.png"))
