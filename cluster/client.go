package cluster

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/weaviate/weaviate-go-client/v5/weaviate"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/auth"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/fault"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/grpc"
	grpcgo "google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health/grpc_health_v1"
)

// ErrUnreachable means no Weaviate answered at the configured URL.
var ErrUnreachable = errors.New("cluster unreachable")

// APIKeyEnv names the environment variables an API key is read from, in
// order. It is never read from git config, stored or logged.
var APIKeyEnv = []string{"BCINDEX_REMOTE_API_KEY", "WEAVIATE_API_KEY"}

// Consistency is the level of every write: with three replicas a quorum is
// two, so one node may be down.
const Consistency = "QUORUM"

// Client is a connection to one Weaviate cluster.
type Client struct {
	w   *weaviate.Client
	url string
	// blockMax is set when the chunk collection ranks BM25 with BlockMax
	// WAND (see Warning).
	blockMax atomic.Bool
}

// Warning returns what the user should know about the cluster's set-up
// once a publish or search has read its schema, or "".
//
// Weaviate v1.35 creates collections with BlockMax WAND, whose pruning
// drops documents holding a query's rarest term when the query holds
// common terms too: the most telling word of a query loses its match. On
// the GOROOT packages of TestRemoteQuality it dropped the cluster's BM25
// side from 0.93 to 0.78–0.84 MRR@10 and its hybrid search (alpha 0.7)
// from 0.94 to 0.88 (doc/cluster.md). A collection cannot opt out: the
// server sets the collection's usingBlockMaxWAND from its
// USE_INVERTED_SEARCHABLE when it creates it, whatever the request says,
// and turns it back on for shards whose buckets are in its format.
func (c *Client) Warning() string {
	if !c.blockMax.Load() {
		return ""
	}
	return fmt.Sprintf("%s ranks BM25 with BlockMax WAND (Weaviate's default), which drops chunks matching a query's rarest word when the query holds common words too, so search --remote can miss what local search finds; the server fixes it when it creates the collections: restart every node with USE_INVERTED_SEARCHABLE=false, delete the Bcindex* collections and publish every repository again (doc/cluster.md)", c.url)
}

// Open connects to the cluster at rawURL (http://host:port) and checks
// that it answers. The API key comes from the environment (APIKeyEnv).
func Open(ctx context.Context, rawURL string) (*Client, error) {
	return OpenWith(ctx, rawURL, Options{})
}

// Options are optional connection settings.
type Options struct {
	// GRPC is host:port of the cluster's gRPC API (Weaviate's GRPC_PORT,
	// 50051 by default). When set, publish writes objects over gRPC, which
	// spares both sides the JSON of every vector and the server's echo of
	// each written object; queries stay on GraphQL. It needs an http://
	// URL: the Weaviate client does not verify gRPC TLS certificates.
	GRPC string
}

// OpenWith is Open with options.
func OpenWith(ctx context.Context, rawURL string, o Options) (*Client, error) {
	if rawURL == "" {
		return nil, fmt.Errorf("no cluster configured: set it with `git config bcindex.remote.url http://HOST:8080`")
	}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("bcindex.remote.url %q is not an http(s) URL: set it with `git config bcindex.remote.url http://HOST:8080`", rawURL)
	}
	// A request to a node that just died hangs until this timeout; it is
	// then retried (ops.go), so keep it short of the retry window.
	cfg := weaviate.Config{Host: u.Host, Scheme: u.Scheme, Timeout: 20 * time.Second}
	for _, name := range APIKeyEnv {
		if key := os.Getenv(name); key != "" {
			cfg.AuthConfig = auth.ApiKey{Value: key}
			break
		}
	}
	c := &Client{url: rawURL}
	if o.GRPC != "" {
		if u.Scheme != "http" {
			return nil, fmt.Errorf("bcindex.remote.grpc %s with %s: gRPC is used with http:// clusters only, as the Weaviate client does not verify gRPC TLS certificates: unset bcindex.remote.grpc", o.GRPC, rawURL)
		}
		if err := checkGRPC(ctx, o.GRPC); err != nil {
			return nil, fmt.Errorf("connect to the gRPC API of %s at %s: %w: %w: start it, or fix `git config bcindex.remote.grpc`", rawURL, o.GRPC, ErrUnreachable, err)
		}
		cfg.GrpcConfig = &grpc.Config{Host: o.GRPC}
	}
	w, err := weaviate.NewClient(cfg)
	if err != nil {
		return nil, c.wrap("connect", err)
	}
	c.w = w
	ok, err := w.Misc().ReadyChecker().Do(ctx)
	if err != nil || !ok {
		if err == nil {
			err = errors.New("not ready")
		}
		return nil, c.wrap("connect", err)
	}
	return c, nil
}

// checkGRPC asks the gRPC API at addr whether it serves.
func checkGRPC(ctx context.Context, addr string) error {
	conn, err := grpcgo.NewClient(addr, grpcgo.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_, err = grpc_health_v1.NewHealthClient(conn).Check(ctx, &grpc_health_v1.HealthCheckRequest{})
	return err
}

// URL is the cluster's address as configured.
func (c *Client) URL() string { return c.url }

// wrap names the operation and the cluster, and turns a connection failure
// into ErrUnreachable with what to do about it.
func (c *Client) wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s at %s: %w", op, c.url, err)
	}
	var we *fault.WeaviateClientError
	if errors.As(err, &we) && we.IsUnexpectedStatusCode {
		msg := strings.TrimSpace(we.Msg)
		switch we.StatusCode {
		case 401, 403:
			return fmt.Errorf("%s at %s: access denied (HTTP %d): set the API key in %s", op, c.url, we.StatusCode, APIKeyEnv[0])
		}
		err := fmt.Errorf("%s at %s: HTTP %d: %s", op, c.url, we.StatusCode, msg)
		if we.StatusCode >= 500 || we.StatusCode == 429 {
			return transient{err}
		}
		return err
	}
	if isConnError(err) {
		return transient{fmt.Errorf("%s: %w: no Weaviate answers at %s (%v): start it, or fix `git config bcindex.remote.url`", op, ErrUnreachable, c.url, err)}
	}
	return fmt.Errorf("%s at %s: %w", op, c.url, err)
}

func isConnError(err error) bool {
	s := err.Error()
	for _, m := range []string{"connection refused", "no such host", "i/o timeout", "connection reset", "EOF", "weaviate did not start up", "network is unreachable"} {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}
