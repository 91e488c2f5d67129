//go:build !js

package cleanup

import (
	"os"
	"os/signal"
	"syscall"
)

// OnSignals makes an interrupt, a termination or a hang-up run every
// undoing and then end the process with the shell's status for the
// signal (128 + its number: 130 for Ctrl-C, 143 for SIGTERM).
func OnSignals() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		sig := <-c
		Run()
		code := 1
		if s, ok := sig.(syscall.Signal); ok {
			code = 128 + int(s)
		}
		os.Exit(code)
	}()
}
