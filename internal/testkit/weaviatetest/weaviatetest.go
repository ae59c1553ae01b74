// Package weaviatetest starts real Weaviate servers on loopback for tests:
// one node, or a cluster of several joined by Raft.
package weaviatetest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Version is the server release the tests run against; .ci/run builds it.
const Version = "v1.35.2"

// EnvBinary names the variable that may point at the server binary.
const EnvBinary = "BCINDEX_WEAVIATE_SERVER"

// Binary returns the path of weaviate-server: $BCINDEX_WEAVIATE_SERVER, or
// weaviate-server in $GOBIN, $GOPATH/bin or ~/go/bin (where .ci/run
// installs it), or on PATH.
func Binary() (string, error) {
	if p := os.Getenv(EnvBinary); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%s: %w", EnvBinary, p, err)
		}
		return p, nil
	}
	var dirs []string
	if d := os.Getenv("GOBIN"); d != "" {
		dirs = append(dirs, d)
	}
	if d := os.Getenv("GOPATH"); d != "" {
		dirs = append(dirs, filepath.Join(strings.Split(d, string(os.PathListSeparator))[0], "bin"))
	}
	if h, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(h, "go", "bin"))
	}
	for _, d := range dirs {
		p := filepath.Join(d, "weaviate-server")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return exec.LookPath("weaviate-server")
}

// Need returns the binary or skips the test with one line saying how to
// get it.
func Need(t testing.TB) string {
	t.Helper()
	p, err := Binary()
	if err != nil && os.Getenv(EnvBinary) != "" {
		t.Fatal(err) // CI built it: a missing binary is a failure, not a skip
	}
	if err != nil {
		t.Skipf("weaviate-server not found; get it with: GOBIN=$(go env GOPATH)/bin go install github.com/weaviate/weaviate/cmd/weaviate-server@%s (or set %s)", Version, EnvBinary)
	}
	return p
}

// Cluster is a set of nodes started together.
type Cluster struct {
	Nodes []*Node
}

// URL is the first node's address.
func (c *Cluster) URL() string { return c.Nodes[0].URL }

// Start starts n nodes (1 or more) on loopback and waits until every one
// is ready; they are killed when the test ends. With n > 1 the nodes form
// one Raft cluster (RAFT_BOOTSTRAP_EXPECT=n). env (KEY=value) is added to
// every node's environment, after and over the defaults. When a node finds
// one of its ports taken, the nodes start again on other ports.
func Start(t testing.TB, n int, env ...string) *Cluster {
	t.Helper()
	bin := Need(t)
	for attempt := 1; ; attempt++ {
		c, err := start(t, bin, n, env)
		if err == nil {
			return c
		}
		if attempt == 3 || !errors.Is(err, errPortTaken) {
			t.Fatal(err)
		}
		t.Logf("%v; starting again on other ports", err)
	}
}

// errPortTaken is a node's failure to bind one of its ports.
var errPortTaken = errors.New("a port was taken")

type ports struct{ gossip, raft, grpc, http int }

func pickAll(n int) ([]ports, error) {
	ps := make([]ports, n)
	for i := range ps {
		// The data port is the gossip port + 1 and the internal Raft RPC
		// port the Raft port + 1, as peers assume.
		var err error
		for _, f := range []struct {
			p    *int
			pair bool
		}{{&ps[i].gossip, true}, {&ps[i].raft, true}, {&ps[i].grpc, false}, {&ps[i].http, false}} {
			if *f.p, err = pickPorts(f.pair); err != nil {
				return nil, err
			}
		}
	}
	return ps, nil
}

