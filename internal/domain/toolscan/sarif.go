package toolscan

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// Location is where a server is declared (plugins.yaml, relative to the project root, and the
// line of its entry): code-scanning UIs show a finding there.
type Location struct {
	URI  string
	Line int
}

// SARIF renders findings as a SARIF 2.1.0 log for code-scanning UIs: one run of tool awf,
// every rule described, each finding a result at its server's declaration with the tool as a
// logical location. where says where each server is declared.
func SARIF(fs []Finding, version string, where func(server string) Location) []byte {
	ids := RuleIDs()
	index := map[string]int{}
	rules := make([]sarifRule, len(ids))
	for i, id := range ids {
		r := Rules[id]
		index[id] = i
		rules[i] = sarifRule{
			ID: id, Name: id,
			ShortDescription:     sarifText{r.Summary},
			Help:                 sarifText{"Review the tool's definition; accept it with `awf plugins lock --accept <plugin>/<tool>` if you trust it."},
			DefaultConfiguration: sarifConfig{Level: level(r.Severity)},
			Properties:           map[string]any{"tags": []string{"security", "mcp"}, "security-severity": securitySeverity(r.Severity)},
		}
	}
	results := make([]sarifResult, 0, len(fs))
	for _, f := range fs {
		loc := where(f.Server)
		if loc.URI == "" {
			loc.URI = ".awf/plugins.yaml"
		}
		loc.Line = max(loc.Line, 1)
		sum := sha256.Sum256([]byte(f.Rule + "\x00" + f.Server + "\x00" + f.Tool + "\x00" + f.Field + "\x00" + f.Text))
		results = append(results, sarifResult{
			RuleID: f.Rule, RuleIndex: index[f.Rule], Level: level(f.Severity),
			Message: sarifText{Escape(f.Server) + "/" + Escape(f.Tool) + " " + f.Field + ": " + f.Message + ": " + f.Text},
			Locations: []sarifLocation{{
				PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: loc.URI}, Region: sarifRegion{StartLine: loc.Line}},
				LogicalLocations: []sarifLogical{{Name: Escape(f.Tool), FullyQualifiedName: Escape(f.Server) + "/" + Escape(f.Tool), Kind: "function"}},
			}},
			PartialFingerprints: map[string]string{"awfToolFinding/v1": hex.EncodeToString(sum[:16])},
		})
	}
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs: []sarifRun{{
			Tool:    sarifTool{Driver: sarifDriver{Name: "awf", InformationURI: "https://github.com/awf-dev/awf", Version: version, Rules: rules}},
			Results: results,
		}},
	}
	b, _ := json.MarshalIndent(log, "", "  ")
	return append(b, '\n')
}

// level is SARIF's level for a severity.
func level(s Severity) string {
	switch s {
	case High:
		return "error"
	case Medium:
		return "warning"
	}
	return "note"
}

// securitySeverity is GitHub code scanning's 0–10 score for a severity.
func securitySeverity(s Severity) string {
	switch s {
	case High:
		return "8.0"
	case Medium:
		return "5.0"
	}
	return "2.0"
}

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
	InformationURI string      `json:"informationUri"`
	Version        string      `json:"version,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name"`
	ShortDescription     sarifText      `json:"shortDescription"`
	Help                 sarifText      `json:"help"`
	DefaultConfiguration sarifConfig    `json:"defaultConfiguration"`
	Properties           map[string]any `json:"properties"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical  `json:"physicalLocation"`
	LogicalLocations []sarifLogical `json:"logicalLocations"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

type sarifLogical struct {
	Name               string `json:"name"`
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}
