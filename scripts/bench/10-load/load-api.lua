-- wrk -s scripts/bench/10-load/load-api.lua: the load test's authenticated API reads (scripts/bench/bench.sh,
-- part 10), what the site's client reads for a signed-in visitor (docs/api.md), in turn: the
-- account (GET /api/v1/auth/me) and the profile document (GET /api/v1/db/documents/users/UID),
-- as one account: LOAD_TOKEN (its bearer token), LOAD_UID (its id) and LOAD_XSRF (the XSRF
-- cookie a browser would carry) from the environment. Not the sync engine's listen: one user
-- may hold 32 at once (then 429), and wrk's connections are all the same user's. Statuses,
-- latency and errors are counted and printed by scripts/bench/10-load/load-status.lua.
local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(dir .. "load-status.lua")

local token = os.getenv("LOAD_TOKEN")
assert(token, "LOAD_TOKEN is not set")
local uid = os.getenv("LOAD_UID")
assert(uid, "LOAD_UID is not set")
local xsrf = os.getenv("LOAD_XSRF")
assert(xsrf, "LOAD_XSRF is not set")

local paths = {
  "/api/v1/auth/me",
  "/api/v1/db/documents/users/" .. uid,
}
local headers = {
  ["Authorization"] = "Bearer " .. token,
  ["Accept"] = "application/json",
  ["Accept-Encoding"] = "br, gzip",
  ["Cookie"] = "XSRF-TOKEN=" .. xsrf,
}
local n = 0
function request()
  n = n + 1
  return wrk.format("GET", paths[n % #paths + 1], headers)
end
