-- Shared by load-pages.lua, load-api.lua and load-signin.lua (dofile'd from beside them):
-- counts every answer's status per thread (response) and prints, when wrk is done, one line per
-- figure for scripts/bench/bench.sh (part 10, the load test) to read:
--   LOAD requests N | LOAD duration_us N | LOAD latency_us P50 P99 MAX
--   LOAD errors CONNECT READ WRITE TIMEOUT | LOAD status CODE COUNT (one per status seen)
-- Defining response() makes wrk hand each body to Lua; that costs wrk a copy per answer, the
-- price of counting every status rather than only wrk's "non-2xx or 3xx".

counts = {}

function response(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
end

local threads = {}
function setup(thread)
  threads[#threads + 1] = thread
  thread:set("id", #threads)
end

function done(summary, latency, requests)
  local all, codes = {}, {}
  for _, t in ipairs(threads) do
    for code, n in pairs(t:get("counts")) do
      if not all[code] then codes[#codes + 1] = code end
      all[code] = (all[code] or 0) + n
    end
  end
  table.sort(codes)
  local e = summary.errors
  io.write(string.format("LOAD requests %d\n", summary.requests))
  io.write(string.format("LOAD duration_us %d\n", summary.duration))
  io.write(string.format("LOAD latency_us %d %d %d\n", latency:percentile(50), latency:percentile(99), latency.max))
  io.write(string.format("LOAD errors %d %d %d %d\n", e.connect, e.read, e.write, e.timeout))
  for _, code in ipairs(codes) do
    io.write(string.format("LOAD status %d %d\n", code, all[code]))
  end
end

-- Pacing: each connection waits LOAD_DELAY_MS (environment) after an answer before its next
-- request; unset or 0, none.
local pause = tonumber(os.getenv("LOAD_DELAY_MS") or "")
if pause and pause > 0 then
  function delay() return pause end
end
