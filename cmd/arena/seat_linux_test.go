package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A tcp:cmd: seat is taken only by the program arena started: a rival's
// program that learns the port (every process on the node can list the
// listening sockets) and connects first is turned away unserved, its
// attempt is logged with its pid, and the program plays its match whole.
// Both kinds of seat: Evasion's line protocol (the 2020 server's) and the
// shortest path's sessions (the 2017 server's).
func TestSeatIsTheStartedProgramsAlone(t *testing.T) {
	py := python(t, false)
	cases := []struct {
		name, client string
		args         []string
		hello        string
	}{
		{"evasion", "testdata/students/evasion_client.py {port} buffered", []string{"-game", "evasion", "-config", evasionCap(t), "-seed", "3"}, "intruder\n"},
		{"pathgame", "testdata/students/asp_client.py {role} {port} buffered", []string{"-game", "pathgame", "-preset", "advshort", "-seed", "3"}, `{"name": "intruder", "type": 0}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			replay := filepath.Join(dir, "replay.json")
			spec := fmt.Sprintf("tcp:cmd:testdata/hold.sh %s {port} %s %s", dir, py, c.client)
			host := exec.Command(os.Args[0], append(append([]string{"play"}, c.args...), "-p1", spec, "-p2", "greedy", "-replay", replay)...)
			host.Env = append(os.Environ(), "ARENA_AS_MAIN=1")
			var stdout, stderr bytes.Buffer
			host.Stdout, host.Stderr = &stdout, &stderr
			if err := host.Start(); err != nil {
				t.Fatal(err)
			}
			ended := make(chan error, 1)
			go func() { ended <- host.Wait() }()
			t.Cleanup(func() { host.Process.Kill() })

			port := waitForFile(t, filepath.Join(dir, "port"), ended)
			rival, err := net.Dial("tcp", "127.0.0.1:"+strings.TrimSpace(port))
			if err != nil {
				t.Fatal(err)
			}
			rival.Write([]byte(c.hello))
			got, _ := io.ReadAll(rival) // ends when arena closes it (or resets it: the hello is unread)
			rival.Close()
			if len(got) > 0 {
				t.Errorf("the rival was served: %q", got)
			}
			os.WriteFile(filepath.Join(dir, "go"), nil, 0o644)
			if err := <-ended; err != nil {
				t.Fatalf("arena: %v\n%s\n%s", err, stdout.String(), stderr.String())
			}
			if f := readReplay(t, replay).faults(); len(f) > 0 {
				t.Errorf("the started program did not play the match whole: %s", strings.Join(f, "; "))
			}
			if !strings.Contains(stderr.String(), "P1: refused a client from 127.0.0.1:") || !strings.Contains(stderr.String(), fmt.Sprintf("(pid %d: ", os.Getpid())) {
				t.Errorf("the refusal is not logged with the rival's pid %d:\n%s", os.Getpid(), stderr.String())
			}
		})
	}
}

// waitForFile waits until file exists and returns what it holds; it
// fails the test if the command ends first (its Wait's result comes on
// ended, and is put back for the caller).
func waitForFile(t *testing.T, file string, ended chan error) string {
	t.Helper()
	for {
		if data, err := os.ReadFile(file); err == nil {
			return string(data)
		}
		select {
		case err := <-ended:
			ended <- err
			t.Fatalf("arena ended (%v) before %s was written", err, file)
		case <-time.After(10 * time.Millisecond):
		}
	}
}
