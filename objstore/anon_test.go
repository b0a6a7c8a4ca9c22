// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package objstore

import (
	"bytes"
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/sublinear/pearson/objstore/s3test"
)

// TestS3Anonymous reads an object of a public bucket (a public-read ACL)
// without credentials: the requests are unsigned.
func TestS3Anonymous(t *testing.T) {
	srv := s3test.Start(t)
	st := New(context.Background(), Settings{})
	c, err := st.s3client()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("pub"), ObjectOwnership: types.ObjectOwnershipBucketOwnerPreferred}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.c.PutBucketAcl(ctx, &s3.PutBucketAclInput{Bucket: aws.String("pub"), ACL: types.BucketCannedACLPublicRead}); err != nil {
		t.Skipf("the server does not take a public-read ACL: %v", err)
	}
	b := content(1000)
	srv.PutBytes(t, "pub", "o.bin", b)
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	o, _, err := open(t, "s3://pub/o.bin", Settings{})
	if err != nil {
		t.Fatal(err)
	}
	p := make([]byte, 10)
	if _, err := o.ReadAt(p, 100); err != nil || !bytes.Equal(p, b[100:110]) {
		t.Fatal(err)
	}
}
