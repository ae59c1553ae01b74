// Package tokens measures what an agent pays in tokens to reach the code
// that answers a question: the MCP search tool's answers, read hit by
// hit, against "grep the query's keywords, then read the matching files
// whole", on the suites of package relevance (semble's shape), the way
// semble's token_efficiency.py counts it — tokens until the first result
// covering a target (32k when none does) and the share of targets covered
// within 500, 1k, 2k and 4k tokens — with tokens counted as characters /
// 4.
package tokens
