// Package sample is a fixture for the chunker.
package sample

import "fmt"

// Greeter says hello.
//
//go:generate echo hi
type Greeter struct {
	Name string
}

type (
	// ID names a thing.
	ID int

	// Store keeps things.
	Store interface {
		Get(id ID) (string, error)
	}

	Alias = map[string]int
)

var debug = false

// Greet returns a greeting.
func (g *Greeter) Greet(other string) string {
	inner := func() string { return "x" }
	return fmt.Sprintf("hello %s from %s%s", other, g.Name, inner())
}

/* New makes a Greeter. */
func New(name string) *Greeter { return &Greeter{Name: name} }

func List[T any](xs ...T) []T { return xs } // trailing comment

// Orphan comment separated by a blank line.

func main() {
	fmt.Println(New("a").Greet("b"))
}
