package analytics

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// Browsers' user agents: the most common ones (from https://github.com/microlinkhq/top-user-agents,
// MIT), in-app browsers and a Cubot phone. None may be taken for a bot.
var browserAgents = []string{
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/151.0.0.0 Safari/537.36",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.5.2 Safari/605.1.15",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:153.0) Gecko/20100101 Firefox/153.0",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/151.0.0.0 Safari/537.36 Edg/151.0.0.0",
	"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/151.0.0.0 Safari/537.36",
	"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/151.0.0.0 Mobile Safari/537.36",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.6 Mobile/15E148 Safari/604.1",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 26_6_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/151.0.7922.112 Mobile/15E148 Safari/604.1",
	"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/30.0 Chrome/143.0.0.0 Mobile Safari/537.36",
	"Mozilla/5.0 (iPad; CPU OS 18_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.6 Mobile/15E148 Safari/604.1",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/480.0.0.41.96;FBBV/700000000;FBDV/iPhone15,2;FBMD/iPhone;FBSN/iOS;FBSV/18.7;FBSS/3;FBCR/;FBID/phone;FBLC/en_US;FBOP/5]",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 380.0.0.29.106 (iPhone15,2; iOS 18_7; en_US; en; scale=3.00; 1179x2556; 700000000)",
	"Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/151.0.0.0 Mobile Safari/537.36 GSA/15.30.30.29.arm64",
	"Mozilla/5.0 (Linux; Android 13; CUBOT_X30 Build/TP1A.220624.014) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/151.0.0.0 Mobile Safari/537.36",
	"Mozilla/5.0 (Linux; Android 12; CUBOT NOTE 30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/151.0.0.0 Mobile Safari/537.36",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/151.0.0.0 Safari/537.36 OPR/117.0.0.0",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Safari/605.1.15 Ddg/18.6",
	"Mozilla/5.0 (Linux; Android 14; 23049PCD8G) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/151.0.0.0 Mobile Safari/537.36 XiaoMi/MiuiBrowser/18.6.60808",
	"Mozilla/5.0 (Linux; U; Android 13; zh-CN; V2254A) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/100.0.4896.58 UCBrowser/16.6.2.1293 Mobile Safari/537.36",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.50(0x1800323c) NetType/WIFI Language/zh_CN",
	"Mozilla/5.0 (SMART-TV; Linux; Tizen 8.0) AppleWebKit/537.36 (KHTML, like Gecko) 151.0.0.0/8.0 TV Safari/537.36",
}

// Bots' user agents: those the brief names, and examples of crawler-user-agents.json
// (https://github.com/monperrus/crawler-user-agents, MIT) for each group of bots.txt.
var botAgents = []string{
	"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
	"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/151.0.0.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
	"Googlebot-Image/1.0",
	"Mediapartners-Google",
	"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
	"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36",
	"Mozilla/5.0 (compatible; YandexImages/3.0; +http://yandex.com/bots)",
	"Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
	"DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)",
	"Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
	"Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)",
	"facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
	"Twitterbot/1.0",
	"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
	"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
	"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
	"CCBot/2.0 (https://commoncrawl.org/faq/)",
	"Mozilla/5.0 (compatible; archive.org_bot +http://archive.org/details/archive.org_bot)",
	"curl/8.5.0",
	"Wget/1.21.4",
	"python-requests/2.32.3",
	"Python-urllib/3.12",
	"Go-http-client/1.1",
	"Go-http-client/2.0",
	"okhttp/4.12.0",
	"axios/1.7.7",
	"node-fetch/1.0 (+https://github.com/bitinn/node-fetch)",
	"Java/17.0.2",
	"Apache-HttpClient/4.5.14 (Java/17.0.8)",
	"PostmanRuntime/7.42.0",
	"Scrapy/2.11.2 (+https://scrapy.org)",
	"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
	"Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/538.1 (KHTML, like Gecko) PhantomJS/2.1.1 Safari/538.1",
	"Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Playwright/1.40.0",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36; Selenium",
	"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36 Puppeteer",
	"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/96.0.4664.45 Safari/537.36 PTST/211202.211915",
	"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/117.0.0.0 Safari/537.36 GTmetrix",
	"Mozilla/5.0 (compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/78.0.3904.130 Safari/537.36 PingdomTMS/2",
	"Mozilla/5.0 (compatible; Nmap Scripting Engine; https://nmap.org/book/nse.html)",
	"Mozilla/5.0 zgrab/0.x",
	"Mozilla/5.0 (compatible; CensysInspect/1.1; +https://about.censys.io/)",
	"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/49.0.2623.75 Safari/537.36 Google Favicon",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/110.0.0.0 Safari/537.36 ZoteroTranslationServer/WMF (mailto:noc@wikimedia.org)",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/108.0.0.0 Safari/537.36 Edge/17.17134 www.uptimedoctor.com",
}

