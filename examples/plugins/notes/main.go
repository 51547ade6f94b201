// Command notes is an example awf plugin: a small notes store whose operations span the three
// intents of awf's intent rule — get and list read, put writes, delete destroys. Notes persist in
// <dir>/notes.json, where dir comes from the plugin's config in .awf/plugins.yaml (relative
// paths are relative to the project root, where awf starts plugins):
//
//	plugins:
//	  notes:
//	    command: bin/plugins/notes
//	    config: {dir: .awf/notes}
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/awf-dev/awf/pkg/plugin"
)

// Input schemas. put's shows what awf keeps when exposing a schema: nested objects, arrays,
// enums, defaults and patterns reach the agent as written.
const (
	keySchema = `{"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._/-]{0,127}$",
	  "description": "Note key: letters, digits, '.', '_', '/' or '-', e.g. \"todo/release\""}`

	getSchema = `{"type": "object", "properties": {"key": ` + keySchema + `},
	  "required": ["key"], "additionalProperties": false}`

	listSchema = `{"type": "object", "properties": {
	    "prefix": {"type": "string", "description": "Only keys starting with this", "default": ""},
	    "tag": {"type": "string", "description": "Only notes carrying this tag"},
	    "limit": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 100}
	  }, "additionalProperties": false}`

	putSchema = `{"type": "object", "properties": {
	    "key": ` + keySchema + `,
	    "text": {"type": "string", "maxLength": 100000, "description": "Note body; the first line is its title"},
	    "tags": {"type": "array", "items": {"type": "string", "minLength": 1}, "uniqueItems": true, "maxItems": 20},
	    "meta": {"type": "object", "properties": {
	        "priority": {"type": "string", "enum": ["low", "normal", "high"], "default": "normal"}
	      }, "additionalProperties": false}
	  }, "required": ["key", "text"], "additionalProperties": false}`

	deleteSchema = getSchema
)

// notes holds the store once Init has opened it.
type notes struct {
	mu    sync.Mutex
	store *Store
}

func (n *notes) init(_ context.Context, raw json.RawMessage) error {
	var cfg struct {
		Dir string `json:"dir"`
	}
	if err := plugin.DecodeArgs(raw, &cfg); err != nil {
		return fmt.Errorf("notes config: %v (the only key is dir)", err)
	}
	if strings.TrimSpace(cfg.Dir) == "" {
		return errors.New("notes config needs dir: the directory to keep notes.json in, e.g. `config: {dir: .awf/notes}`")
	}
	s, err := Open(cfg.Dir)
	if err != nil {
		return err
	}
	n.mu.Lock()
	n.store = s
	n.mu.Unlock()
	plugin.Logger().Info("notes store opened", "dir", cfg.Dir, "notes", s.Len())
	return nil
}

func (n *notes) get() (*Store, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.store == nil {
		return nil, errors.New("the notes store is not configured: awf did not call Init with a dir")
	}
	return n.store, nil
}

type keyArgs struct {
	Key string `json:"key"`
}

func (n *notes) opGet(_ context.Context, raw json.RawMessage) (plugin.Result, error) {
	var in keyArgs
	if err := plugin.DecodeArgs(raw, &in); err != nil {
		return plugin.Result{}, err
	}
	s, err := n.get()
	if err != nil {
		return plugin.Result{}, err
	}
	note, err := s.Get(in.Key)
	if err != nil {
		return plugin.Errorf("no note with key %q; call notes_list to see the keys", in.Key), nil
	}
	return plugin.JSON(note)
}

func (n *notes) opList(_ context.Context, raw json.RawMessage) (plugin.Result, error) {
	in := struct {
		Prefix string `json:"prefix"`
		Tag    string `json:"tag"`
		Limit  int    `json:"limit"`
	}{Limit: 100}
	if err := plugin.DecodeArgs(raw, &in); err != nil {
		return plugin.Result{}, err
	}
	s, err := n.get()
	if err != nil {
		return plugin.Result{}, err
	}
	list, total := s.List(in.Prefix, in.Tag, in.Limit)
	if list == nil {
		list = []Summary{}
	}
	return plugin.JSON(struct {
		Notes []Summary `json:"notes"`
		Total int       `json:"total"`
	}{list, total})
}

func (n *notes) opPut(_ context.Context, raw json.RawMessage) (plugin.Result, error) {
	var in struct {
		Key  string   `json:"key"`
		Text string   `json:"text"`
		Tags []string `json:"tags"`
		Meta struct {
			Priority string `json:"priority"`
		} `json:"meta"`
	}
	if err := plugin.DecodeArgs(raw, &in); err != nil {
		return plugin.Result{}, err
	}
	if in.Meta.Priority == "" {
		in.Meta.Priority = "normal"
	}
	s, err := n.get()
	if err != nil {
		return plugin.Result{}, err
	}
	replaced, err := s.Put(Note{Key: in.Key, Text: in.Text, Tags: in.Tags, Priority: in.Meta.Priority})
	if err != nil {
		return plugin.Result{}, err
	}
	if replaced {
		return plugin.Text(fmt.Sprintf("updated note %q", in.Key)), nil
	}
	return plugin.Text(fmt.Sprintf("created note %q", in.Key)), nil
}

func (n *notes) opDelete(_ context.Context, raw json.RawMessage) (plugin.Result, error) {
	var in keyArgs
	if err := plugin.DecodeArgs(raw, &in); err != nil {
		return plugin.Result{}, err
	}
	s, err := n.get()
	if err != nil {
		return plugin.Result{}, err
	}
	if err := s.Delete(in.Key); err != nil {
		if errors.Is(err, errNotFound) {
			return plugin.Errorf("no note with key %q to delete", in.Key), nil
		}
		return plugin.Result{}, err
	}
	return plugin.Text(fmt.Sprintf("deleted note %q", in.Key)), nil
}

func newPlugin() *plugin.Plugin {
	n := &notes{}
	yes, no := plugin.Bool(true), plugin.Bool(false)
	return &plugin.Plugin{
		Name:        "notes",
		Version:     "1.0.0",
		Description: "A small persistent notes store: get, list, put, delete.",
		Init:        n.init,
		Operations: []plugin.Operation{
			{
				Name: "get", Description: "Read one note by key.", InputSchema: getSchema,
				OutputDescription: "The note as JSON: key, text, tags, priority, updated.",
				Annotations:       plugin.Annotations{Title: "Get note", ReadOnly: yes, Destructive: no, Idempotent: yes, OpenWorld: no},
				Handler:           n.opGet,
			},
			{
				Name: "list", Description: "List notes by key prefix and/or tag, sorted by key.", InputSchema: listSchema,
				OutputDescription: "JSON {notes: [{key, title, tags, priority, updated}], total}.",
				Annotations:       plugin.Annotations{Title: "List notes", ReadOnly: yes, Destructive: no, Idempotent: yes, OpenWorld: no},
				Handler:           n.opList,
			},
			{
				Name: "put", Description: "Create or replace the note under key.", InputSchema: putSchema,
				OutputDescription: "Whether the note was created or updated.",
				Annotations:       plugin.Annotations{Title: "Save note", ReadOnly: no, Destructive: no, Idempotent: yes, OpenWorld: no},
				Handler:           n.opPut,
			},
			{
				Name: "delete", Description: "Delete the note under key. It cannot be recovered.", InputSchema: deleteSchema,
				Annotations: plugin.Annotations{Title: "Delete note", ReadOnly: no, Destructive: yes, Idempotent: yes, OpenWorld: no},
				Handler:     n.opDelete,
			},
		},
	}
}

func main() { plugin.Serve(newPlugin()) }
