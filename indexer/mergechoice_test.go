package indexer

import (
	"fmt"
	"slices"
	"testing"
)

func TestMergeChoice(t *testing.T) {
	ids := func(n int) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf("%08d", i+1))
		}
		return out
	}
	cases := []struct {
		name string
		rows []int
		want []string
	}{
		{"eight small: none", []int{5, 4, 3, 2, 1, 6, 7, 8}, nil},
		{"nine small: all but the four largest, smallest first", []int{50, 10, 90, 30, 20, 70, 60, 40, 80},
			[]string{"00000002", "00000005", "00000004", "00000008", "00000001"}},
		{"full ones do not count", []int{fullRows, 10, fullRows + 5, 20, maxMergeRows, 30, 40, 50, 60, 70}, nil},
		{"within maxMergeRows", []int{fullRows - 1, fullRows - 2, 10, fullRows - 3, fullRows - 4, 20, 30, 40, 50},
			[]string{"00000003", "00000006", "00000007", "00000008", "00000009"}},
		{"a merge stops at maxMergeRows", []int{fullRows - 1, fullRows - 2, fullRows - 3, fullRows - 4, fullRows - 5, fullRows - 6, fullRows - 7, fullRows - 8, fullRows - 9},
			[]string{"00000009", "00000008"}},
	}
	for _, c := range cases {
		if got := mergeChoice(ids(len(c.rows)), c.rows, maxMergeRows); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestMergeChoiceBoundsLongHistories publishes 2,000 segments of 20k to
// 300k rows, merging after each as the writer does: no merge writes more
// than maxMergeRows rows, and the segments left number at most the rows'
// share of fullRows plus maxSegments.
func TestMergeChoiceBoundsLongHistories(t *testing.T) {
	var ids []string
	var rows []int
	next, total, largest := 1, 0, 0
	for i := range 2000 {
		n := 20_000 + (i*7919)%280_000
		ids, rows = append(ids, fmt.Sprint(next)), append(rows, n)
		next++
		total += n
		pick := mergeChoice(ids, rows, maxMergeRows)
		if len(pick) == 1 {
			t.Fatalf("publish %d: a merge of one segment", i)
		}
		merged := 0
		for _, id := range pick {
			at := slices.Index(ids, id)
			merged += rows[at]
			ids, rows = slices.Delete(ids, at, at+1), slices.Delete(rows, at, at+1)
		}
		if merged > 0 {
			ids, rows = append(ids, fmt.Sprint(next)), append(rows, merged)
			next++
		}
		largest = max(largest, merged)
		if merged > maxMergeRows {
			t.Fatalf("publish %d: a merge of %d rows, over %d", i, merged, maxMergeRows)
		}
	}
	if limit := total/fullRows + maxSegments; len(ids) > limit {
		t.Errorf("%d segments for %d rows, want at most %d", len(ids), total, limit)
	}
	if largest == 0 {
		t.Error("nothing was merged")
	}
}
