-- wrk -s scripts/bench/08-pageviews/pageviews.lua: POSTs valid page-view beacons to /api/v1/pageviews, as the
-- tracker's navigator.sendBeacon does (Content-Type text/plain;charset=UTF-8), over every page
-- of internal/site/site.json in every locale (the default locale's paths unprefixed, the others'
-- under /CODE), from a few browsers' user agents with a matching Accept-Language, and from a new
-- client address per request (X-Forwarded-For: run handy with -client-ip-header X-Forwarded-For),
-- so that every view is a new visitor. scripts/bench/bench.sh, part 8, runs it.
-- PAGEVIEWS_DELAY_MS=D (environment) paces it: each connection waits D ms after each answer
-- before its next beacon, about connections × 1000 / D beacons a second in all.

local pages = { "/", "/flip-image", "/area-calculator", "/speed-calculator", "/faq",
  "/privacy-policy", "/terms-conditions" }
local locales = { "en", "zh", "pt", "de", "fr", "es", "jp", "ko" }
local langs = { en = "en-US", zh = "zh-CN", pt = "pt-BR", de = "de-DE", fr = "fr-FR", es = "es-ES",
  jp = "ja-JP", ko = "ko-KR" }
local agents = {
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Safari/605.1.15",
  "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36",
}
local screens = { "desktop", "desktop", "desktop", "phone", "phone" }
local referrers = { "", "", "", "news.example", "search.example" }

-- Every (page, locale) pair with its body, built once.
local beacons = {}
for _, code in ipairs(locales) do
  for _, p in ipairs(pages) do
    local path = p
    if code ~= "en" then path = (p == "/") and ("/" .. code) or ("/" .. code .. p) end
    beacons[#beacons + 1] = { code = code, path = path }
  end
end

local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end

local n = 0
local headers = { ["Content-Type"] = "text/plain;charset=UTF-8" }

function request()
  n = n + 1
  local b = beacons[n % #beacons + 1]
  local a = n % #agents + 1
  local lang = langs[b.code]
  -- 10.T.x.y: T the thread, so no two threads share an address.
  headers["User-Agent"] = agents[a]
  headers["Accept-Language"] = lang .. "," .. lang:sub(1, 2) .. ";q=0.9"
  headers["X-Forwarded-For"] = string.format("10.%d.%d.%d", id % 256, math.floor(n / 256) % 256, n % 256)
  local body = string.format('{"p":"%s","l":"%s","bl":"%s","r":"%s","s":"%s"}',
    b.path, b.code, lang, referrers[n % #referrers + 1], screens[a])
  return wrk.format("POST", nil, headers, body)
end

local pause = tonumber(os.getenv("PAGEVIEWS_DELAY_MS") or "")
if pause and pause > 0 then
  function delay() return pause end
end
