package cluster

import (
	"errors"
	"testing"
)

// TestTransientMessages: the failures a node's death causes are retried,
// others are not.
func TestTransientMessages(t *testing.T) {
	for msg, want := range map[string]bool{
		// A gRPC batch forwarded to a node SIGKILLed meanwhile.
		"batch objects: rpc error: code = DeadlineExceeded desc = stream terminated by RST_STREAM with error code: CANCEL": true,
		"msg: read objects: connection refused":                    true,
		"cannot achieve consistency level QUORUM: 1 of 3 replicas": true,
		"invalid property 'foo' on class 'BcindexFile'":            false,
	} {
		var tr transient
		if got := errors.As(maybeTransient(errors.New(msg)), &tr); got != want {
			t.Errorf("%q: transient %v, want %v", msg, got, want)
		}
	}
}
