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

	"github.com/arena-playground/arena/box"
)

// A tcp:cmd: seat is taken only by the program arena started. In a box
// of its own (its own network namespace) no other process of the machine
// can reach the seat at all: a rival that dials the seat's address on the
// machine's loopback reaches nothing of the program's. On the portable
// path, where the seat is a port of the machine's loopback (every process
// on the node can list the listening sockets), a rival's program that
// connects first is turned away unserved, its attempt is logged with its
// pid. Either way the program plays its match whole. Both kinds of seat:
// Evasion's line protocol (the 2020 server's) and the shortest path's
// sessions (the 2017 server's).
func TestSeatIsTheStartedProgramsAlone(t *testing.T) {
	py := python(t, false)
	hold, _ := filepath.Abs("testdata/hold.sh")
	cases := []struct {
		name, client string
		args         []string
		hello        string
	}{
		{"evasion", "testdata/students/evasion_client.py {port} buffered", []string{"-game", "evasion", "-config", evasionCap(t), "-seed", "3"}, "intruder\n"},
		{"pathgame", "testdata/students/asp_client.py {role} {port} buffered", []string{"-game", "pathgame", "-preset", "advshort", "-seed", "3"}, `{"name": "intruder", "type": 0}`},
	}
	for _, portable := range []bool{false, true} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s portable=%v", c.name, portable), func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				replay := filepath.Join(dir, "replay.json")
				spec := fmt.Sprintf("tcp:cmd:%s {port} %s %s", hold, py, c.client)
				// No disk cap: the box's directory is then the folder on
				// the machine (not a tmpfs of the box's own), where
				// hold.sh and the test speak to each other.
				host := exec.Command(os.Args[0], append(append([]string{"play"}, c.args...), "-p1", spec, "-p2", "greedy", "-replay", replay, "-caps", "disk=0,files=0")...)
				host.Env = append(os.Environ(), "ARENA_AS_MAIN=1", "TMPDIR="+dir, fmt.Sprintf("%s=%v", box.PortableEnv, map[bool]int{false: 0, true: 1}[portable]))
				var stdout, stderr bytes.Buffer
				host.Stdout, host.Stderr = &stdout, &stderr
				if err := host.Start(); err != nil {
					t.Fatal(err)
				}
				ended := make(chan error, 1)
				go func() { ended <- host.Wait() }()
				t.Cleanup(func() { host.Process.Kill() })

				// The program's box is in arena's temporary directory,
				// named for arena: hold.sh says its port there.
				boxDir := filepath.Join(dir, fmt.Sprintf("arena-box-%d-*", host.Process.Pid), "box")
				if portable && os.Getuid() == 0 {
					// A program of a uid of its own cannot pass through a
					// test's temporary folder: its box is made in /tmp.
					boxDir = filepath.Join("/tmp", fmt.Sprintf("arena-box-%d-*", host.Process.Pid), "box")
				}
				port := waitForFile(t, boxDir, "port", ended)
				rival, err := net.Dial("tcp", "127.0.0.1:"+strings.TrimSpace(port))
				if err == nil {
					rival.Write([]byte(c.hello))
					got, _ := io.ReadAll(rival) // ends when arena closes it (or resets it: the hello is unread)
					rival.Close()
					if len(got) > 0 {
						t.Errorf("the rival was served: %q", got)
					}
				} else if portable {
					t.Fatalf("on the machine's loopback the seat refused the connection: %v", err)
				}
				// Each game's program (the shortest path plays two) holds
				// until told to go.
				for done := false; !done; {
					boxes, _ := filepath.Glob(boxDir)
					for _, b := range boxes {
						os.WriteFile(filepath.Join(b, "go"), nil, 0o644)
					}
					select {
					case err = <-ended:
						done = true // err: arena's end
					case <-time.After(20 * time.Millisecond):
					}
				}
				if err != nil {
					t.Fatalf("arena: %v\n%s\n%s", err, stdout.String(), stderr.String())
				}
				if f := readReplay(t, replay).faults(); len(f) > 0 {
					t.Errorf("the started program did not play the match whole: %s", strings.Join(f, "; "))
				}
				refused := strings.Contains(stderr.String(), "P1: refused a client from 127.0.0.1:") && strings.Contains(stderr.String(), fmt.Sprintf("(pid %d: ", os.Getpid()))
				switch {
				case portable && !refused:
					t.Errorf("the refusal is not logged with the rival's pid %d:\n%s", os.Getpid(), stderr.String())
				case !portable && strings.Contains(stderr.String(), "refused a client"):
					t.Errorf("a rival reached the seat of a program in a box of its own:\n%s", stderr.String())
				}
			})
		}
	}
}

// waitForFile waits until a file name exists in a folder that matches
// dir (a pattern) and returns what it holds; it fails the test if the
// command ends first (its Wait's result comes on ended, and is put back
// for the caller).
func waitForFile(t *testing.T, dir, name string, ended chan error) string {
	t.Helper()
	file := filepath.Join(dir, name)
	for {
		if m, _ := filepath.Glob(file); len(m) > 0 {
			if data, err := os.ReadFile(m[0]); err == nil {
				return string(data)
			}
		}
		select {
		case err := <-ended:
			ended <- err
			t.Fatalf("arena ended (%v) before %s was written", err, file)
		case <-time.After(10 * time.Millisecond):
		}
	}
}
