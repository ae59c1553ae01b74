// Package query parses a search query once into the value every part of a
// search reads: the symbol, text and vector arms, fusion, the exact tier,
// the highlighters of the command line and the web page, and the cluster's
// hybrid query. Before it, each of them cut the user's text up with its
// own rules; now the rules live here, each field says which reader it is
// for, and a front end parses the text once and hands the value down.
//
// The syntax is small and lenient. White space separates words. A pair of
// double quotes encloses a phrase; a query that is one phrase asks for its
// inside verbatim. A double quote with no partner is an ordinary
// character, so a pasted sentence with a stray quote still searches
// rather than failing. There are no inline filters: path, language and
// kind are options of the search, not part of its text. The only error is
// a query with nothing to search for.
package query
