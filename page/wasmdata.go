package page

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
)

// dataGap is how far apart two data segments may be and still be joined
// into one, the bytes between them written as zeros: a segment's header
// (its flags, its offset as an i32.const expression, its length) costs
// about 8 bytes that compress badly, and Go's linker starts a segment at
// every run of zeros, up to 100,000 segments in a program.
const dataGap = 64

// joinDataSegments returns the module with the active data segments of
// its memory joined wherever one starts less than dataGap bytes after the
// previous one ends, the gap filled with the zeros the memory holds there
// anyway (a fresh memory is zeros). What the memory holds once the module
// is instantiated is the same byte for byte; the page's program loses
// 87,000 of its segment headers.
func joinDataSegments(module []byte) ([]byte, error) {
	return rewriteSection(module, sectionData, "data", func(body []byte) ([]byte, error) {
		segs, err := readDataSegments(body)
		if err != nil {
			return nil, err
		}
		var joined []dataSegment
		for _, s := range segs {
			if n := len(joined); n > 0 {
				last := &joined[n-1]
				end := last.offset + uint32(len(last.data))
				if s.offset >= end && s.offset-end < dataGap {
					last.data = append(append(last.data, make([]byte, s.offset-end)...), s.data...)
					continue
				}
			}
			joined = append(joined, dataSegment{offset: s.offset, data: append([]byte(nil), s.data...)})
		}
		out := binary.AppendUvarint(nil, uint64(len(joined)))
		for _, s := range joined {
			out = append(out, 0, 0x41) // active, memory 0; i32.const
			out = appendSLEB32(out, int32(s.offset))
			out = append(out, 0x0b) // end
			out = binary.AppendUvarint(out, uint64(len(s.data)))
			out = append(out, s.data...)
		}
		return out, nil
	})
}

// dataSegment is an active segment of memory 0: data at offset.
type dataSegment struct {
	offset uint32
	data   []byte
}

// readDataSegments reads a data section's segments, all of them active
// segments of memory 0 at a constant offset (flags 0, i32.const), as Go's
// linker writes them, and returns them in the order of their offsets;
// anything else (overlapping segments among it) is an error, not a guess.
func readDataSegments(body []byte) ([]dataSegment, error) {
	count, at := binary.Uvarint(body)
	if at <= 0 || count > uint64(len(body)) {
		return nil, fmt.Errorf("the data section's count is damaged")
	}
	segs := make([]dataSegment, 0, count)
	for i := range count {
		if at+2 > len(body) || body[at] != 0 || body[at+1] != 0x41 {
			return nil, fmt.Errorf("data segment %d is not an active segment at an i32.const offset", i)
		}
		offset, n := readSLEB32(body[at+2:])
		if n <= 0 || at+2+n >= len(body) || body[at+2+n] != 0x0b || offset < 0 {
			return nil, fmt.Errorf("data segment %d's offset is damaged", i)
		}
		at += 3 + n
		size, m := binary.Uvarint(body[at:])
		if m <= 0 || size > uint64(len(body)-at-m) {
			return nil, fmt.Errorf("data segment %d's length is damaged", i)
		}
		at += m
		segs = append(segs, dataSegment{offset: uint32(offset), data: body[at : at+int(size)]})
		at += int(size)
	}
	if at != len(body) {
		return nil, fmt.Errorf("the data section has %d bytes after its segments", len(body)-at)
	}
	// Go's linker writes each of its sections' segments in order, the
	// sections not: in the order of their addresses they must not
	// overlap, or the order they are written in would matter.
	slices.SortStableFunc(segs, func(a, b dataSegment) int { return cmp.Compare(a.offset, b.offset) })
	for i := 1; i < len(segs); i++ {
		if prev := segs[i-1]; uint64(segs[i].offset) < uint64(prev.offset)+uint64(len(prev.data)) {
			return nil, fmt.Errorf("data segments at %d and %d overlap", prev.offset, segs[i].offset)
		}
	}
	return segs, nil
}

// readSLEB32 reads a signed LEB128 number of at most 32 bits.
func readSLEB32(b []byte) (int32, int) {
	var v int64
	var shift uint
	for i, c := range b {
		if i == 5 {
			return 0, -1
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			if v < -1<<31 || v >= 1<<31 {
				return 0, -1
			}
			return int32(v), i + 1
		}
	}
	return 0, -1
}

// appendSLEB32 appends a signed LEB128 number.
func appendSLEB32(b []byte, v int32) []byte {
	x := int64(v)
	for {
		c := byte(x & 0x7f)
		x >>= 7
		if (x == 0 && c&0x40 == 0) || (x == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
