package pathgame

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/arena-playground/arena/internal/fileerr"
)

// Scenarios (reference/asp/scenarios) script the messages of both sides;
// their golden traces (reference/asp/golden) are what the original server
// answered. Conform replays a scenario and compares the trace line for
// line, the server's console lines (LOG) aside.

// Scenario is a scripted game.
type Scenario struct {
	Name       string            `json:"name"`
	Comment    string            `json:"comment"`
	Graph      string            `json:"graph"`
	Hello      []json.RawMessage `json:"hello"`
	TimeBudget float64           `json:"time_budget"`
	Steps      []map[string]json.RawMessage
}

// Conform replays a scenario, or the scenario a golden trace names (found
// beside it in ../scenarios), and compares the traces.
func Conform(file string, read func(string) ([]byte, error)) (string, error) {
	data, err := read(file)
	if err != nil {
		return "", err
	}
	scenFile, goldFile := file, ""
	if bytes.HasPrefix(data, []byte("SCENARIO ")) {
		name := strings.TrimSpace(strings.TrimPrefix(strings.SplitN(string(data), "\n", 2)[0], "SCENARIO "))
		goldFile, scenFile = file, path.Join(path.Dir(file), "..", "scenarios", name+".json")
	} else {
		goldFile = path.Join(path.Dir(file), "..", "golden", strings.TrimSuffix(path.Base(file), ".json")+".txt")
	}
	scen, err := read(scenFile)
	if err != nil {
		return "", err
	}
	gold, err := read(goldFile)
	if err != nil {
		return "", err
	}
	var s Scenario
	if err := fileerr.DecodeJSON(scenFile, scen, &s); err != nil {
		return "", err
	}
	gdata, err := read(path.Join(path.Dir(scenFile), s.Graph))
	if err != nil {
		return "", err
	}
	g, err := ParseGraph(path.Join(path.Dir(scenFile), s.Graph), gdata)
	if err != nil {
		return "", err
	}
	got, err := Trace(&s, g)
	if err != nil {
		return "", fmt.Errorf("%s: %v", scenFile, err)
	}
	want := withoutLogs(string(gold))
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(gl), len(wl)) {
		var a, b string
		if i < len(gl) {
			a = gl[i]
		}
		if i < len(wl) {
			b = wl[i]
		}
		if strings.HasPrefix(a, "CRASH ") && strings.HasPrefix(b, "CRASH ") {
			// The original died with a traceback; the playground's
			// forfeit names the fault in words, at the same step.
			return fmt.Sprintf("%d steps, %d trace lines alike; where the original crashed (%s), the side at fault forfeits: %s",
				len(s.Steps), i, strings.TrimPrefix(b, "CRASH "), strings.TrimPrefix(a, "CRASH ")), nil
		}
		if a != b {
			return "", fmt.Errorf("%s: line %d of the trace differs (LOG lines aside):\n  want %s\n  got  %s", goldFile, i+1, b, a)
		}
	}
	return fmt.Sprintf("%d steps, %d trace lines alike", len(s.Steps), len(wl)), nil
}

func withoutLogs(t string) string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(t, "\n"), "\n") {
		if !strings.HasPrefix(l, "LOG ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// Trace plays a scenario and writes the golden trace's lines but the
// server's console (LOG). Where the original crashed, the trace says
// CRASH as the golden does, and the playground's forfeit is what the
// match makes of it.
func Trace(s *Scenario, g *Graph) (string, error) {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	add("SCENARIO %s", s.Name)
	add("GAME start=%s end=%s nodes=%d adj_entries=%d move_limit=%d", g.IDs[g.X], g.IDs[g.Y], g.N(), g.AdjEntries(), 2*g.N())
	if adj := g.AdjacencyJSON(); g.N() <= 30 {
		add("ADJ %s", adj)
	} else {
		add("ADJ_SHA1 %s", adjacencyDigest(adj))
	}
	budget := 120.0
	if s.TimeBudget > 0 {
		budget = s.TimeBudget
	}
	r := NewRound(g, false)
	var spent [2]float64
	step := 0
	for i, st := range s.Steps {
		if r.Done {
			add("NOTE game over; remaining steps not sent")
			break
		}
		if raw, ok := st["sleep"]; ok {
			var secs float64
			if err := json.Unmarshal(raw, &secs); err != nil {
				return "", fmt.Errorf("step %d: sleep %s: want seconds", i+1, raw)
			}
			spent[r.Turn] += secs
			continue
		}
		role, msg, err := scriptedMessage(st)
		if err != nil {
			return "", fmt.Errorf("step %d: %v", i+1, err)
		}
		if role != r.Turn {
			return "", fmt.Errorf("step %d: the %s's message, but the %s's turn", i+1, role, r.Turn)
		}
		step++
		sent, _ := canonical(msg)
		var u Update
		switch {
		case spent[role] > budget:
			u = r.Stop(role)
		case r.Msgs[role] >= r.MoveCap():
			u = r.Stop(role)
		default:
			m, err := ParseMessage(role, msg)
			if err == nil {
				u, err = r.Play(m)
			}
			if err != nil {
				add("CRASH %v", err)
				return strings.Join(out, "\n"), nil
			}
		}
		add("STEP %d %s send=%s recv=%s", step, "PA"[role:role+1], sent, u.JSON(g))
		if role == Adversary && u.Valid {
			a, _ := g.Node(pyStr(u.Edge[0]))
			b, _ := g.Node(pyStr(u.Edge[1]))
			e, _ := g.EdgeBetween(a, b)
			add("KFACTOR %s %s k1=%d k2=%d factor=%s", g.IDs[a], g.IDs[b], g.Hops[a], g.Hops[b], pyFloat(g.Factor(e, false)))
		}
	}
	add("END done=%v error=%v position=%s player_cost=%s player_msgs=%d adversary_msgs=%d",
		r.Done, r.Error, g.IDs[r.Pos], pyFloat(r.Cost), r.Msgs[Player], r.Msgs[Adversary])
	var costs []string
	for e, c := range r.Costs() {
		if c != 1 {
			a, b := g.IDs[g.Edges[e].A], g.IDs[g.Edges[e].B]
			if b < a {
				a, b = b, a
			}
			costs = append(costs, fmt.Sprintf("COST %s_%s %s", a, b, pyFloat(c)))
		}
	}
	sort.Strings(costs)
	out = append(out, costs...)
	return strings.Join(out, "\n"), nil
}

// scriptedMessage reads a scenario step: {"P": [a, b]}, {"A": [a, b]} or
// the raw forms {"P_raw": {...}}, {"A_raw": {...}}.
func scriptedMessage(st map[string]json.RawMessage) (Role, json.RawMessage, error) {
	for key, raw := range st {
		var role Role
		switch key {
		case "P", "P_raw":
			role = Player
		case "A", "A_raw":
			role = Adversary
		default:
			return 0, nil, fmt.Errorf("unknown step %q (want P, A, P_raw, A_raw or sleep)", key)
		}
		if strings.HasSuffix(key, "_raw") {
			return role, raw, nil
		}
		var ids [2]string
		if err := json.Unmarshal(raw, &ids); err != nil {
			return 0, nil, fmt.Errorf("%s %s: want two node ids", key, raw)
		}
		k := Keys(role)
		m, _ := json.Marshal(map[string]string{k[0]: ids[0], k[1]: ids[1]})
		return role, m, nil
	}
	return 0, nil, fmt.Errorf("an empty step")
}
