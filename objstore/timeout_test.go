// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package objstore

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sublinear/pearson/internal/badserver"
)

// TestTimeouts reads from servers on 127.0.0.1 that never answer, trickle
// their headers or their body, drop the connection, or refuse it, by
// HTTP and by S3 (the server as the endpoint): each read fails within a
// bounded time (the timeout of 1 s, once: a timeout is not retried) with
// a message that says what happened and how to wait longer.
func TestTimeouts(t *testing.T) {
	const wait = time.Second
	const advice = "set --timeout to wait longer"
	for _, c := range []struct {
		name  string
		url   func(t testing.TB) string
		read  bool // the listing succeeds; the read of bytes fails
		kind  error
		words []string
	}{
		{"silent", badserver.Silent, false, ErrTimeout, []string{"no answer within 1s", advice}},
		{"header lines trickle", func(t testing.TB) string { return badserver.TrickleHeaders(t, 100*time.Millisecond) }, false, ErrTimeout, []string{"no answer within 1s", advice}},
		{"body trickles", func(t testing.TB) string { return badserver.TrickleBody(t, 100000, 1, 100*time.Millisecond) }, true, ErrTimeout, []string{"the answer stalled: ", "bytes came in 1s", advice}},
		{"dropped", badserver.Drop, false, ErrNetwork, []string{"EOF"}},
		{"refused", badserver.Refused, false, ErrNetwork, []string{"cannot connect to 127.0.0.1:", "connection refused"}},
	} {
		for _, proto := range []string{"http", "s3"} {
			t.Run(c.name+" "+proto, func(t *testing.T) {
				t.Parallel()
				srv := c.url(t)
				set := Settings{Timeout: wait, ConnectTimeout: wait, TimeoutAdvice: advice, Retries: 1}
				// The secrets of the URL are never shown.
				url := strings.Replace(srv, "http://", "http://user:secretpw@", 1) + "/x.csv?X-Amz-Signature=SECRETSIG"
				if proto == "s3" {
					set.Endpoint, set.Anonymous = srv, true
					url = "s3://bkt/x.csv"
				}
				start := time.Now()
				st := New(context.Background(), set)
				objs, err := st.List(url)
				if c.read {
					if err != nil {
						t.Fatal(err)
					}
					_, err = objs[0].ReadAt(make([]byte, 1000), 0)
				}
				d := time.Since(start)
				if !errors.Is(err, c.kind) {
					t.Fatalf("got %v, want %v", err, c.kind)
				}
				for _, w := range c.words {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("%q does not say %q", err, w)
					}
				}
				for _, bad := range []string{"StatusCode: 0", "secretpw", "SECRETSIG", "user"} {
					if strings.Contains(err.Error(), bad) {
						t.Errorf("%q shows %q", err, bad)
					}
				}
				if c.read && objs[0].URL() != srv+"/x.csv" && proto == "http" {
					t.Errorf("URL() = %q", objs[0].URL())
				}
				if d > 3*wait {
					t.Errorf("failed after %v", d)
				}
				t.Logf("%v: %v", d.Round(time.Millisecond), err)
			})
		}
	}
}

// TestSlowBodyNotTimedOut reads 32 KiB that come at 40 KiB/s, 4 KiB every
// 0.1 s, with a timeout of 0.3 s: the body spans more than two timeouts,
// each with more than the 1.2 KiB due at MinRate, and is read whole.
func TestSlowBodyNotTimedOut(t *testing.T) {
	t.Parallel()
	srv := badserver.TrickleBody(t, 32<<10, 4<<10, 100*time.Millisecond)
	st := New(context.Background(), Settings{Timeout: 300 * time.Millisecond})
	objs, err := st.List(srv + "/x.csv")
	if err != nil {
		t.Fatal(err)
	}
	p := make([]byte, 32<<10)
	if n, err := objs[0].ReadAt(p, 0); err != nil || n != len(p) {
		t.Fatalf("%d bytes: %v", n, err)
	}
}
