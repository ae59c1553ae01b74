package gitindex

import "encoding/binary"

// patch rebuilds an object from its base and a git delta: the base's
// size, the result's size, then instructions that copy a range of the base
// or insert the bytes that follow.
func patch(base, delta []byte) ([]byte, error) {
	src, n := binary.Uvarint(delta)
	if n <= 0 || src != uint64(len(base)) {
		return nil, errPackEntry
	}
	delta = delta[n:]
	dst, n := binary.Uvarint(delta)
	if n <= 0 || dst > 1<<40 {
		return nil, errPackEntry
	}
	delta = delta[n:]
	// As for inflate: the result grows with the instructions, up to dst.
	out := make([]byte, 0, min(dst, 16<<20))
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		switch {
		case op&0x80 != 0:
			var off, sz uint64
			for i := range 7 {
				if op&(1<<i) == 0 {
					continue
				}
				if len(delta) == 0 {
					return nil, errPackEntry
				}
				if i < 4 {
					off |= uint64(delta[0]) << (8 * i)
				} else {
					sz |= uint64(delta[0]) << (8 * (i - 4))
				}
				delta = delta[1:]
			}
			if sz == 0 {
				sz = 0x10000
			}
			if off+sz > uint64(len(base)) || uint64(len(out))+sz > dst {
				return nil, errPackEntry
			}
			out = append(out, base[off:off+sz]...)
		case op != 0:
			if int(op) > len(delta) || uint64(len(out))+uint64(op) > dst {
				return nil, errPackEntry
			}
			out = append(out, delta[:op]...)
			delta = delta[op:]
		default:
			return nil, errPackEntry
		}
	}
	if uint64(len(out)) != dst {
		return nil, errPackEntry
	}
	return out, nil
}
