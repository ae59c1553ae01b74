// Package web serves bcindex as a local web page: search with the revision
// picker and filters, hits with highlighted snippets, an exact mode (every
// line matching a fixed string or regex, as git grep finds them, grouped by
// file and paged), a file view at any revision, and the log timeline drawn
// as a chart.
//
// Pages are rendered on the server from embedded html/template files with
// one embedded style sheet: no JavaScript, nothing fetched from elsewhere, so
// the page works offline and every control is a link or a form field that a
// keyboard reaches with Tab. The server only reads: it answers GET and HEAD,
// reads files under the path rules the MCP tools follow too (package
// internal/safepath), and refuses requests whose Host is not the address it
// listens on when that is loopback, so that another web site cannot reach it
// through DNS rebinding.
package web
