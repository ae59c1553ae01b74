package tokens

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bcindex/bcindex/bench/relevance"
	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/mcp"
)

// unit is one result as an agent reads it: where it points, and what it
// costs.
type unit struct {
	Path       string // as the suite writes targets
	Start, End int
	Chars      int
	Also       [][2]int
}

// client is an MCP client of a server over one built repository, in this
// process.
type client struct {
	cs  *sdk.ClientSession
	ss  *sdk.ServerSession
	srv *mcp.Server
}

func connect(ctx context.Context, r *relevance.Repo) (*client, error) {
	srv := mcp.NewServer(r.Git(), mcp.Options{Embedder: embed.Default(), Version: "bench", Ensure: indexer.Ensurer(indexer.Options{Embedder: embed.Default()})})
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.SDK().Connect(ctx, st, nil)
	if err != nil {
		return nil, err
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bcindex-bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		ss.Close()
		srv.Close()
		return nil, err
	}
	return &client{cs: cs, ss: ss, srv: srv}, nil
}

func (c *client) Close() {
	c.cs.Close()
	c.ss.Wait()
	c.srv.Close() // the index views its tools kept open
}

// header is the first line of a hit in a search answer, "N. path:a-b",
// or a line of its tail of further files, "path:a-b".
var header = regexp.MustCompile(`(?m)^(\d+\. )?([^\s\[]\S*?):(\d+)-(\d+)\b`)

// searchUnits asks the search tool with args and cuts its text answer
// into one unit per hit: from its header to the next one. What precedes
// the first hit and follows the last counts with the first.
func (c *client) searchUnits(ctx context.Context, r *relevance.Repo, query string, args map[string]any) ([]unit, string, error) {
	a := map[string]any{"query": query, "rev": r.Rev(), "no_index": true}
	for k, v := range args {
		a[k] = v
	}
	res, err := c.cs.CallTool(ctx, &sdk.CallToolParams{Name: "search", Arguments: a})
	if err != nil {
		return nil, "", fmt.Errorf("search %q: %w", query, err)
	}
	var text strings.Builder
	for _, ct := range res.Content {
		if tc, ok := ct.(*sdk.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if res.IsError {
		return nil, text.String(), nil
	}
	return cut(r, text.String()), text.String(), nil
}

// cut splits an answer at its hits' headers.
func cut(r *relevance.Repo, text string) []unit {
	locs := header.FindAllStringSubmatchIndex(text, -1)
	var out []unit
	for i, l := range locs {
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		start := l[0]
		if i == 0 {
			start = 0
		}
		a, _ := strconv.Atoi(text[l[6]:l[7]])
		b, _ := strconv.Atoi(text[l[8]:l[9]])
		u := unit{Path: r.RepoPath(text[l[4]:l[5]]), Start: a, End: b, Chars: end - start}
		line := text[l[0]:]
		line = line[:strings.IndexByte(line+"\n", '\n')]
		if i := strings.Index(line, "(also "); i >= 0 {
			for _, sp := range strings.Split(strings.TrimSuffix(line[i+6:], ")"), ", ") {
				var x, y int
				fmt.Sscanf(sp, "%d-%d", &x, &y)
				u.Also = append(u.Also, [2]int{x, y})
			}
		}
		out = append(out, u)
	}
	return out
}

// files is the text of every indexed file of a repository, by tree path.
type files map[string][]byte

func readFiles(ctx context.Context, r *relevance.Repo) (files, error) {
	repo := r.Git()
	c, err := repo.Resolve(r.Rev())
	if err != nil {
		return nil, err
	}
	l, err := repo.Listing(c.Tree)
	if err != nil {
		return nil, err
	}
	indexed := map[string]bool{}
	for _, s := range r.Spans {
		indexed[s.Path] = true
	}
	out := files{}
	for _, e := range l.Entries {
		if !indexed[r.RepoPath(e.Path)] {
			continue
		}
		data, err := repo.ReadBlob(e.Blob)
		if err != nil {
			return nil, err
		}
		out[e.Path] = data
	}
	return out, ctx.Err()
}

// maxMatches is how many matching lines of one keyword count, as semble
// caps ripgrep's output.
const maxMatches = 500

// grepUnits is the baseline: files ranked by how many of the query's
// keywords they contain (a case-insensitive fixed-string match, as
// ripgrep -F -i), ties in path order, each read whole.
func grepUnits(r *relevance.Repo, fs files, query string) []unit {
	kws := keywords(query)
	if len(kws) == 0 {
		kws = []string{query}
	}
	paths := make([]string, 0, len(fs))
	for p := range fs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	count := map[string]int{}
	for _, kw := range kws {
		needle := bytes.ToLower([]byte(kw))
		n := 0
		for _, p := range paths {
			if n >= maxMatches {
				break
			}
			hits := 0
			for _, line := range bytes.Split(fs[p], []byte("\n")) {
				if bytes.Contains(bytes.ToLower(line), needle) {
					hits++
				}
			}
			if hits > 0 {
				count[p]++
				n += hits
			}
		}
	}
	ranked := make([]string, 0, len(count))
	for p := range count {
		ranked = append(ranked, p)
	}
	sort.Slice(ranked, func(i, j int) bool {
		if count[ranked[i]] != count[ranked[j]] {
			return count[ranked[i]] > count[ranked[j]]
		}
		return ranked[i] < ranked[j]
	})
	out := make([]unit, len(ranked))
	for i, p := range ranked {
		out[i] = unit{Path: r.RepoPath(p), Start: 1, End: bytes.Count(fs[p], []byte("\n")) + 1, Chars: len(fs[p])}
	}
	return out
}
