// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync"
	"time"
)

// The defaults of the timeouts of Settings, those of the AWS CLI
// (--cli-connect-timeout, --cli-read-timeout) and rclone (--contimeout).
const (
	DefaultConnectTimeout = 60 * time.Second
	DefaultTimeout        = 60 * time.Second
)

// MinRate is the slowest a body may come, in bytes a second, averaged over
// each span of Settings.Timeout: a server that trickles a byte every few
// seconds fails after one span instead of keeping a run waiting for hours.
// At this rate a request of MaxRequest bytes takes 34 minutes.
const MinRate = 4 << 10

// timeoutError is a request that waited longer than a timeout: for a
// connection, for the answer's headers, or for the bytes of its body.
type timeoutError struct {
	msg string // "no answer within 1m0s", ...
}

func (e *timeoutError) Error() string   { return e.msg }
func (e *timeoutError) Timeout() bool   { return true }
func (e *timeoutError) Temporary() bool { return false }

// timeouts wraps the transport of a Store's requests, S3's and HTTP's
// alike: a request fails when its connection takes longer than connect,
// when its answer's headers do not come within wait of the request being
// sent, or when its body comes slower than MinRate over a span of wait.
type timeouts struct {
	base    http.RoundTripper
	connect time.Duration // ≤ 0: no bound
	wait    time.Duration // ≤ 0: no bound
}

// newTransport returns the transport of a Store: base (nil: a clone of
// http.DefaultTransport with the connect timeout on its dialer) under the
// timeouts of s.
func newTransport(base http.RoundTripper, connect, wait time.Duration) http.RoundTripper {
	if base == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		if connect > 0 {
			d := &net.Dialer{Timeout: connect, KeepAlive: 30 * time.Second}
			tr.DialContext = d.DialContext
			tr.TLSHandshakeTimeout = connect
		}
		base = tr
	}
	if connect <= 0 && wait <= 0 {
		return base
	}
	return &timeouts{base: base, connect: connect, wait: wait}
}

// RoundTrip makes the request under the timeouts.
func (t *timeouts) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancelCause(req.Context())
	var mu sync.Mutex
	var timer *time.Timer
	arm := func(d time.Duration, err error) {
		mu.Lock()
		defer mu.Unlock()
		if timer != nil {
			timer.Stop()
			timer = nil
		}
		if d > 0 {
			timer = time.AfterFunc(d, func() { cancel(err) })
		}
	}
	arm(t.connect, &timeoutError{fmt.Sprintf("cannot connect to %s within %v", req.URL.Host, t.connect)})
	trace := &httptrace.ClientTrace{
		GotConn: func(httptrace.GotConnInfo) { arm(0, nil) },
		WroteRequest: func(httptrace.WroteRequestInfo) {
			arm(t.wait, &timeoutError{fmt.Sprintf("no answer within %v", t.wait)})
		},
	}
	resp, err := t.base.RoundTrip(req.WithContext(httptrace.WithClientTrace(ctx, trace)))
	arm(0, nil)
	if err != nil {
		if c := context.Cause(ctx); c != nil && req.Context().Err() == nil {
			err = c
		}
		cancel(nil)
		return nil, err
	}
	if t.wait <= 0 {
		resp.Body = &cancelBody{ReadCloser: resp.Body, cancel: cancel}
		return resp, nil
	}
	b := &watchedBody{rc: resp.Body, ctx: ctx, cancel: cancel, wait: t.wait, left: resp.ContentLength}
	b.timer = time.AfterFunc(t.wait, b.check)
	resp.Body = b
	return resp, nil
}

// cancelBody ends the request's context when its body is closed.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelCauseFunc
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel(nil)
	return err
}

// watchedBody is the body of an answer, which fails when fewer than
// min(MinRate·wait, the bytes left) bytes come in a span of wait.
type watchedBody struct {
	rc     io.ReadCloser
	ctx    context.Context
	cancel context.CancelCauseFunc
	wait   time.Duration
	timer  *time.Timer

	mu   sync.Mutex
	got  int64 // bytes read in this span
	left int64 // bytes left at the start of the span (< 0: unknown)
	done bool
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.mu.Lock()
	b.got += int64(n)
	b.mu.Unlock()
	if err != nil {
		if c := context.Cause(b.ctx); c != nil && errors.As(c, new(*timeoutError)) {
			err = c
		}
		if err == io.EOF {
			b.stop()
		}
	}
	return n, err
}

// check ends a span: it cancels the request when too few bytes came.
func (b *watchedBody) check() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done {
		return
	}
	need := int64(MinRate * b.wait.Seconds())
	if b.left >= 0 {
		need = min(need, b.left)
		if b.left -= b.got; b.left <= 0 {
			b.done = true // every byte came, unread to its end yet
			return
		}
	}
	if b.got < max(need, 1) {
		b.cancel(&timeoutError{fmt.Sprintf("the answer stalled: %d bytes came in %v, fewer than the %d due at %d KiB/s at least", b.got, b.wait, max(need, 1), MinRate>>10)})
		return
	}
	b.got = 0
	b.timer.Reset(b.wait)
}

func (b *watchedBody) stop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done = true
	b.timer.Stop()
}

func (b *watchedBody) Close() error {
	b.stop()
	err := b.rc.Close()
	b.cancel(nil)
	return err
}

// netCause returns the cause of a failed request as messages say it: a
// timeout with its advice, a connection refused or unreachable as "cannot
// connect to host:port: connection refused", otherwise err.
func (st *Store) netCause(err error) error {
	var te *timeoutError
	if errors.As(err, &te) {
		return fmt.Errorf("%w; %s", te, st.advice())
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Op == "dial" {
		addr := ""
		if oe.Addr != nil {
			addr = oe.Addr.String()
		}
		cause := oe.Err.Error()
		if i := strings.LastIndex(cause, ": "); i >= 0 {
			cause = cause[i+2:] // "connect: connection refused"
		}
		return fmt.Errorf("cannot connect to %s: %s", addr, cause)
	}
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("the server closed the connection without an answer (%w)", err)
	}
	return err
}

// advice says how to wait longer.
func (st *Store) advice() string {
	if st.set.TimeoutAdvice != "" {
		return st.set.TimeoutAdvice
	}
	return "set Settings.Timeout (or ConnectTimeout) to wait longer"
}

// isTimeout reports whether err is a timeout of the Store's transport.
func isTimeout(err error) bool {
	var te *timeoutError
	return errors.As(err, &te)
}
