# Handy Tools. `make run` serves the site; `make test` runs every test.
.PHONY: run build web image test test-go test-web test-html test-e2e test-deploy soak bench screenshots lint clean

GO ?= go
NPM ?= npm
run: build
	./handy

# The build's facts for `handy version`, the start-up log, handy_build_info (internal/buildinfo)
# and the container image's labels: the nearest tag, the commits since and the commit (-dirty with
# uncommitted changes), the full commit, the time. A plain `go build` falls back to what the
# toolchain records.
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo devel)
COMMIT ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
BUILT ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS = -X handy/internal/buildinfo.version=$(VERSION) -X handy/internal/buildinfo.commit=$(COMMIT) -X handy/internal/buildinfo.built=$(BUILT)

build: web
	$(GO) build -ldflags "$(LDFLAGS)" -o handy ./cmd/handy

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

# The container image from scratch (deploy/Containerfile: the static binary, CA certificates,
# a non-root user, /data), built with buildah, as an OCI archive: `podman load -i` or
# `docker load -i` it (docs/operations.md, "Container"). Needs root.
image: web
	scripts/tools/ensure-tools.sh image
	VERSION=$(VERSION) REVISION=$(COMMIT) GO=$(GO) GO_LDFLAGS="$(LDFLAGS)" scripts/image/build.sh build/handy-image.tar

node_modules: package.json package-lock.json
	$(NPM) ci --no-audit --no-fund
	@touch node_modules

test: build lint test-go test-web test-html test-e2e test-deploy

# The store's tests run on SQLite and on one throwaway PostgreSQL shared by every test binary
# (scripts/tools/with-postgres.sh starts it from Debian's binaries and stops it afterwards).
test-go:
	scripts/tools/ensure-tools.sh
	$(GO) vet ./...
	scripts/tools/with-postgres.sh $(GO) test -race ./...

# What operators deploy with (deploy/, build tag deploy; root): the image, unpacked with skopeo
# and umoci and its entry point run chrooted as its user, and the systemd unit, checked by
# systemd-analyze verify and security.
test-deploy: image
	HANDY_IMAGE_VERSION=$(VERSION) $(GO) test -tags deploy -count=1 ./deploy/

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
	@out=$$(gofmt -l cmd internal deploy web/embed.go); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	npx tsc -p .
	npx eslint --max-warnings 0 .
	node --test web/eslint/ scripts/bench/15-main-thread/

clean:
	rm -rf handy build web/build node_modules
	find web/dist -mindepth 1 ! -name .gitkeep -delete
