package chunk

import (
	"strings"
	"testing"
)

// Scala bodies without braces (a Scala 2 expression on the next line, a
// Scala 3 indented body) take in, in the grammar's tree, the blank lines
// and comments up to the next definition. Each definition's chunk still
// ends at its own last line of code, so the file is chunked into its
// definitions rather than into windows.
func TestScalaIndentedBodiesEndAtTheirCode(t *testing.T) {
	tests := []struct {
		name, src string
		ends      map[string]int // definition -> its last line
	}{
		{"expression body, then a comment", `class Bag[T](items: List[T]) {
  def plus(o: Option[T]): Bag[T] =
    if (o.isDefined) new Bag(o.get :: items) else this

  // ---------------------------------------------- reading

  def first: T = items.head

  def size: Int =
    items.length
}
`, map[string]int{"Bag": 11, "plus": 3, "first": 7, "size": 10}},
		{"Scala 3 indented object", `object Shapes:
  def area(w: Int, h: Int): Int =
    val a = w * h
    a

  /** The perimeter of a w by h rectangle. */
  def perimeter(w: Int, h: Int): Int =
    2 * (w + h)
  // trailing note

end Shapes

def top(n: Int): Int =
  n + 1
`, map[string]int{"Shapes": 11, "area": 4, "perimeter": 8, "top": 14}},
		{"a long body with a match", `object Parse {
  def kind(s: String): Int =
    s match {
      case "a" =>
        1
      case "b" =>
        2
      case "c" =>
        3
      case _ =>
        val n = s.length
        n
    }

  // next

  def other: Int = 0
}
`, map[string]int{"kind": 13, "other": 17}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			f := Split("x.scala", src)
			checkInvariants(t, src, f)
			if f.Fallback || f.SyntaxErrors != 0 {
				t.Fatalf("fallback %v, %d syntax errors:\n%s", f.Fallback, f.SyntaxErrors, render(f))
			}
			for name, end := range tt.ends {
				i := chunkNamed(f, name)
				if i < 0 {
					t.Errorf("no chunk %s:\n%s", name, render(f))
					continue
				}
				if c := f.Chunks[i]; c.EndLine != end {
					t.Errorf("%s: lines %d-%d, want it to end at %d:\n%s", name, c.StartLine, c.EndLine, end, render(f))
				}
			}
		})
	}
}

// A micro chunk of a long Scala function stays inside the function's
// chunk though its node takes in the comment below the function.
func TestScalaBlocksStayInTheirFunction(t *testing.T) {
	var b strings.Builder
	b.WriteString("object Routes:\n  def route(s: String): Int =\n    s match\n")
	for i := 0; i < 30; i++ {
		b.WriteString("      case \"k" + strings.Repeat("x", i) + "\" =>\n        " + strings.Repeat("1", i+1) + "\n")
	}
	b.WriteString("  // the routes end here\n\n  def other: Int = 0\n")
	src := []byte(b.String())
	f := Split("routes.scala", src)
	checkInvariants(t, src, f)
	if f.Fallback || f.SyntaxErrors != 0 {
		t.Fatalf("fallback %v, %d syntax errors:\n%s", f.Fallback, f.SyntaxErrors, render(f))
	}
	route := chunkNamed(f, "route")
	if route < 0 || chunkNamed(f, "other") < 0 {
		t.Fatalf("route or other missing:\n%s", render(f))
	}
	blocks := 0
	for _, c := range f.Chunks {
		if c.Kind == "block" && c.Parent == route {
			blocks++
			if c.EndByte > f.Chunks[route].EndByte {
				t.Errorf("block %s ends after its function:\n%s", c.Name, render(f))
			}
		}
	}
	if blocks == 0 {
		t.Errorf("no block in route:\n%s", render(f))
	}
}
