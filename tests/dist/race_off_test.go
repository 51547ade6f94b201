//go:build !race

package dist_test

const raceBuild = false
