package chunk

import (
	"context"
	"errors"
	"path"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/golang"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// maxParseBytes bounds what is handed to tree-sitter (~4 MB/s per core):
// bigger files are nearly always generated or minified and get windows.
const maxParseBytes = 2 << 20

// maxDepth bounds the descent through classes, namespaces and ERROR nodes.
const maxDepth = 32

// grammar is what splitTree needs to know about one tree-sitter language.
type grammar struct {
	lang *sitter.Language
	// visit turns one child of a container node into chunks.
	visit func(w *walker, it item, parent int, inClass bool)
	// docs says which comments directly above a definition are its doc.
	docs func(src []byte, comment item) bool
	// spec drives visitTable.
	spec *langSpec
	// serial is set for grammars whose external scanner keeps global state
	// (Lua): their parses must not run concurrently, and reset clears that
	// state before each parse, which would otherwise start from whatever
	// the previous parse of the grammar left.
	serial *sync.Mutex
	reset  func()
}

var (
	grammarsOnce sync.Once
	grammars     map[string]*grammar
)

// GrammarsLoaded reports whether this process registered the tree-sitter
// grammars, which it does on the first parse: a command that chunks
// nothing (grep, log -S, status) never does.
func GrammarsLoaded() bool { return grammarsLoaded.Load() }

var grammarsLoaded atomic.Bool

func grammarFor(lang string) *grammar {
	grammarsOnce.Do(func() {
		grammarsLoaded.Store(true)
		grammars = map[string]*grammar{
			"go":         {lang: golang.GetLanguage(), visit: visitGo, docs: anyComment},
			"python":     {lang: python.GetLanguage(), visit: visitPython, docs: anyComment},
			"javascript": {lang: javascript.GetLanguage(), visit: visitJS, docs: anyComment},
			"typescript": {lang: typescript.GetLanguage(), visit: visitJS, docs: anyComment},
			"tsx":        {lang: tsx.GetLanguage(), visit: visitJS, docs: anyComment},
		}
		tableGrammars(grammars)
	})
	return grammars[lang]
}

func anyComment([]byte, item) bool { return true }

// isComment reports whether a node type is a comment in some grammar.
func isComment(t string) bool {
	switch t {
	case "comment", "line_comment", "block_comment", "multiline_comment":
		return true
	}
	return false
}

// isAttr reports whether a sibling of type t before a definition belongs to it.
func (w *walker) isAttr(t string) bool {
	return t == "decorator" || w.g.spec != nil && w.g.spec.attrs[t]
}

// parsers holds one parser per goroutine at a time; SetLanguage is cheap.
var parsers = sync.Pool{New: func() any { return sitter.NewParser() }}

// item is a child node with the facts the walkers look at, fetched once
// because every access is a cgo call.
type item struct {
	n          *sitter.Node
	typ        string
	start, end int
	prev       []item // the siblings before it, for doc comments
}

// walker accumulates the chunks of one file.
type walker struct {
	root   *sitter.Node
	src    []byte
	li     lineIndex
	g      *grammar
	chunks []Chunk
	depth  int
	errs   []synErr // the described syntax errors, for error windows
	probe  bool     // syntax errors are not described (chunkTree)
	// errOf is 1 + the parent of the top-level ERROR node being visited, 0
	// when none: the containers inside it make no error windows of their
	// own for that parent.
	errOf int
	cur   cursors // reused by children and blockWalk
}

// splitTree parses src and chunks its definitions. ok is false when the parse
// failed or yielded nothing but errors; the caller then uses windows.
func splitTree(lang, p string, src []byte, base int) (f File, ok bool) {
	f, ok, tree := parseRanges(lang, p, src, nil, base, nil)
	if f.SyntaxErrors > 0 {
		// recoverDefs takes the tree over: its parses start from it.
		if g, better := recoverDefs(lang, p, src, f, ok, base, tree); better {
			return g, true
		}
		return f, ok
	}
	if tree != nil {
		tree.Close()
	}
	return f, ok
}

// parseLimitMicros bounds the CPU time of one parse of n bytes (see
// parseWithin): base (parseBaseMicros, 2 s) plus 10 µs a byte (12 s for
// the largest file indexed by default). Real files parse at megabytes a
// second; a grammar caught in a loop (the Swift grammar is, on some inputs
// FuzzSplit found) stops there, and the file is split as one whose parse
// failed.
func parseLimitMicros(base, n int) int { return base + 10*n }

// parseBaseMicros is the fixed part of the limit. FuzzSplit passes a lower
// one: its inputs are small, and the fuzzer runs every shortened variant of
// an input that reached the limit.
const parseBaseMicros = 2_000_000

// splitRanges is splitTree over the given byte ranges of src only (all of
// it when ranges is nil): the parser skips the rest, and positions stay
// those of src.
func splitRanges(lang, p string, src []byte, ranges []sitter.Range, base int) (File, bool) {
	f, ok, tree := parseRanges(lang, p, src, ranges, base, nil)
	if tree != nil {
		tree.Close()
	}
	return f, ok
}

// parseRanges is splitRanges that also returns the parse's tree (nil when
// the parse failed), for the caller to close. old, when not nil, is an
// earlier parse of the same src with other ranges: tree-sitter reuses its
// nodes outside the ranges that differ, so that parsing again from a later
// cut costs what changed, not the rest of the file.
func parseRanges(lang, p string, src []byte, ranges []sitter.Range, base int, old *sitter.Tree) (f File, ok bool, tree *sitter.Tree) {
	tree = parseTree(lang, src, ranges, base, old)
	if tree == nil {
		return File{Language: lang}, false, nil
	}
	f, ok = chunkTree(lang, p, src, newLineIndex(src), tree, false)
	return f, ok, tree
}

// parseTree parses the given ranges of src (all of it when ranges is nil),
// starting from old when not nil; it returns nil when the parse failed.
func parseTree(lang string, src []byte, ranges []sitter.Range, base int, old *sitter.Tree) *sitter.Tree {
	g := grammarFor(lang)
	// A parser given ranges keeps them: it is not returned to the pool.
	var parser *sitter.Parser
	if ranges == nil {
		parser = parsers.Get().(*sitter.Parser)
		defer parsers.Put(parser)
	} else {
		parser = sitter.NewParser()
		defer parser.Close()
		parser.SetIncludedRanges(ranges)
	}
	parser.SetLanguage(g.lang)
	if g.serial != nil {
		g.serial.Lock()
	}
	tree := parseWithin(parser, src, old, parseLimitMicros(base, len(src)), g.reset)
	if g.serial != nil {
		g.serial.Unlock()
	}
	return tree
}

// maxParseStretch bounds how far parseWithin stretches a parse's clock
// limit for a thread that other work kept off the CPU.
const maxParseStretch = 64

// parseWithin parses src (from old when not nil) with a limit of limit µs
// of the parsing thread's CPU time, so that whether a file's parse fails
// is the same on a busy machine as on an idle one: tree-sitter's limit
// is a clock's, which a thread waiting for a CPU runs down too. A parse
// that reaches the clock limit having used less than three quarters of
// it on the CPU runs again from the start with twice the clock limit (a
// stopped parse could resume, but a resumed parse from old forgets which
// ranges differ from old's), up to maxParseStretch times limit. A parse
// that stopped before its clock limit failed for another reason and is
// not run again. reset, when not nil, runs before each try. It returns
// nil when the parse failed.
func parseWithin(parser *sitter.Parser, src []byte, old *sitter.Tree, limit int, reset func()) *sitter.Tree {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for clock := limit; ; clock *= 2 {
		parser.SetOperationLimit(clock)
		began := time.Now()
		start, known := threadCPU()
		if reset != nil {
			reset()
		}
		tree, err := parser.ParseCtx(context.Background(), old, src)
		if err == nil && tree != nil {
			return tree
		}
		// Past its time limit a parser keeps its state to resume: drop it.
		parser.Reset()
		end, _ := threadCPU()
		timedOut := errors.Is(err, sitter.ErrOperationLimit) && time.Since(began).Microseconds() >= int64(clock)
		if !known || !timedOut || (end-start).Microseconds() >= int64(limit)*3/4 || clock >= maxParseStretch*limit {
			return nil
		}
	}
}

// chunkTree chunks src from its parse tree; li is src's line index. A
// probe leaves out what describes the syntax errors (the chunks'
// ErrorDetail, the File's SyntaxErrors and broken regions): the chunks
// and ok are otherwise those of a full chunking, at less cost.
func chunkTree(lang, p string, src []byte, li lineIndex, tree *sitter.Tree, probe bool) (f File, ok bool) {
	f.Language = lang
	root := tree.RootNode()
	var errs []synErr
	if root.HasError() && !probe {
		f.SyntaxErrors, errs, f.broken = syntaxErrors(root, src, li)
	}
	w := &walker{root: root, src: src, li: li, g: grammarFor(lang), errs: errs, probe: probe}
	defer w.cur.close()
	n := len(src)
	w.chunks = append(w.chunks, Chunk{
		Kind: vocab.KindFile, Name: path.Base(p), Parent: -1,
		StartLine: 1, EndLine: w.li.count(n), EndByte: n,
		SyntaxError: root.HasError(),
		ErrorDetail: errorDetail(errs, 0, n),
	})
	f.Chunks = w.chunks // for the caller's fallback to keep the error detail
	items := w.children(root)
	if !anyValid(items) {
		return f, false
	}
	w.container(items, 0, false)
	if w.chunks[0].Doc == "" {
		w.chunks[0].Doc = w.innerDoc(items)
	}
	if root.Type() == "ERROR" && !w.anyDef() {
		// Nothing but errors: windows will do better than one big chunk.
		return f, false
	}
	for i := range w.chunks {
		if c := &w.chunks[i]; c.SyntaxError && c.ErrorDetail == "" && !probe {
			c.ErrorDetail = errorDetail(errs, c.StartByte, c.EndByte)
		}
	}
	f.Chunks = w.chunks
	if f.check(n) != nil {
		return f, false
	}
	return f, true
}

// anyValid reports whether some top-level node is not an error; an empty
// file is valid.
func anyValid(items []item) bool {
	for _, it := range items {
		if it.typ != "ERROR" {
			return true
		}
	}
	return len(items) == 0
}

// children lists the named children of n.
func (w *walker) children(n *sitter.Node) []item {
	c := w.cur.at(n)
	defer w.cur.done(c)
	var items []item
	for ok := c.GoToFirstChild(); ok; ok = c.GoToNextSibling() {
		k := c.CurrentNode()
		if !k.IsNamed() {
			continue
		}
		items = append(items, item{n: k, typ: k.Type(), start: int(k.StartByte()), end: int(k.EndByte())})
	}
	return items
}

// container visits the children of a node that holds definitions: a file, a
// class body, a namespace or an ERROR node. An ERROR child that yields no
// chunk becomes an error window (errwin.go), unless the container lies in
// an ERROR node of the same parent, which then stands for the region.
func (w *walker) container(items []item, parent int, inClass bool) {
	if w.depth >= maxDepth {
		return
	}
	w.depth++
	defer func() { w.depth-- }()
	var open errRegion
	for i, it := range items {
		if isComment(it.typ) {
			continue
		}
		it.prev = items[:i]
		if it.typ != "ERROR" || w.errOf == parent+1 {
			w.g.visit(w, it, parent, inClass)
			continue
		}
		before, saved := len(w.chunks), w.errOf
		w.errOf = parent + 1
		w.g.visit(w, it, parent, inClass)
		w.errOf = saved
		if len(w.chunks) == before {
			prevEnd := 0
			if i > 0 {
				prevEnd = items[i-1].end
			}
			open = w.errorWindow(open, it, prevEnd, parent)
		}
	}
}

// into visits the children of node n (if any) as a container.
func (w *walker) into(n *sitter.Node, parent int, inClass bool) {
	if n != nil {
		w.container(w.children(n), parent, inClass)
	}
}

// add appends a chunk for [start, end) and returns its index.
func (w *walker) add(kind, name string, parent, start, end int, sig, doc string, n *sitter.Node) int {
	sl, el := w.li.lines(start, end)
	w.chunks = append(w.chunks, Chunk{
		Kind: kind, Name: name, Parent: parent,
		Signature: sig, Doc: doc,
		StartLine: sl, EndLine: el, StartByte: start, EndByte: end,
		SyntaxError: n != nil && n.HasError(),
	})
	i := len(w.chunks) - 1
	if kind == vocab.KindFunction || kind == vocab.KindMethod {
		w.blocks(n, i)
	}
	return i
}

// text returns the source of n, "" for nil.
func (w *walker) text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return string(w.src[n.StartByte():n.EndByte()])
}

// sig is the whitespace-collapsed source from start up to the body of n (the
// whole of n when it has no body field).
func (w *walker) sig(start int, n *sitter.Node) string {
	end := int(n.EndByte())
	if b := n.ChildByFieldName("body"); b != nil {
		end = int(b.StartByte())
	}
	if end < start {
		return ""
	}
	return strings.TrimSuffix(collapse(w.src[start:end]), ";")
}