// browserHeader is what a browser's sendBeacon sends besides its user agent.
func browserHeader(ua string) http.Header {
	h := http.Header{}
	h.Set("User-Agent", ua)
	h.Set("Accept-Language", "en-US,en;q=0.9")
	h.Set("Content-Type", "text/plain;charset=UTF-8")
	return h
}

func TestBotsByUserAgent(t *testing.T) {
	t.Parallel()
	for _, ua := range browserAgents {
		if got := botReason(browserHeader(ua)); got != notBot {
			t.Errorf("a browser taken for a bot (%s): %s", got, ua)
		}
	}
	for _, ua := range botAgents {
		if got := botReason(browserHeader(ua)); got == notBot {
			t.Errorf("a bot taken for a browser: %s", ua)
		}
	}
}

func TestBotsByHeader(t *testing.T) {
	t.Parallel()
	chrome := browserAgents[0]
	tests := []struct {
		name   string
		header map[string]string // set on top of a browser's
		del    []string
		want   string
	}{
		{name: "a browser", want: notBot},
		{name: "no user agent", del: []string{"User-Agent"}, want: botNoAgent},
		{name: "no Accept-Language", del: []string{"Accept-Language"}, want: botNoLanguage},
		{name: "Sec-Purpose prefetch", header: map[string]string{"Sec-Purpose": "prefetch"}, want: botPrefetch},
		{name: "Sec-Purpose prerender", header: map[string]string{"Sec-Purpose": "prefetch;prerender"}, want: botPrefetch},
		{name: "Purpose prefetch", header: map[string]string{"Purpose": "prefetch"}, want: botPrefetch},
		{name: "X-Moz prefetch", header: map[string]string{"X-Moz": "prefetch"}, want: botPrefetch},
		{name: "Sec-Purpose other", header: map[string]string{"Sec-Purpose": "something-else"}, want: notBot},
		{name: "not a browser's user agent", header: map[string]string{"User-Agent": "MyApp/1.0 (iOS)"}, want: botNotBrowser},
		{name: "a listed user agent", header: map[string]string{"User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"}, want: botListed},
		{name: "Opera Presto", header: map[string]string{"User-Agent": "Opera/9.80 (Windows NT 6.1) Presto/2.12.388 Version/12.18"}, want: notBot},
		{name: "GPC is no bot", header: map[string]string{"Sec-GPC": "1"}, want: notBot},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := browserHeader(chrome)
			for k, v := range tt.header {
				h.Set(k, v)
			}
			for _, k := range tt.del {
				h.Del(k)
			}
			if got := botReason(h); got != tt.want {
				t.Errorf("botReason = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestGlobalPrivacyControl(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{"1": true, " 1 ": true, "": false, "0": false, "yes": false} {
		h := browserHeader(browserAgents[0])
		if v != "" {
			h.Set("Sec-GPC", v)
		}
		if got := globalPrivacyControl(h); got != want {
			t.Errorf("Sec-GPC %q: %v, want %v", v, got, want)
		}
	}
}

// Every line of bots.txt is a pattern of its own, in lower case (it is matched against the
// lower-cased user agent), starting with a literal word; and the list is not empty.
func TestBotPatterns(t *testing.T) {
	t.Parallel()
	n := 0
	for line := range strings.Lines(botsText) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		n++
		re, err := regexp.Compile(line)
		if err != nil {
			t.Errorf("%q: %v", line, err)
			continue
		}
		if word, _ := re.LiteralPrefix(); word == "" {
			t.Errorf("%q does not start with a literal word", line)
		}
		if strings.ToLower(line) != line {
			t.Errorf("%q is not in lower case: it would never match", line)
		}
	}
	if n < 50 || len(botPatterns.words)+len(botPatterns.patterns) != n {
		t.Errorf("bots.txt has %d patterns, the matcher %d words and %d patterns", n, len(botPatterns.words), len(botPatterns.patterns))
	}
}

// The bot check runs on every page view: it must stay cheap.
func BenchmarkBotReason(b *testing.B) {
	h := browserHeader(browserAgents[10])
	for b.Loop() {
		botReason(h)
	}
}
