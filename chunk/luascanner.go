package chunk

// The Lua grammar's external scanner (go-tree-sitter's lua/scanner.c)
// keeps its state in two C globals, and its deserialize leaves them as
// they are when a parse starts from no state, so each parse would begin
// with what the previous Lua parse left: a file's chunks would depend on
// which file was parsed before it. resetLuaScanner sets them to their
// initial values; Lua's parses are serial, and each runs it first.

/*
#include <stdint.h>

extern char ending_char;
extern uint8_t level_count;

static void bcindex_reset_lua_scanner(void) {
	ending_char = 0;
	level_count = 0;
}
*/
import "C"

func resetLuaScanner() { C.bcindex_reset_lua_scanner() }
