package players

import (
	"bufio"
	"bytes"
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/evasion"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// writeLog records each write arena makes on a connection, and when it
// began and ended: what arena controls, whatever the reader's scheduling.
type writeLog struct {
	mu     sync.Mutex
	writes []write
}

type write struct {
	data       string
	start, end time.Time
}

type recordingConn struct {
	net.Conn
	log *writeLog
}

func (c recordingConn) Write(b []byte) (int, error) {
	start := time.Now()
	n, err := c.Conn.Write(b)
	c.log.mu.Lock()
	c.log.writes = append(c.log.writes, write{string(b), start, time.Now()})
	c.log.mu.Unlock()
	return n, err
}

type recordingListener struct {
	net.Listener
	log *writeLog
}

func (l recordingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return recordingConn{c, l.log}, nil
}

// Evasion's host writes as the 2020 server did: the role line in a write
// of its own, then nothing for 1000/60 ms (16 ms, Java's integer
// division) before the game's first state; and 16 ms after each game's
// end before the next role line or the final "done". Clients that read
// each message with one recv() rely on it. The test records arena's own
// writes on the socket, so it asserts what arena does, not how soon a
// client on a busy machine reads it (which is the client's affair, as it
// was with the original server).
func TestEvasionHostWritesAsTheOriginal(t *testing.T) {
	g, _ := match.Lookup("evasion")
	proto := g.(Protocol)
	cfg, err := g.LoadConfig("cap.json", []byte(`{"max_walls": 10, "delay": 10, "tick_cap": 200}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := newTCPBot(proto, play.Spec{Name: Network, Addr: "127.0.0.1:0"}, play.Hosting{})
	if err != nil {
		t.Fatal(err)
	}
	host := b.(*tcpBot)
	log := &writeLog{}
	host.ln = recordingListener{host.ln, log}
	go playClient(t, g, host.Addr())
	opp, _, _, _ := play.NewBot(g, play.Spec{Name: "greedy"}, play.Hosting{})
	rec, err := play.Play(context.Background(), play.Setup{Game: g, Config: cfg, Seed: 3,
		Players: [2]play.Spec{{Name: Network, Addr: host.Addr()}, {Name: "greedy"}}, Bots: [2]match.Bot{host, opp}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Result.Forfeits) > 0 {
		t.Fatalf("the client forfeited: %+v", rec.Result.Forfeits)
	}
	pause := evasion.Game{}.Pause()
	roles := 0
	w := log.writes
	for i, x := range w {
		switch x.data {
		case "hunter\n", "prey\n":
			roles++
			if i+1 >= len(w) {
				t.Fatalf("nothing written after the role line %q", x.data)
			}
			if gap := w[i+1].start.Sub(x.end); gap < pause {
				t.Errorf("the first state came %v after the role line %q, not %v", gap, x.data, pause)
			}
		case "done\n":
			if i == 0 {
				t.Fatal("done is the first write")
			}
		default:
			if bytes.Count([]byte(x.data), []byte("\n")) != 1 {
				t.Errorf("write %d holds %d lines, not one: %q", i, bytes.Count([]byte(x.data), []byte("\n")), x.data)
			}
		}
	}
	if roles != 2 || w[len(w)-1].data != "done\n" {
		t.Fatalf("%d role lines, last write %q; want 2 and done", roles, w[len(w)-1].data)
	}
	// After the first game's last state, 16 ms before the second role
	// line; after the second's, 16 ms before done.
	for i, x := range w {
		if (x.data == "prey\n" || x.data == "hunter\n") && i > 2 || x.data == "done\n" {
			if gap := x.start.Sub(w[i-1].end); gap < pause {
				t.Errorf("%q came %v after the game's last write, not %v", x.data, gap, pause)
			}
		}
	}
}

// playClient plays an Evasion session as a buffered client: the game's
// random bot answers each state.
func playClient(t *testing.T, g match.Game, addr string) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Error(err)
		return
	}
	defer c.Close()
	proto := g.(Protocol)
	client := NewClient(proto, "tester")
	bot, _, _, _ := play.NewBot(g, play.Spec{Name: "random"}, play.Hosting{})
	sc := bufio.NewScanner(c)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		h, err := client.Hear(sc.Bytes())
		if err != nil {
			t.Error(err)
			return
		}
		if h.Say != nil {
			c.Write(h.Say)
		}
		if h.Done {
			return
		}
		if h.State != nil {
			a, err := bot.Act(match.NewTurn(h.State, h.Side, match.BotRand(3, h.Side, match.Options{}), match.Budget{}))
			if err != nil {
				t.Error(err)
				return
			}
			c.Write(proto.WriteReply(a, h.ID))
		}
	}
}
