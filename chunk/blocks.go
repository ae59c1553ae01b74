package chunk

import (
	"strconv"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// Micro chunks: inside a function longer than microMinFunc lines, logic
// blocks of at least microMinBlock lines become "block" children named like
// "for-loop@L120". Functions over microTopOnly lines take only their
// outermost blocks; others take blocks nested two deep.
const (
	microMinFunc  = 50
	microTopOnly  = 500
	microMinBlock = 5
)

// blockLabels maps the node types of logic blocks, across grammars, to the
// label of their chunk names.
var blockLabels = map[string]string{
	// loops
	"for_statement": "for-loop", "for_in_statement": "for-loop", "for_range_loop": "for-loop",
	"enhanced_for_statement": "for-loop", "for_expression": "for-loop", "foreach_statement": "for-loop",
	"for_each_statement": "for-loop", "for": "for-loop", "for_in_clause": "",
	"while_statement": "while-loop", "while_expression": "while-loop", "do_statement": "while-loop",
	"do_while_statement": "while-loop", "while": "while-loop", "until": "while-loop",
	"loop_expression": "loop", "repeat_statement": "while-loop", "repeat_while_statement": "while-loop",
	"c_style_for_statement": "for-loop",
	// conditionals
	"if_statement": "if", "if_expression": "if", "if": "if", "unless": "if", "guard_statement": "if",
	// switch / match
	"switch_statement": "switch", "expression_switch_statement": "switch", "type_switch_statement": "switch",
	"select_statement": "select", "switch_expression": "switch", "match_expression": "match",
	"match_statement": "match", "when_expression": "when", "case_statement": "case", "case": "case",
	"match_block": "", "case_expression": "case",
	// exceptions and resources
	"try_statement": "try", "try_expression": "try", "try_with_resources_statement": "try",
	"begin": "try", "with_statement": "with", "using_statement": "using", "lock_statement": "lock",
	"defer_statement": "defer",
	// closures
	"func_literal": "closure", "lambda": "closure", "arrow_function": "closure",
	"function_expression": "closure", "closure_expression": "closure", "lambda_expression": "closure",
	"lambda_literal": "closure", "anonymous_function": "closure", "anonymous_function_creation_expression": "closure",
	"do_block": "closure", "anonymous_method_expression": "closure",
}

// blocks adds the micro chunks of function node fn, chunk parent.
func (w *walker) blocks(fn *sitter.Node, parent int) {
	if fn == nil {
		return
	}
	c := w.chunks[parent]
	lines := c.EndLine - c.StartLine + 1
	if lines <= microMinFunc {
		return
	}
	depth := 2
	if lines > microTopOnly {
		depth = 1
	}
	w.blockWalk(fn, parent, depth, 0)
}

// blockWalk looks for blocks among the descendants of n.
func (w *walker) blockWalk(n *sitter.Node, parent, depth, level int) {
	if level > 200 { // pathological nesting
		return
	}
	cur := w.cur.at(n)
	defer w.cur.done(cur)
	for ok := cur.GoToFirstChild(); ok; ok = cur.GoToNextSibling() {
		k := cur.CurrentNode()
		if !k.IsNamed() {
			continue
		}
		s, e := int(k.StartByte()), int(k.EndByte())
		// A node may take in trailing comments its parent's chunk leaves
		// out (langSpec.codeEnds).
		e = min(e, w.chunks[parent].EndByte)
		if e <= s {
			continue
		}
		sl, el := w.li.lines(s, e)
		if el-sl+1 < microMinBlock {
			continue // too small to hold a block
		}
		label := blockLabels[k.Type()]
		if label == "" {
			w.blockWalk(k, parent, depth, level+1)
			continue
		}
		end := s
		for end < e && w.src[end] != '\n' {
			end++
		}
		i := w.add(vocab.KindBlock, label+"@L"+strconv.Itoa(sl), parent, s, e, collapse(w.src[s:end]), "", k)
		if depth > 1 {
			w.blockWalk(k, i, depth-1, level+1)
		}
	}
}
