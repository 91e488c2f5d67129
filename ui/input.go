package ui

import (
	"slices"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// input is what the person did since the last frame, read once per
// Update so that views never look at raw devices: a mouse click and a
// touch tap are both a click; keys are the ones just pressed.
type input struct {
	x, y    float64 // pointer position, device pixels
	clicked bool    // a press began this frame at (x, y)
	down    bool    // the pointer is held (for drags)
	keys    []ebiten.Key
	chars   []rune
	shift   bool
	touches []ebiten.TouchID
}

// readInput reads the frame's input; presses, when set, supplies the keys
// and clicks.
func readInput(in *input, presses func() ([]ebiten.Key, [][2]float64)) {
	mx, my := ebiten.CursorPosition()
	in.x, in.y = float64(mx), float64(my)
	in.clicked = inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft)
	if presses != nil {
		keys, clicks := presses()
		in.keys, in.clicked = append(in.keys[:0], keys...), len(clicks) > 0
		if in.clicked {
			in.x, in.y = clicks[0][0], clicks[0][1]
		}
		in.chars = ebiten.AppendInputChars(in.chars[:0])
		in.shift = ebiten.IsKeyPressed(ebiten.KeyShift)
		in.down = ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft) || in.clicked
		if ids := ebiten.AppendTouchIDs(in.touches[:0]); len(ids) > 0 { // a finger on a drag
			tx, ty := ebiten.TouchPosition(ids[0])
			in.x, in.y, in.down = float64(tx), float64(ty), true
		}
		return
	}
	in.down = ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft)
	in.touches = inpututil.AppendJustPressedTouchIDs(in.touches[:0])
	if len(in.touches) > 0 {
		tx, ty := ebiten.TouchPosition(in.touches[0])
		in.x, in.y, in.clicked, in.down = float64(tx), float64(ty), true, true
	} else if ids := ebiten.AppendTouchIDs(nil); len(ids) > 0 {
		tx, ty := ebiten.TouchPosition(ids[0])
		in.x, in.y, in.down = float64(tx), float64(ty), true
	}
	in.keys = inpututil.AppendJustPressedKeys(in.keys[:0])
	in.chars = ebiten.AppendInputChars(in.chars[:0])
	in.shift = ebiten.IsKeyPressed(ebiten.KeyShift)
}

// key reports whether k was just pressed, and takes it so that no other
// handler acts on it in the same frame.
func (in *input) key(k ebiten.Key) bool { return take(&in.keys, k) }

// char reports whether r was typed (for '?', '+' and other keys whose
// position differs between keyboard layouts), and takes it.
func (in *input) char(r rune) bool { return take(&in.chars, r) }

// take removes the first x from xs and reports whether there was one.
func take[T comparable](xs *[]T, x T) bool {
	i := slices.Index(*xs, x)
	if i >= 0 {
		*xs = slices.Delete(*xs, i, i+1)
	}
	return i >= 0
}

// takeKeys returns the keys pressed since the last frame, in order, and
// takes them all.
func (in *input) takeKeys() []ebiten.Key {
	k := slices.Clone(in.keys)
	in.keys = in.keys[:0]
	return k
}

// takeChars returns the characters typed since the last frame, in order,
// and takes them all.
func (in *input) takeChars() []rune {
	r := slices.Clone(in.chars)
	in.chars = in.chars[:0]
	return r
}

// click reports whether a click landed in r, and takes it.
func (in *input) click(r rect) bool {
	if in.clicked && r.Contains(in.x, in.y) {
		in.clicked = false
		return true
	}
	return false
}
