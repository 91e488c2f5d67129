package interp

import (
	"fmt"
	"io"
	"regexp"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/gobot"
	"github.com/arena-playground/arena/gobot/serve"
)

// panicLines passes the bot's prints on, but takes out the lines in which
// the interpreter names each function a panic passes through ("8:6:
// panic: bot.Act(...)", one per frame, innermost first), keeping the
// first function's name and where its body starts in the bot's file (the
// interpreter places a frame there, not at the statement that panicked)
// for the reason ("bot.Act (its body from line 8)").
type panicLines struct {
	w     io.Writer
	first string
}

var panicLine = regexp.MustCompile(`^(\d+):\d+: panic: (.+)\(\.\.\.\)\n?$`)

func (p *panicLines) Write(b []byte) (int, error) {
	if m := panicLine.FindSubmatch(b); m != nil {
		if p.first == "" {
			// Said at once: a panic in a goroutine of the bot's ends this
			// process, and the parent learns where from this line.
			p.first = fmt.Sprintf("%s (its body from line %s)", m[2], m[1])
			fmt.Fprintf(p.w, "%s%s\n", gobot.PanicLine, p.first)
		}
		return len(b), nil
	}
	return p.w.Write(b)
}

// Serve interprets the bot of the requests read from r (see serve.Serve).
func Serve(r io.Reader, w io.Writer, said io.Writer) error {
	return serve.Serve(r, w, said, compileBot)
}

// compileBot is the interpreter's serve.Compiler: the interpreter names
// the function a panic passes through in the bot's prints (panicLines),
// which Where reads.
func compileBot(file, src string, out io.Writer) (serve.Bot, error) {
	p := &panicLines{w: out}
	act, err := Compile(file, src, p)
	if err != nil {
		return serve.Bot{}, err
	}
	return serve.Bot{
		Act: func(t *match.Turn) (match.Action, error) {
			p.first = ""
			return act(t)
		},
		Where: func() string { return p.first },
	}, nil
}
