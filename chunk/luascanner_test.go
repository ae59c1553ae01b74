package chunk

import (
	"reflect"
	"testing"
)

// TestLuaParseIgnoresThePreviousParse: a Lua file chunks the same
// whatever Lua file was parsed before it (the grammar's scanner keeps its
// state in C globals that each parse resets).
func TestLuaParseIgnoresThePreviousParse(t *testing.T) {
	files := []string{
		"-- A note about the module.\n-- It says: don't panic, it's fine.\n",
		"---@brief\n--- Call it directly:\n--- :lua require('m').run()\n",
		"local M = {}\n\n-- run runs it.\nfunction M.run(x)\n  return x\nend\n\nreturn M\n",
		"local s = [==[\nlong ]] string\n]==]\nlocal t = 'x' .. \"y\"\n",
	}
	before := []string{"s = 'ok'\n", "s = 'open\n", "s = [[open\n", "--[==[ open\n", "s = \"open\n", "t = [=[ a ]=]\n"}
	for _, src := range files {
		Split("first.lua", []byte("y = 1\n"))
		want := Split("m.lua", []byte(src))
		for _, b := range before {
			Split("before.lua", []byte(b))
			if got := Split("m.lua", []byte(src)); !reflect.DeepEqual(got, want) {
				t.Errorf("after a parse of %q, %q chunks as %d chunks with %d syntax errors, not %d with %d",
					b, src, len(got.Chunks), got.SyntaxErrors, len(want.Chunks), want.SyntaxErrors)
			}
		}
	}
}
