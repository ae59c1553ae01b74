package broken

// Good is fine.
func Good() int { return 1 }

func Bad( {
	x := 
}

type T struct {
	A int
}

func (t T) After() {}
