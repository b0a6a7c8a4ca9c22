// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package s3test starts a real S3-compatible server for tests: Versity's
// S3 gateway (versitygw, installed by
// `go install github.com/versity/versitygw/cmd/versitygw@v1.8.0`), serving
// a temporary folder whose folders are buckets. A test that needs it is
// skipped when versitygw is not installed, and fails instead under CI=true.
package s3test

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Server is a versitygw process serving Dir.
type Server struct {
	Dir      string // each folder is a bucket
	Endpoint string // http://127.0.0.1:port
}

// Access and Secret are the server's root credentials.
const (
	Access = "pearsonkey"
	Secret = "pearsonsecret"
)

// binary returns the path of versitygw, or "".
func binary() string {
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p
	}
	for _, dir := range []string{os.Getenv("GOBIN"), filepath.Join(os.Getenv("GOPATH"), "bin"), filepath.Join(os.Getenv("HOME"), "go", "bin")} {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, "versitygw")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	return ""
}

// Start starts a server on a free port of 127.0.0.1 and sets the
// environment of the test for the AWS SDK to reach it (AWS_ENDPOINT_URL,
// the credentials, no shared files, no instance metadata). The server is
// stopped when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := binary()
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("versitygw is not installed: go install github.com/versity/versitygw/cmd/versitygw@v1.8.0")
		}
		t.Skip("versitygw is not installed (go install github.com/versity/versitygw/cmd/versitygw@v1.8.0)")
	}
	dir := t.TempDir()
	var port int
	var cmd *exec.Cmd
	for attempt := 0; ; attempt++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port = l.Addr().(*net.TCPAddr).Port
		l.Close()
		cmd = exec.Command(bin, "--port", fmt.Sprintf("127.0.0.1:%d", port), "posix", dir)
		cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY="+Access, "ROOT_SECRET_KEY="+Secret)
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if up(port, 10*time.Second) {
			break
		}
		cmd.Process.Kill()
		cmd.Wait()
		if attempt == 2 {
			t.Fatal("versitygw did not start")
		}
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	s := &Server{Dir: dir, Endpoint: fmt.Sprintf("http://127.0.0.1:%d", port)}
	for k, v := range map[string]string{
		"AWS_ENDPOINT_URL": s.Endpoint, "AWS_ACCESS_KEY_ID": Access, "AWS_SECRET_ACCESS_KEY": Secret,
		"AWS_SESSION_TOKEN": "", "AWS_REGION": "us-east-1", "AWS_PROFILE": "", "AWS_NO_SIGN_REQUEST": "",
		"AWS_CONFIG_FILE": filepath.Join(dir, ".none"), "AWS_SHARED_CREDENTIALS_FILE": filepath.Join(dir, ".none"),
		"AWS_EC2_METADATA_DISABLED": "true",
	} {
		t.Setenv(k, v)
	}
	return s
}

// up waits until the port accepts connections.
func up(port int, wait time.Duration) bool {
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 100*time.Millisecond)
		if err == nil {
			c.Close()
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// Put copies the local file src into the bucket as key (the bucket's
// folder is made when missing; bucket names have 3 characters at least).
func (s *Server) Put(t testing.TB, bucket, key, src string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	s.PutBytes(t, bucket, key, b)
}

// PutBytes writes b into the bucket as key.
func (s *Server) PutBytes(t testing.TB, bucket, key string, b []byte) {
	t.Helper()
	p := filepath.Join(s.Dir, bucket, filepath.FromSlash(key))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Bucket makes an empty bucket.
func (s *Server) Bucket(t testing.TB, bucket string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(s.Dir, bucket), 0o755); err != nil {
		t.Fatal(err)
	}
}
