// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sublinear/pearson/internal/badserver"
	"github.com/sublinear/pearson/internal/testtier"
)

// TestRemoteTimeouts runs pe on an http:// input, and on an s3:// input
// with --endpoint at the server (AWS_ENDPOINT_URL for the silent server),
// served from 127.0.0.1 by servers that never answer, trickle their header
// lines, trickle their body, or drop the connection: each run fails (exit
// 1) within a bounded time, with --timeout 1s, saying what happened and
// naming the flag to raise.
func TestRemoteTimeouts(t *testing.T) {
	t.Run("silent s3 AWS_ENDPOINT_URL", func(t *testing.T) {
		t.Setenv("AWS_ENDPOINT_URL", badserver.Silent(t))
		start := time.Now()
		code, _, stderr := run(t, "pe", "--timeout", "1s", "s3://bkt/x.csv", writeFile(t, "q.csv", "x\n1\n2\n3\n"))
		if d := time.Since(start); code != 1 || !strings.Contains(stderr, "no answer within 1s; raise --timeout") || d > 4*time.Second {
			t.Errorf("exit %d after %v: %s", code, d, stderr)
		}
	})
	q := writeFile(t, "q.csv", "x\n1\n2\n3\n")
	for _, c := range []struct {
		name  string
		url   func(t testing.TB) string
		words []string
	}{
		{"silent", badserver.Silent, []string{"no answer within 1s", "raise --timeout"}},
		{"header lines trickle", func(t testing.TB) string { return badserver.TrickleHeaders(t, 200*time.Millisecond) }, []string{"no answer within 1s", "raise --timeout"}},
		{"body trickles", func(t testing.TB) string { return badserver.TrickleBody(t, 50000, 1, 200*time.Millisecond) }, []string{"the answer stalled", "raise --timeout"}},
		{"dropped", badserver.Drop, []string{"the server closed the connection without an answer"}},
	} {
		for _, proto := range []string{"http", "s3"} {
			t.Run(c.name+" "+proto, func(t *testing.T) {
				t.Parallel()
				srv := c.url(t)
				args := []string{"pe", "--timeout", "1s", srv + "/x.csv", q}
				if proto == "s3" {
					args = []string{"pe", "--timeout", "1s", "--endpoint", srv, "s3://bkt/x.csv", q}
				}
				start := time.Now()
				code, _, stderr := run(t, args...)
				d := time.Since(start)
				if code != 1 {
					t.Errorf("exit %d, want 1", code)
				}
				for _, w := range c.words {
					if !strings.Contains(stderr, w) {
						t.Errorf("standard error does not say %q:\n%s", w, stderr)
					}
				}
				if d > 4*time.Second {
					t.Errorf("failed after %v", d)
				}
			})
		}
	}
}

// TestS3NoCredentialsNoProbe reads s3:// at an endpoint that refuses
// connections, without credentials (none in the environment or in the
// shared files): the message says that the connection was refused, not
// "StatusCode: 0", and comes at once, with nothing from the AWS SDK on
// standard error first (the instance metadata service is not probed).
func TestS3NoCredentialsNoProbe(t *testing.T) {
	none := filepath.Join(t.TempDir(), "none")
	for k, v := range map[string]string{
		"AWS_ENDPOINT_URL": badserver.Refused(t), "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_SESSION_TOKEN": "",
		"AWS_PROFILE": "", "AWS_CONFIG_FILE": none, "AWS_SHARED_CREDENTIALS_FILE": none,
		"AWS_EC2_METADATA_DISABLED": "", "AWS_EC2_METADATA_SERVICE_ENDPOINT": "",
	} {
		t.Setenv(k, v)
	}
	// The SDK writes its warnings to the process's standard error.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = w
	start := time.Now()
	code, _, stderr := run(t, "pe", "s3://bkt/x.csv", "s3://bkt/y.csv")
	d := time.Since(start)
	os.Stderr = saved
	w.Close()
	sdk, _ := io.ReadAll(r)
	if code != 1 || !strings.Contains(stderr, "cannot connect to 127.0.0.1:") || !strings.Contains(stderr, "connection refused") || strings.Contains(stderr, "StatusCode") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if len(sdk) > 0 {
		t.Errorf("the SDK wrote to standard error: %s", sdk)
	}
	// A refused connection fails at once; 3 s leaves room for a loaded
	// machine, five times that under the race detector, which slows the
	// SDK's set-up as much (a run at load 30 took 3.007 s under it).
	limit := 3 * time.Second
	if testtier.Race {
		limit *= 5
	}
	if d > limit {
		t.Errorf("failed after %v, more than %v", d, limit)
	}
}
