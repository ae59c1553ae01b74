package weaviatetest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

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

	// own are the ports the node binds, found taken in its log (not the
	// profiling port every node tries, which all but one find taken).
	own []int

	mu  sync.Mutex
	cmd *exec.Cmd
}

// portTaken reports whether the node's log says one of its own ports was
// taken.
func (nd *Node) portTaken() bool {
	log := nd.logTail(1 << 20)
	for _, p := range nd.own {
		if strings.Contains(log, fmt.Sprintf(":%d: bind: address already in use", p)) {
			return true
		}
	}
	return false
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
	cmd.SysProcAttr = ownGroup()
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
		if nd.portTaken() {
			return fmt.Errorf("%s at %s: %w", nd.Name, nd.URL, errPortTaken)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s at %s not ready after %s; log tail:\n%s", nd.Name, nd.URL, limit, nd.logTail(2000))
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
