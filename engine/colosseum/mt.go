package colosseum

// NumPy is NumPy's legacy global generator, as the course simulator used
// it: np.random.seed(s) with an int is MT19937's init_genrand(s), and
// np.random.randint(lo, hi) for a small range draws 32-bit outputs,
// masks each with the smallest all-ones mask that covers hi-lo-1 and
// rejects values above it; a range of one value returns lo without a
// draw. Board generation, the course's random agent and the engine's
// random walk all draw from one such stream, so a faithful port replays
// the course's boards and random games bit for bit.
type NumPy struct {
	mt  [624]uint32
	idx int
}

// NewNumPy returns the generator after np.random.seed(seed).
func NewNumPy(seed uint32) *NumPy {
	r := &NumPy{}
	r.mt[0] = seed
	for i := 1; i < 624; i++ {
		r.mt[i] = 1812433253*(r.mt[i-1]^(r.mt[i-1]>>30)) + uint32(i)
	}
	r.idx = 624
	return r
}

// Uint32 returns the next 32-bit output (genrand_int32).
func (r *NumPy) Uint32() uint32 {
	if r.idx >= 624 {
		r.twist()
	}
	y := r.mt[r.idx]
	r.idx++
	y ^= y >> 11
	y ^= y << 7 & 0x9d2c5680
	y ^= y << 15 & 0xefc60000
	y ^= y >> 18
	return y
}

func (r *NumPy) twist() {
	const upper, lower, matrix = 0x80000000, 0x7fffffff, 0x9908b0df
	for i := range 624 {
		y := r.mt[i]&upper | r.mt[(i+1)%624]&lower
		v := r.mt[(i+397)%624] ^ y>>1
		if y&1 != 0 {
			v ^= matrix
		}
		r.mt[i] = v
	}
	r.idx = 0
}

// Randint returns an int in [lo, hi) as np.random.randint(lo, hi) does.
// hi must be greater than lo.
func (r *NumPy) Randint(lo, hi int) int {
	rng := uint32(hi - lo - 1)
	if rng == 0 {
		return lo
	}
	mask := rng
	for s := uint(1); s < 32; s <<= 1 {
		mask |= mask >> s
	}
	for {
		if v := r.Uint32() & mask; v <= rng {
			return lo + int(v)
		}
	}
}

// Clone returns an independent copy of the generator's state.
func (r *NumPy) Clone() *NumPy {
	c := *r
	return &c
}
