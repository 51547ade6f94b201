//go:build race

package openai

// raceDetector: the race detector multiplies memory use several times, so peak-memory
// figures taken under it say nothing about awf.
const raceDetector = true
