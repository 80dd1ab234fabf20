# Handy Tools. `make run` serves the site; `make test` runs every test.
.PHONY: run build web test test-go test-web test-html test-e2e soak bench screenshots lint clean

GO ?= go
NPM ?= npm

run: build
	./handy

build: web
	$(GO) build -o handy ./cmd/handy

# Front end: packages, type check, messages check (every key in every locale, translated),
# client, dashboard (its own bundle), service worker and SSR bundles, prerender (+ JS budget check), and the
# compressed copies of every file the server sends as it is (it compresses the rest at start-up).
web: node_modules
	npx tsc -p .
	npx vitest run --config web/vite.config.ts web/src/i18n/messages.test.ts
	npx vite build -c web/vite.config.ts --logLevel warn
	npx vite build -c web/vite.config.ts --mode admin --logLevel warn
	npx vite build -c web/vite.config.ts --mode sw --logLevel warn
	npx vite build -c web/vite.config.ts --ssr src/app/entry-server.tsx --logLevel warn
	node web/scripts/prerender.mjs
	node web/scripts/precompress.mjs

node_modules: package.json package-lock.json
	$(NPM) ci --no-audit --no-fund
	@touch node_modules

test: build lint test-go test-web test-html test-e2e

# The store's tests run on SQLite and on one throwaway PostgreSQL shared by every test binary
# (scripts/tools/with-postgres.sh starts it from Debian's binaries and stops it afterwards).
test-go:
	scripts/tools/ensure-tools.sh
	$(GO) vet ./...
	scripts/tools/with-postgres.sh $(GO) test -race ./...

# The lossless JPEG tests make their JPEGs with libjpeg-turbo's cjpeg and compare with jpegtran.
# messages.test.ts is left out: `make web`, which `make test` runs first, has run it. The data
# layer's fault test (three seeds; `make soak` for more) builds handy and runs it on the
# front end `make build` left in web/dist.
test-web: node_modules
	scripts/tools/ensure-tools.sh
	npx vitest run --config web/vite.config.ts --exclude web/src/i18n/messages.test.ts

# The data layer against the real server under faults (web/test/sync/faults/): test-web runs a
# few seeds, this runs SEEDS (1,000 by default; SEEDS=17 replays one): about 45 minutes on 2 cores.
SEEDS ?= 1-1000
soak: web
	SEEDS=$(SEEDS) npx vitest run --config web/vite.config.ts web/test/sync/faults

# The Nu Html Checker (vnu-jar, Java) over every prerendered page and error page.
test-html: build
	scripts/tools/ensure-tools.sh
	java -jar node_modules/vnu-jar/build/dist/vnu.jar --errors-only --skip-non-html web/dist

test-e2e: build
	scripts/tools/ensure-tools.sh
	npx playwright test -c e2e/playwright.config.ts

# Every benchmark (scripts/bench/bench.sh says what each part measures); PARTS=11 or PARTS="4 11"
# runs only those parts.
bench: build
	scripts/tools/ensure-tools.sh bench
	PARTS="$(PARTS)" scripts/bench/bench.sh

# Every page type at phone and desktop width, in English and Japanese, light and dark:
# web/build/screenshots/*.png, for a reviewer to look at.
screenshots: build
	scripts/tools/ensure-tools.sh screenshots
	node scripts/screenshots/screenshots.mjs

# gofmt, go vet, the type check, then ESLint (eslint.config.js: typescript-eslint, the React hooks
# rules, the front end's import boundaries), the boundaries rule's own tests and make bench part
# 15's trace reading.
lint: node_modules
	@out=$$(gofmt -l cmd internal web/embed.go); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	npx tsc -p .
	npx eslint --max-warnings 0 .
	node --test web/eslint/ scripts/bench/15-main-thread/

clean:
	rm -rf handy web/build node_modules
	find web/dist -mindepth 1 ! -name .gitkeep -delete
