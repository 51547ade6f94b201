package cireport

import (
	"encoding/json"
	"sort"
)

// SARIF 2.1.0, the subset awf writes: one run, one rule per finding code, one result per
// finding located at its step in the workflow file.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	ShortDescription sarifMessage `json:"shortDescription"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

type sarifLocation struct {
	Physical *sarifPhysical `json:"physicalLocation,omitempty"`
	Logical  []sarifLogical `json:"logicalLocations,omitempty"`
}

type sarifPhysical struct {
	Artifact sarifArtifact `json:"artifactLocation"`
	Region   *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

type sarifLogical struct {
	Name               string `json:"name"`
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

// SARIF is the run's refusals and sandbox denials as a SARIF 2.1.0 log, for code scanning:
// refusals at level error, sandbox denials at warning, each located at its step's line in the
// workflow file and named by workflow/step/tool.
func (s Summary) SARIF(awfVersion string) ([]byte, error) {
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "awf", Version: awfVersion,
		InformationURI: "https://github.com/awf-dev/awf", Rules: []sarifRule{}}}, Results: []sarifResult{}}
	rules := map[string]string{}
	for _, f := range s.Findings {
		level, desc := "error", "a tool call awf refused"
		if f.Kind == KindSandbox {
			level, desc = "warning", "a confined Bash call the kernel sandbox denied"
		}
		code := f.Code
		if code == "" {
			code = f.Kind
		}
		rules[code] = desc
		loc := sarifLocation{Logical: []sarifLogical{{Name: f.Tool, FullyQualifiedName: s.Workflow + "/" + f.Step + "/" + f.Tool, Kind: "function"}}}
		if f.Pos.File != "" {
			loc.Physical = &sarifPhysical{Artifact: sarifArtifact{URI: f.Pos.File}}
			if f.Pos.Line > 0 {
				loc.Physical.Region = &sarifRegion{StartLine: f.Pos.Line, StartColumn: f.Pos.Column}
			}
		}
		run.Results = append(run.Results, sarifResult{RuleID: code, Level: level,
			Message:   sarifMessage{Text: controlFree("step " + f.Step + ", " + f.Tool + ": " + f.Message)},
			Locations: []sarifLocation{loc}})
	}
	ids := make([]string, 0, len(rules))
	for id := range rules {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: id, ShortDescription: sarifMessage{Text: rules[id]}})
	}
	return json.MarshalIndent(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}}, "", "  ")
}
