// Package options is the one way awf checks an agent step's `options:` mapping, for every
// provider alike (the four agent CLIs and openai_compatible). A provider declares its options
// as a Schema (name, type, allowed values, a check and the hint to print); Validate reports
// every problem at once for `awf validate` (each at the option's file:line:col through
// CheckSteps), and Parse hands the provider the values normalised to Go types at run time.
package options
