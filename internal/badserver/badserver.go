// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package badserver starts, for tests, servers on 127.0.0.1 that fail the
// way slow or broken servers do: one that accepts connections and never
// answers, one that trickles its header lines, one that trickles the
// bytes of its body, one that drops every connection, and a port that
// refuses connections. Each is stopped when the test ends.
package badserver

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// listen starts a TCP server on 127.0.0.1 whose connections serve runs;
// it returns http://127.0.0.1:port.
func listen(t testing.TB, serve func(c net.Conn, stop <-chan struct{})) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	t.Cleanup(func() {
		close(stop)
		l.Close()
		wg.Wait()
	})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				go func() { <-stop; c.Close() }()
				serve(c, stop)
			}()
		}
	}()
	return "http://" + l.Addr().String()
}

// Silent returns the URL of a server that accepts connections, reads the
// requests and never answers.
func Silent(t testing.TB) string {
	return listen(t, func(c net.Conn, stop <-chan struct{}) {
		buf := make([]byte, 4096)
		for {
			if _, err := c.Read(buf); err != nil {
				return
			}
		}
	})
}

// TrickleHeaders returns the URL of a server that answers every request
// with a status line, then a header line every every, never ending its
// headers.
func TrickleHeaders(t testing.TB, every time.Duration) string {
	return listen(t, func(c net.Conn, stop <-chan struct{}) {
		if _, err := http.ReadRequest(bufio.NewReader(c)); err != nil {
			return
		}
		if _, err := fmt.Fprint(c, "HTTP/1.1 200 OK\r\n"); err != nil {
			return
		}
		tick := time.NewTicker(every)
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			if _, err := fmt.Fprintf(c, "X-Pad-%d: %d\r\n", i, i); err != nil {
				return
			}
		}
	})
}

// Drop returns the URL of a server that closes every connection as soon
// as it has read the request.
func Drop(t testing.TB) string {
	return listen(t, func(c net.Conn, stop <-chan struct{}) {
		http.ReadRequest(bufio.NewReader(c))
	})
}

// Refused returns the URL of a port of 127.0.0.1 where nothing listens.
func Refused(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := "http://" + l.Addr().String()
	l.Close()
	return u
}

// TrickleBody returns the URL of a server of a size-byte file, any path,
// S3-style too (HEAD gives its size, ETag and Accept-Ranges, and a ranged
// GET the status 206 with its Content-Range), that sends the bytes of
// every body chunk bytes at a time, every every.
func TrickleBody(t testing.TB, size, chunk int64, every time.Duration) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("ETag", `"trickle"`)
		h.Set("Accept-Ranges", "bytes")
		h.Set("Last-Modified", "Mon, 02 Jan 2006 15:04:05 GMT")
		if r.Method == http.MethodHead {
			h.Set("Content-Length", strconv.FormatInt(size, 10))
			return
		}
		from, to := int64(0), size-1
		if rng, ok := strings.CutPrefix(r.Header.Get("Range"), "bytes="); ok {
			a, b, _ := strings.Cut(rng, "-")
			from, _ = strconv.ParseInt(a, 10, 64)
			if v, err := strconv.ParseInt(b, 10, 64); err == nil {
				to = min(v, size-1)
			}
			h.Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", from, to, size))
			h.Set("Content-Length", strconv.FormatInt(to-from+1, 10))
			w.WriteHeader(http.StatusPartialContent)
		} else {
			h.Set("Content-Length", strconv.FormatInt(size, 10))
		}
		f, _ := w.(http.Flusher)
		for i := from; i <= to; i += chunk {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(every):
			}
			if _, err := w.Write(bytes.Repeat([]byte{'1'}, int(min(chunk, to+1-i)))); err != nil {
				return
			}
			if f != nil {
				f.Flush()
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
