-- wrk -s scripts/bench/10-load/load-pages.lua: the load test's pages (scripts/bench/bench.sh, part 10). GETs, in
-- turn, every URL listed one per line in the file LOAD_URLS (environment): the site's 56
-- prerendered pages and their payloads (PATH/_payload.json, /_payload.json for /, as
-- web/src/lib/site.ts names them), each thread starting at its own place in the list, with
-- Accept-Encoding: br, gzip as browsers send it over HTTPS. Statuses, latency and errors are
-- counted and printed by scripts/bench/10-load/load-status.lua.
local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(dir .. "load-status.lua")

local urls = {}
local list = os.getenv("LOAD_URLS")
assert(list, "LOAD_URLS is not set")
local file = assert(io.open(list))
for line in file:lines() do
  if line ~= "" then urls[#urls + 1] = line end
end
file:close()
assert(#urls > 0, "LOAD_URLS lists no URL")

local headers = { ["Accept-Encoding"] = "br, gzip" }
local n
function request()
  -- id is set by setup() before the thread starts: spread the threads over the list.
  n = (n or (id or 0) * 37) + 1
  return wrk.format("GET", urls[n % #urls + 1], headers)
end
