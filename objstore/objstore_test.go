// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package objstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sublinear/pearson/objstore/s3test"
)

// content is the bytes the HTTP tests serve.
func content(n int) []byte {
	b := make([]byte, n)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range b {
		b[i] = byte(r.IntN(256))
	}
	return b
}

// serve serves b at /f with Range support (http.ServeContent), through
// hook, which may answer instead (returning true).
func serve(t *testing.T, b []byte, etag string, hook func(w http.ResponseWriter, r *http.Request) bool) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hook != nil && hook(w, r) {
			return
		}
		if etag != "" {
			w.Header().Set("ETag", etag)
		}
		http.ServeContent(w, r, "f", time.Time{}, bytes.NewReader(b))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func open(t *testing.T, url string, s Settings) (*Object, *Store, error) {
	st := New(context.Background(), s)
	objs, err := st.List(url)
	if err != nil {
		return nil, st, err
	}
	return objs[0], st, nil
}

// TestHTTPReadAt checks random reads against the bytes served, and that
// a prefetch of adjacent ranges costs one request.
func TestHTTPReadAt(t *testing.T) {
	b := content(1 << 20)
	srv := serve(t, b, `"v1"`, nil)
	o, st, err := open(t, srv.URL+"/f", Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if o.Size() != int64(len(b)) {
		t.Fatalf("size %d, want %d", o.Size(), len(b))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		off := r.Int64N(int64(len(b)) + 10)
		p := make([]byte, r.IntN(100000))
		n, err := o.ReadAt(p, off)
		want := b[min(off, int64(len(b))):min(off+int64(len(p)), int64(len(b)))]
		if n != len(want) || !bytes.Equal(p[:n], want) {
			t.Fatalf("ReadAt(%d bytes, %d) = %d bytes, want %d", len(p), off, n, len(want))
		}
		if (n < len(p)) != (err == io.EOF) {
			t.Fatalf("ReadAt(%d bytes, %d) = %d, %v", len(p), off, n, err)
		}
	}
	o2, st2, _ := open(t, srv.URL+"/f", Settings{})
	before := st2.Stats().Requests
	o2.Prefetch([][2]int64{{1000, 2000}, {2000, 3000}, {3100, 5000}}, false)
	p := make([]byte, 4000)
	if _, err := o2.ReadAt(p, 1000); err != nil || !bytes.Equal(p, b[1000:5000]) {
		t.Fatal("prefetched bytes differ", err)
	}
	if n := st2.Stats().Requests - before; n != 1 {
		t.Errorf("adjacent ranges took %d requests, want 1", n)
	}
	_ = st
}

// TestHTTPErrors checks the error of each way a server fails.
func TestHTTPErrors(t *testing.T) {
	b := content(200000)
	t.Run("no range", func(t *testing.T) {
		var sent atomic.Int64
		srv := serve(t, b, "", func(w http.ResponseWriter, r *http.Request) bool {
			if r.Method == http.MethodHead {
				w.Header().Set("Content-Length", fmt.Sprint(len(b)))
				return true
			}
			n, _ := w.Write(b) // ignores Range
			sent.Add(int64(n))
			return true
		})
		_, _, err := open(t, srv.URL+"/f", Settings{})
		if !errors.Is(err, ErrNoRange) {
			t.Fatalf("got %v, want ErrNoRange", err)
		}
	})
	t.Run("not found", func(t *testing.T) {
		srv := serve(t, b, "", func(w http.ResponseWriter, r *http.Request) bool { http.NotFound(w, r); return true })
		if _, _, err := open(t, srv.URL+"/f", Settings{}); !errors.Is(err, ErrNotFound) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("denied", func(t *testing.T) {
		srv := serve(t, b, "", func(w http.ResponseWriter, r *http.Request) bool { w.WriteHeader(403); return true })
		if _, _, err := open(t, srv.URL+"/f", Settings{}); !errors.Is(err, ErrAccessDenied) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("changed", func(t *testing.T) {
		var version atomic.Int64
		srv := serve(t, b, "", func(w http.ResponseWriter, r *http.Request) bool {
			w.Header().Set("ETag", fmt.Sprintf(`"v%d"`, version.Load()))
			return false
		})
		o, _, err := open(t, srv.URL+"/f", Settings{})
		if err != nil {
			t.Fatal(err)
		}
		version.Store(2)
		if _, err := o.ReadAt(make([]byte, 10), 0); !errors.Is(err, ErrChanged) {
			t.Fatalf("got %v, want ErrChanged", err)
		}
	})
	t.Run("size changed", func(t *testing.T) {
		var cut atomic.Bool
		srv := serve(t, nil, "", func(w http.ResponseWriter, r *http.Request) bool {
			c := b
			if cut.Load() {
				c = b[:1000]
			}
			http.ServeContent(w, r, "f", time.Time{}, bytes.NewReader(c))
			return true
		})
		o, _, err := open(t, srv.URL+"/f", Settings{})
		if err != nil {
			t.Fatal(err)
		}
		cut.Store(true)
		if _, err := o.ReadAt(make([]byte, 10), 0); !errors.Is(err, ErrChanged) {
			t.Fatalf("got %v, want ErrChanged", err)
		}
	})
	t.Run("retries", func(t *testing.T) {
		var calls atomic.Int64
		srv := serve(t, b, "", func(w http.ResponseWriter, r *http.Request) bool {
			if r.Method == http.MethodGet && calls.Add(1) <= 2 {
				w.WriteHeader(503)
				return true
			}
			return false
		})
		o, _, err := open(t, srv.URL+"/f", Settings{})
		if err != nil {
			t.Fatal(err)
		}
		p := make([]byte, 100)
		if _, err := o.ReadAt(p, 50); err != nil || !bytes.Equal(p, b[50:150]) {
			t.Fatalf("after two 503s: %v", err)
		}
	})
	t.Run("dropped", func(t *testing.T) {
		srv := serve(t, b, "", func(w http.ResponseWriter, r *http.Request) bool {
			if r.Method != http.MethodGet {
				return false
			}
			// A body cut short, every time: the connection drops.
			w.Header().Set("Content-Range", fmt.Sprintf("bytes 0-%d/%d", len(b)-1, len(b)))
			w.Header().Set("Content-Length", fmt.Sprint(len(b)))
			w.WriteHeader(206)
			w.Write(b[:10])
			panic(http.ErrAbortHandler)
		})
		o, _, err := open(t, srv.URL+"/f", Settings{Retries: 2})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := o.ReadAt(make([]byte, len(b)), 0); !errors.Is(err, ErrNetwork) {
			t.Fatalf("got %v, want ErrNetwork", err)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		hang := make(chan struct{})
		defer close(hang)
		srv := serve(t, b, "", func(w http.ResponseWriter, r *http.Request) bool {
			if r.Method == http.MethodGet {
				select {
				case <-hang:
				case <-r.Context().Done():
				}
				return true
			}
			return false
		})
		ctx, cancel := context.WithCancel(context.Background())
		st := New(ctx, Settings{})
		objs, err := st.List(srv.URL + "/f")
		if err != nil {
			t.Fatal(err)
		}
		time.AfterFunc(50*time.Millisecond, cancel)
		start := time.Now()
		if _, err := objs[0].ReadAt(make([]byte, 10), 0); !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v, want context.Canceled", err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("cancelled after %v", d)
		}
	})
}

// TestS3 reads objects of a real S3-compatible server (versitygw):
// ranges, a prefix, and the errors of a missing bucket, key and prefix,
// wrong credentials and none.
func TestS3(t *testing.T) {
	srv := s3test.Start(t)
	b := content(300000)
	srv.PutBytes(t, "bkt", "dir/a=1/x.bin", b)
	srv.PutBytes(t, "bkt", "dir/a=2/y.bin", b[:100])
	srv.Bucket(t, "empty")
	o, _, err := open(t, "s3://bkt/dir/a=1/x.bin", Settings{})
	if err != nil {
		t.Fatal(err)
	}
	p := make([]byte, 5000)
	if n, err := o.ReadAt(p, 123456); n != len(p) || err != nil || !bytes.Equal(p, b[123456:128456]) {
		t.Fatalf("ReadAt: %d, %v", n, err)
	}
	st := New(context.Background(), Settings{})
	objs, err := st.List("s3://bkt/dir/")
	if err != nil || len(objs) != 2 || objs[0].Key() != "a=1/x.bin" || objs[1].Size() != 100 {
		t.Fatalf("listing: %v %v", objs, err)
	}
	if objs, err = st.List("s3://bkt/dir"); err != nil || len(objs) != 2 {
		t.Fatalf("listing a folder without /: %v", err)
	}
	for url, want := range map[string]error{
		"s3://nobucket/x":  ErrNoSuchBucket,
		"s3://bkt/missing": ErrNotFound,
		"s3://empty/":      ErrEmptyPrefix,
		"s3:///x":          ErrBadURL,
	} {
		if _, err := st.List(url); !errors.Is(err, want) {
			t.Errorf("%s: got %v, want %v", url, err, want)
		}
	}
	t.Setenv("AWS_SECRET_ACCESS_KEY", "wrong")
	if _, _, err := open(t, "s3://bkt/dir/a=1/x.bin", Settings{}); !errors.Is(err, ErrAccessDenied) {
		t.Errorf("wrong secret: %v", err)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	_, _, err = open(t, "s3://bkt/dir/a=1/x.bin", Settings{})
	if !errors.Is(err, ErrNoCredentials) || !strings.Contains(err.Error(), "AWS_ACCESS_KEY_ID") {
		t.Errorf("no credentials: %v", err)
	}
}
