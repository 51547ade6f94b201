//go:build !race

package image_test

const raceBuild = false
