// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"io"
	"time"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/objstore"
)

// timeouts reads --timeout and --connect-timeout: 0 means no bound
// (objstore's negative), a negative duration is refused.
func timeouts(o *options) (wait, connect time.Duration, err error) {
	wait, connect = o.timeout, o.connectTimeout
	for _, f := range []struct {
		name string
		d    *time.Duration
	}{{"timeout", &wait}, {"connect-timeout", &connect}} {
		switch {
		case *f.d < 0:
			return 0, 0, usageErr("--%s %v: give a positive duration (60s, 2m), or 0 for no bound", f.name, *f.d)
		case *f.d == 0:
			*f.d = -1
		}
	}
	return wait, connect, nil
}

// storeSettings returns the settings of the store of the reader's remote
// inputs: --endpoint and the timeouts, whose messages name the flags.
func (r *reader) storeSettings() objstore.Settings {
	return objstore.Settings{Endpoint: r.endpoint, Timeout: r.timeout, ConnectTimeout: r.connect,
		TimeoutAdvice: "raise --timeout or --connect-timeout (PEARSON_TIMEOUT, PEARSON_CONNECT_TIMEOUT) to wait longer"}
}

// remoteParquetRows returns the rows of the Parquet dataset at the URL
// path (an object, or every .parquet object under a prefix), counted from
// its footers (a listing, then a ranged read of each object's tail, and of
// the rest of a longer footer) before a data page is fetched, and false
// for a local path or another format. A URL that does not open fails with
// the error the read would give, so that a silent server costs one
// timeout, not two.
func remoteParquetRows(o *options, path string) (int64, bool, error) {
	if !objstore.IsURL(path) {
		return 0, false, nil
	}
	wait, connect, err := timeouts(o)
	if err != nil {
		return 0, false, err
	}
	r := &reader{endpoint: o.endpoint, timeout: wait, connect: connect}
	src, err := openTable(o.ctx, path, dataset.Options{}, remote{settings: r.storeSettings()}, io.Discard)
	if err != nil {
		return 0, false, err
	}
	defer src.Close()
	if rs, ok := src.(*remoteSource); ok {
		src = rs.Source
	}
	p, ok := src.(*dataset.Parquet)
	if !ok {
		return 0, false, nil
	}
	return p.Rows(), true, nil
}
