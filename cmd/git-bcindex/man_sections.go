package main

import (
	"reflect"
	"strings"

	"github.com/urfave/cli/v2"
)

// The man page is rendered from the commands' help through Markdown, where
// `*` and `<...>` are markup: manEscape escapes them in every usage text
// first, so that 'pkg/**/*.go' and refs/bcindex/<model> print as written.
// manSections adds what flags cannot say.

// manEscape escapes Markdown in the names, usages and descriptions of the
// app's commands and flags. It changes the app: call it only on an app that
// renders the man page and exits.
func manEscape(app *cli.App) {
	app.Usage = mdEscape(app.Usage)
	app.Description = mdEscape(app.Description)
	escapeFlags(app.Flags)
	// Each command once: urfave/cli shares its help command between apps
	// and may list it under itself, so the tree can hold a cycle.
	seen := map[*cli.Command]bool{}
	var walk func([]*cli.Command)
	walk = func(cmds []*cli.Command) {
		for _, c := range cmds {
			if seen[c] {
				continue
			}
			seen[c] = true
			c.Usage, c.Description, c.ArgsUsage, c.UsageText = mdEscape(c.Usage), mdEscape(c.Description), mdEscape(c.ArgsUsage), mdEscape(c.UsageText)
			escapeFlags(c.Flags)
			walk(c.Subcommands)
		}
	}
	walk(app.Commands)
}

// escapeFlags escapes the Usage field of every flag, whatever its type,
// through the onceFlag wrapper.
func escapeFlags(flags []cli.Flag) {
	for _, f := range flags {
		if o, ok := f.(onceFlag); ok {
			f = o.fullFlag
		}
		v := reflect.ValueOf(f)
		if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
			continue
		}
		if u := v.Elem().FieldByName("Usage"); u.IsValid() && u.Kind() == reflect.String && u.CanSet() {
			u.SetString(mdEscape(u.String()))
		}
	}
}

// mdEscape escapes the characters Markdown would read as emphasis or HTML,
// leaving `code` spans (which urfave/cli uses for placeholders) alone.
func mdEscape(s string) string {
	var b strings.Builder
	inCode := false
	for _, r := range s {
		switch {
		case r == '`':
			inCode = !inCode
		case inCode:
		case r == '*' || r == '_' || r == '<' || r == '>' || r == '[' || r == ']':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// manSections returns the EXIT STATUS, ENVIRONMENT, CONFIGURATION and
// EXAMPLES sections, in roff.
func manSections() string {
	var b strings.Builder
	section := func(title string, items ...[2]string) {
		b.WriteString(".SH " + title + "\n")
		for _, it := range items {
			b.WriteString(".TP\n\\fB" + roffEscape(it[0]) + "\\fR\n" + roffEscape(it[1]) + "\n")
		}
		b.WriteString("\n")
	}
	section("EXIT STATUS",
		[2]string{"0", "Success; search, grep, log and similar found at least one hit."},
		[2]string{"1", "search, grep, log or similar found nothing (as git grep), and printed nothing."},
		[2]string{"2", "An error: bad usage, unknown revision, no or damaged index, embedder failure. The message says what to do next."},
		[2]string{"130", "Interrupted. What was indexed so far is kept; run the command again to resume."},
	)
	section("ENVIRONMENT",
		[2]string{"BCINDEX_API_KEY", "API key for the openai embedder (and compatible services). Keys are never read from git config."},
		[2]string{"OPENAI_API_KEY", "Used when BCINDEX_API_KEY is not set."},
		[2]string{"GIT_BCINDEX_SKIP", "When 1, the git hooks do nothing, for this command or this shell."},
		[2]string{"NO_COLOR", "When set, output is never coloured."},
		[2]string{"BCINDEX_CPUPROFILE", "Write a CPU profile of the command to this file, for benchmarks."},
		[2]string{"BCINDEX_MEMPROFILE", "Write the heap profile of the command's largest live heap to this file, for measurements."},
		[2]string{"BCINDEX_KERNEL", "generic, avx2 or avx512: the highest SIMD level the vector and embedding kernels may use (default: the best this CPU has; a level the CPU lacks is never used). git bcindex version shows the kernel in use; version --check compares every kernel with the portable one."},
		[2]string{"GOMEMLIMIT", "Soft limit of the Go heap (default 256MiB): the collector runs earlier as the heap nears it, which bounds the peak memory of a large index."},
	)
	section("CONFIGURATION",
		[2]string{"bcindex.embedder", "builtin (default: offline, in the binary), openai, ollama or model2vec. Changing it (or bcindex.model) computes the new model's vectors at the next search; status shows the coverage per model."},
		[2]string{"bcindex.model", "The provider's model name; for model2vec the model directory; for builtin a model file written by bcindex-train adapt."},
		[2]string{"bcindex.endpoint", "API base URL of the openai or ollama embedder."},
		[2]string{"bcindex.dimensions", "Vector length requested from the service; needed for models bcindex does not know."},
		[2]string{"bcindex.concurrency", "Embedding requests in flight (default 4)."},
		[2]string{"bcindex.vectors", "false turns the vector arm off: nothing is embedded or sent; symbol and BM25 search still work."},
		[2]string{"bcindex.maxFileSize", "Larger blobs are not indexed (default 1m; k, m and g suffixes)."},
		[2]string{"bcindex.hooks", "false makes the installed hooks do nothing."},
	)
	b.WriteString(".SH EXAMPLES\n")
	for _, ex := range [][2]string{
		{"git bcindex search \"retry with backoff\"", "Search HEAD, indexing what is new first."},
		{"git bcindex search --mode symbol --path 'pkg/**/*.go' OpenRepository", "A symbol, in Go files under pkg/."},
		{"git bcindex search --ref 'HEAD@{1}' --json parseConfig", "Search where HEAD was before the last switch, as JSON Lines."},
		{"git bcindex grep -w -i 'retry' --all-branches -- pkg/", "Every line holding the word, in every branch, from the index."},
		{"git bcindex log \"rate limiting middleware\"", "When matching code appeared, changed, moved or vanished."},
		{"git bcindex similar main..feature", "Code like what the branch changed, that it did not touch."},
		{"git bcindex push origin; git bcindex fetch origin", "Share the index through refs/bcindex/<model>."},
		{"git bcindex hooks install", "Keep the index fresh after commits, merges and checkouts."},
	} {
		b.WriteString(".PP\n" + roffEscape(ex[1]) + "\n.PP\n.RS 4\n.EX\n" + roffEscape(ex[0]) + "\n.EE\n.RE\n")
	}
	return b.String()
}

// roffEscape escapes backslashes, and a leading dot or quote that roff
// would read as a request.
func roffEscape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
