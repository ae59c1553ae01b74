// Elixir and Dockerfile are walked by hand: their definitions are calls
// and instructions, not declaration nodes a langSpec could name.

package chunk

import (
	"strings"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// merge returns a new map with the entries of a and then b.
func merge[V any](a, b map[string]V) map[string]V {
	m := make(map[string]V, len(a)+len(b))
	for k, v := range a {
		m[k] = v
	}
	for k, v := range b {
		m[k] = v
	}
	return m
}

// visitElixir chunks defmodule, def, defp, defmacro... calls. Module
// attributes (@doc, @spec, @impl) directly above a definition belong to it.
func visitElixir(w *walker, it item, parent int, _ bool) {
	if it.typ == "ERROR" {
		w.into(it.n, parent, false)
		return
	}
	if it.typ != "call" {
		return
	}
	target := w.text(it.n.ChildByFieldName("target"))
	kind := ""
	switch target {
	case "defmodule", "defprotocol", "defimpl":
		kind = vocab.KindModule
	case "def", "defp", "defmacro", "defmacrop", "defguard", "defguardp", "defdelegate", "defn", "defnp":
		kind = vocab.KindFunction
	default:
		return
	}
	args := fieldOrChild(it.n, "arguments")
	if args == nil || args.NamedChildCount() == 0 {
		return
	}
	head := args.NamedChild(0)
	if head.Type() == "binary_operator" { // def f(x) when x > 0
		if l := head.ChildByFieldName("left"); l != nil {
			head = l
		}
	}
	name := w.text(head)
	if head.Type() == "call" {
		name = w.text(head.ChildByFieldName("target"))
	}
	start, doc := it.start, ""
	for i := len(it.prev) - 1; i >= 0; i-- {
		p := it.prev[i]
		if !adjacent(w.src, p.end, start) || !startsLine(w.src, p.start) {
			break
		}
		t := w.text(p.n)
		if isComment(p.typ) {
			if doc == "" {
				doc = cleanComment(t)
			}
		} else if p.typ != "unary_operator" || !strings.HasPrefix(t, "@") || strings.HasPrefix(t, "@moduledoc") {
			break
		} else if strings.HasPrefix(t, "@doc") {
			doc = cleanDocstring(strings.TrimSpace(strings.TrimPrefix(t, "@doc")))
		}
		start = p.start
	}
	body := fieldOrChild(it.n, "do_block")
	sig := w.sigTo(it.start, it.n, body)
	sig = strings.TrimSuffix(strings.TrimSpace(sig), " do")
	if body == nil {
		sig, _, _ = strings.Cut(sig, ", do:")
	}
	i := w.add(kind, collapse([]byte(name)), parent, start, it.end, sig, doc, it.n)
	if kind == vocab.KindModule && body != nil {
		if d := body.NamedChild(0); d != nil && d.Type() == "unary_operator" && strings.HasPrefix(w.text(d), "@moduledoc") {
			w.chunks[i].Doc = cleanDocstring(strings.TrimSpace(strings.TrimPrefix(w.text(d), "@moduledoc")))
		}
		w.into(body, i, false)
	}
}

// visitDockerfile makes one chunk per build stage: from a FROM instruction
// to the last instruction before the next FROM, named by the stage alias or
// else the image.
func visitDockerfile(w *walker, it item, parent int, _ bool) {
	if it.typ != "from_instruction" {
		return
	}
	end := it.end
	for s := it.n.NextNamedSibling(); s != nil && s.Type() != "from_instruction"; s = s.NextNamedSibling() {
		if !isComment(s.Type()) {
			end = int(s.EndByte())
		}
	}
	name := w.text(it.n.ChildByFieldName("as"))
	if name == "" {
		name = w.text(fieldOrChild(it.n, "image_spec"))
	}
	start, doc := w.docAbove(it)
	w.add(vocab.KindStage, collapse([]byte(name)), parent, start, end, collapse(w.src[it.start:it.end]), doc, it.n)
}
