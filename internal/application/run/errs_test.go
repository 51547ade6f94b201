package run

import "io/fs"

var errNotExist = fs.ErrNotExist
