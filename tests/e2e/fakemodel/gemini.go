package fakemodel

import (
	"encoding/json"
	"net/http"
	"strings"
)

// geminiRequest is the part of a generateContent request the fake reads.
type geminiRequest struct {
	Contents []struct {
		Role  string `json:"role"`
		Parts []struct {
			FunctionCall *struct {
				Name string `json:"name"`
			} `json:"functionCall"`
			FunctionResponse *struct {
				Name     string `json:"name"`
				Response any    `json:"response"`
			} `json:"functionResponse"`
		} `json:"parts"`
	} `json:"contents"`
	Tools []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig *struct {
		ResponseMimeType   string         `json:"responseMimeType"`
		ResponseSchema     map[string]any `json:"responseSchema"`
		ResponseJSONSchema map[string]any `json:"responseJsonSchema"`
	} `json:"generationConfig"`
}

func parseGemini(body []byte, r *http.Request) (turn, meta, error) {
	var req geminiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return turn{}, meta{}, err
	}
	var t turn
	for _, tl := range req.Tools {
		for _, fd := range tl.FunctionDeclarations {
			t.offered = append(t.offered, fd.Name)
		}
	}
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			if p.FunctionCall != nil {
				t.called = append(t.called, p.FunctionCall.Name)
			}
			if p.FunctionResponse != nil {
				t.results = append(t.results, stringLeaves(p.FunctionResponse.Response))
			}
		}
	}
	if gc := req.GenerationConfig; gc != nil && gc.ResponseMimeType == "application/json" {
		t.wantsJSON = true
		t.jsonSchema = gc.ResponseJSONSchema
		if t.jsonSchema == nil {
			t.jsonSchema = gc.ResponseSchema
		}
	}
	// The model and method are in the path: /v1beta/models/{model}:{method}.
	last := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
	model, method, _ := strings.Cut(last, ":")
	return t, meta{model: model, stream: method == "streamGenerateContent"}, nil
}

func writeGemini(f *Server, w http.ResponseWriter, rep reply, m meta) {
	var part map[string]any
	if rep.kind == replyTool {
		part = map[string]any{"functionCall": map[string]any{"name": rep.tool, "args": nonNil(rep.args)}}
	} else {
		part = map[string]any{"text": rep.text}
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{
			"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  m.model,
		"responseId":    f.nextID("resp"),
	}
	if !m.stream {
		writeJSON(w, http.StatusOK, resp)
		return
	}
	startSSE(w).event("", resp)
}
