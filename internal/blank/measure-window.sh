#!/bin/sh
# measure-window.sh DESKTOP BLANK FRAMES ROUNDS GAME...
#
# Measures arena's window (the DESKTOP binary with -measure) on each GAME
# (the arguments of its -game flag, one word list each) against the blank
# Ebitengine window (the BLANK binary, internal/blank) under Xvfb: ROUNDS
# times the blank window then the game's, each for FRAMES frames, and
# prints each round's ratio and their median, and the longest frame and
# the frames over 250 ms of all rounds, the game's and the blank's. The rounds alternate so
# that a machine getting busier or quieter moves both rates alike; under
# Xvfb and llvmpipe one run's rate varies by a tenth or more.
set -eu
desktop=$1 blank=$2 frames=$3 rounds=$4
shift 4
# name is a game's name, +thinking when the layer is on (+thinking-held
# when the match is held at a turn).
name() { case "$1" in *-thinking*-turn*) echo "${1%% *}+thinking-held" ;; *-thinking*) echo "${1%% *}+thinking" ;; *) echo "${1%% *}" ;; esac; }
rate() { sed -n 's/.*: \([0-9.]*\) frames a second.*/\1/p'; }
longest() { sed -n 's/.*longest frame \([0-9]*\) ms.*/\1/p'; }
slow() { sed -n 's/.*longest frame [0-9]* ms, \([0-9]*\) over.*/\1/p'; }
for game in "$@"; do
	ratios="" last="" long=0 slows=0 blong=0 bslows=0
	for r in $(seq 1 "$rounds"); do
		bl=$(xvfb-run -a -s "-screen 0 1280x1024x24" "$blank" -frames "$frames")
		b=$(echo "$bl" | rate)
		blong=$(( $(echo "$bl" | longest) > blong ? $(echo "$bl" | longest) : blong ))
		bslows=$(( bslows + $(echo "$bl" | slow) ))
		# shellcheck disable=SC2086 # a game is a list of words
		last=$(xvfb-run -a -s "-screen 0 1280x1024x24" "$desktop" -game $game -frames "$frames" -measure)
		f=$(echo "$last" | rate)
		long=$(( $(echo "$last" | longest) > long ? $(echo "$last" | longest) : long ))
		slows=$(( slows + $(echo "$last" | slow) ))
		ratios="$ratios $(awk "BEGIN { printf \"%.2f\", $f / $b }")"
	done
	median=$(echo "$ratios" | tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
	printf '%-19s %s of the blank window (median of%s); longest frame %s ms, %s over 250 ms (the blank window'"'"'s: %s ms, %s); last run: %s\n' \
		"$(name "$game")" "$median" "$ratios" "$long" "$slows" "$blong" "$bslows" "$last"
done
