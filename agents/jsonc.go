package agents

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/tailscale/hujson"
)

// errNotOurs reports an entry named bcindex that differs from the one
// install writes: someone wrote or changed it, so it is left alone.
var errNotOurs = errors.New("an entry named " + ServerName + " is there already, not as bcindex writes it; left as it is")

// jsonState is what a JSON(C) file holds of ours.
type jsonState int

const (
	absent  jsonState = iota
	ours              // the entry install writes
	foreign           // an entry named bcindex, different
)

// parseJSON parses a JSON or JSON-with-comments file; an empty or missing
// one is an empty object.
func parseJSON(data []byte) (hujson.Value, *hujson.Object, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}\n")
	}
	v, err := hujson.Parse(data)
	if err != nil {
		return v, nil, err
	}
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return v, nil, fmt.Errorf("the file holds a JSON %s, not an object", kindName(v.Value.Kind()))
	}
	return v, obj, nil
}

// member returns the index of the member named name, or -1.
func member(obj *hujson.Object, name string) int {
	for i, m := range obj.Members {
		if lit, ok := m.Name.Value.(hujson.Literal); ok && lit.String() == name {
			return i
		}
	}
	return -1
}

// servers returns the object at key, or nil when there is none.
func servers(root *hujson.Object, key string) (*hujson.Object, error) {
	i := member(root, key)
	if i < 0 {
		return nil, nil
	}
	obj, ok := root.Members[i].Value.Value.(*hujson.Object)
	if !ok {
		return nil, fmt.Errorf("%q is a JSON %s, not an object", key, kindName(root.Members[i].Value.Value.Kind()))
	}
	return obj, nil
}

// sameJSON compares a parsed value with compact JSON, as data.
func sameJSON(v hujson.Value, want string) bool {
	std, err := hujson.Standardize(v.Clone().Pack())
	if err != nil {
		return false
	}
	var a, b any
	if json.Unmarshal(std, &a) != nil || json.Unmarshal([]byte(want), &b) != nil {
		return false
	}
	return reflect.DeepEqual(a, b)
}

// stateJSON says whether data holds a's entry.
func stateJSON(a Agent, data []byte) (jsonState, error) {
	_, root, err := parseJSON(data)
	if err != nil {
		return absent, err
	}
	srv, err := servers(root, a.Key)
	if err != nil || srv == nil {
		return absent, err
	}
	i := member(srv, ServerName)
	switch {
	case i < 0:
		return absent, nil
	case sameJSON(srv.Members[i].Value, a.Entry):
		return ours, nil
	}
	return foreign, nil
}

// indentUnit guesses the file's indentation from its first member.
func indentUnit(root *hujson.Object) string {
	if len(root.Members) == 0 {
		return "  "
	}
	b := string(root.Members[0].Name.BeforeExtra)
	if i := strings.LastIndexByte(b, '\n'); i >= 0 {
		if u := b[i+1:]; u != "" && strings.Trim(u, " \t") == "" {
			return u
		}
	}
	return "  "
}

// addMember appends name: value (compact JSON) to obj, at depth (the
// root's members are at depth 1), laid out like the file: one member a
// line, indented, a trailing comma kept if the last member had one.
func addMember(obj *hujson.Object, name, value string, depth int, unit string) error {
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(value), strings.Repeat(unit, depth), unit); err != nil {
		return err
	}
	v, err := hujson.Parse(buf.Bytes())
	if err != nil {
		return err
	}
	v.BeforeExtra = hujson.Extra(" ")
	nameLit, _ := json.Marshal(name)
	m := hujson.ObjectMember{Name: hujson.Value{BeforeExtra: hujson.Extra("\n" + strings.Repeat(unit, depth)), Value: hujson.Literal(nameLit)}, Value: v}
	trailing := len(obj.Members) > 0 && obj.Members[len(obj.Members)-1].Value.AfterExtra != nil
	if trailing {
		m.Value.AfterExtra = hujson.Extra{}
	}
	if len(obj.Members) > 0 {
		// A comment on the last member's line ("x": 1 // why) stays on
		// that line: it goes before the new member, after the comma.
		if head, rest, ok := lineComment(obj.AfterExtra); ok {
			m.Name.BeforeExtra = append(head, m.Name.BeforeExtra...)
			obj.AfterExtra = rest
		}
	}
	if len(obj.Members) == 0 && !bytes.Contains(obj.AfterExtra, []byte("\n")) {
		obj.AfterExtra = hujson.Extra("\n" + strings.Repeat(unit, depth-1))
	}
	obj.Members = append(obj.Members, m)
	return nil
}

