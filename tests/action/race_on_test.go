//go:build race

package action_test

// raceBuild: under -race (make test-race) these tests would only run the same processes again,
// none of them built with the race detector, so they run once, in make test.
const raceBuild = true
