// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package objstore_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/sublinear/pearson/objstore"
)

// A file behind an HTTP server with Range support, read by ranges.
func ExampleStore_List() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "t.csv", time.Time{}, strings.NewReader("x,y\n1,2\n3,4\n"))
	}))
	defer srv.Close()

	st := objstore.New(context.Background(), objstore.Settings{})
	objs, err := st.List(srv.URL + "/t.csv")
	if err != nil {
		fmt.Println(err)
		return
	}
	o := objs[0]
	b := make([]byte, 3)
	if _, err := o.ReadAt(b, 4); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d bytes; bytes 4-6: %q; %d requests\n", o.Size(), b, st.Stats().Requests)
	// Output:
	// 12 bytes; bytes 4-6: "1,2"; 2 requests
}