// installJSON returns data with a's entry added; unchanged when it is
// there already.
func installJSON(a Agent, data []byte) ([]byte, error) {
	st, err := stateJSON(a, data)
	if err != nil || st == ours {
		return data, err
	}
	if st == foreign {
		return data, errNotOurs
	}
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{" + a.Skeleton + "}\n")
		if a.Skeleton != "" {
			var buf bytes.Buffer
			json.Indent(&buf, data, "", "  ")
			data = buf.Bytes()
		}
	}
	v, root, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	unit := indentUnit(root)
	srv, err := servers(root, a.Key)
	if err != nil {
		return nil, err
	}
	if srv == nil {
		if err := addMember(root, a.Key, "{}", 1, unit); err != nil {
			return nil, err
		}
		srv = root.Members[len(root.Members)-1].Value.Value.(*hujson.Object)
	}
	if err := addMember(srv, ServerName, a.Entry, 2, unit); err != nil {
		return nil, err
	}
	return v.Pack(), nil
}

// uninstallJSON returns data without a's entry, and without the servers
// object or the file's content when nothing else is left in them (nil:
// remove the file).
func uninstallJSON(a Agent, data []byte) ([]byte, error) {
	st, err := stateJSON(a, data)
	if err != nil || st == absent {
		return data, err
	}
	if st == foreign {
		return data, errNotOurs
	}
	v, root, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	srv, _ := servers(root, a.Key)
	removeMember(srv, member(srv, ServerName))
	if len(srv.Members) == 0 && !hasComment(srv.AfterExtra) {
		removeMember(root, member(root, a.Key))
	}
	if len(root.Members) == 0 || a.Skeleton != "" && len(root.Members) == 1 && sameJSON(hujson.Value{Value: &hujson.Object{Members: root.Members}}, "{"+a.Skeleton+"}") {
		if !hasComment(v.BeforeExtra) && !hasComment(v.AfterExtra) && !hasComment(root.AfterExtra) {
			return nil, nil
		}
	}
	return v.Pack(), nil
}

// removeMember drops obj's member i, keeping the object's trailing-comma
// style; when the object empties, the whitespace before its closing brace
// goes back to what an empty object had.
func removeMember(obj *hujson.Object, i int) {
	if i < 0 {
		return
	}
	last := i == len(obj.Members)-1
	after := obj.Members[i].Value.AfterExtra // non-nil: a trailing comma follows
	if i > 0 {
		// The previous member's line comment, which addMember put before
		// this one, goes back where it was.
		if head, _, ok := lineComment(obj.Members[i].Name.BeforeExtra); ok {
			if last {
				obj.AfterExtra = append(head, obj.AfterExtra...)
			} else {
				next := &obj.Members[i+1].Name.BeforeExtra
				*next = append(head, *next...)
			}
		}
	}
	obj.Members = append(obj.Members[:i], obj.Members[i+1:]...)
	if n := len(obj.Members); last && n > 0 {
		obj.Members[n-1].Value.AfterExtra = after
	}
	if len(obj.Members) == 0 && !hasComment(obj.AfterExtra) {
		obj.AfterExtra = nil
	}
}

// lineComment splits b, the space after a value, into the comments that
// start on the value's own line (a block comment with all its lines) and
// what follows from that line's end; ok is false when the value's line
// holds no comment or b has no line end after it.
func lineComment(b hujson.Extra) (head, rest hujson.Extra, ok bool) {
	seen := false
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '\n':
			if !seen {
				return nil, b, false
			}
			return append(hujson.Extra{}, b[:i]...), append(hujson.Extra{}, b[i:]...), true
		case bytes.HasPrefix(b[i:], []byte("//")):
			seen = true
			j := bytes.IndexByte(b[i:], '\n')
			if j < 0 {
				return nil, b, false
			}
			i += j - 1
		case bytes.HasPrefix(b[i:], []byte("/*")):
			seen = true
			j := bytes.Index(b[i+2:], []byte("*/"))
			if j < 0 {
				return nil, b, false
			}
			i += 2 + j + 1
		}
	}
	return nil, b, false
}

func hasComment(b hujson.Extra) bool {
	return bytes.Contains(b, []byte("//")) || bytes.Contains(b, []byte("/*"))
}

func kindName(k hujson.Kind) string {
	switch k {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case '0':
		return "number"
	case 't', 'f':
		return "boolean"
	}
	return "null"
}
