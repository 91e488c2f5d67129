// Package waitline says what a command waits on and for how long, so that
// no wait is silent: a first build of a go: bot takes half a minute or
// more. On a terminal it rewrites one line each second; written to a file
// or a pipe (a log, CI), it adds a line every ten seconds. Done ends it
// with what happened and the time it took.
package waitline

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Line is a wait being told.
type Line struct {
	w     io.Writer
	what  string
	start time.Time
	tty   bool
	stop  chan struct{}
	done  sync.WaitGroup
}

// Start writes what is being waited on ("arena: compiling go:bot.go
// with go1.26.8") and keeps telling how long it has taken.
func Start(w io.Writer, what string) *Line {
	l := &Line{w: w, what: what, start: time.Now(), tty: terminal(w), stop: make(chan struct{})}
	if l.tty {
		fmt.Fprintf(w, "%s…", what)
	} else {
		fmt.Fprintf(w, "%s…\n", what)
	}
	every := 10 * time.Second
	if l.tty {
		every = time.Second
	}
	l.done.Add(1)
	go func() {
		defer l.done.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-l.stop:
				return
			case <-t.C:
				if l.tty {
					fmt.Fprintf(w, "\r%s… %s", what, l.took())
				} else {
					fmt.Fprintf(w, "%s… %s so far\n", what, l.took())
				}
			}
		}
	}()
	return l
}

// Done ends the wait with what came of it ("compiled"), and its time.
func (l *Line) Done(result string) {
	close(l.stop)
	l.done.Wait()
	if l.tty {
		fmt.Fprintf(l.w, "\r%s: %s in %s\n", l.what, result, l.took())
		return
	}
	fmt.Fprintf(l.w, "%s: %s in %s\n", l.what, result, l.took())
}

// took is the wait's time so far, to the second (a tenth below ten).
func (l *Line) took() string {
	d := time.Since(l.start)
	if d < 10*time.Second {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return fmt.Sprintf("%d s", int(d.Seconds()+0.5))
}

// terminal says whether w is a terminal, where a line can be rewritten.
func terminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
