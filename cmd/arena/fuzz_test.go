package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/players"
)

// protocolGames are the games whose bots `arena bot` serves.
func protocolGames() []match.Game {
	var out []match.Game
	for _, g := range match.Games() {
		if _, ok := g.(players.Protocol); ok {
			out = append(out, g)
		}
	}
	return out
}

// FuzzBotSide feeds arbitrary bytes to the bot side of each game's
// protocol, as `arena bot` reads them from a host, with each built-in bot
// serving: nothing panics, and the session ends when the input does.
func FuzzBotSide(f *testing.F) {
	games := protocolGames()
	for i, g := range games {
		for b := range g.Bots() {
			f.Add(uint8(i), uint8(b), hostStream(f, g))
		}
	}
	f.Fuzz(func(t *testing.T, gi, bi uint8, data []byte) {
		g := games[int(gi)%len(games)]
		infos := g.Bots()
		info := infos[int(bi)%len(infos)]
		opts := match.Options{Budget: match.Budget{Nodes: 300}}
		bot, err := info.New(opts)
		if err != nil {
			t.Fatal(err)
		}
		proto := g.(players.Protocol)
		client := players.NewClient(proto, "fuzz")
		if rc, ok := proto.(players.RoleClientMaker); ok {
			if client, err = rc.NewRoleClient("fuzz", ""); err != nil {
				t.Fatal(err)
			}
		}
		var out, errw bytes.Buffer
		serveBot(bytes.NewReader(data), &out, &errw, g, client, proto, bot, opts, 1, match.P1, false)
	})
}

// hostStream is what a host says to P1 in a match of random bots: the
// greeting, the game's opening and notices (session protocols) or the
// requests and the final line.
func hostStream(f *testing.F, g match.Game) []byte {
	rec, err := play.Play(context.Background(), play.Setup{Game: g, Seed: 3,
		Players: [2]play.Spec{{Name: "random"}, {Name: "random"}}})
	if err != nil {
		f.Fatal(err)
	}
	var b bytes.Buffer
	proto := g.(players.Protocol)
	if gr, ok := proto.(players.Greeter); ok {
		b.Write(gr.Greeting())
	}
	const most = 30 // turns: enough to reach every kind of line
	if sp, ok := g.(players.SessionProtocol); ok {
		b.Write(sp.Opening(rec.State(0)))
		for k := 1; k < min(rec.Len(), most); k++ {
			msg, _ := sp.Notice(rec.State(k))
			b.Write(msg)
		}
		return b.Bytes()
	}
	for k := 0; k < min(rec.Len(), most); k++ {
		if s := rec.State(k); s.ToMove().Has(match.P1) {
			b.Write(proto.Request(s, match.P1, k, 0))
		}
	}
	if final := proto.Final(rec.Last(), match.P1); final != nil {
		b.Write(final)
	}
	return b.Bytes()
}
