-- wrk -s scripts/bench/10-load/load-signin.lua: the load test's wrong sign-ins (scripts/bench/bench.sh, part 10):
-- POST /api/v1/auth/signin with the real account's address, LOAD_EMAIL, and a wrong password,
-- with the XSRF cookie and header (LOAD_XSRF), as a password guesser with a browser's cookie
-- would. Every answer must be 401 (wrong-credentials) or, once the sign-in limits stop it, 429
-- (rate-limited). LOAD_DELAY_MS paces it (see scripts/bench/10-load/load-status.lua), which also counts and
-- prints statuses, latency and errors.
local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(dir .. "load-status.lua")

local email = os.getenv("LOAD_EMAIL")
assert(email, "LOAD_EMAIL is not set")
local xsrf = os.getenv("LOAD_XSRF")
assert(xsrf, "LOAD_XSRF is not set")

local headers = {
  ["Content-Type"] = "application/json",
  ["Accept"] = "application/json",
  ["Cookie"] = "XSRF-TOKEN=" .. xsrf,
  ["X-XSRF-TOKEN"] = xsrf,
}
local n = 0
function request()
  n = n + 1
  local body = string.format('{"email":"%s","password":"not the password %d"}', email, n)
  return wrk.format("POST", "/api/v1/auth/signin", headers, body)
end
