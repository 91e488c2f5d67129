package tournament

import (
	"math"
	"strings"
	"testing"
)

// The log-likelihood ratios fastchess's tests publish for its logistic
// pentanomial model (app/tests/sprt_test.cpp), to their two decimals.
func TestLLRMatchesFastchess(t *testing.T) {
	for _, c := range []struct {
		ll, ld, wl, dd, wd, ww int
		elo0, elo1             float64
		want                   float64
	}{
		{223, 9863, 20279, 1000, 10037, 246, 0.5, 2.5, -3.07},
		{871, 26175, 55003, 980, 26678, 821, 0, 2, -4.98},
	} {
		s := &SPRT{Elo0: c.elo0, Elo1: c.elo1, Alpha: 0.05, Beta: 0.05}
		got := s.LLR(Penta{c.ll, c.ld, c.wl + c.dd, c.wd, c.ww})
		if math.Abs(got-c.want) > 0.01*math.Abs(c.want) {
			t.Errorf("LLR %v: %.3f, fastchess %.2f", c, got, c.want)
		}
	}
}

func TestSPRTDecides(t *testing.T) {
	s, err := ParseSPRT("elo0=0,elo1=10")
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := s.Bounds()
	if math.Abs(lo+2.944) > 0.001 || math.Abs(hi-2.944) > 0.001 {
		t.Errorf("bounds %.3f %.3f, want ±2.944", lo, hi)
	}
	if d := s.Decide(Penta{0, 0, 0, 0, 200}); d != "H1" {
		t.Errorf("200 pairs won: %q", d)
	}
	if d := s.Decide(Penta{200, 0, 0, 0, 0}); d != "H0" {
		t.Errorf("200 pairs lost: %q", d)
	}
	if d := s.Decide(Penta{1, 2, 3, 2, 1}); d != "" {
		t.Errorf("9 even pairs: %q", d)
	}
	for _, bad := range []string{"", "elo0=0", "elo0=5,elo1=1", "elo0=0,elo1=5,alpha=0.6,beta=0.5", "elo0=0,elo1=x", "gamma=1,elo0=0,elo1=5"} {
		if _, err := ParseSPRT(bad); err == nil {
			t.Errorf("-sprt %q accepted", bad)
		}
	}
}

func TestPentaElo(t *testing.T) {
	elo, lo, hi := PentaElo(Penta{10, 20, 40, 20, 10})
	if elo != 0 || !(lo < 0 && hi > 0) || math.Abs(lo+hi) > 1e-9 {
		t.Errorf("even: %.1f [%.1f, %.1f]", elo, lo, hi)
	}
	if elo, _, _ := PentaElo(Penta{0, 10, 40, 30, 20}); elo < 50 {
		t.Errorf("a winner's Elo %.1f", elo)
	}
}

// Every SPRT that ParseSPRT accepts has a log-likelihood ratio that is a
// number, whatever the pairs: bounds past ±MaxSPRTElo, which made it NaN,
// are refused.
func TestSPRTBoundsKeepTheLLRANumber(t *testing.T) {
	for _, v := range []string{"elo0=-1000,elo1=1000", "elo0=990,elo1=1000", "elo0=-1000,elo1=-999", "elo0=0,elo1=0.001", "elo0=0,elo1=10,alpha=1e-300,beta=1e-300"} {
		s, err := ParseSPRT(v)
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		for _, p := range []Penta{{}, {1, 0, 0, 0, 0}, {0, 0, 0, 0, 1}, {1000000, 0, 0, 0, 0}, {0, 0, 0, 0, 1000000}, {3, 5, 100, 5, 3}} {
			if llr := s.LLR(p); math.IsNaN(llr) || math.IsInf(llr, 0) {
				t.Errorf("%s: LLR%v = %v", v, p, llr)
			}
		}
		if lo, hi := s.Bounds(); math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
			t.Errorf("%s: bounds %v, %v", v, lo, hi)
		}
	}
	for _, v := range []string{"elo0=0,elo1=1001", "elo0=-5000,elo1=0", "elo0=0,elo1=1e308"} {
		if _, err := ParseSPRT(v); err == nil || !strings.Contains(err.Error(), "within ±1000") {
			t.Errorf("%s: %v", v, err)
		}
	}
}
