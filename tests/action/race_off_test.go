//go:build !race

package action_test

const raceBuild = false
