package ports

// PathProbe tells whether a path exists, for inputs declared with `validation: {file_exists:
// true}`: the run checks each such value before anything runs, without the application
// touching the file system itself.
type PathProbe interface {
	// Exists reports whether path names an existing file or directory, symlinks followed. An
	// error means awf could not tell (permission denied, a name too long), not that the path is
	// missing.
	Exists(path string) (bool, error)
}
