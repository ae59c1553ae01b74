// Package weaviatetest starts real Weaviate servers on loopback for tests:
// one node, or a cluster of several joined by Raft.
package weaviatetest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
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

// Node is one server process.
type Node struct {
	Name string
	URL  string // http://127.0.0.1:PORT
	GRPC string // 127.0.0.1:PORT of its gRPC API
	dir  string
	env  []string
	args []string
	bin  string
	log  string

	mu  sync.Mutex
	cmd *exec.Cmd
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
// every node's environment, after and over the defaults.
func Start(t testing.TB, n int, env ...string) *Cluster {
	t.Helper()
	bin := Need(t)
	base := t.TempDir()
	type ports struct{ gossip, raft, grpc, http int }
	ps := make([]ports, n)
	for i := range ps {
		// The data port is the gossip port + 1 and the internal Raft RPC
		// port the Raft port + 1, as peers assume.
		ps[i] = ports{gossip: freePair(t), raft: freePair(t), grpc: freePort(t), http: freePort(t)}
	}
	var join []string
	for i := range ps {
		join = append(join, fmt.Sprintf("node%d:%d", i+1, ps[i].raft))
	}
	c := &Cluster{}
	for i, p := range ps {
		nd := &Node{Name: fmt.Sprintf("node%d", i+1), URL: fmt.Sprintf("http://127.0.0.1:%d", p.http), GRPC: fmt.Sprintf("127.0.0.1:%d", p.grpc), bin: bin,
			dir: filepath.Join(base, fmt.Sprintf("node%d", i+1)), log: filepath.Join(base, fmt.Sprintf("node%d.log", i+1))}
		nd.env = append(os.Environ(),
			"AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED=true",
			"PERSISTENCE_DATA_PATH="+nd.dir,
			"DEFAULT_VECTORIZER_MODULE=none",
			"CLUSTER_HOSTNAME="+nd.Name,
			"CLUSTER_ADVERTISE_ADDR=127.0.0.1", // else it picks another interface and dies
			"CLUSTER_BIND_ADDR=127.0.0.1",
			fmt.Sprintf("CLUSTER_GOSSIP_BIND_PORT=%d", p.gossip),
			fmt.Sprintf("CLUSTER_DATA_BIND_PORT=%d", p.gossip+1),
			fmt.Sprintf("RAFT_PORT=%d", p.raft),
			fmt.Sprintf("RAFT_INTERNAL_RPC_PORT=%d", p.raft+1),
			"RAFT_JOIN="+strings.Join(join, ","),
			fmt.Sprintf("RAFT_BOOTSTRAP_EXPECT=%d", n),
			"DISABLE_TELEMETRY=true",
			// BM25 without BlockMax WAND, whose pruning in this version
			// skips rare query terms' matches (cluster.Client.Warning).
			"USE_INVERTED_SEARCHABLE=false",
			fmt.Sprintf("GRPC_PORT=%d", p.grpc),
			"LOG_LEVEL=warning",
			"GOMAXPROCS=1", // the machine is shared; a node needs little
		)
		if n > 1 {
			// Nodes sharing one address: peers' data and Raft RPC ports are
			// then their gossip and Raft ports + 1, not this node's own.
			// A restarted node is caught up by async replication; compare
			// replicas every 5 s rather than 30 s so a test waits less.
			nd.env = append(nd.env, "CLUSTER_IN_LOCALHOST=true",
				"ASYNC_REPLICATION_FREQUENCY=5s", "ASYNC_REPLICATION_PROPAGATION_DELAY=5s")
		}
		if i > 0 {
			nd.env = append(nd.env, fmt.Sprintf("CLUSTER_JOIN=127.0.0.1:%d", ps[0].gossip))
		}
		nd.env = append(nd.env, env...)
		nd.args = []string{"--host", "127.0.0.1", "--port", fmt.Sprint(p.http), "--scheme", "http"}
		c.Nodes = append(c.Nodes, nd)
	}
	for i, nd := range c.Nodes {
		if err := nd.Start(); err != nil {
			t.Fatal(err)
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
				t.Fatal(err)
			}
		}
	}
	for _, nd := range c.Nodes {
		if err := nd.WaitReady(3 * time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// logTail is the last n bytes of the node's log.
func (nd *Node) logTail(n int) string {
	b, _ := os.ReadFile(nd.log)
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// Start (re)starts the node's process on its data directory and ports.
func (nd *Node) Start() error {
	nd.mu.Lock()
	defer nd.mu.Unlock()
	if err := os.MkdirAll(nd.dir, 0o755); err != nil {
		return err
	}
	logf, err := os.OpenFile(nd.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(nd.bin, nd.args...)
	cmd.Env, cmd.Stdout, cmd.Stderr = nd.env, logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return fmt.Errorf("start %s: %w", nd.Name, err)
	}
	nd.cmd = cmd
	go func() { cmd.Wait(); logf.Close() }()
	return nil
}

// Kill sends SIGKILL to the node and waits for it to die.
func (nd *Node) Kill() {
	nd.mu.Lock()
	defer nd.mu.Unlock()
	if nd.cmd == nil || nd.cmd.Process == nil {
		return
	}
	nd.cmd.Process.Signal(syscall.SIGKILL)
	for i := 0; i < 100; i++ {
		if nd.cmd.Process.Signal(syscall.Signal(0)) != nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	nd.cmd = nil
}

// WaitReady polls /v1/.well-known/ready until it answers 200.
func (nd *Node) WaitReady(limit time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, nd.URL+"/v1/.well-known/ready", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			tail, _ := os.ReadFile(nd.log)
			if len(tail) > 2000 {
				tail = tail[len(tail)-2000:]
			}
			return fmt.Errorf("%s at %s not ready after %s; log tail:\n%s", nd.Name, nd.URL, limit, tail)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func waitListening(addr string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("nothing listens at %s after %s", addr, limit)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// freePair returns a port p such that p and p+1 are both free now.
func freePair(t testing.TB) int {
	t.Helper()
	for i := 0; i < 50; i++ {
		p := freePort(t)
		if l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p+1)); err == nil {
			l.Close()
			return p
		}
	}
	t.Fatal("no two consecutive free ports")
	return 0
}

// RSS is the node's resident memory now, in bytes (0 when not running).
func (nd *Node) RSS() int64 { return nd.status("VmRSS:") }

// PeakRSS is the most resident memory the node has had, in bytes.
func (nd *Node) PeakRSS() int64 { return nd.status("VmHWM:") }

// CPU is the processor time (user and system) the node's process has used
// since it started (0 when not running).
func (nd *Node) CPU() time.Duration {
	nd.mu.Lock()
	cmd := nd.cmd
	nd.mu.Unlock()
	if cmd == nil || cmd.Process == nil {
		return 0
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// The fields after the command name, which is in parentheses and may
	// hold spaces: utime and stime are the 12th and 13th, in clock ticks
	// (100 a second on Linux).
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0
	}
	var user, sys int64
	fmt.Sscan(f[11], &user)
	fmt.Sscan(f[12], &sys)
	return time.Duration(user+sys) * time.Second / 100
}

// status reads one kB field of /proc/PID/status.
func (nd *Node) status(field string) int64 {
	nd.mu.Lock()
	cmd := nd.cmd
	nd.mu.Unlock()
	if cmd == nil || cmd.Process == nil {
		return 0
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, field); ok {
			var kb int64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), &kb)
			return kb << 10
		}
	}
	return 0
}
