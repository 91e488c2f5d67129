//go:build !js

package main

func drawn(int) {}
