//go:build tools

// The kube-apiserver that `make kube` builds from this module.
package main

import _ "k8s.io/kubernetes/cmd/kube-apiserver"
