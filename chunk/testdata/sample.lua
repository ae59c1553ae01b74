local json = require("json")

-- A module.
local M = {}

--- Adds numbers.
function M.add(a, b)
    return a + b
end

function M:method(x)
    return self.x + x
end

local function helper(x)
    return x * 2
end

function global_fn()
    return helper(1)
end

return M
