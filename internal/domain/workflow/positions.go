package workflow

import "github.com/awf-dev/awf/internal/domain/fault"

// The lookups below let a validator point at the most precise place it can: the exact key or
// value when the workflow came from a file, or a coarser place (the state, the file) when the
// workflow was built in code or the key was never written.

// KeyAt returns where key path (for example "states.initial") is written, or the start of the
// file when it is not.
func (w *Workflow) KeyAt(path string) fault.Position {
	if p, ok := w.Pos[path]; ok {
		return p
	}
	return w.fileStart()
}

// ValueAt returns where the value of path starts, falling back to the key, then the file.
func (w *Workflow) ValueAt(path string) fault.Position {
	if p, ok := w.ValuePos[path]; ok {
		return p
	}
	return w.KeyAt(path)
}

func (w *Workflow) fileStart() fault.Position {
	if w.File == "" {
		return fault.Position{}
	}
	return fault.Position{File: w.File, Line: 1, Column: 1}
}

// KeyAt returns where key path (relative to the state, such as "options.model") is written,
// or where the state's name is when it is not.
func (s *State) KeyAt(path string) fault.Position {
	if p, ok := s.KeyPos[path]; ok {
		return p
	}
	return s.Pos
}

// ValueAt returns where the value of path starts, falling back to the key, then the state.
func (s *State) ValueAt(path string) fault.Position {
	if p, ok := s.ValuePos[path]; ok {
		return p
	}
	return s.KeyAt(path)
}

// KeyAt returns where key path (relative to the block, such as "intent.allow") is written, or
// where the mcp_proxy key is when it is not.
func (m *MCPProxy) KeyAt(path string) fault.Position {
	if p, ok := m.KeyPos[path]; ok {
		return p
	}
	return m.Pos
}

// ValueAt returns where the value of path starts, falling back to the key, then the block.
func (m *MCPProxy) ValueAt(path string) fault.Position {
	if p, ok := m.ValuePos[path]; ok {
		return p
	}
	return m.KeyAt(path)
}
