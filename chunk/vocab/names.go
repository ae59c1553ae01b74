package vocab

import (
	"slices"
	"strings"
)

// Languages lists, sorted, every language name a chunk can carry: the
// values of the extension, base-name and shebang tables, and "text".
func Languages() []string {
	seen := map[string]bool{"text": true}
	for _, m := range []map[string]string{extLanguages, nameLanguages, shebangLanguages} {
		for _, l := range m {
			seen[l] = true
		}
	}
	out := make([]string, 0, len(seen))
	for l := range seen {
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

// Kinds lists, sorted, every kind a chunk can have.
func Kinds() []string {
	out := []string{KindFile, KindFunction, KindMethod, KindClass, KindType, KindInterface, KindStruct, KindEnum,
		KindSection, KindWindow, KindBlock, KindKey, KindParagraph, KindTrait, KindModule, KindImpl, KindConst, KindVar,
		KindTable, KindStage}
	slices.Sort(out)
	return out
}

// KnownName reports whether name is in names, ignoring case, as the
// --lang and --kind filters compare.
func KnownName(names []string, name string) bool {
	return slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, name) })
}