// start makes one attempt at Start; on failure it kills what it started.
func start(t testing.TB, bin string, n int, env []string) (*Cluster, error) {
	base := t.TempDir()
	ps, err := pickAll(n)
	if err != nil {
		return nil, err
	}
	var join []string
	for i := range ps {
		join = append(join, fmt.Sprintf("node%d:%d", i+1, ps[i].raft))
	}
	c := &Cluster{}
	for i, p := range ps {
		nd := &Node{Name: fmt.Sprintf("node%d", i+1), URL: fmt.Sprintf("http://127.0.0.1:%d", p.http), GRPC: fmt.Sprintf("127.0.0.1:%d", p.grpc), bin: bin,
			dir: filepath.Join(base, fmt.Sprintf("node%d", i+1)), log: filepath.Join(base, fmt.Sprintf("node%d.log", i+1)),
			own: []int{p.http, p.grpc, p.gossip, p.gossip + 1, p.raft, p.raft + 1}}
		nd.env = append(os.Environ(), nodeEnv(nd, p, n, join)...)
		if i > 0 {
			nd.env = append(nd.env, fmt.Sprintf("CLUSTER_JOIN=127.0.0.1:%d", ps[0].gossip))
		}
		nd.env = append(nd.env, env...)
		nd.args = []string{"--host", "127.0.0.1", "--port", fmt.Sprint(p.http), "--scheme", "http"}
		c.Nodes = append(c.Nodes, nd)
	}
	fail := func(err error) (*Cluster, error) {
		for _, nd := range c.Nodes {
			nd.Kill()
			if nd.portTaken() && !errors.Is(err, errPortTaken) {
				err = fmt.Errorf("%s: %w: %v", nd.Name, errPortTaken, err)
			}
		}
		return nil, err
	}
	for i, nd := range c.Nodes {
		if err := nd.Start(); err != nil {
			return fail(err)
		}
		t.Cleanup(func() {
			nd.Kill()
			if t.Failed() {
				t.Logf("%s log (end):\n%s", nd.Name, nd.logTail(3000))
			}
		})
		if i == 0 && n > 1 {
			// The others join through node1's gossip port and give up
			// when it is not listening yet.
			if err := waitListening(fmt.Sprintf("127.0.0.1:%d", ps[0].gossip), 2*time.Minute); err != nil {
				return fail(err)
			}
		}
	}
	for _, nd := range c.Nodes {
		if err := nd.WaitReady(3 * time.Minute); err != nil {
			return fail(err)
		}
	}
	return c, nil
}

// nodeEnv is a node's environment for the ports p, in a cluster of n
// nodes whose Raft addresses are join.
func nodeEnv(nd *Node, p ports, n int, join []string) []string {
	env := []string{
		"AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED=true",
		"PERSISTENCE_DATA_PATH=" + nd.dir,
		"DEFAULT_VECTORIZER_MODULE=none",
		"CLUSTER_HOSTNAME=" + nd.Name,
		"CLUSTER_ADVERTISE_ADDR=127.0.0.1", // else it picks another interface and dies
		"CLUSTER_BIND_ADDR=127.0.0.1",
		fmt.Sprintf("CLUSTER_GOSSIP_BIND_PORT=%d", p.gossip),
		fmt.Sprintf("CLUSTER_DATA_BIND_PORT=%d", p.gossip+1),
		fmt.Sprintf("RAFT_PORT=%d", p.raft),
		fmt.Sprintf("RAFT_INTERNAL_RPC_PORT=%d", p.raft+1),
		"RAFT_JOIN=" + strings.Join(join, ","),
		fmt.Sprintf("RAFT_BOOTSTRAP_EXPECT=%d", n),
		"DISABLE_TELEMETRY=true",
		// BM25 without BlockMax WAND, whose pruning in this version
		// skips rare query terms' matches (cluster.Client.Warning).
		"USE_INVERTED_SEARCHABLE=false",
		fmt.Sprintf("GRPC_PORT=%d", p.grpc),
		"LOG_LEVEL=warning",
		"GOMAXPROCS=1", // the machine is shared; a node needs little
	}
	if n > 1 {
		// Nodes sharing one address: peers' data and Raft RPC ports are
		// then their gossip and Raft ports + 1, not this node's own.
		// A restarted node is caught up by async replication; compare
		// replicas every 5 s rather than 30 s so a test waits less.
		env = append(env, "CLUSTER_IN_LOCALHOST=true",
			"ASYNC_REPLICATION_FREQUENCY=5s", "ASYNC_REPLICATION_PROPAGATION_DELAY=5s")
	}
	return env
}
