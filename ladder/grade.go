package ladder

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A grade rule is what the staff state to turn a standing into a mark:
// an expression over an entry's figures (points/games*100), or bands by
// rank (rank:1-3=100,4-10=90,*=70). The figures:
//
//	points, games, wins, draws, losses   in the final round robin
//	rank, entrants                       1 is the best; entrants ranked
//	rating                               Elo, the field's mean 0
//	panel_points, panel_games            against the reference panel alone
//
// with + - * / ( ) and min(a, b), max(a, b); a division by zero is 0.

// GradeRule is a parsed grade rule.
type GradeRule struct {
	src   string
	expr  node
	bands []band
}

type band struct {
	lo, hi int // ranks, inclusive; hi 0: every rank from lo
	grade  float64
}

// Figures are an entry's figures a rule reads.
type Figures map[string]float64

// gradeVariables are the names a rule may use.
var gradeVariables = []string{"points", "games", "wins", "draws", "losses", "rank", "entrants", "rating", "panel_points", "panel_games"}

// DefaultGradeRule is the share of the final's points, out of 100.
const DefaultGradeRule = "points/games*100"

// ParseGradeRule reads a grade rule; its errors say where and what was
// expected.
func ParseGradeRule(src string) (*GradeRule, error) {
	src = strings.TrimSpace(src)
	if src == "" {
		src = DefaultGradeRule
	}
	if len(src) > 500 {
		return nil, fmt.Errorf("grade rule: at most 500 characters")
	}
	r := &GradeRule{src: src}
	if rest, ok := strings.CutPrefix(src, "rank:"); ok {
		var err error
		r.bands, err = parseBands(rest)
		return r, err
	}
	p := &parser{s: src}
	e, err := p.expr()
	if err == nil && p.peek() != 0 {
		err = p.errorf("an operator or the end")
	}
	if err != nil {
		return nil, err
	}
	r.expr = e
	return r, nil
}

// String is the rule as the staff wrote it.
func (r *GradeRule) String() string { return r.src }

// Grade is the rule's mark for an entry's figures, never below 0, to
// two decimals.
func (r *GradeRule) Grade(f Figures) float64 {
	g := 0.0
	if r.bands == nil {
		g = r.expr.eval(f)
	}
	for _, b := range r.bands {
		if rank := int(f["rank"]); rank >= b.lo && (b.hi == 0 || rank <= b.hi) {
			g = b.grade
			break
		}
	}
	if math.IsNaN(g) || math.IsInf(g, 0) || g < 0 {
		g = 0
	}
	return math.Round(g*100) / 100
}

// parseBands reads 1-3=100,4-10=90,*=70.
func parseBands(s string) ([]band, error) {
	var out []band
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		g, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("grade rule: rank band %q: want RANKS=GRADE, as 1-3=100, 4=95 or *=70", part)
		}
		b := band{grade: g}
		k = strings.TrimSpace(k)
		switch lo, hi, isRange := strings.Cut(k, "-"); {
		case k == "*":
			b.lo = 1
		case isRange:
			b.lo, err = strconv.Atoi(lo)
			if err == nil {
				b.hi, err = strconv.Atoi(hi)
			}
			if err == nil && (b.lo < 1 || b.hi < b.lo) {
				err = fmt.Errorf("empty")
			}
		default:
			b.lo, err = strconv.Atoi(k)
			b.hi = b.lo
		}
		if err != nil || b.lo < 1 {
			return nil, fmt.Errorf("grade rule: rank band %q: want ranks as 1-3, 4 or *", part)
		}
		out = append(out, b)
	}
	return out, nil
}

// node is an expression's node.
type node interface{ eval(Figures) float64 }

type num float64
type variable string
type binary struct {
	op   byte
	a, b node
}
type call struct {
	f    string
	a, b node
}

func (n num) eval(Figures) float64        { return float64(n) }
func (v variable) eval(f Figures) float64 { return f[string(v)] }
func (b binary) eval(f Figures) float64 {
	x, y := b.a.eval(f), b.b.eval(f)
	switch b.op {
	case '+':
		return x + y
	case '-':
		return x - y
	case '*':
		return x * y
	}
	if y == 0 {
		return 0
	}
	return x / y
}
func (c call) eval(f Figures) float64 {
	if c.f == "min" {
		return math.Min(c.a.eval(f), c.b.eval(f))
	}
	return math.Max(c.a.eval(f), c.b.eval(f))
}

// parser reads an expression: sum of products of unary terms.
type parser struct {
	s     string
	i     int
	depth int
}

func (p *parser) errorf(want string) error {
	at := "the end"
	if p.i < len(p.s) {
		at = fmt.Sprintf("%q", p.s[p.i:min(len(p.s), p.i+10)])
	}
	return fmt.Errorf("grade rule %q, at character %d: want %s, not %s", p.s, p.i+1, want, at)
}

func (p *parser) skip() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *parser) peek() byte {
	p.skip()
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *parser) expr() (node, error) {
	if p.depth++; p.depth > 50 {
		return nil, p.errorf("fewer parentheses")
	}
	defer func() { p.depth-- }()
	a, err := p.product()
	for err == nil && (p.peek() == '+' || p.peek() == '-') {
		op := p.s[p.i]
		p.i++
		var b node
		if b, err = p.product(); err == nil {
			a = binary{op, a, b}
		}
	}
	return a, err
}

func (p *parser) product() (node, error) {
	a, err := p.term()
	for err == nil && (p.peek() == '*' || p.peek() == '/') {
		op := p.s[p.i]
		p.i++
		var b node
		if b, err = p.term(); err == nil {
			a = binary{op, a, b}
		}
	}
	return a, err
}

func (p *parser) term() (node, error) {
	c := p.peek()
	switch {
	case c == '(':
		p.i++
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		if p.peek() != ')' {
			return nil, p.errorf("')'")
		}
		p.i++
		return e, nil
	case c == '-':
		p.i++
		t, err := p.term()
		return binary{'-', num(0), t}, err
	case c >= '0' && c <= '9' || c == '.':
		j := p.i
		for j < len(p.s) && (p.s[j] >= '0' && p.s[j] <= '9' || p.s[j] == '.') {
			j++
		}
		x, err := strconv.ParseFloat(p.s[p.i:j], 64)
		if err != nil {
			return nil, p.errorf("a number")
		}
		p.i = j
		return num(x), nil
	case c >= 'a' && c <= 'z' || c == '_':
		j := p.i
		for j < len(p.s) && (p.s[j] >= 'a' && p.s[j] <= 'z' || p.s[j] == '_') {
			j++
		}
		name := p.s[p.i:j]
		if name == "min" || name == "max" {
			p.i = j
			return p.call(name)
		}
		for _, v := range gradeVariables {
			if v == name {
				p.i = j
				return variable(name), nil
			}
		}
		return nil, p.errorf("one of " + strings.Join(gradeVariables, ", ") + ", min( or max(")
	}
	return nil, p.errorf("a number, a figure or '('")
}

func (p *parser) call(f string) (node, error) {
	if p.peek() != '(' {
		return nil, p.errorf("'(' after " + f)
	}
	p.i++
	a, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.peek() != ',' {
		return nil, p.errorf("',' between " + f + "'s two values")
	}
	p.i++
	b, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.peek() != ')' {
		return nil, p.errorf("')'")
	}
	p.i++
	return call{f, a, b}, nil
}
