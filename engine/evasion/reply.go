package evasion

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseReply reads a reply line as the original server does: split on
// runs of whitespace, every token a Java int. Where the original crashes
// (an empty line, leading whitespace, a token that is not an int, fewer
// than two tokens) it returns an error, which costs the player the game
// (playground decision 4).
func ParseReply(line string) (Action, error) {
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		return Action{}, fmt.Errorf("empty reply")
	}
	if isSpace(line[0]) {
		return Action{}, fmt.Errorf("reply %q starts with whitespace", clip(line))
	}
	fields := strings.Fields(line)
	if len(fields) < 2 {
		return Action{}, fmt.Errorf("reply %q: want at least the game and the tick", clip(line))
	}
	if len(fields) > maxReply {
		return Action{}, fmt.Errorf("reply has %d numbers; at most %d make sense", len(fields), maxReply)
	}
	r := make([]int, len(fields))
	for i, f := range fields {
		v, err := strconv.ParseInt(f, 10, 32)
		if err != nil {
			return Action{}, fmt.Errorf("reply %q: token %d %q is not a whole number (32-bit)", clip(line), i+1, clip(f))
		}
		r[i] = int(v)
	}
	return Action{Reply: r}, nil
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' || c == '\n'
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}
