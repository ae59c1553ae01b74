package crlf

// Doc line.
func F() {
}

func G() {}