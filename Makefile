# arena's build. `make test` is the whole suite: it installs what the tests
# need on Debian or Ubuntu (Ebitengine's X11/GL headers, Xvfb and Chromium), then
# vets and tests every package under a virtual display.

GO ?= go

# Ebitengine's build and test dependencies on Linux, as in its own CI.
APT_PACKAGES := xvfb xauth chromium libgl1-mesa-dev libx11-dev libxrandr-dev libxcursor-dev \
	libxinerama-dev libxi-dev libxxf86vm-dev

.PHONY: test deps vet bench demo clean

test: deps vet
	xvfb-run -a -s "-screen 0 1280x1024x24" $(GO) test -count=1 ./...
	$(GO) test -count=1 -race ./engine/match/

vet:
	$(GO) vet ./...
	@unformatted=$$(gofmt -l .); if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi

# deps installs the missing Debian packages (as root, or through sudo).
deps:
	@missing=""; \
	for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		command -v apt-get >/dev/null || { echo "make deps: install these packages:$$missing"; exit 1; }; \
		sudo=""; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
		echo "installing:$$missing"; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	fi

bench:
	$(GO) test -run '^$$' -bench . -benchtime 2s ./engine/... ./render/...

# demo remakes the README's GIF, frame and screenshots of the page.
demo: deps
	$(GO) run ./cmd/arena record -game life -p1 strong -p2 greedy -seed 7 -o docs/life-strong-vs-greedy.gif
	$(GO) run ./cmd/arena record -game life -p1 strong -p2 greedy -seed 7 -at 120.6 -o docs/life-turn-120.png
	$(GO) run ./cmd/arena record -game colosseum -p1 strong:nodes=30000 -p2 greedy -seed 7 -preset 9 -speed 2 -o docs/colosseum-strong-vs-greedy.gif
	$(GO) run ./cmd/arena record -game mapcolor -preset australia -p1 strong -p2 strong -size 640 -o docs/mapcolor-australia.gif
	ARENA_SHOTS=$(CURDIR)/docs xvfb-run -a $(GO) test -count=1 -run 'TestPage$$|TestPageHumanPlay|TestPageMapcolor' ./cmd/wasm

clean:
	$(GO) clean -testcache
