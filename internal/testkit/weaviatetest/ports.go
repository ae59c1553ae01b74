package weaviatetest

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
)

// Ports for the servers are picked below the kernel's range of ephemeral
// ports, from which every outgoing connection (each test's HTTP client, a
// node's own peers) takes its source port: a port found free there can be
// taken that way before the server binds it, and the server then dies or
// never becomes ready. A port is handed out once per process; another
// process picking the same one is rare, and Start tries other ports then.
var (
	portsMu sync.Mutex
	given   = map[int]bool{}
)

// lowRange is where ports are picked: [20000, the first ephemeral port).
func lowRange() (lo, hi int) {
	lo, hi = 20000, 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if first, err := strconv.Atoi(f[0]); err == nil && first > lo+1000 {
				hi = first
			}
		}
	}
	return lo, hi
}

// pickPorts returns a port p free now, with p+1 free too when pair.
func pickPorts(pair bool) (int, error) {
	portsMu.Lock()
	defer portsMu.Unlock()
	lo, hi := lowRange()
	for try := 0; try < 1000; try++ {
		p := lo + rand.IntN(hi-lo-1)
		if given[p] || given[p+1] || !free(p) || pair && !free(p+1) {
			continue
		}
		given[p] = true
		if pair {
			given[p+1] = true
		}
		return p, nil
	}
	return 0, fmt.Errorf("no free port in %d..%d", lo, hi)
}

func free(p int) bool {
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
	if err != nil {
		return false
	}
	l.Close()
	return true
}
