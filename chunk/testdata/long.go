package long

var table = map[string]int{
	"a": 1,
	"b": 2,
	"c": 3,
}

const small = 1

// Process walks items; long enough to get micro chunks.
func Process(items []int) int {
	x := 0
	x += 0
	x += 1
	x += 2
	x += 3
	x += 4
	x += 5
	x += 6
	x += 7
	x += 8
	x += 9
	x += 10
	x += 11
	for i, it := range items {
		if it > 10 {
			x += it
			x -= i
			x *= 2
			x /= 3
		}
		x++
	}
	x += 0
	x += 1
	x += 2
	x += 3
	x += 4
	x += 5
	x += 6
	x += 7
	x += 8
	x += 9
	x += 10
	x += 11
	switch x {
	case 1:
		x = 2
	case 2:
		x = 3
	default:
		x = 4
	}
	f := func() int {
		y := x
		y++
		y--
		return y
	}
	x += 0
	x += 1
	x += 2
	x += 3
	x += 4
	x += 5
	x += 6
	x += 7
	x += 8
	x += 9
	x += 10
	x += 11
	if x > 0 {
		x--
	}
	return f()
}
